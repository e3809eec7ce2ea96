import FontiModel
import FontiSupport
import Foundation

/// A PDF that Cairo drew, made final: catalogues and `diff`'s review share its finishing step
/// and its dates.
package enum PDFFile {
  /// The second half of `write`: qpdf rewrites Cairo's file cleanly (Cairo 1.16's
  /// cross-reference table is damaged once links exist), with PDF dates and a deterministic
  /// /ID, checks the result, and renames it to `path`. It needs no fonts, so a batch runs it in
  /// a fresh process once drawing is done: qpdf holds every object of the document, and its
  /// peak then never adds to the drawing's. `tagging` (what `CairoContext.endDocument`
  /// returned) completes the structure tree: languages, alternative text.
  package static func finish(
    raw: String, to path: String, creationDate: Date, pages: Int, tagging: PDFTagging?
  ) throws(RenderError) {
    do {
      try AtomicFile.write(to: path) { final in
        let date = pdfDate(creationDate)
        try PDFRewriter.rewrite(
          OutputFolder.systemPathOrSame(raw), to: final,
          info: [("/CreationDate", date), ("/ModDate", date)], tagging: tagging,
          expectedPages: pages)
      }
    } catch let error as RenderError {
      throw error
    } catch {
      throw RenderError("cannot write catalogue '\(path)': \(error)")
    }
  }

  /// "2026-03-01T12:00:00Z" for Cairo's metadata.
  package static func isoDate(_ date: Date) -> String { Timestamp.format(date) }

  /// "D:20260301120000Z", the PDF date form (Cairo 1.16 leaves out the "D:").
  package static func pdfDate(_ date: Date) -> String {
    "D:" + Timestamp.format(date).filter(\.isNumber) + "Z"
  }

  /// "1 March 2026", in English and UTC whatever the locale, so files are reproducible.
  package static func displayDate(_ date: Date) -> String {
    let months = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September",
      "October", "November", "December",
    ]
    let c = Timestamp.utc(date)
    return "\(c.day) \(months[max(0, min(11, c.month - 1))]) \(c.year)"
  }
}
