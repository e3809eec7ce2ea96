import Foundation
import TestSupport
import Testing

@testable import FontiText

/// Cairo's cross-reference table mended in place: entries of objects Cairo reserved and never
/// wrote are marked free, and nothing else is touched; any other damage is left for qpdf's
/// recovery.
struct CairoCrossReferenceTests {
  /// A one-page PDF laid out as Cairo lays it out, whose table lists object 4 as in use at the
  /// offset of object 2's header, and object 4 is written nowhere (an unreferenced array still
  /// points at it, as Cairo's unwritten parent tree does).
  static func reservedButUnwritten() -> String {
    var body = "%PDF-1.5\n"
    var offsets: [Int] = []
    for object in [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /StructParents 0 >>",
      "",
      "[ 4 0 R ]",
    ] {
      offsets.append(body.utf8.count)
      if object.isEmpty { continue }
      body += "\(offsets.count) 0 obj\n\(object)\nendobj\n"
    }
    offsets[3] = offsets[1]
    let xref = body.utf8.count
    body += "xref\n0 6\n0000000000 65535 f \n"
    for offset in offsets { body += String(format: "%010d 00000 n \n", offset) }
    body += "trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return body
  }

  /// Draws a two-page PDF with Cairo, a link on the first page to a destination on the second:
  /// Cairo 1.16 reserves an object for the link's structure element and never writes it.
  static func drawLinkedPDF(to path: String) throws {
    let surface = try CairoSurface.pdf(path: path, width: 200, height: 100)
    let cr = try CairoContext(surface)
    cr.link(to: "second", rect: (10, 10, 50, 20)) {
      cr.rectangle(10, 10, 50, 20)
      cr.fill()
    }
    cr.showPage()
    cr.destination("second")
    cr.showPage()
    try surface.finish()
  }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func anObjectReservedAndNeverWrittenIsMarkedFreeInPlace() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/reserved.pdf"
    let text = Self.reservedButUnwritten()
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(!(try QPDFDocument(reading: path, recovery: false).check().isEmpty))

    #expect(CairoCrossReference.mend(path))
    let mended = try #require(bytes(path))
    #expect(mended.count == text.utf8.count)
    // Only object 4's entry changed.
    let lines = String(decoding: mended, as: UTF8.self).components(separatedBy: "\n")
    let table = try #require(lines.firstIndex(of: "xref"))
    #expect(lines[table + 6] == "0000000000 65535 f ")
    #expect(
      Array(lines[..<(table + 6)]) + Array(lines[(table + 7)...])
        == Array(text.components(separatedBy: "\n")[..<(table + 6)])
        + Array(text.components(separatedBy: "\n")[(table + 7)...]))
    let strict = try QPDFDocument(reading: path, recovery: false, inMemory: false)
    #expect(try strict.pageCount() == 1)
    #expect(strict.check().isEmpty)
    // Mending twice changes nothing more.
    #expect(CairoCrossReference.mend(path))
    #expect(bytes(path) == mended)
  }

  @Test func cairosLinkedPDFIsMendedAndRewrittenToTheSameBytes() throws {
    let folder = try TemporaryDirectory()
    let raw = folder.path + "/raw.pdf"
    try Self.drawLinkedPDF(to: raw)
    let original = try #require(bytes(raw))
    let throughRecovery = folder.path + "/recovered.pdf"
    // Cairo's file as it is, rebuilt by qpdf's recovery (the mend is undone by a fresh copy).
    let copy = folder.path + "/copy.pdf"
    try original.write(to: URL(fileURLWithPath: copy))
    // Cairo 1.16's damage: qpdf's own check fails on the file as Cairo wrote it.
    #expect(!(try QPDFDocument(reading: copy, recovery: false).check().isEmpty))
    let document = try QPDFDocument(reading: copy, recovery: true)
    try document.removeDanglingStructureKeys()
    _ = try document.write(to: throughRecovery)

    #expect(CairoCrossReference.mend(raw))
    #expect(bytes(raw)?.count == original.count)
    let strict = try QPDFDocument(reading: raw, recovery: false, inMemory: false)
    #expect(strict.check().isEmpty)
    #expect(strict.linkDestinations() == [["second"], []])
    let mended = folder.path + "/mended.pdf"
    let again = try QPDFDocument(reading: raw, recovery: false, inMemory: false)
    try again.removeDanglingStructureKeys()
    _ = try again.write(to: mended)
    #expect(bytes(mended) == bytes(throughRecovery))
  }

  @Test func damageOfAnotherKindIsLeftForRecovery() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/damaged.pdf"
    // Every object is written, but the table points 5 bytes past each.
    try QPDFDocumentTests.damagedPDF().write(toFile: path, atomically: true, encoding: .utf8)
    let before = bytes(path)
    #expect(!CairoCrossReference.mend(path))
    #expect(bytes(path) == before)
  }

  @Test(arguments: [
    "not a PDF at all\n",
    "%PDF-1.5\nxref\n0 900\n0000000000 65535 f \ntrailer\n<< >>\nstartxref\n9\n%%EOF\n",
    "%PDF-1.5\nstartxref\n99999\n%%EOF\n",
    "%PDF-1.5\nxref\n0 2\n0000000000 65535 f \n00000000x9 00000 n \ntrailer\n<< >>\nstartxref\n9\n%%EOF\n",
  ])
  func aFileOfAnotherLayoutIsLeftAsItIs(_ text: String) throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/other.pdf"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(!CairoCrossReference.mend(path))
    #expect(bytes(path) == Data(text.utf8))
  }

  @Test func aMissingFileIsNotMended() {
    #expect(!CairoCrossReference.mend("/nonexistent/fonti-batch/raw.pdf"))
  }
}
