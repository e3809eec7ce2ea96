import CCairo
import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport
@testable import FontiText

/// The comparison engine on the diff fixtures (Fixtures/Diff/README.md lists what each one
/// changes): every change reported once, in its place, and nothing else.
struct DiffEngineTests {
  static let fixtures = TestFixtures.folder + "/Diff"

  func compare(
    _ before: String, _ after: String, threshold: Int = 16, shortcuts: Bool = true,
    only: [String] = [], text: String = defaultSampleText
  ) throws -> DiffResult {
    let (b, a) = try DiffSide.load(
      before: DiffEngineTests.path(before), after: DiffEngineTests.path(after), jobs: 2)
    var settings = DiffSettings(threshold: threshold, text: text)
    settings.shortcuts = shortcuts
    return try DiffEngine.compare(
      before: b, after: a,
      options: DiffOptions(settings: settings, only: only.map(FamilyPattern.init), jobs: 2))
  }

  /// A fixture folder by name, or a path as it is.
  static func path(_ name: String) -> String { name.hasPrefix("/") ? name : fixtures + "/" + name }

  func only(_ report: DiffReport) throws -> DiffReport.Family {
    try #require(report.families.count == 1)
    return report.families[0]
  }

  @Test func eachChangeOfTheFixtureIsReportedOnceInItsPlaceAndNothingElse() throws {
    let result = try compare("base", "changed")
    let report = result.report
    let f = try only(report)
    #expect(f.family == "Fixture Garamond")
    #expect(f.status == .changed)
    #expect(f.image == "changes/fixture-garamond.png")
    #expect(f.codepoints.added == ["U+2010"])
    #expect(f.codepoints.removed == ["U+0024"])
    // R moved (pixels, same advance); Q wider (no pixel: both drawn from the same origin).
    #expect(f.glyphs.map(\.codepoint) == ["U+0051", "U+0052"])
    let q = f.glyphs[0]
    #expect(q.pixels == 0 && q.advance == [806, 846] && q.face == "Regular" && q.instance == nil)
    let r = f.glyphs[1]
    #expect(r.pixels > 16 && r.advance[0] == r.advance[1] && r.moved == 40)
    #expect(q.moved == nil)
    #expect(f.glyphsBelowThreshold == 0)
    #expect(f.metrics == ["xHeight": [400, 420]])
    #expect(f.faceMetrics.isEmpty)
    #expect(f.features.removed == ["smcp"] && f.features.added.isEmpty)
    #expect(f.faces.isEmpty && f.axes.isEmpty && f.instances.isEmpty && f.languages.isEmpty)
    #expect(f.sample.isEmpty)
    #expect(report.counts == DiffReport.Counts(families: 1, changed: 1))
    #expect(report.hasDifferences && !report.hasFailures)
    #expect(
      f.summary == [
        "2 glyphs changed: U+0052 R (moved 40 units, \(r.pixels) px), U+0051 Q (advance 806 → 846)",
        "1 character added: U+2010 ‐", "1 character removed: U+0024 $", "x-height 400 → 420",
        // The subsetter dropped smcp's glyphs with it: the glyph count says so (#56).
        "feature removed: smcp", "number of glyphs 133 → 107 (Regular)",
      ])
    #expect(f.info?.map(\.kind) == ["head.checkSumAdjustment"])
    // The review pages get both glyphs, largest first, and the sample (which did not change).
    #expect(result.outcomes[0].glyphImages.map(\.entry.codepoint) == ["U+0052", "U+0051"])
    let sample = try #require(result.outcomes[0].sample)
    #expect(sample.isSame && sample.face == "Regular")
  }

  /// The characters added and removed are drawn, each from the side that has it, and the
  /// family's pages give them a section each.
  @Test func addedAndRemovedCharactersAreDrawnFromTheirSide() throws {
    let result = try compare("base", "changed")
    let outcome = result.outcomes[0]
    let added = try #require(outcome.charactersAdded.first)
    let removed = try #require(outcome.charactersRemoved.first)
    #expect(outcome.charactersAdded.map(\.entry.codepoint) == ["U+2010"])
    #expect(outcome.charactersRemoved.map(\.entry.codepoint) == ["U+0024"])
    for character in [added, removed] {
      #expect(character.entry.face == "Regular" && character.before == character.after)
      #expect(character.after.bounds != nil, "\(character.entry.codepoint) has ink")
      #expect(character.entry.advance[0] == character.entry.advance[1])
    }
    // The hyphen is wide and flat, the dollar tall: each is its own outline.
    let hyphen = try #require(added.after.bounds)
    let dollar = try #require(removed.after.bounds)
    #expect(hyphen.maxY - hyphen.minY < dollar.maxY - dollar.minY)
    let blocks = DiffDocumentPlan(result).pages.flatMap { page -> [DiffDocumentPlan.Block] in
      guard case .family(_, _, let placed) = page.kind else { return [] }
      return placed.map(\.block)
    }
    #expect(blocks.contains(.charactersHeading(added: true, shown: 1, total: 1)))
    #expect(blocks.contains(.characterRow(added: true, [0])))
    #expect(blocks.contains(.charactersHeading(added: false, shown: 1, total: 1)))
    #expect(blocks.contains(.characterRow(added: false, [0])))
  }

  /// Interrupted while its files are drawn (between images, or between the PDF's pages), a
  /// review writes none of them: nothing new in the folder, no temporary file left.
  @Test func anInterruptedReviewWritesNothing() throws {
    let result = try compare("base", "changed")
    #expect(result.report.families.contains { $0.image != nil })
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let review = DiffReview(
      environment: try TestFonts.environment(), creationDate: Date(timeIntervalSince1970: 0))
    func files() throws -> [String] {
      try FileManager.default.subpathsOfDirectory(atPath: folder).filter {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isFolder)
        return !isFolder.boolValue
      }.sorted()
    }
    for stopAt in [1, 2, 3] {
      var asked = 0
      let wrote = try review.writeFiles(
        result, to: folder,
        interrupted: {
          asked += 1
          return asked >= stopAt
        })
      #expect(!wrote, "stopped at question \(stopAt)")
      #expect(try files().isEmpty, "stopped at question \(stopAt)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty,
        "no empty changes/ folder either, stopped at question \(stopAt)")
    }
    #expect(try review.writeFiles(result, to: folder))
    let written = try files()
    for name in [DiffReview.jsonName, DiffReview.markdownName, DiffReview.pdfName] {
      #expect(written.contains(name), "\(written)")
    }
    #expect(written.contains { $0.hasPrefix(DiffReview.imagesFolder + "/") }, "\(written)")
  }

  /// The review's own greys (rules, captions, the summary's boxes, the sample's bands) are
  /// opaque colours laid over the paper or over their box: its summary page needs no
  /// translucent graphics state. Only drawings of glyphs keep their translucent overlays.
  @Test func theReviewsGreysNeedNoTransparency() throws {
    let result = try compare("base", "changed")
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let review = DiffReview(
      environment: try TestFonts.environment(), creationDate: Date(timeIntervalSince1970: 0))
    #expect(try review.writeFiles(result, to: folder))
    let pdf = try QPDFDocument(reading: folder + "/" + DiffReview.pdfName, recovery: false)
    #expect(try pdf.pageCount() >= 2)
    let summary = pdf.pageFillOpacities(0)
    #expect(!summary.isEmpty && summary.allSatisfy { $0 == 1 }, "\(summary)")
  }

  @Test(arguments: [true, false])
  func aFontComparedWithItselfIsUnchanged(shortcuts: Bool) throws {
    for folder in ["base", "variable", "box-before"] {
      let report = try compare(folder, folder, shortcuts: shortcuts).report
      let f = try only(report)
      #expect(f.status == .unchanged, "\(folder): \(f.summary)")
      #expect(f.glyphs.isEmpty && f.glyphsBelowThreshold == 0 && f.summary.isEmpty)
      #expect(!report.hasDifferences && !report.hasFailures)
    }
  }

  @Test func theSameBytesUnderAnotherNameAreComparedInFullAndUnchanged() throws {
    // Another file name: no byte-for-byte twin, so HarfBuzz reads both and compares tables.
    let folder = try TemporaryDirectory("fonti-diff-same")
    try FileManager.default.createDirectory(
      atPath: folder.file("after"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: DiffEngineTests.path("base/FixtureGaramond-Regular.otf"),
      toPath: folder.file("after/Renamed-File.otf"))
    let f = try only(try compare("base", folder.file("after"), shortcuts: false).report)
    #expect(f.status == .unchanged, "\(f.summary)")
  }

  @Test func aGlyphChangedAtTheInstancesOnlyIsCaughtAtEachOfThem() throws {
    let f = try only(try compare("variable", "variable-glyph").report)
    #expect(f.status == .changed)
    #expect(Set(f.glyphs.map(\.codepoint)) == ["U+0052"])
    let instances = Set(f.glyphs.compactMap(\.instance))
    #expect(
      instances == [
        "Thin", "Extra Light", "Light", "Medium", "Semi Bold", "Bold", "Extra Bold", "Black",
      ])
    #expect(f.glyphs.count == 8)
    #expect(f.glyphs.allSatisfy { $0.pixels > 16 && $0.advance[0] == $0.advance[1] })
    #expect(f.instances.isEmpty && f.axes.isEmpty && f.metrics.isEmpty)
    #expect(f.shaping.isEmpty && f.sample.isEmpty && f.codepoints.isEmpty)
  }

  @Test func aMovedNamedInstanceIsCaught() throws {
    let f = try only(try compare("variable", "variable-instance").report)
    #expect(f.status == .changed)
    #expect(
      f.instances.changed == [
        DiffReport.InstanceChange(
          face: "Regular", name: "Bold", before: ["wght": 700], after: ["wght": 650])
      ])
    #expect(f.instances.added.isEmpty && f.instances.removed.isEmpty && f.axes.isEmpty)
    // Everything drawn at Bold changed, and only there.
    #expect(!f.glyphs.isEmpty && f.glyphs.allSatisfy { $0.instance == "Bold" })
    #expect(f.sample.map(\.instance) == ["Bold"])
    // Kerning is variable in this font: pairs shape differently at Bold, and only there.
    let shaping = try #require(f.shaping.first)
    #expect(f.shaping.count == 1 && shaping.face == "Regular")
    #expect(shaping.kerning.count > 0 && shaping.kerning.pairs.allSatisfy { $0.instance == "Bold" })
    #expect(shaping.tables.changed.isEmpty)
    // Said with each pair quoted and its instance named.
    let first = try #require(shaping.kerning.pairs.first)
    let summary = FamilyComparison.summary(f)
    let line = try #require(summary.first { $0.hasPrefix("kerning (Regular)") })
    // Said before the sample it changed.
    let kerningAt = try #require(summary.firstIndex(of: line))
    let sampleAt = try #require(summary.firstIndex { $0.hasPrefix("sample") })
    #expect(kerningAt < sampleAt)
    #expect(
      line.contains("“\(first.pair)” Bold \(first.kerning[0]) → \(first.kerning[1])"), "\(line)")
  }

  @Test func featuresAndLanguagesAreComparedAsProofsAndCoverageSayThem() throws {
    let f = try only(try compare("base", "traits").report)
    #expect(f.status == .changed)
    #expect(f.features.added.isEmpty && f.features.removed.isEmpty)
    #expect(
      f.features.changed == [
        DiffReport.FeatureChange(
          tag: "liga", name: "Standard Ligatures", visible: [true, false],
          sample: ["fi fl ffi", nil])
      ])
    #expect(f.languages.added.contains("de") && f.languages.removed.isEmpty)
    #expect(
      f.languages.nearly.contains(
        DiffReport.NearlyChange(
          language: "eu", before: ["U+00D1", "U+00DC", "U+00F1", "U+00FC"],
          after: ["U+00D1", "U+00F1"])))
    #expect(f.glyphs.isEmpty && f.sample.isEmpty && f.metrics.isEmpty)
    #expect(f.summary.contains("feature liga (Standard Ligatures): visible → no visible effect"))
    #expect(f.summary.contains { $0.hasPrefix("languages gained: de") })
  }

  @Test func aRenamedFamilyIsOneRemovedAndOneAdded() throws {
    let report = try compare("base", "renamed").report
    #expect(report.families.map(\.family) == ["Fixture Antiqua", "Fixture Garamond"])
    #expect(report.families.map(\.status) == [.added, .removed])
    #expect(report.families[0].faces.added == ["Regular"])
    #expect(report.families[1].faces.removed == ["Regular"])
    #expect(report.counts == DiffReport.Counts(families: 2, added: 1, removed: 1))
    // The same outlines under another name: named as a likely rename on both entries.
    let rename = DiffReport.LikelyRename(
      before: "Fixture Garamond", after: "Fixture Antiqua", reason: "same outlines")
    #expect(report.families.allSatisfy { $0.likelyRename == rename })
    #expect(
      report.families.allSatisfy {
        $0.summary.last == "likely rename: Fixture Garamond → Fixture Antiqua? (same outlines)"
      })
  }

  @Test func aFamilyReplacedUnderTheSameFileNameIsALikelyRename() throws {
    let folder = try TemporaryDirectory("fonti-diff-rename")
    try FileManager.default.createDirectory(
      atPath: folder.file("after"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: DiffEngineTests.path("box-before/FixtureBox-Regular.ttf"),
      toPath: folder.file("after/FixtureGaramond-Regular.otf"))
    let report = try compare("base", folder.file("after")).report
    #expect(report.families.map(\.status) == [.added, .removed])
    #expect(
      report.families.allSatisfy {
        $0.likelyRename?.reason == "same file name" && $0.likelyRename?.after == "Fixture Box"
      })
    // Different outlines and different file names: no rename.
    let other = try compare("base", "box-after").report
    #expect(other.families.allSatisfy { $0.likelyRename == nil })
  }

  /// A family on one side only shows its sample as that side sets it, once.
  @Test func anAddedOrRemovedFamilyShowsItsSampleFromItsSide() throws {
    let result = try compare("base", "renamed")
    let added = try #require(result.outcomes[0].sample)
    let removed = try #require(result.outcomes[1].sample)
    #expect(added.only == "after" && removed.only == "before")
    #expect(added.isSame && removed.isSame && added.face == "Regular")
    #expect(added.after.width > 0 && !added.after.outlines.isEmpty)
    let samples = DiffDocumentPlan(result).pages.flatMap { page -> [DiffDocumentPlan.Block] in
      guard case .family(_, _, let placed) = page.kind else { return [] }
      return placed.map(\.block).filter {
        if case .sample(_, _, _, let same) = $0 { return same }
        return false
      }
    }
    #expect(samples.count == 2)
  }

  /// Fixture Box's I is 10 × 20 px before and 11 × 20 px after, on the pixel grid: exactly 20
  /// pixels differ, so the glyph changed at a threshold of 19 and not at 20, where it is still
  /// reported as an outline moved by 16 units (one pixel).
  @Test func theThresholdIsHonouredAtItsBoundary() throws {
    let changed = try only(try compare("box-before", "box-after", threshold: 19).report)
    #expect(changed.status == .changed)
    #expect(changed.glyphs.map(\.pixels) == [20])
    #expect(changed.glyphs.map(\.codepoint) == ["U+0049"])
    let below = try only(try compare("box-before", "box-after", threshold: 20).report)
    #expect(below.glyphs.isEmpty && below.glyphsBelowThreshold == 1)
    #expect(below.glyphsMoved.map(\.moved) == [16])
    #expect(below.glyphsMoved.map(\.pixels) == [20])
  }

  @Test func facesAddedAndRemovedArePairedByStyle() throws {
    let folder = try TemporaryDirectory("fonti-diff-faces")
    let fonts = TestFixtures.fonts
    for side in ["before", "after"] {
      try FileManager.default.createDirectory(
        atPath: folder.file(side), withIntermediateDirectories: true)
    }
    for name in ["DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-BoldItalic.ttf"] {
      try FileManager.default.copyItem(
        atPath: fonts + "/" + name, toPath: folder.file("before/" + name))
    }
    for name in ["DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf"] {
      try FileManager.default.copyItem(
        atPath: fonts + "/" + name, toPath: folder.file("after/" + name))
    }
    let f = try only(try compare(folder.file("before"), folder.file("after")).report)
    #expect(f.family == "DejaVu Serif")
    #expect(f.status == .changed)
    #expect(f.faces.added == ["Italic"] && f.faces.removed == ["Bold Italic"])
    #expect(f.faces.renamed.isEmpty && f.glyphs.isEmpty && f.codepoints.isEmpty)
    #expect(f.summary == ["face added: Italic", "face removed: Bold Italic"])
  }

  @Test func aDamagedFontFailsItsFamilyAndTheRestGoesOn() throws {
    let folder = try TemporaryDirectory("fonti-diff-hostile")
    for side in ["before", "after"] {
      try FileManager.default.createDirectory(
        atPath: folder.file(side), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: DiffEngineTests.path("variable/FixtureSansVF.ttf"),
        toPath: folder.file(side + "/FixtureSansVF.ttf"))
    }
    try FileManager.default.copyItem(
      atPath: DiffEngineTests.path("base/FixtureGaramond-Regular.otf"),
      toPath: folder.file("before/FixtureGaramond-Regular.otf"))
    // A truncated download: its name table is whole, its outlines are not.
    let bytes = try Data(
      contentsOf: URL(fileURLWithPath: DiffEngineTests.path("changed/FixtureGaramond-Regular.otf")))
    try bytes.prefix(20_000).write(
      to: URL(fileURLWithPath: folder.file("after/FixtureGaramond-Regular.otf")))
    try Data("not a font".utf8).write(to: URL(fileURLWithPath: folder.file("after/notes.ttf")))

    let result = try compare(folder.file("before"), folder.file("after"))
    let report = result.report
    #expect(report.families.map(\.status) == [.failed, .unchanged])
    let failed = report.families[0]
    #expect(failed.family == "Fixture Garamond")
    let error = try #require(failed.error)
    #expect(error.hasPrefix("after: font file '") && error.contains("is truncated"))
    #expect(report.counts.failed == 1 && report.hasFailures)
    #expect(report.unreadable.map(\.file) == [folder.file("after") + "/notes.ttf"])
    #expect(report.unreadable.first?.side == "after")
    // The review's cover gives the reason lines of their own, under the family's row: cut on
    // the row, the file's name and the cause were lost.
    let items = DiffDocumentPlan(result).items
    let row = try #require(items.firstIndex(of: .family(0)))
    let lines = DiffDocumentPlan.reasonLines(error, width: DiffDocumentPlan.Geometry().reasonWidth)
    #expect(items[row + 1] == .reason(0, lines: lines))
    #expect(lines >= 2)
  }

  @Test func onlyRestrictsTheFamilies() throws {
    let report = try compare("base", "renamed", only: ["*antiqua*"]).report
    #expect(report.families.map(\.family) == ["Fixture Antiqua"])
    #expect(throws: DiagnosticError.self) { try compare("base", "renamed", only: ["Nothing*"]) }
  }

  @Test func sidesThatAreMissingEmptyOrNotFontsAreUsageErrorsNamingEachSide() throws {
    let folder = try TemporaryDirectory("fonti-diff-usage")
    try FileManager.default.createDirectory(
      atPath: folder.file("empty"), withIntermediateDirectories: true)
    try Data().write(to: URL(fileURLWithPath: folder.file("zero.otf")))
    try Data("text".utf8).write(to: URL(fileURLWithPath: folder.file("text.ttf")))
    try FileManager.default.createDirectory(
      atPath: folder.file("notes"), withIntermediateDirectories: true)
    try Data("text".utf8).write(to: URL(fileURLWithPath: folder.file("notes/fake.ttf")))
    func messages(_ before: String, _ after: String) -> [String] {
      do {
        _ = try DiffSide.load(before: before, after: after, jobs: 1)
        return []
      } catch {
        return error.diagnostics.map(\.message)
      }
    }
    #expect(
      messages(folder.file("nothing"), folder.file("empty")) == [
        "BEFORE '\(folder.file("nothing"))' does not exist",
        "AFTER folder '\(folder.file("empty"))' holds no font file (.ttf, .otf, .ttc, .otc, .woff or .woff2)",
      ])
    #expect(
      messages(folder.file("zero.otf"), folder.file("text.ttf")) == [
        "BEFORE '\(folder.file("zero.otf"))' is empty (0 bytes)",
        "AFTER '\(folder.file("text.ttf"))' is not a TrueType or OpenType font",
      ])
    // A folder of one file that is no font names the file.
    #expect(
      messages(folder.file("zero.otf"), folder.file("notes")) == [
        "BEFORE '\(folder.file("zero.otf"))' is empty (0 bytes)",
        "AFTER '\(folder.file("notes"))' holds no font: '\(folder.file("notes"))/fake.ttf' is not a "
          + "TrueType or OpenType font",
      ])
  }

  @Test func aChangedSampleIsMeasuredAndKept() throws {
    // "Q" is the character whose advance changed: in the sample, everything after it moves.
    let f = try only(try compare("base", "changed", text: "Quiet").report)
    let sample = try #require(f.sample.first)
    #expect(f.sample.count == 1 && sample.face == "Regular")
    #expect(sample.width[1] - sample.width[0] == 40)
    #expect(sample.pixels > 16)
  }
}

