import Foundation
import Testing

/// `diff --exit-code` end to end on what a font declares (#56): each pair of
/// `Fixtures/Diff/declared` (README.md there) changes one thing, which must fail the gate and be
/// said in words, in diff.json's `changes` with its kind, in diff.md and in the PDF; the pairs
/// that change nothing a user can tell apart (a version string, a DSIG table, the table order)
/// pass, with what is information only under `info`.
@Suite(.serialized) struct DiffDeclaredTests {
  static let declared = Repository.fixtures + "/Diff/declared"

  struct Pair: CustomTestStringConvertible, Sendable {
    var before = "before"
    var after: String
    var kinds: [String]
    /// A line of the family's summary, with its face.
    var words: String
    var testDescription: String { after }
  }

  static let changed: [Pair] = [
    Pair(
      after: "weight", kinds: ["os2.weightClass"],
      words: "weight class 400 Regular → 300 Light (Regular)"),
    Pair(
      after: "italic", kinds: ["os2.fsSelection", "head.macStyle"],
      words: "fsSelection: regular → italic (Regular)"),
    Pair(
      after: "fstype", kinds: ["os2.fsType"],
      words: "embedding permission (fsType): installable → preview & print (Regular)"),
    Pair(
      after: "licence", kinds: ["name.13"],
      words:
        "licence (name 13): “Fonts are (c) Bitstream (see…” → “This Font Software is licensed…”"),
    Pair(
      after: "dehinted",
      kinds: ["hinting.fpgm", "hinting.prep", "hinting.cvt", "hinting.gasp", "hinting.glyphs"],
      words: "hinting removed: fpgm, prep, cvt, gasp, instructions of 100 glyphs (Regular)"),
    Pair(
      before: "colour-before", after: "colour-after", kinds: ["colour.cpal"],
      words: "palette 0 colour 0 #CC1A1A → #1A33CC: 52 glyphs (Regular)"),
  ]

  func family(_ box: CLISandbox, _ folder: String) throws -> [String: Any] {
    let data = try #require(box.read(folder + "/diff.json"))
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require((report["families"] as? [[String: Any]])?.first)
  }

  @Test(arguments: changed) func aDeclaredChangeFailsTheGateAndIsSaidEverywhere(_ pair: Pair)
    throws
  {
    let box = try CLISandbox("fonti-diff-declared")
    let result = try box.run([
      "diff", DiffDeclaredTests.declared + "/" + pair.before,
      DiffDeclaredTests.declared + "/" + pair.after, "--exit-code",
    ])
    #expect(result.status == 1, "\(result)")
    let family = try family(box, "diff")
    #expect(family["status"] as? String == "changed")
    let summary = try #require(family["summary"] as? [String])
    #expect(summary.contains { $0.hasPrefix(pair.words) }, "\(summary)")
    let changes = try #require(family["changes"] as? [[String: Any]])
    // Every change has a kind, a face, and both values (null where a side has none).
    for change in changes {
      #expect(change["kind"] is String && change["face"] as? String == "Regular")
      #expect(change.keys.contains("before") && change.keys.contains("after"), "\(change)")
    }
    #expect(changes.map { $0["kind"] as? String ?? "" } == pair.kinds, "\(changes)")
    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    #expect(markdown.contains("| Fixture "), "\(markdown)")
    #expect(markdown.contains(pair.words.prefix(18)), "\(markdown)")
    #expect(!markdown.contains("No family changed"))
  }

  @Test func theWeightClassIsSaidWithBothValuesAndThePDFHasTheRow() throws {
    let box = try CLISandbox("fonti-diff-weight")
    let result = try box.run([
      "diff", DiffDeclaredTests.declared + "/before", DiffDeclaredTests.declared + "/weight",
      "--exit-code",
    ])
    #expect(result.status == 1, "\(result)")
    let changes = try #require(try family(box, "diff")["changes"] as? [[String: Any]])
    let weight = try #require(changes.first)
    #expect(weight["before"] as? Int == 400 && weight["after"] as? Int == 300)
    guard let text = try SystemTool.pdfText(box.path("diff/diff.pdf")) else { return }
    #expect(text.contains("weight class 400 Regular → 300 Light"), "\(text)")
  }

  /// A new version string and font revision are information: listed under `info`, the family
  /// unchanged. A DSIG table added and the tables in another order are not even that.
  @Test(arguments: [
    ("version", ["head.fontRevision", "head.checkSumAdjustment", "name.5"]),
    ("dsig", ["head.checkSumAdjustment"]), ("reordered", ["head.checkSumAdjustment"]),
  ])
  func whatIsOnlyInformationPassesTheGate(_ after: String, _ info: [String]) throws {
    let box = try CLISandbox("fonti-diff-info")
    let result = try box.run([
      "diff", DiffDeclaredTests.declared + "/before", DiffDeclaredTests.declared + "/" + after,
      "--exit-code",
    ])
    #expect(result.status == 0, "\(result)")
    let family = try family(box, "diff")
    #expect(family["status"] as? String == "unchanged")
    #expect((family["changes"] as? [Any])?.isEmpty == true, "\(family)")
    let listed = try #require(family["info"] as? [[String: Any]])
    #expect(listed.map { $0["kind"] as? String ?? "" } == info)
    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    #expect(markdown.contains("No family changed"))
  }

  /// The kinds every change of the older fixtures carries: outlines, advances, characters,
  /// metrics and features keep their fields and gain a kind each.
  @Test func theOtherChangesCarryKindsToo() throws {
    let box = try CLISandbox("fonti-diff-kinds")
    let fixtures = Repository.fixtures + "/Diff"
    let result = try box.run(["diff", fixtures + "/base", fixtures + "/changed", "--exit-code"])
    #expect(result.status == 1, "\(result)")
    let family = try family(box, "diff")
    let kinds = Set(
      (family["changes"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String })
    #expect(
      kinds == [
        "outline", "advance", "cmap.added", "cmap.removed", "metrics.os2.xHeight",
        "feature.removed", "shaping.featureRemoved", "glyphs.count",
      ], "\(kinds)")
    #expect((family["glyphs"] as? [Any])?.count == 2)
  }
}
