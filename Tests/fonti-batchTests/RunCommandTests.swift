import Foundation
import Testing

/// `run` end to end on the fixture fonts: files, manifest, incremental re-runs, --only,
/// --dry-run, --json, failures and interruption.
@Suite(.serialized) struct RunCommandTests {
  static let job = """
    version: 1
    title: Test review
    defaults:
      text: Sphinx of black quartz, judge my vow.
      size: 48
    families:
      include: ["*"]
      exclude: ["Noto Sans Bengali"]
    favourites:
      save: [DejaVu Serif]
    png:
      edge: 256
    catalogues: []
    pairings:
      extra:
        - { heading: Cantarell, body: DejaVu Serif }

    """

  func sandbox(_ job: String = RunCommandTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-run")
    try box.write("specimens.yaml", job)
    return box
  }

  func manifest(_ box: CLISandbox) throws -> [String: Any] {
    let data = try #require(box.read("output/manifest.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func rendersEveryFamilyAndWritesTheManifestLast() throws {
    let box = try sandbox()
    let result = try box.run(["run", "-q"])
    #expect(result.status == 0, "\(result)")
    #expect(
      box.list(box.path("output/specimens")) == [
        "cantarell.png", "d050000l.png", "dejavu-serif.png", "noto-sans-hebrew.png",
      ])
    #expect(box.list(box.path("output/pairings")) == ["cantarell+dejavu-serif.png"])
    for folder in ["output", "output/specimens", "output/pairings"] {
      #expect(!box.list(box.path(folder)).contains { $0.hasPrefix(".fonti-tmp-") })
    }

