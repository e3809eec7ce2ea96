/// A writing system, for grouping languages: its ISO 15924 code and English name.
public struct LanguageScript: Sendable, Hashable, Codable {
  /// "Latn", "Cyrl", "Beng", "Hani".
  public var code: String
  /// "Latin", "Cyrillic", "Bengali", "Han".
  public var name: String

  public init(code: String, name: String) {
    self.code = code
    self.name = name
  }
}

/// The languages fontconfig knows: their codes, English names, scripts and required
/// characters. Everything is read once per process, on first use.
public enum Languages {
  /// Every fontconfig language code, sorted.
  public static var codes: [String] { Orthographies.shared.codes }

  /// Whether fontconfig knows `code` (exactly: lower case, `-` before a territory).
  public static func isKnown(_ code: String) -> Bool { Orthographies.shared[code] != nil }

  /// The English name of `code` ("Vietnamese", "Chinese (Taiwan)"), or the code itself.
  public static func name(of code: String) -> String { ISOCodes.shared.languageName(of: code) }

  /// The characters fontconfig requires for `code`, ascending (empty for an unknown code).
  public static func requiredCharacters(of code: String) -> [UInt32] {
    let orthographies = Orthographies.shared
    return orthographies[code].map { orthographies.scalars(of: $0) } ?? []
  }

  /// The script `code` is written in: the script of most of its required characters (marks and
  /// punctuation do not count), or the script its code names (`und-zmth`: mathematical
  /// notation). "Zzzz" (unknown) for a code fontconfig does not know.
  public static func script(of code: String) -> LanguageScript {
    let iso = scriptCodes[code] ?? "Zzzz"
    return LanguageScript(code: iso, name: ISOCodes.shared.scriptName(of: iso))
  }

  /// `codes` grouped by script: the scripts with most languages first (then by name), each
  /// group's codes in the order given.
  public static func groupedByScript(_ codes: [String]) -> [(
    script: LanguageScript, languages: [String]
  )] {
    var groups: [LanguageScript: [String]] = [:]
    var order: [LanguageScript] = []
    for code in codes {
      let script = script(of: code)
      if groups[script] == nil { order.append(script) }
      groups[script, default: []].append(code)
    }
    return order.map { (script: $0, languages: groups[$0] ?? []) }
      .sorted { a, b in
        a.languages.count != b.languages.count
          ? a.languages.count > b.languages.count : a.script.name < b.script.name
      }
  }

  /// Language code → ISO 15924 code, worked out for every language on first use.
  static let scriptCodes: [String: String] = {
    var out: [String: String] = [:]
    let orthographies = Orthographies.shared
    for orthography in orthographies.all {
      out[orthography.code] = majorityScript(
        code: orthography.code, characters: orthographies.scalars(of: orthography),
        script: HarfBuzzUnicode.script)
    }
    return out
  }()

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
