import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiModel
@testable import FontiSupport

/// Each warning's kind comes from its message: every producer's message is pinned to its kind
/// here, so that a reworded message cannot move a warning to another kind unnoticed.
struct WarningKindTests {
  @Test func eachProducersMessageHasItsKind() {
    let latin = SpecimenRenderer.missingWarning("DejaVu Serif", boxes: 2, ["東"])
    #expect(WarningKind.of(latin) == .missingGlyphs)
    let own = SpecimenRenderer.missingWarning(
      "Noto Sans Bengali", boxes: 27, Array("Sphinx".unicodeScalars),
      instead: SpecimenRenderer.shows(.language(code: "bn", name: "Bengali", text: "…")))
    #expect(own.hasSuffix("; its specimen shows its own script (Bengali)"), "\(own)")
    #expect(WarningKind.of(own) == .ownScript)
    let grid = SpecimenRenderer.missingWarning(
      "Symbols", boxes: 3, [], instead: SpecimenRenderer.shows(.glyphGrid(["★"])))
    #expect(WarningKind.of(grid) == .ownScript)

    let axes = [FontProofs.Axis(tag: "wght", name: "Weight", min: 100, defaultValue: 400, max: 900)]
    let range = VariationSetting.resolve(
      [VariationSetting(tag: "wght", value: 1000)], axes: axes, family: "Inter")
    #expect(range.warnings.map(WarningKind.of) == [.axisRange], "\(range.warnings)")

    let cases: [(String, WarningKind)] = [
      ("family pattern 'Zzz*' matches no family", .unmatchedPattern),
      ("exclude pattern 'Zzz*' matches no family", .unmatchedPattern),
      (
        "feature 'smcq' is in none of the selected families (did you mean 'smcp'?)", .unknownSetting
      ),
      ("axis 'wdth' is not in family 'Lato'", .unknownSetting),
      ("family 'Lato' has no real bold italic face; shown in Regular", .noStyle),
      ("pairing 'A' + 'B' is listed twice (first at 3:5)", .duplicatePairing),
      (
        "catalogue 'none.pdf' has no family to show: its families match no family that can be "
          + "drawn; it is not written", .catalogueEmpty
      ),
      ("catalogue 'c.pdf' is left as it was: 2 of its families are not up to date", .catalogueKept),
      (
        "catalogue 'c.pdf': family 'Lato' has no glyph for 2 characters of the sample and texts "
          + "(U+4EAC, U+6771), shown as boxes", .missingGlyphs
      ),
      (
        "catalogue 'c.pdf': family 'Noto Sans Hebrew' has no glyph for 20 characters of the "
          + "sample and texts (U+0041), shown as boxes; its specimen shows its own script",
        .ownScript
      ),
      ("family 'Cantarell' lacks 2 glyphs of the pairing heading", .missingGlyphs),
      (
        "family 'DejaVu Sans': ExtraLight lacks 3932 characters of Book: U+01AA, …; Bold lacks 140",
        .faceCoverage
      ),
      (
        "family 'Noto Serif Myanmar': face 'Bold' has a regular weight (fontconfig 80): fontconfig "
          + "and Pango see no bold in it, and may draw it for regular text", .faceWeight
      ),
      ("family 'Answer Flat': wght 100–900: the face drawn does not vary", .unvaried),
      (
        "face 'Light' is not in 3 of the 5 families; their catalogue pages name it as absent",
        .faceAbsent
      ),
      ("family 'Lato' has no real 'Semibld' face; shown in Regular", .noStyle),
      (
        "family 'Colour One Test': "
          + (FontColour(formats: ["colr1"], palettes: 1).notDrawnNote ?? ""), .colourNotDrawn
      ),
      (
        "family 'Answer Flat': instances 'Thin' and 'Black' are drawn alike, at different "
          + "coordinates", .unvaried
      ),
      ("family 'X': cannot read 'x.ttf'; its proofs are not listed", .proofsUnreadable),
      ("family 'X': 'x.ttf': not a font; its features are not listed", .proofsUnreadable),
      (
        DamagedColourBitmaps.warning(
          family: "X", characters: [0x42], problem: "its PNG says 16×0 pixels", in: "the specimen"),
        .proofsUnreadable
      ),
      (
        "family 'Nimbus' cannot be rendered: its fonts are Type 1, which Pango 1.44+ no longer "
          + "draws", .notDrawable
      ),
      ("partner left out: family 'Y' cannot be drawn", .notDrawable),
      (
        "custom family 'DejaVu Serif' has the name of an installed family; the custom fonts are "
          + "used", .customOverrides
      ),
      (
        "font folder 'fonts' holds no font file (.ttf, .otf, .ttc, .otc, .woff or .woff2)",
        .fontFile
      ),
      ("font file 'a.ttf' is not a font (in the font library; skipped)", .fontFile),
      ("cannot remove 'out/a.png', which this job no longer makes: Permission denied", .outputFile),
      ("cannot make the thumbnail 'thumbs/a.png' of 'A': no space", .outputFile),
      ("SOURCE_DATE_EPOCH is 'x', not a number of seconds; the current time is used", .environment),
      ("something no producer says", .other),
    ]
    for (message, kind) in cases {
      #expect(WarningKind.of(message) == kind, "\(message)")
    }
  }