/// The rasteriser alone: outlines drawn on whole pixels compare exactly.
struct GlyphRasterTests {
  func rectangle(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> GlyphOutline {
    var o = GlyphOutline()
    o.move(x0, y0)
    o.line(x0, y1)
    o.line(x1, y1)
    o.line(x1, y0)
    o.close()
    return o
  }

  @Test func pixelsThatDifferAreCountedExactly() throws {
    let raster = GlyphRaster(pixelsPerEm: 64, greyLevels: 8)
    // 1024 units per em: 16 units a pixel.
    let a = rectangle(64, 0, 224, 320)
    let b = rectangle(64, 0, 240, 320)
    func placed(_ o: GlyphOutline, x: Double = 0) -> [GlyphRaster.Placed] {
      [GlyphRaster.Placed(outline: o, x: x, y: 0)]
    }
    #expect(try raster.difference(placed(a), unitsPerEm: 1024, placed(a), unitsPerEm: 1024) == 0)
    #expect(try raster.difference(placed(a), unitsPerEm: 1024, placed(b), unitsPerEm: 1024) == 20)
    // The same drawing at another units-per-em is the same image.
    let doubled = rectangle(128, 0, 448, 640)
    #expect(
      try raster.difference(placed(a), unitsPerEm: 1024, placed(doubled), unitsPerEm: 2048) == 0)
    // Moved by a whole pixel: the two columns at either end differ.
    #expect(
      try raster.difference(placed(a), unitsPerEm: 1024, placed(a, x: 16), unitsPerEm: 1024)
        == 40)
    // Nothing to draw on either side.
    #expect(
      try raster.difference(
        placed(GlyphOutline()), unitsPerEm: 1024, placed(GlyphOutline()), unitsPerEm: 1024) == 0)
  }

  /// Added characters are drawn at one scale on one baseline: a wide glyph makes them all
  /// smaller rather than being shrunk alone.
  @Test func charactersShareOneScaleAndOneBaseline() {
    func character(_ outline: GlyphOutline, advance: Int) -> GlyphChange {
      GlyphChange(
        entry: DiffReport.Glyph(
          codepoint: "U+0041", face: "Regular", instance: nil, pixels: 0,
          advance: [advance, advance]),
        before: outline, after: outline, unitsPerEm: (1000, 1000))
    }
    let narrow = character(rectangle(50, 0, 250, 700), advance: 300)
    let wide = character(rectangle(0, -200, 2000, 700), advance: 2000)
    let alone = DiffDrawing.fitGlyphs([narrow], width: 48, height: 46)
    let both = DiffDrawing.fitGlyphs([narrow, wide], width: 48, height: 46)
    #expect(both.em < alone.em)
    #expect(abs(both.em - 48.0 / 2.0) < 0.001, "the wide glyph's 2 ems fill the width")
    // Both fit, centred, from one baseline.
    for glyph in [narrow, wide] {
      let x = DiffDrawing.x(of: glyph, em: both.em, width: 48)
      let e = DiffDrawing.extent(glyph)
      #expect(x + e.minX * both.em >= -0.001 && x + (e.minX + e.spanX) * both.em <= 48.001)
    }
    #expect(both.baseline - 0.8 * both.em >= -0.001 && both.baseline + 0.25 * both.em <= 46.001)
  }

  @Test func farFlungPointsAreLeftOutRatherThanDrawn() throws {
    let raster = GlyphRaster()
    let hostile = rectangle(0, 0, 3e9, 3e9)
    let placed = [GlyphRaster.Placed(outline: hostile, x: 0, y: 0)]
    #expect(try raster.difference(placed, unitsPerEm: 16, [], unitsPerEm: 16) == 0)
    var nan = GlyphOutline()
    nan.move(.nan, 0)
    nan.line(10, 10)
    #expect(nan.bounds == nil)
  }
}

