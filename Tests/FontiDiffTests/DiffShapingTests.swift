import Foundation
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// What shaping does, compared per face on the shaping fixtures (Fixtures/Diff/README.md):
/// kerning pairs (class, glyph, legacy `kern`), a retargeted ligature, a changed contextual
/// alternate, a moved mark anchor, a feature removed from one face; a re-saved copy unchanged.
struct DiffShapingTests {
  let engine = DiffEngineTests()

  func family(_ report: DiffReport, _ name: String) throws -> DiffReport.Family {
    try #require(report.families.first { $0.family == name })
  }

  func face(_ f: DiffReport.Family, _ label: String) throws -> DiffReport.FaceShaping {
    try #require(f.shaping.first { $0.face == label })
  }

  @Test func kerningPairsAreComparedByShapingLargestFirst() throws {
    let report = try engine.compare("shaping-before", "shaping-after").report
    let f = try family(report, "Fixture Shaping")
    #expect(f.status == .changed)
    let regular = try face(f, "Regular")
    // T against o's class: tightened by 150; g j: a glyph pair, 25 → −25.
    let pairs = regular.kerning.pairs
    let to = try #require(pairs.first { $0.pair == "To" })
    #expect(to.kerning == [-105, -255] && to.codepoints == ["U+0054", "U+006F"])
    let gj = try #require(pairs.first { $0.pair == "gj" })
    #expect(gj.kerning == [25, -25] && gj.classPairs == 1)
    // Every pair of T's class with o's class, and nothing else.
    #expect(pairs.allSatisfy { $0.pair == "gj" || $0.kerning == [-105, -255] })
    #expect(pairs.allSatisfy { $0.pair == "gj" || $0.pair.hasPrefix("T") })
    #expect(regular.kerning.count == pairs.reduce(0) { $0 + $1.classPairs })
    // Largest change first.
    #expect(pairs.first?.kerning == [-105, -255] && pairs.last?.pair == "gj")
    let line = try #require(f.summary.first { $0.hasPrefix("kerning (Regular)") })
    #expect(line.contains("“To” -105 → -255"), "\(line)")
    #expect(regular.tables.changed.contains("GPOS") && regular.tables.unexplained.isEmpty)
  }

