import CCairo
import Foundation
import Testing

@testable import FontiCore

/// The PNG writer against Cairo's own reader: every pixel comes back, whatever the width (the
/// row conversion works four pixels at a time, then one at a time), in both compressions.
struct PNGWriterTests {
  @Test(arguments: [1, 2, 3, 4, 5, 7, 8, 9, 1080])
  func everyPixelSurvivesTheRoundTrip(width: Int) throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let height = 3
    let surface = try CairoSurface.image(width: width, height: height)
    let data = try #require(cairo_image_surface_get_data(surface.pointer))
    let stride = Int(cairo_image_surface_get_stride(surface.pointer))
    var expected: [UInt32] = []
    var state: UInt32 = 0x1234_5678
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 1_664_525 &+ 1_013_904_223  // any spread of colours will do
        let pixel = state >> 8
        UnsafeMutableRawPointer(data).storeBytes(
          of: 0xFF00_0000 | pixel, toByteOffset: y * stride + x * 4, as: UInt32.self)
        expected.append(pixel)
      }
    }
    cairo_surface_mark_dirty(surface.pointer)
    for compression in [PNGCompression.fast, .small] {
      let path = folder + "/\(compression).png"
      try surface.writePNG(to: path, compression: compression, sync: false)
      let image = try #require(RasterImage.load(png: path))
      #expect(image.width == width && image.height == height)
      #expect(image.pixels == expected, "\(compression), width \(width)")
    }
  }
}
