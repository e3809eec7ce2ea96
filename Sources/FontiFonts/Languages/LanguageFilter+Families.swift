import FontiModel

// The filter applied to families (which needs their fonts): apart from `LanguageFilter`'s
// parsing, so that the job decoder (and its fuzz target) needs no font library.

extension LanguageFilter {
  /// Whether `family` supports every code: its regular face's fontconfig `lang` has them all
  /// and it is not a symbol font (`LanguageCoverage`).
  public func accepts(_ family: FontFamily) -> Bool {
    let languages = Set(family.languages)
    guard codes.allSatisfy(languages.contains) else { return false }
    return codes.isEmpty || !SymbolFonts.drawsNoLetters(family)
  }

  /// The families of `families` that support every code, in order.
  public func select(_ families: [FontFamily]) -> [FontFamily] {
    families.filter(accepts)
  }
}
