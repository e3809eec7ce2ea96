import Testing

@testable import FontiCore

/// Catalogues made of names only, so that these tests never depend on the machine's fonts.
enum PairingFixtures {
  /// `names` as drawable system families, `type1` as families Pango cannot draw, `custom` as
  /// imported ones.
  static func catalog(_ names: [String], type1: [String] = [], custom: [String] = [])
    -> FontCatalog
  {
    func family(_ name: String, format: String, isCustom: Bool) -> FontFamily {
      let face = FontFace(
        style: "Regular", weight: 80, slant: 0, file: "/fonts/\(name)", format: format)
      return FontFamily(name: name, faces: [face], isCustom: isCustom)
    }
    return FontCatalog(
      families: names.map { family($0, format: "CFF", isCustom: false) }
        + type1.map { family($0, format: "Type 1", isCustom: false) }
        + custom.map { family($0, format: "TrueType", isCustom: true) })
  }
}

/// Which pairings a run renders, and which partners a strip shows.
@Suite struct PairingSelectionTests {
  let catalog = PairingFixtures.catalog(
    ["TeX Gyre Heros", "TeX Gyre Termes", "Nimbus Sans", "P052", "Lato", "EB Garamond"],
    type1: ["Nimbus Roman"])

  func keys(_ pairings: [FamilyPairing<FontFamily>]) -> [String] {
    pairings.map { "\($0.heading.name) + \($0.body.name)" }
  }

  func names(_ families: [FontFamily]) -> [String] { families.map(\.name) }

  @Test func aPairingRendersWhenBothAreAvailableAndOneIsSelected() {
    let rendered = keys(PairingMap.curated.pairingsToRender(in: catalog, selected: ["P052"]))
    #expect(rendered == ["Nimbus Sans + P052"])
    let both = keys(
      PairingMap.curated.pairingsToRender(in: catalog, selected: ["tex gyre termes", "Lato"]))
    #expect(both == ["TeX Gyre Heros + TeX Gyre Termes", "Lato + EB Garamond"])
  }

  @Test func nothingRendersWithoutASelectedFamily() {
    #expect(PairingMap.curated.pairingsToRender(in: catalog, selected: []).isEmpty)
    // Gelasio is not in the catalogue: its pairings never render, even with Lato selected.
    let lato = PairingMap.curated.pairingsToRender(in: catalog, selected: ["Lato"])
    #expect(!lato.contains { $0.involves("Gelasio") })
  }

  @Test func aFamilyPangoCannotDrawIsNotAvailable() {
    // Nimbus Roman is Type 1 only here.
    let rendered = PairingMap.curated.pairingsToRender(in: catalog, selected: ["Nimbus Sans"])
    #expect(!rendered.contains { $0.involves("Nimbus Roman") })
    #expect(keys(rendered) == ["Nimbus Sans + P052"])
  }

  @Test func extraPairingsAlwaysRenderOnceAndSpelledAsInstalled() {
    let extra = [
      Pairing(heading: "lato", body: "tex gyre termes", reason: PairingMap.extraReason),
      Pairing(heading: "TeX Gyre Heros", body: "TeX Gyre Termes", reason: "dup"),
    ]
    let rendered = PairingMap.curated.pairingsToRender(
      in: catalog, selected: ["TeX Gyre Heros"], extra: extra)
    #expect(keys(rendered) == ["TeX Gyre Heros + TeX Gyre Termes", "Lato + TeX Gyre Termes"])
    #expect(rendered.first?.reason != "dup")
    let none = PairingMap.curated.pairingsToRender(in: catalog, selected: [], extra: extra)
    #expect(keys(none) == ["Lato + TeX Gyre Termes", "TeX Gyre Heros + TeX Gyre Termes"])
  }

  @Test func aJobWithCuratedOffRendersOnlyItsExtras() {
    var job = Job(path: "job.yaml", directory: "/tmp", output: "/tmp/out")
    job.extraPairings = [
      Job.PairingSpec(heading: Located("Lato"), body: Located("P052"))
    ]
    let on = PairingMap(for: job, catalog: catalog).pairingsToRender(
      in: catalog, selected: ["P052"])
    #expect(keys(on) == ["Nimbus Sans + P052", "Lato + P052"])
    #expect(on.last?.reason == PairingMap.extraReason)
    job.curatedPairings = false
    let off = PairingMap(for: job, catalog: catalog).pairingsToRender(
      in: catalog, selected: ["P052"])
    #expect(keys(off) == ["Lato + P052"])
    // The job's map, used for strips, has the extra pairing in both directions.
    #expect(
      names(PairingMap(for: job, catalog: catalog).strip(for: "P052", catalog: catalog))
        == ["Lato"])
  }

  @Test func anExtraPairingTheMapKnowsKeepsTheCuratedReason() {
    var job = Job(path: nil, directory: "/tmp", output: "/tmp/out")
    job.extraPairings = [
      Job.PairingSpec(heading: Located("tex gyre termes"), body: Located("TeX Gyre Heros"))
    ]
    let extra = PairingMap.extraPairings(of: job, catalog: catalog)
    #expect(extra.first?.heading == "TeX Gyre Termes")
    let curated = PairingMap.curated.pairings(with: "TeX Gyre Termes").first
    #expect(extra.first?.reason == curated?.reason)
  }

  @Test func stripsShowOnlyDrawableInstalledPartnersInMapOrder() {
    let map = PairingMap.curated
    #expect(names(map.strip(for: "Nimbus Sans", catalog: catalog)) == ["P052"])
    #expect(names(map.strip(for: "lato", catalog: catalog)) == ["EB Garamond"])
    #expect(names(map.strip(for: "Gelasio", catalog: catalog)) == ["TeX Gyre Heros", "Lato"])
    #expect(map.strip(for: "Unknown", catalog: catalog).isEmpty)
    let wide = PairingFixtures.catalog(map.families)
    let strip = names(map.strip(for: "Lato", catalog: wide))
    #expect(strip.count == 4)
    #expect(strip == map.partners(of: "Lato").prefix(4).map(\.partner))
    #expect(names(map.strip(for: "Lato", catalog: wide, limit: 2)) == Array(strip.prefix(2)))
  }
}
