import Foundation
import Testing

/// Custom fonts in a run: the job's `fonts:` folder, families that are not installed, hostile
/// names inside font files.
@Suite struct CustomFontsRunTests {
  func customFolder(_ box: CLISandbox) throws {
    let cantarell = try Repository.font("Cantarell-Regular.otf")
    try box.write(
      "fonts/brand/Brandface.otf",
      FontBytes.renamingFamily(cantarell, from: "Cantarell", to: "Brandface"))
    try box.write(
      "fonts/evil.otf", FontBytes.renamingFamily(cantarell, from: "Cantarell", to: "../../evi"))
    try box.write(
      "fonts/bell.otf",
      FontBytes.renamingFamily(cantarell, from: "Cantarell", to: "Bel\u{7}\u{1B}[31m"))
    try box.write("fonts/readme.txt", "not a font, and not named like one: ignored")
  }

  @Test func customFamiliesRenderBesideInstalledOnesWithSafeNames() throws {
    let box = try CLISandbox("fonti-custom")
    try customFolder(box)
    try box.write(
      "specimens.yaml",
      """
      version: 1
      fonts: [fonts]
      families:
        include: ["Brandface", "../../evi", "DejaVu Serif", "Bel*"]
      png: { edge: 256 }
      catalogues: []
      pairings: { curated: false }

      """)
    let result = try box.run(["run", "-q"])
    #expect(result.status == 0, "\(result)")
    #expect(
      box.list(box.path("output/specimens")) == [
        "bel-31m.png", "brandface.png", "dejavu-serif.png", "evi.png",
      ])
    #expect(box.list(box.path("output")).allSatisfy { !$0.contains("evi") || $0 == "evi" })
    #expect(!FileManager.default.fileExists(atPath: box.root + "/evi.png"))
    let data = try #require(box.read("output/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let families = try #require(manifest["families"] as? [[String: Any]])
    let byName = Dictionary(
      uniqueKeysWithValues: families.compactMap { f in
        (f["family"] as? String).map { ($0, f) }
      })
    #expect(byName["Brandface"]?["custom"] as? Bool == true)
    #expect(byName["../../evi"]?["custom"] as? Bool == true)
    #expect(byName["../../evi"]?["slug"] as? String == "evi")
    #expect(byName["DejaVu Serif"]?["custom"] as? Bool == false)

    // `families` lists them as custom; terminal output never carries the control characters.
    let listed = try box.run(["families", "--fonts", "fonts"])
    #expect(listed.stdout.contains("Brandface"))
    #expect(listed.stdout.contains("custom"))
    #expect(!listed.stdout.contains("\u{1B}") && !listed.stdout.contains("\u{7}"))
  }

  @Test func aCustomFamilyWithAnInstalledNameWinsWithAWarning() throws {
    let box = try CLISandbox("fonti-custom-clash")
    let cantarell = try Repository.font("Cantarell-Bold.otf")
    try box.write("fonts/Cantarell-Bold.otf", cantarell)
    try box.write(
      "specimens.yaml",
      """
      version: 1
      fonts: [fonts/Cantarell-Bold.otf]
      families: { include: [Cantarell] }
      png: { edge: 256 }
      catalogues: []

      """)
    let result = try box.run(["run"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("custom family 'Cantarell' has the name of an installed family"))
    let data = try #require(box.read("output/manifest.json"))
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"custom\" : true"))
    #expect(
      text.contains("\"styles\" : [\n        \"Bold\"\n      ]"), "only the job's file: \(text)")
  }

  @Test func brokenFontFilesInTheJobAreLocatedErrors() throws {
    let box = try CLISandbox("fonti-custom-broken")
    try box.write("fonts/empty.ttf", Data())
    try box.write("fonts/text.otf", "I am text")
    try box.write(
      "specimens.yaml",
      """
      version: 1
      fonts:
        - fonts
        - missing.ttf
      catalogues: []

      """)
    let result = try box.run(["check"])
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("specimens.yaml:3:5: font file '"), "\(result)")
    #expect(result.stderr.contains("empty.ttf' is empty (0 bytes)"))
    #expect(result.stderr.contains("text.otf' is not a TrueType or OpenType font"))
    #expect(result.stderr.contains("specimens.yaml:4:5:"), "\(result)")
  }
}
