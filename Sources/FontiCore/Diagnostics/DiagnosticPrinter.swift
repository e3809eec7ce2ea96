/// Formats diagnostics for a terminal or a log: `fonti-batch: error: FILE:LINE:COLUMN: message`,
/// then the source line with a caret under the column, then `hint:` lines.
public struct DiagnosticPrinter: Sendable {
  public var colour: Bool

  public init(colour: Bool) { self.colour = colour }

  public func format(_ d: Diagnostic) -> String {
    let label: String
    switch (d.severity, colour) {
    case (.error, true): label = "\u{1B}[1;31merror:\u{1B}[0m"
    case (.warning, true): label = "\u{1B}[1;33mwarning:\u{1B}[0m"
    case (.error, false): label = "error:"
    case (.warning, false): label = "warning:"
    }
    var out = "fonti-batch: \(label) \(Sanitize.terminal(d.locatedMessage))\n"
    if let snippet = d.snippet, let mark = d.mark {
      let line = Sanitize.terminal(snippet)
      out += "    \(line)\n"
      // The caret counts characters, not bytes, and keeps tabs so it lines up.
      let prefix = line.prefix(max(0, mark.column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
      out += "    \(prefix)^\n"
    }
    if let hint = d.hint {
      out += "  hint: \(Sanitize.terminal(hint))\n"
    }
    return out
  }
}
