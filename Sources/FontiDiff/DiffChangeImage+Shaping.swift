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
      cr.setColour(palette.text, alpha: 0.85)
      drawShapingTitle(
        image, prefix: "\(image.kind) · \(place) · ", size: textSize, x: cx, y: cy,
        width: boxWidth, context, on: cr)
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

  /// A shaping change's title, its quoted text ("“इं”") drawn from the BEFORE face's own
  /// outlines as it set the text — the label face may lack its script — and the rest in the
  /// label face.
  private func drawShapingTitle(
    _ image: ShapingImage, prefix: String, size: Double, x: Double, y: Double, width: Double,
    _ context: TextContext, on cr: CairoContext
  ) {
    guard let parts = DiffDrawing.quotedParts(image.title), !image.before.outlines.isEmpty
    else {
      let title = label(prefix + image.title, size: size, in: context)
      title.ellipsize(width: width)
      title.draw(at: x, y)
      return
    }
    let head = label(prefix + parts.before + "“", size: size, in: context)
    head.ellipsize(width: width)
    head.draw(at: x, y)
    var pen = x + head.size.width
    let run = image.before
    let units = Double(max(1, run.unitsPerEm))
    let right =
      zip(run.outlines, run.x).map { outline, x in Double(x) + (outline.bounds?.maxX ?? 0) }
      .max() ?? 0
    let scale = size / units
    let quotedWidth = max(0, right) * scale + size * 0.1
    guard pen + quotedWidth < x + width else { return }
    fill(
      Placement(glyphs: run.placed, scale: scale, x: pen, y: y + head.baseline),
      colour: palette.text, on: cr)
    cr.setColour(palette.text, alpha: 0.85)
    pen += quotedWidth
    let tail = label("”" + parts.after, size: size, in: context)
    tail.ellipsize(width: max(1, x + width - pen))
    tail.draw(at: pen, y)
  }

  /// A title split around its first quoted text: "“To” −105 → −255" → ("", "To", " −105 → −255").
  static func quotedParts(_ title: String) -> (before: String, quoted: String, after: String)? {
    guard let open = title.firstIndex(of: "“"),
      let close = title[title.index(after: open)...].firstIndex(of: "”")
    else { return nil }
    return (
      String(title[..<open]), String(title[title.index(after: open)..<close]),
      String(title[title.index(after: close)...])
    )
  }
}