/// diff.md: names from font files cannot break the table or inject markup.
struct DiffMarkdownTests {
  @Test func hostileNamesAreEscaped() {
    #expect(DiffMarkdown.cell("A|B <script>*x*") == "A\\|B &lt;script&gt;\\*x\\*")
    #expect(DiffMarkdown.cell("line\nbreak\u{1B}[31m") == "line break\u{FFFD}\\[31m")
    #expect(DiffMarkdown.code("a`b") == "`a'b`")
  }

  static func family(_ name: String, _ status: DiffReport.Status, changes: Int)
    -> DiffReport.Family
  {
    DiffReport.Family(
      family: name, slug: name.lowercased(), status: status, error: nil,
      files: DiffReport.Files(), image: nil,
      summary: (0..<changes).map { "change \($0) of \(name): name ID 13 licence text changed" })
  }

  static func report(_ families: [DiffReport.Family]) -> DiffReport {
    var counts = DiffReport.Counts()
    counts.families = families.count
    counts.changed = families.filter { $0.status == .changed }.count
    counts.unchanged = families.filter { $0.status == .unchanged }.count
    return DiffReport(
      before: "old", after: "new", threshold: 16, greyLevels: 8, pixelsPerEm: 64, text: "abc",
      counts: counts, families: families, unreadable: [])
  }