  @Test func aChangedLegacyKernTableIsFound() throws {
    let report = try engine.compare("shaping-before", "shaping-after").report
    let f = try family(report, "Fixture Legacy Kern")
    #expect(f.status == .changed)
    let regular = try face(f, "Regular")
    #expect(regular.tables.changed == ["kern"])
    #expect(
      regular.kerning.pairs == [
        DiffReport.KerningPair(
          pair: "AV", codepoints: ["U+0041", "U+0056"], instance: nil, kerning: [-80, -120],
          classPairs: 1)
      ])
    #expect(f.summary == ["kerning (Regular): 1 pair changed: “AV” -80 → -120"])
  }

  @Test func substitutionsAreComparedOnTheTextsTheyActOn() throws {
    let report = try engine.compare("shaping-before", "shaping-after").report
    let regular = try face(try family(report, "Fixture Shaping"), "Regular")
    let liga = try #require(regular.features.changed.first { $0.tag == "liga" })
    #expect(liga.text == "Qy" && liga.before == ["Q_y"] && liga.after == ["Q.long"])
    let calt = try #require(regular.features.changed.first { $0.tag == "calt" })
    #expect(calt.text == "H-O")
    #expect(calt.before == ["H", "hyphen.cap", "O"] && calt.after == ["H", "hyphen", "O"])
    #expect(!liga.positionsOnly && !calt.positionsOnly)
    // Each change of a feature is said in its own place only: not a feature added or removed.
    #expect(regular.features.added.isEmpty && regular.features.removed.isEmpty)
  }

  @Test func aMovedMarkAnchorIsFoundOnItsBase() throws {
    let report = try engine.compare("shaping-before", "shaping-after").report
    let regular = try face(try family(report, "Fixture Shaping"), "Regular")
    let acute = try #require(regular.marks.first { $0.codepoints == ["U+0061", "U+0301"] })
    #expect(acute.after[1] - acute.before[1] == 60 && acute.after[0] == acute.before[0])
    // Only marks on a moved.
    #expect(regular.marks.allSatisfy { $0.codepoints.first == "U+0061" })
  }

  @Test func aFeatureRemovedFromOneFaceIsReportedForThatFace() throws {
    let report = try engine.compare("shaping-before", "shaping-after").report
    let f = try family(report, "Fixture Shaping")
    let italic = try face(f, "Italic")
    #expect(italic.features.removed == ["smcp"] && italic.features.added.isEmpty)
    #expect(try face(f, "Regular").features.removed.isEmpty)
    // The family as a whole still has smcp (in its regular face).
    #expect(f.features.removed.isEmpty)
    #expect(f.summary.contains("feature removed (Italic): smcp"))
  }

  @Test func aReSavedCopyAndTheSameFontAreUnchanged() throws {
    for shortcuts in [true, false] {
      let report = try engine.compare("shaping-before", "shaping-resaved", shortcuts: shortcuts)
        .report
      #expect(report.families.allSatisfy { $0.status == .unchanged }, "\(report.families)")
      #expect(!report.hasDifferences)
    }
  }

  /// A glyph whose advance alone changed is that glyph's change: its kerning pairs keep their
  /// values and its marks their anchors ("Qa" −26 → −26 was listed as a changed pair).
  @Test func anAdvanceChangedMovesNoPairAndNoMark() throws {
    let report = try engine.compare("shaping-before", "shaping-advance").report
    let f = try family(report, "Fixture Shaping")
    #expect(f.status == .changed)
    #expect(Set(f.glyphs.map(\.codepoint)) == ["U+0061", "U+0054"], "\(f.glyphs)")
    #expect(f.glyphs.allSatisfy { $0.advance[1] - $0.advance[0] == 40 })
    // Nothing shapes differently: the face has no shaping entry at all.
    #expect(f.shaping.isEmpty, "\(f.shaping)")
    #expect(
      f.summary.allSatisfy { !$0.contains("kerning") && !$0.contains("mark") }, "\(f.summary)")
  }

  @Test func changedTablesThatShapeAlikeAreSaidNotHidden() throws {
    let report = try engine.compare("shaping-before", "shaping-unused").report
    let f = try family(report, "Fixture Shaping")
    #expect(f.status == .changed && report.hasDifferences)
    let regular = try face(f, "Regular")
    #expect(regular.tables.changed == ["GPOS"] && regular.tables.unexplained == ["GPOS"])
    #expect(regular.kerning.count == 0 && regular.marks.isEmpty && regular.features.isEmpty)
    #expect(
      f.summary == [
        "GPOS differs (Regular) and no rule explains it; no tried pair or text shapes differently"
      ])
    #expect(try family(report, "Fixture Legacy Kern").status == .unchanged)
  }

  /// The change image and the review get each kind of shaping change drawn both ways: the
  /// legacy kern family, whose glyphs are all the same, no longer has nothing to show.
  @Test func shapingChangesAreDrawnBothWays() throws {
    let result = try engine.compare("shaping-before", "shaping-after")
    let index = try #require(result.report.families.firstIndex { $0.family == "Fixture Shaping" })
    let images = result.outcomes[index].shapingImages
    #expect(Set(images.map(\.kind)).isSuperset(of: ["Kerning", "Feature calt", "Feature liga"]))
    #expect(images.contains { $0.kind == "Mark attachment" })
    let liga = try #require(images.first { $0.kind == "Feature liga" })
    #expect(liga.before.outlines.count == 1 && liga.before.outlines != liga.after.outlines)
    let to = try #require(images.first { $0.title.hasPrefix("“To”") })
    // The same two glyphs, the o 150 units further left.
    #expect(to.before.outlines == to.after.outlines && to.before.x[1] - to.after.x[1] == 150)
    let legacy = try #require(
      result.report.families.firstIndex { $0.family == "Fixture Legacy Kern" })
    #expect(result.outcomes[legacy].glyphImages.isEmpty)
    #expect(result.outcomes[legacy].shapingImages.map(\.title) == ["“AV” -80 → -120"])
    // The review's pages give them rows, two a row, the first with the heading.
    let rows = DiffDocumentPlan(result).pages.flatMap { page -> [DiffDocumentPlan.Block] in
      guard case .family(index, _, let placed) = page.kind else { return [] }
      return placed.map(\.block).filter {
        if case .shapingRow = $0 { return true }
        return false
      }
    }
    #expect(rows.first == .shapingRow([0, 1], first: true))
    #expect(rows.count == (images.count + 1) / 2)
  }

  /// Devanagari: a conjunct retargeted (akhn), an anusvara's anchor moved (abvm), and a
  /// half form's kerning (dist, which no pair of characters shows: the sampler's clusters do).
  @Test func devanagariConjunctsMarksAndHalfFormKerningAreCompared() throws {
    let report = try engine.compare("deva-before", "deva-after").report
    let f = try family(report, "Fixture Devanagari")
    #expect(f.status == .changed)
    let regular = try face(f, "Regular")
    let akhn = try #require(regular.features.changed.first { $0.tag == "akhn" })
    #expect(akhn.text.contains("क्ष") && akhn.before.contains("kassadeva"))
    #expect(!akhn.after.contains("kassadeva"))
    let anusvara = try #require(regular.marks.first { $0.codepoints == ["U+0915", "U+0902"] })
    #expect(anusvara.after[1] - anusvara.before[1] == 50)
    let dist = try #require(regular.features.changed.first { $0.tag == "dist" })
    #expect(dist.positionsOnly && dist.before == dist.after)
    #expect(regular.tables.unexplained.isEmpty)
  }

  /// A family whose only change is its vertical metrics has them drawn as lines: those with
  /// both values, ascenders and heights up, win descent down, in a fixed order.
  @Test func changedVerticalMetricsBecomeLines() {
    let lines = DiffDrawing.metricLines([
      "winDescent": [250, 300], "xHeight": [400, 420], "unitsPerEm": [1000, 2048],
      "capHeight": [nil, 650],
    ])
    #expect(lines.map(\.key) == ["xHeight", "winDescent"])
    #expect(lines.map(\.down) == [false, true])
    #expect(lines.map(\.before) == [400, 250] && lines.map(\.after) == [420, 300])
  }

  /// An added named instance is drawn: the sample set at its coordinates from the after side.
  @Test func anAddedInstanceIsDrawnAtItsCoordinates() throws {
    let result = try engine.compare("variable", "variable-added-instance")
    let f = try #require(result.report.families.first)
    #expect(f.status == .changed && f.instances.added.map(\.name) == ["Heavy"])
    let image = try #require(result.outcomes[0].instanceImages.first)
    #expect(result.outcomes[0].instanceImages.count == 1)
    #expect(image.instance == "Heavy" && image.only == "after")
    // Heavier than the regular sample: wider at wght 850 than at the default 400.
    let regular = try #require(result.outcomes[0].sample)
    #expect(image.after.width > regular.after.width)
  }

  @Test func classesComeFromTheFontsOwnClassDefinitions() throws {
    let face = try HarfBuzzFace(
      file: DiffEngineTests.path("shaping-before/FixtureShaping-Regular.otf"))
    let font = HarfBuzzFont(face: face)
    let classes = KerningClasses(face: face)
    func glyph(_ c: Character) throws -> UInt32 {
      try #require(font.glyph(for: c.unicodeScalars.first!.value))
    }
    // D and O share a first-glyph class of the kern lookup (PairPos format 2, class 3), and
    // no other kern lookup reads them: one key, one representative.
    #expect(classes.leftKey(try glyph("D")) == classes.leftKey(try glyph("O")))
    #expect(classes.leftKey(try glyph("D")) != classes.leftKey(try glyph("T")))
    // g is a first glyph of a glyph pair (format 1): a class of its own.
    #expect(classes.leftKey(try glyph("g")).first == Int32.max)
  }

  @Test func hostileLayoutTablesAreReadWithoutTrapping() throws {
    for name in ["broken-layout.ttf", "empty-gsub.ttf", "random.ttf", "truncated.ttf"] {
      let path = TestFixtures.folder + "/HostileFonts/" + name
      guard let face = try? HarfBuzzFace(file: path) else { continue }
      let classes = KerningClasses(face: face)
      _ = classes.leftKey(0)
      let shaper = ShapingComparer(before: face, after: face)
      _ = shaper.listChanges()
      _ = shaper.comparedFeatures()
      _ = shaper.markTexts()
    }
  }
}

