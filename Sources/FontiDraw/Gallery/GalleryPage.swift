import FontiFonts
import FontiModel
import FontiSupport
import Foundation

/// The web gallery, `index.html`: one static page with every family's thumbnail, search,
/// filters and a dialog with the full specimen and its links, from a `GalleryModel`.
///
/// The page is self-contained: inline CSS and script (`GalleryPage+Assets.swift`), the data the
/// script needs in a `<script type="application/json">` block, links and images only to files
/// in the output folder (relative, percent-encoded). A Content-Security-Policy allows nothing
/// else: no other script or style, no request but images from the page's own place. Without
/// script the page is a grid of links to the specimens. Every text from the model is escaped
/// for where it goes (`HTML`).
///
/// Pure: the same model gives the same bytes.
public enum GalleryPage {
  /// `index.html`'s bytes (UTF-8) for `model`. Throws when a path in the model is not a plain
  /// relative path inside the output folder (the run never makes one; a damaged merge input
  /// could).
  public static func html(_ model: GalleryModel) throws(Diagnostic) -> Data {
    Data(try text(model).utf8)
  }

  /// Writes the page to `path` atomically, unless the file there already holds exactly these
  /// bytes (an unchanged re-run leaves it untouched). Returns whether it wrote.
  @discardableResult
  public static func write(_ model: GalleryModel, to path: String) throws(Diagnostic) -> Bool {
    let data = try html(model)
    if let existing = try? AtomicFile.read(path, limit: data.count + 1), existing == data {
      return false
    }
    try AtomicFile.write(data, to: path)
    return true
  }

  /// The page as text.
  static func text(_ model: GalleryModel) throws(Diagnostic) -> String {
    let languages = Languages(model.families)
    var catalogueIndex: [String: Int] = [:]
    for (i, catalogue) in model.catalogues.enumerated() where catalogueIndex[catalogue.file] == nil
    {
      catalogueIndex[catalogue.file] = i
    }

    var cards = ""
    var records: [FamilyRecord] = []
    records.reserveCapacity(model.families.count)
    for family in model.families {
      cards += try card(family)
      records.append(try record(family, catalogueIndex: catalogueIndex, languages: languages))
    }
    let catalogues = try model.catalogues.map { c throws(Diagnostic) in
      [try url(c.file, "catalogue"), c.file]
    }
    let blob = PageData(
      families: records, catalogues: catalogues,
      languages: languages.list.map { [$0.code, $0.name] })
    let json: String
    do {
      json = try HTML.scriptJSON(blob)
    } catch {
      throw .error("cannot encode the gallery's data: \(error)")
    }

    let count = model.families.count
    var out = HTML.documentStart
    out += """
      <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
      <meta name="generator" content="\(HTML.attribute(model.tool))">
      <link rel="icon" href="data:,">
      <title>\(HTML.text(model.title)) · \(plural(count, "family", "families"))</title>
      <style>\(styleSheet)</style>
      </head>
      <body>

      """
    out += try header(model)
    out += toolbar(model, languages: languages)
    out += "<main>\n<ul class=\"grid\" id=\"g-grid\">\n"
    out += cards
    out += "</ul>\n"
    out +=
      count == 0
      ? "<p class=\"none\" id=\"g-none\">No family was drawn in this run."
        + " <button type=\"button\" id=\"g-reset\" hidden>Show all</button></p>\n"
      : "<p class=\"none\" id=\"g-none\" hidden>No family matches the search and filters."
        + " <button type=\"button\" id=\"g-reset\">Show all families</button></p>\n"
    out += "</main>\n"
    out += dialog
    out += "<script type=\"application/json\" id=\"g-data\">\(json)</script>\n"
    out += "<script>\(script)</script>\n</body>\n</html>\n"
    return out
  }

  // MARK: Parts of the page