  @Test func aLongReviewFitsAPullRequestCommentMostImportantFirst() throws {
    // Sorted by name, an unchanged family comes first; 40 changed families of 300 changes each
    // hold far more than a comment takes.
    var families = [Self.family("Aaa Unchanged", .unchanged, changes: 0)]
    families += (0..<40).map {
      Self.family(String(format: "Family %02d", $0), .changed, changes: 300)
    }
    let markdown = DiffMarkdown.render(Self.report(families))
    #expect(markdown.utf16.count <= 60_000)
    // Every changed family has a row, its first changes first, before the unchanged ones.
    let first = try #require(markdown.range(of: "change 0 of Family 00"))
    let unchanged = try #require(markdown.range(of: "Aaa Unchanged"))
    #expect(first.lowerBound < unchanged.lowerBound)
    #expect(markdown.contains("change 0 of Family 39"))
    #expect(!markdown.contains("change 299 of Family 00"))
    // The end says how many were left out, and where they are.
    let written = markdown.components(separatedBy: "licence text changed").count - 1
    #expect(markdown.hasSuffix("\(40 * 300 - written) more changes left out: see diff.json\n"))
  }

  @Test func aShortReviewListsEveryChange() {
    let markdown = DiffMarkdown.render(
      Self.report([Self.family("Acme", .changed, changes: 12)]))
    #expect(markdown.contains("change 11 of Acme"))
    #expect(!markdown.contains("left out"))
  }
}

