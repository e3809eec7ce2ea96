import FontiSupport
import Foundation
import Testing

/// `diff --exit-code` end to end on a family that moved between static fonts and a variable
/// font (Fixtures/Diff/README.md, `migration/`; #56, item 5): each static face is compared
/// with the variable font's instance of its style, both ways round.
@Suite(.serialized) struct DiffMigrationTests {
  static let fixtures = Repository.fixtures + "/Diff/migration"
  static let regular = "Regular (static) → Regular (instance of Fixture Migration)"
  static let bold = "Bold (static) → Bold (instance of Fixture Migration)"

  /// The one family of `diff BEFORE AFTER --exit-code`: the exit status, its diff.json entry
  /// and diff.md.
  func diff(_ before: String, _ after: String, _ name: String) throws -> (
    status: Int32, family: [String: Any], markdown: String
  ) {
    let box = try CLISandbox("fonti-diff-migration-" + name)
    let fixtures = DiffMigrationTests.fixtures
    let result = try box.run([
      "diff", fixtures + "/" + before, fixtures + "/" + after, "--exit-code",
    ])
    let data = try #require(box.read("diff/diff.json"), "\(result)")
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let family = try #require((report["families"] as? [[String: Any]])?.first)
    let markdown = String(decoding: box.read("diff/diff.md") ?? Data(), as: UTF8.self)
    return (result.status, family, markdown)
  }

  func migrated(_ family: [String: Any]) -> [String] {
    ((family["faces"] as? [String: Any])?["migrated"] as? [[String: Any]] ?? []).compactMap {
      $0["face"] as? String
    }
  }

  /// (a) Regular and Bold made static by fontTools' instancer against the variable font: each
  /// paired with its instance, nothing removed or added, and nothing else: the instancer's
  /// rounding of points to whole units and what the variable font declares for all its
  /// instances at once (style names and bits, STAT, bounding box) are no change.
  @Test func staticInstancesOfTheVariableFontPassTheGate() throws {
    let (status, family, markdown) = try diff("static", "variable", "same")
    #expect(status == 0, "\(family["summary"] ?? "")")
    #expect(family["status"] as? String == "unchanged")
    #expect((family["changes"] as? [Any])?.isEmpty ?? true, "\(family["changes"] ?? "")")
    let faces = try #require(family["faces"] as? [String: Any])
    #expect((faces["removed"] as? [Any])?.isEmpty ?? true)
    #expect((faces["added"] as? [Any])?.isEmpty ?? true)
    #expect(migrated(family) == [DiffMigrationTests.regular, DiffMigrationTests.bold])
    let summary = family["summary"] as? [String] ?? []
    #expect(summary.contains("compared as one face: \(DiffMigrationTests.bold)"))
    #expect(markdown.contains("Bold (static) → Bold (instance of Fixture Migration)"))
  }

  /// (b) The static Bold's R edited: the gate fails, the change is named on the migrated pair
  /// and carries both sides' files and the instance.
  @Test func anEditedStaticFaceFailsTheGateOnItsInstance() throws {
    let (status, family, _) = try diff("static-edit", "variable", "edit")
    #expect(status == 1)
    let changes = try #require(family["changes"] as? [[String: Any]])
    #expect(changes.map { $0["kind"] as? String } == ["outline"], "\(changes)")
    let change = try #require(changes.first)
    #expect(change["subject"] as? String == "U+0052")
    #expect(change["face"] as? String == DiffMigrationTests.bold)
    let paired = try #require(change["pairedWith"] as? [String: Any])
    let after = try #require(paired["after"] as? [String: Any])
    let before = try #require(paired["before"] as? [String: Any])
    #expect(after["instance"] as? String == "Bold")
    #expect((after["file"] as? String)?.hasSuffix("FixtureMigration[wght].ttf") == true)
    #expect((before["file"] as? String)?.hasSuffix("static-edit/FixtureMigration-Bold.ttf") == true)
    #expect(before["instance"] == nil)
  }

  /// (c) The other way round: the variable font's instances against the static fonts.
  @Test func variableToStaticPairsEachInstanceWithItsFace() throws {
    let (status, family, _) = try diff("variable", "static", "reverse")
    #expect(status == 0, "\(family["summary"] ?? "")")
    #expect(
      migrated(family) == [
        "Regular (instance of Fixture Migration) → Regular (static)",
        "Bold (instance of Fixture Migration) → Bold (static)",
      ])
    let (edited, editedFamily, _) = try diff("variable", "static-edit", "reverse-edit")
    #expect(edited == 1)
    let changes = try #require(editedFamily["changes"] as? [[String: Any]])
    #expect(
      changes.map { $0["face"] as? String } == [
        "Bold (instance of Fixture Migration) → Bold (static)"
      ])
  }
}
