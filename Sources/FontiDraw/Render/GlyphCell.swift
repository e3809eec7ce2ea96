import FontiModel
import FontiText

/// One glyph of a grid of a family's own glyphs (a symbol or emoji font's specimen, a catalogue
/// page): set at 55 % of its square cell and centred in it by its ink. A glyph whose ink is
/// larger than `fill` of the cell (a math font's big delimiters, three ems tall) is set smaller,
/// just enough to fit, so that it never spills into its neighbours or onto the page below.
enum GlyphCell {
  /// The largest share of the cell a glyph's ink may cover, across or down.
  static let fill = 0.85

  /// The glyph laid out, and where to draw it for a cell whose corner is at (`x`, `y`).
  static func layout(
    _ glyph: String, family: String, face: FontFace?, context: TextContext, cell: Double,
    x: Double, y: Double
  ) -> (layout: TextLayout, x: Double, y: Double) {
    let hidden = glyph.unicodeScalars.contains { $0.properties.isDefaultIgnorableCodePoint }
    func make(_ size: Double) -> (TextLayout, (x: Double, y: Double, width: Double, height: Double))
    {
      let layout = TextLayout(
        glyph, font: FontSpec(family: family, size: size, face: face), in: context)
      // A soft hyphen the font maps a glyph to (a dingbat font's ②) is drawn, not hidden.
      let revealed = hidden ? layout.revealIgnorableGlyphs() : nil
      return (layout, revealed ?? layout.inkRect)
    }
    var size = cell * 0.55
    var (layout, ink) = make(size)
    let largest = max(ink.width, ink.height)
    if largest > cell * fill {
      size *= cell * fill / largest
      (layout, ink) = make(size)
    }
    return (layout, x + (cell - ink.width) / 2 - ink.x, y + (cell - ink.height) / 2 - ink.y)
  }

  /// Rows `count` glyphs take in `columns` columns.
  static func rows(_ count: Int, columns: Int) -> Int { (count + columns - 1) / columns }

  /// The columns and cell of a grid of `count` glyphs in `width` × `height`: `least` columns,
  /// or more when that gives larger cells (a grid given a short frame spreads across it
  /// rather than shrinking).
  static func fitted(_ count: Int, width: Double, height: Double, least: Int = 10)
    -> (columns: Int, cell: Double)
  {
    func cell(_ columns: Int) -> Double {
      min(width / Double(columns), height / Double(rows(max(1, count), columns: columns)))
    }
    var best = (columns: least, cell: cell(least))
    for columns in stride(from: least + 1, through: max(least, count), by: 1)
    where cell(columns) > best.cell {
      best = (columns, cell(columns))
    }
    return best
  }

  /// Draws `glyphs` in rows of `columns` square cells `cell` wide, the first cell's corner at
  /// (`x`, `y`): each cell outlined just inside its edge by a `line`-wide stroke of `outline`,
  /// each glyph in `colour`, laid out by `layout`.
  static func drawGrid(
    _ glyphs: [String], columns: Int, cell: Double, at x: Double, _ y: Double, family: String,
    face: FontFace?, context: TextContext, line: Double, outline: (Colour, alpha: Double),
    colour: Colour, on cr: CairoContext
  ) {
    for (i, glyph) in glyphs.enumerated() {
      let cx = x + Double(i % columns) * cell
      let cy = y + Double(i / columns) * cell
      cr.setColour(outline.0, alpha: outline.alpha)
      cr.rectangle(cx + line / 2, cy + line / 2, cell - line, cell - line)
      cr.stroke(width: line)
      let placed = layout(
        glyph, family: family, face: face, context: context, cell: cell, x: cx, y: cy)
      cr.setColour(colour)
      placed.layout.draw(at: placed.x, placed.y)
    }
  }
}
