import FontiModel
import Testing

@testable import FontiFonts

/// The one rule that decides whether a family sets the user's text or shows its own script:
/// the text's script, and whether the family writes it.
@Suite struct SampleScriptTests {
  static func family(_ characters: String, languages: [String] = []) -> FontFamily {
    FontFamily(
      name: "Test", faces: [], languages: languages,
      coverage: CharacterCoverage(scalars: characters.unicodeScalars.map(\.value)))
  }

  static let ascii = String(String.UnicodeScalarView((0x20...0x7E).compactMap(Unicode.Scalar.init)))

  @Test func theScriptIsThatOfMostLettersOrOfTheLanguage() {
    #expect(SampleScript.of("Ünïcödé façade — 1½ €", language: nil) == "Latn")
    #expect(SampleScript.of("שלום עולם 2024", language: nil) == "Hebr")
    // Common and Inherited do not count: digits, punctuation, combining marks.
    #expect(SampleScript.of("1984 — «Ж»", language: nil) == "Cyrl")
    #expect(SampleScript.of("0123 4567 !?", language: nil) == nil)
    // The language, when given, decides among the scripts of the letters: its script subtag
    // first.
    #expect(SampleScript.of("Hello Здраво", language: "sr") == "Cyrl")
    #expect(SampleScript.of("Zdravo Здраво свете", language: "sr-Latn") == "Latn")
    #expect(SampleScript.of("Hi שלום", language: "he") == "Hebr")
    #expect(SampleScript.of("2024", language: "he") == "Hebr")
    // An unknown language leaves it to the letters; so does one none of the letters are in
    // (the example job's `language: en` kept over a Greek text).
    #expect(SampleScript.of("Hello", language: "x-unknown") == "Latn")
    #expect(SampleScript.of("Καλημέρα κόσμε", language: "en") == "Grek")
    #expect(SampleScript.of("Hello Καλημέρα κόσμε", language: "en") == "Latn")
  }

  /// The cases: a Latin font with ASCII only sets a Latin text with accents (boxes for
  /// what it lacks), and a Hebrew font without digits sets a Hebrew text with a year.
  @Test func aFamilyThatWritesTheScriptAlwaysSetsTheText() {
    let asciiOnly = Self.family(Self.ascii, languages: ["ms", "uz"])
    #expect(
      !FallbackSample.showsOwnScript("Ünïcödé façade — 1½ €", language: nil, family: asciiOnly))
    let hebrew = Self.family(
      " -" + String(String.UnicodeScalarView((0x5D0...0x5EA).compactMap(Unicode.Scalar.init))),
      languages: ["he", "yi"])
    #expect(!FallbackSample.showsOwnScript("שלום עולם 2024", language: nil, family: hebrew))
    // Its basic letters are enough, without an orthography.
    #expect(
      !FallbackSample.showsOwnScript("Ünïcödé", language: nil, family: Self.family(Self.ascii)))
  }

  @Test func aFamilyThatDoesNotWriteTheScriptShowsItsOwn() {
    let hebrew = Self.family(
      String(String.UnicodeScalarView((0x5D0...0x5EA).compactMap(Unicode.Scalar.init))),
      languages: ["he"])
    #expect(FallbackSample.showsOwnScript("The quick brown fox", language: nil, family: hebrew))
    let latin = Self.family(Self.ascii, languages: ["en"])
    #expect(FallbackSample.showsOwnScript("Съешь же ещё этих булок", language: nil, family: latin))
    #expect(FallbackSample.showsOwnScript("Привет", language: "ru", family: latin))
    // A family that has every character sets the text, whatever its language says.
    #expect(!FallbackSample.showsOwnScript("Hello", language: "ru", family: latin))
    // Capitals only (a titling font) do not write Latin: its specimen shows the text in capitals.
    #expect(
      FallbackSample.showsOwnScript(
        "Hello", language: nil, family: Self.family("ABCDEFGHIJKLMNOPQRSTUVWXYZ")))
  }

  /// A text without letters keeps the share rule: lacking a third of its characters.
  @Test func aTextWithoutLettersKeepsTheShareRule() {
    let digits = Self.family("0123456789 ")
    #expect(!FallbackSample.showsOwnScript("0123 456", language: nil, family: digits))
    #expect(FallbackSample.showsOwnScript("①②③ ④", language: nil, family: digits))
  }
}