/// Which glyph changes the review pages show when there are more than they hold.
struct GlyphSelectionTests {
  static func change(_ scalar: UInt32, pixels: Int) -> GlyphChange {
    GlyphChange(
      entry: DiffReport.Glyph(
        codepoint: String(format: "U+%04X", scalar), face: "Regular", instance: nil,
        pixels: pixels, advance: [500, 500]),
      before: GlyphOutline(), after: GlyphOutline(), unitsPerEm: (1000, 1000))
  }

  @Test func eachLetterOnceLargestFirstShownByItsLetterOrItsLargestChange() {
    let changes = [
      Self.change(0x61, pixels: 100),  // a
      Self.change(0xE5, pixels: 110),  // å: a changed, and its ring a little
      Self.change(0x37, pixels: 21),  // 7
      Self.change(0x215E, pixels: 519),  // ⅞, whose fraction was redrawn
      Self.change(0x62, pixels: 60),  // b
    ]
    let shown = GlyphChange.selection(changes, limit: 4).map(\.entry.codepoint)
    // ⅞ stands for the 7 group (7 moved by 21 of its 519); a for its group (100 of 110).
    #expect(shown == ["U+215E", "U+0061", "U+0062", "U+00E5"])
  }
}

/// Which face's sample the review shows.
struct SampleChoiceTests {
  @Test func theSampleThatChangedMostIsShownTheFirstFaceOnATie() throws {
    let face = try HarfBuzzFace(
      file: DiffEngineTests.fixtures + "/base/FixtureGaramond-Regular.otf", index: 0)
    let font = HarfBuzzFont(face: face)
    let text = ShapedText("abc", font: font)
    let wider = ShapedText("abcd", font: font)
    func sample(_ face: String, _ after: ShapedText, pixels: Int) -> SampleChange {
      SampleChange(before: text, after: after, face: face, instance: nil, pixels: pixels)
    }
    let regular = sample("Regular", text, pixels: 0)
    let bold = sample("Bold", text, pixels: 300)
    let italic = sample("Italic", wider, pixels: 0)  // wider only
    #expect(regular.isSame && !bold.isSame && !italic.isSame)
    #expect(FamilyComparison.mostChanged([regular, bold])?.face == "Bold")
    #expect(FamilyComparison.mostChanged([regular, italic])?.face == "Italic")
    #expect(FamilyComparison.mostChanged([regular, italic, bold])?.face == "Bold")
    #expect(
      FamilyComparison.mostChanged([regular, sample("Bold", text, pixels: 0)])?.face == "Regular")
    #expect(
      FamilyComparison.mostChanged([bold, sample("Italic", text, pixels: 300)])?.face == "Bold")
    #expect(FamilyComparison.mostChanged([]) == nil)
  }
}