  static func header(_ model: GalleryModel) throws(Diagnostic) -> String {
    let families = model.families
    var facts = [plural(families.count, "family", "families")]
    let saved = families.filter(\.saved).count
    if saved > 0 { facts.append("\(saved) saved") }
    let sheets = Set(families.flatMap { $0.pairings.map(\.file) }).count
    if sheets > 0 { facts.append(plural(sheets, "pairing sheet", "pairing sheets")) }
    var sub = facts.map(HTML.text).joined(separator: " · ")
    if let date = model.date {
      let stamp = Timestamp.format(date)
      sub += " · <time datetime=\"\(stamp)\">\(stamp.prefix(10))</time>"
    }
    sub += " · " + HTML.text(model.tool)

    var documents: [String] = []
    for catalogue in model.catalogues {
      documents.append(
        "<li><a href=\"\(try url(catalogue.file, "catalogue"))\"><b dir=\"auto\">"
          + "\(HTML.text(catalogue.file))</b><span>Catalogue · "
          + "\(plural(catalogue.pages, "page", "pages"))</span></a></li>")
    }
    if let diff = model.diff {
      var counts = "Font changes"
      if let c = diff.counts {
        var parts = ["\(c.changed) changed", "\(c.added) added", "\(c.removed) removed"]
        if c.failed > 0 { parts.append("\(c.failed) failed") }
        counts = parts.joined(separator: " · ")
      }
      if let report = diff.report {
        documents.append(
          "<li><a href=\"\(try url(report, "diff review"))\"><b>Diff review</b>"
            + "<span>\(counts)</span></a></li>")
      }
      if let summary = diff.summary {
        documents.append(
          "<li><a href=\"\(try url(summary, "diff summary"))\"><b>Diff summary</b>"
            + "<span>\(diff.report == nil ? counts : "Markdown")</span></a></li>")
      }
    }
    let sheetList = try pairingSheets(model)
    if !sheetList.isEmpty {
      // Sheets have no card of their own: listed here, heading over body, behind a disclosure.
      documents.append(
        "<li class=\"sheets\"><details><summary><b>Pairing sheets</b><span>"
          + "\(plural(sheetList.count, "sheet", "sheets")) · heading over body</span></summary>"
          + "<ul>\n" + sheetList.joined(separator: "\n") + "\n</ul></details></li>")
    }
    var out = "<header class=\"top\">\n<div>\n<p class=\"kicker\">Type specimens</p>\n"
    out += "<h1 dir=\"auto\">\(HTML.text(model.title))</h1>\n"
    out += "<p class=\"sub\">\(sub)</p>\n</div>\n"
    if !documents.isEmpty {
      out += "<ul class=\"docs\" aria-label=\"Documents\">\n"
      out += documents.joined(separator: "\n") + "\n</ul>\n"
    }
    out += "</header>\n"
    return out
  }

  /// A link to each pairing sheet the families are on, once, named "Heading over Body", in
  /// file order.
  static func pairingSheets(_ model: GalleryModel) throws(Diagnostic) -> [String] {
    var names: [String: (heading: String, body: String)] = [:]
    for family in model.families {
      for p in family.pairings where names[p.file] == nil {
        names[p.file] =
          p.role == .heading ? (family.name, p.partner) : (p.partner, family.name)
      }
    }
    var out: [String] = []
    for file in names.keys.sorted() {
      guard let pair = names[file] else { continue }
      out.append(
        "<li><a href=\"\(try url(file, "pairing sheet"))\"><span dir=\"auto\">"
          + "\(HTML.text(pair.heading))</span> over <span dir=\"auto\">"
          + "\(HTML.text(pair.body))</span></a></li>")
    }
    return out
  }

