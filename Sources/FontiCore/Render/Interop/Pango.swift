import Foundation

internal import CCairo
internal import CFontconfig
internal import CPango

/// A Pango font map bound to one fontconfig configuration; owns one GObject reference.
///
/// One per configuration per process, made once and reused for every render: font loading
/// and shaping caches live here. Not Sendable (Pango font maps are not thread-safe in the
/// Cairo 1.16 era; the batch engine uses processes, not threads).
final class FontMap {
  let pointer: UnsafeMutablePointer<PangoFontMap>

  /// Calls `pango_cairo_font_map_new` and `pango_fc_font_map_set_config`.
  init(config: OpaquePointer) {
    guard let map = pango_cairo_font_map_new() else { preconditionFailure("pango: no font map") }
    pointer = map
    pango_fc_font_map_set_config(CPango_fc_font_map(map), config)
    pango_cairo_font_map_set_resolution(OpaquePointer(map), 72)
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

  /// A context for layouts drawn with `cr`: unhinted metrics, so that a specimen's layout is
  /// the same at scale 1, 2 and 3, and in PNG and PDF.
  func makeContext(for cr: CairoContext) -> TextContext {
    TextContext(map: self, cr: cr)
  }
}

/// A Pango context tied to a Cairo context; owns one GObject reference.
final class TextContext {
  let pointer: OpaquePointer
  let cr: CairoContext
  let map: FontMap

  init(map: FontMap, cr: CairoContext) {
    guard let context = pango_font_map_create_context(map.pointer) else {
      preconditionFailure("pango: no context")
    }
    pointer = context
    self.cr = cr
    self.map = map
    if let options = cairo_font_options_create() {
      cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
      cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
      cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
      pango_cairo_context_set_font_options(context, options)
      cairo_font_options_destroy(options)
    }
    pango_cairo_context_set_resolution(context, 72)
    pango_context_set_language(context, pango_language_from_string("en"))
    pango_cairo_update_context(cr.pointer, context)
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

  /// Re-reads the Cairo context's transformation (after scaling).
  func update() { pango_cairo_update_context(cr.pointer, pointer) }

  /// The file of the font Pango really loads for `font`: nil when none loads. Used to prove
  /// that a specimen is set in the family it names and not in a fontconfig substitute.
  func loadedFile(for font: FontSpec) -> (file: String, index: Int)? {
    let description = font.makeDescription()
    defer { pango_font_description_free(description) }
    guard let loaded = pango_context_load_font(pointer, description) else {
      return nil
    }
    defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
    guard let fc = CPango_fc_font(loaded), let pattern = pango_fc_font_get_pattern(fc) else {
      return nil
    }
    let file = FontEnvironment.string(pattern, FC_FILE)
    let index = FontEnvironment.int(pattern, FC_INDEX) ?? 0
    return file.map { ($0, index) }
  }

  /// Whether the font loaded for `font` maps the letters a, b, e, A, B, E to glyphs named as
  /// such (`PictographProbe`). A symbol or dingbat font (D050000L, Standard Symbols PS) covers
  /// Latin code points but draws pictographs or Greek there; its PostScript glyph names give it
  /// away. Fonts without glyph names say nothing and count as textual.
  func drawsPictographsForLatin(_ font: FontSpec) -> Bool {
    let description = font.makeDescription()
    defer { pango_font_description_free(description) }
    guard let loaded = pango_context_load_font(pointer, description),
      let fc = CPango_fc_font(loaded)
    else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
    guard let face = pango_fc_font_lock_face(fc) else { return false }
    defer { pango_fc_font_unlock_face(fc) }
    guard CPango_ft_has_glyph_names(face) != 0 else { return false }
    var names: [(letter: Unicode.Scalar, name: String)] = []
    var buffer = [CChar](repeating: 0, count: 64)
    for letter in PictographProbe.letters {
      let glyph = FT_Get_Char_Index(face, FT_ULong(letter.value))
      if glyph == 0 { continue }
      guard FT_Get_Glyph_Name(face, glyph, &buffer, FT_UInt(buffer.count)) == 0 else { continue }
      names.append((letter, String(cString: buffer)))
    }
    return PictographProbe.isPictographic(names: names)
  }
}

/// A font request: family plus the exact face. Only real faces are ever asked for.
struct FontSpec {
  var family: String
  /// Size in user-space units (pixels at scale 1, points in a PDF).
  var size: Double
  var weight: Int = 80
  var slant: Int = 0
  var width: Int = 100

