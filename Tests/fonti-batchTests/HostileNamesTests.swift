import Foundation
import Testing

/// A family whose name table lists thousands of names, the first in Chinese with control
/// characters (`Fixtures/HostileNames`): every command names it by its English name, whatever
/// the locale, and `run` draws it; a name with control characters is shown escaped.
@Suite struct HostileNamesTests {
  static let folder = Repository.fixtures + "/HostileNames"
  static let font = folder + "/HostileNames.ttf"
  static let noEnglish = folder + "/HostileNamesNoEnglish.ttf"
  static let chinese = "巴別\u{1}\u{1B}[31m黑體\u{7}\u{85}"

  static let job = """
    version: 1
    families:
      include: ["Babel Sans"]
    pairings: { curated: false }
    catalogues:
      - file: catalogue.pdf

    """

  /// The `family` of every object of a JSON array (`families --json`, `fonts --json`).
  func families(_ json: String) throws -> [String] {
    let list = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    return list.compactMap { $0["family"] as? String }
  }

  func lines(_ result: CLIResult) -> [String] {
    result.stdout.split(separator: "\n").map(String.init)
  }

  /// No control character of the font's names reaches the terminal.
  func expectClean(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
    for text in [result.stdout, result.stderr] {
      #expect(
        !text.unicodeScalars.contains { [0x01, 0x07, 0x1B, 0x85].contains($0.value) },
        "\(result)", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: ["C.UTF-8", "zh_TW.UTF-8"])
  func everyCommandNamesTheFamilyAlike(locale: String) throws {
    let box = try CLISandbox("fonti-names")
    box.environment["LANG"] = locale
    box.environment["FC_LANG"] = locale == "C.UTF-8" ? "en" : "zh-tw"
    func run(_ arguments: [String]) throws -> CLIResult {
      let result = try box.run(arguments)
      expectClean(result)
      return result
    }
    let listed = try run(["families", "--fonts", Self.font])
    #expect(lines(listed).contains { $0.hasPrefix("Babel Sans ") }, "\(listed)")
    let listedJSON = try run(["families", "--fonts", Self.font, "--json"])
    #expect(try families(listedJSON.stdout).contains("Babel Sans"), "\(listedJSON)")

    let imported = try run(["fonts", "import", Self.font])
    #expect(imported.status == 0, "\(imported)")
    #expect(imported.stdout.contains("HostileNames.ttf: Babel Sans"), "\(imported)")
    let library = try run(["fonts"])
    #expect(library.stdout.hasPrefix("Babel Sans "), "\(library)")
    #expect(try families(try run(["fonts", "--json"]).stdout) == ["Babel Sans"])

    // `run` draws the imported family under that name.
    try box.write("specimens.yaml", Self.job)
    let result = try run(["run", "-o", "out"])
    #expect(result.status == 0, "\(result)")
    #expect(box.read("out/specimens/babel-sans.png") != nil, "\(result)")
    #expect(box.read("out/catalogue.pdf") != nil, "\(result)")
    let manifest = String(decoding: box.read("out/manifest.json") ?? Data(), as: UTF8.self)
    #expect(manifest.contains("\"family\" : \"Babel Sans\""), "\(manifest)")

    let render = try run(["render", "Babel Sans", "-o", "babel.png"])
    #expect(render.status == 0 && box.read("babel.png") != nil, "\(render)")
    #expect(try run(["saved", "add", "Babel Sans"]).status == 0)
    #expect(try run(["saved"]).stdout.hasPrefix("Babel Sans "))
    let diff = try run(["diff", Self.font, Self.font, "-o", "review", "--json"])
    #expect(diff.status == 0, "\(diff)")
    #expect(diff.stdout.contains("\"Babel Sans\""), "\(diff)")
    let removed = try run(["fonts", "remove", "Babel Sans"])
    #expect(removed.status == 0, "\(removed)")
  }

  /// Without an English name the family is named by its first name; its control characters
  /// are U+FFFD on the terminal and escaped in JSON, and `run` draws it.
  @Test func aNameWithControlCharactersIsShownEscaped() throws {
    let box = try CLISandbox("fonti-names")
    let shown = "巴別\u{FFFD}\u{FFFD}[31m黑體\u{FFFD}\u{FFFD}"
    let listed = try box.run(["families", "--fonts", Self.noEnglish])
    expectClean(listed)
    #expect(lines(listed).contains { $0.hasPrefix(shown + " ") }, "\(listed)")
    let imported = try box.run(["fonts", "import", Self.noEnglish])
    expectClean(imported)
    #expect(imported.stdout.contains(": " + shown), "\(imported)")
    let json = try box.run(["fonts", "--json"])
    #expect(json.stdout.contains("\\u001b[31m"), "\(json)")
    #expect(try families(json.stdout) == [Self.chinese])
    try box.write(
      "specimens.yaml", Self.job.replacingOccurrences(of: "\"Babel Sans\"", with: "\"*\""))
    let result = try box.run(["run", "-o", "out", "--only", "巴*"])
    expectClean(result)
    #expect(result.status == 0, "\(result)")
    let manifest = String(decoding: box.read("out/manifest.json") ?? Data(), as: UTF8.self)
    #expect(manifest.contains("\"family\" : \"巴別\\u0001\\u001b[31m黑體"), "\(manifest)")
  }
}
