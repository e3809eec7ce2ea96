import FontTestSupport
import FontiText
import Testing

@testable import FontiFonts

/// Texts built from layout rules (`RuleTexts`) on `Fixtures/Layout/LayoutRules.ttf`: glyphs
/// back to the characters that make them, a backtrack context in reading order, a glyph only a
/// non-default feature makes, and the bounds a hostile rule meets.
@Suite struct RuleTextsTests {
  static let fixture = TestFonts.fixtures + "/Layout/LayoutRules.ttf"
  /// The glyph of make.py's GLYPHS named `name` (0 when there is none).
  static func g(_ name: String) -> UInt32 {
    guard let face = try? HarfBuzzFace(file: fixture) else { return 0 }
    let font = HarfBuzzFont(face: face)
    return (0..<UInt32(face.glyphCount)).first { font.glyphName($0) == name } ?? 0
  }
  static let (a, b, c, d, e) = (g("a"), g("b"), g("c"), g("d"), g("e"))
  static let (x, y, aSC, fi) = (g("x"), g("y"), g("a.sc"), g("f_i"))

  static func texts() throws -> RuleTexts {
    RuleTexts(face: try HarfBuzzFace(file: fixture))
  }

  @Test func glyphsBackToCharacters() throws {
    let texts = try Self.texts()
    #expect(texts.text(glyphs: [Self.a, Self.b, Self.c]) == "abc")
    #expect(texts.text(glyphs: [Self.x, Self.y]) == "xy")
  }

  /// calt's `sub [c d] e' lookup SUB_E y;`: backtrack (nearest first), input, lookahead, in
  /// reading order, each position's best character (c before d).
  @Test func contextRuleInReadingOrder() throws {
    let texts = try Self.texts()
    let gsub = try HarfBuzzFace(file: Self.fixture).layoutRules(.gsub)
    let calt = gsub.lookupIndices(feature: "calt", script: "latn", language: nil)
    let rules = try #require(calt.first.map { gsub.lookups[$0].rules })
    guard case .contextSubstitution(let groups) = rules, let group = groups.first,
      let rule = group.rules.first
    else {
      Issue.record("calt is not a context lookup: \(rules)")
      return
    }
    let text = texts.text(
      backtrack: rule.backtrack, input: [group.firstGlyphs] + rule.input,
      lookahead: rule.lookahead)
    #expect(text == "cey")
    // Two backtrack positions, nearest first: the farther one comes first in the text.
    #expect(texts.text(backtrack: [[Self.c], [Self.d]], input: [[Self.e]], lookahead: []) == "dce")
  }

  /// a.sc is made only by smcp, which is not on by default: no character makes it.
  @Test func glyphNoCharacterMakes() throws {
    let texts = try Self.texts()
    #expect(texts.text(glyphs: [Self.a, Self.aSC]) == nil)
    #expect(texts.text(backtrack: [[Self.aSC]], input: [[Self.a]], lookahead: []) == nil)
  }

  @Test func boundsAndEmptySets() throws {
    let texts = try Self.texts()
    #expect(texts.text(backtrack: [], input: [], lookahead: [[Self.a]]) == nil)
    #expect(texts.text(backtrack: [[]], input: [[Self.a]], lookahead: []) == nil)
    #expect(texts.text(glyphs: Array(repeating: Self.a, count: RuleTexts.positionLimit + 1)) == nil)
    // A glyph past the font's glyph count (a hostile class) is no character.
    #expect(texts.text(glyphs: [70_000]) == nil)
    // A huge class: only its first glyphs are looked at, and the text is still made.
    #expect(texts.text(backtrack: [], input: [Set(0..<65_536)], lookahead: []) == "a")
  }

  /// The fi ligature is made by liga (on by default) from two characters; one character
  /// alone never reaches it.
  @Test func ligatureGlyphAlone() throws {
    let texts = try Self.texts()
    #expect(texts.text(glyphs: [Self.fi]) == nil)
  }
}
