import FontiSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FontiText

/// WOFF and WOFF2 decoded by FreeType into the sfnt the C libraries load, the checks before and
/// after, and the cache the decoded copies live in.
@Suite struct WebFontTests {
  static let folder = TestPaths.fixtures + "/WebFonts"
  static let ttf = TestPaths.fixtures + "/ExampleFonts/DejaVuSans-Subset.ttf"

  func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// The glyph outlines and every table but those WOFF2 rebuilds (glyf, loca, head) are the
  /// TTF's; the rebuilt loca ends where glyf does (FreeType 2.12 writes its last entry from the
  /// start of the font), and the rebuilt font is whole.
  @Test(arguments: ["woff", "woff2"]) func aWebFontDecodesToTheFontItWasMadeFrom(
    flavor: String
  ) throws {
    let sfnt = try WebFont.decode(try bytes(Self.folder + "/DejaVuSans-Subset.\(flavor)"))
    let original = try bytes(Self.ttf)
    #expect(WebFont.checkSFNT(sfnt) == nil)
    for tag in ["cmap", "hmtx", "GSUB", "GPOS", "name", "OS/2", "maxp", "post"] {
      let a = try #require(WebFont.table(original, tag))
      let b = try #require(WebFont.table(sfnt, tag))
      #expect(
        original[a.offset..<a.offset + a.length] == sfnt[b.offset..<b.offset + b.length], "\(tag)")
    }
    let glyf = try #require(WebFont.table(sfnt, "glyf"))
    let loca = try #require(WebFont.table(sfnt, "loca"))
    let last = try #require(WebFont.u16(sfnt, loca.offset + loca.length - 2))
    #expect(last * 2 == glyf.length)
    // HarfBuzz reads the decoded file: the same glyphs, the same characters.
    let directory = try TemporaryDirectory("fonti-webfont")
    let decoded = directory.file("decoded.ttf")
    try Data(sfnt).write(to: URL(fileURLWithPath: decoded))
    let a = try HarfBuzzFace(file: Self.ttf)
    let b = try HarfBuzzFace(file: decoded)
    #expect(a.glyphCount == b.glyphCount)
    #expect(a.unicodes == b.unicodes)
  }

  /// Each hostile web font is refused with what is wrong with it, never a crash.
  @Test(arguments: [
    (
      "truncated.woff2",
      "is a damaged WOFF2 web font: its header says 8668 bytes, the file has 4334"
    ),
    ("bad-signature.woff2", "is not a WOFF or WOFF2 web font"),
    ("size-lie.woff", "is a damaged WOFF web font: its header says the font is 25908 bytes"),
    ("corrupt-brotli.woff2", "is a damaged WOFF2 web font: FreeType cannot decode it"),
    ("corrupt-zlib.woff", "is a damaged WOFF web font: FreeType cannot decode it"),
    (
      "bomb.woff2",
      "is a damaged WOFF2 web font: it says it decodes to 104857600 bytes, more than the limit of 64 MiB"
    ),
  ])
  func aHostileWebFontIsRefusedSayingWhy(name: String, reason: String) throws {
    let input = try bytes(Self.folder + "/hostile/" + name)
    #expect(throws: WebFont.Failure.self) { try WebFont.decode(input) }
    do {
      _ = try WebFont.decode(input)
    } catch {
      #expect(error.description.contains(reason), "\(error.description)")
    }
  }

  /// A WOFF2 table directory that claims tables of more than the limit is refused from its
  /// directory, before anything is decompressed; so is a collection.
  @Test func theDirectoryIsCheckedBeforeDecoding() throws {
    var input = try bytes(Self.folder + "/DejaVuSans-Subset.woff2")
    #expect(WebFont.checkWOFF2(input) == nil)
    // The first table's origLength, a UIntBase128 after its flags byte, made 2^31 - 1.
    var at = 49
    let before = input.count
    _ = WebFont.base128(input, &at)
    input.replaceSubrange(49..<at, with: [0x87, 0xFF, 0xFF, 0xFF, 0x7F])
    WebFont.put(UInt32(input.count), into: &input, at: 8)
    #expect(input.count != before)
    #expect(WebFont.checkWOFF2(input)?.contains("more than the limit of 64 MiB") == true)
    var collection = try bytes(Self.folder + "/DejaVuSans-Subset.woff2")
    WebFont.put(0x7474_6366, into: &collection, at: 4)
    #expect(WebFont.checkWOFF2(collection)?.contains("a collection") == true)
    // UIntBase128: no leading zero byte, at most five bytes, no overflow.
    for bad in [[0x80, 0x01], [0xFF, 0xFF, 0xFF, 0xFF, 0x7F], [0x81, 0x81, 0x81, 0x81, 0x81]] {
      var i = 0
      #expect(WebFont.base128(bad.map(UInt8.init), &i) == nil, "\(bad)")
    }
    var i = 0
    #expect(WebFont.base128([0x8F, 0xFF, 0xFF, 0xFF, 0x7F], &i) == 0xFFFF_FFFF)
  }

  /// The decoded copy is named by the web font's SHA-256 in the cache folder given, reused while
  /// whole, decoded again when damaged; the path loaded maps back to the user's file. Threads
  /// that decode one font at once all get the same whole file.
  @Test func theDecodedCopyIsCachedByTheWebFontsBytes() throws {
    let directory = try TemporaryDirectory("fonti-webfont-cache")
    let source = directory.file("Site.woff2")
    let input = try bytes(Self.folder + "/DejaVuSans-Subset.woff2")
    try Data(input).write(to: URL(fileURLWithPath: source))
    let cache = directory.file("cache/fonti-batch/fonts")
    let expected = cache + "/" + SHA256.hex(input) + ".ttf"

    let paths = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      let path = (try? WebFont.loadablePath(for: source, cache: cache)) ?? "failed"
      paths.withLock { $0.append(path) }
    }
    #expect(paths.withLock { $0 } == Array(repeating: expected, count: 8))
    #expect(WebFont.userPath(of: expected) == source)
    #expect(try bytes(expected) == (try WebFont.decode(input)))
    #expect(WebFont.isDecoded(expected))
    // Only the decoded copy is left: no temporary file of any thread.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: cache) == [FileSystem.name(of: expected)])

    // A damaged copy is decoded again (a new file, so the memory of this process is passed).
    try Data([0, 1, 0, 0, 0, 9]).write(to: URL(fileURLWithPath: expected))
    #expect(!WebFont.isDecoded(expected))
    let again = directory.file("Again.woff2")
    try Data(input).write(to: URL(fileURLWithPath: again))
    #expect(try WebFont.loadablePath(for: again, cache: cache) == expected)
    #expect(WebFont.isDecoded(expected))

    // A TrueType font loads from where it is.
    #expect(try WebFont.loadablePath(for: Self.ttf, cache: cache) == Self.ttf)
    #expect(WebFont.userPath(of: Self.ttf) == Self.ttf)
  }
}
