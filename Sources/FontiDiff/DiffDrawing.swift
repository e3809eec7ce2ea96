import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// What a review draws, on PNG and PDF pages alike: glyphs and samples from the compared fonts'
/// own outlines (never through a font map), overlays, the legend, and labels in the neutral
/// label face through Pango. Not Sendable: Pango and Cairo stay on the thread that writes.
final class DiffDrawing {
  let fontMaps: FontMaps
  let labelFamily: FontFamily?
  let palette = Palette(.cream)

  /// The overlay's colours: what only BEFORE has is hatched amber (a tint crossed by darker
  /// lines), what only AFTER has is solid blue, what both have is ink. Hatching against solid
  /// keeps the two apart in greyscale too.
  static let beforeTint = Colour(hex: 0xF4CFA6)
  static let beforeHatch = Colour(hex: 0xB8560B)
  static let afterColour = Colour(hex: 0x1F5FBF)

  init(environment: FontEnvironment) {
    fontMaps = FontMaps(environment: environment)
    labelFamily = environment.catalog.labelFamily
  }

  /// A context for labels drawn on `cr`: the label face's map, made once.
  func labelContext(for cr: CairoContext) -> TextContext {
    let map = labelFamily.flatMap { try? fontMaps.map(for: [$0]) } ?? fontMaps.emptyMap()
    return map.makeContext(for: cr)
  }

  /// A label in the label face: regular, or its real bold when asked and present.
  func label(
    _ text: String, size: Double, bold: Bool = false, in context: TextContext,
    width: Double? = nil, wrap: TextLayout.Wrap = .anywhere,
    alignment: TextLayout.Alignment = .left
  ) -> TextLayout {
    let face =
      labelFamily.flatMap { $0.face(bold: bold, italic: false) } ?? labelFamily?.regularFace
    let spec = FontSpec(family: labelFamily?.name ?? "sans-serif", size: size, face: face)
    return TextLayout(
      Sanitize.terminal(text), font: spec, in: context, width: width.map { max(1, $0) },
      wrap: wrap, alignment: alignment, fallback: true)
  }

  /// Draws a character's label (`FamilyComparison.character`, from `label(_:size:bold:in:)`)
  /// with its left edge at `x` and its baseline where a label of plain letters in the same
  /// style has it when drawn from `top`: a character the label face lacks comes from another
  /// face with other line metrics, and a row of labels stays on one baseline all the same.
  func drawCharacterLabel(
    _ layout: TextLayout, size: Double, bold: Bool, at x: Double, top: Double,
    in context: TextContext
  ) {
    let plain = label("U+0041 A", size: size, bold: bold, in: context)
    layout.draw(at: x, top + plain.baseline - layout.baseline)
  }

  /// Small capitals of the label face, spaced out: captions.
  func caption(_ text: String, size: Double, in context: TextContext) -> TextLayout {
    let spec = FontSpec(
      family: labelFamily?.name ?? "sans-serif", size: size, face: labelFamily?.regularFace)
    // Spaced a little less in the PDF, whose captions must be found as words.
    let tracking = context.drawsTaggedPDF ? TextLayout.wordTracking : 0.08
    return TextLayout(
      Sanitize.terminal(text).uppercased(), font: spec, in: context,
      letterSpacing: size * tracking, fallback: true)
  }

  // MARK: Outlines

  /// Outlines placed in user space: pen origins (font units, y up) mapped by `scale` user
  /// units per font unit from the origin (x, y).
  struct Placement {
    var glyphs: [GlyphRaster.Placed]
    var scale: Double
    var x: Double
    var y: Double
  }

  func append(_ p: Placement, to cr: CairoContext) {
    for g in p.glyphs where GlyphRaster.drawable(g, scale: p.scale) {
      cr.append(g.outline, x: p.x + g.x * p.scale, y: p.y - g.y * p.scale, scale: p.scale)
    }
  }

  /// Fills the outlines in `colour`.
  func fill(_ p: Placement, colour: Colour, on cr: CairoContext) {
    cr.newPath()
    append(p, to: cr)
    cr.setColour(colour)
    cr.fill()
  }

  /// The overlay of `before` and `after` inside `area` (x, y, width, height): only-before
  /// hatched amber, only-after solid blue, both ink. `hatch` is the hatching's spacing.
  func overlay(
    _ before: Placement, _ after: Placement, area: (Double, Double, Double, Double),
    hatch: Double, on cr: CairoContext
  ) {
    cr.save()
    cr.newPath()
    append(before, to: cr)
    cr.clip()
    hatchArea(area, spacing: hatch, on: cr)
    cr.restore()
    fill(after, colour: DiffDrawing.afterColour, on: cr)
    cr.save()
    cr.newPath()
    append(before, to: cr)
    cr.clip()
    fill(after, colour: palette.text, on: cr)
    cr.restore()
    cr.newPath()
  }

