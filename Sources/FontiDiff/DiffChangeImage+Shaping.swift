import FontiText
import Foundation

/// Shaping changes in the change image and the review: each set before, after and overlaid.
extension DiffDrawing {
  /// A grid of shaping changes (`ShapingImage`), `columns` a row: each cell its kind, face and
  /// numbers over three lines, before, after and their overlay, at one size.
  func drawShapingGrid(
    _ images: [ShapingImage], top: Double, bottom: Double, columns: Int, x: Double,
    width: Double, heading: Bool = true, textSize: Double = 13, on cr: CairoContext
  ) {
    guard !images.isEmpty else { return }
    let context = labelContext(for: cr)
    let headingHeight = heading ? textSize * 2 : 0
    if heading {
      let text = caption(
        "Shaping changes · before, after, overlay", size: textSize, in: context)
      cr.setColour(palette.text, alpha: 0.6)
      text.draw(at: x, top)
    }
    let rows = (images.count + columns - 1) / columns
    let cell = width / Double(max(columns, 1))
    let rowHeight = (bottom - top - headingHeight) / Double(max(rows, 1))
    for (n, image) in images.enumerated() {
      let cx = x + Double(n % columns) * cell
      let cy = top + headingHeight + Double(n / columns) * rowHeight
      let boxWidth = cell - textSize * 1.4
      let place = image.instance.map { "\(image.face) \($0)" } ?? image.face
      let title = label(
        "\(image.kind) · \(place) · \(image.title)", size: textSize, in: context)
      title.ellipsize(width: boxWidth)
      cr.setColour(palette.text, alpha: 0.85)
      title.draw(at: cx, cy)
      let band = (rowHeight - textSize * 2.3) / 3
      // One em size for the three lines: the wider run fits the cell, the band its height.
      let widest =
        [image.before, image.after].map { run -> Double in
          let units = Double(max(1, run.unitsPerEm))
          let right =
            zip(run.outlines, run.x).map { outline, x in
              Double(x) + (outline.bounds?.maxX ?? 0)
            }.max() ?? 0
          return max(right, units * 0.5) / units
        }.max() ?? 1
      let em = max(8, min(band * 0.78, (boxWidth - 8) / max(widest, 0.2)))
      for line in 0..<3 {
        let lineTop = cy + textSize * 1.7 + Double(line) * band
        cr.setColour(palette.text, alpha: 0.05)
        cr.rectangle(cx, lineTop, boxWidth, band - 4)
        cr.fill()
        let baseline = lineTop + band * 0.72
        let before = Placement(
          glyphs: image.before.placed, scale: em / Double(max(1, image.before.unitsPerEm)),
          x: cx + 6, y: baseline)
        let after = Placement(
          glyphs: image.after.placed, scale: em / Double(max(1, image.after.unitsPerEm)),
          x: cx + 6, y: baseline)
        cr.save()
        cr.rectangle(cx, lineTop, boxWidth, band - 4)
        cr.clip()
        switch line {
        case 0: fill(before, colour: palette.text, on: cr)
        case 1: fill(after, colour: palette.text, on: cr)
        default:
          overlay(
            before, after, area: (cx, lineTop, boxWidth, band - 4), hatch: max(3, em / 30),
            on: cr)
        }
        cr.restore()
        let tag = caption(
          ["before", "after", "overlay"][line], size: textSize * 0.77, in: context)
        cr.setColour(palette.text, alpha: 0.45)
        tag.draw(at: cx + boxWidth - tag.size.width - 4, lineTop + 2)
      }
    }
  }
}
