import Foundation
import Testing

/// `check` reads the favourites manifest a run would read (issue 13, item 14): a damaged one
/// fails `check` as it would fail `run`, located in the JSON and at the job's `manifest:` key.
struct CheckCommandTests {
  static let job = """
    version: 1
    favourites:
      manifest: favs.json
    families: { include: [Cantarell] }
    png: { edge: 256 }
    catalogues: []

    """

  static let damaged = """
    {
      "version": 1,
      "saved": [
        { "family": "Cantarell",
          "savedAt": "yesterday" }
      ]
    }

    """

  @Test func aDamagedFavouritesManifestFailsCheckLikeRun() throws {
    let box = try CLISandbox("fonti-check")
    try box.write("specimens.yaml", Self.job)
    try box.write("output/favs.json", Self.damaged)
    for command in [["check"], ["run", "-q"]] {
      let result = try box.run(command)
      #expect(result.status == 2, "\(command): \(result)")
      #expect(
        result.stderr.contains(
          "/output/favs.json:5:18: is not a valid favourites manifest: 'saved[0].savedAt'"),
        "\(command): \(result)")
      #expect(
        result.stderr.contains(
          "fonti-batch: error: specimens.yaml:3:13: this job's favourites manifest '"),
        "\(command): \(result)")
      #expect(result.stderr.contains("      manifest: favs.json\n                ^\n"))
      #expect(!result.stdout.contains("OK"))
    }
    #expect(box.list(box.path("output")) == ["favs.json"])
    #expect(box.read("output/favs.json") == Data(Self.damaged.utf8))

    try box.write("output/favs.json", "{\"version\": 1, \"saved\": []}\n")
    let fine = try box.run(["check"])
    #expect(fine.status == 0, "\(fine)")
    #expect(fine.stdout == "specimens.yaml: OK, 1 family selected\n")
  }

  @Test func theDefaultManifestIsReportedAgainstTheJobFile() throws {
    let box = try CLISandbox("fonti-check")
    try box.write("specimens.yaml", "version: 1\ncatalogues: []\n")
    try box.write("output/favourites.json", "{\"version\": 1, \"saved\": [")
    let result = try box.run(["check"])
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("output/favourites.json:1:26: is not valid JSON"), "\(result)")
    #expect(result.stderr.contains("error: specimens.yaml: this job's favourites manifest"))
  }
}
