import Foundation
import Testing

/// The smaller defects of issue #46, each end to end.
@Suite(.serialized) struct SmallerDefectsTests {
  /// Two families that set the sample text, small PNGs, no catalogue.
  static let job = RunOutputsTests.quiet

  func sandbox(_ job: String = SmallerDefectsTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-defects")
    try box.write("specimens.yaml", job)
    return box
  }

  /// The site's own `index.html` stops the run before anything is drawn (exit 2), as every
  /// file of the user's does (`UserFilesTests`).
  @Test func anIndexPageTheRunDidNotWriteIsNotReplaced() throws {
    let box = try sandbox()
    try box.write("output/index.html", "<html>the site's own page</html>")
    let first = try box.run(["run", "-q"])
    #expect(first.status == 2, "\(first)")
    #expect(first.stderr.contains("is not a file this folder's manifest.json records"), "\(first)")
    #expect(first.stderr.contains("hint: move it away"), "\(first)")
    #expect(box.read("output/index.html") == Data("<html>the site's own page</html>".utf8))
    #expect(box.read("output/specimens/dejavu-serif.png") == nil, "nothing is drawn")
    #expect(box.read("output/manifest.json") == nil)

    try FileManager.default.removeItem(atPath: box.path("output/index.html"))
    #expect(try box.run(["run", "-q"]).status == 0)
    let page = try #require(box.read("output/index.html"))
    #expect(String(decoding: page, as: UTF8.self).contains("DejaVu Serif"))
    // A page edited after the run is the user's too.
    try box.write("output/index.html", String(decoding: page, as: UTF8.self) + "<!-- mine -->")
    let edited = try box.run(["run", "--force", "-q"])
    #expect(edited.status == 2, "\(edited)")
    #expect(
      String(decoding: try #require(box.read("output/index.html")), as: UTF8.self)
        .hasSuffix("<!-- mine -->"))
  }

  @Test func verboseNamesTheGalleryPageWhenItIsLeftTheSame() throws {
    let box = try sandbox()
    let first = try box.run(["run", "-v"])
    #expect(first.stderr.contains("wrote   index.html"), "\(first)")
    let again = try box.run(["run", "-v", "--force"])
    #expect(again.status == 0)
    #expect(again.stderr.contains("same    index.html"), "\(again)")
  }

  @Test func renderMakesTheFolderAPathEndingInASlashNames() throws {
    let box = try sandbox()
    let result = try box.run(["render", "DejaVu Serif", "-o", "shots/new/"])
    #expect(result.status == 0, "\(result)")
    #expect(box.read("shots/new/dejavu-serif.png") != nil)
    try box.write("file", "x")
    let blocked = try box.run(["render", "DejaVu Serif", "-o", "file/shots/"])
    #expect(blocked.status == 2 && blocked.stderr.contains("is a file"), "\(blocked)")
    // Without the slash the folder must exist: a missing one is a typo, not a request.
    let typo = try box.run(["render", "DejaVu Serif", "-o", "shotz/a.png"])
    #expect(typo.status == 2 && typo.stderr.contains("does not exist"), "\(typo)")
  }

  @Test func renderSuggestsAHyphenatedLanguageTag() throws {
    let box = try sandbox()
    let result = try box.run(["render", "DejaVu Serif", "--language", "en_GB"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("did you mean 'en-GB'?"), "\(result)")
  }

  @Test func aWholeNumberOptionIsWrittenAsOne() throws {
    let box = try sandbox()
    for text in ["1e3", "2.0", "0x10"] {
      let result = try box.run(["diff", "a", "b", "--threshold", text])
      #expect(result.status == 2, "\(text): \(result)")
      #expect(result.stderr.contains("--threshold must be a whole number"), "\(text): \(result)")
    }
    let jobs = try box.run(["run", "-j", "1e0", "--dry-run"])
    #expect(jobs.status == 2 && jobs.stderr.contains("--jobs must be a whole number"), "\(jobs)")
  }

  @Test func familiesSaysWhenNoFamilyCanSetTheLanguages() throws {
    let box = try sandbox()
    let none = try box.run(["families", "--lang", "ja"])
    #expect(none.status == 1, "\(none)")
    #expect(none.stdout.isEmpty)
    #expect(none.stderr == "fonti-batch: no family can set every language of 'ja'\n", "\(none)")
    let json = try box.run(["families", "--lang", "ja", "--json"])
    #expect(json.status == 1)
    let list = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [Any]
    #expect(list?.isEmpty == true, "\(json)")
    let some = try box.run(["families", "--lang", "he"])
    #expect(some.status == 0 && some.stdout.contains("Noto Sans Hebrew"), "\(some)")
  }

  /// A name of wide (CJK) characters takes two cells a character: the columns after it line up.
  @Test func theFamiliesTableLinesUpAfterWideNames() throws {
    let box = try sandbox()
    let font = Repository.fixtures + "/WideNames/WideName.ttf"
    let result = try box.run(["families", "--fonts", font])
    #expect(result.status == 0, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let wide = try #require(lines.first { $0.hasPrefix("明朝テスト") }, "\(lines)")
    let latin = try #require(lines.first { $0.hasPrefix("DejaVu Serif") })
    func cells(before column: String, in line: String) -> Int? {
      guard let range = line.range(of: column) else { return nil }
      return String(line[..<range.lowerBound]).unicodeScalars.reduce(0) {
        $0 + ((0x3000...0x9FFF).contains($1.value) ? 2 : 1)
      }
    }
    #expect(cells(before: "face", in: wide) != nil)
    #expect(cells(before: "face", in: wide) == cells(before: "face", in: latin), "\(lines)")
  }

  /// `saved` reads a manifest found by where it is run: it names the one it read.
  @Test func savedNamesTheManifestItRead() throws {
    let box = try sandbox()
    let empty = try box.run(["saved"])
    let path = box.path("output/favourites.json")
    #expect(empty.stderr.contains("(favourites manifest: '\(path)')"), "\(empty)")
    #expect(try box.run(["saved", "add", "Cantarell"]).status == 0)
    let list = try box.run(["saved"])
    #expect(list.stdout.hasPrefix("Cantarell"), "\(list)")
    #expect(
      list.stderr == "(favourites manifest: '\(path)', 1 saved family)\n",
      "\(list)")
    let other = try box.run(["saved", "--manifest", "elsewhere.json"])
    #expect(other.stderr.contains("'elsewhere.json'"), "\(other)")
  }

