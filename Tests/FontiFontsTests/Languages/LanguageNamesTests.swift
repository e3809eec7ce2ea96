import Foundation
import TestSupport
import Testing

@testable import FontiFonts

/// Language and script names from Debian's iso-codes data (a package of the set-up, like the
/// libraries), and what happens without it or with damaged files.
@Suite struct LanguageNamesTests {
  @Test func namesFontconfigCodesInEnglish() {
    #expect(Languages.name(of: "vi") == "Vietnamese")
    #expect(Languages.name(of: "pl") == "Polish")
    #expect(Languages.name(of: "sr") == "Serbian")
    #expect(Languages.name(of: "zh-tw") == "Chinese (Taiwan)")
    #expect(Languages.name(of: "pa-pk") == "Panjabi (Pakistan)")
    #expect(Languages.name(of: "az-ir") == "Azerbaijani (Iran)")
    #expect(Languages.name(of: "pap-an") == "Papiamento (Netherlands Antilles)")  // withdrawn
    #expect(Languages.name(of: "ms") == "Malay")  // not "Malay (macrolanguage)"
    #expect(Languages.name(of: "ca") == "Catalan")  // not "Catalan; Valencian"
    #expect(Languages.name(of: "ber-ma") == "Berber languages (Morocco)")  // ISO 639-2/-5 only
    #expect(Languages.name(of: "quz") == "Cusco Quechua")  // ISO 639-3 only
    #expect(Languages.name(of: "mo") == "Moldavian")  // withdrawn: our own table
    #expect(Languages.name(of: "und-zsye") == "Emoji")
    #expect(Languages.name(of: "ZH-TW") == "Chinese (Taiwan)")
    #expect(ISOCodes.shared.languageName(of: "sr-latn") == "Serbian (Latin)")
    #expect(ISOCodes.shared.languageName(of: "qq-zz") == "qq-zz")
  }

  @Test func everyFontconfigLanguageHasAName() {
    #expect(Languages.codes.count > 200)
    for code in Languages.codes {
      #expect(Languages.name(of: code) != code, "\(code)")
    }
  }

  @Test func withoutTheDataEveryNameIsTheCode() throws {
    let names = ISOCodes(folder: "/nonexistent/iso-codes")
    #expect(!names.hasData)
    #expect(names.languageName(of: "vi") == "vi")
    #expect(names.languageName(of: "zh-tw") == "zh-tw")
    #expect(names.languageName(of: "mo") == "Moldavian")
    #expect(names.scriptName(of: "Latn") == "Latn")
  }

  @Test func damagedDataFilesAreIgnored() throws {
    let folder = try TemporaryDirectory()
    try folder.write("iso_639-3.json", "{\"639-3\": [{\"alpha_3\": \"vie\", \"alpha_2\": \"vi\"")
    try folder.write("iso_639-2.json", "[1, 2, 3]")
    try folder.write(
      "iso_639-5.json",
      #"{"639-5": [7, null, {"alpha_3": 12, "name": "Twelve"}, {"alpha_3": "zzz", "name": "Bad\u001b[31mname"}, {"alpha_2": "pl", "name": "   "}]}"#
    )
    try folder.write("iso_3166-1.json", #"{"3166-1": {"alpha_2": "TW"}}"#)
    try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: folder.file("iso_15924.json")))
    let names = ISOCodes(folder: folder.path)
    #expect(names.languageName(of: "vi") == "vi")
    #expect(names.languageName(of: "pl") == "pl")
    #expect(names.languageName(of: "zzz") == "Bad\u{FFFD}[31mname")
    #expect(names.languageName(of: "zzz-tw") == "Bad\u{FFFD}[31mname (tw)")
    #expect(names.scriptName(of: "Latn") == "Latn")
  }

  /// The files are JSON as iso-codes writes it: escapes, other scripts, fields it adds later,
  /// other lists beside the one read.
  @Test func readsEscapesUnknownFieldsAndOtherLists() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "iso_639-3.json",
      #"""
      {"other": [{"alpha_3": "vie", "name": "Wrong"}],
       "639-3": [
        {"alpha_3": "vie", "alpha_2": "vi", "name": "Vi\u1ec7t", "scope": "I", "type": "L",
         "inverted_name": {"x": [1, 2]}},
        {"alpha_3": "tst", "name": "T\u00e9st \ud83d\ude00 \"quoted\" a\/b"}
       ]}
      """#)
    let names = ISOCodes(folder: folder.path)
    #expect(names.languageName(of: "vi") == "Việt")
    #expect(names.languageName(of: "tst") == "Tést 😀 \"quoted\" a/b")
  }

  @Test func scriptsComeFromTheOrthographies() {
    #expect(Languages.script(of: "vi") == LanguageScript(code: "Latn", name: "Latin"))
    #expect(Languages.script(of: "ru") == LanguageScript(code: "Cyrl", name: "Cyrillic"))
    #expect(Languages.script(of: "bn") == LanguageScript(code: "Beng", name: "Bengali"))
    #expect(Languages.script(of: "as").name == "Bengali")
    #expect(Languages.script(of: "zh-tw") == LanguageScript(code: "Hani", name: "Han"))
    #expect(Languages.script(of: "ja").name == "Han")
    #expect(Languages.script(of: "ko").name == "Hangul")
    #expect(Languages.script(of: "pa").name == "Gurmukhi")
    #expect(Languages.script(of: "pa-pk").name == "Arabic")
    #expect(
      Languages.script(of: "und-zmth")
        == LanguageScript(code: "Zmth", name: "Mathematical notation"))
    #expect(Languages.script(of: "xx").code == "Zzzz")
    for code in Languages.codes {
      #expect(!["Zyyy", "Zinh", "Zzzz"].contains(Languages.script(of: code).code), "\(code)")
    }
  }

  @Test func majorityScriptIgnoresMarksAndPunctuation() {
    let script: (UInt32) -> String = { c in
      switch c {
      case 0x41...0x5A: return "Latn"
      case 0x300...0x36F: return "Zinh"
      case 0x400...0x4FF: return "Cyrl"
      default: return "Zyyy"
      }
    }
    let latin = Array(0x41...0x45).map(UInt32.init) + Array(0x300...0x310).map(UInt32.init)
    #expect(Languages.majorityScript(code: "x", characters: latin, script: script) == "Latn")
    let tie: [UInt32] = [0x41, 0x400]
    #expect(Languages.majorityScript(code: "x", characters: tie, script: script) == "Cyrl")
    #expect(
      Languages.majorityScript(code: "x", characters: [0x20, 0x21], script: script) == "Zyyy")
    #expect(
      Languages.majorityScript(code: "sr-latn", characters: [0x400], script: script) == "Latn")
    #expect(Languages.majorityScript(code: "x", characters: [], script: script) == "Zyyy")
  }

  @Test func groupsByScriptLargestFirst() {
    let groups = Languages.groupedByScript(["bn", "vi", "de", "ru", "as", "pl"])
    #expect(groups.map(\.script.name) == ["Latin", "Bengali", "Cyrillic"])
    #expect(groups.map(\.languages) == [["vi", "de", "pl"], ["bn", "as"], ["ru"]])
  }

  @Test func requiredCharacters() {
    let pl = Languages.requiredCharacters(of: "pl")
    #expect(pl.contains(0x0142))  // ł
    #expect(pl == pl.sorted())
    #expect(Languages.requiredCharacters(of: "xx").isEmpty)
    #expect(Languages.isKnown("zh-tw") && !Languages.isKnown("zh"))
  }
}
