import Foundation
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiFonts
@testable import FontiText

/// GSUB, GPOS and GDEF compared as rules (#58): the same rules packed otherwise compare equal,
/// a changed rule is named as that rule and shaped on a text built from it.
struct LayoutComparisonTests {
  static let folder = TestPaths.repository + "/Tests/Fixtures/Layout/"

  static func comparer(_ before: String, _ after: String) throws -> LayoutComparer {
    LayoutComparer(
      before: try HarfBuzzFace(file: folder + before), after: try HarfBuzzFace(file: folder + after)
    )
  }

  @Test func rulesPackedOtherwiseCompareEqual() throws {
    // Extensions, split subtables, format 2 coverage, class kerning enumerated as pairs.
    let layout = try Self.comparer("LayoutRules.ttf", "LayoutRepacked.ttf")
    #expect(layout.differs)
    let outcome = layout.compare(before: [], after: [])
    #expect(outcome.changes.isEmpty, "\(outcome.changes.map(\.words))")
    #expect(outcome.unreadable.isEmpty)
    #expect(layout.changedTables.isSubset(of: outcome.same))
  }

  @Test func aChangedBacktrackIsNamedAsItsRule() throws {
    let layout = try Self.comparer("LayoutRules.ttf", "LayoutChanged.ttf")
    let outcome = layout.compare(before: [], after: [])
    let words = outcome.changes.map(\.words)
    #expect(words == ["calt: chain rule e → x no longer applies after d"], "\(words)")
    #expect(!outcome.same.contains("GSUB") && outcome.same.contains("GPOS"))
    let change = try #require(outcome.changes.first)
    #expect(change.table == "GSUB" && change.feature == "calt")
    // The text shows the glyph the backtrack lost: d e y.
    #expect(change.backtrack.map { $0.map(layout.name) } == [["d"]])
    #expect(change.input.map { $0.map(layout.name) } == [["e"]])
    #expect(change.lookahead.map { $0.map(layout.name) } == [["y"]])
  }

  @Test func aChangedRuleIsShapedOnItsText() throws {
    let layout = try Self.comparer("LayoutRules.ttf", "LayoutChanged.ttf")
    let shaper = ShapingComparer(before: layout.before, after: layout.after)
    let fonts = (HarfBuzzFont(face: layout.before), HarfBuzzFont(face: layout.after))
    let (changes, images) = shaper.ruleChanges(
      layout.compare(before: [], after: []).changes, layout: layout, fonts.0, fonts.1,
      texts: (RuleTexts(face: layout.before), RuleTexts(face: layout.after)), face: "Regular",
      instance: nil)
    let change = try #require(changes.first)
    #expect(change.text == "dey")
    #expect(change.before == ["d", "x", "y"] && change.after == ["d", "e", "y"])
    #expect(change.shapes == "substitution" && change.kind == "shaping.feature")
    #expect(images.count == 1 && images.first?.title.hasPrefix("“dey” chain rule") == true)
  }

  @Test func pairsAreListedFromTheRulesByClass() throws {
    // A value of one class pair changed: listed once, with the pairs its classes stand for.
    var before = LayoutPairAdjustments(
      firstClasses: [[1, 2]], secondClasses: [[3], [4]], values: [:])
    before.values = [
      LayoutPairKey(first: 0, second: 0): Self.pair(-50),
      LayoutPairKey(first: 0, second: 1): Self.pair(-20),
    ]
    var after = before
    after.values[LayoutPairKey(first: 0, second: 1)] = Self.pair(-35)
    let layout = try Self.comparer("LayoutRules.ttf", "LayoutRules.ttf")
    let changes = layout.pairChanges(before, after, table: "GPOS", feature: "kern")
    #expect(changes.map(\.words) == ["kern: a d -20 → -35 (2 pairs of its classes)"])
    // Glyphs renumbered and classes merged otherwise: the same pairs.
    let mapped = after.mapped { $0 == 1 ? 2 : $0 == 2 ? 1 : $0 }
    #expect(layout.pairChanges(after, mapped, table: "GPOS", feature: "kern").isEmpty)
  }

  static func pair(_ advance: Int) -> LayoutPairValue {
    var value = LayoutValue()
    value.xAdvance = advance
    return LayoutPairValue(first: value, second: LayoutValue())
  }
}
