/// Code points as people and manifests write them: `U+0041`, `U+1F600`.
public enum CodePointText {
  /// `U+` and at least four upper-case hex digits.
  public static func format(_ value: UInt32) -> String {
    "U+" + hex(value)
  }

  /// At least four upper-case hex digits, without `U+` (a glyph chart's cell label).
  public static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The value of `U+XXXX` (4–6 hex digits, any case, at most U+10FFFF), or nil.
  public static func parse(_ text: String) -> UInt32? {
    let utf8 = Array(text.utf8)
    guard utf8.count >= 6, utf8.count <= 8,
      utf8[0] == UInt8(ascii: "U") || utf8[0] == UInt8(ascii: "u"),
      utf8[1] == UInt8(ascii: "+")
    else { return nil }
    var value: UInt32 = 0
    for byte in utf8.dropFirst(2) {
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
      default: return nil
      }
      value = value << 4 | digit
    }
    return value <= 0x10FFFF ? value : nil
  }
}
