import Foundation
import Testing

/// The smaller command-line defects of issue 13: help for a mistyped subcommand, an invalid
/// SOURCE_DATE_EPOCH, colour on a dumb terminal, `families --json` paths, `saved` beside a job
/// with a typo, and WOFF files.
struct CommandLineDetailsTests {
  /// An argument that is not UTF-8 (a folder named in Latin-1) is named as such, with its
  /// bytes escaped, not reported as a path that "does not exist" (Swift reads such bytes as
  /// U+FFFD). Given through the shell: Foundation cannot pass bytes that are not UTF-8.
  @Test func anArgumentThatIsNotUTF8IsNamed() throws {
    let box = try CLISandbox("fonti-args")
    let result = try box.run(
      [], through: ["/bin/sh", "-c", #"exec "$0" families --fonts "$(printf 'caf\351')""#])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stderr.contains(
        #"argument 'caf\xE9' is not UTF-8: fonti-batch reads paths and names as UTF-8"#),
      "\(result)")
  }

  /// Run from a folder whose name is not UTF-8, a job's relative paths stay in that folder:
  /// read as UTF-8, its name (U+FFFD for the byte) would be another folder, which the run
  /// created and wrote its output into.
  @Test func aRunFromAFolderNamedInLatin1WritesInThatFolder() throws {
    let box = try CLISandbox("fonti-cwd")
    _ = try box.write(
      "job.yaml",
      "version: 1\ntitle: Here\noutput: out\nfamilies: { include: [Cantarell] }\n"
        + "catalogues: []\ngallery: false\n")
    let script = #"""
      d=$(printf 'caf\351'); mkdir "$d" && mv job.yaml "$d/" && cd "$d" || exit 9
      "$0" run -q job.yaml || exit $?
      test -f out/specimens/cantarell.png && echo "written here"
      cd .. && ls -A | wc -l
      """#
    let result = try box.run([], through: ["/bin/sh", "-c", script])
    #expect(result.status == 0, "\(result)")
    // The specimen is in the folder, and the sandbox holds that folder and nothing else.
    #expect(result.stdout == "written here\n1\n", "\(result)")
  }

  @Test func helpForAMistypedSubcommandSuggestsTheRightOne() throws {
    let box = try CLISandbox()
    let typo = try box.run(["help", "saved", "ad"])
    #expect(typo.status == 2, "\(typo)")
    #expect(typo.stdout.isEmpty)
    #expect(typo.stderr.contains("unknown command 'saved ad' (did you mean 'saved add'?)"))
    let extra = try box.run(["help", "run", "now"])
    #expect(extra.status == 2)
    #expect(extra.stderr.contains("unknown command 'run now'"))
    let fine = try box.run(["help", "saved", "add"])
    #expect(fine.status == 0)
    #expect(fine.stdout.hasPrefix("Usage: fonti-batch saved add"))
  }

  /// `help --help` explains `help`, as every other command's `--help` does.
  @Test(arguments: ["--help", "-h"])
  func helpHasAHelpOfItsOwn(_ flag: String) throws {
    let box = try CLISandbox()
    let result = try box.run(["help", flag])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasPrefix("Usage: fonti-batch help [COMMAND]"), "\(result)")
  }

  @Test(arguments: ["abc", "-5", "1e9", "99999999999999"])
  func anInvalidSourceDateEpochIsAWarningNamingIt(_ value: String) throws {
    let box = try CLISandbox()
    let result = try box.run(
      ["saved", "add", "Cantarell"], environment: ["SOURCE_DATE_EPOCH": value])
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stderr.contains("fonti-batch: warning: SOURCE_DATE_EPOCH '\(value)' "), "\(result)")
    #expect(result.stderr.contains("it is ignored and the clock is used"))
  }

  @Test func aValidOrEmptySourceDateEpochSaysNothing() throws {
    let box = try CLISandbox()
    let valid = try box.run(
      ["saved", "add", "Cantarell"], environment: ["SOURCE_DATE_EPOCH": "1764410640"])
    #expect(valid.status == 0 && valid.stderr.isEmpty, "\(valid)")
    // Empty counts as not set. (fontconfig itself prints "SOURCE_DATE_EPOCH invalid" then.)
    let empty = try box.run(["saved", "add", "Cantarell"], environment: ["SOURCE_DATE_EPOCH": ""])
    #expect(empty.status == 0 && !empty.stderr.contains("fonti-batch: warning"), "\(empty)")
  }

  @Test func aDumbTerminalGetsNoColour() throws {
    let box = try CLISandbox()
    box.environment["NO_COLOR"] = nil
    let coloured = try box.runWithStderrOnTerminal(
      ["check", "nowhere.yaml"], environment: ["TERM": "xterm"])
    #expect(coloured.status == 2)
    #expect(coloured.screen.contains("\u{1B}["), "a colour terminal should get colour")
    let dumb = try box.runWithStderrOnTerminal(
      ["check", "nowhere.yaml"], environment: ["TERM": "dumb"])
    #expect(dumb.status == 2)
    #expect(dumb.screen.contains("error: job file 'nowhere.yaml' not found"))
    #expect(!dumb.screen.contains("\u{1B}"), "\(dumb.screen)")
  }

  @Test func familiesJSONGivesAbsolutePathsForCustomFontsToo() throws {
    let box = try CLISandbox()
    try box.write("mine/Hebrew.ttf", try Repository.font("NotoSansHebrew-Regular.ttf"))
    try box.write("mine/Bengali.ttf", try Repository.font("NotoSansBengali-Regular.ttf"))
    // A file and a folder, both given relative to the current folder.
    let result = try box.run(
      ["families", "--json", "--fonts", "mine/Hebrew.ttf", "--fonts", "./mine"])
    #expect(result.status == 0, "\(result)")
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    let files = entries.flatMap { $0["files"] as? [String] ?? [] }
    #expect(files.contains(box.path("mine/Hebrew.ttf")), "\(files)")
    #expect(files.contains(box.path("mine/Bengali.ttf")), "\(files)")
    #expect(files.allSatisfy { $0.hasPrefix("/") }, "\(files)")
  }

  @Test func savedNeedsOnlyTheJobsOutputAndManifest() throws {
    let box = try CLISandbox()
    // A typo elsewhere in the job does not stop `saved`; it uses the job's manifest.
    try box.write(
      "specimens.yaml",
      "version: 1\nsizez: [12]\noutput: out\nfavourites: { manifest: favs.json }\n")
    let add = try box.run(["saved", "add", "Cantarell"])
    #expect(add.status == 0, "\(add)")
    #expect(add.stderr.isEmpty, "\(add)")
    #expect(box.read("out/favs.json") != nil)
    // A job that cannot even give its output folder: a warning names the manifest used.
    try box.write("specimens.yaml", "version: 1\noutput: [out]\n")
    let fallback = try box.run(["saved", "add", "Cantarell"])
    #expect(fallback.status == 0, "\(fallback)")
    #expect(fallback.stderr.contains("warning: specimens.yaml:2:9: output must be a string"))
    #expect(fallback.stderr.contains("so they use output/favourites.json"))
    #expect(box.read("output/favourites.json") != nil)
  }

  @Test func webFontsThatAreNotWholeAreRefusedSayingWhy() throws {
    let box = try CLISandbox()
    try box.write("site.woff2", Data("wOF2\u{0}\u{1}\u{0}\u{0}not really".utf8))
    try box.write("site.woff", Data("wOFF\u{0}\u{1}\u{0}\u{0}not really".utf8))
    let result = try box.run(["fonts", "import", "site.woff2", "site.woff"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains("'site.woff2' is a damaged WOFF2 web font: its header is cut short"),
      "\(result)")
    #expect(
      result.stderr.contains("'site.woff' is a damaged WOFF web font: its header is cut short"),
      "\(result)")
  }
}
