internal import CCairo
internal import CHarfBuzz
internal import CPango

extension TextLayout {
  /// Gives the COLR fonts of the layout the current source colour, opaque, as their foreground
  /// colour: the colour of layers in palette index 0xFFFF, which FreeType otherwise paints
  /// black (invisible on the ink theme). Cairo 1.16 draws COLRv0 glyphs through FreeType's
  /// colour rendering (`FT_LOAD_COLOR`), so the colour is set on the FreeType face Cairo draws
  /// with (calls `cairo_ft_scaled_font_lock_face`, `FT_Palette_Set_Foreground_Color`).
  ///
  /// A font without a COLR table is left alone: its drawing does not change by a byte. Cairo
  /// keeps the glyphs it has rendered per font, size and device scale, so within one process a
  /// COLR font drawn at one size in two text colours shows its foreground layers in the first.
  func setColourForeground() {
    let cr = context.cr.pointer
    var red = 0.0
    var green = 0.0
    var blue = 0.0
    var alpha = 0.0
    guard let source = cairo_get_source(cr),
      cairo_pattern_get_rgba(source, &red, &green, &blue, &alpha) == CAIRO_STATUS_SUCCESS,
      let iter = pango_layout_get_iter(layout)
    else { return }
    defer { pango_layout_iter_free(iter) }
    func byte(_ v: Double) -> UInt8 { UInt8((min(1, max(0, v)) * 255).rounded()) }
    let colour = FT_Color(blue: byte(blue), green: byte(green), red: byte(red), alpha: 255)
    let colr = HarfBuzzTag.make("COLR")
    repeat {
      guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
        let font = item.pointee.analysis.font, let shaping = pango_font_get_hb_font(font),
        let face = hb_font_get_face(shaping), HarfBuzzFace.hasTable(face, colr),
        let cairoFont = CPango_cairo_font(font),
        let scaled = pango_cairo_font_get_scaled_font(cairoFont),
        let ftFace = cairo_ft_scaled_font_lock_face(scaled)
      else { continue }
      FT_Palette_Set_Foreground_Color(ftFace, colour)
      cairo_ft_scaled_font_unlock_face(scaled)
    } while pango_layout_iter_next_run(iter) != 0
  }
}
