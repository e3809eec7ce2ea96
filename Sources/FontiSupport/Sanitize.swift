/// Untrusted text (family names inside font files, job strings) made safe for where it goes.
public enum Sanitize {
  /// Replaces control characters (C0, DEL, C1, bidi overrides, line and paragraph
  /// separators) with U+FFFD so that a name cannot move the cursor, change colours, reorder a
  /// terminal line or start a new one.
  public static func terminal(_ s: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars {
      switch scalar.value {
      case 0x09: out.append(scalar)  // a tab in a source snippet is fine
      case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
        out.append("\u{FFFD}")
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// "A, B, C and 4 more": names (or code points) in messages, at most `limit`, each made
  /// safe for a terminal.
  package static func list(_ names: [String], limit: Int = 5) -> String {
    let shown = names.prefix(limit).map { terminal($0) }.joined(separator: ", ")
    return names.count > limit ? shown + " and \(names.count - limit) more" : shown
  }
}
