import FontiSupport
import Foundation
import Testing

/// WOFF and WOFF2 wherever fonts are read: a job's `fonts:`, `families --fonts`, `fonts
/// import`, `diff` and `serve`. A web font is drawn exactly as the font it was made from, the
/// user's file is the one named, and a broken one is an error naming it.
@Suite struct WebFontsTests {
  static var webFonts: String { Repository.fixtures + "/WebFonts" }
  static var ttf: String { Repository.fixtures + "/ExampleFonts/DejaVuSans-Subset.ttf" }

  func fixture(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// A sandbox with the TTF in `ttf/`, its WOFF2 in `woff2/` and its WOFF in `woff/`.
  func sandbox(_ label: String) throws -> CLISandbox {
    let box = try CLISandbox(label)
    try box.write("ttf/DejaVuSans-Subset.ttf", try fixture(Self.ttf))
    for flavor in ["woff", "woff2"] {
      try box.write(
        "\(flavor)/DejaVuSans-Subset.\(flavor)",
        try fixture(Self.webFonts + "/DejaVuSans-Subset.\(flavor)"))
    }
    box.environment["SOURCE_DATE_EPOCH"] = "1700000000"
    return box
  }

  func job(_ folder: String) -> String {
    """
    version: 1
    output: out-\(folder)
    fonts: [\(folder)/]
    families: { include: ["DejaVu Sans"] }
    png: { edge: 512 }
    catalogues: []
    pairings: { curated: false }

    """
  }

  /// The specimen of a job whose `fonts:` folder holds only the WOFF2 (or the WOFF) is the
  /// specimen of the TTF, byte for byte; the decoded copy is in the sandbox's cache, named by
  /// the web font's SHA-256, and named nowhere the user reads.
  @Test func aWebFontsSpecimenIsByteIdenticalToItsTTFs() throws {
    let box = try sandbox("fonti-web-specimen")
    var specimens: [String: Data] = [:]
    for folder in ["ttf", "woff2", "woff"] {
      try box.write("\(folder).yaml", job(folder))
      let result = try box.run(["run", "-q", "\(folder).yaml"])
      #expect(result.status == 0, "\(result)")
      #expect(!result.stderr.contains("/cache/"), "\(result)")
      specimens[folder] = box.read("out-\(folder)/specimens/dejavu-sans.png")
      let manifest = String(
        decoding: box.read("out-\(folder)/manifest.json") ?? Data(), as: UTF8.self)
      #expect(!manifest.contains(box.root + "/cache"))
    }
    let ttf = try #require(specimens["ttf"])
    #expect(specimens["woff2"] == ttf, "the WOFF2's specimen is not the TTF's")
    #expect(specimens["woff"] == ttf, "the WOFF's specimen is not the TTF's")
    let woff2 = try fixture(Self.webFonts + "/DejaVuSans-Subset.woff2")
    let cached = box.root + "/cache/fonti-batch/fonts/" + SHA256.hex([UInt8](woff2)) + ".ttf"
    #expect(FileManager.default.fileExists(atPath: cached))
  }

  /// `families --fonts` lists a web font's family as custom, and its JSON names the user's file.
  @Test func familiesListsAWebFontAndNamesItsFile() throws {
    let box = try sandbox("fonti-web-families")
    let listed = try box.run(["families", "--fonts", "woff2"])
    #expect(listed.status == 0, "\(listed)")
    #expect(listed.stdout.contains("DejaVu Sans"), "\(listed)")
    let json = try box.run(["families", "--fonts", "woff2", "--json"])
    #expect(json.status == 0, "\(json)")
    #expect(json.stdout.contains("woff2/DejaVuSans-Subset.woff2"), "\(json)")
    #expect(!json.stdout.contains("/cache/"), "\(json)")
  }

  /// `fonts import` takes a WOFF2 into the library as it is, and runs find it there.
  @Test func importingAWebFontKeepsIt() throws {
    let box = try sandbox("fonti-web-import")
    let imported = try box.run(["fonts", "import", "woff2/DejaVuSans-Subset.woff2"])
    #expect(imported.status == 0, "\(imported)")
    #expect(imported.stdout.contains("DejaVu Sans"), "\(imported)")
    #expect(box.list(box.library).filter { !$0.hasPrefix(".") } == ["DejaVuSans-Subset.woff2"])
    let listed = try box.run(["families"])
    #expect(listed.stdout.contains("DejaVu Sans"), "\(listed)")
    let rendered = try box.run(["render", "DejaVu Sans", "-o", "r.png"])
    #expect(rendered.status == 0, "\(rendered)")
  }

  /// In `diff`, a WOFF2 (or a WOFF) and the TTF it was made from are the same font; diff.json
  /// names the web font.
  @Test(arguments: ["woff2", "woff"]) func aWebFontAndItsTTFCompareAsUnchanged(flavor: String)
    throws
  {
    let box = try sandbox("fonti-web-diff")
    let result = try box.run(["diff", "ttf", flavor, "-o", "review", "--exit-code"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("1 unchanged"), "\(result)")
    let report = String(decoding: box.read("review/diff.json") ?? Data(), as: UTF8.self)
    #expect(report.contains("\(flavor)/DejaVuSans-Subset.\(flavor)"), "\(report)")
    #expect(!report.contains("/cache/"))
  }

  /// Each hostile web font is an error naming the file, with exit 2, wherever it is read.
  @Test(arguments: [
    (
      "truncated.woff2",
      "is a damaged WOFF2 web font: its header says 8668 bytes, the file has 4334"
    ),
    ("bad-signature.woff2", "is not a TrueType or OpenType font"),
    ("size-lie.woff", "is a damaged WOFF web font: its header says the font is 25908 bytes"),
    ("corrupt-brotli.woff2", "is a damaged WOFF2 web font: FreeType cannot decode it"),
    ("corrupt-zlib.woff", "is a damaged WOFF web font: FreeType cannot decode it"),
    (
      "bomb.woff2",
      "is a damaged WOFF2 web font: it says it decodes to 104857600 bytes, more than the limit of 64 MiB"
    ),
  ])
  func aBrokenWebFontIsAnErrorNamingIt(name: String, reason: String) throws {
    let box = try CLISandbox("fonti-web-hostile")
    try box.write("bad/" + name, try fixture(Self.webFonts + "/hostile/" + name))
    let listed = try box.run(["families", "--fonts", "bad/" + name])
    #expect(listed.status == 2, "\(listed)")
    #expect(
      listed.stderr.hasPrefix("fonti-batch: error: font file '")
        && listed.stderr.contains("/bad/\(name)' \(reason)"),
      "\(listed)")
    #expect(!listed.signalled)
    try box.write("job.yaml", "version: 1\nfonts: [bad/]\ncatalogues: []\n")
    let run = try box.run(["run", "-q", "job.yaml"])
    #expect(run.status == 2, "\(run)")
    #expect(run.stderr.contains("bad/\(name)' \(reason)"), "\(run)")
    let imported = try box.run(["fonts", "import", "bad/" + name])
    #expect(imported.status == 1, "\(imported)")
    #expect(imported.stderr.contains("\(reason)"), "\(imported)")
    #expect(box.list(box.root + "/cache/fonti-batch/fonts").isEmpty)
  }

  /// `serve` with a WOFF2 among the job's fonts serves its card: the card `render` draws from
  /// the TTF, byte for byte.
  @Test func serveDrawsAWebFontsCard() throws {
    let box = try sandbox("fonti-web-serve")
    try box.write(
      "job.yaml",
      "version: 1\noutput: out\nfonts: [woff2/]\nfamilies: { include: [\"DejaVu Sans\"] }\n")
    box.environment["TMPDIR"] = box.root + "/tmp"
    try FileManager.default.createDirectory(
      atPath: box.root + "/tmp", withIntermediateDirectories: true)
    let server = try ServeProcess(box)
    let card = try server.request("/card/dejavu-sans.png?text=Hamburg&edge=256")
    #expect(card.status == 200, "\(card.text)")
    _ = try server.interrupt()
    let imported = try box.run(["fonts", "import", "ttf/DejaVuSans-Subset.ttf"])
    #expect(imported.status == 0, "\(imported)")
    let rendered = try box.run([
      "render", "DejaVu Sans", "--text", "Hamburg", "--edge", "256", "-o", "r.png",
    ])
    #expect(rendered.status == 0, "\(rendered)")
    #expect(card.body == box.read("r.png"), "the WOFF2's card is not the TTF's render")
  }
}
