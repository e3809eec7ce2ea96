import CFontconfig
import FontTestSupport
import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// Language coverage against fontconfig itself: `supported` is what `fc-query` says of the same
/// file, and every "nearly" entry's missing characters are fontconfig's orthography minus the
/// font's charset, worked out here independently (FcFreeTypeQuery on the file, FcCharSetSubtract,
/// FcCharSetHasChar) of the production code's bit pages.
@Suite struct LanguageCoverageTests {
  /// `fc-query --format '%{lang}\n' FILE` (fontconfig 2.14.1), recorded by hand from the
  /// fixture files, in fontconfig's order.
  static let fcQueryLang: [String: String] = [
    "DejaVu Serif":
      "aa|af|ast|av|ay|az-az|ba|bm|be|bg|bi|bin|br|bs|bua|ca|ce|ch|chm|co|cs|cv|cy|da|de|el|en|eo|es|et|eu|fi|fj|fo|fr|ff|fur|fy|ga|gd|gl|gn|gv|ha|haw|ho|hr|hu|hy|ia|ig|id|ie|ik|io|is|it|ka|kaa|ki|kk|kl|ku-am|kum|kv|kw|ky|la|lb|lez|ln|lt|lv|mg|mh|mi|mk|mo|mt|nb|nds|nl|nn|no|nr|nso|ny|oc|om|os|pl|pt|rm|ro|ru|sah|sco|se|sel|sh|shs|sk|sl|sm|sma|smj|smn|sms|so|sq|sr|ss|st|sv|sw|tg|tk|tl|tn|to|tr|ts|tt|tw|tyv|uk|uz|ve|vi|vo|vot|wa|wen|wo|xh|yap|yo|zu|ak|an|ber-dz|crh|csb|ee|fat|fil|hsb|ht|hz|jv|kab|kj|kr|ku-tr|kwm|lg|li|mn-mn|ms|na|ng|nv|pap-an|pap-aw|qu|quz|rn|rw|sc|sg|sn|su|ty|za",
    "Noto Sans Bengali": "as|bn|mni",
    "Fonti Test Serif":
      "aa|af|ay|bi|bin|br|bs|ca|ch|co|cs|da|de|en|eo|es|et|eu|fi|fj|fo|fr|fur|fy|gd|gl|gv|ho|hr|hu|ia|ig|id|ie|io|is|it|ki|kl|kw|la|lb|lt|lv|mg|mh|mt|nb|nds|nl|nn|no|nr|nso|ny|oc|om|pl|pt|rm|ro|se|shs|sk|sl|sma|smj|smn|so|sq|ss|st|sv|sw|tk|tl|tn|tr|ts|uz|vo|vot|wa|wen|wo|xh|yap|zu|an|crh|csb|fil|hsb|ht|jv|kj|kr|ku-tr|kwm|lg|li|ms|na|ng|pap-an|pap-aw|rn|rw|sc|sg|sn|su|za",
    // A true symbol font: fontconfig gives it no language at all.
    "Fonti Test Symbol": "",
  ]

  @Test(arguments: ["DejaVu Serif", "Noto Sans Bengali", "Fonti Test Serif", "Fonti Test Symbol"])
  func supportedIsWhatFcQuerySays(family name: String) throws {
    let environment = try LanguageFixtures.environment()
    let family = try LanguageFixtures.family(name, in: environment)
    let recorded = try #require(LanguageCoverageTests.fcQueryLang[name])
    let expected = recorded.split(separator: "|").map(String.init).sorted()
    #expect(LanguageCoverage(family: family).supported == expected)
  }

  @Test(arguments: [
    "DejaVuSerif.ttf", "NotoSansBengali-Regular.ttf", "Cantarell-Regular.otf",
    "NotoSansHebrew-Regular.ttf", "FontiTestSerif-Regular.ttf", "FontiTestSerif-Bold.ttf",
  ])
  func nearlyIsTheOrthographyMinusTheCharset(file: String) throws {
    let path =
      FileManager.default.fileExists(atPath: TestFonts.fontsFolder + "/" + file)
      ? TestFonts.fontsFolder + "/" + file : LanguageFixtures.fonts + "/" + file
    let query = try FontconfigQuery(file: path)
    let coverage = LanguageCoverage(
      languages: query.languages, coverage: query.coverage, drawsLetters: true)
    #expect(coverage.supported == query.languages.sorted())
    #expect(coverage.nearly == query.expectedNearly(), "\(file)")
  }

  @Test func theLatinFixtureNearlySetsVietnamese() throws {
    let environment = try LanguageFixtures.environment()
    let family = try LanguageFixtures.family("Fonti Test Serif", in: environment)
    let coverage = LanguageCoverage(family: family)
    #expect(!coverage.supported.contains("vi"))
    let vi = try #require(coverage.nearly.first { $0.language == "vi" })
    #expect(vi.missing == [0x1EA0, 0x1EA1, 0x1EF9])
    // Fewest missing first, then by code.
    let keys = coverage.nearly.map { ($0.missing.count, $0.language) }
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(
      coverage.nearly.allSatisfy { (1...LanguageCoverage.nearlyLimit).contains($0.missing.count) })
    // The full DejaVu Serif sets it.
    let full = try LanguageFixtures.family("DejaVu Serif", in: environment)
    #expect(LanguageCoverage(family: full).supported.contains("vi"))
  }

