internal import CFontconfig

/// fontconfig's orthographies: the languages it knows (about 250 codes: ISO 639-1/-2/-3, some
/// with a territory, `zh-tw`, `pa-pk`) and, for each, the characters a font needs to set it.
/// fontconfig computes a face's `lang` from exactly these sets; reading them from fontconfig
/// (rather than keeping a copy) keeps the "nearly supported" lists in step with it.
///
/// The data is compiled into libfontconfig: no configuration or font is loaded to read it, and
/// the calls are safe from any thread.
enum FontconfigLanguages {
  /// Every language code fontconfig knows, sorted (calls `FcGetLangs`).
  static func codes() -> [String] {
    guard let set = FcGetLangs() else { return [] }
    defer { FcStrSetDestroy(set) }
    guard let list = FcStrListCreate(set) else { return [] }
    defer { FcStrListDone(list) }
    var out: [String] = []
    while let s = FcStrListNext(list) { out.append(String(cString: s)) }
    return out.sorted()
  }

  /// The characters `code` requires, or nil for a code fontconfig does not know (calls
  /// `FcLangGetCharSet`; the charset is fontconfig's own static data and is not freed).
  static func orthography(_ code: String) -> CharacterCoverage? {
    guard let charset = FcLangGetCharSet(code) else { return nil }
    return FontEnvironment.coverage(charset: charset)
  }
}
