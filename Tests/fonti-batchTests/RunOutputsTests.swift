import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a run keeps, redraws, counts and removes among a job's outputs (issue #13: `--only`,
/// outputs checked on disk, `--strict`, catalogues' families, full disks, outputs no longer
/// made, `-v`; issue #14: a manifest that cannot be written).
@Suite(.serialized) struct RunOutputsTests {
  /// RunCommandTests' job with both catalogues: four families (Cantarell, D050000L, DejaVu
  /// Serif, Noto Sans Hebrew), one pairing sheet, catalogue.pdf and saved.pdf.
  static let job = RunCommandTests.job.replacingOccurrences(
    of: "catalogues: []",
    with: "catalogues:\n  - file: catalogue.pdf\n  - { file: saved.pdf, families: saved }")

  func sandbox(_ job: String = RunOutputsTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-outputs")
    try box.write("specimens.yaml", job)
    return box
  }

  func manifest(_ box: CLISandbox) throws -> [String: Any] {
    let data = try #require(box.read("output/manifest.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func families(_ box: CLISandbox) throws -> [String] {
    let list = try #require(try manifest(box)["families"] as? [[String: Any]])
    return list.compactMap { $0["family"] as? String }
  }

  func counts(_ box: CLISandbox) throws -> [String: Int] {
    try #require(try manifest(box)["counts"] as? [String: Int])
  }

  // MARK: --only (#13 item 2)

