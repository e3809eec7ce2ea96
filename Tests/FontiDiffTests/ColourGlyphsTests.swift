import Foundation
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiText

/// Colour glyphs compared glyph by glyph (#56, item 4): each pair of `Fixtures/Diff/colour`
/// changes one glyph's colour, which is named with its kind; the same colour glyphs written
/// another way are no change; and no table's bytes make a reader trap or run away.
@Suite struct ColourGlyphsTests {
  static let folder = TestFixtures.folder + "/Diff/colour"

  struct Pair: CustomTestStringConvertible, Sendable {
    var format: String
    var kind: String
    var words: String
    var testDescription: String { format }
  }

  static let pairs: [Pair] = [
    Pair(format: "colrv0", kind: "colour.colr.layers", words: "COLR layers changed: 1 glyph (C)"),
    Pair(
      format: "colrv1", kind: "colour.colr.paints", words: "COLR paint graphs changed: 1 glyph (A)"
    ),
    Pair(
      format: "cbdt", kind: "colour.cbdt.glyphs",
      words: "CBDT bitmaps changed at 16, 32 ppem: 1 glyph (B)"),
    Pair(
      format: "sbix", kind: "colour.sbix.glyphs",
      words: "sbix bitmaps changed at 16, 32 ppem: 1 glyph (C)"),
    Pair(format: "svg", kind: "colour.svg.glyphs", words: "SVG documents changed: 1 glyph (D)"),
  ]

  static func face(_ format: String, _ side: String) throws -> HarfBuzzFace {
    let folder = folder + "/\(format)-\(side)"
    let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
    return try HarfBuzzFace(file: folder + "/" + file)
  }

  static func compare(_ b: HarfBuzzFace, _ a: HarfBuzzFace) -> DeclaredDifference {
    DeclaredDifference.compare(
      b, a, face: "Regular", common: Array(0x41...0x44), outlinesChanged: false,
      charactersChanged: false)
  }

  @Test(arguments: pairs) func aChangedColourGlyphIsNamedWithItsKind(_ pair: Pair) throws {
    let found = Self.compare(
      try Self.face(pair.format, "before"), try Self.face(pair.format, "after"))
    #expect(found.changes.map(\.kind) == [pair.kind], "\(found.changes)")
    #expect(found.lines == [pair.words])
    let change = try #require(found.changes.first)
    #expect(change.before == .list([.text(String(pair.words.suffix(2).prefix(1)))]))
    #expect(change.after == change.before)
  }

  /// The same colour glyphs written another way: layer records in another order, shared layers
  /// written out, strikes and images elsewhere with other index formats, documents split,
  /// reordered and gzip-compressed. The bytes differ; nothing is a change.
  @Test(arguments: pairs.map(\.format)) func aRepackedTableIsNoChange(_ format: String) throws {
    let before = try Self.face(format, "before")
    let repacked = try Self.face(format, "repacked")
    let tag = ["colrv0": "COLR", "colrv1": "COLR", "cbdt": "CBLC", "sbix": "sbix", "svg": "SVG "]
    #expect(!before.hasSameTable(try #require(tag[format]), as: repacked))
    let found = Self.compare(before, repacked)
    #expect(found.changes.isEmpty, "\(found.changes)")
    #expect(Self.compare(repacked, before).changes.isEmpty)
  }

  @Test func aColourTableAddedNamesTheGlyphsItColours() throws {
    let plain = try HarfBuzzFace(
      file: TestFixtures.folder + "/Diff/declared/before/FixtureDeclared-Regular.ttf")
    let colour = try Self.face("svg", "before")
    let found = Self.compare(plain, colour)
    let svg = try #require(found.changes.first { $0.kind == "colour.svg" })
    #expect(svg.text == "SVG glyphs added: 4 glyphs (A, B, C, D)")
    #expect(svg.before == .none)
  }

  // MARK: Hostile bytes

