internal import CHarfBuzz
import Foundation

/// The two OpenType layout tables whose features proofs list.
package enum LayoutTable: String, CaseIterable, Sendable {
  case gsub = "GSUB"
  case gpos = "GPOS"

  var tag: UInt32 { HarfBuzzTag.make(rawValue) }
}

/// One variation axis as `fvar` declares it, in user units (min ≤ default ≤ max: HarfBuzz
/// orders a hostile font's values).
struct HarfBuzzAxis {
  var tag: UInt32
  var nameID: UInt32
  var isHidden: Bool
  var min: Float
  var defaultValue: Float
  var max: Float
}

/// One named instance of `fvar`: its subfamily name ID and a design coordinate per axis.
package struct HarfBuzzNamedInstance {
  package var subfamilyNameID: UInt32
  package var coordinates: [Float]
}

/// A language system of a layout table: a script, and a language (nil for the script's
/// default), with the feature tags it lists.
package struct HarfBuzzLanguageSystem {
  package var script: UInt32
  package var language: UInt32?
  package var features: [UInt32]
  var scriptIndex: UInt32
  /// `HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX` for the script's default language system.
  var languageIndex: UInt32
}

/// The glyph sets `hb_ot_layout_lookup_collect_glyphs` reports for one lookup.
package struct HarfBuzzLookupGlyphs {
  package var before: [UInt32]
  package var input: [UInt32]
  package var after: [UInt32]
}

// MARK: - Variations and names

extension HarfBuzzFace {
  /// Every variation axis, in `fvar` order (calls `hb_ot_var_get_axis_infos`); at most `limit`.
  func axes(limit: Int = 64) -> [HarfBuzzAxis] {
    var count = UInt32(max(0, limit))
    var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
    hb_ot_var_get_axis_infos(pointer, 0, &count, &infos)
    return infos.prefix(Int(count)).map {
      HarfBuzzAxis(
        tag: $0.tag, nameID: $0.name_id,
        isHidden: $0.flags.rawValue & HB_OT_VAR_AXIS_FLAG_HIDDEN.rawValue != 0,
        min: $0.min_value, defaultValue: $0.default_value, max: $0.max_value)
    }
  }

  /// The named instances, in `fvar` order, at most `limit` (calls
  /// `hb_ot_var_named_instance_get_subfamily_name_id`, `…_get_design_coords`).
  package func namedInstances(limit: Int = 256, axisLimit: Int = 64) -> [HarfBuzzNamedInstance] {
    let count = min(Int(hb_ot_var_get_named_instance_count(pointer)), max(0, limit))
    // As many coordinates as `axes()` reads: a hostile fvar may declare 65,535 axes.
    let axisCount = min(Int(hb_ot_var_get_axis_count(pointer)), axisLimit)
    return (0..<count).map { index in
      var length = UInt32(axisCount)
      var coordinates = [Float](repeating: 0, count: axisCount)
      hb_ot_var_named_instance_get_design_coords(pointer, UInt32(index), &length, &coordinates)
      return HarfBuzzNamedInstance(
        subfamilyNameID: hb_ot_var_named_instance_get_subfamily_name_id(pointer, UInt32(index)),
        coordinates: Array(coordinates.prefix(Int(length))))
    }
  }

