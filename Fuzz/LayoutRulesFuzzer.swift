import Foundation

@testable import FontiText

/// libFuzzer's entry point for the layout reader (`LayoutRules`): GSUB's and GPOS's script,
/// feature and lookup lists, FeatureVariations, every lookup type (extension, context and
/// chained context formats 1–3, pair classes, mark attachments), Coverage, ClassDef, Device
/// and VariationIndex tables, and GDEF's classes, mark sets and ItemVariationStore.
///
/// Each input is read twice over: as a font (its own GSUB, GPOS and GDEF, at the default and
/// at a corner of its axes, and for a few features only, as the proofs read it), and as raw bytes given as GSUB, GPOS and GDEF at once, so that a
/// mutation reaches the reader without the table directory in the way. Seeded with every font
/// under `Tests/` of at most 128 KiB and `Tests/Fixtures/Layout` (its DejaVu tables raw).
/// Linked against the text target (see `Fuzz/fuzz.sh`). The only failures are a crash, a trap,
/// a sanitizer report, a timeout (work the budget does not bound), or a broken promise checked
/// here: one read of the same bytes equals another.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayoutRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let raw = UnsafeRawBufferPointer(start: data, count: size)
  for table in LayoutTable.allCases {
    let rules = LayoutRules.read(
      table, raw, gdef: raw, glyphCount: 600, coordinates: [-8192, 16384])
    if rules
      != LayoutRules.read(table, raw, gdef: raw, glyphCount: 600, coordinates: [-8192, 16384])
    {
      fuzzFailure("two reads of the same \(table.rawValue) differ")
    }
  }
  _ = LayoutGlyphDefinitions.read(raw, glyphCount: 600)
  FuzzFont.withFile(data, size) { path in
    guard let face = try? HarfBuzzFace(file: path) else { return }
    let corner = face.normalizedCoordinates([("wght", 1000), ("wdth", 25), ("opsz", 8)])
    for table in LayoutTable.allCases {
      let whole = face.layoutRules(table)
      _ = face.layoutRules(table, coordinates: corner).featureRules
      // The proofs' read of some features only (and the lookups their context rules call).
      let some = whole.languageSystems.first.map { Array($0.features.keys.sorted().prefix(3)) }
      _ = face.layoutRules(table, features: Set(some ?? []))
      // The proofs' source, asked feature by feature: each answer as a fresh read gives it.
      let source = face.layoutRuleSource(table)
      for tag in some ?? [] {
        let fresh = face.layoutRules(table, features: [tag])
        let answer = source.rules(features: [tag])
        for (index, lookup) in fresh.lookups.enumerated()
        where lookup.rules != .empty && index < answer.lookups.count
          && answer.lookups[index] != lookup
        {
          fuzzFailure("the source's \(table.rawValue) lookup \(index) for \(tag) differs")
        }
      }
    }
    _ = face.glyphDefinitions
  }
  return 0
}
