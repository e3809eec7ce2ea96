import FontTestSupport
import Testing

@testable import FontiText

/// Reading only some features' lookups (`layoutRules(_:features:)`, what the proofs read for
/// one feature): those lookups and the ones their context rules call are read as a full read
/// reads them, the others are left `.empty`, the language systems whole.
@Suite struct LayoutRulesFeaturesTests {
  @Test func readsOnlyTheFeaturesLookups() throws {
    let face = try HarfBuzzFace(file: TestFonts.fixtures + "/Layout/LayoutRules.ttf")
    let full = face.layoutRules(.gsub)
    let calt = face.layoutRules(.gsub, features: ["calt"])
    #expect(calt.languageSystems == full.languageSystems)
    #expect(calt.lookups.count == full.lookups.count)
    let own = Set(calt.lookupIndices(feature: "calt", script: "latn", language: nil))
    // calt's chain rule calls SUB_E (lookup 0), which no feature lists.
    var called = Set<Int>()
    for index in own {
      if case .contextSubstitution(let groups) = full.lookups[index].rules {
        called.formUnion(groups.flatMap { $0.rules.flatMap { $0.actions.map(\.lookupIndex) } })
      }
    }
    #expect(!own.isEmpty && !called.isEmpty && own.isDisjoint(with: called))
    for (index, lookup) in calt.lookups.enumerated() {
      if own.contains(index) || called.contains(index) {
        #expect(lookup == full.lookups[index], "lookup \(index)")
      } else {
        #expect(lookup.rules == .empty, "lookup \(index)")
      }
    }
    // Every feature: the full read.
    let all = Set(full.languageSystems.flatMap(\.features.keys))
    #expect(face.layoutRules(.gsub, features: all).lookups == full.lookups)
  }
}