  /// Name `id` of the `name` table: English if the font has it, else the first language it
  /// has; at most `maxBytes` of UTF-8 (a hostile name can be 64 KB). nil when the font has no
  /// such name. Calls `hb_ot_name_list_names` and `hb_ot_name_get_utf8`.
  package func name(_ id: UInt32, maxBytes: Int = 1024) -> String? {
    guard id != UInt32(HB_OT_NAME_ID_INVALID) else { return nil }
    var count: UInt32 = 0
    guard let entries = hb_ot_name_list_names(pointer, &count), count > 0 else { return nil }
    var chosen: hb_language_t?
    var found = false
    for entry in UnsafeBufferPointer(start: entries, count: Int(count)) where entry.name_id == id {
      let tag = entry.language.flatMap { hb_language_to_string($0) }.map { String(cString: $0) }
      if !found || (tag ?? "").hasPrefix("en") && !(HarfBuzzFace.isEnglish(chosen)) {
        chosen = entry.language
        found = true
      }
    }
    guard found else { return nil }
    var size = UInt32(max(1, maxBytes) + 1)
    var bytes = [CChar](repeating: 0, count: Int(size))
    hb_ot_name_get_utf8(pointer, id, chosen, &size, &bytes)
    let written = Int(min(size, UInt32(bytes.count - 1)))
    // A cut in the middle of a character decodes as U+FFFD, which sanitising later drops.
    return String(decoding: bytes.prefix(written).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func isEnglish(_ language: hb_language_t?) -> Bool {
    guard let language, let text = hb_language_to_string(language) else { return false }
    return String(cString: text).hasPrefix("en")
  }
}

// MARK: - Layout tables

extension HarfBuzzFace {
  /// The feature tags of `table` in FeatureList order, repeats included (a font lists `locl`
  /// once per language system); at most `limit` (calls `hb_ot_layout_table_get_feature_tags`).
  package func featureTags(_ table: LayoutTable, limit: Int = 4096) -> [UInt32] {
    var count = UInt32(max(0, limit))
    var tags = [UInt32](repeating: 0, count: Int(count))
    hb_ot_layout_table_get_feature_tags(pointer, table.tag, 0, &count, &tags)
    return Array(tags.prefix(Int(count)))
  }

  /// The `name` ID of a feature's UI label (`ssNN` and `cvNN` feature parameters), nil when it
  /// has none (calls `hb_ot_layout_feature_get_name_ids`).
  package func featureLabelNameID(_ table: LayoutTable, featureIndex: Int) -> UInt32? {
    var label = UInt32(HB_OT_NAME_ID_INVALID)
    let has = hb_ot_layout_feature_get_name_ids(
      pointer, table.tag, UInt32(featureIndex), &label, nil, nil, nil, nil)
    return has != 0 && label != UInt32(HB_OT_NAME_ID_INVALID) ? label : nil
  }

  /// Every language system of `table`, script by script, the default one of each script first
  /// (calls `hb_ot_layout_table_get_script_tags`, `…_script_get_language_tags`,
  /// `…_language_get_feature_tags`); at most `limit`.
  package func languageSystems(_ table: LayoutTable, limit: Int = 512) -> [HarfBuzzLanguageSystem] {
    var out: [HarfBuzzLanguageSystem] = []
    var scriptCount: UInt32 = 64
    var scripts = [UInt32](repeating: 0, count: Int(scriptCount))
    hb_ot_layout_table_get_script_tags(pointer, table.tag, 0, &scriptCount, &scripts)
    for (scriptIndex, script) in scripts.prefix(Int(scriptCount)).enumerated() {
      let s = UInt32(scriptIndex)
      let defaultIndex = UInt32(HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX)
      out.append(
        HarfBuzzLanguageSystem(
          script: script, language: nil,
          features: languageFeatures(table, script: s, language: defaultIndex),
          scriptIndex: s, languageIndex: defaultIndex))
      var languageCount: UInt32 = 128
      var languages = [UInt32](repeating: 0, count: Int(languageCount))
      hb_ot_layout_script_get_language_tags(pointer, table.tag, s, 0, &languageCount, &languages)
      for (languageIndex, language) in languages.prefix(Int(languageCount)).enumerated() {
        guard out.count < limit else { return out }
        out.append(
          HarfBuzzLanguageSystem(
            script: script, language: language,
            features: languageFeatures(table, script: s, language: UInt32(languageIndex)),
            scriptIndex: s, languageIndex: UInt32(languageIndex)))
      }
    }
    return out
  }

  private func languageFeatures(_ table: LayoutTable, script: UInt32, language: UInt32)
    -> [UInt32]
  {
    var count: UInt32 = 256
    var tags = [UInt32](repeating: 0, count: Int(count))
    hb_ot_layout_language_get_feature_tags(
      pointer, table.tag, script, language, 0, &count, &tags)
    return Array(tags.prefix(Int(count)))
  }

  /// The lookups `feature` uses anywhere in `table` (calls `hb_ot_layout_collect_lookups`);
  /// indices past the table's lookup list (a hostile font) are dropped.
  package func lookups(_ table: LayoutTable, feature: UInt32) -> [UInt32] {
    let set = HarfBuzzSet.make()
    defer { hb_set_destroy(set) }
    let features: [UInt32] = [feature, 0]
    hb_ot_layout_collect_lookups(pointer, table.tag, nil, nil, features, set)
    let count = hb_ot_layout_table_get_lookup_count(pointer, table.tag)
    return HarfBuzzSet.values(set).filter { $0 < count }
  }

  /// The lookups `feature` uses in one language system (calls
  /// `hb_ot_layout_language_find_feature`, `hb_ot_layout_feature_get_lookups`).
  package func lookups(_ table: LayoutTable, feature: UInt32, in system: HarfBuzzLanguageSystem)
    -> [UInt32]
  {
    var featureIndex: UInt32 = 0
    guard
      hb_ot_layout_language_find_feature(
        pointer, table.tag, system.scriptIndex, system.languageIndex, feature, &featureIndex)
        != 0
    else { return [] }
    var count: UInt32 = 256
    var lookups = [UInt32](repeating: 0, count: Int(count))
    hb_ot_layout_feature_get_lookups(pointer, table.tag, featureIndex, 0, &count, &lookups)
    let total = hb_ot_layout_table_get_lookup_count(pointer, table.tag)
    return lookups.prefix(Int(count)).filter { $0 < total }
  }

  /// The glyphs one lookup reads before, as, and after its input (calls
  /// `hb_ot_layout_lookup_collect_glyphs`); each set cut at `limit`.
  package func lookupGlyphs(_ table: LayoutTable, lookup: UInt32, limit: Int = 4096)
    -> HarfBuzzLookupGlyphs
  {
    let before = HarfBuzzSet.make()
    let input = HarfBuzzSet.make()
    let after = HarfBuzzSet.make()
    defer {
      hb_set_destroy(before)
      hb_set_destroy(input)
      hb_set_destroy(after)
    }
    hb_ot_layout_lookup_collect_glyphs(pointer, table.tag, lookup, before, input, after, nil)
    return HarfBuzzLookupGlyphs(
      before: HarfBuzzSet.values(before, limit: limit),
      input: HarfBuzzSet.values(input, limit: limit),
      after: HarfBuzzSet.values(after, limit: limit))
  }

  /// Whether GSUB lookup `lookup` would substitute the glyph sequence `glyphs` (calls
  /// `hb_ot_layout_lookup_would_substitute`; without `zeroContext`, a contextual rule's
  /// backtrack and lookahead are not required).
  package func wouldSubstitute(lookup: UInt32, glyphs: [UInt32], zeroContext: Bool = false) -> Bool
  {
    hb_ot_layout_lookup_would_substitute(
      pointer, lookup, glyphs, UInt32(glyphs.count), zeroContext ? 1 : 0) != 0
  }

  /// `glyphs` plus every glyph the GSUB `lookups` can turn them into (calls
  /// `hb_ot_layout_lookups_substitute_closure`).
  package func substituteClosure(lookups: [UInt32], glyphs: [UInt32]) -> Set<UInt32> {
    let lookupSet = HarfBuzzSet.make(lookups)
    let glyphSet = HarfBuzzSet.make(glyphs)
    defer {
      hb_set_destroy(lookupSet)
      hb_set_destroy(glyphSet)
    }
    hb_ot_layout_lookups_substitute_closure(pointer, lookupSet, glyphSet)
    return Set(HarfBuzzSet.values(glyphSet))
  }

  /// The script and language HarfBuzz uses for OpenType tags: `'cyrl'`, `'SRB '` → "sr"
  /// (calls `hb_ot_tag_to_language`). Unregistered tags come back as HarfBuzz's private
  /// `x-hbot-…` form, which it maps back to the same tag when shaping.
  package static func bcp47(language tag: UInt32) -> String? {
    guard let language = hb_ot_tag_to_language(tag), let text = hb_language_to_string(language)
    else { return nil }
    return String(cString: text)
  }
}

extension HarfBuzzSet {
  /// A new empty `hb_set_t`, or one holding `values`; the caller destroys it.
  static func make(_ values: [UInt32] = []) -> OpaquePointer {
    guard let set = hb_set_create() else { preconditionFailure("harfbuzz: out of memory") }
    for value in values { hb_set_add(set, value) }
    return set
  }
}

// MARK: - Characters and shaping

extension HarfBuzzFont {
  /// Each glyph's lowest code point in the cmap, indexed by glyph ID (0: none). Built with
  /// `hb_face_collect_unicodes` and `hb_font_get_nominal_glyphs` (HarfBuzz 6 has no
  /// `hb_face_collect_nominal_glyph_mapping`); code points past `limit` are not mapped.
  package func reverseCharacterMap(limit: Int = 65536) -> [UInt32] {
    var map = [UInt32](repeating: 0, count: face.glyphCount)
    let unicodes = Array(face.unicodes.prefix(limit))
    var glyphs = [UInt32](repeating: 0, count: unicodes.count)
    var start = 0
    while start < unicodes.count {
      let done = unicodes.withUnsafeBufferPointer { u in
        glyphs.withUnsafeMutableBufferPointer { g in
          Int(
            hb_font_get_nominal_glyphs(
              pointer, UInt32(u.count - start), u.baseAddress.map { $0 + start },
              UInt32(MemoryLayout<UInt32>.stride), g.baseAddress.map { $0 + start },
              UInt32(MemoryLayout<UInt32>.stride)))
        }
      }
      start += done + 1  // HarfBuzz stops at the first code point it cannot map: skip it
    }
    // Ascending code points: the first one to claim a glyph is its lowest.
    for (unicode, glyph) in zip(unicodes, glyphs) where glyph != 0 && Int(glyph) < map.count {
      if map[Int(glyph)] == 0 { map[Int(glyph)] = unicode }
    }
    return map
  }

}

/// A reusable `hb_buffer_t`; owns one reference.
package final class HarfBuzzBuffer {
  let pointer: OpaquePointer
  /// The last language shaped in, as given and as HarfBuzz's interned tag: looking a tag up
  /// (`hb_language_from_string`) costs more than shaping the two letters of a kerning pair.
  private var language: (tag: String, value: hb_language_t?)?

  package init() {
    guard let buffer = hb_buffer_create() else { preconditionFailure("harfbuzz: out of memory") }
    pointer = buffer
  }

  deinit { hb_buffer_destroy(pointer) }

  /// Shapes `text` with `font` (calls `hb_shape`): direction and script guessed from the text,
  /// `language` a BCP 47 tag, `features` applied to the whole text, `(tag, 0)` turning a
  /// default feature off. Empty when HarfBuzz could not allocate.
  package func shape(
    _ text: [Unicode.Scalar], font: HarfBuzzFont, language: String,
    features: [(tag: UInt32, value: UInt32)]
  ) -> [ShapedGlyph] {
    shape(text, font: font, language: language, features: features, ranges: nil)
  }

  /// `shape(_:font:language:features:)` with each feature applied to `ranges` of `text` only
  /// (offsets in Unicode scalars, HarfBuzz's feature `start`/`end` over the clusters), or to
  /// the whole text when `ranges` is nil. A range only adds the feature where it is: the
  /// shaper's own masks (an Indic reph, an Arabic initial form) still apply elsewhere, so
  /// turning a default feature off takes the whole text.
  package func shape(
    _ text: [Unicode.Scalar], font: HarfBuzzFont, language: String,
    features: [(tag: UInt32, value: UInt32)], ranges: [Range<Int>]?
  ) -> [ShapedGlyph] {
    hb_buffer_clear_contents(pointer)
    text.withUnsafeBufferPointer { scalars in
      scalars.withMemoryRebound(to: UInt32.self) { codepoints in
        hb_buffer_add_utf32(
          pointer, codepoints.baseAddress, Int32(codepoints.count), 0, Int32(codepoints.count))
      }
    }
    if self.language?.tag != language {
      self.language = (language, hb_language_from_string(language, -1))
    }
    hb_buffer_set_language(pointer, self.language?.value)
    hb_buffer_guess_segment_properties(pointer)
    if features.isEmpty {
      hb_shape(font.pointer, pointer, nil, 0)
    } else {
      var spans: [(start: UInt32, end: UInt32)] = [(start: 0, end: UInt32.max)]
      if let ranges {
        spans = ranges.map {
          (start: UInt32(clamping: $0.lowerBound), end: UInt32(clamping: $0.upperBound))
        }
      }
      let list = features.flatMap { feature in
        spans.map {
          hb_feature_t(tag: feature.tag, value: feature.value, start: $0.start, end: $0.end)
        }
      }
      hb_shape(font.pointer, pointer, list, UInt32(list.count))
    }
    guard hb_buffer_allocation_successful(pointer) != 0 else { return [] }
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(pointer, &count), count > 0,
      let positions = hb_buffer_get_glyph_positions(pointer, nil)
    else { return [] }
    return (0..<Int(count)).map { i in
      ShapedGlyph(
        glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
        xAdvance: Int(positions[i].x_advance), yAdvance: Int(positions[i].y_advance),
        xOffset: Int(positions[i].x_offset), yOffset: Int(positions[i].y_offset))
    }
  }
}
