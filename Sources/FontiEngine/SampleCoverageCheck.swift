import FontiFonts
import FontiModel
import FontiSupport

/// What `check` can know of the sample text before drawing: which selected families lack some
/// of its characters (`missing-glyphs`, as the run will say when it draws them) and which do
/// not write its script at all (`own-script`: their specimens show their own script;
/// `FallbackSample.showsOwnScript`, `language` being `defaults.language`). Read from each
/// family's character coverage (fontconfig's charset of its regular face) and orthographies; a
/// symbol font that draws pictographs for Latin letters shows only when drawn.
public enum SampleCoverageCheck {
  public static func warnings(
    text: String, language: String? = nil, families: [FontFamily], file: String? = nil
  ) -> [Diagnostic] {
    let distinct = Set(text.unicodeScalars.filter { !CharacterCoverage.needsNoGlyph($0) })
    guard !distinct.isEmpty else { return [] }
    return families.compactMap { family -> Diagnostic? in
      let lacking = distinct.filter { !family.coverage.contains($0) }.sorted { $0.value < $1.value }
      guard !lacking.isEmpty else { return nil }
      let noun = lacking.count == 1 ? "character" : "characters"
      let codes = MissingCharacters.codes(lacking)
      let shown =
        codes.prefix(8).joined(separator: ", ") + (codes.count > 8 ? ", …" : "")
      let message =
        "family '\(family.name)' lacks \(lacking.count) \(noun) of the sample text (\(shown))"
      let ownScript = FallbackSample.showsOwnScript(text, language: language, family: family)
      return .warning(
        ownScript ? message + "; its specimen shows its own script" : message, file: file)
    }
  }
}
