import FontTestSupport
import Testing

@testable import FontiText

/// One buffer shapes text after text (a diff shapes every kerning pair with one), and keeps
/// the language it last looked up: a text shaped in a language after texts in others shapes
/// as in a buffer of its own.
struct HarfBuzzBufferTests {
  @Test func eachTextShapesInItsOwnLanguage() throws {
    let face = try HarfBuzzFace(file: TestFonts.proofFontsFolder + "/EBGaramond12-Subset.otf")
    let font = HarfBuzzFont(face: face)
    // Serbian and Macedonian forms of б, г, д, п, т differ from Russian's by
    // `locl`; Turkish and Catalan have their own.
    let texts: [(String, String)] = [
      ("бгдпт", "sr"), ("бгдпт", "ru"), ("бгдпт", "mk"), ("fi", "tr"), ("fi", "en"),
      ("l·l", "ca"), ("бгдпт", "sr"), ("l·l", "en"),
    ]
    let shared = HarfBuzzBuffer()
    var languagesThatDiffer = Set<String>()
    for (text, language) in texts + texts.reversed() {
      let scalars = Array(text.unicodeScalars)
      let alone = HarfBuzzBuffer().shape(scalars, font: font, language: language, features: [])
      let after = shared.shape(scalars, font: font, language: language, features: [])
      #expect(after == alone, "\(text) in \(language)")
      let english = HarfBuzzBuffer().shape(scalars, font: font, language: "en", features: [])
      if alone != english { languagesThatDiffer.insert(language) }
    }
    // The texts do shape otherwise in some of those languages: the check above can fail.
    #expect(languagesThatDiffer.count >= 2, "\(languagesThatDiffer)")
  }
}