  @Test func symbolFontsSupportNoLanguage() throws {
    let environment = try LanguageFixtures.environment()
    // A (3,0) symbol cmap: fontconfig marks it `symbol`, gives it no `lang`, and copies its
    // U+F020–U+F0FE characters to U+0020–U+00FE in its charset.
    let symbol = try LanguageFixtures.family("Fonti Test Symbol", in: environment)
    #expect(symbol.isSymbol)
    #expect(symbol.languages.isEmpty)
    #expect(symbol.coverage.contains("A") && symbol.coverage.contains("\u{F041}"))
    #expect(LanguageCoverage(family: symbol) == LanguageCoverage())
    // Those copied characters would otherwise make languages "nearly" supported.
    let naive = LanguageCoverage(languages: [], coverage: symbol.coverage, drawsLetters: true)
    #expect(!naive.nearly.isEmpty)

    // Dingbats at Latin code points of a Unicode cmap: fontconfig credits D050000L with English
    // and dozens more (`fc-query --format '%{lang}' D050000L.otf`); its glyph names say otherwise.
    let dingbats = try LanguageFixtures.family("D050000L", in: environment)
    #expect(!dingbats.isSymbol)
    #expect(dingbats.languages.contains("en"))
    #expect(LanguageCoverage(family: dingbats) == LanguageCoverage())
    #expect(LanguageCoverage.supportedLanguages(of: dingbats).isEmpty)
  }

  @Test func aLanguageWithNothingMissingIsNeverNearly() throws {
    // fontconfig leaves Han languages out of `lang` by the font's OS/2 code pages even when
    // the font has every character; such a language is in neither list.
    let orthographies = Orthographies.shared
    let ja = try #require(orthographies["ja"])
    var pages: [UInt32: [UInt32]] = [:]
    for scalar in orthographies.scalars(of: ja) {
      pages[scalar >> 8, default: Array(repeating: 0, count: 8)][Int(scalar & 0xFF) >> 5] |=
        1 << (scalar & 31)
    }
    let coverage = LanguageCoverage(
      languages: ["en"], coverage: CharacterCoverage(pages: pages), drawsLetters: true)
    #expect(coverage.supported == ["en"])
    #expect(!coverage.nearly.contains { $0.language == "ja" })
    #expect(coverage.nearly.allSatisfy { !$0.missing.isEmpty })
  }

  @Test func encodesAsTheManifestShowsAndRefusesBadCodePoints() throws {
    let coverage = LanguageCoverage(
      supported: ["de", "en"], nearly: [.init(language: "vi", missing: [0x1EA0, 0x1F600])])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(coverage), as: UTF8.self)
    #expect(
      json
        == #"{"nearly":[{"language":"vi","missing":["U+1EA0","U+1F600"]}],"supported":["de","en"]}"#
    )
    #expect(try JSONDecoder().decode(LanguageCoverage.self, from: Data(json.utf8)) == coverage)
    for bad in ["U+ZZZZ", "1EA0", "U+110000", "U+", "U+1234567", ""] {
      let text = #"{"supported":[],"nearly":[{"language":"vi","missing":["\#(bad)"]}]}"#
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(LanguageCoverage.self, from: Data(text.utf8))
      }
    }
  }

  @Test func codePointText() {
    #expect(CodePointText.format(0x41) == "U+0041")
    #expect(CodePointText.format(0x1F600) == "U+1F600")
    #expect(CodePointText.hex(0x1EA0) == "1EA0")
    #expect(CodePointText.parse("U+1ea0") == 0x1EA0)
    #expect(CodePointText.parse("u+10FFFF") == 0x10FFFF)
    #expect(CodePointText.parse("U+110000") == nil)
    #expect(CodePointText.parse("U+041") == nil)
    #expect(CodePointText.parse("U+00４1") == nil)
  }
}

/// A face as `fc-query` sees it, straight from its file, and the "nearly" list worked out the
/// plain way: fontconfig's own set difference and a character-by-character walk.
final class FontconfigQuery {
  let languages: [String]
  let coverage: CharacterCoverage
  /// Owned by `pattern`.
  private let charset: OpaquePointer
  private let pattern: OpaquePointer

  init(file: String) throws {
    var count: Int32 = 0
    guard let pattern = FcFreeTypeQuery(file, 0, nil, &count) else {
      throw FontReadError(file: file, reason: "is not a font fontconfig reads")
    }
    var charset: OpaquePointer?
    guard FcPatternGetCharSet(pattern, FC_CHARSET, 0, &charset) == FcResultMatch, let charset
    else {
      FcPatternDestroy(pattern)
      throw FontReadError(file: file, reason: "has no charset")
    }
    self.pattern = pattern
    self.charset = charset
    languages = FontconfigPattern.languages(pattern)
    coverage = FontconfigPattern.coverage(charset: charset)
  }

  deinit { FcPatternDestroy(pattern) }

  func expectedNearly() -> [LanguageCoverage.Nearly] {
    let supported = Set(languages)
    var out: [LanguageCoverage.Nearly] = []
    for code in Fontconfig.languageCodes() where !supported.contains(code) {
      guard let required = FcLangGetCharSet(code),
        let difference = FcCharSetSubtract(required, charset)
      else { continue }
      defer { FcCharSetDestroy(difference) }
      let count = Int(FcCharSetCount(difference))
      guard (1...5).contains(count) else { continue }
      var missing: [UInt32] = []
      var c: UInt32 = 0
      while missing.count < count && c <= 0x10FFFF {
        if FcCharSetHasChar(difference, c) != 0 { missing.append(c) }
        c += 1
      }
      out.append(LanguageCoverage.Nearly(language: code, missing: missing))
    }
    return out.sorted { ($0.missing.count, $0.language) < ($1.missing.count, $1.language) }
  }
}
