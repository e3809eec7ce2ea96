import FontTestSupport
import Testing

@testable import FontiDiff
@testable import FontiText

/// Glyphs are matched across versions by name (`ShapingComparer.name`), and names are asked
/// once per face. A diff makes fresh fonts at every instance it compares; a font freed at one
/// instance leaves its identity to the next font made, maybe the other side's, whose names
/// must never be taken from the first's.
struct GlyphNameTests {
  @Test func namesStayTheirFacesWhateverFontsComeAndGo() throws {
    let before = try HarfBuzzFace(file: TestFonts.proofFontsFolder + "/EBGaramond12-Subset.otf")
    let after = try HarfBuzzFace(file: TestFonts.proofFontsFolder + "/NotoSansArabic-Subset.ttf")
    let shaper = ShapingComparer(before: before, after: after)
    let glyphs: [UInt32] = [1, 2, 3, 4, 5]
    let differ = glyphs.filter {
      HarfBuzzFont(face: before).glyphName($0) != HarfBuzzFont(face: after).glyphName($0)
    }
    #expect(!differ.isEmpty)
    // As the diff does, instance after instance: a font of one side, freed, then the other's.
    for round in 0..<64 {
      let face = round % 2 == 0 ? before : after
      let font = HarfBuzzFont(face: face)
      for glyph in glyphs {
        #expect(
          shaper.name(glyph, font) == font.glyphName(glyph) ?? "#\(glyph)",
          "round \(round), glyph \(glyph)")
      }
    }
  }
}