/// Which member of a kerning class stands for it in the review's pairs.
struct KerningRepresentativeTests {
  func first(_ members: String, text: String = "") -> String {
    let scalars = Array(members.unicodeScalars)
    let ordered = ShapingComparer.representativeFirst(scalars, text: Set(text.unicodeScalars))
    return String(ordered[0])
  }

  @Test func aPlainBaseLetterOfTheClassScriptStandsForIt() {
    // Ѓ (U+0403) decomposes to Г and an acute: Г stands for its class, though its code point
    // is higher.
    #expect(first("ЃГҐ") == "Г")
    #expect(first("ÀAÁ") == "A")
    // Two Cyrillic letters and a Greek one: a Cyrillic letter, the lowest.
    #expect(first("ΩѠѺ") == "Ѡ")
  }

  @Test func aLetterOfTheComparedTextIsPreferredThenTheLowestCodePoint() {
    #expect(first("HIN", text: "Nina") == "N")
    #expect(first("HIN", text: "xyz") == "H")
    // No letter at all: the best-ranked member, as before.
    #expect(first(".,") == ".")
  }
}

/// A shaping change's title quotes the font's own text: that part is drawn from the font's
/// outlines, the rest in the label face.
struct ShapingTitleTests {
  @Test func theQuotedTextIsSplitFromTheWords() throws {
    let kerning = try #require(DiffDrawing.quotedParts("“To” -105 → -255"))
    #expect(kerning.before == "" && kerning.quoted == "To" && kerning.after == " -105 → -255")
    let mark = try #require(DiffDrawing.quotedParts("“इं” y 0 → 50"))
    #expect(mark.quoted == "इं" && mark.after == " y 0 → 50")
    #expect(DiffDrawing.quotedParts("no quote") == nil)
  }
}
