import FontiSupport
import Foundation

/// English names of languages, territories and scripts from Debian's `iso-codes` data
/// (`/usr/share/iso-codes/json/iso_639-3.json`, `iso_639-2.json`, `iso_639-5.json`,
/// `iso_3166-1.json`, `iso_3166-3.json`, `iso_15924.json`), read once per process on first use.
///
/// fontconfig's codes are ISO 639 codes with an optional territory (`zh-tw` → "Chinese
/// (Taiwan)", `pa-pk` → "Panjabi (Pakistan)") or script subtag. The few codes iso-codes has no
/// entry for are named by `ownNames`. Without the data files (a machine without iso-codes), or
/// with unreadable ones, every name is the code itself.
public struct ISOCodes: Sendable {
  /// From `/usr/share/iso-codes/json`, on first use.
  public static let shared = ISOCodes(folder: "/usr/share/iso-codes/json")

  /// Names for fontconfig codes that iso-codes lacks or names unhelpfully ("Undetermined").
  static let ownNames: [String: String] = [
    "mo": "Moldavian",  // ISO 639-1 "mo" was withdrawn in 2008
    "und-zmth": "Mathematical notation",
    "und-zsye": "Emoji",
  ]

  /// ISO 639 code (alpha-2, alpha-3 or bibliographic alpha-3) → English name.
  private var languages: [String: String] = [:]
  /// ISO 3166 alpha-2 (upper case) → short English name.
  private var territories: [String: String] = [:]
  /// ISO 15924 code ("Latn") → English name.
  private var scripts: [String: String] = [:]

  /// Reads the JSON files of `folder`; a missing, oversized or malformed file contributes
  /// nothing, and neither does a malformed entry. Names are kept as read and cleaned when asked
  /// for: only a few hundred of the 639-3 file's 8,000 ever are.
  public init(folder: String) {
    // 639-3 first: one plain name per language ("Spanish", where 639-2 has "Spanish;
    // Castilian"); 639-2 and 639-5 fill in collective codes (`ber`, `wen`, `bh`).
    for (file, key) in [
      ("iso_639-3.json", "639-3"), ("iso_639-2.json", "639-2"), ("iso_639-5.json", "639-5"),
    ] {
      for entry in ISOCodes.entries(folder + "/" + file, key: key) {
        guard let name = entry.name, !name.allSatisfy(\.isWhitespace) else { continue }
        for code in [entry.alpha2, entry.alpha3, entry.bibliographic] {
          guard let code = code?.lowercased(), !code.isEmpty else { continue }
          if languages[code] == nil { languages[code] = name }
        }
      }
    }
    for (file, key) in [("iso_3166-1.json", "3166-1"), ("iso_3166-3.json", "3166-3")] {
      for entry in ISOCodes.entries(folder + "/" + file, key: key) {
        guard let code = entry.alpha2?.uppercased(), let name = entry.commonName ?? entry.name,
          !name.allSatisfy(\.isWhitespace)
        else { continue }
        if territories[code] == nil { territories[code] = name }
      }
    }
    for entry in ISOCodes.entries(folder + "/iso_15924.json", key: "15924") {
      guard let code = entry.alpha4, let name = entry.name, !name.allSatisfy(\.isWhitespace)
      else { continue }
      scripts[code] = name
    }
  }

  /// The English name of a fontconfig language code: "vi" → "Vietnamese", "zh-tw" → "Chinese
  /// (Taiwan)", "sr" → "Serbian"; the code itself when nothing names it.
  public func languageName(of code: String) -> String {
    let code = code.lowercased()
    if let own = ISOCodes.ownNames[code] { return own }
    let parts = code.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    guard let base = parts.first, let baseName = ISOCodes.clean(languages[base]) else {
      return Sanitize.terminal(code)
    }
    guard parts.count > 1 else { return baseName }
    let qualifiers = parts.dropFirst().map { part -> String in
      if part.count == 2, let territory = ISOCodes.clean(territories[part.uppercased()]) {
        return territory
      }
      if part.count == 4, let script = scriptName(part.prefix(1).uppercased() + part.dropFirst()) {
        return script
      }
      return Sanitize.terminal(part)
    }
    return baseName + " (" + qualifiers.joined(separator: ", ") + ")"
  }

  /// The English name of an ISO 15924 script code without its parenthesised variants: "Latn"
  /// → "Latin", "Hani" → "Han", "Beng" → "Bengali"; the code itself when unknown.
  public func scriptName(of code: String) -> String {
    scriptName(code) ?? Sanitize.terminal(code)
  }

  private func scriptName(_ code: String) -> String? {
    ISOCodes.clean(scripts[code]).map(ISOCodes.withoutParenthesis)
  }

  /// Whether any data was read (false on a machine without iso-codes).
  public var hasData: Bool { !languages.isEmpty }

  // MARK: Reading

  /// The largest data file read; iso_639-3.json is under 1 MB.
  static let maximumFileSize = 16 << 20

  /// The fields of iso-codes entries that names are made from; any of them may be missing or
  /// of another type (then nil).
  struct Entry {
    var alpha2, alpha3, alpha4, bibliographic, name, commonName: String?

    /// An entry from its object; a field that is not a string is nil.
    init(reading r: inout JSONReader) throws {
      try r.object { r, field in
        guard try r.kind() == .string else { return try r.skip() }
        switch field {
        case "alpha_2": alpha2 = try r.string()
        case "alpha_3": alpha3 = try r.string()
        case "alpha_4": alpha4 = try r.string()
        case "bibliographic": bibliographic = try r.string()
        case "name": name = try r.string()
        case "common_name": commonName = try r.string()
        default: try r.skip()
        }
      }
    }
  }

  /// The entries of `file`'s top-level `key` list; an element of the list that is not an
  /// object is skipped. A file that is not JSON, or is larger than `maximumFileSize`, has
  /// none. Read with `JSONReader`: Foundation's decoder would take a third of a run's own work
  /// in the parent (the 639-3 file has 7,900 entries).
  static func entries(_ file: String, key: String) -> [Entry] {
    guard let bytes = try? AtomicFile.readBytes(file, limit: maximumFileSize) else { return [] }
    var reader = JSONReader(bytes)
    var out: [Entry] = []
    do {
      try reader.object { r, name in
        guard name == key, try r.kind() == .array else { return try r.skip() }
        try r.elements { r in
          guard try r.kind() == .object else { return try r.skip() }
          out.append(try Entry(reading: &r))
        }
      }
      try reader.end()
    } catch {
      return []
    }
    return out
  }

  /// A name fit to print: control characters replaced, iso-codes' "(macrolanguage)" note
  /// dropped ("Malay (macrolanguage)" → "Malay"), only the first of 639-2's alternatives
  /// ("Catalan; Valencian" → "Catalan"); nil when empty.
  static func clean(_ name: String?) -> String? {
    guard var name = name?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
    if let semicolon = name.firstIndex(of: ";") { name = String(name[..<semicolon]) }
    if name.hasSuffix(" (macrolanguage)") { name.removeLast(" (macrolanguage)".count) }
    name = Sanitize.terminal(name.trimmingCharacters(in: .whitespaces))
    return name.isEmpty ? nil : name
  }

  /// "Han (Hanzi, Kanji, Hanja)" → "Han"; a name that is all parenthesis stays as it is.
  static func withoutParenthesis(_ name: String) -> String {
    guard let open = name.firstIndex(of: "(") else { return name }
    let head = name[..<open].trimmingCharacters(in: .whitespaces)
    return head.isEmpty ? name : head
  }
}
