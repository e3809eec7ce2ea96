/// The gallery's search, filters and open family as its URL carries them, so that a filtered
/// view can be shared: `index.html?q=serif&saved=1&lang=fr#family=inter`.
///
/// The page's script reads and writes exactly this form with `URLSearchParams` (query) and
/// `#family=` (the open dialog); this type is its specification in Swift, for tests and for
/// links made outside the page. Keys in a fixed order: `q`, `saved`, `custom`, `variable`,
/// `warnings`, `lang`; a filter that is off and an empty search are left out; unknown keys are
/// ignored; of a repeated key the first counts.
public struct GalleryState: Sendable, Equatable {
  /// The search text, matched against family names.
  public var query: String
  public var saved: Bool
  public var custom: Bool
  public var variable: Bool
  public var warnings: Bool
  /// A language code (`fr`); empty for any language.
  public var language: String
  /// The slug of the family whose dialog is open.
  public var family: String?

  public init(
    query: String = "", saved: Bool = false, custom: Bool = false, variable: Bool = false,
    warnings: Bool = false, language: String = "", family: String? = nil
  ) {
    self.query = query
    self.saved = saved
    self.custom = custom
    self.variable = variable
    self.warnings = warnings
    self.language = language
    self.family = family
  }

  /// Reads a URL's query (`?q=serif&saved=1`, the `?` optional) and fragment (`#family=x`, the
  /// `#` optional) as the page's script does.
  public init(search: String, fragment: String = "") {
    let parameters = GalleryState.parse(search.hasPrefix("?") ? String(search.dropFirst()) : search)
    func value(_ key: String) -> String? { parameters.first { $0.0 == key }?.1 }
    self.init(
      query: value("q") ?? "", saved: value("saved") == "1", custom: value("custom") == "1",
      variable: value("variable") == "1", warnings: value("warnings") == "1",
      language: value("lang") ?? "")
    let hash = GalleryState.parse(fragment.hasPrefix("#") ? String(fragment.dropFirst()) : fragment)
    if let slug = hash.first(where: { $0.0 == "family" })?.1, !slug.isEmpty { family = slug }
  }

  /// The query, `?q=serif&saved=1`, or empty when nothing is searched or filtered.
  public var search: String {
    var pairs: [(String, String)] = []
    if !GalleryState.isBlank(query) { pairs.append(("q", query)) }
    if saved { pairs.append(("saved", "1")) }
    if custom { pairs.append(("custom", "1")) }
    if variable { pairs.append(("variable", "1")) }
    if warnings { pairs.append(("warnings", "1")) }
    if !language.isEmpty { pairs.append(("lang", language)) }
    return pairs.isEmpty ? "" : "?" + GalleryState.serialize(pairs)
  }

  /// The fragment, `#family=inter`, or empty when no dialog is open.
  public var fragment: String {
    guard let family, !family.isEmpty else { return "" }
    return "#" + GalleryState.serialize([("family", family)])
  }

  /// Whether `query` counts as no search: empty or only white space (what the script's
  /// `String.prototype.trim` removes, for the characters a search box holds).
  static func isBlank(_ s: String) -> Bool {
    s.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
  }

  /// `application/x-www-form-urlencoded` parsing as `URLSearchParams` does it: `&`-separated,
  /// `+` is a space, `%XX` a byte (a `%` not followed by two hex digits stays), then UTF-8 with
  /// U+FFFD for bad sequences.
  static func parse(_ text: String) -> [(String, String)] {
    text.split(separator: "&", omittingEmptySubsequences: true).map { part in
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = decode(pieces[0])
      let value = pieces.count > 1 ? decode(pieces[1]) : ""
      return (name, value)
    }
  }

  static func decode(_ s: Substring) -> String {
    let bytes = Array(s.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    func hex(_ b: UInt8) -> UInt8? {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
      default: return nil
      }
    }
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "+") {
        out.append(0x20)
      } else if b == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hex(bytes[i + 1]),
        let low = hex(bytes[i + 2])
      {
        out.append(high << 4 | low)
        i += 2
      } else {
        out.append(b)
      }
      i += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `application/x-www-form-urlencoded` serializing as `URLSearchParams.toString()` does it:
  /// a space is `+`; `* - . _`, ASCII letters and digits stay; every other byte is `%XX`.
  static func serialize(_ pairs: [(String, String)]) -> String {
    pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
  }

  static func encode(_ s: String) -> String {
    var out = ""
    for byte in s.utf8 {
      switch byte {
      case 0x20: out += "+"
      case UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "a")...UInt8(ascii: "z"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default: out += "%" + HTML.hexByte(byte)
      }
    }
    return out
  }
}
