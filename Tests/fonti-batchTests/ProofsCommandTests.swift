import Foundation
import Testing

/// The proofs at the command line: manifest fields per `proofs:` flag, `families --lang` and
/// `--json`, `render --variations/--features/--language`.
@Suite struct ProofsCommandTests {
  static let proofsConf = Repository.fixtures + "/fonts-proofs.conf"
  static let languagesConf = Repository.fixtures + "/languages.conf"
  static let proofFields = ["axes", "instances", "features", "languages", "codepoints"]

  func manifestFamilies(_ box: CLISandbox) throws -> [String: [String: Any]] {
    let data = try #require(box.read("out/manifest.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let families = try #require(json["families"] as? [[String: Any]])
    return Dictionary(
      uniqueKeysWithValues: families.compactMap { f in (f["family"] as? String).map { ($0, f) } })
  }

  func skipped(_ box: CLISandbox) throws -> Int? {
    let data = try #require(box.read("out/manifest.json"))
    let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return (json?["counts"] as? [String: Any])?["skipped"] as? Int
  }

  func job(proofs: String) -> String {
    """
    version: 1
    families:
      include: [Inter, EB Garamond]
    pairings: { curated: false }
    catalogues: []
    proofs: \(proofs)

    """
  }

  @Test func proofFieldsArePresentPerFlagAndFilledWithoutRedrawing() throws {
    let box = try CLISandbox("fonti-proofs", fonts: Self.proofsConf)
    try box.write("job.yaml", job(proofs: "{ glyphs: false }"))
    let first = try box.run(["run", "job.yaml", "-o", "out"])
    #expect(first.status == 0, "\(first)")
    var families = try manifestFamilies(box)
    let inter = try #require(families["Inter"])
    let garamond = try #require(families["EB Garamond"])
    for field in Self.proofFields {
      #expect(inter[field] != nil && garamond[field] != nil, "\(field) present")
    }
    #expect((inter["axes"] as? [[String: Any]])?.map { $0["tag"] as? String } == ["wght", "slnt"])
    #expect((inter["instances"] as? [Any])?.count == 18)
    #expect((garamond["axes"] as? [Any])?.isEmpty == true, "a static family: empty, not absent")
    let smcp = (garamond["features"] as? [[String: Any]])?.first { $0["tag"] as? String == "smcp" }
    #expect(smcp?["name"] as? String == "Small Capitals" && smcp?["visible"] as? Bool == true)
    let languages = try #require(garamond["languages"] as? [String: Any])
    #expect(languages["supported"] is [String] && languages["nearly"] is [Any])
    #expect((garamond["codepoints"] as? Int ?? 0) > 0)

    // Every proof off: the fields are absent, and the specimens are not drawn again.
    try box.write(
      "job.yaml", job(proofs: "{ axes: false, features: false, languages: false, glyphs: false }"))
    let off = try box.run(["run", "job.yaml", "-o", "out"])
    #expect(off.status == 0, "\(off)")
    #expect(try skipped(box) == 2, "specimens show no proof: not drawn again")
    families = try manifestFamilies(box)
    for (name, entry) in families {
      for field in Self.proofFields { #expect(entry[field] == nil, "\(name) \(field) absent") }
    }

    // Only features on: read again for the kept entries, still without drawing.
    try box.write(
      "job.yaml", job(proofs: "{ axes: false, features: true, languages: false, glyphs: false }"))
    let features = try box.run(["run", "job.yaml", "-o", "out"])
    #expect(features.status == 0, "\(features)")
    #expect(try skipped(box) == 2)
    families = try manifestFamilies(box)
    #expect(families["Inter"]?["features"] != nil && families["Inter"]?["axes"] == nil)
    #expect(families["EB Garamond"]?["languages"] == nil)
    #expect(families["EB Garamond"]?["codepoints"] == nil)
  }

  @Test func familiesLangKeepsFamiliesThatSetEveryLanguage() throws {
    let box = try CLISandbox("fonti-proofs", fonts: Self.languagesConf)
    let all = try box.run(["families"])
    let vi = try box.run(["families", "--lang", "vi"])
    #expect(vi.status == 0, "\(vi)")
    let listed = vi.stdout.split(separator: "\n").count
    #expect(listed > 0 && listed < all.stdout.split(separator: "\n").count, "\(vi)\n\(all)")
    #expect(!vi.stdout.contains("Fonti Test Symbol"), "a symbol font sets no language")
    let json = try box.run(["families", "--lang", "vi,en", "--json"])
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(entries.count == listed)
    for entry in entries {
      let supported = (entry["languages"] as? [String: Any])?["supported"] as? [String]
      #expect(supported?.contains("vi") == true && supported?.contains("en") == true)
      for field in Self.proofFields { #expect(entry[field] != nil, "\(field) in families --json") }
    }
    let bad = try box.run(["families", "--lang", "vi,vn"])
    #expect(bad.status == 2, "\(bad)")
    #expect(bad.stderr.contains("unknown language 'vn' (did you mean"), "\(bad)")
  }

  @Test func renderTakesSettingsAndRefusesMalformedOnes() throws {
    let box = try CLISandbox("fonti-proofs", fonts: Self.proofsConf)
    for (flags, named) in [
      (["--features", "smcp,cv1"], "'cv1'"), (["--variations", "wght=heavy"], "'wght=heavy'"),
      (["--language", "en_GB"], "'en_GB'"), (["--variations", "wght"], "'wght'"),
    ] {
      let result = try box.run(["render", "Inter", "-o", "x.png"] + flags)
      #expect(result.status == 2, "\(flags): \(result)")
      #expect(result.stderr.contains(named), "\(flags): \(result)")
      #expect(box.read("x.png") == nil, "nothing rendered")
    }
    let over = try box.run(["render", "Inter", "-o", "x.png", "--variations", "wght=1200"])
    #expect(over.status == 0, "\(over)")
    #expect(over.stderr.contains("axis wght 1200 is outside 100–900; drawn at 900"), "\(over)")
    let typo = try box.run(["render", "EB Garamond", "-o", "y.png", "--features", "smpc"])
    #expect(typo.status == 0, "\(typo)")
    #expect(typo.stderr.contains("feature 'smpc'"), "\(typo)")
    let plain = try #require(box.read("y.png"))
    let smallCaps = try box.run(["render", "EB Garamond", "-o", "z.png", "--features", "smcp"])
    #expect(smallCaps.status == 0, "\(smallCaps)")
    #expect(try #require(box.read("z.png")) != plain)
  }
}