  static func toolbar(_ model: GalleryModel, languages: Languages) -> String {
    let families = model.families
    let filters: [(key: String, label: String, count: Int)] = [
      ("saved", "<span aria-hidden=\"true\">♥</span> Saved", families.filter(\.saved).count),
      ("custom", "<span aria-hidden=\"true\">●</span> Custom", families.filter(\.custom).count),
      ("variable", "Variable", families.filter(\.isVariable).count),
      (
        "warnings", "<span aria-hidden=\"true\">⚠</span> With warnings",
        families.filter(\.hasWarnings).count
      ),
    ]
    var out = "<div class=\"bar\" id=\"g-bar\" hidden>\n"
    out +=
      "<input type=\"search\" id=\"g-q\" placeholder=\"Search families\" title=\"Search families (/)\""
      + " aria-label=\"Search families by name\" autocomplete=\"off\" spellcheck=\"false\">\n"
    out += "<fieldset class=\"filters\"><legend class=\"vh\">Show only</legend>\n"
    for filter in filters {
      out +=
        "<label class=\"chip\"><input type=\"checkbox\" id=\"g-\(filter.key)\""
        + " autocomplete=\"off\">\(filter.label) <span class=\"n\">\(filter.count)</span>"
        + "</label>\n"
    }
    out += "</fieldset>\n"
    if !languages.list.isEmpty {
      out += "<select id=\"g-lang\" aria-label=\"Language\" autocomplete=\"off\">"
      out += "<option value=\"\">Any language</option>\n"
      for (i, language) in languages.list.enumerated() {
        out +=
          "<option value=\"\(HTML.attribute(language.code))\">\(HTML.text(language.name))"
          + " (\(HTML.text(language.code))) · \(languages.counts[i])</option>\n"
      }
      out += "</select>\n"
    }
    out += "<output class=\"count\" id=\"g-count\" aria-live=\"polite\">"
    out += "\(families.count) of \(plural(families.count, "family", "families"))</output>\n"
    out += "<button type=\"button\" id=\"g-clear\" hidden>Clear</button>\n</div>\n"
    return out
  }

  /// One family's card: the thumbnail, the name (a link to the specimen, so the page works
  /// without script), styles and axes, and tags that say in words what they mark.
  static func card(_ family: GalleryModel.Family) throws(Diagnostic) -> String {
    let name = HTML.text(family.name)
    var flags = ""
    if family.saved { flags += "s" }
    if family.custom { flags += "c" }
    if family.isVariable { flags += "v" }
    if family.hasWarnings { flags += "w" }
    var out = flags.isEmpty ? "<li class=\"card\">" : "<li class=\"card\" data-f=\"\(flags)\">"
    let alt = HTML.attribute("Specimen of \(family.name)")
    if let thumbnail = family.thumbnail {
      let src = try url(thumbnail.path, "thumbnail of '\(family.name)'")
      // Percent-encoded URLs hold no space or comma: nothing in them can end a candidate.
      var srcset = ""
      if let dense = family.highDensity {
        srcset = " srcset=\"\(src) 1x, \(try url(dense, "specimen of '\(family.name)'")) 2x\""
      }
      out +=
        "<img src=\"\(src)\"\(srcset)"
        + " width=\"\(thumbnail.width)\" height=\"\(thumbnail.height)\" loading=\"lazy\""
        + " alt=\"\(alt)\">"
    } else if let specimen = family.specimen {
      out +=
        "<img src=\"\(try url(specimen, "specimen of '\(family.name)'"))\" loading=\"lazy\""
        + " alt=\"\(alt)\">"
    } else {
      out += "<div class=\"ph\">Not drawn</div>"
    }
    if let specimen = family.specimen {
      out +=
        "<h2><a href=\"\(try url(specimen, "specimen of '\(family.name)'"))\" dir=\"auto\">"
        + "\(name)</a></h2>"
    } else {
      out += "<h2 dir=\"auto\">\(name)</h2>"
    }
    out += "<p class=\"meta\">\(HTML.text(meta(family)))</p>"
    var tags: [String] = []
    if family.error != nil {
      tags.append("<li class=\"tag fail\">Failed</li>")
    }
    // ⚠ only for what fails `--strict` (the filter's "With warnings"); facts about the fonts
    // (a family shown in its own script, a face covering less) are a neutral note.
    let job = family.jobWarnings
    if job.contains(where: { WarningKind.of($0) == .missingGlyphs }), family.missingGlyphs > 0 {
      // Every box counted, as `missingGlyphs` counts them; the specimen's own note counts the
      // distinct characters ("26 characters of the text not in this font" for 29 boxes).
      tags.append(
        "<li class=\"tag warn\" title=\"Glyphs of the sample drawn as boxes: characters "
          + "this family lacks, each box counted\">"
          + "\(plural(family.missingGlyphs, "box", "boxes")) in the sample</li>")
    } else if !job.isEmpty {
      tags.append(
        "<li class=\"tag warn\" title=\"\(HTML.attribute(job.joined(separator: "; ")))\">"
          + "\(plural(job.count, "warning", "warnings"))</li>")
    }
    let notes = family.notes
    if !notes.isEmpty {
      tags.append(
        "<li class=\"tag note\" title=\"\(HTML.attribute(notes.joined(separator: "; ")))\">"
          + "\(plural(notes.count, "note", "notes"))</li>")
    }
    if family.saved {
      tags.append("<li class=\"tag saved\">Saved</li>")
    }
    if family.custom {
      tags.append("<li class=\"tag custom\">Custom</li>")
    }
    if !tags.isEmpty { out += "<ul class=\"tags\">" + tags.joined() + "</ul>" }
    out += "</li>\n"
    return out
  }

