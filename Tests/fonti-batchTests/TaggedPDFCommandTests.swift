import Foundation
import TestSupport
import Testing

/// The PDFs a run and `diff` write are tagged for screen readers and search (#55, item 5), end
/// to end: a catalogue is drawn by one worker and finished by another, which must receive what
/// the drawing recorded; `diff`'s review draws its pictures as figures with alternative text.
/// Read back with pikepdf and poppler (`TaggedPDF`).
@Suite(.serialized) struct TaggedPDFCommandTests {
  @Test func aRunsCatalogueCarriesItsLanguagesThroughTheFinishingWorker() throws {
    let box = try CLISandbox("fonti-tagged-run")
    try box.write(
      "specimens.yaml",
      """
      version: 1
      title: Tagged review
      defaults:
        text: Sphinx of black quartz, judge my vow.
        language: de
      families:
        include: [DejaVu Serif, Noto Sans Hebrew]
      png:
        edge: 256
      pairings:
        curated: false
      proofs:
        languages: false

      """)
    let result = try box.run(["run", "-j", "2"])
    #expect(result.status == 0, "\(result)")
    let pdf = try TaggedPDF.read(box.path("output/catalogue.pdf"))
    #expect(pdf.language == "en")
    #expect(pdf.displaysTitle)
    #expect(pdf.elements("H1").map(\.text).contains("DejaVu Serif"))
    #expect(pdf.elements("H1").map(\.text).contains("Noto Sans Hebrew"))
    let paragraphs = pdf.elements("P")
    #expect(
      paragraphs.contains { $0.language == "de" && $0.text.contains("Sphinx of black quartz") },
      "the sample's language")
    #expect(paragraphs.contains { $0.language == "he" }, "the own-script sample's language")
    #expect(paragraphs.contains { $0.text == "SAMPLE" && $0.language == nil })
  }

  @Test func theReviewsPicturesAreFiguresNamingTheFamilyAndWhatTheyShow() throws {
    let box = try CLISandbox("fonti-tagged-diff")
    let fixtures = Repository.fixtures + "/Diff/"
    let result = try box.run([
      "diff", fixtures + "base", fixtures + "changed", "--text", "Rare Quartz", "-o", "diff",
    ])
    #expect(result.status == 0, "\(result)")
    let path = box.path("diff/diff.pdf")
    let pdf = try TaggedPDF.read(path)
    #expect(pdf.language == "en")
    #expect(pdf.displaysTitle)
    #expect(pdf.elements.first?.role == "Document")
    #expect(pdf.elements("H1").map(\.text) == ["What changed", "Fixture Garamond"])
    // The summary's entry links to the family's page.
    #expect(pdf.elements("Link").contains { $0.text.hasPrefix("Fixture Garamond") })

    let figures = pdf.elements("Figure")
    #expect(figures.allSatisfy { ($0.alt ?? "").hasPrefix("Fixture Garamond") }, "\(figures)")
    let alts = figures.compactMap(\.alt)
    for shown in [
      "Fixture Garamond, Regular: the sample before the change",
      "Fixture Garamond, Regular: the sample after the change",
      "Fixture Garamond, Regular: U+0052 R before the change",
      "Fixture Garamond, Regular: U+0052 R after the change",
      "Fixture Garamond, Regular: U+2010 ‐ added, as the fonts after draw it",
    ] {
      #expect(alts.contains(shown), "no figure shows \(shown): \(alts)")
    }
    #expect(
      alts.contains {
        $0.hasPrefix("Fixture Garamond, Regular: the sample before and after overlaid")
      })

    // The spaced-out captions are found as words.
    let text = try #require(try SystemTool.pdfText(path))
    let words = Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
    for word in ["SAMPLE", "OVERLAY", "REGULAR", "BEFORE", "AFTER", "GLYPHS"] {
      #expect(words.contains(word), "pdftotext lacks \(word): \(text)")
    }
  }
}