  /// merge: a folder given twice is said once; the output may not be one of the shards; a
  /// merge says it copied what the shards drew, and again into the same folder that the files
  /// are already in place.
  @Test func mergeNamesARepeatedShardOnceRefusesAShardAsOutputAndSaysWhatItCopied() throws {
    let box = try sandbox()
    for k in 1...2 {
      #expect(try box.run(["run", "-q", "-o", "s-\(k)", "--shard", "\(k)/2"]).status == 0)
    }
    let twice = try box.run(["merge", "s-1", "s-1", "s-2", "-o", "merged"])
    #expect(twice.status == 2, "\(twice)")
    #expect(twice.stderr.contains("'s-1' is given twice (also as 's-1')"), "\(twice)")
    #expect(!twice.stderr.contains("shard 1/2 is given twice"), "said once: \(twice)")

    let into = try box.run(["merge", "s-1", "s-2", "-o", "s-1/"])
    #expect(into.status == 2, "\(into)")
    #expect(into.stderr.contains("is the shard folder 's-1'"), "\(into)")
    #expect(box.read("s-1/shard.json") != nil, "the shard is left whole")

    let first = try box.run(["merge", "s-1", "s-2", "-o", "merged"])
    #expect(first.status == 0, "\(first)")
    #expect(
      first.stderr.contains("2 families: 0 rendered, 2 copied from the shards, 0 up to date"),
      "\(first)")
    let again = try box.run(["merge", "s-1", "s-2", "-o", "merged", "-v"])
    #expect(again.status == 0, "\(again)")
    #expect(
      again.stderr.contains("2 families: 0 rendered, 2 already in place, 0 up to date"),
      "\(again)")
    #expect(again.stderr.contains("same    specimens/cantarell.png"), "\(again)")
    #expect(!again.stderr.contains("wrote   specimens/"), "\(again)")
  }

  @Test func diffQuietPrintsOnlyErrors() throws {
    let box = try sandbox()
    let fixtures = Repository.fixtures + "/Diff"
    let loud = try box.run(["diff", fixtures + "/base", fixtures + "/changed", "-o", "loud"])
    #expect(loud.status == 0 && loud.stderr.contains("changed"), "\(loud)")
    let quiet = try box.run(["diff", fixtures + "/base", fixtures + "/changed", "-o", "q", "-q"])
    #expect(quiet.status == 0, "\(quiet)")
    #expect(quiet.stderr.isEmpty, "\(quiet)")
    #expect(box.read("q/diff.json") != nil, "the review is written all the same")
    let exit = try box.run(
      ["diff", fixtures + "/base", fixtures + "/changed", "-o", "q", "-q", "--exit-code"])
    #expect(exit.status == 1 && exit.stderr.isEmpty, "\(exit)")
  }

  /// Two versions of one face (files that differ, here by trailing bytes) are both kept, with
  /// a warning that only one of them is drawn.
  @Test func importingASecondVersionOfAFaceWarns() throws {
    let box = try sandbox()
    let font = try Repository.font("Cantarell-Regular.otf")
    try box.write("v1/Cantarell-Regular.otf", font)
    try box.write("v2/Cantarell-Regular.otf", font + Data([0, 0, 0, 0]))
    let first = try box.run(["fonts", "import", "v1/Cantarell-Regular.otf"])
    #expect(first.status == 0 && !first.stderr.contains("versions"), "\(first)")
    let second = try box.run(["fonts", "import", "v2/Cantarell-Regular.otf"])
    #expect(second.status == 0, "\(second)")
    #expect(
      second.stderr.contains(
        "the font library now holds 2 versions of 'Cantarell' Regular: 'Cantarell-Regular-2.otf', "
          + "'Cantarell-Regular.otf'; fontconfig draws only one of them"), "\(second)")
    // The same bytes again are not a second version.
    let same = try box.run(["fonts", "import", "v1/Cantarell-Regular.otf"])
    #expect(same.stdout.contains("already in the library"), "\(same)")
  }
}