  init(family: String, size: Double, face: FontFace? = nil) {
    self.family = family
    self.size = size
    if let face {
      weight = face.weight
      slant = face.slant
      width = face.width
    }
  }

  /// Every description is made at this one size; layouts scale to the size asked for when they
  /// draw. Pango starts a fontconfig match *and* a full sort of every installed font for each
  /// new (family, face, size) it sees; one size per face turns a dozen sorts per family into
  /// one. Hinting and metric hinting are off, so outlines and advances scale exactly.
  static let nominalSize = 64.0

  /// A Pango description for exactly this face. Commas in a family name would make Pango read
  /// a list of families; the name is passed whole to fontconfig through the family field, and
  /// `loadedFile` proves what was loaded.
  func makeDescription() -> OpaquePointer {
    guard let d = pango_font_description_new() else { preconditionFailure("pango: out of memory") }
    pango_font_description_set_family(d, family)
    pango_font_description_set_absolute_size(d, FontSpec.nominalSize * Double(PANGO_SCALE))
    pango_font_description_set_weight(d, PangoWeight(UInt32(FontSpec.pangoWeight(weight))))
    pango_font_description_set_style(
      d, slant == 0 ? PANGO_STYLE_NORMAL : (slant >= 110 ? PANGO_STYLE_OBLIQUE : PANGO_STYLE_ITALIC))
    pango_font_description_set_stretch(d, FontSpec.pangoStretch(width))
    return d
  }

  /// fontconfig weight (0–215) → OpenType/Pango weight (100–1000).
  static func pangoWeight(_ fc: Int) -> Int {
    Int(FcWeightToOpenTypeDouble(Double(fc)).rounded())
  }

  static func pangoStretch(_ width: Int) -> PangoStretch {
    switch width {
    case ..<56: return PANGO_STRETCH_ULTRA_CONDENSED
    case ..<69: return PANGO_STRETCH_EXTRA_CONDENSED
    case ..<81: return PANGO_STRETCH_CONDENSED
    case ..<94: return PANGO_STRETCH_SEMI_CONDENSED
    case ..<107: return PANGO_STRETCH_NORMAL
    case ..<119: return PANGO_STRETCH_SEMI_EXPANDED
    case ..<138: return PANGO_STRETCH_EXPANDED
    case ..<175: return PANGO_STRETCH_EXTRA_EXPANDED
    default: return PANGO_STRETCH_ULTRA_EXPANDED
    }
  }
}

/// A paragraph of text set by Pango; owns one GObject reference to its `PangoLayout`.
final class TextLayout {
  let pointer: OpaquePointer
  let context: TextContext
  /// The layout is set at `FontSpec.nominalSize`; this scales it to the size asked for.
  let factor: Double

  enum Alignment { case left, centre, right }

