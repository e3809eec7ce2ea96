import FontiModel

// Coverage worked out against fontconfig's orthographies: apart from the plain data of
// `LanguageCoverage`, so that readers of manifests (and their fuzz targets) need no fontconfig.

extension LanguageCoverage {
  /// The coverage of a face whose fontconfig `lang` is `languages` and whose characters are
  /// `coverage`.
  ///
  /// `supported` is fontconfig's `lang` itself, so that it always agrees with fontconfig (which
  /// also leaves out Han languages by the font's OS/2 code pages, and a symbol font's every
  /// language). `nearly` compares every other orthography with the characters; a language the
  /// face lacks nothing of but that fontconfig left out is in neither list.
  package init(
    languages: [String], coverage: CharacterCoverage, drawsLetters: Bool,
    orthographies: Orthographies = .shared
  ) {
    guard drawsLetters else {
      self.init()
      return
    }
    let supported = Array(Set(languages)).sorted()
    let known = Set(supported)
    var nearly: [Nearly] = []
    for orthography in orthographies.all where !known.contains(orthography.code) {
      guard
        let missing = orthographies.missing(
          orthography, from: coverage, limit: LanguageCoverage.nearlyLimit),
        !missing.isEmpty
      else { continue }
      nearly.append(Nearly(language: orthography.code, missing: missing))
    }
    nearly.sort { a, b in
      a.missing.count != b.missing.count
        ? a.missing.count < b.missing.count : a.language < b.language
    }
    self.init(supported: supported, nearly: nearly)
  }

  /// The coverage of a family: its regular face's. A symbol font (fontconfig's `symbol`, or a
  /// font that draws pictographs at Latin code points, like D050000L) supports no language,
  /// whatever fontconfig's `lang` says, and nearly supports none.
  public init(family: FontFamily) {
    self.init(
      languages: family.languages, coverage: family.coverage,
      drawsLetters: !SymbolFonts.drawsNoLetters(family))
  }

  /// The languages a family supports, without working out the nearly supported ones: what
  /// selection by language needs.
  public static func supportedLanguages(of family: FontFamily) -> [String] {
    SymbolFonts.drawsNoLetters(family) ? [] : Array(Set(family.languages)).sorted()
  }
}
