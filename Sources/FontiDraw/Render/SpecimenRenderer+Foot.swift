import FontiModel
import FontiSupport
import FontiText

/// The foot of a specimen: the B and I badges, and the curated partners above them.
extension SpecimenRenderer {
  /// The footer's B and I badges at the left, solid for a real bold and italic. Returns the
  /// footer's top and the badges' size.
  func drawBadges(_ page: SpecimenPage) -> Footer {
    let (k, margin) = (page.k, page.margin)
    let badgeSize = 46 * k
    let footerTop = page.edge - margin - badgeSize
    drawBadge(
      "B", bold: true, real: page.family.hasBold, at: margin, footerTop, size: badgeSize,
      cr: page.cr, context: page.labelContext ?? page.familyContext, palette: page.palette)
    drawBadge(
      "I", bold: false, real: page.family.hasItalic, at: margin + badgeSize + 14 * k, footerTop,
      size: badgeSize, cr: page.cr, context: page.labelContext ?? page.familyContext,
      palette: page.palette)
    return Footer(top: footerTop, badgeSize: badgeSize, right: margin + 2 * badgeSize + 14 * k)
  }

  func drawBadge(
    _ letter: String, bold: Bool, real: Bool, at x: Double, _ y: Double, size: Double,
    cr: CairoContext, context: TextContext, palette: Palette
  ) {
    let alpha = real ? 1.0 : 0.35
    cr.setColour(palette.accent, alpha: alpha)
    cr.roundedRectanglePath(x + 1, y + 1, size - 2, size - 2, radius: size * 0.22)
    cr.stroke(width: max(1.5, size / 22))
    let labelName = labelFamily?.name ?? ""
    let face =
      labelFamily.flatMap {
        bold ? $0.face(bold: true, italic: false) : $0.face(bold: false, italic: true)
      }
      ?? labelFamily?.regularFace
    let layout = TextLayout(
      letter, font: FontSpec(family: labelName, size: size * 0.56, face: face), in: context,
      fallback: true)
    let ink = layout.inkRect
    layout.draw(at: x + (size - ink.width) / 2 - ink.x, y + (size - ink.height) / 2 - ink.y)
  }

  /// Draws "PAIRS WELL WITH" and each partner's name in its own font, upwards from `bottom`;
  /// returns the height used.
  func drawPartners(
    _ partners: [FontFamily], bottom: Double, left: Double, width: Double, k: Double,
    cr: CairoContext, map: FontMap, labelContext: TextContext, palette: Palette
  ) -> Double {
    guard let labelFamily else { return 0 }
    var names: [TextLayout] = []
    for partner in partners.prefix(4) {
      let context = map.makeContext(for: cr)
      let ownName = partner.coverage.missing(in: partner.name).isEmpty
      let layout = TextLayout(
        Sanitize.terminal(partner.name),
        font: ownName
          ? FontSpec(family: partner.name, size: 28 * k, face: partner.regularFace)
          : FontSpec(family: labelFamily.name, size: 28 * k, face: labelFamily.regularFace),
        in: ownName ? context : labelContext)
      names.append(layout)
    }
    let rowHeight = names.map { $0.size.height }.max() ?? 0
    // Names in different fonts share one baseline, as type on a line does.
    let baseline = names.map(\.baseline).max() ?? 0
    let caption = TextLayout(
      "PAIRS WELL WITH",
      font: FontSpec(family: labelFamily.name, size: 15 * k, face: labelFamily.regularFace),
      in: labelContext, letterSpacing: 2 * k, fallback: true)
    let top = bottom - rowHeight - caption.size.height - 8 * k
    cr.setColour(palette.accent)
    caption.draw(at: left, top)
    var x = left
    let y = top + caption.size.height + 8 * k
    cr.setColour(palette.text)
    for (i, layout) in names.enumerated() {
      let w = layout.size.width
      if x + w > left + width { break }
      layout.draw(at: x, y + baseline - layout.baseline)
      x += w
      if i < names.count - 1 {
        cr.setColour(palette.accent, alpha: 0.7)
        cr.circle(x + 16 * k, y + baseline - 9 * k, radius: 3 * k)
        cr.fill()
        cr.setColour(palette.text)
        x += 32 * k
      }
    }
    return bottom - top
  }
}
