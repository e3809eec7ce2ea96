internal import CHarfBuzz

/// What the MATH table says of one glyph, as HarfBuzz reads it: its italics correction, top
/// accent attachment, whether it is an extended shape, its math kerning at each corner, and its
/// size variants and assemblies in both directions, glyphs by name. The values a math layout
/// engine uses, whatever the table's packing: two MATH tables that differ only in how they are
/// packed give every glyph the same `MathGlyph`.
package struct MathGlyph: Sendable, Hashable {
  package var italicsCorrection = 0
  package var topAccentAttachment = 0
  package var extendedShape = false
  /// Per corner (top right, top left, bottom right, bottom left): correction heights and kerns,
  /// interleaved.
  package var kernings: [[Int]] = []
  /// Per direction (vertical, horizontal): each variant's glyph name and advance.
  package var variants: [[String]] = []
  /// Per direction: the assembly's italics correction, then each part's glyph name, overlaps,
  /// advance and flags.
  package var assemblies: [[String]] = []

  /// Whether MATH says nothing of the glyph.
  package var isEmpty: Bool {
    italicsCorrection == 0 && topAccentAttachment == 0 && !extendedShape
      && kernings.allSatisfy(\.isEmpty) && variants.allSatisfy(\.isEmpty)
      && assemblies.allSatisfy { $0.count <= 1 && ($0.first ?? "0") == "0" }
  }
}

extension HarfBuzzFont {
  /// Variants, kerning entries and parts read per glyph and direction, at most.
  static let mathListLimit = 64

  /// Whether the face has a MATH table HarfBuzz reads (calls `hb_ot_math_has_data`).
  package var hasMathData: Bool { hb_ot_math_has_data(face.pointer) != 0 }

  /// The minimum connector overlap of assemblies, vertical and horizontal (calls
  /// `hb_ot_math_get_min_connector_overlap`).
  package var mathConnectorOverlap: [Int] {
    [HB_DIRECTION_TTB, HB_DIRECTION_LTR].map {
      Int(hb_ot_math_get_min_connector_overlap(pointer, $0))
    }
  }

  /// What MATH says of `glyph`, other glyphs named by `name` (calls the `hb_ot_math_get_glyph_*`
  /// functions, each list cut at `mathListLimit`).
  package func mathGlyph(_ glyph: UInt32, name: (UInt32) -> String) -> MathGlyph {
    var out = MathGlyph()
    out.italicsCorrection = Int(hb_ot_math_get_glyph_italics_correction(pointer, glyph))
    out.topAccentAttachment = Int(hb_ot_math_get_glyph_top_accent_attachment(pointer, glyph))
    out.extendedShape = hb_ot_math_is_glyph_extended_shape(face.pointer, glyph) != 0
    let limit = HarfBuzzFont.mathListLimit
    let corners = [
      HB_OT_MATH_KERN_TOP_RIGHT, HB_OT_MATH_KERN_TOP_LEFT, HB_OT_MATH_KERN_BOTTOM_RIGHT,
      HB_OT_MATH_KERN_BOTTOM_LEFT,
    ]
    out.kernings = corners.map { corner in
      var count = UInt32(limit)
      var entries = [hb_ot_math_kern_entry_t](
        repeating: hb_ot_math_kern_entry_t(max_correction_height: 0, kern_value: 0), count: limit)
      _ = hb_ot_math_get_glyph_kernings(pointer, glyph, corner, 0, &count, &entries)
      return entries.prefix(Int(count)).flatMap {
        [Int($0.max_correction_height), Int($0.kern_value)]
      }
    }
    for direction in [HB_DIRECTION_TTB, HB_DIRECTION_LTR] {
      var count = UInt32(limit)
      var variants = [hb_ot_math_glyph_variant_t](
        repeating: hb_ot_math_glyph_variant_t(glyph: 0, advance: 0), count: limit)
      _ = hb_ot_math_get_glyph_variants(pointer, glyph, direction, 0, &count, &variants)
      out.variants.append(
        variants.prefix(Int(count)).map { "\(name($0.glyph)) \($0.advance)" })
      var parts = [hb_ot_math_glyph_part_t](
        repeating: hb_ot_math_glyph_part_t(), count: limit)
      var partCount = UInt32(limit)
      var italics: hb_position_t = 0
      _ = hb_ot_math_get_glyph_assembly(
        pointer, glyph, direction, 0, &partCount, &parts, &italics)
      out.assemblies.append(
        ["\(italics)"]
          + parts.prefix(Int(partCount)).map {
            "\(name($0.glyph)) \($0.start_connector_length) \($0.end_connector_length) "
              + "\($0.full_advance) \($0.flags.rawValue)"
          })
    }
    return out
  }
}
