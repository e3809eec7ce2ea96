import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiModel
@testable import FontiSupport
@testable import FontiText

/// Thumbnails: their size, their pixels (a box filter keeps the image's mean colour and a flat
/// image flat to the edge), reproducible bytes, and hostile source files refused cleanly.
@Suite(.serialized) struct ThumbnailTests {
  @Test func sizesStayBetweenTheLimitsAndKeepProportions() {
    func size(_ w: Int, _ h: Int) -> [Int] {
      let s = Thumbnail.size(ofSource: w, h)
      return [s.width, s.height]
    }
    #expect(size(1080, 1080) == [270, 270])  // two exact halvings
    #expect(size(2160, 2160) == [270, 270])
    #expect(size(3240, 3240) == [320, 320])  // 405 after three halvings, then a GOOD pass
    #expect(size(4096, 4096) == [256, 256])
    #expect(size(8192, 8192) == [256, 256])
    #expect(size(256, 256) == [256, 256])
    #expect(size(300, 300) == [300, 300])
    #expect(size(100, 50) == [100, 50])  // never enlarged
    #expect(size(1000, 500) == [320, 160])
    #expect(size(8192, 1) == [320, 1])
    #expect(size(0, 0) == [1, 1])
    #expect(Thumbnail.plan(width: 1080, height: 1080).halvings == 2)
  }

  /// A specimen drawn from the fixture fonts at the default 1080 px.
  func specimen(in folder: TemporaryDirectory, theme: Theme = .ink) throws -> String {
    let environment = try TestFonts.environment()
    let renderer = SpecimenRenderer(environment: environment)
    let family = try #require(environment.catalog.family(named: "DejaVu Serif"))
    let path = folder.file("specimen.png")
    _ = try renderer.render(SpecimenRequest(family: family, theme: theme, saved: true), to: path)
    return path
  }

  @Test func thumbnailOfASpecimen() throws {
    let folder = try TemporaryDirectory("thumbnail")
    let source = try specimen(in: folder)
    let path = folder.file("thumb.png")
    let size = try Thumbnail.write(fromPNG: source, to: path)
    #expect(size == Thumbnail.Size(width: 270, height: 270))
    let image = try #require(RasterImage.load(png: path))
    #expect(image.width == 270 && image.height == 270)
    try Golden.checkImage(path, named: "thumbnail-ink")

    // A box filter keeps the mean colour: each channel's mean within half a level.
    let original = try #require(RasterImage.load(png: source))
    for shift in [0, 8, 16] as [UInt32] {
      func mean(_ r: RasterImage) -> Double {
        Double(r.pixels.reduce(0) { $0 + Int(($1 >> shift) & 0xFF) }) / Double(r.pixels.count)
      }
      #expect(abs(mean(original) - mean(image)) < 0.5)
    }
    // Small: a 1080 px ink specimen of a Latin family is a few kilobytes.
    let bytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(bytes < 20_000)
  }

