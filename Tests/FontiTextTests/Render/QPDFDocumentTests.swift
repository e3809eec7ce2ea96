import Foundation
import TestSupport
import Testing

@testable import FontiText

/// qpdf as the catalogue's finishing step uses it: files read from memory, a damaged
/// cross-reference table rebuilt only when asked for, and files that are no PDF refused with
/// their name.
struct QPDFDocumentTests {
  /// A one-page PDF whose cross-reference table points every object 5 bytes too far, as
  /// Cairo 1.16's reserved-but-unwritten objects leave a file unreadable without recovery.
  static func damagedPDF() -> String {
    var body = "%PDF-1.4\n"
    var offsets: [Int] = []
    for object in [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>",
    ] {
      offsets.append(body.utf8.count)
      body += "\(offsets.count) 0 obj\n\(object)\nendobj\n"
    }
    let xref = body.utf8.count
    body += "xref\n0 4\n0000000000 65535 f \n"
    for offset in offsets { body += String(format: "%010d 00000 n \n", offset + 5) }
    body += "trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return body
  }

  @Test func aDamagedFileIsReadOnlyWithRecoveryAndRewrittenClean() throws {
    let folder = try TemporaryDirectory()
    let damaged = folder.path + "/damaged.pdf"
    let clean = folder.path + "/clean.pdf"
    try Self.damagedPDF().write(toFile: damaged, atomically: true, encoding: .utf8)

    // Without recovery the damage shows as soon as an object is needed.
    let strict = try QPDFDocument(reading: damaged, recovery: false)
    #expect(throws: QPDFError.self) { try strict.pageCount() }
    try PDFRewriter.rewrite(
      damaged, to: clean, info: [("/Title", "Rewritten")], expectedPages: 1)
    let written = try QPDFDocument(reading: clean, recovery: false)
    #expect(try written.pageCount() == 1)
    #expect(written.info("/Title") == "Rewritten")
    #expect(written.check().isEmpty)

    // The same input gives the same bytes (a deterministic /ID, no original object numbers).
    let again = folder.path + "/again.pdf"
    try PDFRewriter.rewrite(
      damaged, to: again, info: [("/Title", "Rewritten")], expectedPages: 1)
    #expect(
      FileManager.default.contents(atPath: clean) == FileManager.default.contents(atPath: again))
  }

  @Test func aPageCountOtherThanTheExpectedOneIsRefused() throws {
    let folder = try TemporaryDirectory()
    let damaged = folder.path + "/damaged.pdf"
    try Self.damagedPDF().write(toFile: damaged, atomically: true, encoding: .utf8)
    let error = #expect(throws: QPDFError.self) {
      try PDFRewriter.rewrite(damaged, to: folder.path + "/out.pdf", info: [], expectedPages: 2)
    }
    #expect(error?.description.contains("expected 2 pages, found 1") == true)
  }

  @Test(arguments: ["missing.pdf", "empty.pdf", "text.pdf", "folder.pdf"])
  func whatIsNoPDFIsRefusedWithItsName(_ name: String) throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/" + name
    switch name {
    case "empty.pdf": try Data().write(to: URL(fileURLWithPath: path))
    case "text.pdf": try "not a PDF at all\n".write(toFile: path, atomically: true, encoding: .utf8)
    case "folder.pdf":
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    default: break
    }
    for recovery in [false, true] {
      let error = #expect(throws: QPDFError.self) {
        try QPDFDocument(reading: path, recovery: recovery)
      }
      #expect(error?.description.contains(path) == true, "\(name): \(error.map { "\($0)" } ?? "")")
    }
  }
}
