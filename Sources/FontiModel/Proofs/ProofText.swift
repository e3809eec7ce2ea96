/// Text read from a font (axis, instance and feature names) made safe to show and to store.
public enum ProofText {
  /// The longest name kept, in characters; longer ones end in "…".
  public static let maximumLength = 64

  /// Control characters, bidi controls and line breaks become spaces, runs of white space
  /// one space, the ends trimmed, and the length capped. nil when nothing is left.
  public static func clean(_ text: String) -> String? {
    var out = String.UnicodeScalarView()
    var lastWasSpace = true
    var count = 0
    for scalar in text.unicodeScalars {
      let isSpace: Bool
      switch scalar.value {
      case 0x00...0x20, 0x7F...0xA0, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F,
        0xFEFF, 0xFFF9...0xFFFD:
        isSpace = true
      default:
        isSpace = scalar.properties.isWhitespace
      }
      if isSpace {
        if !lastWasSpace {
          out.append(" ")
          count += 1
        }
        lastWasSpace = true
      } else {
        out.append(scalar)
        count += 1
        lastWasSpace = false
      }
      if count > maximumLength { break }
    }
    var result = String(out)
    while result.last == " " { result.removeLast() }
    if result.isEmpty { return nil }
    if result.count > maximumLength {
      result = String(result.prefix(maximumLength - 1))
      while result.last == " " { result.removeLast() }
      result += "…"
    }
    return result
  }
}