  /// `18 faces · wght 100–900`.
  static func meta(_ family: GalleryModel.Family) -> String {
    var parts = [plural(family.styles.count, "face", "faces")]
    for axis in family.axes {
      parts.append("\(axis.tag) \(number(axis.min))–\(number(axis.max))")
    }
    return parts.joined(separator: " · ")
  }

  static let dialog = """
    <dialog id="g-viewer" aria-labelledby="g-v-name">
    <div class="v-head"><div><h2 id="g-v-name" dir="auto"></h2><p id="g-v-meta"></p></div>
    <div class="v-nav"><button type="button" id="g-prev" aria-label="Previous family" \
    title="Previous (←)">←</button><button type="button" id="g-next" aria-label="Next family" \
    title="Next (→)">→</button><button type="button" id="g-close" aria-label="Close" \
    title="Close (Esc)" autofocus>✕</button></div></div>
    <div class="v-body"><a class="v-img" id="g-v-link"><img id="g-v-img" alt=""></a>
    <div class="v-side" id="g-v-side"></div></div>
    </dialog>

    """

  // MARK: The script's data

  /// What the script knows of each family, with short keys (the page's weight grows with it;
  /// the name is read from the card): slug, specimen URL, styles, missing glyphs, warnings, error, axes, catalogue pages
  /// (index into `catalogues`, page, the weights page if any), pairing sheets (URL, partner, role), languages (a
  /// bitmap over `PageData.languages`, in hex).
  struct FamilyRecord: Encodable {
    var s: String
    var p: String?
    var st: [String]?
    var m: Int?
    var w: [String]?
    var e: String?
    var a: [Axis]?
    var c: [[Int]]?
    var r: [[String]]?
    var l: String?

    /// `[tag, min, max]`.
    struct Axis: Encodable {
      var tag: String
      var min: Double
      var max: Double

