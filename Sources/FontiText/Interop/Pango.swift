internal import CCairo
internal import CPango
internal import CPangoMatch
import FontiModel
import Foundation

/// A Pango font map bound to one fontconfig configuration; owns one GObject reference.
///
/// Handed out by `FontMaps`, which decides what each map holds and how long it lives: font
/// loading and shaping caches live here. Not Sendable (Pango font maps are not thread-safe in
/// the Cairo 1.16 era; the batch engine uses processes, not threads).
package final class FontMap {
  let pointer: UnsafeMutablePointer<PangoFontMap>
  /// Kept alive as long as the map that reads it.
  private let configuration: FontconfigConfiguration

  /// Calls `pango_cairo_font_map_new` and `pango_fc_font_map_set_config`.
  init(configuration: FontconfigConfiguration) {
    guard let map = pango_cairo_font_map_new() else { preconditionFailure("pango: no font map") }
    pointer = map
    self.configuration = configuration
    pango_fc_font_map_set_config(CPango_fc_font_map(map), configuration.pointer)
    pango_cairo_font_map_set_resolution(OpaquePointer(map), 72)
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

  /// How many of Pango's font-matching threads this process has run on the calling thread
  /// instead (CPangoMatch): a test hook.
  static var matchesRunInline: Int { Int(CPangoMatch_inlined()) }

  /// The patterns of its configuration, in order, as fontconfig prints them: a test hook.
  var heldPatterns: [String] { configuration.patternTexts }

  /// The families the map can reach, as the enumeration lists them: what `FontMaps` put in
  /// its configuration (without the face of missing characters' boxes, held as `monospace`).
  var heldFamilies: [FontFamily] {
    configuration.families(custom: false).filter { $0.name != "monospace" }
  }

  /// A context for layouts drawn with `cr`: unhinted metrics, so that a specimen's layout is
  /// the same at scale 1, 2 and 3, and in PNG and PDF.
  package func makeContext(for cr: CairoContext) -> TextContext {
    TextContext(map: self, cr: cr)
  }
}

/// A Pango context tied to a Cairo context; owns one GObject reference.
package final class TextContext {
  let pointer: OpaquePointer
  let cr: CairoContext
  let map: FontMap
  /// Glyphs drawn empty so far because their colour bitmap is damaged (`ColourBitmapCheck`).
  package internal(set) var damagedColourBitmaps = 0

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
    // Layouts live in user space whatever the device scale: a 2× or 3× PNG is the 1× one drawn
    // finer, never laid out again. With the Cairo context's scale in its matrix, Pango loads
    // each font at the device size, and Pango 1.50 sizes the small capitals it synthesises for
    // a font without `smcp` from that device-sized font's description: at scale N they came
    // out N × 0.7 times the capitals' size, the case seemingly inverted ("dEJAvU sANS"). Cairo
    // still renders every glyph at the device resolution when it draws.
    pango_context_set_matrix(context, nil)
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

  /// Whether text set in this context goes into a tagged PDF, whose text is read and searched
  /// (`CairoContext.beginDocument`).
  package var drawsTaggedPDF: Bool { cr.tagging != nil }

  /// The file of the font Pango really loads for `font`: nil when none loads. Used to prove
  /// that a specimen is set in the family it names and not in a fontconfig substitute.
  package func loadedFile(for font: FontSpec) -> (file: String, index: Int)? {
    let description = font.makeDescription()
    defer { pango_font_description_free(description) }
    guard let loaded = pango_context_load_font(pointer, description) else {
      return nil
    }
    defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
    guard let fc = CPango_fc_font(loaded), let pattern = pango_fc_font_get_pattern(fc) else {
      return nil
    }
    return Fontconfig.file(ofLoadedPattern: pattern)
  }

  /// Whether the font loaded for `font` maps the letters a, b, e, A, B, E to glyphs named as
  /// such (`PictographProbe`). A symbol or dingbat font (D050000L, Standard Symbols PS) covers
  /// Latin code points but draws pictographs or Greek there; its PostScript glyph names give it
  /// away. Fonts without glyph names say nothing and count as textual. Read through the
  /// HarfBuzz font Pango shapes with (calls `pango_font_get_hb_font`).
  package func drawsPictographsForLatin(_ font: FontSpec) -> Bool {
    let description = font.makeDescription()
    defer { pango_font_description_free(description) }
    guard let loaded = pango_context_load_font(pointer, description) else { return false }
    defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
    guard CPango_fc_font(loaded) != nil, let shaping = pango_font_get_hb_font(loaded) else {
      return false
    }
    let harfBuzz = HarfBuzzFont(referencing: shaping)
    var names: [(letter: Unicode.Scalar, name: String)] = []
    for letter in PictographProbe.letters {
      guard let glyph = harfBuzz.glyph(for: letter.value), glyph != 0,
        let name = harfBuzz.glyphName(glyph)
      else { continue }
      names.append((letter, name))
    }
    return PictographProbe.isPictographic(names: names)
  }
}

/// A font request: family plus the exact face. Only real faces are ever asked for.
package struct FontSpec {
  var family: String
  /// Size in user-space units (pixels at scale 1, points in a PDF).
  package var size: Double
  var weight: Int = 80
  var slant: Int = 0
  package var width: Int = 100
  /// Coordinates on the font's variation axes (`wght=650`); empty: the face's own (its default
  /// instance, or the named instance fontconfig lists it as).
  package var variations: [VariationSetting] = []

  package init(family: String, size: Double, face: FontFace? = nil) {
    self.family = family
    self.size = size
    if let face {
      weight = face.weight
      slant = face.slant
      width = face.width
      // A face that exists only as coordinates (an italic that is a `slnt` position): the
      // upright face of its file, at those coordinates.
      if let coordinates = face.coordinates {
        slant = 0
        variations = coordinates.sorted { $0.key < $1.key }.map {
          VariationSetting(tag: $0.key, value: $0.value)
        }
      }
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
      d, slant == 0 ? PANGO_STYLE_NORMAL : (slant >= 110 ? PANGO_STYLE_OBLIQUE : PANGO_STYLE_ITALIC)
    )
    pango_font_description_set_stretch(d, FontSpec.pangoStretch(width))
    if !variations.isEmpty {
      pango_font_description_set_variations(d, VariationSetting.pangoString(variations))
    }
    return d
  }

  /// fontconfig weight (0–215) → OpenType/Pango weight (100–1000).
  static func pangoWeight(_ fc: Int) -> Int {
    Fontconfig.openTypeWeight(fc)
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
package final class TextLayout {
  let pointer: OpaquePointer
  let context: TextContext
  /// The layout is set at `FontSpec.nominalSize`; this scales it to the size asked for.
  let factor: Double
  let font: FontSpec
  /// The text the layout holds: all of it, or after a cut of our own, the part kept.
  var text: String
  /// The most letter spacing, in ems, that text extraction still reads as one word: poppler
  /// (`pdftotext`) starts a new word at a gap wider than 0.1 em between two glyphs, and Pango's
  /// glyph positions (rounded to 1/64 em) and a font's kerning widen some gaps by 0.02 em or
  /// more. At 0.08 em, "SAMPLE" and "OVERLAY" came out as "S AMPLE" and "OVERL AY".
  package static let wordTracking = 0.06

  /// The language the text is shaped as (nil: the context's, `en`); in a tagged PDF, its
  /// paragraph's language.
  let language: String?
  /// After a cut of our own: the ellipsis, drawn where the placeholder at byte `index` sits.
  var ownEllipsis: (layout: TextLayout, index: Int32)?

  package enum Alignment { case left, centre, right }

  /// Where a wrapped layout may break its lines. No hyphen is ever added: a specimen shows the
  /// characters of its text and no others (Pango 1.44+ would otherwise add one wherever it
  /// breaks inside a word).
  package enum Wrap {
    /// Only where Unicode allows a line break (UAX #14): between words, between CJK
    /// characters, between Thai or Khmer words (Pango's dictionaries). A word wider than the
    /// measure overflows it (`overflowsWidth`), for the caller to shrink.
    case words
    /// As `words`, and between the characters of a word that does not fit a line by itself.
    case anywhere
  }

  /// How a cut of a family's text is marked. The ellipsis is our mark, not the text's: "…" in
  /// the text's own face when it has the character, else in the neutral label face; never a
  /// box, nor three of the family's full stops (Pango's own fallback).
  package struct Ellipsis {
    /// The neutral face, and a context of the font map that holds it.
    var neutral: (family: String, face: FontFace?, context: TextContext)?

    package init(neutral: (family: String, face: FontFace?, context: TextContext)? = nil) {
      self.neutral = neutral
    }
  }

  /// Lays out `text` in `font` with font fallback OFF: a character the font lacks shows as
  /// Pango's hex box, never as another font's glyph. `language` tags the text (a BCP 47 code)
  /// for the forms a font reserves for it; otherwise it is shaped as the context's `en`.
  /// `features` turns OpenType features on or off for the whole text, or for
  /// `featureRanges` of it only (in Unicode scalars; a feature sample's `ranges`)
  /// (`font.variations` sets the axes); `SampleSettings` carries both for a job's samples.
  package init(
    _ text: String, font: FontSpec, in context: TextContext, width: Double? = nil,
    wrap: Wrap = .anywhere, alignment: Alignment = .left, smallCaps: Bool = false,
    letterSpacing: Double = 0, fallback: Bool = false, language: String? = nil,
    features: [FeatureSetting] = [], featureRanges: [Range<Int>]? = nil
  ) {
    guard let layout = pango_layout_new(context.pointer) else {
      preconditionFailure("pango: out of memory")
    }
    pointer = layout
    self.context = context
    self.font = font
    self.text = text
    self.language = language
    factor = max(font.size, 0.01) / FontSpec.nominalSize
    let description = font.makeDescription()
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
    setText(text)
    if let width {
      pango_layout_set_width(layout, TextLayout.pango(width / factor))
      pango_layout_set_wrap(layout, wrap == .words ? PANGO_WRAP_WORD : PANGO_WRAP_WORD_CHAR)
    }
    switch alignment {
    case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
    case .centre: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
    }
    let attributes = pango_attr_list_new()
    pango_attr_list_insert(attributes, pango_attr_fallback_new(fallback ? 1 : 0))
    pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(0))
    if smallCaps {
      pango_attr_list_insert(attributes, pango_attr_variant_new(PANGO_VARIANT_SMALL_CAPS))
    }
    if let language, let tag = pango_language_from_string(language) {
      pango_attr_list_insert(attributes, pango_attr_language_new(tag))
    }
    if !features.isEmpty {
      let settings = FeatureSetting.pangoString(features)
      if let featureRanges {
        // Pango hands each attribute's byte range to HarfBuzz as the feature's start and end.
        for range in TextLayout.byteRanges(featureRanges, in: text) {
          guard let attribute = pango_attr_font_features_new(settings) else { continue }
          attribute.pointee.start_index = range.lowerBound
          attribute.pointee.end_index = range.upperBound
          pango_attr_list_insert(attributes, attribute)
        }
      } else {
        pango_attr_list_insert(attributes, pango_attr_font_features_new(settings))
      }
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

  /// Calls `pango_layout_set_text` with the UTF-8 of `text` (which may hold NULs).
  func setText(_ text: String) {
    var bytes = Array(text.utf8)
    if bytes.isEmpty {
      pango_layout_set_text(layout, "", 0)
      return
    }
    bytes.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        pango_layout_set_text(layout, $0, Int32(buffer.count))
      }
    }
  }

  /// Ranges of Unicode scalars in `text` as ranges of its UTF-8 bytes (Pango's attribute
  /// indices); ranges past the end are cut to it.
  static func byteRanges(_ ranges: [Range<Int>], in text: String) -> [Range<UInt32>] {
    var offsets: [UInt32] = [0]
    for s in text.unicodeScalars {
      offsets.append(offsets[offsets.count - 1] + UInt32(UTF8.width(s)))
    }
    return ranges.compactMap { r in
      let lower = min(max(0, r.lowerBound), offsets.count - 1)
      let upper = min(max(lower, r.upperBound), offsets.count - 1)
      return lower < upper ? offsets[lower]..<offsets[upper] : nil
    }
  }

  /// User units → Pango units at the nominal size, clamped to what Pango can hold.
  static func pango(_ units: Double) -> Int32 {
    let v = (units * Double(PANGO_SCALE)).rounded()
    return v.isFinite ? Int32(max(-1_000_000_000, min(1_000_000_000, v))) : 0
  }

  /// Pango units at the nominal size → user units.
  func units(_ v: Int32) -> Double { Double(v) / Double(PANGO_SCALE) * factor }

  /// Logical size in user units.
  package var size: (width: Double, height: Double) {
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    return (units(logical.width), units(logical.height))
  }

  /// Ink extents relative to the layout's origin, in user units.
  package var inkRect: (x: Double, y: Double, width: Double, height: Double) {
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    return (units(ink.x), units(ink.y), units(ink.width), units(ink.height))
  }

  /// Baseline of the first line from the top of the layout.
  package var baseline: Double { units(pango_layout_get_baseline(layout)) }

  package var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

  /// Characters drawn as hex boxes because the font has no glyph for them.
  package var unknownGlyphs: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

  /// The characters drawn as hex boxes, each once, in the order of the text.
  package var unknownCharacters: [Unicode.Scalar] {
    var found: [(offset: Int, value: UInt32)] = []
    forEachGlyph { glyph, offset, _ in
      if glyph & UInt32(PANGO_GLYPH_UNKNOWN_FLAG) != 0 {
        found.append((offset, glyph & ~UInt32(PANGO_GLYPH_UNKNOWN_FLAG)))
      }
    }
    var seen = Set<UInt32>()
    return found.sorted { $0.offset < $1.offset }.compactMap { found in
      seen.insert(found.value).inserted ? Unicode.Scalar(found.value) : nil
    }
  }

  /// Calls `body` with the item and the glyphs of every run of line `line`, in order.
  func forEachRun(
    inLine line: Int32,
    _ body: (
      _ item: UnsafeMutablePointer<PangoItem>, _ glyphs: UnsafeMutablePointer<PangoGlyphString>
    ) -> Void
  ) {
    var node = pango_layout_get_line_readonly(layout, line)?.pointee.runs
    while let current = node {
      node = current.pointee.next
      guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
        let item = run.pointee.item, let glyphs = run.pointee.glyphs
      else { continue }
      body(item, glyphs)
    }
  }

  static func isEllipsis(_ item: UnsafeMutablePointer<PangoItem>) -> Bool {
    Int32(item.pointee.analysis.flags) & Int32(PANGO_ANALYSIS_FLAG_IS_ELLIPSIS) != 0
  }

  /// Calls `body` with every glyph of every run, in line and run order: the glyph, the byte
  /// offset in the text of the cluster it draws, and whether it is Pango's ellipsis.
  func forEachGlyph(_ body: (_ glyph: UInt32, _ offset: Int, _ isEllipsis: Bool) -> Void) {
    for i in 0..<pango_layout_get_line_count(layout) {
      forEachRun(inLine: i) { item, glyphs in
        let isEllipsis = TextLayout.isEllipsis(item)
        for g in 0..<Int(glyphs.pointee.num_glyphs) {
          body(
            glyphs.pointee.glyphs[g].glyph,
            Int(item.pointee.offset) + Int(glyphs.pointee.log_clusters[g]), isEllipsis)
        }
      }
    }
  }

  /// Draws the glyphs the font maps to default-ignorable characters that shaping set as
  /// nothing: HarfBuzz (and so Pango) hides U+00AD, the soft hyphen, whatever the font maps it
  /// to, and URW's dingbat and symbol fonts map a glyph there (D050000L's ②, Standard Symbols
  /// PS's ↑). For a grid of a font's own glyphs, where what the font maps is what is shown.
  /// Pango keeps the extents it measured while laying out: the ink of what was revealed is
  /// returned (relative to the layout's origin, for a layout of one line) for the caller to
  /// place it by; nil when nothing was hidden.
  @discardableResult
  package func revealIgnorableGlyphs() -> (x: Double, y: Double, width: Double, height: Double)? {
    var revealed: (x: Double, y: Double, width: Double, height: Double)?
    var x: Int32 = 0
    for i in 0..<pango_layout_get_line_count(layout) {
      forEachRun(inLine: i) { item, glyphs in
        guard let font = item.pointee.analysis.font, let shaping = pango_font_get_hb_font(font)
        else { return }
        for g in 0..<Int(glyphs.pointee.num_glyphs) {
          defer { x += glyphs.pointee.glyphs[g].geometry.width }
          guard glyphs.pointee.glyphs[g].glyph == UInt32(PANGO_GLYPH_EMPTY) else { continue }
          let offset = Int(item.pointee.offset) + Int(glyphs.pointee.log_clusters[g])
          guard let scalar = String(text.utf8.dropFirst(offset))?.unicodeScalars.first,
            scalar.properties.isDefaultIgnorableCodePoint
          else { continue }
          var glyph: hb_codepoint_t = 0
          guard hb_font_get_nominal_glyph(shaping, scalar.value, &glyph) != 0, glyph != 0 else {
            continue
          }
          glyphs.pointee.glyphs[g].glyph = glyph
          glyphs.pointee.glyphs[g].geometry.width = hb_font_get_glyph_h_advance(shaping, glyph)
          var ink = PangoRectangle()
          pango_font_get_glyph_extents(font, glyph, &ink, nil)
          let rect = (
            x: units(x + ink.x), y: baseline + units(ink.y), width: units(ink.width),
            height: units(ink.height)
          )
          revealed =
            revealed.map { r in
              let left = min(r.x, rect.x)
              let top = min(r.y, rect.y)
              return (
                left, top, max(r.x + r.width, rect.x + rect.width) - left,
                max(r.y + r.height, rect.y + rect.height) - top
              )
            } ?? rect
        }
      }
    }
    return revealed
  }

  /// Sets the distance between baselines to `factor` times the font's line height
  /// (calls `pango_layout_set_line_spacing`, Pango 1.44+).
  package func setLineSpacing(_ factor: Double) {
    pango_layout_set_line_spacing(layout, Float(factor))
  }

  /// A leading `setLeading` sets: the distance between baselines as a multiple of the size,
  /// only opening lines set closer (`atLeast`), and closing those set further than `atMost`.
  package struct Leading {
    var multiple: Double
    var atLeast = false
    var atMost: Double? = nil

    package init(multiple: Double, atLeast: Bool = false, atMost: Double? = nil) {
      self.multiple = multiple
      self.atLeast = atLeast
      self.atMost = atMost
    }
  }

  /// Sets `leading` (see `setLeading(_:atLeast:atMost:)`).
  package func setLeading(_ leading: Leading) {
    setLeading(leading.multiple, atLeast: leading.atLeast, atMost: leading.atMost)
  }

  /// Sets the distance between baselines to `multiple` times the type size, whatever the
  /// font's own line height; with `atLeast`, only lines the font sets closer are opened up,
  /// and with `atMost` too, lines it sets further apart than `atMost` times the size are
  /// brought that close where their ink allows (STIX Math's line height, made for stacked
  /// formulas, is 2.6 times its size: a sentence set in it read as lines of verse).
  ///
  /// Pango sets lines with no factor as far apart as the fonts' ascent and descent (the line's
  /// logical height: 1.0 of the size in Lato), and with a factor at that factor times another
  /// height, `pango_layout_line_get_height`'s (which counts the line gap: 1.2 in Lato). The
  /// first decides whether the font's own spacing stands; the second, the factor.
  package func setLeading(_ multiple: Double, atLeast: Bool = false, atMost: Double? = nil) {
    pango_layout_set_line_spacing(layout, 0)
    guard let line = pango_layout_get_line_readonly(layout, 0) else { return }
    var height: Int32 = 0
    pango_layout_line_get_height(line, &height)
    var logical = PangoRectangle()
    pango_layout_line_get_extents(line, nil, &logical)
    guard height > 0, logical.height > 0 else { return }
    let em = FontSpec.nominalSize * Double(PANGO_SCALE)
    var target = multiple * em
    if atLeast {
      let natural = Double(logical.height)
      if natural >= target {
        guard let atMost, natural > atMost * em else { return }
        // The tallest ink above and below any baseline, and a tenth of the size between: the
        // lines never touch, whatever the script.
        var above: Int32 = 0
        var below: Int32 = 0
        for i in 0..<pango_layout_get_line_count(layout) {
          guard let each = pango_layout_get_line_readonly(layout, i) else { continue }
          var ink = PangoRectangle()
          pango_layout_line_get_extents(each, &ink, nil)
          above = max(above, -ink.y)
          below = max(below, ink.y + ink.height)
        }
        let limit = max(atMost * em, Double(above) + Double(below) + 0.1 * em)
        guard limit < natural else { return }
        target = limit
      }
    }
    pango_layout_set_line_spacing(layout, Float(target / Double(height)))
  }

  /// Baseline of the last line from the top of the layout.
  package var lastBaseline: Double {
    guard let iter = pango_layout_get_iter(layout) else { return baseline }
    defer { pango_layout_iter_free(iter) }
    while pango_layout_iter_next_line(iter) != 0 {}
    return units(pango_layout_iter_get_baseline(iter))
  }

  /// Baseline of line `number` (0-based) from the top of the layout.
  package func baseline(ofLine number: Int) -> Double {
    guard let iter = pango_layout_get_iter(layout) else { return baseline }
    defer { pango_layout_iter_free(iter) }
    var n = 0
    while n < number, pango_layout_iter_next_line(iter) != 0 { n += 1 }
    return units(pango_layout_iter_get_baseline(iter))
  }

  /// Draws with the current source colour, top-left at (x, y).
  ///
  /// Text at coordinates of its own (`font.variations`) is drawn as outlines (Pango's glyph
  /// paths, filled), not as text: Cairo 1.16 decides whether to embed a variable font in a PDF
  /// as a subset of its file (the default outlines) or as a fallback font of the instance
  /// (the outlines drawn) from the coordinates the shared FreeType face was *last* set to, so an
  /// instance embedded after the default one is drawn with the default's outlines. Such text is
  /// not selectable in the PDF; in a PNG it looks the same either way.
  ///
  /// A glyph whose colour bitmap is damaged is drawn as nothing (`blankDamagedColourBitmaps`)
  /// and counted in the context's `damagedColourBitmaps`.
  ///
  /// Text that Cairo refuses as text (`cairoRefuses`: a font may map noncharacters) is drawn
  /// as its glyphs alone, without the text; in a PDF those glyphs cannot be selected or copied.
  ///
  /// In a tagged PDF the layout is a paragraph in its language (`CairoContext.paragraph`), or
  /// part of the element it is drawn in; text drawn as outlines or as glyphs alone carries its
  /// words as the paragraph's /ActualText.
  package func draw(at x: Double, _ y: Double) {
    let asText = font.variations.isEmpty && !TextLayout.cairoRefuses(text)
    context.cr.paragraph(
      language: language ?? PDFTagging.interfaceLanguage,
      actualText: asText ? nil : TextLayout.readable(text)
    ) {
      drawUntagged(at: x, y)
    }
  }

  /// `text` without the noncharacters Cairo refuses, for a reader.
  static func readable(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { !isNoncharacter($0.value) }))
  }

  private func drawUntagged(at x: Double, _ y: Double) {
    context.damagedColourBitmaps += blankDamagedColourBitmaps()
    setColourForeground()
    let cr = context.cr
    cr.save()
    cr.translate(x, y)
    cr.scale(factor)
    cr.move(to: 0, 0)
    if !font.variations.isEmpty {
      cr.newPath()
      pango_cairo_layout_path(cr.pointer, layout)
      cr.fill()
    } else if TextLayout.cairoRefuses(text) {
      drawGlyphsAlone()
    } else {
      pango_cairo_show_layout(cr.pointer, layout)
    }
    cr.newPath()
    cr.restore()
    if let mark = ownEllipsis {
      var position = PangoRectangle()
      pango_layout_index_to_pos(layout, mark.index, &position)
      var line: Int32 = 0
      var lineX: Int32 = 0
      pango_layout_index_to_line_x(layout, mark.index, 0, &line, &lineX)
      let left = units(min(position.x, position.x + position.width))
      let base = baseline(ofLine: Int(line))
      mark.layout.draw(at: x + left, y + base - mark.layout.baseline)
    }
  }
}