  @Test func onlyRedrawsWhatItMatchesAndEveryOutputStaysListed() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let catalogue = try #require(box.read("output/catalogue.pdf"))
    let pages = try #require(try manifest(box)["catalogues"] as? [[String: Any]]).map {
      $0["pages"] as? Int
    }

    // Nothing is stale: nothing is drawn, nothing drops out of the manifest or the catalogues.
    let nothing = try box.run(["run", "--only", "dejavu*"])
    #expect(nothing.status == 0, "\(nothing)")
    #expect(nothing.stderr.contains("4 families: 0 rendered, 4 up to date"), "\(nothing)")
    #expect(try families(box) == ["Cantarell", "D050000L", "DejaVu Serif", "Noto Sans Hebrew"])
    #expect(box.read("output/catalogue.pdf") == catalogue)
    let after = try #require(try manifest(box)["catalogues"] as? [[String: Any]])
    #expect(after.map { $0["pages"] as? Int } == pages)
    #expect(try box.run(["run", "--dry-run"]).stderr.contains("everything is up to date"))

    // Everything is stale (a new size): --only draws DejaVu Serif, and saved.pdf (its only
    // family); catalogue.pdf shows three families --only leaves stale, so it is left as it was.
    try box.write(
      "specimens.yaml", RunOutputsTests.job.replacingOccurrences(of: "size: 48", with: "size: 40"))
    let stale = try box.run(["run", "--only", "dejavu*", "-v"])
    #expect(stale.status == 0, "\(stale)")
    #expect(
      stale.stderr.contains(
        "warning: catalogue 'catalogue.pdf' is left as it was: 3 of its families are not up to "
          + "date and --only leaves them out (Cantarell, D050000L, Noto Sans Hebrew)"), "\(stale)")
    #expect(stale.stderr.contains("wrote   specimens/dejavu-serif.png"))
    #expect(stale.stderr.contains("wrote   saved.pdf"))
    #expect(!stale.stderr.contains("wrote   catalogue.pdf"))
    #expect(!stale.stderr.contains("wrote   specimens/cantarell.png"))
    // 1 warning (catalogue-kept, the job's) and 3 notes (facts about the fonts): Noto Sans
    // Hebrew's own script, twice, and the three faces of DejaVu Serif that lack characters of
    // Book (the languages proof, on by default).
    #expect(
      stale.stderr.contains("family 'DejaVu Serif': Bold lacks 126 characters of Book"), "\(stale)")
    #expect(
      stale.stderr.contains(
        "4 families: 1 rendered, 0 up to date, 3 left out by --only, 1 warning, 3 notes; 1 pairing "
          + "sheet; "
          + "catalogue.pdf (14 pages, left as it was), saved.pdf (6 pages)"), "\(stale)")
    #expect(box.read("output/catalogue.pdf") == catalogue)
    #expect(try families(box) == ["Cantarell", "D050000L", "DejaVu Serif", "Noto Sans Hebrew"])
    let listed = try #require(try manifest(box)["catalogues"] as? [[String: Any]])
    #expect(listed.map { $0["file"] as? String } == ["catalogue.pdf", "saved.pdf"])
    // What is stale is still stale; what was drawn is up to date.
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.stdout.contains("render      catalogue.pdf"), "\(dry)")
    #expect(dry.stdout.contains("up to date  saved.pdf"), "\(dry)")
    #expect(dry.stdout.contains("render      specimens/cantarell.png"), "\(dry)")
    #expect(dry.stdout.contains("up to date  specimens/dejavu-serif.png"), "\(dry)")
    // A plain run brings the rest up to date.
    let rest = try box.run(["run"])
    #expect(rest.stderr.contains("4 families: 3 rendered, 1 up to date"), "\(rest)")
    #expect(box.read("output/catalogue.pdf") != catalogue)
  }

  @Test func anInterruptedForcedRunKeepsTheEntriesStillValid() throws {
    // Large specimens, so that each takes a while: the run is interrupted after its first file.
    let big = RunOutputsTests.job.replacingOccurrences(of: "edge: 256", with: "edge: 4096")
      .replacingOccurrences(
        of: "\n  - file: catalogue.pdf\n  - { file: saved.pdf, families: saved }", with: " []")
    let box = try sandbox(big)
    #expect(try box.run(["run", "-q"]).status == 0)
    #expect(try families(box).count == 4)
    let running = try box.start(["run", "--force", "-v", "-j", "1"])
    // Drawn again the same, each file is left as it was ("same").
    try running.waitForStderr("same    specimens/")
    kill(running.process.processIdentifier, SIGINT)
    let result = try running.finish()
    #expect(result.status == 130, "\(result)")
    // Files untouched, inputs unchanged: every entry is still valid and still listed.
    #expect(try families(box) == ["Cantarell", "D050000L", "DejaVu Serif", "Noto Sans Hebrew"])
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.stderr.contains("everything is up to date"), "\(dry)")
  }

  /// A forced run draws every file again; a file whose new bytes are the ones already on disk
  /// is left as it is (the same inode: not written, flushed or renamed again), one missing is
  /// written.
  @Test func aForcedRunLeavesWhatItDrawsTheSameAsItWas() throws {
    let box = try sandbox(RunCommandTests.job)
    #expect(try box.run(["run", "-q"]).status == 0)
    func inode(_ relative: String) -> UInt64? {
      var info = stat()
      return stat(box.path(relative), &info) == 0 ? UInt64(info.st_ino) : nil
    }
    let kept = [
      "output/specimens/cantarell.png", "output/thumbs/cantarell.png",
      "output/pairings/cantarell+dejavu-serif.png",
    ]
    let inodes = kept.map(inode)
    #expect(!inodes.contains(nil))
    // DejaVu Serif's specimen and thumbnail gone (another image in their place would be the
    // user's, never replaced: `UserFilesTests`).
    let serif = try #require(box.read("output/specimens/dejavu-serif.png"))
    let serifThumb = try #require(box.read("output/thumbs/dejavu-serif.png"))
    try FileManager.default.removeItem(atPath: box.path("output/specimens/dejavu-serif.png"))
    try FileManager.default.removeItem(atPath: box.path("output/thumbs/dejavu-serif.png"))

    let forced = try box.run(["run", "--force", "-v"])
    #expect(forced.status == 0, "\(forced)")
    #expect(forced.stderr.contains("4 rendered, 0 up to date"), "\(forced)")
    for file in kept {
      #expect(forced.stderr.contains("same    \(file.dropFirst("output/".count))"), "\(forced)")
    }
    #expect(kept.map(inode) == inodes)
    #expect(forced.stderr.contains("wrote   specimens/dejavu-serif.png"), "\(forced)")
    #expect(forced.stderr.contains("wrote   thumbs/dejavu-serif.png"), "\(forced)")
    #expect(box.read("output/specimens/dejavu-serif.png") == serif)
    #expect(box.read("output/thumbs/dejavu-serif.png") == serifThumb)
    // Nothing left under a temporary name, and every entry is valid.
    #expect(!box.list(box.path("output/specimens")).contains { $0.hasPrefix(".fonti-tmp-") })
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.stderr.contains("everything is up to date"), "\(dry)")
  }

  // MARK: Outputs checked on disk (#13 item 7)

  /// An emptied specimen (a write that never finished) is drawn again; one replaced or changed
  /// since the manifest recorded it is the user's: the run stops before drawing, names it, and
  /// leaves it. Once it is moved away, it is drawn again; one only touched is read again,
  /// found the same, and kept.
  @Test func aSpecimenEmptiedIsDrawnAgainAndOneChangedIsLeftToItsOwner() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let path = box.path("output/specimens/dejavu-serif.png")
    let original = try #require(box.read("output/specimens/dejavu-serif.png"))

    // Emptied.
    try Data().write(to: URL(fileURLWithPath: path))
    let emptied = try box.run(["run"])
    #expect(emptied.stderr.contains("4 families: 1 rendered, 3 up to date"), "\(emptied)")
    #expect(box.read("output/specimens/dejavu-serif.png") == original)

    // Replaced by another image, or the same size with other bytes: the user's.
    let cantarell = try #require(box.read("output/specimens/cantarell.png"))
    var changed = original
    changed[changed.count / 2] ^= 0xFF
    for theirs in [cantarell, changed] {
      try theirs.write(to: URL(fileURLWithPath: path))
      let refused = try box.run(["run"])
      #expect(refused.status == 2, "\(refused)")
      #expect(
        refused.stderr.contains(
          "'\(path)' is not a file this folder's manifest.json records"), "\(refused)")
      #expect(refused.stderr.contains("move it away and run again, or write elsewhere with -o"))
      #expect(
        box.read("output/specimens/dejavu-serif.png") == theirs, "the user's file was replaced")
    }
    try FileManager.default.removeItem(atPath: path)
    #expect(try box.run(["run"]).stderr.contains("1 rendered, 3 up to date"))
    #expect(box.read("output/specimens/dejavu-serif.png") == original)

    // Only touched: read again, found the same, not drawn; the manifest records the new time.
    let later = Date(timeIntervalSince1970: 2_000_000_000)
    try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
    #expect(try box.run(["run"]).stderr.contains("0 rendered, 4 up to date"))
    let list = try #require(try manifest(box)["families"] as? [[String: Any]])
    let serif = try #require(list.first { $0["family"] as? String == "DejaVu Serif" })
    let file = try #require((serif["files"] as? [[String: Any]])?.first)
    #expect(file["mtimeNs"] as? Int == 2_000_000_000 * 1_000_000_000)
    #expect(file["size"] as? Int == original.count)
    #expect(file["sha256"] as? String == sha256(original))

    // A catalogue likewise.
    try Data("%PDF-".utf8).write(to: URL(fileURLWithPath: box.path("output/catalogue.pdf")))
    let pdf = try box.run(["run", "-v"])
    #expect(pdf.status == 2, "\(pdf)")
    #expect(box.read("output/catalogue.pdf") == Data("%PDF-".utf8))
  }

  // MARK: --strict (#13 item 8)

  /// Two families that can set the sample: no warning of their own.
  static let quiet = """
    version: 1
    defaults:
      text: Sphinx of black quartz, judge my vow.
    families:
      include: [DejaVu Serif, Cantarell]
    png:
      edge: 256
    catalogues: []
    pairings:
      curated: false
    proofs:
      languages: false

    """

  @Test func strictFailsOnTheJobsKindsAndCountsEveryWarning() throws {
    let box = try sandbox(RunOutputsTests.quiet)
    #expect(try box.run(["run", "--strict", "-q"]).status == 0, "no warning, no failure")

    // A glob that matches nothing.
    try box.write(
      "specimens.yaml",
      RunOutputsTests.quiet.replacingOccurrences(of: "Cantarell]", with: "Cantarell, \"Zzz*\"]"))
    let glob = try box.run(["run", "--strict"])
    #expect(glob.status == 1, "\(glob)")
    #expect(
      glob.stderr.contains("family pattern 'Zzz*' matches no family [unmatched-pattern]"),
      "\(glob)")
    #expect(
      glob.stderr.hasSuffix(
        "fonti-batch: failing under --strict: unmatched-pattern ×1\n"),
      "\(glob)")
    #expect(try counts(box)["warnings"] == 1)
    #expect(try box.run(["run", "-q"]).status == 0, "without --strict a warning is a warning")

    // A custom font with the name of an installed family.
    try box.write("fonts/DejaVuSerif.ttf", try Repository.font("DejaVuSerif.ttf"))
    try box.write("specimens.yaml", RunOutputsTests.quiet + "fonts: [fonts]\n")
    // A fact about the fonts: recorded, and failing only when named.
    let shadow = try box.run(["run", "--strict"])
    #expect(shadow.status == 0, "\(shadow)")
    #expect(
      shadow.stderr.contains("custom family 'DejaVu Serif' has the name of an installed family"))
    #expect(try box.run(["run", "--strict=custom-overrides", "-q"]).status == 1)

    // With the languages proof, faces that lack characters of the regular face warn.
    try box.write(
      "specimens.yaml",
      RunOutputsTests.quiet.replacingOccurrences(of: "languages: false", with: "languages: true"))
    let faces = try box.run(["run", "--strict", "--force"])
    #expect(faces.status == 0, "\(faces)")
    #expect(faces.stderr.contains("warning: family 'DejaVu Serif': Bold lacks"), "\(faces)")
    #expect(faces.stderr.contains("[face-coverage]"), "\(faces)")
    #expect(try box.run(["run", "--strict=face-coverage", "-q"]).status == 1)
    #expect(try box.run(["run", "--strict=all", "-q"]).status == 1)
  }

  @Test func glyphsMissingFromTheTextsAreCountedReportedAndListed() throws {
    let box = try sandbox(
      RunOutputsTests.quiet.replacingOccurrences(
        of: "catalogues: []", with: "texts: [\"東京 tower\"]"))
    let result = try box.run(["run", "--strict"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "warning: catalogue 'catalogue.pdf': family 'DejaVu Serif' has no glyph for 2 characters of "
          + "the sample and texts (U+4EAC, U+6771), shown as boxes"), "\(result)")
    #expect(result.stderr.contains("family 'Cantarell' has no glyph for 2 characters"))
    let list = try #require(try manifest(box)["families"] as? [[String: Any]])
    for family in list {
      #expect(family["missingCharacters"] as? [String] == ["U+4EAC", "U+6771"], "\(family)")
    }
    let catalogue = try #require((try manifest(box)["catalogues"] as? [[String: Any]])?.first)
    let missing = try #require(catalogue["missingGlyphs"] as? [String: Int])
    #expect((missing["DejaVu Serif"] ?? 0) >= 2)
    #expect(try counts(box)["warnings"] == 2)
    // The catalogue is up to date next time; its warnings still count.
    let again = try box.run(["run", "--strict"])
    #expect(again.status == 1 && again.stderr.contains("0 rendered, 2 up to date"), "\(again)")
  }

  // MARK: Catalogue families (#13 item 9)

  @Test func aCatalogueNamesFamiliesBeyondTheSelectionAndAnEmptyOneIsNotWritten() throws {
    let job = RunOutputsTests.quiet.replacingOccurrences(
      of: "[DejaVu Serif, Cantarell]", with: "[DejaVu Serif]"
    ).replacingOccurrences(
      of: "catalogues: []",
      with: """
        catalogues:
          - { file: cantarell.pdf, families: [Cantarell] }
          - { file: none.pdf, families: ["Zzz*"] }
        """)
    let box = try sandbox(job)
    let check = try box.run(["check"])
    #expect(check.status == 0, "\(check)")
    let warning =
      "specimens.yaml:10:13: catalogue 'none.pdf' has no family to show: its families match no "
      + "family that can be drawn; it is not written"
    #expect(check.stderr.contains(warning), "\(check)")

    let result = try box.run(["run"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains(warning), "\(result)")
    #expect(box.read("output/none.pdf") == nil, "no empty catalogue")
    #expect(box.list(box.path("output/specimens")) == ["dejavu-serif.png"])
    let catalogues = try #require(try manifest(box)["catalogues"] as? [[String: Any]])
    #expect(catalogues.map { $0["file"] as? String } == ["cantarell.pdf"])
    #expect((catalogues.first?["pages"] as? Int ?? 0) > 3, "cover, contents and Cantarell's page")
    if let text = try SystemTool.pdfText(box.path("output/cantarell.pdf")) {
      #expect(text.contains("Cantarell") && text.contains("1 family"), "\(text)")
    }
    #expect(try box.run(["run", "--strict", "-q"]).status == 1, "a warning under --strict")
  }

  // MARK: Full disks and folders that cannot be written (#13 item 11)

  @Test func aFullDiskIsNamedOnceAndEachKindIsCountedOnItsOwn() throws {
    let box = try sandbox(
      RunOutputsTests.job.replacingOccurrences(of: "edge: 256", with: "edge: 1080"))
    // Every specimen, the sheet and the catalogues are over the file-size limit.
    let result = try box.runLimited(fileSize: 20_000, ["run"])
    #expect(result.status == 1, "\(result)")
    let expected =
      "fonti-batch: error: cannot write in '\(box.path("output"))': File too large; not written: "
      + "4 specimens (Cantarell, D050000L, DejaVu Serif, Noto Sans Hebrew), 1 pairing sheet "
      + "(Cantarell + DejaVu Serif), 2 catalogues (catalogue.pdf, saved.pdf)\n"
    #expect(result.stderr.contains(expected), "\(result)")
    #expect(result.stderr.components(separatedBy: "File too large").count == 2, "once: \(result)")
    #expect(!result.stderr.contains("(fonts:"), "the fonts are not to blame")
    #expect(
      !result.stderr.contains("startxref"), "qpdf's view of a truncated file is not the cause")
    #expect(
      result.stderr.contains(
        "4 families: 0 rendered, 0 up to date, 4 failed; 1 pairing sheet: 1 failed; "
          + "catalogue.pdf failed, saved.pdf failed"), "\(result)")
    let c = try counts(box)
    #expect(c["families"] == 4 && c["failed"] == 4 && c["rendered"] == 0)
    #expect(c["pairings"] == 1 && c["pairingsFailed"] == 1)
    #expect(c["catalogues"] == 2 && c["cataloguesFailed"] == 2)
    for folder in ["output", "output/specimens", "output/pairings"] {
      #expect(!box.list(box.path(folder)).contains { $0.hasPrefix(".fonti-tmp-") })
    }
  }

  @Test func aFolderThatCannotBeWrittenIsNamedOnce() throws {
    let box = try sandbox()
    try FileManager.default.createDirectory(
      atPath: box.path("output/specimens"), withIntermediateDirectories: true)
    // As root, permissions do not stop writes: the tool then runs as 'nobody'.
    let asRoot = geteuid() == 0
    if asRoot {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
      try chmodTree(box.root, 0o777)
    }
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o555], ofItemAtPath: box.path("output/specimens"))
    let arguments = ["run", "-j", "2"]
    let result =
      asRoot
      ? try box.run(
        ["--reuid=65534", "--regid=65534", "--clear-groups", Repository.binary] + arguments,
        executable: "/usr/bin/setpriv")
      : try box.run(arguments)
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "error: cannot write in '\(box.path("output/specimens"))': Permission denied; not written: "
          + "4 specimens (Cantarell, D050000L, DejaVu Serif, Noto Sans Hebrew)"), "\(result)")
    #expect(result.stderr.components(separatedBy: "Permission denied").count == 2, "\(result)")
    #expect(!result.stderr.contains("(fonts:"), "\(result)")
    #expect(result.stderr.contains("4 families: 0 rendered, 0 up to date, 4 failed, "), "\(result)")
    #expect(result.stderr.contains("; 1 pairing sheet; catalogue.pdf (14 pages)"), "\(result)")
    #expect(box.read("output/catalogue.pdf") != nil, "the rest is written")
  }

  // MARK: Outputs no longer made (#13 item 15)

  @Test func outputsOfFamiliesNoLongerSelectedAreRemovedAndNothingElse() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    try box.write("output/specimens/notes.png", "the user's")
    try box.write("output/specimens/README", "the user's")
    // --only unselects nothing.
    #expect(try box.run(["run", "--only", "cantarell", "-q"]).status == 0)
    #expect(box.list(box.path("output/specimens")).count == 6)

    // Cantarell leaves the job: its specimen and its pairing sheet go, and nothing else.
    try box.write(
      "specimens.yaml",
      RunOutputsTests.job.replacingOccurrences(
        of: "exclude: [\"Noto Sans Bengali\"]", with: "exclude: [\"Noto Sans Bengali\", Cantarell]"
      ).replacingOccurrences(
        of: "pairings:\n  extra:\n    - { heading: Cantarell, body: DejaVu Serif }\n",
        with: "pairings:\n  curated: false\n"))
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.stdout.contains("remove      specimens/cantarell.png"), "\(dry)")
    #expect(dry.stdout.contains("remove      pairings/cantarell+dejavu-serif.png"), "\(dry)")
    #expect(box.read("output/specimens/cantarell.png") != nil, "a dry run removes nothing")
    let result = try box.run(["run", "-v"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("removed specimens/cantarell.png"), "\(result)")
    #expect(result.stderr.contains("removed thumbs/cantarell.png"), "\(result)")
    #expect(result.stderr.contains("removed 3 old outputs"), "\(result)")
    #expect(
      box.list(box.path("output/specimens")) == [
        "README", "d050000l.png", "dejavu-serif.png", "notes.png", "noto-sans-hebrew.png",
      ])
    #expect(box.list(box.path("output/pairings")).isEmpty)
    #expect(try families(box) == ["D050000L", "DejaVu Serif", "Noto Sans Hebrew"])
  }

  @Test func aHostileManifestCannotRemoveAnythingElse() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let victims = [
      "victim.txt", "output/favourites.json", "output/specimens/user.png", "output/theirs.pdf",
      "specimens.yaml",
    ]
    for victim in victims where box.read(victim) == nil { try box.write(victim, "keep me") }
    var m = try manifest(box)
    var list = try #require(m["families"] as? [[String: Any]])
    func entry(_ path: String, sha: String) -> [String: Any] {
      [
        "family": "Evil \(path)", "slug": "evil", "custom": false, "saved": false,
        "styles": [String](), "bold": false, "italic": false, "missingGlyphs": 0,
        "warnings": [String](),
        "files": [["path": path, "sha256": sha]],
      ]
    }
    func sha(_ relative: String) throws -> String { sha256(try #require(box.read(relative))) }
    list += [
      entry("../victim.txt", sha: try sha("victim.txt")),
      entry("../specimens.yaml", sha: try sha("specimens.yaml")),
      entry(box.path("victim.txt"), sha: try sha("victim.txt")),
      entry("favourites.json", sha: try sha("output/favourites.json")),
      entry("specimens/../../victim.txt", sha: try sha("victim.txt")),
      // Listed as ours, but not the file recorded: the user's now.
      entry("specimens/user.png", sha: String(repeating: "0", count: 64)),
      entry("theirs.pdf", sha: String(repeating: "0", count: 64)),
    ]
    m["families"] = list
    try box.write(
      "output/manifest.json", try JSONSerialization.data(withJSONObject: m, options: [.sortedKeys]))
    let result = try box.run(["run", "-v"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("0 rendered, 4 up to date"), "the manifest was read: \(result)")
    #expect(!result.stderr.contains("removed"), "\(result)")
    for victim in victims { #expect(box.read(victim) != nil, "\(victim)") }
  }

  // MARK: -v and the summary (#13, smaller items)

  @Test func verboseNamesEachFileWrittenOnce() throws {
    let box = try sandbox()
    let result = try box.run(["run", "-v"])
    #expect(result.status == 0, "\(result)")
    let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("wrote   ") }.map {
      String($0.dropFirst(8))
    }
    #expect(
      lines.sorted() == [
        "catalogue.pdf", "index.html", "manifest.json", "pairings/cantarell+dejavu-serif.png",
        "saved.pdf",
        "specimens/cantarell.png", "specimens/d050000l.png", "specimens/dejavu-serif.png",
        "specimens/noto-sans-hebrew.png", "thumbs/cantarell.png", "thumbs/d050000l.png",
        "thumbs/dejavu-serif.png", "thumbs/noto-sans-hebrew.png",
      ], "\(result)")
    // The manifest last, but for the gallery's page, made from it.
    #expect(lines.suffix(2) == ["manifest.json", "index.html"], "written last")
    #expect(result.stderr.contains("; 1 pairing sheet; "), "\(result)")
    // An unchanged re-run writes only the manifest.
    let again = try box.run(["run", "-v"])
    #expect(
      again.stderr.split(separator: "\n").filter { $0.hasPrefix("wrote") } == [
        "wrote   manifest.json"
      ])
  }

  // MARK: A manifest that cannot be written (#14 item 2)

  @Test func aManifestThatCannotBeWrittenAfterRenderingExitsOneNamingTheFiles() throws {
    // 6,000 distinct characters no fixture font has: every family lists them all in
    // missingCharacters, so the manifest alone is over the file-size limit; the images are not.
    let ideographs = (0..<3).map { block in
      String(
        String.UnicodeScalarView(
          (0..<2000).compactMap { Unicode.Scalar(0x4E00 + block * 2000 + $0) }))
    }
    let job = RunCommandTests.job.replacingOccurrences(
      of: "catalogues: []",
      with: "catalogues: []\ntexts: [" + ideographs.map { "\"\($0)\"" }.joined(separator: ", ")
        + "]")
    let box = try sandbox(job)
    let result = try box.runLimited(fileSize: 200_000, ["run"])
    #expect(result.status == 1, "rendering went through: not 2\n\(result)")
    #expect(
      result.stderr.contains("manifest.json") && result.stderr.contains("File too large"),
      "\(result)")
    #expect(
      result.stderr.contains("hint: 9 files were written that no manifest lists: "), "\(result)")
    for file in [
      "specimens/cantarell.png", "specimens/d050000l.png", "specimens/dejavu-serif.png",
      "specimens/noto-sans-hebrew.png", "pairings/cantarell+dejavu-serif.png",
      "thumbs/cantarell.png",
    ] {
      #expect(result.stderr.contains(file), "\(file) is named")
      #expect(box.read("output/" + file) != nil)
    }
    #expect(box.read("output/manifest.json") == nil)
    // No page is made from a manifest that is not on disk.
    #expect(box.read("output/index.html") == nil)
    #expect(!result.stderr.contains("; gallery"), "\(result)")
    #expect(!box.list(box.path("output")).contains { $0.hasPrefix(".fonti-tmp-") })
  }
}

