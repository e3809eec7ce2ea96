import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel

/// A by-hand check, not part of the suite: with `FONTI_PROOF_SYSTEM=FOLDER` it writes, into
/// FOLDER, the catalogue of every installed family plus the proofs fixtures twice, without
/// proofs (`off.pdf`) and with every proof on (`on.pdf`, glyph chart included unless
/// `FONTI_PROOF_NO_GLYPHS` is set), and prints pages and seconds of each and the cost per page.
/// Build in release for numbers that mean something (see `ProofsSystemCheck.swift`).
@Test(.enabled(if: ProcessInfo.processInfo.environment["FONTI_PROOF_SYSTEM"] != nil))
func catalogueProofsSystem() throws {
  let env = ProcessInfo.processInfo.environment
  let folder = env["FONTI_PROOF_SYSTEM"] ?? "/tmp"
  let environment = try FontEnvironment(customFonts: [TestFonts.proofFontsFolder])
  var families = environment.catalog.families.filter(\.isRenderable)
  if let only = env["FONTI_PROOF_ONLY"] {
    families = families.filter { $0.name.localizedCaseInsensitiveContains(only) }
  }
  let base = CatalogueInput(
    title: "Installed families", texts: ["The quick brown fox jumps over the lazy dog"],
    families: families, creationDate: CatalogueFixture.date)
  var on = base
  on.proofs = ProofOptions(glyphs: env["FONTI_PROOF_NO_GLYPHS"] == nil)

  func measure(_ input: CatalogueInput<FontFamily>, _ name: String) throws -> (Int, Double) {
    let clock = ContinuousClock()
    var pages = 0
    let elapsed = try clock.measure {
      pages = try CatalogueWriter(environment: environment).write(input, to: folder + "/" + name)
        .pages
    }
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("\(name): \(families.count) families, \(pages) pages, \(seconds) s")
    return (pages, seconds)
  }
  let (offPages, offSeconds) = try measure(base, "off.pdf")
  let (onPages, onSeconds) = try measure(on, "on.pdf")
  let perPage = offSeconds / Double(max(1, offPages))
  let perProofPage = (onSeconds - offSeconds) / Double(max(1, onPages - offPages))
  print(
    "per page without proofs: \(perPage * 1000) ms; per proof page (extra time / extra pages): "
      + "\(perProofPage * 1000) ms; ratio \(perProofPage / perPage)")
}
