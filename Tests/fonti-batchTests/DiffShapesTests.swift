import FontiSupport
import Foundation
import Testing

/// `diff --exit-code` end to end on outlines that are the same shape drawn another way
/// (Fixtures/Diff/README.md, `shapes/`; #56): start points, reversals and a change of outline
/// format pass the gate; a real edit hidden among rotated start points fails it.
@Suite(.serialized) struct DiffShapesTests {
  static let fixtures = Repository.fixtures + "/Diff/shapes"

  func fixture(_ name: String) -> String { DiffShapesTests.fixtures + "/" + name }

  /// The one family of `diff BEFORE AFTER --exit-code`: the exit status and its diff.json entry.
  func diff(_ before: String, _ after: String, _ name: String) throws -> (
    status: Int32, family: [String: Any]
  ) {
    let box = try CLISandbox("fonti-diff-shapes-" + name)
    let result = try box.run(["diff", fixture(before), fixture(after), "--exit-code"])
    let data = try #require(box.read("diff/diff.json"), "\(result)")
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let family = try #require((report["families"] as? [[String: Any]])?.first)
    return (result.status, family)
  }

  func expectUnchanged(_ before: String, _ after: String, _ name: String) throws {
    let (status, family) = try diff(before, after, name)
    #expect(status == 0, "\(family)")
    #expect(family["status"] as? String == "unchanged", "\(family["summary"] ?? "")")
    #expect((family["changes"] as? [Any])?.isEmpty ?? true)
    #expect((family["glyphs"] as? [Any])?.isEmpty ?? true)
    #expect((family["glyphsMoved"] as? [Any])?.isEmpty ?? true)
    #expect(family["glyphsBelowThreshold"] as? Int == 0)
  }

  /// (a) Every contour of A B O a e o s (and so the composite Á) starts at another point.
  @Test func startPointsRotatedOnEveryContourAreNoChange() throws {
    try expectUnchanged("before", "rotated", "rotated")
  }

  /// (b) Every contour of O, o and B reversed together.
  @Test func allContoursOfAGlyphReversedTogetherAreNoChange() throws {
    try expectUnchanged("before", "reversed", "reversed")
  }

  /// (c) One contour of i reversed and not the other: judged by the drawing, which paints the
  /// same under the nonzero rule.
  @Test func oneContourReversedIsJudgedByItsDrawing() throws {
    try expectUnchanged("before", "one-reversed", "one-reversed")
  }

  /// (d) CFF converted to TrueType with cu2qu at its default tolerance, both ways round.
  @Test func anOutlineFormatConvertedWithCu2quIsNoChange() throws {
    try expectUnchanged("garamond-cff", "garamond-ttf", "cff-ttf")
    try expectUnchanged("garamond-ttf", "garamond-cff", "ttf-cff")
  }

  /// (e) Start points rotated as in (a), and one point of e moved 20 units: that edit alone is
  /// reported, with its move, and fails the gate though it paints fewer pixels than the
  /// threshold at 64 px per em.
  @Test func aRealEditAmongRotatedStartPointsFailsTheGate() throws {
    let (status, family) = try diff("before", "rotated-edit", "edit")
    #expect(status == 1)
    #expect(family["status"] as? String == "changed")
    let changes = try #require(family["changes"] as? [[String: Any]])
    #expect(changes.map { $0["kind"] as? String } == ["outline"], "\(changes)")
    #expect(changes.first?["subject"] as? String == "U+0065")
    let edits =
      (family["glyphs"] as? [[String: Any]] ?? [])
      + (family["glyphsMoved"] as? [[String: Any]] ?? [])
    #expect(edits.map { $0["codepoint"] as? String } == ["U+0065"])
    #expect(edits.first?["moved"] as? Int == 20)
  }
}
