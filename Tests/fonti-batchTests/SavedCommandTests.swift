import FontiModel
import Foundation
import Testing

/// `saved [list]`, `saved add`, `saved remove`, `saved clear`, run as the built binary.
@Suite struct SavedCommandTests {
  /// 2025-11-29T10:04:00Z.
  static let epoch = ["SOURCE_DATE_EPOCH": "1764410640"]

  func manifest(_ sandbox: CLISandbox, _ path: String = "favourites.json") throws
    -> FavouritesManifest
  {
    let data = try #require(sandbox.read(path))
    return try JSONDecoder().decode(FavouritesManifest.self, from: data)
  }

  @Test func emptyListAndNoFileCreated() throws {
    let sandbox = try CLISandbox()
    let list = try sandbox.run(["saved"])
    #expect(list.status == 0, "\(list)")
    #expect(list.stdout.isEmpty)
    #expect(list.stderr.contains("No saved fonts yet. Heart a font to keep it here"))
    let json = try sandbox.run(["saved", "list", "--json"])
    #expect(json.status == 0)
    #expect(json.stdout == "{\n  \"saved\" : [],\n  \"version\" : 1\n}\n")
    #expect(sandbox.list(sandbox.work).isEmpty)
  }

  @Test func addListsNewestFirstWithTheInstalledSpelling() throws {
    let sandbox = try CLISandbox()
    let first = try sandbox.run(
      ["saved", "add", "--manifest", "favourites.json", "cantarell"],
      environment: ["SOURCE_DATE_EPOCH": "1764410000"])
    #expect(first.status == 0, "\(first)")
    #expect(first.stdout == "Saved Cantarell.\n")
    let second = try sandbox.run(
      ["saved", "add", "--manifest", "favourites.json", "DEJAVU SERIF", "Noto Sans Hebrew"],
      environment: Self.epoch)
    #expect(second.status == 0, "\(second)")
    let saved = try manifest(sandbox)
    // Of two saved at once, the last named is the newer: listed first.
    #expect(saved.families == ["Noto Sans Hebrew", "DejaVu Serif", "Cantarell"])
    #expect(saved.saved.allSatisfy { !$0.custom })
    #expect(Timestamp.format(saved.saved[0].savedAt) == "2025-11-29T10:04:00Z")

    let list = try sandbox.run(["saved", "--manifest", "favourites.json"])
    #expect(list.status == 0)
    #expect(
      list.stdout == """
        Noto Sans Hebrew  2025-11-29T10:04:00Z  system
        DejaVu Serif      2025-11-29T10:04:00Z  system
        Cantarell         2025-11-29T09:53:20Z  system

        """)
    let json = try sandbox.run(["favorites", "list", "--json", "--manifest", "favourites.json"])
    #expect(json.status == 0)
    #expect(json.stdout.utf8.elementsEqual(try #require(sandbox.read("favourites.json"))))
  }

  @Test func reAddingChangesNothing() throws {
    let sandbox = try CLISandbox()
    let args = ["saved", "add", "--manifest", "favourites.json", "Cantarell"]
    #expect(try sandbox.run(args, environment: Self.epoch).status == 0)
    let before = try #require(sandbox.read("favourites.json"))
    let again = try sandbox.run(
      ["saved", "add", "--manifest", "favourites.json", "CANTARELL"],
      environment: ["SOURCE_DATE_EPOCH": "1800000000"])
    #expect(again.status == 0, "\(again)")
    #expect(again.stdout == "Cantarell is already saved (since 2025-11-29T10:04:00Z).\n")
    #expect(sandbox.read("favourites.json") == before)
  }

  @Test func anUnknownFamilyIsAnErrorAndNothingIsSaved() throws {
    let sandbox = try CLISandbox()
    let result = try sandbox.run(
      ["saved", "add", "--manifest", "favourites.json", "Cantarell", "Cantarel", "Georgia"])
    #expect(result.status == 2, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.contains(
        "fonti-batch: error: family 'Cantarel' is not installed (did you mean 'Cantarell'?)"))
    #expect(result.stderr.contains("fonti-batch: error: family 'Georgia' is not installed"))
    #expect(sandbox.read("favourites.json") == nil)

    // With an existing manifest: left exactly as it was.
    #expect(
      try sandbox.run(["saved", "add", "--manifest", "favourites.json", "Cantarell"]).status == 0)
    let before = sandbox.read("favourites.json")
    let again = try sandbox.run(
      ["saved", "add", "--manifest", "favourites.json", "D050000L", "Nope Sans"])
    #expect(again.status == 2)
    #expect(sandbox.read("favourites.json") == before)
  }

  @Test func customFamiliesAreSavedAsCustom() throws {
    let sandbox = try CLISandbox()
    let renamed = try FontBytes.renamingFamily(
      Repository.font("NotoSansHebrew-Regular.ttf"), from: "Noto Sans Hebrew",
      to: "Custom Library Z")
    try FileManager.default.createDirectory(
      atPath: sandbox.library, withIntermediateDirectories: true)
    try renamed.write(to: URL(fileURLWithPath: sandbox.library + "/custom.ttf"))
    let jobFont = try FontBytes.renamingFamily(
      Repository.font("NotoSansHebrew-Regular.ttf"), from: "Noto Sans Hebrew",
      to: "Custom Job Fonts")
    try sandbox.write("fonts/job.ttf", jobFont)
    let result = try sandbox.run(
      [
        "saved", "add", "--manifest", "favourites.json", "--fonts", "fonts", "custom library z",
        "Custom Job Fonts", "Cantarell",
      ], environment: Self.epoch)
    #expect(result.status == 0, "\(result)")
    let saved = try manifest(sandbox)
    #expect(saved.families == ["Cantarell", "Custom Job Fonts", "Custom Library Z"])
    #expect(saved.saved.map(\.custom) == [false, true, true])
    let list = try sandbox.run(["saved", "--manifest", "favourites.json"])
    #expect(list.stdout.contains("Custom Library Z  2025-11-29T10:04:00Z  custom"))
  }

  @Test func removeWarnsAboutNamesThatAreNotSaved() throws {
    let sandbox = try CLISandbox()
    let add = ["saved", "add", "--manifest", "m.json", "Cantarell", "DejaVu Serif", "D050000L"]
    #expect(try sandbox.run(add).status == 0)
    let result = try sandbox.run(
      ["saved", "remove", "--manifest", "m.json", "dejavu serif", "Cantarel", "Lato"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "Removed DejaVu Serif.\n")
    #expect(
      result.stderr == """
        fonti-batch: warning: family 'Cantarel' is not saved (did you mean 'Cantarell'?)
        fonti-batch: warning: family 'Lato' is not saved

        """)
    #expect(try manifest(sandbox, "m.json").families == ["D050000L", "Cantarell"])
    // A family need not be installed to be removed.
    try sandbox.write(
      "old.json",
      "{\"version\": 1, \"saved\": [{\"family\": \"Gone Sans\", \"savedAt\": \"2024-01-01T00:00:00Z\"}]}"
    )
    let gone = try sandbox.run(["saved", "remove", "--manifest", "old.json", "gone sans"])
    #expect(gone.status == 0)
    #expect(try manifest(sandbox, "old.json").isEmpty)
  }

  @Test func clearWithoutATerminalNeedsYes() throws {
    let sandbox = try CLISandbox()
    #expect(
      try sandbox.run(["saved", "add", "--manifest", "m.json", "Cantarell", "D050000L"]).status
        == 0)
    let before = try #require(sandbox.read("m.json"))
    let refused = try sandbox.run(["saved", "clear", "--manifest", "m.json"], input: "y\n")
    #expect(refused.status == 2, "\(refused)")
    #expect(refused.stderr.contains("refusing to remove 2 saved fonts without confirmation"))
    #expect(refused.stderr.contains("hint: pass --yes"))
    #expect(sandbox.read("m.json") == before)

    let cleared = try sandbox.run(["saved", "clear", "--yes", "--manifest", "m.json"])
    #expect(cleared.status == 0, "\(cleared)")
    #expect(cleared.stdout == "Removed 2 saved fonts.\n")
    #expect(try manifest(sandbox, "m.json").isEmpty)
    let again = try sandbox.run(["saved", "clear", "-y", "--manifest", "m.json"])
    #expect(again.status == 0)
    #expect(again.stdout == "No saved fonts to remove.\n")
  }

  @Test func clearOnATerminalAsks() throws {
    let sandbox = try CLISandbox()
    #expect(try sandbox.run(["saved", "add", "--manifest", "m.json", "Cantarell"]).status == 0)
    let before = try #require(sandbox.read("m.json"))
    let declined = try sandbox.runOnTerminal(
      ["saved", "clear", "--manifest", "m.json"], typing: "n\n")
    #expect(declined.status == 0, "\(declined)")
    #expect(declined.stderr.contains("Remove all 1 saved font from m.json? [y/N]"))
    #expect(declined.stdout == "Nothing removed.\n")
    #expect(sandbox.read("m.json") == before)

    let accepted = try sandbox.runOnTerminal(
      ["saved", "clear", "--manifest", "m.json"], typing: "yes\n")
    #expect(accepted.status == 0, "\(accepted)")
    #expect(accepted.stdout == "Removed 1 saved font.\n")
    #expect(try manifest(sandbox, "m.json").isEmpty)
  }

  static let damaged: [(name: String, text: String, message: String)] = [
    ("truncated", "{\n  \"saved\" : [\n    {\n      \"cus", "is not valid JSON (it ends early"),
    ("empty", "", "is empty"),
    ("foreign", "{\"name\": \"package\", \"dependencies\": {}}", "'version' is missing"),
    ("newer", "{\"version\": 3, \"saved\": []}", "was written by a newer fonti-batch"),
  ]

  @Test(arguments: damaged.indices)
  func everyCommandRefusesADamagedManifestAndLeavesIt(_ index: Int) throws {
    let bad = Self.damaged[index]
    let sandbox = try CLISandbox()
    try sandbox.write("output/favourites.json", bad.text)
    let before = try #require(sandbox.read("output/favourites.json"))
    let commands: [[String]] = [
      ["saved"], ["saved", "--json"], ["saved", "add", "Cantarell"],
      ["saved", "remove", "Cantarell"], ["saved", "clear", "--yes"], ["saved", "clear"],
    ]
    for command in commands {
      let result = try sandbox.run(command)
      #expect(result.status == 2, "\(bad.name) \(command): \(result)")
      #expect(result.stdout.isEmpty, "\(bad.name) \(command)")
      #expect(
        result.stderr.hasPrefix("fonti-batch: error: output/favourites.json"),
        "\(bad.name) \(command): \(result.stderr)")
      #expect(result.stderr.contains(bad.message), "\(bad.name) \(command): \(result.stderr)")
      #expect(sandbox.read("output/favourites.json") == before, "\(bad.name) \(command)")
    }
    #expect(sandbox.list(sandbox.path("output")).filter { $0.hasSuffix(".tmp") }.isEmpty)
  }

  @Test func defaultManifestIsOutputFavouritesJSON() throws {
    let sandbox = try CLISandbox()
    let add = try sandbox.run(["favourites", "add", "Cantarell"], environment: Self.epoch)
    #expect(add.status == 0, "\(add)")
    #expect(try manifest(sandbox, "output/favourites.json").families == ["Cantarell"])
    // The lock file is hidden beside the manifest.
    #expect(sandbox.list(sandbox.path("output")) == [".favourites.json.lock", "favourites.json"])
  }

  @Test func usageErrors() throws {
    let sandbox = try CLISandbox()
    let typo = try sandbox.run(["saved", "ad", "Cantarell"])
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("unknown command 'saved ad' (did you mean 'saved add'?)"))
    let missing = try sandbox.run(["saved", "add"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("missing FAMILY..."))
    let extra = try sandbox.run(["saved", "clear", "now"])
    #expect(extra.status == 2)
    #expect(extra.stderr.contains("unexpected argument 'now'"))
    let help = try sandbox.run(["saved", "clear", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("--yes"))
  }

  @Test func eightProcessesAddingAtOnceAllLand() throws {
    let sandbox = try CLISandbox()
    let hebrew = try Repository.font("NotoSansHebrew-Regular.ttf")
    try FileManager.default.createDirectory(
      atPath: sandbox.library, withIntermediateDirectories: true)
    let names = (1...8).map { "Noto Sans Test0\($0)" }
    for (i, name) in names.enumerated() {
      let font = try FontBytes.renamingFamily(hebrew, from: "Noto Sans Hebrew", to: name)
      try font.write(to: URL(fileURLWithPath: sandbox.library + "/test\(i).ttf"))
    }
    let running = try names.map {
      try sandbox.start(["saved", "add", "--manifest", "shared/favourites.json", $0])
    }
    let results = try running.map { try $0.finish() }
    for result in results { #expect(result.status == 0, "\(result)") }
    let saved = try manifest(sandbox, "shared/favourites.json")
    #expect(Set(saved.families) == Set(names))
    #expect(saved.saved.allSatisfy { $0.custom })
    #expect(
      sandbox.list(sandbox.path("shared")) == [".favourites.json.lock", "favourites.json"])
  }
}
