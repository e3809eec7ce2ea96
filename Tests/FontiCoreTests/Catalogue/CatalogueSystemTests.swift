import Foundation
import Testing

@testable import FontiCore

/// A by-hand check, not part of the suite: with `FONTI_CATALOGUE_OUT=/path.pdf` it writes a
/// catalogue of the machine's installed families (the first `FONTI_CATALOGUE_LIMIT` when set),
/// for viewing with `pdftoppm` and measuring with `/usr/bin/time -v`.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FONTI_CATALOGUE_OUT"] != nil))
func systemCatalogue() throws {
  let env = ProcessInfo.processInfo.environment
  let output = try #require(env["FONTI_CATALOGUE_OUT"])
  let (environment, _) = try FontEnvironment.load(library: nil)
  var families = environment.catalog.families.filter(\.isRenderable)
  if let limit = env["FONTI_CATALOGUE_LIMIT"].flatMap(Int.init) {
    families = Array(families.prefix(limit))
  }
  var spec = Job.CatalogueSpec(file: Located("catalogue.pdf"))
  spec.page = env["FONTI_CATALOGUE_PAGE"].flatMap(PageSize.init(rawValue:)) ?? .a4
  spec.theme = env["FONTI_CATALOGUE_THEME"].flatMap(Theme.init(rawValue:)) ?? .cream
  let catalog = environment.catalog
  let pairs: [(String, String, String)] = [
    ("TeX Gyre Termes", "TeX Gyre Heros", "A transitional serif heading over a grotesque text."),
    ("DejaVu Serif", "DejaVu Sans", "One family's serif and sans, made to sit together."),
    ("Cantarell", "Noto Serif", "A humanist sans over a sturdy book serif."),
  ]
  let pairings = pairs.compactMap { h, b, r -> FamilyPairing<FontFamily>? in
    guard let heading = catalog.family(named: h), let body = catalog.family(named: b) else {
      return nil
    }
    return FamilyPairing<FontFamily>(heading: heading, body: body, reason: r)
  }
  var partners: [String: [FontFamily]] = [:]
  for p in pairings {
    partners[p.heading.name, default: []].append(p.body)
    partners[p.body.name, default: []].append(p.heading)
  }
  let saved = ["DejaVu Serif", "Noto Sans Bengali", "TeX Gyre Heros", "Cantarell", "D050000L"]
    .compactMap { catalog.family(named: $0) }
  let input = CatalogueInput(
    spec: spec, title: "Winter type review", author: "Studio North",
    texts: ["The quick brown fox jumps over the lazy dog", "0123456789 — “quotes”, & fi fl ffi"],
    families: families, partners: partners, pairings: pairings, saved: saved,
    creationDate: Timestamp.now())
  let start = Date()
  let result = try CatalogueWriter(environment: environment).write(input, to: output)
  print(
    "catalogue: \(families.count) families, \(result.pages) pages, "
      + "\(String(format: "%.1f", Date().timeIntervalSince(start))) s, "
      + "\(result.warnings.count) warnings, "
      + "missing glyphs in \(result.missingGlyphs.count) families"
  )
  for w in result.warnings { print("warning: \(w)") }
}
