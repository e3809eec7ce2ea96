import Foundation
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiText

/// Every table `diff` meets is accounted for (#56, item 2): compared by a named comparison or
/// on the short ignore list; none of the test fonts has one that would be "not compared".
@Suite struct DiffTableStatusTests {
  /// The font files under Tests/Fixtures (damaged ones included: what they hold still counts),
  /// but the corpus's pair made to hold a table no comparison knows (`meta`, kind
  /// `table.unexplained`).
  static func fonts() -> [String] {
    let root = TestFixtures.folder
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    return walker.compactMap { $0 as? String }.filter { path in
      [".ttf", ".otf", ".ttc", ".otc"].contains { path.lowercased().hasSuffix($0) }
        && !path.hasPrefix("Diff/corpus/table-unexplained/")
    }.sorted().map { root + "/" + $0 }
  }

  @Test func everyTableOfTheTestFontsHasAStatus() throws {
    let files = DiffTableStatusTests.fonts()
    #expect(files.count > 20)
    var met: [String: String] = [:]
    for file in files {
      guard let face = try? HarfBuzzFace(file: file) else { continue }
      for tag in face.tableTags() where met[tag] == nil { met[tag] = file }
    }
    #expect(met.keys.contains("DSIG") && met.keys.contains("MATH") && met.keys.contains("CPAL"))
    for (tag, file) in met.sorted(by: { $0.key < $1.key }) {
      #expect(TableStatus.of(tag) != nil, "table '\(tag)' (\(file)) has no status")
    }
  }

  @Test func aTableNoComparisonKnowsIsAChangeNamedAsSuch() throws {
    #expect(TableStatus.of("DSIG") == .ignored("a digital signature: its presence is not compared"))
    #expect(TableStatus.of("Zapf") == nil)
    #expect(TableStatus.of("OS/2") == .compared("declared values"))
  }

  /// Every test font, the damaged and hostile ones included, compared on what it declares with
  /// a sound font both ways: no trap, and a font compared with itself declares nothing new.
  @Test func everyTestFontIsComparedOnWhatItDeclaresWithoutTrapping() throws {
    let sound = try HarfBuzzFace(
      file: TestFixtures.folder + "/Diff/declared/before/FixtureDeclared-Regular.ttf")
    for file in DiffTableStatusTests.fonts() {
      guard let face = try? HarfBuzzFace(file: file) else { continue }
      let common: [UInt32] = Array(0x20..<0x7F)
      _ = DeclaredDifference.compare(
        face, sound, face: "Regular", common: common, outlinesChanged: false,
        charactersChanged: false)
      _ = DeclaredDifference.compare(
        sound, face, face: "Regular", common: common, outlinesChanged: false,
        charactersChanged: false)
      let itself = DeclaredDifference.compare(
        face, face, face: "Regular", common: common, outlinesChanged: false,
        charactersChanged: false)
      #expect(itself.changes.isEmpty && itself.info.isEmpty, "\(file)")
    }
  }

  /// Hostile bytes read as nothing, never a trap.
  @Test func truncatedAndHostileTablesReadWithoutTrapping() {
    let empty = FontTable([])
    #expect(empty.u16(0) == nil && empty.u32(-4) == nil && empty.slice(0, 1) == nil)
    #expect(NameTable.read(FontTable([0, 0, 0xFF, 0xFF, 0, 6])).isEmpty)
    // A name record whose string runs past the end is left out.
    let record: [UInt8] = [0, 0, 0, 1, 0, 18, 0, 3, 0, 1, 0x04, 0x09, 0, 13, 0xFF, 0xFF, 0, 0]
    #expect(NameTable.read(FontTable(record)).isEmpty)
    #expect(
      ColourPalettes.read(FontTable([0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 9, 0, 0, 0, 200])) == [])
    #expect(GlyphInstructions.instructions(FontTable([0x7F, 0xFF, 0, 0])) == [])
    #expect(
      GlyphInstructions.instructions(FontTable([0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF])) == [])
    let loca = FontTable([0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
    #expect(
      GlyphInstructions.read(
        glyf: FontTable([1, 2, 3]), loca: loca, longOffsets: true, glyphCount: 65535)?.count
        == 1)
    #expect(
      StyleAttributes.read(FontTable([0, 1, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF]))
      {
        "\($0)"
      }.isEmpty)
    #expect(
      VariationSequences.read(FontTable([0, 0, 0, 1, 0, 0, 0, 5, 0xFF, 0xFF, 0xFF, 0])) { "\($0)" }
        .isEmpty)
    #expect(MathConstants.read(FontTable([0, 1, 0, 0, 0xFF, 0xF0])).isEmpty)
    // COLR: base glyph records past the end, layers counted past the end, a version-1 paint
    // list (no count claimed); a sound one counts each glyph once per palette entry.
    #expect(
      ColourLayers.glyphsByPaletteEntry(FontTable([0, 0, 0xFF, 0xFF, 0, 0, 0, 14, 0, 0, 0, 14]))
        == nil)
    let oneGlyph: [UInt8] = [
      0, 0, 0, 1, 0, 0, 0, 14, 0, 0, 0, 20, 0, 3,  // header: 1 base, 3 layers
      0, 7, 0, 0, 0, 0xFF,  // glyph 7: layers 0…(65535), only 3 exist
      0, 1, 0, 2, 0, 2, 0, 2, 0, 3, 0, 5,  // layers: entries 2, 2, 5
    ]
    #expect(ColourLayers.glyphsByPaletteEntry(FontTable(oneGlyph)) == [2: [7], 5: [7]])
    var paints = oneGlyph
    paints[1] = 1
    paints += [0, 0, 0, 40]
    paints[14...17] = [0, 0, 0, 40]
    #expect(ColourLayers.glyphsByPaletteEntry(FontTable(paints)) == nil)
    for n in 0..<64 {
      let random = (0..<n).map { _ in UInt8.random(in: 0...255) }
      _ = ColourLayers.glyphsByPaletteEntry(FontTable(random))
    }
  }
}
