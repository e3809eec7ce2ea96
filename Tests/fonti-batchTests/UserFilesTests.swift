import Foundation
import Testing

/// A file in the output folder that no manifest of this tool recorded is the user's: `run`
/// (and `merge`, through the same run) stops before drawing, exit 2, names it, and never
/// replaces it. One test per kind of output, each with a file of the user's in its place.
@Suite struct UserFilesTests {
  let runs = RunCommandTests()

  static let job = """
    version: 1
    defaults: { text: "Sphinx of black quartz, judge my vow." }
    families: { include: ["DejaVu Serif", "Cantarell"] }
    png: { edge: 256 }
    pairings: { curated: false, extra: [{ heading: Cantarell, body: DejaVu Serif }] }

    """

  @Test(arguments: [
    "manifest.json", "specimens/cantarell.png", "thumbs/cantarell.png",
    "pairings/cantarell+dejavu-serif.png", "catalogue.pdf", "index.html",
  ])
  func aFileOfTheUsersIsNeverReplaced(_ file: String) throws {
    let box = try runs.sandbox(Self.job)
    let theirs = Data(#"{"name": "My web app", "icons": []}"#.utf8)
    try FileManager.default.createDirectory(
      atPath: box.path("output/" + (file as NSString).deletingLastPathComponent),
      withIntermediateDirectories: true)
    try theirs.write(to: URL(fileURLWithPath: box.path("output/" + file)))
    let result = try box.run(["run"])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stderr.contains(
        "'\(box.path("output/" + file))' is not a file this folder's manifest.json records"),
      "\(result)")
    #expect(result.stderr.contains("or write elsewhere with -o"), "\(result)")
    #expect(box.read("output/" + file) == theirs, "the user's file was replaced")
    // Nothing was drawn.
    let drawn = box.list(box.path("output/specimens")).filter { $0.hasSuffix(".png") }
    #expect(drawn == (file.hasPrefix("specimens/") ? ["cantarell.png"] : []), "\(drawn)")
  }

  /// The same outputs written by a run are the run's: a second run replaces them freely.
  @Test func theRunsOwnFilesAreReplaced() throws {
    let box = try runs.sandbox(Self.job)
    #expect(try box.run(["run", "-q"]).status == 0)
    let again = try box.run(["run", "--force", "-q"])
    #expect(again.status == 0, "\(again)")
  }

  /// `diff -o` keeps to the same rule: diff.json, diff.md, diff.pdf and the images its own
  /// diff.json lists are its own; a file of the user's in their place stops it, exit 2.
  @Test(arguments: ["diff.md", "diff.pdf", "diff.json", "changes/fixture-garamond.png"])
  func aReviewNeverReplacesAFileOfTheUsers(_ file: String) throws {
    let box = try CLISandbox("fonti-diff")
    let fixtures = Repository.fixtures + "/Diff"
    try FileManager.default.createDirectory(
      atPath: box.path("review/changes"), withIntermediateDirectories: true)
    let theirs = Data("# My notes\n".utf8)
    try theirs.write(to: URL(fileURLWithPath: box.path("review/" + file)))
    let result = try box.run(["diff", "-o", "review", fixtures + "/base", fixtures + "/changed"])
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stderr.contains(
        "'review/\(file)' is not a file this folder's diff.json records"), "\(result)")
    #expect(box.read("review/" + file) == theirs)
    // Moved away, the review is written; written, it is its own the next time.
    try FileManager.default.removeItem(atPath: box.path("review/" + file))
    let written = try box.run(["diff", "-o", "review", fixtures + "/base", fixtures + "/changed"])
    #expect(written.status == 0, "\(written)")
    let again = try box.run(["diff", "-o", "review", fixtures + "/base", fixtures + "/changed"])
    #expect(again.status == 0, "\(again)")
  }
}
