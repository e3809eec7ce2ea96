import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel

/// The curated map's invariants and the lookups strips and sheets rely on.
@Suite struct PairingMapTests {
  let map = PairingMap.curated

  @Test func curatedMapIsBigEnough() {
    #expect(map.pairings.count >= 25)
    #expect(Set(map.families.map { $0.lowercased() }).count >= 20)
  }

  @Test func curatedMapHasNoSelfPairsOrDuplicates() {
    var seen = Set<String>()
    for p in map.pairings {
      #expect(p.heading.lowercased() != p.body.lowercased(), "self-pair \(p.heading)")
      let pair = [p.heading.lowercased(), p.body.lowercased()].sorted().joined(separator: "|")
      #expect(seen.insert(pair).inserted, "\(p.heading) + \(p.body) appears twice")
    }
  }

  @Test func everyPairingHasAOneLineReason() {
    for p in map.pairings {
      let reason = p.reason.trimmingCharacters(in: .whitespaces)
      #expect(!reason.isEmpty, "\(p.heading) + \(p.body) has no reason")
      #expect(!p.reason.contains("\n"), "\(p.heading) + \(p.body): reason is not one line")
      #expect(p.reason.hasSuffix("."), "\(p.heading) + \(p.body): reason is not a sentence")
      if let s = p.standsInFor { #expect(s.contains(" + ")) }
      for name in [p.heading, p.body] {
        #expect(name == name.trimmingCharacters(in: .whitespaces) && !name.isEmpty)
      }
    }
  }

  @Test func lookupsAreSymmetric() {
    for family in map.families {
      for partner in map.partners(of: family) {
        let back = map.partners(of: partner.partner)
        let expectedRole: PairingRole = partner.role == .body ? .heading : .body
        #expect(
          back.contains {
            $0.partner.lowercased() == family.lowercased() && $0.role == expectedRole
              && $0.pairing == partner.pairing
          }, "\(family) → \(partner.partner) has no way back")
      }
    }
  }

  @Test func lookupsIgnoreCase() {
    #expect(map.partners(of: "tex gyre termes") == map.partners(of: "TeX Gyre Termes"))
    #expect(map.canonicalName(of: "P052") == "P052")
    #expect(map.canonicalName(of: "nimbus SANS") == "Nimbus Sans")
    #expect(map.partners(of: "No Such Family").isEmpty)
  }

  @Test func rolesAreThePartnersRoles() {
    let partners = map.partners(of: "TeX Gyre Termes")
    let heros = partners.first { $0.partner == "TeX Gyre Heros" }
    #expect(heros?.role == .heading)
    #expect(heros?.pairing.body == "TeX Gyre Termes")
    #expect(partners.count >= 2)
  }

  @Test func openStandInsOfTheAppsFamiliesAreMapped() {
    for apple in [
      "Helvetica", "Helvetica Neue", "Times", "Palatino", "Georgia", "Baskerville", "Bodoni 72",
      "Avenir Next", "Futura",
    ] {
      let standIn = PairingMap.standIn(for: apple)
      #expect(standIn != nil, "no stand-in for \(apple)")
      #expect(!(standIn?.open.isEmpty ?? true))
      #expect(!(standIn?.note.isEmpty ?? true))
    }
    for name in [
      "Nimbus Sans", "TeX Gyre Heros", "Nimbus Roman", "TeX Gyre Termes", "P052",
      "TeX Gyre Pagella", "Gelasio",
    ] {
      #expect(map.contains(name), "\(name) is not in the map")
    }
    // Every Apple pairing the map stands in for is said so on the pairing.
    #expect(map.pairings.contains { $0.standsInFor == "Helvetica Neue + Georgia" })
    #expect(map.pairings.contains { ($0.standsInFor ?? "").contains("Bodoni 72") })
    #expect(map.pairings.contains { ($0.standsInFor ?? "").contains("Baskerville") })
    #expect(map.pairings.contains { ($0.standsInFor ?? "").contains("Avenir Next") })
  }

  @Test func mergingDropsRepeatsAndKeepsTheCuratedReason() {
    let extra = [
      Pairing(heading: "tex gyre heros", body: "TeX Gyre Termes", reason: "mine"),
      Pairing(heading: "TeX Gyre Termes", body: "TeX Gyre Heros", reason: "reversed"),
      Pairing(heading: "Lato", body: "Inter", reason: "new"),
      Pairing(heading: "LATO", body: "inter", reason: "again"),
    ]
    let merged = map.merging(extra: extra)
    #expect(merged.pairings.count == map.pairings.count + 2)
    let same = merged.pairings.filter {
      $0.heading.lowercased() == "tex gyre heros" && $0.body.lowercased() == "tex gyre termes"
    }
    #expect(same.count == 1)
    #expect(same.first?.reason == map.pairings(with: "TeX Gyre Heros").first?.reason)
    #expect(merged.partners(of: "Inter").contains { $0.partner == "Lato" && $0.role == .heading })
    #expect(merged.pairings.last?.reason == "new")
  }
}