/// A family's pages never end with a row or two of characters when drawing fewer of the added
/// ones saves the page.
struct CharacterPagesTests {
  @Test func fewerAddedCharactersRatherThanAPageForOneRow() throws {
    let result = try DiffEngineTests().compare("base", "changed")
    let plan = DiffDocumentPlan(result)
    var outcome = result.outcomes[0]
    // 32 added characters in 32 blocks, 2 removed.
    outcome.charactersAdded = (0..<32).map {
      GlyphSelectionTests.change(0x100 + UInt32($0) * 0x80, pixels: 0)
    }
    outcome.charactersRemoved = [GlyphSelectionTests.change(0x24, pixels: 0)]
    outcome.entry.codepoints.added = outcome.charactersAdded.map(\.entry.codepoint)
    let all = plan.characterBlocks(outcome, addedRows: 4)
    #expect(all.first == .charactersHeading(added: true, shown: 32, total: 32))
    #expect(all.filter { if case .characterRow(true, _) = $0 { true } else { false } }.count == 4)
    // Two rows: blocks spread over all 32, in code point order.
    let two = plan.characterBlocks(outcome, addedRows: 2)
    #expect(two.first == .charactersHeading(added: true, shown: 16, total: 32))
    guard case .characterRow(true, let first) = two[1],
      case .characterRow(true, let second) = two[2]
    else {
      Issue.record("two rows of added characters: \(two)")
      return
    }
    #expect(first.count == 8 && second.count == 8 && first + second == (first + second).sorted())
    #expect(first[0] < 4 && second[7] >= 28)
    #expect(two.contains(.charactersHeading(added: false, shown: 1, total: 1)))

    // Changes enough to leave room for the added heading and four rows, not the removed
    // section as well (it alone goes over), which fits beside two rows: the page is saved.
    let g = plan.geometry
    let free = 400.0
    let lines = Int((g.bodyBottom - g.bodyTop - 84 - free) / g.lineHeight)
    let blocks = [DiffDocumentPlan.Block.header] + (0..<lines).map { _ in .change("a change") }
    #expect(plan.paginate(blocks + all).count == 2)
    let parts = plan.familyParts(blocks, outcome)
    #expect(parts.count == 1)
    #expect(parts[0].contains { $0.block == .charactersHeading(added: true, shown: 16, total: 32) })
    // Nothing to gain: as it was.
    let few = [DiffDocumentPlan.Block.header]
    #expect(
      plan.familyParts(few, outcome).map { $0.map(\.block) }
        == plan.paginate(few + all).map { $0.map(\.block) })
  }
}

