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
    var out = "fonti-batch: \(label) \(Self.shown(d.locatedMessage))\n"
    if let snippet = d.snippet, let mark = d.mark {
      let (line, column) = Self.window(Self.plain(Sanitize.terminal(snippet)), column: mark.column)
      out += "    \(String(line))\n"
      // The caret counts characters, not bytes, and keeps tabs so it lines up.
      let prefix = line.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
      out += "    \(prefix)^\n"
    }
    if let hint = d.hint {
      out += "  hint: \(Self.shown(hint))\n"
    }
    return out
  }

  /// The longest snippet shown, in characters; longer lines are cut around the column.
  static let snippetWidth = 120
  /// The longest message or hint shown, in characters: a message quotes what the job says
  /// (an unknown key, a family name), which can be a whole 1 MiB line.
  static let messageWidth = 600
  /// The most code points one character keeps: a letter followed by 300,000 combining marks is
  /// one character, and must not print as 600 KB.
  static let marksPerCharacter = 8

  /// `text` made safe for the terminal and cut to `messageWidth` characters: in the middle,
  /// so that what a message says after a long path (its reason) is still shown.
  static func shown(_ text: String) -> String {
    let characters = plain(Sanitize.terminal(text))
    guard characters.count > messageWidth else { return String(characters) }
    let tail = messageWidth / 3
    return String(characters.prefix(messageWidth - tail)) + "…"
      + String(characters.suffix(tail))
  }

  /// The characters of `text`, each cut to `marksPerCharacter` code points.
  static func plain(_ text: String) -> [Character] {
    text.map { ch in
      let scalars = ch.unicodeScalars
      guard scalars.count > marksPerCharacter else { return ch }
      var cut = String.UnicodeScalarView()
      cut.append(contentsOf: scalars.prefix(marksPerCharacter))
      return Character(String(cut))
    }
  }

  /// `line` cut to `snippetWidth` characters around `column` (with `…` where it was cut), and
  /// the column within the cut line. A 1 MiB one-line file must not flood the terminal.
  static func window(_ line: [Character], column: Int) -> (line: [Character], column: Int) {
    guard line.count > snippetWidth else { return (line, column) }
    let index = min(max(0, column - 1), line.count)
    let start = max(0, min(index - snippetWidth / 3, line.count - snippetWidth))
    let end = min(line.count, start + snippetWidth)
    var cut = Array(line[start..<end])
    var at = index - start + 1
    if start > 0 {
      cut.insert("…", at: 0)
      at += 1
    }
    if end < line.count { cut.append("…") }
    return (cut, at)
  }
}