extension TextLayout {
  /// Whether Cairo refuses `text` as the text of the glyphs it draws: it holds a noncharacter
  /// (U+FDD0–U+FDEF, or the last two code points of any plane, U+FFFE, U+FFFF … U+10FFFF),
  /// which Cairo's UTF-8 check turns away. A PDF surface takes the text of what it draws
  /// (`cairo_show_text_glyphs`, for copying and searching): such text fails the drawing
  /// context ("input string not valid UTF-8"), every later drawing on it is dropped and the
  /// document cannot be finished. Image surfaces take no text, but are drawn alike.
  package static func cairoRefuses(_ text: String) -> Bool {
    text.unicodeScalars.contains { isNoncharacter($0.value) }
  }

  /// Unicode's 66 noncharacters, as Cairo's `UNICODE_VALID` excludes them.
  package static func isNoncharacter(_ value: UInt32) -> Bool {
    (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
  }

  /// Draws every run of the layout as its glyphs alone, at the current point (calls
  /// `pango_cairo_show_glyph_string`): what `pango_cairo_show_layout` draws, without the text.
  /// The layout carries no colour or decoration attributes, so the runs' glyphs are all of it.
  fileprivate func drawGlyphsAlone() {
    let cr = context.cr.pointer
    guard let iter = pango_layout_get_iter(layout) else { return }
    defer { pango_layout_iter_free(iter) }
    let scale = Double(PANGO_SCALE)
    repeat {
      guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
        let glyphs = run.pointee.glyphs, let font = item.pointee.analysis.font
      else { continue }
      var logical = PangoRectangle()
      pango_layout_iter_get_run_extents(iter, nil, &logical)
      let baseline = pango_layout_iter_get_baseline(iter) - run.pointee.y_offset
      cairo_move_to(cr, Double(logical.x) / scale, Double(baseline) / scale)
      pango_cairo_show_glyph_string(cr, font, glyphs)
    } while pango_layout_iter_next_run(iter) != 0
  }
}

/// Pango's sample sentence for a language ("nl" → a Dutch pangram), or nil when Pango has only
/// its generic default for it.
package func pangoSampleString(for language: String) -> String? {
  guard let lang = pango_language_from_string(language),
    let sample = pango_language_get_sample_string(lang)
  else { return nil }
  let text = String(cString: sample)
  let generic = String(cString: pango_language_get_sample_string(pango_language_from_string("xx")))
  return text == generic && !language.hasPrefix("en") ? nil : text
}