    let m = try manifest(box)
    #expect(m["version"] as? Int == 1)
    #expect(m["title"] as? String == "Test review")
    let families = try #require(m["families"] as? [[String: Any]])
    #expect(
      families.map { $0["family"] as? String } == [
        "Cantarell", "D050000L", "DejaVu Serif", "Noto Sans Hebrew",
      ])
    let serif = try #require(families.first { $0["family"] as? String == "DejaVu Serif" })
    #expect(serif["saved"] as? Bool == true)
    #expect(serif["bold"] as? Bool == true && serif["italic"] as? Bool == true)
    #expect(serif["slug"] as? String == "dejavu-serif")
    let files = try #require(serif["files"] as? [[String: Any]])
    #expect(files.first?["path"] as? String == "specimens/dejavu-serif.png")
    // The checksum is the file's.
    let png = try #require(box.read("output/specimens/dejavu-serif.png"))
    #expect(files.first?["sha256"] as? String == sha256(png))
    #expect(png.count > 1000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    let cantarell = try #require(families.first { $0["family"] as? String == "Cantarell" })
    #expect(cantarell["italic"] as? Bool == false)
    let hebrew = try #require(families.first { $0["family"] as? String == "Noto Sans Hebrew" })
    #expect((hebrew["missingGlyphs"] as? Int ?? 0) > 0)
    let counts = try #require(m["counts"] as? [String: Int])
    #expect(counts["families"] == 4 && counts["rendered"] == 4 && counts["failed"] == 0)

    // The favourite was hearted, with its specimen recorded.
    let favourites = try #require(box.read("output/favourites.json"))
    let text = String(decoding: favourites, as: UTF8.self)
    #expect(text.contains("\"family\" : \"DejaVu Serif\""))
    #expect(text.contains("\"specimen\" : \"specimens/dejavu-serif.png\""))
  }

  @Test func anUnchangedReRunTouchesNothingButTheManifest() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let png = box.path("output/specimens/cantarell.png")
    let before = try FileManager.default.attributesOfItem(atPath: png)[.modificationDate] as? Date
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.status == 0)
    #expect(dry.stderr.contains("everything is up to date"), "\(dry)")
    let again = try box.run(["run"])
    #expect(again.status == 0, "\(again)")
    #expect(again.stderr.contains("0 rendered, 4 up to date"), "\(again)")
    let after = try FileManager.default.attributesOfItem(atPath: png)[.modificationDate] as? Date
    #expect(before == after)
    let counts = try #require(try manifest(box)["counts"] as? [String: Int])
    #expect(counts["skipped"] == 4 && counts["rendered"] == 0)

    // --force draws everything again.
    let forced = try box.run(["run", "--force"])
    #expect(forced.stderr.contains("4 rendered, 0 up to date"), "\(forced)")

    // A changed setting re-renders what it affects.
    try box.write(
      "specimens.yaml", RunCommandTests.job.replacingOccurrences(of: "size: 48", with: "size: 40"))
    let changed = try box.run(["run", "--dry-run"])
    #expect(changed.stdout.contains("render      specimens/cantarell.png"), "\(changed)")
    #expect(
      changed.stdout.contains("up to date  pairings/cantarell+dejavu-serif.png"), "\(changed)")
  }

  /// An unchanged re-run after another would write the manifest on disk again but for its
  /// duration: it writes nothing at all. Anything else the manifest records (here an output's
  /// time) makes it write the manifest again.
  @Test func anUnchangedReRunAfterAnotherWritesNothing() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    // The first re-run's counts are new (nothing rendered): it writes the manifest.
    let first = try box.run(["run", "-v"])
    #expect(first.stderr.contains("wrote   manifest.json"), "\(first)")
    let path = box.path("output/manifest.json")
    func identity() throws -> [FileAttributeKey: Any] {
      let a = try FileManager.default.attributesOfItem(atPath: path)
      return [
        .systemFileNumber: a[.systemFileNumber] ?? 0, .modificationDate: a[.modificationDate] ?? 0,
      ]
    }
    let before = try identity()
    let bytes = try #require(box.read("output/manifest.json"))
    Thread.sleep(forTimeInterval: 0.02)
    let again = try box.run(["run", "-v"])
    #expect(again.status == 0, "\(again)")
    #expect(again.stderr.contains("same    manifest.json"), "\(again)")
    #expect(!again.stderr.contains("wrote"), "\(again)")
    #expect(again.stderr.contains("0 rendered, 4 up to date"), "\(again)")
    let after = try identity()
    #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
    #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    #expect(box.read("output/manifest.json") == bytes)
    // --json gives this run's manifest all the same.
    let json = try box.run(["run", "-q", "--json"])
    #expect(json.status == 0 && json.stdout.contains("\"durationSeconds\""), "\(json)")

    // An output's time changed (its bytes did not): the manifest records the new time.
    let png = box.path("output/specimens/cantarell.png")
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: png)
    let touched = try box.run(["run", "-v"])
    #expect(touched.stderr.contains("wrote   manifest.json"), "\(touched)")
    #expect(touched.stderr.contains("0 rendered, 4 up to date"), "\(touched)")
    let text = String(decoding: try #require(box.read("output/manifest.json")), as: UTF8.self)
    #expect(text.contains("\"mtimeNs\" : 1600000000000000000"), "\(text.prefix(400))")

    // A manifest edited on disk is written again as the run has it.
    let edited = text.replacingOccurrences(of: "\"title\" : \"", with: "\"title\" : \"Edited ")
    #expect(edited != text)
    try box.write("output/manifest.json", edited)
    let mended = try box.run(["run", "-v"])
    #expect(mended.stderr.contains("wrote   manifest.json"), "\(mended)")
    let rewritten = try #require(box.read("output/manifest.json"))
    #expect(!String(decoding: rewritten, as: UTF8.self).contains("Edited "))
  }

  @Test func onlyJsonAndOutputOverride() throws {
    let box = try sandbox()
    let result = try box.run(["run", "--only", "dejavu*", "--json", "-o", "elsewhere", "-q"])
    #expect(result.status == 0, "\(result)")
    #expect(box.list(box.path("elsewhere/specimens")) == ["dejavu-serif.png"])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    // --only draws what it matches; the job still has its four families.
    let counts = try #require(json["counts"] as? [String: Int])
    #expect(counts["families"] == 4 && counts["rendered"] == 1)
    #expect(result.stderr.isEmpty, "\(result)")
    let none = try box.run(["run", "--only", "nothing*"])
    #expect(none.status == 2)
    #expect(none.stderr.contains("matches none of the job's families"))
  }

  @Test func aWorkerThatDiesLosesOnlyItsFamily() throws {
    let box = try sandbox()
    let result = try box.run(["run", "-q"], environment: ["FONTI_WORKER_CRASH_ON": "Cantarell"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains("family 'Cantarell' failed: worker process crashed (SIGABRT)"),
      "\(result)")
    #expect(result.stderr.contains("Cantarell-Regular.otf"), "the font file is named")
    #expect(
      !result.stderr.contains("Program crashed") && !result.stderr.contains("Backtrac"),
      "no Swift crash report reaches the user: \(result.stderr)")
    #expect(
      box.list(box.path("output/specimens")) == [
        "d050000l.png", "dejavu-serif.png", "noto-sans-hebrew.png",
      ])
    let counts = try #require(try manifest(box)["counts"] as? [String: Int])
    #expect(counts["failed"] == 1 && counts["rendered"] == 3)
    // The next run picks up the family that failed, and only that one.
    let next = try box.run(["run"])
    #expect(next.status == 0)
    #expect(next.stderr.contains("1 rendered, 3 up to date"), "\(next)")
  }

  @Test func aWorkerThatHangsIsStoppedAtTheBoundAndTheRunGoesOn() throws {
    let box = try sandbox()
    let started = Date()
    let result = try box.run(
      ["run", "-q", "-j", "1"],
      environment: ["FONTI_WORKER_HANG_ON": "Cantarell", "FONTI_ITEM_TIMEOUT": "1"])
    #expect(Date().timeIntervalSince(started) < 60, "the hang was not cut short")
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "family 'Cantarell' failed: timed out after 1 s rendering 'Cantarell'"),
      "\(result)")
    // One worker (-j 1): the families after the hung one are drawn by its replacement.
    #expect(
      box.list(box.path("output/specimens")) == [
        "d050000l.png", "dejavu-serif.png", "noto-sans-hebrew.png",
      ])
    #expect(
      box.list(box.path("output/specimens")).allSatisfy { !$0.hasPrefix(".fonti-tmp") },
      "the killed worker's temporary file stays")
    let counts = try #require(try manifest(box)["counts"] as? [String: Int])
    #expect(counts["failed"] == 1 && counts["rendered"] == 3)
  }

  @Test func aRenderThatHangsEndsAtTheBoundWithNothingWritten() throws {
    let box = try sandbox()
    let result = try box.run(
      ["render", "Cantarell", "-o", "out/"],
      environment: ["FONTI_WORKER_HANG_ON": "Cantarell", "FONTI_ITEM_TIMEOUT": "1"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr
        == "fonti-batch: error: timed out after 1 s rendering 'Cantarell'; nothing was written\n",
      "\(result)")
    #expect(box.list(box.path("out")).isEmpty, "a file was left behind")
  }

  /// A font whose colour bitmaps are damaged (B's PNG says it is 0x31000080 pixels tall, which
  /// made pixman spin for minutes), with its glyph chart on: the run ends at once, writes its
  /// specimen and catalogue, and warns of kind `proofs-unreadable`, naming the characters.
  @Test func damagedColourBitmapsCostAWarningNotTheRun() throws {
    let box = try sandbox(
      """
      version: 1
      defaults: { text: ABBA }
      families: { include: [Damaged Bitmap Test] }
      fonts: [\(Repository.fixtures)/ColourBitmaps/DamagedBitmaps.ttf]
      png: { edge: 256 }
      proofs: { glyphs: true }
      gallery: false

      """)
    let result = try box.run(["run", "-v"], environment: ["FONTI_ITEM_TIMEOUT": "30"])
    #expect(result.status == 0, "\(result)")
    #expect(box.list(box.path("output/specimens")) == ["damaged-bitmap-test.png"])
    #expect(box.list(box.path("output")).contains("catalogue.pdf"))
    #expect(
      result.stderr.contains(
        "family 'Damaged Bitmap Test': 1 damaged colour bitmap (U+0042: its PNG says "
          + "16×822083712 pixels) drawn empty in the specimen"), "\(result)")
    #expect(
      result.stderr.contains(
        "family 'Damaged Bitmap Test': 2 damaged colour bitmaps (U+0042, U+0043: its PNG says "
          + "16×822083712 pixels) drawn empty in the glyph chart"), "\(result)")
  }

  /// Colour fonts say what of their colour is drawn: `colour: {formats, palettes}` in
  /// manifest.json and `families --json` (absent for a family without colour tables), and a
  /// COLRv1 font's catalogue page and manifest entry say it is drawn in one colour
  /// (`colour-not-drawn`, a font fact).
  @Test func colourFormatsAreListedAndCOLRv1IsNotDrawnSilently() throws {
    let fonts = "\(Repository.fixtures)/ColourFonts"
    let box = try sandbox(
      """
      version: 1
      defaults: { text: ABCD }
      families: { include: [Colour Zero Test, Colour One Test, Cantarell] }
      fonts: [\(fonts)/ColourZeroTest.ttf, \(fonts)/ColourOneTest.ttf]
      png: { edge: 256 }
      gallery: false

      """)
    let result = try box.run(["run", "--strict"])
    #expect(result.status == 0, "font facts do not fail --strict: \(result)")
    let manifest = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: box.path("output/manifest.json"))))
        as? [String: Any])
    let families = try #require(manifest["families"] as? [[String: Any]])
    func entry(_ name: String) -> [String: Any]? {
      families.first { $0["family"] as? String == name }
    }
    let one = try #require(entry("Colour One Test"))
    #expect(one["colour"] as? NSDictionary == ["formats": ["colr1"], "palettes": 2])
    #expect(one["warningKinds"] as? [String] == ["colour-not-drawn"])
    #expect(
      one["warnings"] as? [String]
        == ["family 'Colour One Test': colour glyphs (COLRv1) drawn in one colour"])
    #expect(
      entry("Colour Zero Test")?["colour"] as? NSDictionary == [
        "formats": ["colr0"], "palettes": 1,
      ])
    #expect(entry("Colour Zero Test")?["warnings"] as? [String] == [])
    #expect(entry("Cantarell")?["colour"] == nil)
    let counts = try #require(manifest["counts"] as? [String: Any])
    #expect(counts["warnings"] as? Int == 0)
    #expect((manifest["warningsByKind"] as? [String: Int])?["colour-not-drawn"] ?? 0 >= 1)
    let text = try #require(try SystemTool.pdfText(box.path("output/catalogue.pdf")))
    #expect(text.contains("colour glyphs (COLRv1) drawn in one colour"), "\(text)")
    #expect(text.components(separatedBy: "drawn in one colour").count == 2, "only Colour One")

    let listing = try box.run(
      ["families", "--json", "--fonts", "\(fonts)/ColourOneTest.ttf"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]])
    let listed = try #require(entries.first { $0["family"] as? String == "Colour One Test" })
    #expect(listed["colour"] as? NSDictionary == ["formats": ["colr1"], "palettes": 2])
    #expect(
      entries.first { $0["family"] as? String == "Cantarell" }?.keys.contains("colour") == false)
  }

  @Test func aWorkerCrashIsNamedEvenWhenStartedWithSIGCHLDIgnored() throws {
    // Ignored SIGCHLD is inherited through exec (bash passes `trap '' CHLD` on; dash does not);
    // the kernel would then reap workers itself.
    let box = try sandbox()
    let result = try box.run(
      ["-c", "trap '' CHLD; exec \"$0\" run -q", Repository.binary], executable: "/bin/bash",
      environment: ["FONTI_WORKER_CRASH_ON": "Cantarell"])
    #expect(result.status == 1)
    let stderr = result.stderr
    #expect(
      stderr.contains("family 'Cantarell' failed: worker process crashed (SIGABRT)"), "\(stderr)")
  }

  @Test func aRunStartedWithoutStdinOrStdoutStillWorks() throws {
    // The parent's pipes to its workers may then take descriptors 0 and 1; the workers must
    // still get them as their own stdin and stdout (`ChildProcess`).
    let box = try sandbox()
    let result = try box.run(
      ["-c", "exec \"$0\" run -q <&- >&-", Repository.binary], executable: "/bin/sh")
    #expect(result.status == 0)
    #expect(box.list(box.path("output/specimens")).count == 4)
    #expect(box.list(box.path("output/pairings")) == ["cantarell+dejavu-serif.png"])
  }

  @Test func aRunRemovesWhatAKilledRunLeftButNotOtherCommandsFiles() throws {
    let box = try sandbox()
    // A process that has surely ended: the killed run.
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.run()
    gone.waitUntilExit()
    let dead = gone.processIdentifier
    let stale = [
      "output/specimens/.fonti-tmp-\(dead)-1-cantarell.png",
      "output/pairings/.fonti-tmp-\(dead)-2-cantarell+dejavu-serif.png",
      "output/.fonti-tmp-\(dead)-3-manifest.json",
    ]
    for path in stale { try box.write(path, "half") }
    let kept = [
      // A 'saved' command may be replacing a favourites file among the outputs right now,
      "output/.fonti-tmp-\(dead)-4-favourites.json",
      "output/specimens/.fonti-tmp-\(dead)-5-favourites.json",
      "output/.fonti-tmp-\(dead)-6-team-manifest.json",
      // and a process that is still running is never swept (this test is one).
      "output/specimens/.fonti-tmp-\(getpid())-7-cantarell.png",
    ]
    for path in kept { try box.write(path, "in progress") }
    #expect(try box.run(["run", "-q"]).status == 0)
    for path in stale { #expect(box.read(path) == nil, "\(path)") }
    for path in kept { #expect(box.read(path) != nil, "\(path)") }
  }

  /// Noto Sans Hebrew cannot set the Latin sample: its specimen shows its own script, a fact
  /// about the font (`own-script`) that `--strict` fails on only when named. A character the
  /// families lack in a sample they can set is the job's (`missing-glyphs`) and fails it.
  @Test func strictFailsOnTheJobsWarningsAndOnFontFactsWhenNamed() throws {
    let box = try sandbox()
    let plain = try box.run(["run", "--strict", "-q"])
    #expect(plain.status == 0, "own-script is a font fact: \(plain)")
    #expect(plain.stderr.isEmpty, "\(plain)")
    let named = try box.run(["run", "--strict=own-script", "-q"])
    #expect(named.status == 1, "\(named)")
    #expect(
      named.stderr
        == "fonti-batch: failing under --strict: own-script in 1 family (Noto Sans Hebrew)\n",
      "-q still says why: \(named)")
    #expect(box.read("output/specimens/noto-sans-hebrew.png") != nil, "files are still written")
    let entry = try #require(
      (try manifest(box)["families"] as? [[String: Any]])?.first {
        $0["family"] as? String == "Noto Sans Hebrew"
      })
    #expect(entry["warningKinds"] as? [String] == ["own-script"], "\(entry)")
    #expect(
      (entry["warnings"] as? [String])?.first?.contains("its specimen shows its own script")
        == true, "\(entry)")

    try box.write(
      "specimens.yaml",
      RunCommandTests.job.replacingOccurrences(of: "judge my vow.", with: "judge my vow 東."))
    let missing = try box.run(["run", "--strict"])
    #expect(missing.status == 1, "\(missing)")
    #expect(
      missing.stderr.contains(
        "warning: family 'DejaVu Serif' lacks 1 character of the sample text (U+6771; 1 box drawn) "
          + "[missing-glyphs]"), "\(missing)")
    // One family warned of by its specimen and by the catalogue counts once, by name.
    #expect(
      missing.stderr.contains(
        "failing under --strict: missing-glyphs in 2 families (Cantarell, DejaVu Serif)"),
      "\(missing)")
    let byKind = try #require(try manifest(box)["warningsByKind"] as? [String: Int])
    #expect((byKind["missing-glyphs"] ?? 0) >= 1 && (byKind["own-script"] ?? 0) >= 1, "\(byKind)")
    // Naming a kind fails on exactly it.
    #expect(try box.run(["run", "--strict=unmatched-pattern", "-q"]).status == 0)
    let typo = try box.run(["run", "--strict=missing-glyph"])
    #expect(typo.status == 2 && typo.stderr.contains("did you mean 'missing-glyphs'?"), "\(typo)")
  }

  @Test func anInvalidJobRendersNothing() throws {
    let box = try sandbox(
      RunCommandTests.job.replacingOccurrences(
        of: "save: [DejaVu Serif]", with: "save: [DejaVu Serf]"))
    let result = try box.run(["run"])
    #expect(result.status == 2)
    #expect(
      result.stderr.contains(
        "specimens.yaml:10:10: family 'DejaVu Serf' is not installed (did you mean 'DejaVu Serif'?)"
      ), "\(result)")
    #expect(box.read("output/manifest.json") == nil)
  }

  /// A job slow enough to be caught mid-run: 8192-pixel specimens at zlib 9, one worker.
  static let slowJob = RunCommandTests.job.replacingOccurrences(
    of: "edge: 256", with: "edge: 4096\n  scale: 2\n  compression: small")

  @Test func theFavouritesAreWrittenOnceAfterTheRunsManifest() throws {
    let box = try sandbox(Self.slowJob)
    let running = try box.start(["run", "-v", "-j", "1"])
    // Caught between two specimens: drawn files are on disk, the favourites not yet.
    #expect(running.waitForStderr(containing: "wrote   specimens/"), "no file was written")
    running.send(SIGSTOP)
    let during = box.read("output/favourites.json")
    let manifestDuring = box.read("output/manifest.json")
    running.send(SIGCONT)
    #expect(running.waitForExit())
    let result = try running.finish()
    #expect(result.status == 0, "\(result)")
    #expect(manifestDuring == nil, "the run had not finished: \(result)")
    #expect(during == nil, "the favourites were written before the run's manifest")
    let favourites = String(
      decoding: try #require(box.read("output/favourites.json")), as: UTF8.self)
    #expect(favourites.contains("\"specimen\" : \"specimens/dejavu-serif.png\""), "\(favourites)")
    // Once: after the manifest, by the lines -v prints in order.
    let written = result.stderr.split(separator: "\n").filter { $0.hasPrefix("wrote ") }
    // (The gallery's page follows: it is made from the run's manifest.)
    #expect(written.suffix(2) == ["wrote   manifest.json", "wrote   index.html"], "\(written)")
  }

  @Test func anInterruptedRunStillHeartsItsFavourites() throws {
    let box = try sandbox(Self.slowJob)
    let running = try box.start(["run", "-v", "-j", "1"])
    #expect(running.waitForStderr(containing: "wrote   specimens/"), "no file was written")
    running.send(SIGINT)
    #expect(running.waitForExit())
    let result = try running.finish()
    #expect(result.status == 130, "\(result)")
    let favourites = String(
      decoding: try #require(box.read("output/favourites.json")), as: UTF8.self)
    #expect(favourites.contains("\"family\" : \"DejaVu Serif\""), "\(favourites)")
    // An interrupted run records no specimen paths: the next run does.
    #expect(!favourites.contains("\"specimen\""), "\(favourites)")
  }

  @Test func anInterruptedRunLeavesOnlyWholeFiles() throws {
    let box = try sandbox(Self.slowJob)
    let running = try box.start(["run", "-j", "1"])
    // Once it draws (a specimen's file appears, under its temporary name first), interrupt.
    #expect(running.waitForFile(in: box.path("output/specimens")), "nothing was drawn")
    running.send(SIGINT)
    let result = try running.finish()
    #expect(result.status == 130, "\(result)")
    let names = box.list(box.path("output/specimens"))
    #expect(!names.contains { $0.hasPrefix(".") }, "no temporary file is left: \(names)")
    for name in names {
      let data = try #require(box.read("output/specimens/" + name))
      #expect(data.suffix(8).starts(with: [0x49, 0x45, 0x4E, 0x44]), "\(name) is a whole PNG")
    }
    // The manifest claims only finished work.
    if let data = box.read("output/manifest.json") {
      let m = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let families = try #require(m["families"] as? [[String: Any]])
      #expect(families.count == names.count)
    }
  }
}

/// SHA-256 by the system's sha256sum, independent of the tool's own implementation.
func sha256(_ data: Data) -> String {
  let file = NSTemporaryDirectory() + "sha-" + UUID().uuidString
  _ = FileManager.default.createFile(atPath: file, contents: data)
  defer { try? FileManager.default.removeItem(atPath: file) }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
  process.arguments = [file]
  let pipe = Pipe()
  process.standardOutput = pipe
  try? process.run()
  let out = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(String(decoding: out, as: UTF8.self).prefix(64))
}

/// A full disk, produced for real with a file-size limit (writes fail with EFBIG, as they would
/// with ENOSPC): every family fails clearly, nothing is left half-written, exit 1.
@Suite struct FullDiskTests {
  @Test func writesThatFailLeaveNoPartialFile() throws {
    let box = try CLISandbox("fonti-full")
    // Specimens of 1080 px are far over the limit; the manifest and favourites are under it.
    try box.write(
      "specimens.yaml",
      RunCommandTests.job.replacingOccurrences(of: "edge: 256", with: "edge: 1080"))
    let result = try box.runLimited(fileSize: 20000, ["run", "-q"])
    let stderr = result.stderr
    #expect(!result.signalled && result.status == 1, "\(stderr)")
    #expect(
      stderr.contains(
        "cannot write in '\(box.path("output"))': File too large; not written: 4 specimens"),
      "\(stderr)")
    #expect(box.list(box.path("output/specimens")).isEmpty)
    for folder in ["output", "output/specimens", "output/pairings"] {
      #expect(!box.list(box.path(folder)).contains { $0.hasPrefix(".fonti-tmp-") })
    }
    #expect(box.read("output/manifest.json") != nil, "the manifest says what failed")
  }
}

