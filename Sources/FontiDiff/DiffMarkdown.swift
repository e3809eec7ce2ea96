import FontiSupport

/// `diff.md`: a short Markdown summary of a review, to paste into a pull request or a CI's
/// step summary. Names come from font files: they are made safe for Markdown and tables.
enum DiffMarkdown {
  /// The most characters `diff.md` holds: a pull request's comment takes 65,536, and a step
  /// summary may add its own around it.
  static let limit = 60_000

  /// The review in at most `limit` characters, most important first: the families changed,
  /// added, removed and failed, each with its changes most telling first, then the unchanged
  /// ones by name; what does not fit is left out and counted at the end.
  static func render(_ report: DiffReport, limit: Int = DiffMarkdown.limit) -> String {
    let head = heading(report)
    let foot =
      "The review: `diff.pdf`; images of changed families in `changes/`; "
      + "everything in `diff.json`.\n"
    let unreadable = unreadableLines(report)
    // An unchanged family that moved between static and variable fonts is listed too: its row
    // says which faces were compared as one.
    let moved = { (f: DiffReport.Family) in !(f.faces.migrated ?? []).isEmpty }
    let changed = [DiffReport.Status.changed, .added, .removed, .failed].flatMap { status in
      report.families.filter { $0.status == status }
    }
    let listed = changed + report.families.filter { $0.status == .unchanged && moved($0) }
    let unchanged = report.families.filter { $0.status == .unchanged && !moved($0) }.map(\.family)
    // Room for the note of what was left out, however many.
    let room =
      limit - length(head) - length(foot) - length(unreadable) - length(leftOutNote(Int.max))
    let table = fittedTable(listed, room: room)
    var out = head + (changed.isEmpty ? "No family changed.\n\n" : "") + table.text
    out += unreadable
    out += fittedNames(unchanged, room: room - length(table.text))
    out += foot
    if table.leftOut > 0 { out += leftOutNote(table.leftOut) }
    return out
  }

  /// A text's length as a pull request's limit counts it: in UTF-16 code units.
  static func length(_ text: String) -> Int { text.utf16.count }

  /// The title and the counts.
  static func heading(_ report: DiffReport) -> String {
    let c = report.counts
    var out = "## Font review: \(code(report.before)) → \(code(report.after))\n\n"
    var counts = [
      "**\(c.changed) changed**", "\(c.added) added", "\(c.removed) removed",
      "\(c.unchanged) unchanged",
    ]
    if c.failed > 0 { counts.append("**\(c.failed) failed**") }
    out += counts.joined(separator: " · ") + " of \(c.families) "
    out += c.families == 1 ? "family" : "families"
    out += " (a glyph changes when more than \(report.threshold) px differ at "
    out += "\(report.pixelsPerEm) px per em, or its points move by a unit or more)\n\n"
    return out
  }

  static func leftOutNote(_ count: Int) -> String {
    "\n\(count) more \(count == 1 ? "change" : "changes") left out: see diff.json\n"
  }

  static func unreadableLines(_ report: DiffReport) -> String {
    guard !report.unreadable.isEmpty else { return "" }
    var out = "Files that could not be read:\n\n"
    for u in report.unreadable {
      out += "- \(u.side): \(code(u.file)) \(cell(u.error))\n"
    }
    return out + "\n"
  }

  /// The table of families in at most `room` characters: every change of each when they fit,
  /// else the first `cap` of each (the largest cap that fits, a row saying how many more it
  /// has), else the first rows. `leftOut` counts the changes not written.
  static func fittedTable(_ families: [DiffReport.Family], room: Int) -> (
    text: String, leftOut: Int
  ) {
    guard !families.isEmpty else { return ("", 0) }
    let top = "| Family | Status | What changed |\n|---|---|---|\n"
    func row(_ f: DiffReport.Family, cap: Int) -> String {
      let lines = f.summary.prefix(cap).map(cell)
      let more = f.summary.count - lines.count
      let what =
        lines.joined(separator: "<br>")
        + (more > 0 ? "<br>… \(more) more \(more == 1 ? "change" : "changes") in diff.json" : "")
      return "| \(cell(f.family)) | \(f.status.rawValue) | \(what) |\n"
    }
    func table(cap: Int) -> [String] { families.map { row($0, cap: cap) } }
    let most = families.map(\.summary.count).max() ?? 0
    var cap = max(most, 1)
    var rows = table(cap: cap)
    func size(_ rows: [String]) -> Int { length(top) + rows.reduce(0) { $0 + length($1) } + 1 }
    if size(rows) > room {
      // The largest cap that fits, by halving then stepping up.
      var low = 1
      var high = cap
      while low < high {
        let middle = (low + high + 1) / 2
        if size(table(cap: middle)) <= room { low = middle } else { high = middle - 1 }
      }
      cap = low
      rows = table(cap: cap)
    }
    var used = length(top) + 1
    var text = top
    var leftOut = 0
    for (f, r) in zip(families, rows) {
      let written = min(cap, f.summary.count)
      if used + length(r) <= room {
        text += r
        used += length(r)
        leftOut += f.summary.count - written
      } else {
        leftOut += f.summary.count
      }
    }
    return (text + "\n", leftOut)
  }

  /// "Unchanged: A, B and 12 more (in diff.json)", with as many names as fit in `room`.
  static func fittedNames(_ names: [String], room: Int) -> String {
    guard !names.isEmpty else { return "" }
    func more(_ n: Int) -> String { n == 0 ? "" : " and \(n) more (in diff.json)" }
    var text = "Unchanged: "
    var written = 0
    for name in names {
      let piece = (written == 0 ? "" : ", ") + cell(name)
      let rest = names.count - written - 1
      if length(text + piece + more(rest)) + 2 > room { break }
      text += piece
      written += 1
    }
    guard written > 0 else { return "" }
    return text + more(names.count - written) + "\n\n"
  }

  /// Text for a table cell or a line, made safe (`MarkdownText.cell`): a family name cannot
  /// break the table or inject markup.
  static func cell(_ text: String) -> String { MarkdownText.cell(text, limit: Int.max) }

  /// A path in code quotes, with backticks it may hold replaced.
  static func code(_ text: String) -> String { MarkdownText.code(text) }
}