extension RunningCLI {
  /// Waits until the tool has written `text` to stderr (or has ended): a line to wait for,
  /// not a time.
  func waitForStderr(_ text: String) throws {
    while process.isRunning {
      if let data = FileManager.default.contents(atPath: stderrPath),
        String(decoding: data, as: UTF8.self).contains(text)
      {
        return
      }
      usleep(5_000)
    }
    throw CLIError(description: "the tool ended before writing '\(text)'")
  }
}

/// `chmod -R` for a sandbox a test runs as another user.
func chmodTree(_ root: String, _ mode: Int) throws {
  try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: root)
  guard let walker = FileManager.default.enumerator(atPath: root) else { return }
  for case let path as String in walker {
    try FileManager.default.setAttributes(
      [.posixPermissions: mode], ofItemAtPath: root + "/" + path)
  }
}

/// A family of more than four faces: its catalogue pages hold a weights page that names every
/// face, the manifest records that page, and the gallery's data links it.
@Suite struct WeightsPageRunTests {
  static let faces = [
    "Thin", "Thin Italic", "Extra Light", "Extra Light Italic", "Light", "Light Italic",
    "Regular", "Italic", "Medium", "Medium Italic", "Semi Bold", "Semi Bold Italic", "Bold",
    "Bold Italic", "Extra Bold", "Extra Bold Italic", "Black", "Black Italic",
  ]

