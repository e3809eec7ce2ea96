import Foundation
import Testing

/// Type 1 copies at the command line, through `Fixtures/type1.conf`: D050000L installed as
/// OpenType and as Type 1 (as fonts-urw-base35 installs every face), and Standard Symbols PS,
/// a family of Type 1 faces only.
@Suite struct Type1CommandTests {
  static let type1Conf = Repository.fixtures + "/type1.conf"

  func job(_ families: String) -> String {
    """
    version: 1
    families:
      include: [\(families)]
    pairings: { curated: false }
    catalogues: []
    gallery: false
    proofs: { axes: true, features: true, languages: true, glyphs: true }

    """
  }

  func warnings(_ result: CLIResult) -> [String] {
    result.stderr.split(separator: "\n").map(String.init).filter { $0.contains("warning:") }
  }

  func manifestFamilies(_ box: CLISandbox) throws -> [String: [String: Any]] {
    let data = try #require(box.read("out/manifest.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let families = try #require(json["families"] as? [[String: Any]])
    return Dictionary(
      uniqueKeysWithValues: families.compactMap { f in (f["family"] as? String).map { ($0, f) } })
  }

  /// (a) OpenType + Type 1 copies of one family: no warning, so `--strict` passes.
  @Test func aFamilyWithAType1CopyRunsStrictWithoutWarnings() throws {
    let box = try CLISandbox("fonti-type1", fonts: Self.type1Conf)
    try box.write("job.yaml", job("D050000L"))
    let result = try box.run(["run", "--strict", "job.yaml", "-o", "out"])
    #expect(result.status == 0, "\(result)")
    #expect(warnings(result) == [], "\(result)")
    #expect(!result.stderr.contains(".pfb"), "\(result)")
    let families = try manifestFamilies(box)
    let d050 = try #require(families["D050000L"])
    #expect((d050["warnings"] as? [Any])?.isEmpty ?? true, "\(d050)")
    #expect((d050["codepoints"] as? Int ?? 0) > 0)
    #expect(box.read("out/specimens/d050000l.png") != nil)
  }

  /// (b) A family of Type 1 faces only: Pango 1.44+ cannot draw it, which its selection says
  /// once; its proofs add nothing more.
  @Test func aType1OnlyFamilyIsOneWarning() throws {
    let box = try CLISandbox("fonti-type1", fonts: Self.type1Conf)
    try box.write("job.yaml", job("D050000L, Standard Symbols PS"))
    let result = try box.run(["run", "job.yaml", "-o", "out"])
    #expect(result.status == 0, "\(result)")
    let lines = warnings(result)
    #expect(lines.count == 1, "\(result)")
    #expect(lines.first?.contains("family 'Standard Symbols PS' cannot be rendered") == true)
    #expect(lines.first?.contains("Type 1") == true)
    #expect(box.read("out/specimens/d050000l.png") != nil)

    // `families --json`: listed as unsupported, no features, its characters from fontconfig.
    let listing = try box.run(["families", "--json"])
    #expect(listing.status == 0 && warnings(listing) == [], "\(listing)")
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]])
    let symbols = try #require(entries.first { $0["family"] as? String == "Standard Symbols PS" })
    #expect(symbols["supported"] as? Bool == false)
    #expect((symbols["features"] as? [Any])?.isEmpty == true)
    #expect((symbols["codepoints"] as? Int ?? 0) > 100, "\(symbols)")
  }
}
