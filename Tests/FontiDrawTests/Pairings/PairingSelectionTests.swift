import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

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
      Job.PairingSpec(heading: Located("tex gyre heros"), body: Located("TeX Gyre Termes"))
    ]
    let extra = PairingMap.extraPairings(of: job, catalog: catalog)
    #expect(extra.first?.heading == "TeX Gyre Heros")
    let curated = PairingMap.curated.pairings(with: "TeX Gyre Termes").first
    #expect(curated?.heading == "TeX Gyre Heros")
    #expect(extra.first?.reason == curated?.reason)
  }

  /// A curated reason reads in the map's order ("a warm sans over a Renaissance old-style"): a
  /// job's pairing that turns it over does not take it as its own.
  @Test func anExtraPairingTurnedOverSaysSoRatherThanTakeTheCuratedReason() throws {
    var job = Job(path: nil, directory: "/tmp", output: "/tmp/out")
    job.extraPairings = [
      Job.PairingSpec(heading: Located("EB Garamond"), body: Located("lato"))
    ]
    let extra = try #require(PairingMap.extraPairings(of: job, catalog: catalog).first)
    let curated = try #require(
      PairingMap.curated.pairings(with: "Lato").first {
        $0.heading == "Lato" && $0.body == "EB Garamond"
      })
    #expect(extra.heading == "EB Garamond" && extra.body == "Lato")
    #expect(extra.reason != curated.reason)
    #expect(
      extra.reason
        == "Chosen in the job (pairings.extra): the map pairs them the other way round, "
        + "EB Garamond under Lato — “\(curated.reason)”")
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

/// What each family of a pairing sets.
struct PairingTextTests {
  /// A family sets the pairing's text when it can; a Hebrew family its own-script sample in
  /// Hebrew (the sheet was a line of boxes); a symbol font a row of its own glyphs (it would
  /// draw pictographs in place of the letters, as if they were the text).
  @Test func eachFamilySetsWhatItCan() throws {
    let catalog = try TestFonts.environment().catalog
    let text = PairingSheetText.heading
    let serif = try #require(catalog.family(named: "DejaVu Serif"))
    #expect(PairingSheetText.text(text, for: serif) == (text, nil))

    let hebrew = try #require(catalog.family(named: "Noto Sans Hebrew"))
    let own = PairingSheetText.text(text, for: hebrew)
    #expect(own.language == "he")
    #expect(own.text.unicodeScalars.contains { (0x05D0...0x05EA).contains($0.value) })
    #expect(hebrew.coverage.missing(in: own.text).allSatisfy { $0.properties.isWhitespace })

    let symbols = try #require(catalog.family(named: "D050000L"))
    let glyphs = PairingSheetText.text(text, for: symbols)
    #expect(glyphs.language == nil)
    #expect(glyphs.text != text && !glyphs.text.isEmpty)
  }

  /// A sheet of a Hebrew heading over a Latin body draws no box: each sets what it can.
  @Test func aSheetOfAnotherScriptDrawsNoBox() throws {
    let environment = try TestFonts.environment()
    let hebrew = try #require(environment.catalog.family(named: "Noto Sans Hebrew"))
    let serif = try #require(environment.catalog.family(named: "DejaVu Serif"))
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try SpecimenRenderer(environment: environment).renderPairing(
      PairingSheetRequest(heading: hebrew, body: serif, reason: "r", edge: 540),
      to: folder + "/p.png")
    #expect(result.missingGlyphs == 0, "\(result.warnings)")
  }

  /// A sheet whose families both set its texts has a second level under the body when it fits
  /// whole: a subheading in the heading's face and a paragraph at reading size. A sheet with a
  /// family in its own script has none (the Hebrew sample would only be repeated).
  @Test func sheetsInGolden() throws {
    let environment = try TestFonts.environment()
    let renderer = SpecimenRenderer(environment: environment)
    let catalog = environment.catalog
    let sans = try #require(catalog.family(named: "Cantarell"))
    let serif = try #require(catalog.family(named: "DejaVu Serif"))
    let hebrew = try #require(catalog.family(named: "Noto Sans Hebrew"))
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (name, heading) in [("pairing-sheet", sans), ("pairing-sheet-own-script", hebrew)] {
      let path = folder + "/\(name).png"
      let result = try renderer.renderPairing(
        PairingSheetRequest(heading: heading, body: serif, reason: "A reason.", edge: 540),
        to: path)
      #expect(result.missingGlyphs == 0, "\(result.warnings)")
      try Golden.checkImage(path, named: name)
    }
  }
}
