internal import CQPDF
import FontiSupport

/// A failed qpdf operation, with every message qpdf gave. The catalogue writer turns it into a
/// `RenderError` for the catalogue.
struct QPDFError: Error, CustomStringConvertible {
  var operation: String
  var messages: [String]

  var description: String {
    messages.isEmpty ? operation : "\(operation): \(messages.joined(separator: "; "))"
  }
}

/// A PDF file opened with qpdf's C API; owns one `qpdf_data`.
///
/// qpdf never prints here: warnings are suppressed on stderr and collected through
/// `qpdf_next_warning`, errors through `qpdf_get_error` (`qpdf_silence_errors` stops the
/// library from reporting them itself). Deliberately not Sendable: a `qpdf_data` is not
/// thread-safe.
final class QPDFDocument {
  /// `qpdf_data`, set to nil by `qpdf_cleanup`.
  private var handle: OpaquePointer?
  let path: String
  /// qpdf's functions, loaded on first use (the tool does not link qpdf: see CQPDF's shim).
  private let q: CQPDF_functions

  // QPDF_ERROR_CODE bits (macros with shifts, which Swift does not import).
  private static let warningsBit: Int32 = 1 << 0
  private static let errorsBit: Int32 = 1 << 1

  /// The file's bytes, which qpdf reads in place (nil: qpdf opened the file itself). They
  /// must outlive `handle`.
  private var bytes: UnsafeMutableRawBufferPointer?

  /// Opens `path`. `inMemory`: read whole into memory first (calls `qpdf_read_memory`; qpdf
  /// reading a file itself seeks and reads a few bytes at a time, two system calls per token,
  /// which is slow when it rebuilds a damaged table token by token: about 2 of the 3.3 s of
  /// rewriting a 25 MB catalogue); a file that cannot be read that way is left to `qpdf_read`,
  /// whose message names the problem. Otherwise qpdf reads the file itself (calls `qpdf_read`),
  /// and only the objects asked for are held. With `recovery`, qpdf rebuilds a damaged
  /// cross-reference table by scanning the file; without it, damage shows when an object is
  /// needed.
  init(reading path: String, recovery: Bool, inMemory: Bool = true) throws(QPDFError) {
    guard let functions = CQPDF_functions() else {
      let why = CQPDF_load_failure().map { String(cString: $0) } ?? "unknown reason"
      throw QPDFError(operation: "qpdf cannot be loaded", messages: [why])
    }
    q = functions.pointee
    guard let h = q.qpdf_init() else { preconditionFailure("qpdf_init returned NULL") }
    q.qpdf_silence_errors(h)
    q.qpdf_set_suppress_warnings(h, QPDF_TRUE)
    q.qpdf_set_attempt_recovery(h, recovery ? QPDF_TRUE : QPDF_FALSE)
    handle = h
    self.path = path
    bytes = inMemory ? QPDFDocument.contents(of: path) : nil
    let code =
      if let bytes, let base = bytes.baseAddress {
        q.qpdf_read_memory(
          h, path, base.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil)
      } else {
        q.qpdf_read(h, path, nil)
      }
    if code & QPDFDocument.errorsBit != 0 || q.qpdf_has_error(h) != QPDF_FALSE {
      throw QPDFError(operation: "qpdf cannot read '\(path)'", messages: drainErrors())
    }
  }

  deinit {
    q.qpdf_cleanup(&handle)
    bytes?.deallocate()
  }