  /// Lays out `text` in `font` with font fallback OFF: a character the font lacks shows as
  /// Pango's hex box, never as another font's glyph. `language` tags the text (a BCP 47 code)
  /// for the forms a font reserves for it; otherwise it is shaped as the context's `en`.
  init(
    _ text: String, font: FontSpec, in context: TextContext, width: Double? = nil,
    alignment: Alignment = .left, smallCaps: Bool = false, letterSpacing: Double = 0,
    fallback: Bool = false, language: String? = nil
  ) {
    guard let layout = pango_layout_new(context.pointer) else {
      preconditionFailure("pango: out of memory")
    }
    pointer = layout
    self.context = context
    factor = max(font.size, 0.01) / FontSpec.nominalSize
    let description = font.makeDescription()
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        pango_layout_set_text(layout, $0, Int32(buffer.count))
      }
    }
    if bytes.isEmpty { pango_layout_set_text(layout, "", 0) }
    if let width {
      pango_layout_set_width(layout, TextLayout.pango(width / factor))
      pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    }
    switch alignment {
    case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
    case .centre: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
    }
    let attributes = pango_attr_list_new()
    pango_attr_list_insert(attributes, pango_attr_fallback_new(fallback ? 1 : 0))
    if smallCaps { pango_attr_list_insert(attributes, pango_attr_variant_new(PANGO_VARIANT_SMALL_CAPS)) }
    if let language, let tag = pango_language_from_string(language) {
      pango_attr_list_insert(attributes, pango_attr_language_new(tag))
    }
    if letterSpacing != 0 {
      pango_attr_list_insert(
        attributes, pango_attr_letter_spacing_new(TextLayout.pango(letterSpacing / factor)))
    }
    pango_layout_set_attributes(layout, attributes)
    pango_attr_list_unref(attributes)
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

  var layout: OpaquePointer { pointer }

  /// User units → Pango units at the nominal size, clamped to what Pango can hold.
  static func pango(_ units: Double) -> Int32 {
    let v = (units * Double(PANGO_SCALE)).rounded()
    return v.isFinite ? Int32(max(-1_000_000_000, min(1_000_000_000, v))) : 0
  }

  /// Pango units at the nominal size → user units.
  func units(_ v: Int32) -> Double { Double(v) / Double(PANGO_SCALE) * factor }

  /// Logical size in user units.
  var size: (width: Double, height: Double) {
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    return (units(logical.width), units(logical.height))
  }

  /// Ink extents relative to the layout's origin, in user units.
  var inkRect: (x: Double, y: Double, width: Double, height: Double) {
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    return (units(ink.x), units(ink.y), units(ink.width), units(ink.height))
  }

  /// Baseline of the first line from the top of the layout.
  var baseline: Double { units(pango_layout_get_baseline(layout)) }

  var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

  /// Characters drawn as hex boxes because the font has no glyph for them.
  var unknownGlyphs: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

  /// Limits the height; lines past it are dropped and the last shown line ends in an
  /// ellipsis, so text is cut between lines, never mid-glyph.
  func limitHeight(_ height: Double) {
    pango_layout_set_height(layout, TextLayout.pango(height / factor))
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
  }

  /// Keeps the text on one line no wider than `width`, ending in an ellipsis when longer.
  func ellipsize(width: Double) {
    pango_layout_set_width(layout, TextLayout.pango(width / factor))
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
  }

  /// Sets the distance between baselines to `factor` times the font's line height
  /// (calls `pango_layout_set_line_spacing`, Pango 1.44+).
  func setLineSpacing(_ factor: Double) {
    pango_layout_set_line_spacing(layout, Float(factor))
  }

  /// Baseline of the last line from the top of the layout.
  var lastBaseline: Double {
    guard let iter = pango_layout_get_iter(layout) else { return baseline }
    defer { pango_layout_iter_free(iter) }
    while pango_layout_iter_next_line(iter) != 0 {}
    return units(pango_layout_iter_get_baseline(iter))
  }

  /// Draws with the current source colour, top-left at (x, y).
  func draw(at x: Double, _ y: Double) {
    let cr = context.cr
    cr.save()
    cr.translate(x, y)
    cr.scale(factor)
    cr.move(to: 0, 0)
    pango_cairo_show_layout(cr.pointer, layout)
    cr.newPath()
    cr.restore()
  }
}

/// Pango's sample sentence for a language ("nl" → a Dutch pangram), or nil when Pango has only
/// its generic default for it.
func pangoSampleString(for language: String) -> String? {
  guard let lang = pango_language_from_string(language),
    let sample = pango_language_get_sample_string(lang)
  else { return nil }
  let text = String(cString: sample)
  let generic = String(cString: pango_language_get_sample_string(pango_language_from_string("xx")))
  return text == generic && !language.hasPrefix("en") ? nil : text
}