/// Catalogues in a run: drawn by one worker, finished by qpdf in a fresh one.
@Suite struct RunCatalogueTests {
  @Test func aRunWritesCleanCataloguesAndLeavesNoDrawnFileBehind() throws {
    let box = try CLISandbox("fonti-run-pdf")
    try box.write(
      "specimens.yaml",
      RunCommandTests.job.replacingOccurrences(
        of: "catalogues: []",
        with:
          "catalogues:\n  - file: catalogue.pdf\n  - { file: books/saved.pdf, families: saved, page: square }"
      ))
    let result = try box.run(["run", "-q"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    #expect(result.status == 0, "\(result)")
    let names = box.list(box.path("output")) + box.list(box.path("output/books"))
    #expect(!names.contains { $0.hasPrefix(".fonti-tmp-") }, "\(names)")
    let pdf = try #require(box.read("output/catalogue.pdf"))
    #expect(pdf.starts(with: Array("%PDF-".utf8)))
    let data = try #require(box.read("output/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let catalogues = try #require(manifest["catalogues"] as? [[String: Any]])
    #expect(catalogues.map { $0["file"] as? String } == ["catalogue.pdf", "books/saved.pdf"])
    #expect((catalogues.first?["pages"] as? Int ?? 0) >= 7, "cover, contents, 4 families, sections")
    #expect(catalogues.first?["sha256"] as? String == sha256(pdf))
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/qpdf") {
      let check = Process()
      check.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
      check.arguments = ["--check", box.path("output/catalogue.pdf")]
      check.standardOutput = FileHandle.nullDevice
      try check.run()
      check.waitUntilExit()
      #expect(check.terminationStatus == 0, "qpdf --check exits 0 only with no warning")
    }
    // Same inputs and SOURCE_DATE_EPOCH: the same bytes.
    let again = try box.run(
      ["run", "-q", "--force"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    #expect(again.status == 0)
    #expect(box.read("output/catalogue.pdf") == pdf)
  }
}
