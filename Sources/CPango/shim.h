#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <glib-object.h>
#include <cairo-ft.h>
#include <freetype/ftcolor.h>

/* Cast macros are not visible to Swift; these static inline shims stand in for them. */
static inline PangoFcFontMap *CPango_fc_font_map(PangoFontMap *map) {
  return PANGO_FC_FONT_MAP(map);
}
static inline PangoFcFont *CPango_fc_font(PangoFont *font) {
  return PANGO_IS_FC_FONT(font) ? PANGO_FC_FONT(font) : NULL;
}

static inline PangoCairoFont *CPango_cairo_font(PangoFont *font) {
  return PANGO_IS_CAIRO_FONT(font) ? PANGO_CAIRO_FONT(font) : NULL;
}
