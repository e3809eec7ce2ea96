import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiText

/// The layout reader on damaged and hostile tables: every truncation, random bytes, an
/// extension that points to itself, a context lookup that calls itself, coverage that names
/// every glyph a thousand times over. Each is read (per lookup where it can be) or reported,
/// never a trap, and within the budget.
@Suite struct LayoutRulesDamageTests {
  static func read(_ table: LayoutTable, _ bytes: [UInt8], gdef: [UInt8] = [], glyphs: Int = 18)
    -> LayoutRules
  {
    bytes.withUnsafeBytes { b in
      gdef.withUnsafeBytes { g in
        LayoutRules.read(table, b, gdef: g, glyphCount: glyphs, coordinates: [8192, -16384])
      }
    }
  }

  static func table(_ file: String, _ tag: String) throws -> [UInt8] {
    try HarfBuzzFace(file: file).withTable(tag) { Array($0) }
  }

  /// Big-endian 16-bit words as bytes.
  static func words(_ values: [Int]) -> [UInt8] {
    values.flatMap { [UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
  }

  static let fixture = TestFonts.fixtures + "/Layout/LayoutRules.ttf"

  @Test func everyTruncationIsReadOrReported() throws {
    let gdef = try Self.table(Self.fixture, "GDEF")
    for table in LayoutTable.allCases {
      let bytes = try Self.table(Self.fixture, table.rawValue)
      for length in 0..<bytes.count {
        let rules = Self.read(table, Array(bytes.prefix(length)), gdef: gdef)
        let whole = rules.problem == nil && !rules.lookups.contains { $0.rules.isUnreadable }
        // Only the last bytes can go without damage (the table's end may be padding).
        if length < bytes.count / 2 { #expect(!whole || length == 0, "\(table) at \(length)") }
      }
      for length in 0..<gdef.count { _ = Self.read(table, bytes, gdef: Array(gdef.prefix(length))) }
    }
  }

  @Test func randomBytesAreReadOrReported() throws {
    var generator = SeededGenerator(seed: 58)
    let dejavu = TestFonts.fontsFolder + "/DejaVuSerif.ttf"
    let gdef = try Self.table(dejavu, "GDEF")
    for table in LayoutTable.allCases {
      let original = try Self.table(dejavu, table.rawValue)
      for _ in 0..<40 {
        var bytes = original
        for _ in 0..<8 {
          let at = Int(generator.next() % UInt64(bytes.count))
          bytes[at] = UInt8(truncatingIfNeeded: generator.next())
        }
        _ = Self.read(table, bytes, gdef: gdef, glyphs: 3000)
      }
      for _ in 0..<20 {
        let noise = (0..<512).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        _ = Self.read(table, Self.words([1, 0, 10, 10, 10]) + noise, gdef: noise)
      }
    }
  }

  /// A lookup list of one lookup of `type` whose one subtable is `subtable` (offsets from it).
  static func oneLookup(type: Int, subtable: [UInt8]) -> [UInt8] {
    // Header (10 bytes), lookup list at 10: one lookup at 14: type, flag, one subtable at +8.
    words([1, 0, 0, 0, 10, 1, 4, type, 0, 1, 8]) + subtable
  }

  @Test func anExtensionThatPointsToItselfIsUnreadable() {
    let rules = Self.read(.gsub, Self.oneLookup(type: 7, subtable: Self.words([1, 7, 0, 0])))
    #expect(
      rules.lookups.map(\.rules) == [
        .unreadable("an extension subtable that points to an extension")
      ])
    let gpos = Self.read(.gpos, Self.oneLookup(type: 9, subtable: Self.words([1, 9, 0, 0])))
    #expect(gpos.lookups.count == 1 && gpos.lookups[0].rules.isUnreadable)
  }

  /// Chain context format 3 whose action calls the lookup itself: read as a rule naming it.
  @Test func aContextLookupThatCallsItselfIsARule() {
    // Format 3: no backtrack, one input coverage (at +16), no lookahead, one action (0, 0).
    let subtable = Self.words([3, 0, 1, 16, 0, 1, 0, 0]) + Self.words([1, 1, 5])
    let rules = Self.read(.gsub, Self.oneLookup(type: 6, subtable: subtable))
    let rule = LayoutContextRule(
      backtrack: [], input: [], lookahead: [],
      actions: [LayoutSequenceAction(sequenceIndex: 0, lookupIndex: 0)])
    #expect(
      rules.lookups.map(\.rules) == [
        .contextSubstitution([LayoutContextGroup(firstGlyphs: [5], rules: [rule])])
      ])
  }

  /// A single substitution whose coverage lists every glyph 30,000 times (ranges 0–65535):
  /// past the budget, the lookup cannot be read, quickly.
  @Test func coverageOfEveryGlyphManyTimesOverIsTooLarge() {
    let ranges = 30_000
    let coverage =
      Self.words([2, ranges]) + (0..<ranges).flatMap { _ in Self.words([0, 0xFFFF, 0]) }
    let subtable = Self.words([1, 6, 0]) + coverage
    let start = ContinuousClock.now
    let rules = Self.read(.gsub, Self.oneLookup(type: 1, subtable: subtable), glyphs: 65536)
    #expect(rules.lookups.map(\.rules) == [.unreadable("more rules than can be read")])
    #expect(ContinuousClock.now - start < .seconds(20))
  }

  /// Class kerning of every glyph of a face of 65,536 against every glyph: read as one class
  /// pair, not 4 billion pairs.
  @Test func hugeClassKerningIsBounded() {
    // PairPos format 2: coverage of every glyph at +34, the first glyph's xAdvance, one class
    // definition at +24 for both (every glyph class 1), 2 × 2 classes ((1, 1): −20).
    let classDef = Self.words([2, 1, 0, 0xFFFF, 1])
    let coverage = Self.words([2, 1, 0, 0xFFFF, 0])
    let subtable =
      Self.words([2, 34, 4, 0, 24, 24, 2, 2]) + Self.words([0, 10, 0, 0xFFEC]) + classDef + coverage
    let rules = Self.read(.gpos, Self.oneLookup(type: 2, subtable: subtable), glyphs: 65536)
    #expect(rules.lookups.count == 1)
    guard case .pairPositioning(let pairs) = rules.lookups.first?.rules else {
      Issue.record("\(rules)")
      return
    }
    #expect(pairs.adjustment(first: 7, second: 9)?.first.xAdvance == -20)
    #expect(
      pairs.firstClasses.map(\.count) == [65536] && pairs.secondClasses.map(\.count) == [65536])
  }
}

extension LayoutLookupRules {
  var isUnreadable: Bool {
    if case .unreadable = self { return true }
    return false
  }
}
