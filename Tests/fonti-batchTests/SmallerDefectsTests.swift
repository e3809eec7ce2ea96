import Foundation
import Testing

/// The smaller defects of issue #46, each end to end.
@Suite(.serialized) struct SmallerDefectsTests {
  static let job = """
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

  func sandbox(_ job: String = SmallerDefectsTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-defects")
    try box.write("specimens.yaml", job)
    return box
  }

  @Test func anIndexPageTheRunDidNotWriteIsNotReplaced() throws {
    let box = try sandbox()
    try box.write("output/index.html", "<html>the site's own page</html>")
    let first = try box.run(["run", "-q"])
    #expect(first.status == 1, "\(first)")
    #expect(first.stderr.contains("is not a page this folder's manifest.json records"), "\(first)")
    #expect(first.stderr.contains("hint: move it away"), "\(first)")
    #expect(box.read("output/index.html") == Data("<html>the site's own page</html>".utf8))
    #expect(box.read("output/specimens/dejavu-serif.png") != nil, "the rest is written")
    let data = try #require(box.read("output/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(manifest["gallery"] == nil, "no page recorded that is not ours")

    try FileManager.default.removeItem(atPath: box.path("output/index.html"))
    #expect(try box.run(["run", "-q"]).status == 0)
    let page = try #require(box.read("output/index.html"))
    #expect(String(decoding: page, as: UTF8.self).contains("DejaVu Serif"))
    // A page edited after the run is the user's too.
    try box.write("output/index.html", String(decoding: page, as: UTF8.self) + "<!-- mine -->")
    let edited = try box.run(["run", "--force", "-q"])
    #expect(edited.status == 1, "\(edited)")
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
}
