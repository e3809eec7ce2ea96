import Foundation
import TestSupport
import Testing

@testable import FontiModel
@testable import FontiText

/// A tagged PDF as the catalogue and `diff` make one: Cairo 1.16 writes the structure tree, the
/// finishing step writes what Cairo cannot (languages, alternative text, the document's
/// language), and a tree that is not the one drawn is refused. Read back with pikepdf and
/// poppler (`TaggedPDF`).
@Suite(.serialized) struct PDFTaggingTests {
  /// Draws two pages: a heading, a paragraph in German, a figure, a link to page 2, and an
  /// empty paragraph on page 2; each page's background painted first, as every page is.
  static func draw(to path: String) throws -> PDFTagging? {
    let surface = try CairoSurface.pdf(path: path, width: 200, height: 100)
    try surface.setMetadata(.title, "Tagged")
    let cr = try CairoContext(surface)
    cr.beginDocument()
    for page in 1...2 {
      cr.setColour(Colour(hex: 0xFFFFFF))
      cr.paint()
      cr.destination("page-\(page)")
      cr.setColour(Colour(hex: 0x000000))
      if page == 1 {
        cr.heading { box(cr, 10) }
        cr.paragraph(language: "de") { box(cr, 20) }
        cr.paragraph(language: "en") { box(cr, 30) }
        cr.figure(alt: "A black square") { box(cr, 40) }
        cr.link(to: "page-2", rect: (50, 10, 10, 10)) {
          // Text drawn in a link is the link's: no paragraph of its own.
          cr.paragraph(language: "fr") { box(cr, 50) }
        }
      } else {
        cr.paragraph(language: "zh_TW", actualText: "字") { box(cr, 10) }
      }
      cr.showPage()
    }
    let tagging = cr.endDocument()
    try surface.finish()
    return tagging
  }

  static func box(_ cr: CairoContext, _ x: Double) {
    cr.rectangle(x, 10, 8, 8)
    cr.fill()
  }

  @Test func theFinishingStepWritesWhatCairoCannot() throws {
    let folder = try TemporaryDirectory()
    let raw = folder.path + "/raw.pdf"
    let path = folder.path + "/tagged.pdf"
    let tagging = try #require(try Self.draw(to: raw))
    #expect(tagging.elements == 7)
    // Only what differs from the document is noted: German, the figure, the Chinese line.
    #expect(tagging.notes.map(\.element) == [2, 4, 6])
    try PDFFile.finish(raw: raw, to: path, creationDate: Date(), pages: 2, tagging: tagging)

    let pdf = try TaggedPDF.read(path)
    #expect(pdf.language == "en")
    #expect(pdf.displaysTitle)
    #expect(pdf.marked)
    #expect(pdf.elements.map(\.role) == ["Document", "H1", "P", "P", "Figure", "Link", "P"])
    #expect(pdf.elements.map(\.depth) == [0, 1, 1, 1, 1, 1, 1])
    #expect(pdf.elements.map(\.page) == [nil, 1, 1, 1, 1, 1, 2])
    #expect(pdf.elements.map(\.language) == [nil, nil, "de", nil, nil, nil, "zh-TW"])
    #expect(pdf.elements("Figure").first?.alt == "A black square")
    #expect(pdf.elements.last?.actualText == "字")
    let written = try QPDFDocument(reading: path, recovery: false)
    #expect(written.check().isEmpty)
    #expect(written.linkDestinations() == [["page-2"], []])
  }

  /// A tree other than the one drawn (an element more, fewer, or of another type where a note
  /// is) is refused: nothing could say which element a note is for.
  @Test(arguments: ["more", "fewer", "another type"])
  func aTreeOtherThanTheOneDrawnIsRefused(_ change: String) throws {
    let folder = try TemporaryDirectory()
    let raw = folder.path + "/raw.pdf"
    let drawn = try #require(try Self.draw(to: raw))
    var tagging = PDFTagging(language: "en")
    for note in 0..<drawn.elements {
      let figure = change == "another type" && note == 1
      tagging.begin(
        figure ? .figure : .paragraph, alt: figure ? "not a heading" : nil,
        language: nil, actualText: nil)
    }
    if change == "more" { tagging.begin(.paragraph, alt: nil, language: nil, actualText: nil) }
    if change == "fewer" {
      tagging = PDFTagging(language: "en")
      for _ in 1..<drawn.elements {
        tagging.begin(.paragraph, alt: nil, language: nil, actualText: nil)
      }
    }
    let path = folder.path + "/tagged.pdf"
    let error = #expect(throws: RenderError.self) {
      try PDFFile.finish(raw: raw, to: path, creationDate: Date(), pages: 2, tagging: tagging)
    }
    let message = error?.message ?? ""
    let expected = change == "another type" ? "element 2 is /H1, drawn as Figure" : "the tree holds"
    #expect(message.contains(expected), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// Cairo forgets what it recorded on a page before an opaque paint of the whole page: the
  /// Document element begins with the first element inside it, after the background.
  @Test func theDocumentSurvivesTheFirstPagesBackground() throws {
    let folder = try TemporaryDirectory()
    let raw = folder.path + "/raw.pdf"
    let tagging = try #require(try Self.draw(to: raw))
    let path = folder.path + "/tagged.pdf"
    try PDFFile.finish(raw: raw, to: path, creationDate: Date(), pages: 2, tagging: tagging)
    #expect(try TaggedPDF.read(path).elements.first?.role == "Document")
  }

  /// An untagged drawing (PNGs, or a PDF never begun as a document) draws exactly what it drew
  /// before: no structure, and a link is still a link.
  @Test func untaggedDrawingHasNoStructure() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/plain.pdf"
    let surface = try CairoSurface.pdf(path: path, width: 100, height: 100)
    let cr = try CairoContext(surface)
    cr.paragraph(language: "de") { Self.box(cr, 10) }
    cr.figure(alt: "unused") { Self.box(cr, 20) }
    cr.showPage()
    #expect(cr.endDocument() == nil)
    try surface.finish()
    #expect(try TaggedPDF.read(path).elements.isEmpty)
  }
}
