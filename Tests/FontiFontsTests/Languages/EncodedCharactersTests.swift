import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// Encoded characters from the font's own cmap, and the faces that lack some of the regular's.
@Suite struct EncodedCharactersTests {
  /// Counts of each fixture's cmap, from fontTools (`len(TTFont(f).getBestCmap())`, or the
  /// (3,0) subtable of the symbol font), recorded by hand.
  @Test(arguments: [
    ("Fonts/DejaVuSerif.ttf", 3447), ("Fonts/NotoSansBengali-Regular.ttf", 173),
    ("LanguageFonts/FontiTestSerif-Regular.ttf", 712), ("LanguageFonts/FontiTestSymbol.ttf", 203),
    ("Fonts/D050000L.otf", 203),
  ])
  func countsTheCmap(file: String, count: Int) throws {
    let characters = try EncodedCharacters.of(file: TestFonts.fixtures + "/" + file)
    #expect(characters.count == count)
    #expect(characters == characters.sorted())
  }

  @Test func aSymbolFontsCharactersAreItsOwnNotFontconfigsCopies() throws {
    let environment = try LanguageFixtures.environment()
    let symbol = try LanguageFixtures.family("Fonti Test Symbol", in: environment)
    let characters = try EncodedCharacters.ofRegularFace(symbol)
    #expect(characters.first == 0xF020 && characters.last == 0xF0FE)
    #expect(characters.allSatisfy { (0xF020...0xF0FE).contains($0) })
    #expect(symbol.coverage.count == 2 * characters.count)  // fontconfig's charset: both ranges
  }

  @Test func unreadableFilesThrow() throws {
    #expect(throws: FontReadError.self) { try EncodedCharacters.of(file: "/nonexistent.ttf") }
    let folder = try TemporaryDirectory()
    let text = try folder.write("text.ttf", "not a font\n")
    #expect(throws: FontReadError.self) { try EncodedCharacters.of(file: text) }
    #expect(try EncodedCharacters.ofRegularFace(FontFamily(name: "Empty", faces: [])).isEmpty)
  }

  @Test func facesThatLackCharactersOfTheRegularAreWarnedAbout() throws {
    let environment = try LanguageFixtures.environment()
    let serif = try LanguageFixtures.family("Fonti Test Serif", in: environment)
    #expect(
      FaceCoverage.warnings(for: serif) == [
        "Bold lacks 6 characters of Regular: U+0110, U+0111, U+01A0, U+01A1, U+01AF, …"
      ])
    for name in ["Cantarell", "Noto Sans Bengali", "Fonti Test Symbol"] {
      #expect(
        FaceCoverage.warnings(for: try LanguageFixtures.family(name, in: environment)).isEmpty)
    }
    // DejaVu Serif's bold and italics lack some of Book's letterlike symbols.
    let dejavu = try LanguageFixtures.family("DejaVu Serif", in: environment)
    let warnings = FaceCoverage.warnings(for: dejavu)
    // One line for the family: the first face with its characters, the others counted.
    #expect(warnings.count == 1)
    #expect(warnings.first?.hasPrefix("Bold lacks 126 characters of Book: U+2102, ") == true)
    #expect(warnings.first?.hasSuffix("; Italic lacks 73; Bold Italic lacks 126") == true)
  }

  @Test func warningText() {
    #expect(FaceCoverage.warning(face: "Bold", regular: "Book", lacks: []) == nil)
    #expect(
      FaceCoverage.warning(face: "Bold", regular: "Book", lacks: [0x41])
        == "Bold lacks 1 character of Book: U+0041")
    #expect(
      FaceCoverage.warning(face: "It\u{1B}alic", regular: "Book", lacks: [1, 2, 3, 4, 5])
        == "It\u{FFFD}alic lacks 5 characters of Book: U+0001, U+0002, U+0003, U+0004, U+0005")
    #expect(FaceCoverage.lacking([1, 3, 5], [1, 2, 3, 4, 5, 6]) == [2, 4, 6])
    #expect(FaceCoverage.lacking([], [7]) == [7])
    #expect(FaceCoverage.lacking([1, 2], []).isEmpty)
  }

  @Test func anUnreadableFaceIsNamed() throws {
    let regular = LanguageFixtures.fonts + "/FontiTestSerif-Regular.ttf"
    let family = FontFamily(
      name: "Half There",
      faces: [
        FontFace(style: "Regular", weight: 80, slant: 0, file: regular),
        FontFace(style: "Bold", weight: 200, slant: 0, file: "/nonexistent/Bold.ttf"),
        // A variable font's instance shares the regular's file and cmap: not compared.
        FontFace(style: "Medium", weight: 100, slant: 0, file: regular, index: 3 << 16),
      ])
    #expect(
      FaceCoverage.warnings(for: family) == [
        "Bold: font file '/nonexistent/Bold.ttf' cannot be read"
      ])
  }

  /// Two versions of a family installed side by side (fonts-liberation and fonts-liberation2):
  /// one style, two files. The warning names each such face by its folder and file, never
  /// "Regular lacks 4 characters of Regular".
  @Test func facesOfOneStyleAreToldApartByTheirFiles() throws {
    let fonts = LanguageFixtures.fonts
    let family = FontFamily(
      name: "Twice",
      faces: [
        FontFace(
          style: "Regular", weight: 80, slant: 0, file: fonts + "/FontiTestSerif-Regular.ttf"),
        FontFace(style: "Regular", weight: 80, slant: 0, file: fonts + "/FontiTestSerif-Bold.ttf"),
      ])
    let warnings = FaceCoverage.warnings(for: family)
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix(
        "Regular (LanguageFonts/FontiTestSerif-Bold.ttf) lacks 6 characters of Regular "
          + "(LanguageFonts/FontiTestSerif-Regular.ttf): U+0110") == true, "\(warnings)")
    let name = FaceCoverage.names(
      family.faces + [
        FontFace(style: "Bold", weight: 200, slant: 0, file: "/x/Bold.ttf")
      ])
    #expect(name(FontFace(style: "Bold", weight: 200, slant: 0, file: "/x/Bold.ttf")) == "Bold")
  }
}