  @Test func sameImageSameBytesFromMemoryOrFromAFile() throws {
    let folder = try TemporaryDirectory("thumbnail")
    let source = try specimen(in: folder)
    try Thumbnail.write(fromPNG: source, to: folder.file("a.png"))
    try Thumbnail.write(fromPNG: source, to: folder.file("b.png"))
    let surface = try CairoSurface.image(
      png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
    let result = try Thumbnail.write(surface, to: folder.file("c.png"))
    #expect(result.staged == nil)
    #expect(result.size == Thumbnail.Size(width: 270, height: 270))
    let a = try Data(contentsOf: URL(fileURLWithPath: folder.file("a.png")))
    #expect(a == (try Data(contentsOf: URL(fileURLWithPath: folder.file("b.png")))))
    #expect(a == (try Data(contentsOf: URL(fileURLWithPath: folder.file("c.png")))))
  }

  @Test func aFlatImageStaysFlatToItsEdges() throws {
    // Every path (exact halvings, a box pass, a bilinear pass, a copy) keeps a flat colour
    // flat, borders included: nothing from outside the image or from the ink background under
    // it bleeds in.
    let folder = try TemporaryDirectory("thumbnail")
    for (width, height) in [(1080, 1080), (1000, 500), (3240, 3240), (333, 333), (300, 300)] {
      let cream: UInt32 = 0xF3EBDD
      let source = folder.file("flat-\(width).png")
      RasterImage(
        width: width, height: height,
        pixels: [UInt32](repeating: cream, count: width * height)
      ).write(png: source)
      let path = folder.file("flat-\(width)-thumb.png")
      try Thumbnail.write(fromPNG: source, to: path)
      let image = try #require(RasterImage.load(png: path))
      let flat = RasterImage(
        width: image.width, height: image.height,
        pixels: [UInt32](repeating: cream, count: image.pixels.count))
      let difference = try #require(image.difference(flat))
      #expect(difference.maximum <= 1, "\(width)×\(height) \(difference.maximum)")
    }
  }

  @Test func stagingLeavesTheThumbnailUnderATemporaryName() throws {
    let folder = try TemporaryDirectory("thumbnail")
    let source = try specimen(in: folder)
    let surface = try CairoSurface.image(
      png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
    let result = try Thumbnail.write(surface, to: folder.file("thumb.png"), staging: true)
    let staged = try #require(result.staged)
    #expect(!FileManager.default.fileExists(atPath: folder.file("thumb.png")))
    #expect(AtomicFile.temporaryParts((staged as NSString).lastPathComponent)?.name == "thumb.png")
    #expect(RasterImage.load(png: staged)?.width == 270)
  }

  @Test func hostileSourcesAreRefusedAndNothingIsWritten() throws {
    let folder = try TemporaryDirectory("thumbnail")
    let real = try Data(contentsOf: URL(fileURLWithPath: try specimen(in: folder)))
    try FileManager.default.removeItem(atPath: folder.file("specimen.png"))

    // A PNG signature and header claiming 100000 × 100000 pixels, then nothing.
    var huge: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    huge += Array("IHDR".utf8) + [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 2, 0, 0, 0]
    var corrupt = [UInt8](real)
    for i in stride(from: 200, to: corrupt.count - 20, by: 97) { corrupt[i] ^= 0x5A }
    let cases: [(name: String, bytes: [UInt8]?, expected: String)] = [
      ("text.png", Array("not an image\n".utf8), "not a PNG image"),
      ("empty.png", [], "not a PNG image"),
      ("truncated.png", Array(real.prefix(300)), "cannot make a thumbnail"),
      ("corrupt.png", corrupt, "cannot make a thumbnail"),
      ("huge.png", huge, "100000×100000 pixels is larger than 8192×8192"),
      ("missing.png", nil, "no such file"),
    ]
    for c in cases {
      if let bytes = c.bytes {
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file(c.name)))
      }
      let out = folder.file("thumb-" + c.name)
      #expect(throws: RenderError.self, "\(c.name)") {
        try Thumbnail.write(fromPNG: folder.file(c.name), to: out)
      }
      do {
        try Thumbnail.write(fromPNG: folder.file(c.name), to: out)
      } catch {
        #expect(error.message.contains(c.expected), "\(c.name): \(error.message)")
        #expect(error.message.contains(folder.file(c.name)))
      }
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    try FileManager.default.createDirectory(
      atPath: folder.file("folder.png"), withIntermediateDirectories: false)
    #expect(throws: RenderError.self) {
      try Thumbnail.write(fromPNG: folder.file("folder.png"), to: folder.file("thumb.png"))
    }
    // No temporary file is left behind either.
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(
      left.filter { $0.hasPrefix(AtomicFile.temporaryPrefix) || $0.hasPrefix("thumb") }.isEmpty)
  }

  @Test func pngDimensionsReadOnlyAWellFormedHeader() {
    var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    header += Array("IHDR".utf8) + [0, 0, 4, 0x38, 0, 0, 4, 0x38]
    #expect(Thumbnail.pngDimensions(header)?.width == 1080)
    #expect(Thumbnail.pngDimensions(header)?.height == 1080)
    #expect(Thumbnail.pngDimensions(Array(header.prefix(23))) == nil)
    var zero = header
    zero[16...19] = [0, 0, 0, 0]
    #expect(Thumbnail.pngDimensions(zero) == nil)
    var negative = header
    negative[16] = 0x80
    #expect(Thumbnail.pngDimensions(negative) == nil)
    var other = header
    other[12...15] = ArraySlice(Array("IDAT".utf8))
    #expect(Thumbnail.pngDimensions(other) == nil)
  }
}