/// Which added or removed characters the review draws when there are many.
struct CharacterSpreadTests {
  @Test func aFewFromEachBlockInCodePointOrder() {
    let latinB = Array(UInt32(0x180)...0x1FF)
    let greek = Array(UInt32(0x380)...0x3FF)
    let arrows: [UInt32] = [0x2190, 0x2191]
    let picked = CharacterSpread.pick((arrows + greek + latinB).shuffled(), limit: 8)
    // Three blocks taken in turn: each block's first, then its second, and so on.
    // (Greek's block starts with unassigned code points and two accents: its letters come first.)
    #expect(picked == [0x180, 0x181, 0x182, 0x386, 0x388, 0x389, 0x2190, 0x2191])
    #expect(CharacterSpread.pick([0x41, 0x42], limit: 8) == [0x41, 0x42])
    // Sixteen blocks of one for four places: blocks spread evenly, not the first four, among
    // the eleven whose character draws something other than a mark (not U+0000, U+0080,
    // U+0300, U+0380 or U+0600): the 1st, 3rd, 6th and 9th.
    let sixteen = (UInt32(0)..<16).map { $0 << 7 }
    #expect(CharacterSpread.pick(sixteen, limit: 4) == [0x100, 0x200, 0x480, 0x680])
    // Letters first in a block, then digits, symbols, marks; what draws nothing last.
    #expect(CharacterSpread.pick([0x591, 0x5D0], limit: 1) == [0x5D0])
    #expect(CharacterSpread.pick([0x2007, 0x2010, 0x2070], limit: 1) == [0x2070])
    #expect(CharacterSpread.pick([0x2007, 0x2010], limit: 1) == [0x2010])
    #expect(CharacterSpread.pick([], limit: 8).isEmpty)
    #expect(CharacterSpread.pick(latinB, limit: 0).isEmpty)
  }
}

/// The changes in words, where the engine's output is easier to state than to provoke.
struct DiffSummaryTests {
  static func family(samples faces: [String]) -> DiffReport.Family {
    var f = DiffReport.Family(
      family: "Test Sans", slug: "test-sans", status: .changed, error: nil,
      files: DiffReport.Files(), image: nil, summary: [])
    f.sample = faces.map {
      DiffReport.Sample(face: $0, instance: nil, text: nil, width: [1000, 1000], pixels: 40)
    }
    return f
  }