  @Test func theJobsKindsFailStrictAndFontFactsOnlyWhenNamed() throws {
    let warnings: [Diagnostic] = [
      .warning("family 'A' lacks 1 character of the sample text (1 box drawn)"),
      .warning(
        "family 'B' lacks 9 characters of the sample text (9 boxes drawn); its specimen "
          + "shows its own script (bn)"),
      .warning("family 'C': Bold lacks 3 characters of Regular: U+0041"),
      .error("an error is no warning"),
    ]
    #expect(
      StrictPolicy.job.failingLine(warnings)
        == "failing under --strict: missing-glyphs in 1 family (A)")
    let named = try StrictPolicy.parse("own-script,face-coverage").get()
    #expect(
      named.failingLine(warnings)
        == "failing under --strict: face-coverage in 1 family (C), own-script in 1 family (B)")
    #expect(try StrictPolicy.parse("unmatched-pattern").get().failingLine(warnings) == nil)
    #expect(try StrictPolicy.parse("all").get().failing(warnings).count == 3)
    #expect(
      try StrictPolicy.parse("job").get()
        == StrictPolicy(kinds: Set(WarningKind.allCases.filter { $0.group == .job })))
    guard case .failure(let unknown) = StrictPolicy.parse("missing-glyph") else {
      Issue.record("an unknown kind is refused")
      return
    }
    #expect(
      unknown.message.hasPrefix(
        "unknown warning kind 'missing-glyph' (did you mean 'missing-glyphs'?)"))
    guard case .failure = StrictPolicy.parse("") else {
      Issue.record("an empty list names no kind")
      return
    }
  }

  /// The gallery's "With warnings" filter counts the job's warnings, not facts about fonts.
  @Test func theGalleryFilterCountsOnlyTheJobsWarnings() {
    let own = GalleryModel.Family(
      name: "Noto Sans Bengali", slug: "b", specimen: nil, missingGlyphs: 27,
      warnings: [
        "family 'Noto Sans Bengali' lacks 27 characters of the sample text (27 boxes drawn); its "
          + "specimen shows its own script (bn)",
        "family 'Noto Sans Bengali': Bold lacks 3 characters of Regular: U+0041",
      ])
    #expect(!own.hasWarnings)
    let latin = GalleryModel.Family(
      name: "Lato", slug: "l", specimen: nil, missingGlyphs: 1,
      warnings: ["family 'Lato' lacks 1 character of the sample text (1 box drawn)"])
    #expect(latin.hasWarnings)
    let failed = GalleryModel.Family(name: "F", slug: "f", specimen: nil, error: "broken")
    #expect(failed.hasWarnings)
  }

  /// docs/warnings.md lists every kind with its group, as the code has it.
  @Test func theDocumentationListsEveryKindInItsGroup() throws {
    let docs = try String(
      contentsOf: URL(fileURLWithPath: TestPaths.repository + "/docs/warnings.md"),
      encoding: .utf8)
    for kind in WarningKind.allCases {
      let group = kind.group == .job ? "job" : "font fact"
      #expect(docs.contains("| `\(kind.rawValue)` | \(group) |"), "\(kind.rawValue)")
    }
  }
}
