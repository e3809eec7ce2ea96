import FontiSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The web gallery every run writes (issue #19, phase 2): thumbnails made by the workers and
/// listed with their family, `index.html` made from the final manifest and written only when it
/// changes, `gallery: false`, outputs no longer made, `--only`, thumbnails made again from the
/// specimens on disk, the catalogue page of each family, the `diff` review beside the outputs.
@Suite(.serialized) struct GalleryRunTests {
  /// RunOutputsTests' job: four families, one pairing sheet, catalogue.pdf and saved.pdf.
  static let job = RunOutputsTests.job
  static let slugs = ["cantarell", "d050000l", "dejavu-serif", "noto-sans-hebrew"]

  func sandbox(_ job: String = GalleryRunTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-gallery")
    try box.write("specimens.yaml", job)
    return box
  }

  func manifest(_ box: CLISandbox) throws -> [String: Any] {
    let data = try #require(box.read("output/manifest.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// Each family's `files` paths, by family name.
  func files(_ box: CLISandbox) throws -> [String: [[String: Any]]] {
    let families = try #require(try manifest(box)["families"] as? [[String: Any]])
    var out: [String: [[String: Any]]] = [:]
    for f in families {
      out[try #require(f["family"] as? String)] = f["files"] as? [[String: Any]] ?? []
    }
    return out
  }

  /// Modification time in nanoseconds, or nil when the file does not exist.
  func mtime(_ box: CLISandbox, _ relative: String) -> Int64? {
    FileStamp.state(box.path(relative))?.mtimeNs
  }

  /// The cards of `index.html`: the `href` of each card's name link, in order.
  func cards(_ box: CLISandbox) throws -> [String] {
    let html = String(decoding: try #require(box.read("output/index.html")), as: UTF8.self)
    return html.components(separatedBy: "<li class=\"card\"").dropFirst().compactMap { card in
      guard let start = card.range(of: "<h2"),
        let href = card[start.upperBound...].range(
          of: "href=\"")
      else { return nil }
      return String(card[href.upperBound...].prefix { $0 != "\"" })
    }
  }

  @Test func aRunWritesTheGalleryWithOneThumbnailPerFamily() throws {
    let box = try sandbox()
    let run = try box.run(["run"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("saved.pdf (6 pages); gallery index.html in "), "\(run)")
    #expect(box.list(box.path("output/thumbs")) == Self.slugs.map { "\($0).png" })
    // Each thumbnail is listed after its specimen, made from the same inputs, as written.
    for (family, list) in try files(box) {
      #expect(list.count == 2, "\(family)")
      let specimen = list[0]
      let thumb = list[1]
      let slug = try #require((specimen["path"] as? String)?.dropFirst("specimens/".count))
      #expect(thumb["path"] as? String == "thumbs/\(slug)")
      #expect(thumb["inputs"] as? String == specimen["inputs"] as? String)
      let bytes = try #require(box.read("output/thumbs/\(slug)"))
      #expect(thumb["sha256"] as? String == SHA256.hex([UInt8](bytes)))
      #expect(thumb["size"] as? Int == bytes.count)
    }
    // The page: one card per family, in the manifest's order, with its thumbnail; recorded.
    let page = try #require(box.read("output/index.html"))
    let html = String(decoding: page, as: UTF8.self)
    #expect(try cards(box) == Self.slugs.map { "specimens/\($0).png" })
    for slug in Self.slugs {
      #expect(html.contains("src=\"thumbs/\(slug).png\" width=\"256\" height=\"256\""), "\(slug)")
    }
    let gallery = try #require(try manifest(box)["gallery"] as? [String: Any])
    #expect(gallery["file"] as? String == "index.html")
    #expect(gallery["sha256"] as? String == SHA256.hex([UInt8](page)))
    // Each family's page in each catalogue, as the manifest records it.
    // (DejaVu Serif: page 8 of the first catalogue, after the proof pages of the families
    // before it, D050000L's proofs finding nothing; page 3 of the second.)
    #expect(html.contains("\"c\":[[0,8],[1,3]],\"l\":"))
  }

  @Test func catalogueEntriesRecordEachFamilysRealPage() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let catalogues = try #require(try manifest(box)["catalogues"] as? [[String: Any]])
    let catalogue = try #require(catalogues.first { $0["file"] as? String == "catalogue.pdf" })
    let families = try #require(catalogue["families"] as? [[String: Any]])
    #expect(
      families.map { $0["family"] as? String } == [
        "Cantarell", "D050000L", "DejaVu Serif", "Noto Sans Hebrew",
      ])
    let pages = families.compactMap { $0["page"] as? Int }
    // Each family page is followed by its proof pages (on by default), but D050000L's: its
    // proofs find nothing to show.
    #expect(pages == [3, 7, 8, 11])
    let saved = try #require(catalogues.first { $0["file"] as? String == "saved.pdf" })
    #expect(
      (saved["families"] as? [[String: Any]])?.map { $0["family"] as? String } == ["DejaVu Serif"])
    // The page really is the family's: its name is on it, and not on the page before.
    guard SystemTool.path("pdftotext") != nil else { return }
    for (entry, page) in zip(families, pages) {
      let name = try #require(entry["family"] as? String)
      let text = try SystemTool.pdfText(box.path("output/catalogue.pdf"), page: page) ?? ""
      #expect(text.contains(name), "\(name) on page \(page)")
    }
  }

  @Test func anUnchangedReRunRewritesNeitherThePageNorTheThumbnails() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let files = ["output/index.html"] + Self.slugs.map { "output/thumbs/\($0).png" }
    let before = files.map { mtime(box, $0) }
    let again = try box.run(["run", "-v"])
    #expect(again.status == 0, "\(again)")
    let wrote = again.stderr.split(separator: "\n").filter { $0.hasPrefix("wrote ") }
    #expect(wrote == ["wrote   manifest.json"], "\(again)")
    #expect(files.map { mtime(box, $0) } == before)
    #expect(again.stderr.contains("; gallery index.html in "))
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.stderr.contains("everything is up to date (12 files in "), "\(dry)")
  }

  /// The manifest records the page's size and time, as it does each file's: a re-run that finds
  /// them as recorded does not read the page again. A manifest from before records no time, and
  /// a touched page another one: the page is then read once, kept, and its time recorded.
  @Test func theManifestRecordsThePagesTimeAndKeepsItUpToDate() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    func recorded() throws -> (mtimeNs: Int64?, size: Int?) {
      let gallery = try #require(try manifest(box)["gallery"] as? [String: Any])
      return ((gallery["mtimeNs"] as? NSNumber)?.int64Value, gallery["size"] as? Int)
    }
    let size = try #require(box.read("output/index.html")).count
    let written = try #require(mtime(box, "output/index.html"))
    #expect(try recorded() == (written, size))
    #expect(try box.run(["run", "-q"]).status == 0)
    #expect(try recorded() == (written, size))

    // A manifest without the page's time (an earlier version's).
    let text = String(decoding: try #require(box.read("output/manifest.json")), as: UTF8.self)
    let line = "    \"mtimeNs\" : \(written),\n"
    #expect(text.contains("\"gallery\" : {\n    \"file\" : \"index.html\",\n    \"inputs\""))
    try box.write("output/manifest.json", text.replacingOccurrences(of: line, with: ""))
    #expect(try recorded().mtimeNs == nil)
    #expect(try box.run(["run", "-q"]).status == 0)
    #expect(try recorded() == (written, size))
    #expect(mtime(box, "output/index.html") == written)

    // The page touched: the same bytes, kept, its new time recorded.
    var times = [
      timespec(tv_sec: 1_900_000_000, tv_nsec: 5), timespec(tv_sec: 1_900_000_000, tv_nsec: 5),
    ]
    #expect(utimensat(AT_FDCWD, box.path("output/index.html"), &times, 0) == 0)
    let touched: Int64 = 1_900_000_000 * 1_000_000_000 + 5
    #expect(try box.run(["run", "-q"]).status == 0)
    #expect(mtime(box, "output/index.html") == touched)
    #expect(try recorded() == (touched, size))
  }

  @Test func galleryFalseWritesNoneAndRemovesAPreviousGallery() throws {
    let off = Self.job + "gallery: false\n"
    let fresh = try sandbox(off)
    let first = try fresh.run(["run"])
    #expect(first.status == 0, "\(first)")
    #expect(!first.stderr.contains("; gallery"), "\(first)")
    #expect(fresh.read("output/index.html") == nil)
    #expect(!FileManager.default.fileExists(atPath: fresh.path("output/thumbs")))
    #expect(try manifest(fresh)["gallery"] == nil)
    #expect(try files(fresh).values.allSatisfy { $0.count == 1 })

    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    try box.write("specimens.yaml", off)
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.stdout.contains("remove      index.html"), "\(dry)")
    #expect(dry.stdout.contains("remove      thumbs/cantarell.png"), "\(dry)")
    let run = try box.run(["run", "-v"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("removed index.html"), "\(run)")
    #expect(run.stderr.contains("removed 5 old outputs"), "\(run)")
    #expect(box.read("output/index.html") == nil)
    #expect(!FileManager.default.fileExists(atPath: box.path("output/thumbs")))
    #expect(try manifest(box)["gallery"] == nil)
    #expect(try files(box).values.allSatisfy { $0.count == 1 })
    // Nothing was drawn again to get there.
    #expect(run.stderr.contains("4 families: 0 rendered, 4 up to date"), "\(run)")

    // A page the user changed is theirs: left alone.
    try box.write("specimens.yaml", Self.job)
    #expect(try box.run(["run", "-q"]).status == 0)
    try box.write("output/index.html", "<p>my own page</p>")
    try box.write("specimens.yaml", off)
    #expect(try box.run(["run", "-q"]).status == 0)
    #expect(box.read("output/index.html") == Data("<p>my own page</p>".utf8))
  }

  @Test(arguments: ["gallery: null", "gallery: ~", "gallery: maybe", "gallery: [true]"])
  func galleryIsTrueOrFalse(line: String) throws {
    let box = try sandbox(Self.job + line + "\n")
    let run = try box.run(["run"])
    #expect(run.status == 2, "\(run)")
    #expect(
      run.stderr.contains("error: specimens.yaml:19:10: gallery must be true or false"), "\(run)")
    #expect(!FileManager.default.fileExists(atPath: box.path("output")))
  }

  @Test func aFamilyNoLongerSelectedLosesItsThumbnailAndCard() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    try box.write(
      "specimens.yaml",
      Self.job.replacingOccurrences(
        of: "exclude: [\"Noto Sans Bengali\"]", with: "exclude: [\"Noto Sans Bengali\", Cantarell]"
      ).replacingOccurrences(
        of: "extra:\n    - { heading: Cantarell, body: DejaVu Serif }", with: "extra: []"))
    let run = try box.run(["run", "-v"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("removed thumbs/cantarell.png"), "\(run)")
    #expect(box.read("output/thumbs/cantarell.png") == nil)
    #expect(try cards(box) == Self.slugs.dropFirst().map { "specimens/\($0).png" })
    // (The curated pairing sheet with DejaVu Serif stays: Cantarell is named as its partner.)
    let html = String(decoding: try #require(box.read("output/index.html")), as: UTF8.self)
    #expect(!html.contains("thumbs/cantarell.png") && !html.contains("specimens/cantarell.png"))
  }

  @Test func onlyKeepsEveryCard() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    try box.write(
      "specimens.yaml", Self.job.replacingOccurrences(of: "size: 48", with: "size: 40"))
    let run = try box.run(["run", "--only", "dejavu*", "-v"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("wrote   thumbs/dejavu-serif.png"), "\(run)")
    #expect(!run.stderr.contains("wrote   thumbs/cantarell.png"), "\(run)")
    #expect(try cards(box) == Self.slugs.map { "specimens/\($0).png" })
    #expect(try files(box).values.allSatisfy { $0.count == 2 })
    for slug in Self.slugs { #expect(box.read("output/thumbs/\(slug).png") != nil) }
  }

  @Test func thumbnailsAreMadeAgainFromTheSpecimensWithoutDrawingThem() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let thumbs = Self.slugs.map { box.read("output/thumbs/\($0).png") }
    let specimens = Self.slugs.map { mtime(box, "output/specimens/\($0).png") }
    try FileManager.default.removeItem(atPath: box.path("output/thumbs"))
    let dry = try box.run(["run", "--dry-run"])
    #expect(dry.stdout.contains("up to date  specimens/cantarell.png"), "\(dry)")
    #expect(dry.stdout.contains("render      thumbs/cantarell.png"), "\(dry)")
    let run = try box.run(["run", "-v"])
    #expect(run.status == 0, "\(run)")
    for slug in Self.slugs {
      #expect(run.stderr.contains("wrote   thumbs/\(slug).png"), "\(run)")
      #expect(!run.stderr.contains("wrote   specimens/\(slug).png"), "\(run)")
    }
    #expect(run.stderr.contains("4 families: 0 rendered, 4 up to date"), "\(run)")
    #expect(Self.slugs.map { mtime(box, "output/specimens/\($0).png") } == specimens)
    // The same pixels as those made from the drawn image.
    #expect(Self.slugs.map { box.read("output/thumbs/\($0).png") } == thumbs)
    #expect(try files(box).values.allSatisfy { $0.count == 2 })
    // And the next run finds them up to date: it writes nothing, its manifest being the last
    // one but for its duration.
    let again = try box.run(["run", "-v"])
    #expect(
      again.stderr.split(separator: "\n").filter { $0.hasPrefix("wrote ") }.isEmpty, "\(again)")
    #expect(again.stderr.contains("same    manifest.json"), "\(again)")
  }

  @Test func anOutputFolderFromBeforeTheGalleryGetsItsThumbnails() throws {
    let box = try sandbox(Self.job + "gallery: false\n")
    #expect(try box.run(["run", "-q"]).status == 0)
    try box.write("specimens.yaml", Self.job)
    let run = try box.run(["run", "-v"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("4 families: 0 rendered, 4 up to date"), "\(run)")
    #expect(box.list(box.path("output/thumbs")) == Self.slugs.map { "\($0).png" })
    #expect(run.stderr.contains("wrote   index.html"), "\(run)")
  }

  @Test func theDiffReviewBesideTheOutputsIsLinked() throws {
    let box = try sandbox()
    try box.write(
      "output/diff/diff.json",
      #"{"version": 1, "counts": {"added": 1, "removed": 2, "changed": 3, "unchanged": 4}}"#)
    try box.write("output/diff/diff.pdf", "%PDF-1.7")
    let run = try box.run(["run"])
    #expect(run.status == 0, "\(run)")
    let html = String(decoding: try #require(box.read("output/index.html")), as: UTF8.self)
    #expect(html.contains("href=\"diff/diff.pdf\""))
    #expect(html.contains("3 changed · 1 added · 2 removed"))

    // A broken or hostile diff.json: a warning, no link, and the page is rewritten without it.
    for broken in [
      "not json", #"{"version": 1, "counts": {"added": true}}"#,
      #"{"version": 1, "counts": {"added": -1, "removed": 0, "changed": 0, "unchanged": 0}}"#,
      #"{"version": 2}"#, String(repeating: "[", count: 100_000),
    ] {
      try box.write("output/diff/diff.json", broken)
      let again = try box.run(["run"])
      #expect(again.status == 0, "\(broken.prefix(40)): \(again)")
      #expect(again.stderr.contains("warning: gallery: 'diff/diff.json'"), "\(again)")
      let page = String(decoding: try #require(box.read("output/index.html")), as: UTF8.self)
      #expect(!page.contains("diff/diff.pdf"), "\(broken.prefix(40))")
    }
    // A FIFO under the name does not hang the run.
    try FileManager.default.removeItem(atPath: box.path("output/diff/diff.json"))
    #expect(mkfifo(box.path("output/diff/diff.json"), 0o644) == 0)
    let fifo = try box.run(["run"])
    #expect(fifo.status == 0, "\(fifo)")
  }

  /// An unchanged re-run keeps the page without making it again (its record says what it was
  /// made from), but what the page shows beyond the manifest still reaches it: a review
  /// written after the run, another `SOURCE_DATE_EPOCH`, a broken review warned about on every
  /// run.
  @Test func aKeptPageStillFollowsTheReviewAndTheDate() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let record = try #require(try manifest(box)["gallery"] as? [String: Any])
    let inputs = try #require(record["inputs"] as? String)
    #expect(inputs.count == 64)
    func page() throws -> String {
      String(decoding: try #require(box.read("output/index.html")), as: UTF8.self)
    }
    func wrotePage(_ run: CLIResult) -> Bool { run.stderr.contains("wrote   index.html") }

    let same = try box.run(["run", "-v"])
    #expect(same.status == 0 && !wrotePage(same), "\(same)")
    #expect(
      try manifest(box)["gallery"] as? [String: AnyHashable] == record as? [String: AnyHashable])

    // A review appears after the run: the next run links it.
    try box.write(
      "output/diff/diff.json",
      #"{"version": 1, "counts": {"added": 1, "removed": 0, "changed": 0, "unchanged": 0}}"#)
    try box.write("output/diff/diff.md", "# diff")
    let reviewed = try box.run(["run", "-v"])
    #expect(wrotePage(reviewed), "\(reviewed)")
    #expect(try page().contains("href=\"diff/diff.md\""))

    // Another date shows on the page.
    let dated = try box.run(["run", "-v"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    #expect(wrotePage(dated), "\(dated)")
    #expect(try page().contains("2023-11-14"))
    let kept = try box.run(["run", "-v"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    #expect(kept.status == 0 && !wrotePage(kept), "\(kept)")

    // A broken review: warned about on every run, not only the first.
    try box.write("output/diff/diff.json", "not json")
    for _ in 0..<2 {
      let broken = try box.run(["run"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
      #expect(broken.stderr.contains("warning: gallery: 'diff/diff.json'"), "\(broken)")
      #expect(try !page().contains("diff/diff.md"))
    }
  }
}
