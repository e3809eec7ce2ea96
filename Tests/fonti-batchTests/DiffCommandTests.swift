import FontiSupport
import Foundation
import Testing

/// `diff` end to end: the files of a review, exit codes, --json, --exit-code, usage errors,
/// a damaged font, reproducibility, and the PDF as qpdf and poppler read it.
@Suite(.serialized) struct DiffCommandTests {
  static let fixtures = Repository.fixtures + "/Diff"

  func fixture(_ name: String) -> String { DiffCommandTests.fixtures + "/" + name }

  func json(_ box: CLISandbox, _ folder: String = "diff") throws -> [String: Any] {
    let data = try #require(box.read(folder + "/diff.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func writesTheReviewAndExitsZeroUnlessAskedToFailOnChanges() throws {
    let box = try CLISandbox("fonti-diff")
    let result = try box.run(["diff", fixture("base"), fixture("changed")])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("1 family: 1 changed, 0 added, 0 removed, 0 unchanged"))
    #expect(
      box.list(box.path("diff")) == [
        ".fonti-batch.lock", "changes", "diff.json", "diff.md", "diff.pdf",
      ])
    #expect(box.list(box.path("diff/changes")) == ["fixture-garamond.png"])

    let report = try json(box)
    #expect(report["version"] as? Int == 1)
    #expect(report["before"] as? String == fixture("base"))
    #expect(report["threshold"] as? Int == 16)
    let counts = try #require(report["counts"] as? [String: Int])
    #expect(
      counts == [
        "families": 1, "added": 0, "removed": 0, "changed": 1, "unchanged": 0, "failed": 0,
      ])
    let family = try #require((report["families"] as? [[String: Any]])?.first)
    #expect(family["status"] as? String == "changed")
    #expect(family["image"] as? String == "changes/fixture-garamond.png")
    let glyphs = try #require(family["glyphs"] as? [[String: Any]])
    #expect(glyphs.map { $0["codepoint"] as? String } == ["U+0051", "U+0052"])
    #expect(glyphs.first?["advance"] as? [Int] == [806, 846])

    // The PNG: a 1080 px square.
    let png = try #require(box.read("diff/changes/fixture-garamond.png"))
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(Array(png[16..<24]) == [0, 0, 0x04, 0x38, 0, 0, 0x04, 0x38])

    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    #expect(markdown.contains("**1 changed**"))
    #expect(markdown.contains("| Fixture Garamond | changed | 2 glyphs changed"))
    #expect(markdown.contains("feature removed: smcp"))

    let failing = try box.run([
      "diff", fixture("base"), fixture("changed"), "--exit-code", "-o", "again",
    ])
    #expect(failing.status == 1, "\(failing)")
    let same = try box.run(["diff", fixture("base"), fixture("base"), "--exit-code", "-o", "same"])
    #expect(same.status == 0, "\(same)")
    let sameReport = try json(box, "same")
    #expect((sameReport["counts"] as? [String: Int])?["unchanged"] == 1)
    #expect(
      box.list(box.path("same")) == [".fonti-batch.lock", "diff.json", "diff.md", "diff.pdf"])
  }

  /// Shaping changes alone (kerning pairs, a ligature, a contextual alternate, a mark anchor, a
  /// feature gone from one face, a legacy kern table) fail `--exit-code`, reach diff.json's
  /// `shaping` and diff.md; a copy re-saved by fontTools passes.
  @Test func shapingChangesFailExitCodeAndAReSavedCopyPasses() throws {
    let box = try CLISandbox("fonti-diff-shaping")
    let changed = try box.run(
      ["diff", fixture("shaping-before"), fixture("shaping-after"), "--exit-code"])
    #expect(changed.status == 1, "\(changed)")
    let families = try #require(try json(box)["families"] as? [[String: Any]])
    #expect(families.map { $0["status"] as? String } == ["changed", "changed"])
    let legacy = try #require((families[0]["shaping"] as? [[String: Any]])?.first)
    let kerning = try #require(legacy["kerning"] as? [String: Any])
    #expect(kerning["count"] as? Int == 1)
    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    #expect(markdown.contains("kerning (Regular): 1 pair changed: “AV” -80 → -120"))
    #expect(markdown.contains("feature removed (Italic): smcp"))
    #expect(
      box.list(box.path("diff/changes")) == ["fixture-legacy-kern.png", "fixture-shaping.png"])

    let resaved = try box.run(
      ["diff", fixture("shaping-before"), fixture("shaping-resaved"), "--exit-code", "-o", "same"])
    #expect(resaved.status == 0, "\(resaved)")
    #expect(box.list(box.path("same/changes")).isEmpty)
  }

  /// An outline whose point moved 5 units, fewer pixels than the threshold, fails
  /// `--exit-code` and is said, with its move, in diff.json, diff.md and the PDF.
  @Test func aSmallOutlineMoveFailsExitCodeAndIsSaidEverywhere() throws {
    let box = try CLISandbox("fonti-diff-nudge")
    let result = try box.run(["diff", fixture("base"), fixture("nudge-point"), "--exit-code"])
    #expect(result.status == 1, "\(result)")
    let family = try #require((try json(box)["families"] as? [[String: Any]])?.first)
    #expect(family["status"] as? String == "changed")
    let moved = try #require((family["glyphsMoved"] as? [[String: Any]])?.first)
    #expect(moved["moved"] as? Int == 5 && moved["codepoint"] as? String == "U+0052")
    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    #expect(markdown.contains("outline of U+0052 R (Regular) moved by up to 5 units"))
    #expect(box.list(box.path("diff/changes")) == ["fixture-garamond.png"])
    if let text = try SystemTool.run("pdftotext", [box.path("diff/diff.pdf"), "-"]) {
      #expect(text.output.contains("moved 5 units"), "\(text.output)")
    }
  }

  /// A named instance added or removed is set at its coordinates on the family's PDF page.
  @Test func theReviewPDFSetsAnInstanceAddedOrRemoved() throws {
    let box = try CLISandbox("fonti-diff-instance")
    for (before, after, word) in [
      ("variable", "variable-added-instance", "INSTANCE ADDED"),
      ("variable-added-instance", "variable", "INSTANCE REMOVED"),
    ] {
      let result = try box.run(["diff", fixture(before), fixture(after), "-o", word])
      #expect(result.status == 0, "\(result)")
      if let text = try SystemTool.run("pdftotext", [box.path(word + "/diff.pdf"), "-"]) {
        #expect(text.output.contains(word), "\(text.output)")
      }
    }
  }

  @Test func jsonPrintsTheFileItWrote() throws {
    let box = try CLISandbox("fonti-diff-json")
    let result = try box.run([
      "diff", fixture("variable"), fixture("variable-glyph"), "--json", "-o", "out", "-j", "1",
    ])
    #expect(result.status == 0, "\(result)")
    let written = try #require(box.read("out/diff.json"))
    #expect(Data(result.stdout.utf8) == written)
  }

  @Test func theReviewIsByteForByteReproducible() throws {
    let box = try CLISandbox("fonti-diff-reproducible")
    let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
    for folder in ["one", "two"] {
      let result = try box.run(
        ["diff", fixture("variable"), fixture("variable-instance"), "-o", folder],
        environment: environment)
      #expect(result.status == 0, "\(result)")
    }
    let files = ["diff.json", "diff.md", "diff.pdf", "changes/fixture-sans-vf.png"]
    for file in files {
      let one = try #require(box.read("one/" + file))
      #expect(one == box.read("two/" + file), "\(file) differs between runs")
    }
  }

  /// Two families a side, from the fixtures: Fixture Garamond (changed) and Fixture Sans VF (an
  /// instance moved).
  func twoFamilies(_ box: CLISandbox) throws -> (before: String, after: String) {
    let sides = [
      ("before", ["base/FixtureGaramond-Regular.otf", "variable/FixtureSansVF.ttf"]),
      ("after", ["changed/FixtureGaramond-Regular.otf", "variable-instance/FixtureSansVF.ttf"]),
    ]
    for (side, files) in sides {
      for file in files {
        let data = try #require(FileManager.default.contents(atPath: fixture(file)))
        try box.write(side + "/" + (file as NSString).lastPathComponent, data)
      }
    }
    return (box.path("before"), box.path("after"))
  }

  @Test func aWorkerThatDiesCostsOnlyItsFamily() throws {
    let box = try CLISandbox("fonti-diff-crash")
    let (before, after) = try twoFamilies(box)
    let result = try box.run(
      ["diff", before, after, "-j", "2"],
      environment: ["FONTI_WORKER_CRASH_ON": "Fixture Garamond"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "family 'Fixture Garamond' could not be compared: worker process crashed (SIGABRT) "
          + "while comparing 'Fixture Garamond' (fonts: \(before)/FixtureGaramond-Regular.otf, "
          + "\(after)/FixtureGaramond-Regular.otf)"), "\(result)")
    #expect(
      result.stderr.contains("2 families: 1 changed, 0 added, 0 removed, 0 unchanged, 1 failed"))
    let families = try #require(try json(box)["families"] as? [[String: Any]])
    #expect(families.map { $0["family"] as? String } == ["Fixture Garamond", "Fixture Sans VF"])
    #expect(families.map { $0["status"] as? String } == ["failed", "changed"])
    #expect(box.list(box.path("diff/changes")) == ["fixture-sans-vf.png"])
    // The workers' drawings are gone once the pages are drawn.
    #expect(
      box.list(box.path("diff")) == [
        ".fonti-batch.lock", "changes", "diff.json", "diff.md", "diff.pdf",
      ])
  }

  @Test func theNumberOfWorkersChangesNoByte() throws {
    let box = try CLISandbox("fonti-diff-workers")
    let (before, after) = try twoFamilies(box)
    let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
    for jobs in ["1", "2"] {
      let result = try box.run(
        ["diff", before, after, "-j", jobs, "-o", "j" + jobs], environment: environment)
      #expect(result.status == 0, "\(result)")
    }
    let files = [
      "diff.json", "diff.md", "diff.pdf", "changes/fixture-garamond.png",
      "changes/fixture-sans-vf.png",
    ]
    for file in files {
      let one = try #require(box.read("j1/" + file))
      #expect(one == box.read("j2/" + file), "\(file) differs between -j 1 and -j 2")
    }
  }

  @Test func progressShowsOnATerminal() throws {
    let box = try CLISandbox("fonti-diff-progress")
    let (before, after) = try twoFamilies(box)
    let (status, screen) = try box.runWithStderrOnTerminal(["diff", before, after, "-j", "2"])
    #expect(status == 0, "\(screen)")
    let progress = screen.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
      .map(String.init).filter { $0.hasPrefix("[") }
    #expect(progress.contains { $0.hasPrefix("[2/2]") }, "\(screen)")
    #expect(progress.allSatisfy { TerminalText.width($0) < 80 })
  }

  @Test func aRenamedFamilyIsRemovedAndAdded() throws {
    let box = try CLISandbox("fonti-diff-renamed")
    let result = try box.run(["diff", fixture("base"), fixture("renamed"), "--exit-code"])
    #expect(result.status == 1, "\(result)")
    let families = try #require(try json(box)["families"] as? [[String: Any]])
    #expect(families.map { $0["family"] as? String } == ["Fixture Antiqua", "Fixture Garamond"])
    #expect(families.map { $0["status"] as? String } == ["added", "removed"])
    #expect(box.list(box.path("diff")).contains("changes") == false)
  }

  @Test func usageErrorsNameEachSideAndWriteNothing() throws {
    let box = try CLISandbox("fonti-diff-usage")
    try box.write("empty.otf", Data())
    try box.write("notes.ttf", "not a font")
    try FileManager.default.createDirectory(
      atPath: box.path("folder"), withIntermediateDirectories: true)
    let cases: [([String], [String])] = [
      (
        ["diff", "missing", "alsomissing"],
        [
          "error: BEFORE 'missing' does not exist", "error: AFTER 'alsomissing' does not exist",
        ]
      ),
      (
        ["diff", "empty.otf", "folder"],
        [
          "error: BEFORE 'empty.otf' is empty (0 bytes)",
          "error: AFTER folder 'folder' holds no font file (.ttf, .otf, .ttc, .otc, .woff or .woff2)",
        ]
      ),
      (
        ["diff", fixture("base"), "notes.ttf"],
        [
          "error: AFTER 'notes.ttf' is not a TrueType or OpenType font"
        ]
      ),
      (["diff", fixture("base")], ["error: missing BEFORE AFTER"]),
      (["diff", fixture("base"), fixture("base"), "--threshold", "many"], ["--threshold must be"]),
      (["diff", fixture("base"), fixture("base"), "--text", ""], ["--text is empty"]),
      (
        ["diff", fixture("base"), fixture("base"), "--only", "Nothing*"],
        [
          "--only 'Nothing*' matches no family on either side"
        ]
      ),
    ]
    for (arguments, messages) in cases {
      let result = try box.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result)")
      for message in messages {
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      }
      #expect(!result.stderr.contains("Fatal error"))
    }
    #expect(box.list(box.work) == ["empty.otf", "folder", "notes.ttf"])
    // An output in the way is refused before anything is compared.
    let blocked = try box.run(["diff", fixture("base"), fixture("base"), "-o", "notes.ttf"])
    #expect(blocked.status == 2)
    #expect(blocked.stderr.contains("output 'notes.ttf' exists and is not a folder"))
  }

  @Test func aDamagedFontFailsItsFamilyExitsOneAndTheRestGoesOn() throws {
    let box = try CLISandbox("fonti-diff-damaged")
    let base = try Data(
      contentsOf: URL(fileURLWithPath: fixture("base/FixtureGaramond-Regular.otf")))
    let variable = try Data(contentsOf: URL(fileURLWithPath: fixture("variable/FixtureSansVF.ttf")))
    try box.write("before/FixtureGaramond-Regular.otf", base)
    try box.write("before/FixtureSansVF.ttf", variable)
    try box.write("after/FixtureGaramond-Regular.otf", base.prefix(base.count / 2))
    try box.write("after/FixtureSansVF.ttf", variable)
    let result = try box.run(["diff", "before", "after"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "error: family 'Fixture Garamond' could not be compared: after: font file "
          + "'after/FixtureGaramond-Regular.otf' is truncated"))
    let families = try #require(try json(box)["families"] as? [[String: Any]])
    #expect(families.map { $0["status"] as? String } == ["failed", "unchanged"])
    #expect((families.first?["error"] as? String)?.contains("is truncated") == true)
    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    #expect(markdown.contains("**1 failed**"))
  }

  @Test func theReviewPDFIsCleanSearchableAndLinked() throws {
    let box = try CLISandbox("fonti-diff-pdf")
    let result = try box.run(
      ["diff", fixture("base"), fixture("changed"), "-o", "review"],
      environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    #expect(result.status == 0, "\(result)")
    let pdf = box.path("review/diff.pdf")
    let data = try #require(box.read("review/diff.pdf"))
    #expect(data.starts(with: Array("%PDF-".utf8)))
    if let check = try SystemTool.run("qpdf", ["--check", pdf]) {
      #expect(check.status == 0, "\(check.output)")
      #expect(check.output.contains("No syntax or stream encoding errors found"))
    }
    if let text = try SystemTool.run("pdftotext", [pdf, "-"]) {
      #expect(text.status == 0)
      for phrase in [
        "What changed", "Fixture Garamond", "feature removed: smcp", "x-height 400 → 420",
        "U+0052 R", "advance before", "advance after", "moved 40 units", "VERTICAL METRICS",
        "BEFORE DASHED, AFTER SOLID",
      ] {
        #expect(text.output.contains(phrase), "\(phrase) is not in the PDF's text")
      }
    }
    if let info = try SystemTool.run("pdfinfo", [pdf]) {
      #expect(info.output.contains("Pages:           3"))
      #expect(info.output.contains("Creator:         fonti-batch"))
    }
  }

  @Test func aReRunRemovesImagesOfFamiliesNoLongerChanged() throws {
    let box = try CLISandbox("fonti-diff-rerun")
    #expect(try box.run(["diff", fixture("base"), fixture("changed")]).status == 0)
    try box.write("diff/changes/mine.png", "a file of the user's")
    // What a killed review left (a process that no longer exists), and a file that is not ours.
    try box.write("diff/.fonti-tmp-4194000-abc-diff.pdf", "half a PDF")
    try box.write("diff/changes/.fonti-tmp-4194000-abc-fixture-garamond.png", "half a PNG")
    try box.write("diff/.fonti-tmp-4194000-abc-notes.txt", "not a review's file")
    #expect(box.list(box.path("diff/changes")).contains("fixture-garamond.png"))
    let again = try box.run(["diff", fixture("base"), fixture("base")])
    #expect(again.status == 0, "\(again)")
    #expect(box.list(box.path("diff/changes")) == ["mine.png"])
    #expect(
      box.list(box.path("diff")) == [
        ".fonti-batch.lock", ".fonti-tmp-4194000-abc-notes.txt", "changes", "diff.json",
        "diff.md", "diff.pdf",
      ])
  }

  @Test func helpListsTheCommand() throws {
    let box = try CLISandbox("fonti-diff-help")
    let help = try box.run(["diff", "--help"])
    #expect(help.status == 0)
    for option in [
      "--output DIR", "--only PATTERN", "--text TEXT", "--threshold PX", "--exit-code", "--json",
      "--jobs N",
    ] {
      #expect(help.stdout.contains(option), "\(option)")
    }
    let overview = try box.run(["--help"])
    #expect(overview.stdout.contains("  diff "))
  }
}
