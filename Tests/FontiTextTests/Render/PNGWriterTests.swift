import CCairo
import FontTestSupport
import Foundation
import Testing

@testable import FontiModel
@testable import FontiText

/// The PNG writer against Cairo's own reader: every pixel comes back, whatever the width (the
/// row conversion works four pixels at a time, then one at a time), in both compressions, and
/// whatever the runs of equal rows (compressed once per thread and reused, see `shim.h`).
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

  /// Runs of equal rows: long ones (written from the thread's cache of compressed runs), short
  /// ones, one from the second row, one to the last row, and more repeated rows than the cache
  /// holds. The bytes do not depend on what the cache held before.
  @Test func runsOfEqualRowsSurviveAndGiveTheSameBytes() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // (rows of one colour pattern, pattern): runs of 1 to 1,100 rows, patterns reused.
    let bands: [(rows: Int, pattern: UInt32)] = [
      (41, 1), (1, 2), (18, 3), (5, 4), (16, 5), (15, 6), (200, 7), (1, 8), (33, 9), (64, 10),
      (17, 1), (3, 11), (129, 12), (1, 13), (70, 3), (1_100, 7), (2, 14), (20, 15),
    ]
    let width = 37
    let height = bands.reduce(0) { $0 + $1.rows }
    func image(shift: UInt32) throws -> (CairoSurface, [UInt32]) {
      let surface = try CairoSurface.image(width: width, height: height)
      let data = try #require(cairo_image_surface_get_data(surface.pointer))
      let stride = Int(cairo_image_surface_get_stride(surface.pointer))
      var expected: [UInt32] = []
      var y = 0
      for band in bands {
        for _ in 0..<band.rows {
          for x in 0..<width {
            // Flat rows, and rows with a vertical stripe, as specimens have.
            let pixel = (band.pattern &+ shift) &* 0x01_0203 ^ (x % 9 == 0 ? 0x3F_3F3F : 0)
            UnsafeMutableRawPointer(data).storeBytes(
              of: 0xFF00_0000 | (pixel & 0xFF_FFFF), toByteOffset: y * stride + x * 4,
              as: UInt32.self)
            expected.append(pixel & 0xFF_FFFF)
          }
          y += 1
        }
      }
      cairo_surface_mark_dirty(surface.pointer)
      return (surface, expected)
    }
    let (surface, expected) = try image(shift: 0)
    let (other, otherExpected) = try image(shift: 100)
    for compression in [PNGCompression.fast, .small] {
      var written: [Data] = []
      for (round, (picture, pixels)) in [
        (surface, expected), (other, otherExpected), (surface, expected),
      ]
      .enumerated() {
        let path = folder + "/\(compression)-\(round).png"
        try picture.writePNG(to: path, compression: compression, sync: false)
        let image = try #require(RasterImage.load(png: path))
        #expect(image.width == width && image.height == height)
        #expect(image.pixels == pixels, "\(compression), round \(round)")
        written.append(try Data(contentsOf: URL(fileURLWithPath: path)))
      }
      #expect(written[0] == written[2], "\(compression): the same image, the same bytes")
    }
  }
}