  @Test func theWeightsPageIsRecordedAndLinked() throws {
    let box = try CLISandbox("fonti-weights")
    try box.write(
      "fonts/InterVariable-Subset.ttf",
      try Data(
        contentsOf: URL(
          fileURLWithPath: Repository.root + "/Tests/Fixtures/ProofFonts/InterVariable-Subset.ttf"))
    )
    try box.write(
      "specimens.yaml",
      """
      version: 1
      fonts: [fonts]
      families: { include: [Inter] }
      png: { edge: 256 }
      pairings: { curated: false }
      catalogues: [{ file: catalogue.pdf }]

      """)
    let run = try box.run(["run", "-q"])
    #expect(run.status == 0, "\(run)")
    let data = try #require(box.read("output/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let catalogues = try #require(manifest["catalogues"] as? [[String: Any]])
    let entries = try #require(catalogues.first?["families"] as? [[String: Any]])
    let inter = try #require(entries.first { $0["family"] as? String == "Inter" })
    let page = try #require(inter["page"] as? Int)
    let facesPage = try #require(inter["facesPage"] as? Int)
    #expect(facesPage > page)
    if let text = try SystemTool.pdfText(box.path("output/catalogue.pdf"), page: facesPage) {
      let lines = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
      for face in Self.faces {
        #expect(lines.contains { $0.hasPrefix(face) }, "\(face) is not on page \(facesPage)")
      }
    }
    let gallery = String(decoding: try #require(box.read("output/index.html")), as: UTF8.self)
    #expect(gallery.contains("[0,\(page),\(facesPage)]"), "the gallery's data links the page")
  }
}
