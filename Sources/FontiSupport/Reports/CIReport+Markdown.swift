import Foundation

/// Text made safe for Markdown: names come from font files and may hold anything.
package enum MarkdownText {
  /// Text for a table cell or a line: controls replaced, line breaks flattened, and `|`, `<`,
  /// `>`, `*`, `_`, `` ` ``, `[`, `]`, `\`, `#`, `~` escaped, so a family name cannot break the
  /// table or inject markup; at most `limit` characters.
  package static func cell(_ text: String, limit: Int = 500) -> String {
    var out = ""
    var count = 0
    let flat = text.replacingOccurrences(of: "\r\n", with: " ").map {
      $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : String($0)
    }.joined()
    for c in Sanitize.terminal(flat) {
      if count == limit {
        out += "…"
        break
      }
      count += 1
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

  /// A path in code quotes, with backticks and line breaks it may hold replaced.
  package static func code(_ text: String) -> String {
    "`"
      + Sanitize.terminal(text).replacingOccurrences(of: "`", with: "'")
      .replacingOccurrences(of: "\n", with: " ") + "`"
  }

  /// A text's length as a pull request's limit counts it: in UTF-16 code units.
  package static func length(_ text: String) -> Int { text.utf16.count }
}

extension CIReport {
  /// The most characters of the Markdown summary: a pull request's comment holds 65,536, and
  /// a step summary may add its own around it.
  public static let markdownLimit = 60_000

  /// The Markdown summary, for a pull request or a step summary: the verdict (exit code,
  /// counts), failures (output, name, reason), the warnings that fail `--strict` by kind with
  /// family and job location, the other warnings, the notes counted, the outputs written and
  /// skipped; at most `limit` characters, most important first, what does not fit counted in
  /// a last line ("N left out: see FILE"). For `diff`, `markdown` as it is (`diff.md`).
  public func markdownText(limit: Int = CIReport.markdownLimit) -> String {
    if let markdown { return markdown }
    let verdict = passed ? "passed" : "failed (exit \(exitCode))"
    var head = "## fonti-batch \(command.rawValue): \(verdict)\n\n"
    head += "\(MarkdownText.code(subject)): \(MarkdownText.cell(summary, limit: 2_000))\n"
    var sections: [(heading: String, items: [String])] = []

    var failures: [String] = []
    for c in cases {
      if case .error(let message, _) = c.outcome {
        failures.append(
          "| \(MarkdownText.cell(c.group)) | \(MarkdownText.cell(c.name)) | "
            + "\(MarkdownText.cell(message, limit: 1_000)) |")
      }
    }
    if !failures.isEmpty {
      sections.append(
        (
          "\n### Failures (\(failures.count))\n\n| output | name | reason |\n| --- | --- | --- |",
          failures
        ))
    }
    for level in [Level.error, .warning] {
      let found = findings.filter { $0.level == level && !Self.isFailureRule($0.rule) }
      guard !found.isEmpty else { continue }
      let title = level == .error ? "Warnings failing --strict" : "Warnings"
      sections.append(("\n### \(title) (\(found.count))", []))
      for rule in Self.rulesInOrder(found) {
        let ofRule = found.filter { $0.rule == rule }
        sections.append(
          (
            "\n**\(MarkdownText.cell(rule))** (\(ofRule.count))\n",
            ofRule.map { f in
              let family = f.location.family.map { MarkdownText.cell($0, limit: 200) + ": " } ?? ""
              return "- \(family)\(MarkdownText.cell(f.message, limit: 1_000)) "
                + "(\(MarkdownText.code(f.location.text)))"
            }
          ))
      }
    }
    let notes = findings.filter { $0.level == .note }
    if !notes.isEmpty {
      let counted = Self.rulesInOrder(notes).map { rule in
        "- \(MarkdownText.cell(rule)): \(notes.count { $0.rule == rule })"
      }
      sections.append(("\n### Notes (\(notes.count))\n", counted))
    }
    if !outputs.isEmpty {
      sections.append(("\n### Outputs\n", outputs.map { "- " + MarkdownText.cell($0) }))
    }
    return Self.fitted(head: head, sections: sections, limit: limit, detailsFile: detailsFile)
  }

  static func isFailureRule(_ rule: String) -> Bool {
    Rule.failures.contains { $0.id == rule }
  }

  /// The rules of `findings`, each once, in order of first appearance.
  static func rulesInOrder(_ findings: [Finding]) -> [String] {
    var seen: Set<String> = []
    return findings.map(\.rule).filter { seen.insert($0).inserted }
  }

  /// `head`, then each section's heading and items while they fit in `limit` (with room kept
  /// for the last line); from the first item that does not fit, every item after it is left
  /// out and counted.
  static func fitted(
    head: String, sections: [(heading: String, items: [String])], limit: Int, detailsFile: String
  ) -> String {
    func leftOutLine(_ n: Int) -> String {
      "\n\(n) left out: see \(MarkdownText.code(detailsFile))\n"
    }
    let room = limit - MarkdownText.length(leftOutLine(Int.max))
    var out = head
    var used = MarkdownText.length(head)
    var leftOut = 0
    var full = false
    for section in sections {
      if full {
        leftOut += section.items.count
        continue
      }
      let heading = section.heading + "\n"
      let headingLength = MarkdownText.length(heading)
      if used + headingLength > room {
        full = true
        leftOut += section.items.count
        continue
      }
      out += heading
      used += headingLength
      for (index, item) in section.items.enumerated() {
        let line = item + "\n"
        let length = MarkdownText.length(line)
        if used + length > room {
          full = true
          leftOut += section.items.count - index
          break
        }
        out += line
        used += length
      }
    }
    if leftOut > 0 { out += leftOutLine(leftOut) }
    return out
  }

  /// A shields.io endpoint (`{"schemaVersion": 1, "label": "fonti-batch", "message": …,
  /// "color": …}`): green, orange with warnings, red on failure.
  public func badge() -> [UInt8] {
    var w = JSONWriter()
    w.beginObject()
    w.key("color")
    w.string(badgeColour.rawValue)
    w.key("label")
    w.string("fonti-batch")
    w.key("message")
    w.string(badgeMessage)
    w.key("schemaVersion")
    w.int(1)
    w.endObject()
    w.newline()
    return (try? w.finished()) ?? []
  }
}