      func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(tag)
        try c.encode(min.isFinite ? min : 0)
        try c.encode(max.isFinite ? max : 0)
      }
    }
  }

  struct PageData: Encodable {
    var families: [FamilyRecord]
    /// `[URL, file name]`.
    var catalogues: [[String]]
    /// `[code, English name]`, sorted by name.
    var languages: [[String]]
  }

  static func record(
    _ family: GalleryModel.Family, catalogueIndex: [String: Int], languages: Languages
  ) throws(Diagnostic) -> FamilyRecord {
    var pages: [[Int]] = []
    for page in family.cataloguePages {
      guard let index = catalogueIndex[page.file] else {
        throw .error(
          "gallery: family '\(Sanitize.terminal(family.name))' has a page in catalogue "
            + "'\(Sanitize.terminal(page.file))', which the run did not write")
      }
      pages.append([index, page.page] + (page.facesPage.map { [$0] } ?? []))
    }
    var sheets: [[String]] = []
    for pairing in family.pairings {
      sheets.append([
        try url(pairing.file, "pairing sheet"), pairing.partner, pairing.role.rawValue,
      ])
    }
    let specimen: String?
    if let path = family.specimen {
      specimen = try url(path, "specimen of '\(family.name)'")
    } else {
      specimen = nil
    }
    let bitmap = languages.bitmap(family.languages)
    return FamilyRecord(
      s: family.slug, p: specimen,
      st: family.styles.isEmpty ? nil : family.styles,
      m: family.missingGlyphs > 0 ? family.missingGlyphs : nil,
      w: family.warnings.isEmpty ? nil : family.warnings, e: family.error,
      a: family.axes.isEmpty
        ? nil : family.axes.map { FamilyRecord.Axis(tag: $0.tag, min: $0.min, max: $0.max) },
      c: pages.isEmpty ? nil : pages, r: sheets.isEmpty ? nil : sheets,
      l: bitmap.isEmpty ? nil : bitmap)
  }

  /// Every language any family supports, sorted by English name, and per family a bitmap over
  /// them: the language filter stays small at thousands of families and hundreds of languages
  /// (a family's set is a few dozen hex digits, not a list of codes).
  struct Languages {
    var list: [GalleryModel.Language] = []
    var counts: [Int] = []
    private var index: [String: Int] = [:]

    init(_ families: [GalleryModel.Family]) {
      var names: [String: String] = [:]
      var counts: [String: Int] = [:]
      for family in families {
        for code in Set(family.languages.map(\.code)) { counts[code, default: 0] += 1 }
        for language in family.languages where names[language.code] == nil {
          names[language.code] = language.name
        }
      }
      list = names.map { GalleryModel.Language(code: $0.key, name: $0.value) }.sorted {
        ($0.name.lowercased(), $0.code) < ($1.name.lowercased(), $1.code)
      }
      self.counts = list.map { counts[$0.code] ?? 0 }
      for (i, language) in list.enumerated() { index[language.code] = i }
    }

    /// Bit `i` of the result (hex digit `i / 4`, bit `i % 4` of it) is set when the family
    /// supports language `i`; trailing zero digits are left out.
    func bitmap(_ languages: [GalleryModel.Language]) -> String {
      var nibbles = [UInt8](repeating: 0, count: (list.count + 3) / 4)
      for language in languages {
        guard let i = index[language.code] else { continue }
        nibbles[i / 4] |= 1 << UInt8(i % 4)
      }
      while let last = nibbles.last, last == 0 { nibbles.removeLast() }
      let digits = Array("0123456789abcdef")
      return String(nibbles.map { digits[Int($0)] })
    }
  }

  // MARK: Helpers

  /// The page's policy: its own style and script (by hash), images from its own place, nothing
  /// else (no fetch, no font, no frame, no other script, no form, no `<base>`). `file:` beside
  /// `'self'` for browsers that give each local file an origin of its own (Firefox's strict
  /// file origins), where `'self'` alone would refuse the thumbnails next to the page; it opens
  /// no network request.
  static let contentSecurityPolicy =
    "default-src 'none'; img-src 'self' file:; style-src '\(hash(styleSheet))'; "
    + "script-src '\(hash(script))'; base-uri 'none'; form-action 'none'"

  /// A CSP source for an inline text: `sha256-` and the base64 of its digest.
  package static func hash(_ text: String) -> String {
    let digest = SHA256()
    digest.update(Array(text.utf8))
    return "sha256-" + Data(digest.finalize()).base64EncodedString()
  }

  static func url(_ path: String, _ what: String) throws(Diagnostic) -> String {
    guard let url = HTML.relativeURL(path) else {
      throw .error(
        "gallery: the \(Sanitize.terminal(what)) '\(Sanitize.terminal(path))' is not a "
          + "relative path inside the output folder")
    }
    return url
  }

  /// `1 style`, `4 styles`.
  static func plural(_ n: Int, _ one: String, _ many: String) -> String {
    "\(n) \(n == 1 ? one : many)"
  }

  /// An axis value: whole numbers without a fraction, others to two decimals (`0.5`, `-12`).
  static func number(_ v: Double) -> String {
    guard v.isFinite else { return "?" }
    guard abs(v) < 1e12 else { return "\(v)" }  // no font has such an axis; never trap on one
    let hundredths = (v * 100).rounded()
    let whole = Int64(hundredths) / 100
    let fraction = abs(Int64(hundredths) % 100)
    let sign = hundredths < 0 && whole == 0 ? "-" : ""
    if fraction == 0 { return "\(sign)\(whole)" }
    let digits =
      fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    return "\(sign)\(whole).\(digits)"
  }
}
