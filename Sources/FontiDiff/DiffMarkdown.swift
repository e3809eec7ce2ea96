import FontiSupport

/// `diff.md`: a short Markdown summary of a review, to paste into a pull request or a CI's
/// step summary. Names come from font files: they are made safe for Markdown and tables.
enum DiffMarkdown {
  static func render(_ report: DiffReport) -> String {
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

    // An unchanged family that moved between static and variable fonts says which faces were
    // compared as one.
    let listed = report.families.filter {
      $0.status != .unchanged || !($0.faces.migrated ?? []).isEmpty
    }
    if !listed.isEmpty {
      out += "| Family | Status | What changed |\n|---|---|---|\n"
      for f in listed {
        let what =
          f.summary.prefix(8).map(cell).joined(separator: "<br>")
          + (f.summary.count > 8 ? "<br>… \(f.summary.count - 8) more in diff.pdf" : "")
        out += "| \(cell(f.family)) | \(f.status.rawValue) | \(what) |\n"
      }
      out += "\n"
    } else {
      out += "No family changed.\n\n"
    }
    if !report.unreadable.isEmpty {
      out += "Files that could not be read:\n\n"
      for u in report.unreadable {
        out += "- \(u.side): \(code(u.file)) \(cell(u.error))\n"
      }
      out += "\n"
    }
    out += "The review: `diff.pdf`; images of changed families in `changes/`; "
    out += "everything in `diff.json`.\n"
    return out
  }

  /// Text for a table cell or a line: controls replaced, and `|`, `<`, `>`, `*`, `_`, `` ` ``,
  /// `[`, `]`, `\` escaped, so a family name cannot break the table or inject markup.
  static func cell(_ text: String) -> String {
    var out = ""
    let flat = text.replacingOccurrences(of: "\r\n", with: " ").map {
      $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : String($0)
    }.joined()
    for c in Sanitize.terminal(flat) {
      switch c {
      case "|", "*", "_", "`", "[", "]", "\\", "#", "~":
        out.append("\\")
        out.append(c)
      case "<": out.append("&lt;")
      case ">": out.append("&gt;")
      case "&": out.append("&amp;")
      default: out.append(c)
      }
    }
    return out
  }

  /// A path in code quotes, with backticks it may hold replaced.
  static func code(_ text: String) -> String {
    "`"
      + Sanitize.terminal(text).replacingOccurrences(of: "`", with: "'")
      .replacingOccurrences(of: "\n", with: " ") + "`"
  }
}
