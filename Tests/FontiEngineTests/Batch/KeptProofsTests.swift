import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiEngine
@testable import FontiModel

/// A `serve` worker reads a family's proofs once for all its cards: what it keeps is what a
/// fresh read gives, for the same family, axes and proofs asked, and another read otherwise.
@Suite struct KeptProofsTests {
  @Test func keptProofsAreWhatAFreshReadGives() throws {
    let inter = TestFonts.proofFontsFolder + "/InterVariable-Subset.ttf"
    let environment = try TestFonts.environment(custom: [inter])
    let family = try #require(environment.catalog.family(named: "Inter"))
    let drawn = SpecimenRequest(family: family)
    let sent = SpecimenRequest(family: FamilyRef(family))
    let kept = KeptProofs(capacity: 2)
    let fresh = drawn.readProofs()
    #expect(fresh.axes?.isEmpty == false)
    #expect(kept.proofs(of: sent, drawn) == fresh)
    #expect(kept.proofs(of: sent, drawn) == fresh)

    // Other proofs asked for: read, not the axes-only report kept.
    var asking = drawn
    asking.proofs = ProofOptions(axes: true, features: true, languages: true, glyphs: false)
    var askingSent = sent
    askingSent.proofs = asking.proofs
    let full = kept.proofs(of: askingSent, asking)
    #expect(full == asking.readProofs())
    #expect(full != fresh)
    // Coordinates asked for: the variable cut's proofs.
    var weighted = drawn
    weighted.sample = SampleSettings(variations: [VariationSetting(tag: "wght", value: 700)])
    var weightedSent = sent
    weightedSent.sample = weighted.sample
    #expect(kept.proofs(of: weightedSent, weighted) == weighted.readProofs())
  }
}