  /// Fills `area` with the amber tint crossed by diagonal lines (only-before's look).
  func hatchArea(_ area: (Double, Double, Double, Double), spacing: Double, on cr: CairoContext) {
    let (x, y, w, h) = area
    cr.newPath()
    cr.rectangle(x, y, w, h)
    cr.setColour(DiffDrawing.beforeTint)
    cr.fill()
    cr.newPath()
    var k = -h
    while k < w {
      cr.move(to: x + k, y + h)
      cr.line(to: x + k + h, y)
      k += spacing
    }
    cr.setColour(DiffDrawing.beforeHatch)
    cr.stroke(width: spacing * 0.32)
  }

  /// The legend: a swatch and a word for each of the overlay's three looks, from (x, y) (the
  /// swatches' top); returns its width.
  @discardableResult
  func legend(at x: Double, _ y: Double, swatch: Double, size: Double, on cr: CairoContext)
    -> Double
  {
    let context = labelContext(for: cr)
    var pen = x
    let entries: [(String, Int)] = [
      ("only in before", 0), ("only in after", 1), ("in both", 2),
    ]
    for (text, kind) in entries {
      switch kind {
      case 0:
        cr.save()
        cr.newPath()
        cr.rectangle(pen, y, swatch, swatch)
        cr.clip()
        hatchArea((pen, y, swatch, swatch), spacing: swatch / 4.5, on: cr)
        cr.restore()
      case 1:
        cr.newPath()
        cr.rectangle(pen, y, swatch, swatch)
        cr.setColour(DiffDrawing.afterColour)
        cr.fill()
      default:
        cr.newPath()
        cr.rectangle(pen, y, swatch, swatch)
        cr.setColour(palette.text)
        cr.fill()
      }
      let word = label(text, size: size, in: context)
      cr.setColour(palette.text, alpha: 0.8)
      word.draw(at: pen + swatch * 1.45, y + swatch / 2 - word.size.height / 2)
      pen += swatch * 1.45 + word.size.width + swatch * 1.6
    }
    return pen - x
  }

  /// The legend of a glyph cell's guides (`glyphGuides`), from (x, y): the advance before as
  /// a dashed line, the advance after as a solid line in the after colour. Returns its width.
  @discardableResult
  func advanceLegend(at x: Double, _ y: Double, swatch: Double, size: Double, on cr: CairoContext)
    -> Double
  {
    let context = labelContext(for: cr)
    var pen = x
    for (text, after) in [("advance before", false), ("advance after", true)] {
      cr.newPath()
      cr.move(to: pen + swatch / 2, y - swatch * 0.1)
      cr.line(to: pen + swatch / 2, y + swatch * 1.1)
      cr.setDash(after ? [] : [swatch / 5, swatch / 5])
      cr.setColour(after ? DiffDrawing.afterColour : palette.text, alpha: after ? 1 : 0.6)
      cr.stroke(width: max(0.5, swatch / 10))
      cr.setDash([])
      let word = label(text, size: size, in: context)
      cr.setColour(palette.text, alpha: 0.8)
      word.draw(at: pen + swatch * 1.2, y + swatch / 2 - word.size.height / 2)
      pen += swatch * 1.2 + word.size.width + swatch * 1.6
    }
    return pen - x
  }

  // MARK: Samples and glyphs fitted into boxes

  /// The sample as one side sets it on `lines`, with its first baseline at (x, y).
  func samplePlacement(
    _ text: ShapedText, lines: [[(paragraph: Int, word: Int)]], em: Double, x: Double, y: Double
  ) -> Placement {
    Placement(
      glyphs: text.placed(on: lines, lineHeight: DiffSettings.sampleLineHeight),
      scale: em / Double(max(1, text.unitsPerEm)), x: x, y: y)
  }

  /// A changed glyph's two sides fitted in a box of `width` × `height` with a shared origin:
  /// the em size and the origin (pen at the baseline) that show both whole.
  func fitGlyph(_ change: GlyphChange, width: Double, height: Double) -> (
    em: Double, x: Double, y: Double
  ) {
    let e = DiffDrawing.extent(change)
    let em = min(width / e.spanX, height / e.spanY)
    let x = (width - e.spanX * em) / 2 - e.minX * em
    let y = (height - e.spanY * em) / 2 + e.maxY * em
    return (em, x, y)
  }

  /// Glyphs to be shown side by side in boxes of `width` × `height` at one scale, so that
  /// their sizes compare: the em size at which every one fits, and the baseline they share
  /// (from the box's top). `x(of:em:width:)` centres each in its box.
  static func fitGlyphs(_ changes: [GlyphChange], width: Double, height: Double) -> (
    em: Double, baseline: Double
  ) {
    let extents = changes.map(DiffDrawing.extent)
    guard let top = extents.map(\.maxY).max(), let bottom = extents.map(\.minY).min() else {
      return (height, height * 0.8)
    }
    let spanY = min(max(top - bottom, 0.3), 1000)
    let em = min(height / spanY, extents.map { width / $0.spanX }.min() ?? height)
    return (em, (height - spanY * em) / 2 + top * em)
  }

