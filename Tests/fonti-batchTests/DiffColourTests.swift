import Foundation
import Testing

/// `diff --exit-code` end to end on colour glyphs (#56, item 4): each pair of
/// `Fixtures/Diff/colour` (README.md there) changes one glyph's colour, which fails the gate and
/// is said with its glyph in diff.json's `changes`, in diff.md and in the review's table; the same
/// colour glyphs re-packed pass as unchanged.
@Suite(.serialized) struct DiffColourTests {
  static let colour = Repository.fixtures + "/Diff/colour"

  static let changed: [(String, String, String)] = [
    ("colrv0", "colour.colr.layers", "COLR layers changed: 1 glyph (C) (Regular)"),
    ("colrv1", "colour.colr.paints", "COLR paint graphs changed: 1 glyph (A) (Regular)"),
    ("cbdt", "colour.cbdt.glyphs", "CBDT bitmaps changed at 16, 32 ppem: 1 glyph (B) (Regular)"),
    ("sbix", "colour.sbix.glyphs", "sbix bitmaps changed at 16, 32 ppem: 1 glyph (C) (Regular)"),
    ("svg", "colour.svg.glyphs", "SVG documents changed: 1 glyph (D) (Regular)"),
  ]

  func family(_ box: CLISandbox) throws -> [String: Any] {
    let data = try #require(box.read("diff/diff.json"))
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require((report["families"] as? [[String: Any]])?.first)
  }

  @Test(arguments: changed) func aColourGlyphChangedFailsTheGateNamed(
    _ format: String, _ kind: String, _ words: String
  ) throws {
    let box = try CLISandbox("fonti-diff-colour")
    let result = try box.run([
      "diff", Self.colour + "/\(format)-before", Self.colour + "/\(format)-after", "--exit-code",
    ])
    #expect(result.status == 1, "\(result)")
    let family = try family(box)
    #expect(family["status"] as? String == "changed")
    #expect((family["summary"] as? [String])?.contains(words) == true, "\(family)")
    let changes = try #require(family["changes"] as? [[String: Any]])
    #expect(changes.map { $0["kind"] as? String ?? "" } == [kind], "\(changes)")
    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    #expect(markdown.contains(words), "\(markdown)")
    guard format == "cbdt", let text = try SystemTool.pdfText(box.path("diff/diff.pdf")) else {
      return
    }
    // The review's table of changes with nothing to draw says it in words.
    #expect(text.contains("colour.cbdt.glyphs 16, 32 ppem"), "\(text)")
    #expect(text.contains("CBDT bitmaps changed at 16, 32 ppem: 1 glyph (B)"), "\(text)")
  }

  @Test(arguments: ["colrv0", "colrv1", "cbdt", "sbix", "svg"])
  func colourGlyphsRepackedAreUnchanged(_ format: String) throws {
    let box = try CLISandbox("fonti-diff-colour-repacked")
    let result = try box.run([
      "diff", Self.colour + "/\(format)-before", Self.colour + "/\(format)-repacked",
      "--exit-code",
    ])
    #expect(result.status == 0, "\(result)")
    let family = try family(box)
    #expect(family["status"] as? String == "unchanged")
    #expect((family["changes"] as? [Any])?.isEmpty == true, "\(family)")
  }
}
