import FontiModel

/// A writing system, for grouping languages: its ISO 15924 code and English name.
public struct LanguageScript: Sendable, Hashable, Codable {
  /// "Latn", "Cyrl", "Beng", "Hani".
  public var code: String
  /// "Latin", "Cyrillic", "Bengali", "Han".
  public var name: String
}

/// The languages fontconfig knows: their codes, English names, scripts and required
/// characters. Everything is read once per process, on first use.
public enum Languages {
  /// Every fontconfig language code, sorted.
  public static var codes: [String] { Orthographies.shared.codes }

  /// fontconfig's codes and their names, for the job decoder and `--lang`.
  public static let table = LanguageCodes(codes: codes, name: { name(of: $0) })

  /// Whether fontconfig knows `code` (exactly: lower case, `-` before a territory).
  public static func isKnown(_ code: String) -> Bool { Orthographies.shared[code] != nil }

  /// The English name of `code` ("Vietnamese", "Chinese (Taiwan)"), or the code itself.
  public static func name(of code: String) -> String {
    knownNames[code] ?? ISOCodes.shared.languageName(of: code)
  }

  /// Every fontconfig code's name, made once per process: a catalogue names the same few
  /// hundred languages for family after family (looked up each time, a twentieth of drawing
  /// one).
  private static let knownNames: [String: String] = Dictionary(
    codes.map { ($0, ISOCodes.shared.languageName(of: $0)) }, uniquingKeysWith: { a, _ in a })

  /// The characters fontconfig requires for `code`, ascending (empty for an unknown code).
  public static func requiredCharacters(of code: String) -> [UInt32] {
    let orthographies = Orthographies.shared
    return orthographies[code].map { orthographies.scalars(of: $0) } ?? []
  }

  /// The script of most `characters` (ignoring Inherited: combining marks; and Common, unless
  /// nothing else is there), ties to the alphabetically first; a script subtag in the code
  /// (`und-zmth`, `sr-latn`) wins.
  static func majorityScript(
    code: String, characters: [UInt32], script: (UInt32) -> String
  ) -> String {
    for part in code.split(separator: "-").dropFirst() where part.count == 4 {
      return part.prefix(1).uppercased() + part.dropFirst().lowercased()
    }
    var counts: [String: Int] = [:]
    for c in characters {
      let s = script(c)
      if s != "Zinh" { counts[s, default: 0] += 1 }
    }
    let letters = counts.filter { $0.key != "Zyyy" && $0.key != "Zzzz" }
    let pool = letters.isEmpty ? counts : letters
    return pool.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
      ?? "Zyyy"
  }
}