  /// The bytes of the regular, non-empty file `path` (`AtomicFile.readBytes`), copied where
  /// they stay put for qpdf; nil when it cannot be read, is empty or is not a regular file.
  private static func contents(of path: String) -> UnsafeMutableRawBufferPointer? {
    guard let bytes = try? AtomicFile.readBytes(path, limit: Int.max), !bytes.isEmpty else {
      return nil
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
    bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    return buffer
  }

  private var data: OpaquePointer {
    guard let handle else { preconditionFailure("qpdf_data used after cleanup") }
    return handle
  }

  /// The warnings qpdf has collected since the last call (calls `qpdf_next_warning`).
  func drainWarnings() -> [String] {
    var out: [String] = []
    while q.qpdf_more_warnings(data) != QPDF_FALSE {
      guard let warning = q.qpdf_next_warning(data) else { break }
      out.append(q.qpdf_get_error_full_text(data, warning).map { String(cString: $0) } ?? "")
    }
    return out
  }

  /// The pending error, if any, then every warning (calls `qpdf_get_error`).
  private func drainErrors() -> [String] {
    var out: [String] = []
    if q.qpdf_has_error(data) != QPDF_FALSE, let error = q.qpdf_get_error(data) {
      out.append(q.qpdf_get_error_full_text(data, error).map { String(cString: $0) } ?? "")
    }
    return out + drainWarnings()
  }

  /// Throws the pending error, if a call without a return code set one.
  private func checkError(_ operation: String) throws(QPDFError) {
    if q.qpdf_has_error(data) != QPDF_FALSE {
      throw QPDFError(operation: operation, messages: drainErrors())
    }
  }

  /// The number of pages (calls `qpdf_get_num_pages`).
  func pageCount() throws(QPDFError) -> Int {
    let n = q.qpdf_get_num_pages(data)
    if n < 0 { throw QPDFError(operation: "count pages of '\(path)'", messages: drainErrors()) }
    return Int(n)
  }

  /// Width and height of page `index`'s /MediaBox, in points; nil when it has none.
  func pageSize(_ index: Int) -> (width: Double, height: Double)? {
    let page = q.qpdf_get_page_n(data, index)
    let box = q.qpdf_oh_get_key(data, page, "/MediaBox")
    defer { _ = drainErrors() }
    guard q.qpdf_oh_is_array(data, box) != QPDF_FALSE, q.qpdf_oh_get_array_n_items(data, box) == 4
    else { return nil }
    let v = (0..<4).map {
      q.qpdf_oh_get_numeric_value(data, q.qpdf_oh_get_array_item(data, box, $0))
    }
    return (v[2] - v[0], v[3] - v[1])
  }

  /// Page `index`'s resource dictionary's entry `kind`, such as "/Font" (a null object when it
  /// has none).
  private func pageResource(_ index: Int, _ kind: String) -> qpdf_oh {
    let resources = q.qpdf_oh_get_key(data, q.qpdf_get_page_n(data, index), "/Resources")
    return q.qpdf_oh_get_key(data, resources, kind)
  }

  /// Whether page `index`'s resources have an entry `kind`, such as "/Font": a test hook.
  func pageHasResource(_ index: Int, _ kind: String) -> Bool {
    defer { _ = drainErrors() }
    return q.qpdf_oh_is_dictionary(data, pageResource(index, kind)) != QPDF_FALSE
  }

  /// The fill opacities (`/ca`) of page `index`'s graphics states, as Cairo names them (`/a0`,
  /// `/a1`…): a test hook.
  func pageFillOpacities(_ index: Int) -> [Double] {
    let states = pageResource(index, "/ExtGState")
    defer { _ = drainErrors() }
    var out: [Double] = []
    while q.qpdf_oh_is_dictionary(data, states) != QPDF_FALSE,
      q.qpdf_oh_has_key(data, states, "/a\(out.count)") != QPDF_FALSE
    {
      let state = q.qpdf_oh_get_key(data, states, "/a\(out.count)")
      out.append(q.qpdf_oh_get_numeric_value(data, q.qpdf_oh_get_key(data, state, "/ca")))
    }
    return out
  }

  /// A string of the Info dictionary, such as "/Title" (calls `qpdf_get_info_key`).
  func info(_ key: String) -> String? {
    q.qpdf_get_info_key(data, key).map { String(cString: $0) }
  }

  /// Sets (or with nil removes) a string of the Info dictionary (calls `qpdf_set_info_key`).
  func setInfo(_ key: String, _ value: String?) throws(QPDFError) {
    q.qpdf_set_info_key(data, key, value)
    try checkError("set \(key) in '\(path)'")
  }

  /// Removes `/StructParents` from pages and `/StructParent` from their annotations. Cairo 1.16
  /// writes them for every link although the file has no structure tree (the tree it meant to
  /// write is the object it reserves and never writes).
  func removeDanglingStructureKeys() throws(QPDFError) {
    let root = q.qpdf_get_root(data)
    let hasTree = q.qpdf_oh_has_key(data, root, "/StructTreeRoot") != QPDF_FALSE
    try checkError("read the catalog of '\(path)'")
    guard !hasTree else { return }
    let count = try pageCount()
    for i in 0..<count {
      let page = q.qpdf_get_page_n(data, i)
      q.qpdf_oh_remove_key(data, page, "/StructParents")
      let annotations = q.qpdf_oh_get_key(data, page, "/Annots")
      if q.qpdf_oh_is_array(data, annotations) != QPDF_FALSE {
        for j in 0..<q.qpdf_oh_get_array_n_items(data, annotations) {
          let annotation = q.qpdf_oh_get_array_item(data, annotations, j)
          if q.qpdf_oh_is_dictionary(data, annotation) != QPDF_FALSE {
            q.qpdf_oh_remove_key(data, annotation, "/StructParent")
          }
          q.qpdf_oh_release(data, annotation)
        }
      }
      q.qpdf_oh_release(data, annotations)
      q.qpdf_oh_release(data, page)
      try checkError("clean page \(i + 1) of '\(path)'")
    }
    q.qpdf_oh_release(data, root)
  }

  /// Completes the structure tree Cairo wrote from what the drawing recorded (`PDFTagging`):
  /// the catalog's /Lang and /ViewerPreferences << /DisplayDocTitle true >> (a viewer shows the
  /// title, not the file's name), and each noted element's /Alt, /Lang and /ActualText (calls
  /// `qpdf_oh_replace_key`). The tree is walked depth first, the order Cairo writes elements
  /// in, which is the order they were begun; it must hold exactly the elements recorded, each
  /// noted one of its recorded type, or nothing would say which element a note is for.
  func complete(_ tagging: PDFTagging) throws(QPDFError) {
    let operation = "complete the structure of '\(path)'"
    let root = q.qpdf_get_root(data)
    q.qpdf_oh_replace_key(data, root, "/Lang", unicode(tagging.language))
    var preferences = q.qpdf_oh_get_key(data, root, "/ViewerPreferences")
    if q.qpdf_oh_is_dictionary(data, preferences) == QPDF_FALSE {
      preferences = q.qpdf_oh_new_dictionary(data)
    }
    let yes = q.qpdf_oh_new_bool(data, QPDF_TRUE)
    q.qpdf_oh_replace_key(data, preferences, "/DisplayDocTitle", yes)
    q.qpdf_oh_replace_key(data, root, "/ViewerPreferences", preferences)
    try checkError(operation)

    var notes = tagging.notes.sorted { $0.element < $1.element }[...]
    var found = 0
    var more = false
    let tree = q.qpdf_oh_get_key(data, root, "/StructTreeRoot")
    // Items to visit, the next last: an element's kids are visited before its next sibling.
    var stack: [qpdf_oh] = [q.qpdf_oh_get_key(data, tree, "/K")]
    while let item = stack.popLast() {
      defer { q.qpdf_oh_release(data, item) }
      if q.qpdf_oh_is_array(data, item) != QPDF_FALSE {
        let count = q.qpdf_oh_get_array_n_items(data, item)
        stack += (0..<count).reversed().map { q.qpdf_oh_get_array_item(data, item, $0) }
        continue
      }
      // Marked-content and object references are dictionaries without /S; MCIDs, numbers.
      guard q.qpdf_oh_is_dictionary(data, item) != QPDF_FALSE,
        q.qpdf_oh_has_key(data, item, "/S") != QPDF_FALSE
      else { continue }
      guard found < tagging.elements else {
        more = true
        break
      }
      if let note = notes.first, note.element == found {
        notes.removeFirst()
        try complete(item, with: note, number: found)
      }
      found += 1
      stack.append(q.qpdf_oh_get_key(data, item, "/K"))
    }
    for item in stack { q.qpdf_oh_release(data, item) }
    q.qpdf_oh_release(data, tree)
    q.qpdf_oh_release(data, root)
    try checkError(operation)
    if more || found != tagging.elements {
      throw QPDFError(
        operation: operation,
        messages: [
          "the tree holds \(more ? "more than \(found)" : "\(found)") elements, "
            + "the drawing began \(tagging.elements)"
        ])
    }
  }

  /// Writes `note` into the structure element `element`, the `number`th of the tree (from 0),
  /// once its type is the one drawn.
  private func complete(_ element: qpdf_oh, with note: PDFTagging.Note, number: Int)
    throws(QPDFError)
  {
    let type = q.qpdf_oh_get_key(data, element, "/S")
    defer { q.qpdf_oh_release(data, type) }
    let role = q.qpdf_oh_get_name(data, type).map { String(cString: $0) }
    guard role == "/" + note.role.rawValue else {
      throw QPDFError(
        operation: "complete the structure of '\(path)'",
        messages: ["element \(number + 1) is \(role ?? "untyped"), drawn as \(note.role.rawValue)"])
    }
    for (key, value) in [
      ("/Alt", note.alt), ("/Lang", note.language), ("/ActualText", note.actualText),
    ] {
      guard let value else { continue }
      let string = unicode(value)
      q.qpdf_oh_replace_key(data, element, key, string)
      q.qpdf_oh_release(data, string)
    }
  }

  /// A new text string object holding `text` (PDFDocEncoding, or UTF-16 when it needs it).
  private func unicode(_ text: String) -> qpdf_oh {
    q.qpdf_oh_new_unicode_string(data, text)
  }

  /// Writes the document to `output` (calls `qpdf_init_write` and `qpdf_write`): object
  /// streams generated, streams compressed, unreferenced objects dropped, and a /ID computed
  /// from the content, so the same input gives the same bytes. Returns qpdf's warnings.
  func write(to output: String) throws(QPDFError) -> [String] {
    let operation = "qpdf cannot write '\(output)'"
    if q.qpdf_init_write(data, output) & QPDFDocument.errorsBit != 0 {
      throw QPDFError(operation: operation, messages: drainErrors())
    }
    q.qpdf_set_object_stream_mode(data, qpdf_o_generate)
    q.qpdf_set_stream_data_mode(data, qpdf_s_compress)
    q.qpdf_set_compress_streams(data, QPDF_TRUE)
    q.qpdf_set_preserve_unreferenced_objects(data, QPDF_FALSE)
    q.qpdf_set_suppress_original_object_IDs(data, QPDF_TRUE)
    q.qpdf_set_deterministic_ID(data, QPDF_TRUE)
    let code = q.qpdf_write(data)
    if code & QPDFDocument.errorsBit != 0 || q.qpdf_has_error(data) != QPDF_FALSE {
      throw QPDFError(operation: operation, messages: drainErrors())
    }
    return drainWarnings()
  }

  /// Runs qpdf's own check, the one behind `qpdf --check` (calls `qpdf_check_pdf`), and
  /// returns every error and warning it found; empty means clean.
  func check() -> [String] {
    let code = q.qpdf_check_pdf(data)
    var problems = drainErrors()
    if code != 0 && problems.isEmpty { problems.append("qpdf check failed (code \(code))") }
    return problems
  }

  /// The titles of the outline (bookmarks), depth first, each prefixed by two spaces per
  /// level of nesting. Stops after `limit` entries so a looping outline cannot hang.
  func outlineTitles(limit: Int = 100_000) -> [String] {
    var titles: [String] = []
    let root = q.qpdf_get_root(data)
    let outlines = q.qpdf_oh_get_key(data, root, "/Outlines")
    guard q.qpdf_oh_is_dictionary(data, outlines) != QPDF_FALSE else { return [] }
    var stack: [(qpdf_oh, Int)] = [(q.qpdf_oh_get_key(data, outlines, "/First"), 0)]
    while let (item, depth) = stack.popLast(), titles.count < limit {
      guard q.qpdf_oh_is_dictionary(data, item) != QPDF_FALSE else { continue }
      let title = q.qpdf_oh_get_key(data, item, "/Title")
      let text = q.qpdf_oh_get_utf8_value(data, title).map { String(cString: $0) } ?? ""
      titles.append(String(repeating: "  ", count: depth) + text)
      // Next sibling after the children: push it first.
      stack.append((q.qpdf_oh_get_key(data, item, "/Next"), depth))
      stack.append((q.qpdf_oh_get_key(data, item, "/First"), depth + 1))
    }
    _ = drainErrors()
    return titles
  }

  /// Named destinations used by link annotations on each page, in page order: for every
  /// `/Link` annotation, its `/Dest` name (or "" for another kind of destination).
  func linkDestinations() -> [[String]] {
    var out: [[String]] = []
    let count = (try? pageCount()) ?? 0
    for i in 0..<count {
      let page = q.qpdf_get_page_n(data, i)
      let annotations = q.qpdf_oh_get_key(data, page, "/Annots")
      var names: [String] = []
      if q.qpdf_oh_is_array(data, annotations) != QPDF_FALSE {
        for j in 0..<q.qpdf_oh_get_array_n_items(data, annotations) {
          let a = q.qpdf_oh_get_array_item(data, annotations, j)
          guard q.qpdf_oh_is_dictionary_of_type(data, a, "/Annot", "/Link") != QPDF_FALSE
          else { continue }
          let dest = q.qpdf_oh_get_key(data, a, "/Dest")
          let name =
            q.qpdf_oh_is_string(data, dest) != QPDF_FALSE
            ? q.qpdf_oh_get_utf8_value(data, dest).map { String(cString: $0) } ?? "" : ""
          names.append(name)
        }
      }
      out.append(names)
    }
    _ = drainErrors()
    return out
  }
}

/// The catalogue's post-pass: Cairo 1.16 writes a damaged cross-reference table as soon as a
/// PDF has one link annotation (it reserves objects for a structure tree it never writes).
/// The table is mended first (`CairoCrossReference`), so that qpdf reads the file from disk;
/// damage of another kind is left to qpdf's recovery, with the file in memory. qpdf drops the
/// dangling references and writes a clean, compressed file with a deterministic /ID; the
/// result is then read back strictly, from disk: its cross-reference table, trailer and page
/// tree. Both reads from disk keep the file's bytes out of memory while qpdf holds every object
/// of the document.
///
/// qpdf's full check (`QPDFDocument.check`, which decodes every stream once more) is left to
/// the tests, which run it (or `qpdf --check`) on the catalogues they write: it costs a
/// quarter of the finishing step (0.42 of 1.78 s for 1,050 pages), the one step of a catalogue
/// run that nothing runs beside, and it would only read again what qpdf has just written,
/// stream by stream, from objects it has parsed.
enum PDFRewriter {
  /// Rewrites `input` into `output`. `info` entries (keys with their slash, "/CreationDate")
  /// replace those of the Info dictionary; `tagging`, what the drawing recorded of its
  /// structure, completes the tree (`QPDFDocument.complete`). Throws unless the written file
  /// reads without recovery and without a warning, and has `expectedPages` pages.
  static func rewrite(
    _ input: String, to output: String, info: [(String, String)], tagging: PDFTagging? = nil,
    expectedPages: Int
  ) throws(QPDFError) {
    do {
      let mended = CairoCrossReference.mend(input)
      let document = try QPDFDocument(reading: input, recovery: true, inMemory: !mended)
      try document.removeDanglingStructureKeys()
      if let tagging { try document.complete(tagging) }
      for (key, value) in info { try document.setInfo(key, value) }
      // Warnings here describe the input's known damage; the output is what must be clean.
      _ = try document.write(to: output)
      _ = document.drainWarnings()
    }
    let written = try QPDFDocument(reading: output, recovery: false, inMemory: false)
    let pages = try written.pageCount()
    var problems = written.drainWarnings()
    if pages != expectedPages {
      problems.append("expected \(expectedPages) pages, found \(pages)")
    }
    if !problems.isEmpty {
      throw QPDFError(operation: "the rewritten PDF '\(output)' is not clean", messages: problems)
    }
  }
}
