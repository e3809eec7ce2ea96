import FontTestSupport
import Foundation
import Testing

@testable import FontiText

/// The layout reader (`LayoutRules`) on `Fixtures/Layout` (made by its `make.py`): every lookup
/// type read as its rules, the same rules packed otherwise compare equal (extension subtables,
/// split subtables, coverage formats, glyph pairs for class pairs, fontTools' re-save of a font
/// FontForge built), a changed rule does not, and variation deltas are applied at the
/// coordinates given.
@Suite struct LayoutRulesTests {
  static let folder = TestFonts.fixtures + "/Layout"

  // Glyph IDs of LayoutRules.ttf (make.py's GLYPHS).
  static let (a, b, c, d, e, f, i, x, y) = (
    UInt32(1), UInt32(2), UInt32(3), UInt32(4), UInt32(5), UInt32(6), UInt32(7), UInt32(8),
    UInt32(9)
  )
  static let (aSC, bSC, aAlt1, aAlt2, fi, ffi, grave, acute) = (
    UInt32(10), UInt32(11), UInt32(12), UInt32(13), UInt32(14), UInt32(15), UInt32(16),
    UInt32(17)
  )

  static func rules(_ name: String, _ table: LayoutTable) throws -> LayoutRules {
    try HarfBuzzFace(file: folder + "/" + name).layoutRules(table)
  }

