import Foundation

/// A PDF's structure tree as a reader sees it, read by tools that are not ours: pikepdf
/// (Debian's python3-pikepdf, for the keys: /Lang, /Alt, /ActualText, each element's page) and
/// poppler's `pdfinfo -struct-text` (each element's text). Both are installed by `make
/// setup-test`, which `make test` runs.
package struct TaggedPDF {
  /// One structure element, depth first (the order of the tree and of reading).
  package struct Element {
    /// Its type without the slash: "Document", "H1", "P", "Figure", "Link".
    package var role: String
    /// 0 for the tree's top elements.
    package var depth: Int
    /// The page it is on, 1-based; nil when it names none (the Document).
    package var page: Int?
    package var language: String?
    package var alt: String?
    package var actualText: String?
    /// The text of its own marked content, as poppler extracts it.
    package var text: String
  }

  /// The catalog's /Lang.
  package var language: String?
  /// /ViewerPreferences /DisplayDocTitle.
  package var displaysTitle: Bool
  /// /MarkInfo /Marked.
  package var marked: Bool
  package var elements: [Element]

  /// The elements of `role` ("H1").
  package func elements(_ role: String) -> [Element] { elements.filter { $0.role == role } }

  /// A tool the reader needs is missing or failed.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Reads the PDF at `path`.
  package static func read(_ path: String) throws -> TaggedPDF {
    let keys = try run("/usr/bin/python3", ["-c", script, path])
    guard keys.status == 0, let data = keys.output.data(using: .utf8),
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let found = json["elements"] as? [[String: Any]]
    else {
      throw Failure(
        description: "pikepdf could not read \(path) (python3-pikepdf, installed by make "
          + "setup-test, is needed): \(keys.output)")
    }
    let texts = try structText(path)
    guard texts.count == found.count else {
      throw Failure(
        description: "pikepdf finds \(found.count) elements, pdfinfo \(texts.count) in \(path)")
    }
    let elements = zip(found, texts).map { keys, text in
      Element(
        role: keys["role"] as? String ?? "", depth: keys["depth"] as? Int ?? 0,
        page: keys["page"] as? Int, language: keys["lang"] as? String,
        alt: keys["alt"] as? String, actualText: keys["actual"] as? String, text: text)
    }
    return TaggedPDF(
      language: json["lang"] as? String, displaysTitle: json["displayDocTitle"] as? Bool ?? false,
      marked: json["marked"] as? Bool ?? false, elements: elements)
  }

  /// Each element's text from `pdfinfo -struct-text`, depth first: the quoted lines indented
  /// one step under it.
  private static func structText(_ path: String) throws -> [String] {
    let result = try run("/usr/bin/pdfinfo", ["-struct-text", path])
    guard result.status == 0 else {
      throw Failure(description: "pdfinfo -struct-text failed on \(path): \(result.output)")
    }
    var texts: [String] = []
    for line in result.output.split(separator: "\n", omittingEmptySubsequences: true) {
      let body = line.drop { $0 == " " }
      if body.hasPrefix("\"") {
        guard !texts.isEmpty else { continue }
        texts[texts.count - 1] += String(body.dropFirst().dropLast())
      } else if !body.hasPrefix("Object "), !body.hasPrefix("/") {
        texts.append("")
      }
    }
    return texts
  }

  /// The keys of every element, as JSON, read with pikepdf.
  private static let script = """
    import json, sys
    import pikepdf
    pdf = pikepdf.open(sys.argv[1])
    pages = {page.objgen: n + 1 for n, page in enumerate(pdf.pages)}
    root = pdf.Root
    def text(d, key):
        v = d.get(key)
        return str(v) if v is not None else None
    elements = []
    def walk(item, depth):
        if isinstance(item, pikepdf.Array):
            for kid in item:
                walk(kid, depth)
            return
        if not isinstance(item, pikepdf.Dictionary) or '/S' not in item:
            return
        page = item.get('/Pg')
        elements.append({
            'role': str(item.S)[1:], 'depth': depth,
            'page': pages.get(page.objgen) if page is not None else None,
            'lang': text(item, '/Lang'), 'alt': text(item, '/Alt'),
            'actual': text(item, '/ActualText')})
        walk(item.get('/K'), depth + 1)
    tree = root.get('/StructTreeRoot')
    if tree is not None:
        walk(tree.get('/K'), 0)
    preferences = root.get('/ViewerPreferences')
    marks = root.get('/MarkInfo')
    print(json.dumps({
        'lang': text(root, '/Lang'),
        'displayDocTitle': bool(preferences.get('/DisplayDocTitle', False)) if preferences is not None else False,
        'marked': bool(marks.get('/Marked', False)) if marks is not None else False,
        'elements': elements}))
    """

  private static func run(_ tool: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    guard FileManager.default.isExecutableFile(atPath: tool) else {
      throw Failure(description: "\(tool) is needed (make setup-test installs it)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
