import FontiText

// Each language's script, worked out from fontconfig's orthographies with HarfBuzz's Unicode
// data: apart from `Languages`' names and codes, which the job decoder needs alone.

extension Languages {
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

  /// The script `code` is written in: the script of most of its required characters (marks and
  /// punctuation do not count), or the script its code names (`und-zmth`: mathematical
  /// notation). "Zzzz" (unknown) for a code fontconfig does not know.
  public static func script(of code: String) -> LanguageScript {
    knownScripts[code] ?? LanguageScript(code: "Zzzz", name: ISOCodes.shared.scriptName(of: "Zzzz"))
  }

  /// `script(of:)` of every language, named once per process (a catalogue groups the same
  /// languages by script for family after family).
  private static let knownScripts: [String: LanguageScript] = scriptCodes.mapValues {
    LanguageScript(code: $0, name: ISOCodes.shared.scriptName(of: $0))
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
}
