import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A catalogue a screen reader and a search can use: a tagged structure (headings, text in its
/// language, links), the document's language, its title shown, and spaced-out labels found
/// as words. Read back with pikepdf and poppler (`TaggedPDF`), the tools readers are built on.
@Suite(.serialized) final class CatalogueTaggingTests {
  let environment: FontEnvironment
  let folder: String

  init() throws {
    environment = try CatalogueFixture.environment()
    folder = try CatalogueFixture.temporaryDirectory()
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  @Test func familyPagesAreHeadedTheirTextInItsLanguageAndTheContentsAreLinks() throws {
    var input = try CatalogueFixture.input(environment)
    input.sample = SampleSettings(language: "de")
    let path = folder + "/catalogue.pdf"
    _ = try CatalogueWriter(environment: environment).write(input, to: path)
    let plan = CataloguePlan(input)
    let pdf = try TaggedPDF.read(path)

    // The tool's own words are English; the document says so, and viewers show its title.
    #expect(pdf.language == "en")
    #expect(pdf.displaysTitle)
    #expect(pdf.marked)
    #expect(pdf.elements.first?.role == "Document")
    #expect(pdf.elements.dropFirst().allSatisfy { $0.depth >= 1 && $0.page != nil })

    // Each family's first page is headed by the family's name.
    for (family, page) in zip(input.families, plan.familyPages) {
      let headings = pdf.elements("H1").filter { $0.page == page }
      #expect(headings.map(\.text) == [family.name], "page \(page)")
    }
    #expect(pdf.elements("H1").contains { $0.text == "Contents" })

    // Every contents entry is a link: the families, the pairings and the saved section.
    let contents = pdf.elements("Link").filter { $0.page == 2 }
    #expect(contents.count == input.families.count + 2)
    #expect(contents.contains { $0.text.hasPrefix("DejaVu Serif") })

    // The sample is German wherever it is set; the labels, English (the document's).
    let serifPage = try #require(plan.familyPages.first)
    let serif = pdf.elements("P").filter { $0.page == serifPage }
    let samples = serif.filter { $0.text.contains("Sphinx of black quartz") }
    #expect(!samples.isEmpty && samples.allSatisfy { $0.language == "de" }, "\(serif)")
    let labels = serif.filter { ["SAMPLE", "REGULAR", "STYLES"].contains($0.text) }
    #expect(labels.count == 3 && labels.allSatisfy { $0.language == nil }, "\(serif)")
    // A family that cannot set the sample shows its own script, in its own language.
    let hebrew = try #require(input.families.firstIndex { $0.name == "Noto Sans Hebrew" })
    let own = pdf.elements("P").filter { $0.page == plan.familyPages[hebrew] }
    #expect(own.contains { $0.language == "he" }, "\(own)")

    // The spaced-out labels are found as words.
    let text = try #require(Tool.run("pdftotext", [path, "-"]), "pdftotext is needed").output
    let lines = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    for word in ["SAMPLE", "REGULAR", "BOLD ITALIC", "STYLES", "PAIRS WELL"] {
      #expect(lines.contains(word), "pdftotext lacks \(word)")
    }
  }
}