  /// Paint graphs that loop (a glyph painting itself, layers that contain themselves) or nest
  /// past any depth are read to the end and hashed alike on both sides.
  @Test func cyclesAndDeepNestingAreHashedNotFollowed() throws {
    let keys = GlyphKeys(keys: (0..<8).map { "g\($0)" }, labels: (0..<8).map { "g\($0)" })
    // Header (34 bytes), BaseGlyphList at 34: glyph 1 → its paint.
    var t: [UInt8] = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    t += be32(34) + be32(0) + be32(0) + be32(0) + be32(0)
    t += be32(1) + [0, 1] + be32(10)
    // At 44: PaintColrGlyph of glyph 1 itself.
    t += [11, 0, 1]
    let selfPainting = try ColourGlyphPaints.read(FontTable(t), keys: keys)
    #expect(selfPainting.paints.count == 1)
    // A chain of 2,000 PaintTranslate, each the next's child, ending in a PaintSolid.
    var deep: [UInt8] = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    deep += be32(34) + be32(0) + be32(0) + be32(0) + be32(0)
    deep += be32(1) + [0, 2] + be32(10)
    for _ in 0..<2000 { deep += [14, 0, 0, 8, 0, 1, 0, 1] }
    deep += [2, 0, 0, 0x40, 0]
    let nested = try ColourGlyphPaints.read(FontTable(deep), keys: keys)
    #expect(nested.paints.count == 1)
    // A translate whose child is itself.
    var loop = Array(deep.prefix(44))
    loop += [14, 0, 0, 0, 0, 1, 0, 1]
    #expect(try ColourGlyphPaints.read(FontTable(loop), keys: keys).paints.count == 1)
  }

  /// Random bytes over each fixture's colour table, and every table cut short: each reader
  /// returns or throws, never traps, and the comparison of the damaged face with the sound one
  /// says something or nothing without trapping.
  @Test func damagedColourTablesNeverTrap() throws {
    var generator = SystemRandomNumberGenerator()
    for (format, tag) in [
      ("colrv0", "COLR"), ("colrv1", "COLR"), ("cbdt", "CBLC"), ("cbdt", "CBDT"),
      ("sbix", "sbix"), ("svg", "SVG "),
    ] {
      let face = try Self.face(format, "before")
      let keys = GlyphKeys(face: face)
      let sound = face.tableBytes(tag)
      let index = face.tableBytes("CBLC")
      let images = face.tableBytes("CBDT")
      func read(_ bytes: [UInt8]) {
        switch tag {
        case "COLR": _ = try? ColourGlyphPaints.read(FontTable(bytes), keys: keys)
        case "SVG ": _ = try? SVGGlyphDocuments.read(FontTable(bytes))
        case "sbix":
          _ = bytes.withUnsafeBytes { try? ColourBitmapStrike.sbix($0, glyphCount: 6) }
        default:
          let (i, d) = tag == "CBLC" ? (bytes, images) : (index, bytes)
          _ = i.withUnsafeBytes { i in
            d.withUnsafeBytes { try? ColourBitmapStrike.cblc(i, cbdt: $0, glyphCount: 6) }
          }
        }
      }
      for length in 0..<sound.count { read(Array(sound.prefix(length))) }
      for _ in 0..<400 {
        var bytes = sound
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(
            in: 0...255, using: &generator)
        }
        read(bytes)
      }
      // Counts at their largest: every 16- and 32-bit field in turn set to all ones.
      for at in 0..<(sound.count - 1) {
        var bytes = sound
        bytes[at] = 0xFF
        bytes[at + 1] = 0xFF
        read(bytes)
      }
    }
  }

  @Test func gzipIsInflatedWithinItsLimit() throws {
    let text = Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
    let folder = ColourGlyphsTests.folder + "/svg-repacked"
    let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
    let svg = try HarfBuzzFace(file: folder + "/" + file).tableBytes("SVG ")
    // D's document, the one stored gzip-compressed.
    let documents = try SVGGlyphDocuments.read(FontTable(svg)).documents.values
    let range = try #require(documents.first { svg[$0.lowerBound] == 0x1F })
    var budget = 1 << 20
    let content = SVGDocument.content(svg[range], budget: &budget)
    #expect(content.starts(with: Array("<svg".utf8)), "\(content.prefix(8))")
    #expect(ZLib.gunzip(svg[range], limit: 1 << 20).map { $0[...] } == content)
    #expect(ZLib.gunzip(ArraySlice(text), limit: 1 << 20) == nil)
    #expect(ZLib.gunzip(svg[range].dropLast(4), limit: 1 << 20) == nil)
    #expect(ZLib.gunzip(svg[range], limit: 10) == nil)
  }

  func be32(_ n: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(n >> $0 & 0xFF) } }
}
