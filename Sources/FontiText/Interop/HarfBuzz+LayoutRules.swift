internal import CHarfBuzz

extension HarfBuzzFace {
  /// Design coordinates by axis tag as normalized coordinates (F2Dot14, `avar` applied), one per
  /// axis of `fvar` (calls `hb_ot_var_normalize_variations`); axes not given are at their
  /// default (0). What `LayoutRules.read` takes.
  package func normalizedCoordinates(_ design: [(tag: String, value: Double)]) -> [Int] {
    let axisCount = min(Int(hb_ot_var_get_axis_count(pointer)), 64)
    guard axisCount > 0 else { return [] }
    let variations = design.map {
      hb_variation_t(tag: HarfBuzzTag.make($0.tag), value: Float($0.value))
    }
    var coordinates = [Int32](repeating: 0, count: axisCount)
    hb_ot_var_normalize_variations(
      pointer, variations, UInt32(variations.count), &coordinates, UInt32(axisCount))
    return coordinates.map { Int($0) }
  }

  /// The rules of the face's GSUB or GPOS at normalized `coordinates` (none: the default
  /// instance), read from its tables' bytes with GDEF's (`LayoutRules.read`). With
  /// `features`, only their lookups (and those their context rules call) are read, the others
  /// left `.empty`: what the proofs need for one feature, at a fraction of the cost.
  package func layoutRules(
    _ table: LayoutTable, coordinates: [Int] = [], features: Set<String>? = nil
  ) -> LayoutRules {
    let glyphs = glyphCount
    return withTable("GDEF") { gdef in
      withTable(table.rawValue) { bytes in
        LayoutRules.read(
          table, bytes, gdef: gdef, glyphCount: glyphs, coordinates: coordinates,
          features: features)
      }
    }
  }

  /// The face's GSUB or GPOS at normalized `coordinates`, to be read a few features at a time,
  /// each lookup once (`LayoutRuleSource`).
  package func layoutRuleSource(_ table: LayoutTable, coordinates: [Int] = [])
    -> LayoutRuleSource
  {
    let glyphs = glyphCount
    return withTable("GDEF") { gdef in
      withTable(table.rawValue) { bytes in
        LayoutRuleSource(
          table, bytes, gdef: gdef, glyphCount: glyphs, coordinates: coordinates)
      }
    }
  }

  /// GDEF's glyph classes, mark attachment classes and mark glyph sets.
  package var glyphDefinitions: LayoutGlyphDefinitions {
    let glyphs = glyphCount
    return withTable("GDEF") { LayoutGlyphDefinitions.read($0, glyphCount: glyphs) }
  }
}
