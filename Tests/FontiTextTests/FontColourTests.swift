import FontTestSupport
import FontiModel
import Foundation
import Testing

@testable import FontiText

/// Which colour formats a face has, read from its tables (`Fixtures/ColourFonts`,
/// `Fixtures/Diff/colour`): a font without colour tables has none, and short or hostile
/// headers are read as absent, never past their end.
@Suite struct FontColourTests {
  static let fonts = TestFonts.fixtures + "/ColourFonts/"

  @Test func readsEachColourFormatAndItsPalettes() throws {
    #expect(
      FontColour(file: Self.fonts + "ColourZeroTest.ttf")
        == FontColour(formats: ["colr0"], palettes: 1))
    #expect(
      FontColour(file: Self.fonts + "ColourOneTest.ttf")
        == FontColour(formats: ["colr1"], palettes: 2))
    let diff = TestFonts.fixtures + "/Diff/colour/"
    #expect(FontColour(file: diff + "cbdt-before/FixtureCBDT-Regular.ttf")?.formats == ["cbdt"])
    #expect(FontColour(file: diff + "sbix-before/FixtureSbix-Regular.ttf")?.formats == ["sbix"])
    #expect(FontColour(file: diff + "svg-before/FixtureSVG-Regular.ttf")?.formats == ["svg"])
    #expect(FontColour(file: TestFonts.fixtures + "/Fonts/DejaVuSerif.ttf") == nil)
  }

  @Test func onlyWhatCairoCannotPaintIsNoted() {
    #expect(FontColour(formats: ["colr0"], palettes: 1).notDrawnNote == nil)
    #expect(
      FontColour(formats: ["colr1"], palettes: 1).notDrawnNote
        == "colour glyphs (COLRv1) drawn in one colour")
    #expect(
      FontColour(formats: ["svg"], palettes: 0).notDrawnNote
        == "colour glyphs (SVG) drawn in one colour")
    // SVG beside a format that is drawn (Twemoji's COLRv0): the colour is drawn.
    #expect(FontColour(formats: ["colr0", "svg"], palettes: 1).notDrawnNote == nil)
    #expect(
      FontColour.union([nil, FontColour(formats: ["svg"], palettes: 0), nil])
        == FontColour(formats: ["svg"], palettes: 0))
    #expect(FontColour.union([nil, nil]) == nil)
  }

  @Test func shortAndHostileHeadersReadAsAbsent() {
    func colr(_ bytes: [UInt8]) -> [FontColour.Format] {
      bytes.withUnsafeBytes { FontColour.colrFormats($0) }
    }
    #expect(colr([]) == [])
    #expect(colr([0, 1, 0]) == [])
    // Version 1 whose glyph list offset points past the end, or at its last bytes.
    var v1: [UInt8] = [0, 1, 0, 0] + Array(repeating: 0, count: 10) + [0xFF, 0xFF, 0xFF, 0xFF]
    #expect(colr(v1) == [])
    v1[14...17] = [0, 0, 0, 16]
    #expect(colr(v1) == [])
    #expect(([0, 0, 0, 0, 0x7F] as [UInt8]).withUnsafeBytes { FontColour.paletteCount($0) } == 0)
    #expect(([0, 0, 0, 0, 0, 3] as [UInt8]).withUnsafeBytes { FontColour.paletteCount($0) } == 3)
  }
}