  @Test func everyUsualFacesSampleIsSaidThenTheRestCounted() {
    let four = FamilyComparison.summary(
      Self.family(samples: ["Regular", "Bold", "Italic", "Bold Italic"]))
    #expect(four.filter { $0.hasPrefix("sample (") }.count == 4)
    #expect(!four.contains { $0.contains("more") })
    let ten = FamilyComparison.summary(Self.family(samples: (1...10).map { "Face \($0)" }))
    #expect(ten.filter { $0.hasPrefix("sample (") }.count == 8)
    #expect(ten.contains("sample: changed in 2 more faces"))
    let nine = FamilyComparison.summary(Self.family(samples: (1...9).map { "Face \($0)" }))
    #expect(nine.contains("sample: changed in 1 more face"))
  }
}

extension DiffSummaryTests {
  @Test func charactersChangedInSomeFacesOnlyNameThem() {
    var f = Self.family(samples: [])
    f.codepoints.removed = ["U+2011", "U+F001"]
    f.codepoints.added = ["U+0180"]
    var faces = FamilyComparison.CharacterFaces(compared: 4)
    faces.removed = [0x2011: ["Regular", "Bold", "Italic", "Bold Italic"], 0xF001: ["Regular"]]
    faces.added = [0x0180: ["Regular", "Bold", "Italic", "Bold Italic"]]
    let lines = FamilyComparison.summary(f, characterFaces: faces)
    #expect(lines.contains("2 characters removed: U+2011 ‑, U+F001 (Regular only)"), "\(lines)")
    #expect(lines.contains("1 character added: U+0180 ƀ"), "\(lines)")
  }
}

/// Character labels under the review's glyph cells.
struct DiffLabelTests {
  /// The lowest row holding ink in columns `0..<columns` of `surface`, or nil.
  func inkBottom(_ surface: CairoSurface, columns: Int) -> Int? {
    cairo_surface_flush(surface.pointer)
    guard let data = cairo_image_surface_get_data(surface.pointer) else { return nil }
    let stride = Int(cairo_image_surface_get_stride(surface.pointer))
    for y in Swift.stride(from: surface.height - 1, through: 0, by: -1) {
      // Green of each BGRX pixel: white ink on black.
      for x in 0..<columns where data[y * stride + x * 4 + 1] > 127 { return y }
    }
    return nil
  }

  /// A label whose character the label face lacks comes from another face, whose line
  /// metrics may be taller (in the Liberation review, "U+1D80 ᶀ" sat a point lower than its
  /// row): labels are set on the baseline a plain label of their style has, whatever their own
  /// line's metrics. Here a layout of larger type stands for the taller line.
  @Test func characterLabelsShareTheBaselineWhateverTheirLineMetrics() throws {
    let drawing = DiffDrawing(environment: try TestFonts.environment())
    var bottoms: [Int] = []
    var baselines: [Double] = []
    for size in [20.0, 27.0] {
      let surface = try CairoSurface.image(width: 200, height: 80)
      let cr = try CairoContext(surface)
      let context = drawing.labelContext(for: cr)
      let layout = drawing.label("U+0041 A", size: size, bold: true, in: context)
      baselines.append(layout.baseline)
      cr.setColour(Colour(hex: 0xFFFFFF))
      drawing.drawCharacterLabel(layout, size: 20, bold: true, at: 2, top: 10, in: context)
      // The "U" alone (its first columns): its bottom is the baseline.
      bottoms.append(try #require(inkBottom(surface, columns: 10)))
    }
    #expect(baselines[1] > baselines[0] + 1)
    #expect(bottoms[0] == bottoms[1], "\(bottoms)")
  }
}

/// Text cut to a width on the review's pages: after whole changes and words, saying the rest.
struct FittedTextTests {
  /// Fits when no longer than `width` characters.
  static func fits(_ width: Int) -> (String) -> Bool { { $0.count <= width } }
  static func more(_ n: Int) -> String { " · and \(n) more: see page 4" }

  @Test func asManyChangesAsFitThenHowManyMoreAndWhere() {
    let lines = [
      "weight class 400 → 300 (Regular)", "name ID 13 changed (Regular)",
      "fpgm changed: the font program differs in 120 bytes (Regular)",
    ]
    let two = FittedText.lines(lines, more: Self.more, fits: Self.fits(95))
    #expect(
      two
        == "weight class 400 → 300 (Regular); name ID 13 changed (Regular) · and 1 more: see page 4"
    )
    let all = FittedText.lines(lines, more: Self.more, fits: Self.fits(200))
    #expect(all == lines.joined(separator: "; "))
  }

  @Test func aChangeTooLongAloneIsCutAfterAWholeWord() {
    let lines = ["3 glyphs changed: U+0052 R (2 px), U+0053 S (2 px), U+0054 T (1 px)", "more"]
    let cut = FittedText.lines(lines, more: Self.more, fits: Self.fits(60))
    #expect(cut == "3 glyphs changed: U+0052 R (2 px)…" + Self.more(1))
    // Never inside a word: what is kept is a run of the line's whole words.
    let kept = cut.prefix(while: { $0 != "…" })
    #expect(lines[0].hasPrefix(kept) && lines[0].dropFirst(kept.count).first == ",")
  }
}
