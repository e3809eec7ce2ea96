/// How many columns text takes on a terminal, so that a line rewritten in place (the progress
/// line) can be kept narrower than the terminal whatever a family calls itself.
///
/// East Asian wide and fullwidth characters and emoji take two columns; combining marks,
/// variation selectors and zero-width characters none; everything else one. (glibc's `wcwidth`
/// knows this only under a UTF-8 locale, which the tool does not set.)
public enum TerminalText {
  /// The columns `text` takes.
  public static func width(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
  }

  /// `text` cut to at most `width` columns, with `…` where it was cut.
  public static func prefix(_ text: String, width limit: Int) -> String {
    guard limit > 0 else { return "" }
    if width(text) <= limit { return text }
    var out = String.UnicodeScalarView()
    var used = 0
    for scalar in text.unicodeScalars {
      let w = width(of: scalar)
      if used + w > limit - 1 { break }
      out.append(scalar)
      used += w
    }
    return String(out) + "…"
  }

  /// The columns one code point takes.
  public static func width(of scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if v == 0x200B || (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v) {
      return 0
    }
    return wide.contains { $0.contains(v) } ? 2 : 1
  }

  /// The wide and fullwidth ranges of Unicode's East Asian Width, and the emoji blocks.
  static let wide: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
    0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
    0x1F200...0x1F2FF, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
    0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}