  @Test func readsEverySubstitutionType() throws {
    let gsub = try Self.rules("LayoutRules.ttf", .gsub)
    #expect(gsub.problem == nil)
    let rules = gsub.lookups.map(\.rules)
    try #require(rules.count == 7, "\(rules)")
    #expect(rules[0] == .singleSubstitution([Self.e: Self.x]))
    #expect(rules[1] == .singleSubstitution([Self.a: Self.aSC, Self.b: Self.bSC]))
    #expect(rules[2] == .multipleSubstitution([Self.c: [Self.c, Self.d]]))
    #expect(rules[3] == .alternateSubstitution([Self.a: [Self.aAlt1, Self.aAlt2]]))
    #expect(
      rules[4]
        == .ligatureSubstitution([[Self.f, Self.f, Self.i]: Self.ffi, [Self.f, Self.i]: Self.fi]))
    #expect(gsub.lookups[4].markFilteringGlyphs == [Self.grave])
    let calt = LayoutContextRule(
      backtrack: [[Self.c, Self.d]], input: [], lookahead: [[Self.y]],
      actions: [LayoutSequenceAction(sequenceIndex: 0, lookupIndex: 0)])
    #expect(
      rules[5] == .contextSubstitution([LayoutContextGroup(firstGlyphs: [Self.e], rules: [calt])]))
    let reverse = LayoutReverseChainGroup(
      contexts: [LayoutReverseChainContext(backtrack: [], lookahead: [[Self.b]])],
      substitutes: [Self.a: [Self.aAlt2]])
    #expect(rules[6] == .reverseChainSubstitution([reverse]))
  }

  @Test func readsEveryPositioningType() throws {
    let gpos = try Self.rules("LayoutRules.ttf", .gpos)
    #expect(gpos.problem == nil)
    let rules = gpos.lookups.map(\.rules)
    try #require(rules.count == 8, "\(rules)")
    var move = LayoutValue()
    move.xAdvance = 40
    #expect(rules[0] == .singlePositioning([Self.y: move]))
    var cpsp = LayoutValue()
    (cpsp.xPlacement, cpsp.xAdvance) = (5, 10)
    #expect(rules[1] == .singlePositioning([Self.a: cpsp, Self.b: cpsp]))
    #expect(gpos.lookups[2].flags == 8)
    guard case .pairPositioning(let pairs) = rules[2] else {
      Issue.record("kern: \(rules[2])")
      return
    }
    func kern(_ first: UInt32, _ second: UInt32) -> Int? {
      pairs.adjustment(first: first, second: second)?.first.xAdvance
    }
    #expect(kern(Self.a, Self.b) == -30 && kern(Self.b, Self.a) == -20)
    #expect(kern(Self.c, Self.e) == -50 && kern(Self.d, Self.x) == -50)
    #expect(kern(Self.a, Self.a) == nil && kern(Self.e, Self.c) == nil)
    #expect(pairs.firstClasses == [[Self.a], [Self.b], [Self.c, Self.d]])
    #expect(pairs.secondClasses == [[Self.a], [Self.b], [Self.e, Self.x]])
    let anchor = { (x: Int, y: Int) in LayoutAnchor(x: x, y: y) }
    #expect(
      rules[3]
        == .cursivePositioning([
          Self.x: LayoutCursiveAnchors(entry: anchor(0, 100), exit: anchor(500, 100)),
          Self.y: LayoutCursiveAnchors(entry: anchor(0, 120), exit: nil),
        ]))
    let marks = [Self.grave: anchor(250, 500), Self.acute: anchor(260, 520)]
    #expect(
      rules[4]
        == .markToBase([
          LayoutMarkClass(
            marks: marks, bases: [Self.a: [anchor(250, 600)], Self.b: [anchor(250, 600)]])
        ]))
    #expect(
      rules[5]
        == .markToLigature([
          LayoutMarkClass(marks: marks, bases: [Self.fi: [anchor(150, 700), anchor(450, 700)]])
        ]))
    #expect(
      rules[6]
        == .markToMark([LayoutMarkClass(marks: marks, bases: [Self.grave: [anchor(250, 800)]])]))
    let dist = LayoutContextRule(
      backtrack: [[Self.a]], input: [], lookahead: [],
      actions: [LayoutSequenceAction(sequenceIndex: 0, lookupIndex: 0)])
    #expect(
      rules[7] == .contextPositioning([LayoutContextGroup(firstGlyphs: [Self.y], rules: [dist])]))
  }

  @Test func listsFeaturesPerLanguageSystem() throws {
    let gsub = try Self.rules("LayoutRules.ttf", .gsub)
    #expect(
      gsub.languageSystems.map { "\($0.script)/\($0.language ?? "-")" } == [
        "DFLT/-", "latn/-", "latn/TRK",
      ])
    #expect(gsub.lookupIndices(feature: "liga", script: "latn", language: "TRK") == [4])
    #expect(gsub.lookupIndices(feature: "calt", script: "DFLT", language: nil) == [5])
    #expect(gsub.lookupIndices(feature: "kern", script: "DFLT", language: nil) == [])
    let key = LayoutFeatureKey(script: "latn", language: nil, feature: "smcp")
    #expect(gsub.featureRules[key] == [gsub.lookups[1]])
  }

  /// Extension subtables, a single substitution split in two, class pairs listed pair by pair
  /// in one subtable, every coverage of format 2: the same rules.
  @Test func theSameRulesPackedOtherwiseAreEqual() throws {
    for table in LayoutTable.allCases {
      let rules = try Self.rules("LayoutRules.ttf", table)
      let repacked = try Self.rules("LayoutRepacked.ttf", table)
      #expect(rules == repacked, "\(table)")
      for (one, other) in zip(rules.lookups, repacked.lookups) where one != other {
        Issue.record("\(table): \(one) != \(other)")
      }
    }
  }

  @Test func aChangedBacktrackIsUnequal() throws {
    let rules = try Self.rules("LayoutRules.ttf", .gsub)
    let changed = try Self.rules("LayoutChanged.ttf", .gsub)
    let differing = zip(rules.lookups, changed.lookups).enumerated().filter {
      $0.element.0 != $0.element.1
    }
    #expect(differing.map(\.offset) == [5])
    #expect(try Self.rules("LayoutRules.ttf", .gpos) == Self.rules("LayoutChanged.ttf", .gpos))
  }

  /// DejaVu Serif (built by FontForge) against its layout tables compiled again by fontTools.
  @Test func fontToolsResaveOfAFontForgeFontIsEqual() throws {
    let face = try HarfBuzzFace(file: TestFonts.fontsFolder + "/DejaVuSerif.ttf")
    let gdef = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/DejaVuSerif-resaved.GDEF"))
    for table in LayoutTable.allCases {
      let original = face.layoutRules(table)
      let bytes = try Data(
        contentsOf: URL(fileURLWithPath: Self.folder + "/DejaVuSerif-resaved.\(table.rawValue)"))
      let resaved = bytes.withUnsafeBytes { b in
        gdef.withUnsafeBytes { g in
          LayoutRules.read(table, b, gdef: g, glyphCount: face.glyphCount)
        }
      }
      #expect(face.withTable(table.rawValue) { Data($0) } != bytes, "\(table): same bytes")
      #expect(original.problem == nil && !original.lookups.isEmpty, "\(table)")
      #expect(!original.lookups.contains { if case .unreadable = $0.rules { true } else { false } })
      #expect(original == resaved, "\(table)")
    }
  }

  /// Inter's kerning varies with weight: values differ between the default and wght 900, and
  /// are equal read twice at one instance.
  @Test func variationDeltasApplyAtTheCoordinates() throws {
    let face = try HarfBuzzFace(file: TestFonts.fixtures + "/Diff/variable/FixtureSansVF.ttf")
    #expect(face.glyphDefinitions.hasVariationStore)
    let heavy = face.normalizedCoordinates([("wght", 900)])
    #expect(heavy.first == 16384)
    let regular = face.layoutRules(.gpos)
    let bold = face.layoutRules(.gpos, coordinates: heavy)
    #expect(regular.problem == nil && bold.problem == nil)
    #expect(regular != bold)
    #expect(bold == face.layoutRules(.gpos, coordinates: heavy))
  }
}