  /// Where a glyph's pen starts in a box of `width` for it to be centred at `em`.
  static func x(of change: GlyphChange, em: Double, width: Double) -> Double {
    let e = DiffDrawing.extent(change)
    return (width - e.spanX * em) / 2 - e.minX * em
  }

  /// A change's two sides in ems: ink boxes and advances, with the usual room above and below
  /// the baseline. A hostile glyph spanning hundreds of ems is shown small rather than not at
  /// all.
  static func extent(_ change: GlyphChange) -> (
    minX: Double, maxY: Double, minY: Double, spanX: Double, spanY: Double
  ) {
    let ub = Double(max(1, change.unitsPerEm.before))
    let ua = Double(max(1, change.unitsPerEm.after))
    var minX = 0.0
    var maxX = max(Double(change.entry.advance[0]) / ub, Double(change.entry.advance[1]) / ua)
    var minY = -0.25
    var maxY = 0.8
    for (outline, u) in [(change.before, ub), (change.after, ua)] {
      guard let b = outline.bounds,
        GlyphRaster.drawable(GlyphRaster.Placed(outline: outline, x: 0, y: 0), scale: 1)
      else { continue }
      minX = min(minX, b.minX / u)
      maxX = max(maxX, b.maxX / u)
      minY = min(minY, b.minY / u)
      maxY = max(maxY, b.maxY / u)
    }
    return (
      minX, maxY, minY, min(max(maxX - minX, 0.3), 1000), min(max(maxY - minY, 0.3), 1000)
    )
  }

  /// Draws a glyph cell's baseline and the pen's start and both advances (before dashed,
  /// after solid; with `oneSide`, the one advance), faintly, under the glyph; nothing outside
  /// `cell`, so that a baseline never runs across the gap to the next cell.
  func glyphGuides(
    _ change: GlyphChange, em: Double, x: Double, y: Double,
    cell: (x: Double, y: Double, width: Double, height: Double), oneSide: Bool = false,
    on cr: CairoContext
  ) {
    cr.save()
    defer { cr.restore() }
    cr.newPath()
    cr.rectangle(cell.x, cell.y, cell.width, cell.height)
    cr.clip()
    let ub = Double(max(1, change.unitsPerEm.before))
    let ua = Double(max(1, change.unitsPerEm.after))
    cr.newPath()
    cr.move(to: x - em * 0.1, y)
    cr.line(
      to: x + max(Double(change.entry.advance[0]) / ub, Double(change.entry.advance[1]) / ua) * em
        + em * 0.1, y)
    cr.setColour(palette.text, alpha: 0.25)
    cr.stroke(width: max(0.4, em / 160))
    // One side (an added or removed character): the origin and its one advance, plain.
    let lines = [
      0.0, Double(change.entry.advance[0]) / ub, Double(change.entry.advance[1]) / ua,
    ].prefix(oneSide ? 2 : 3)
    for (n, advance) in lines.enumerated() {
      cr.newPath()
      cr.move(to: x + advance * em, y - em * 0.85)
      cr.line(to: x + advance * em, y + em * 0.25)
      cr.setDash(n == 1 && !oneSide ? [em / 40, em / 40] : [])
      cr.setColour(n == 2 ? DiffDrawing.afterColour : palette.text, alpha: n == 0 ? 0.25 : 0.5)
      cr.stroke(width: max(0.4, em / 160))
      cr.setDash([])
    }
  }

  /// One side of a changed glyph as a placement.
  /// A ring around the point of the outline that moved most (its place on the after side), so
  /// that a move of a few units, a sliver in the overlay, is found at a glance.
  func markMove(_ change: GlyphChange, em: Double, x: Double, y: Double, on cr: CairoContext) {
    guard let move = change.largestMove, move.distance >= 0.5 else { return }
    let scale = em / Double(max(1, change.unitsPerEm.after))
    let px = x + move.x * scale
    let py = y - move.y * scale
    guard px.isFinite, py.isFinite, abs(px) < 1e6, abs(py) < 1e6 else { return }
    cr.newPath()
    cr.circle(px, py, radius: max(4, em * 0.07))
    cr.setColour(DiffDrawing.afterColour, alpha: 0.9)
    cr.stroke(width: max(1, em / 160))
    cr.newPath()
  }

  /// "moved 5 units" for a glyph whose points moved.
  static func moveText(_ entry: DiffReport.Glyph, short: Bool = false) -> String? {
    guard let moved = entry.moved, moved > 0 else { return nil }
    return short ? "moved \(moved) u" : "moved \(FamilyComparison.count(moved, "unit"))"
  }

  func glyphPlacement(_ change: GlyphChange, after: Bool, em: Double, x: Double, y: Double)
    -> Placement
  {
    let outline = after ? change.after : change.before
    let units = Double(max(1, after ? change.unitsPerEm.after : change.unitsPerEm.before))
    return Placement(
      glyphs: [GlyphRaster.Placed(outline: outline, x: 0, y: 0)], scale: em / units, x: x, y: y)
  }
}
