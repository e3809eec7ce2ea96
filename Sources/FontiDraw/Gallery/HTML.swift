import FontiSupport
import Foundation

/// Escaping for the places untrusted text (family names from font files, job titles, warnings)
/// goes in the gallery page: HTML text, quoted attribute values, relative URLs, and a JSON block
/// inside `<script>`.
package enum HTML {
  /// How every page the tool writes begins (the gallery, `serve`'s page): the doctype, English,
  /// UTF-8, a phone's viewport, both colour schemes; its `<head>` left open for the page's own.
  package static let documentStart = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">

    """

  /// Text for an element's content: `&`, `<`, `>` as character references; control characters
  /// (C0 except tab and line feed, carriage return, DEL, C1), which HTML forbids or a reader
  /// cannot see, as U+FFFD. Bidirectional marks and overrides stay: the page shows names in
  /// elements with `dir="auto"`, which isolate them from the text around.
  package static func text(_ s: String) -> String { escaped(s, inAttribute: false) }

  /// A value for a double-quoted attribute: as `text`, and quotes of both kinds escaped, so it
  /// cannot end the attribute whichever quote a later edit uses. Line breaks become spaces.
  static func attribute(_ s: String) -> String { escaped(s, inAttribute: true) }

  private static func escaped(_ s: String, inAttribute: Bool) -> String {
    replacing(s) { scalar in
      switch scalar {
      case "&": "&amp;"
      case "<": "&lt;"
      case ">": "&gt;"
      case "\"" where inAttribute: "&quot;"
      case "'" where inAttribute: "&#39;"
      case "\n" where inAttribute, "\t" where inAttribute: " "
      default: isForbiddenControl(scalar) ? "\u{FFFD}" : nil
      }
    }
  }

  /// `s` with each scalar that `replacement` gives a text for replaced by that text.
  private static func replacing(_ s: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for scalar in s.unicodeScalars {
      if let text = replacement(scalar) {
        out += text
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A: return false
    case 0x00...0x1F, 0x7F...0x9F: return true
    default: return false
    }
  }

  /// A path relative to the page's folder as a URL path: each segment percent-encoded (UTF-8;
  /// only `A–Z a–z 0–9 - . _ ~` stay as they are), segments joined by `/`. Nil for a path that
  /// could point outside the folder or elsewhere: empty, absolute, with an empty, `.` or `..`
  /// segment, or with a backslash (some browsers read it as `/`). A `:` is encoded, so no
  /// path can become a scheme (`javascript:`).
  static func relativeURL(_ path: String) -> String? {
    guard !path.isEmpty, !path.contains("\\") else { return nil }
    var segments: [String] = []
    for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
      guard !segment.isEmpty, segment != ".", segment != ".." else { return nil }
      segments.append(percentEncoded(segment))
    }
    return segments.joined(separator: "/")
  }

  /// UTF-8 bytes outside the URL's unreserved set as `%XX`.
  static func percentEncoded<S: StringProtocol>(_ s: S) -> String {
    var out = ""
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + hexByte(byte)
      }
    }
    return out
  }

  static func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
  }

  /// JSON text safe inside `<script type="application/json">…</script>`: `<`, `>` and `&` as
  /// `\u003c`, `\u003e`, `\u0026` (so neither `</script>` nor `<!--` can appear, whatever a
  /// string holds), and U+2028, U+2029, DEL and C1 controls as escapes (the encoder already
  /// escapes C0). Outside strings JSON has none of these
  /// characters, so replacing them everywhere only touches strings, where the escapes mean the
  /// same characters to `JSON.parse`.
  static func scriptJSON<T: Encodable>(_ value: T) throws -> String {
    let data = try JSONEncoder(.compact).encode(value)
    return replacing(String(decoding: data, as: UTF8.self)) { scalar in
      switch scalar {
      case "<": "\\u003c"
      case ">": "\\u003e"
      case "&": "\\u0026"
      case "\u{2028}": "\\u2028"
      case "\u{2029}": "\\u2029"
      case "\u{7F}"..."\u{9F}": "\\u00" + hexByte(UInt8(scalar.value)).lowercased()
      default: nil
      }
    }
  }
}
