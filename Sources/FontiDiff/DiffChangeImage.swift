import FontiSupport
import FontiText
import Foundation

/// `changes/<slug>.png`: one changed family on a 1080 px square, to drop into a pull request.
/// The sample before, after and their overlay, stacked so the text stays large; under them
/// the largest glyph changes as overlays; the legend at the foot.
extension DiffDrawing {
  static let imageEdge = 1080.0

  func writeChangeImage(_ outcome: FamilyOutcome, report: DiffReport, to path: String) throws {
    let edge = DiffDrawing.imageEdge
    let surface = try CairoSurface.image(
      width: Int(edge), height: Int(edge), background: palette.background)
    let cr = try CairoContext(surface)
    drawChangeImage(outcome, report: report, on: cr)
    try cr.check("draw \(path)")
    try AtomicFile.write(to: path) { temporary in
      try surface.writePNG(to: temporary, compression: .fast, sync: true)
    }
  }

  /// The margin around the change image's content, and the content's width.
  static let imageMargin = 56.0
  static let imageWidth = imageEdge - 2 * imageMargin

  /// Draws the change image on `cr`, already painted with the palette's background.
  func drawChangeImage(_ outcome: FamilyOutcome, report: DiffReport, on cr: CairoContext) {
    let edge = DiffDrawing.imageEdge
    let margin = DiffDrawing.imageMargin
    let width = DiffDrawing.imageWidth
    let context = labelContext(for: cr)
    let y = drawChangeHead(outcome.entry, context, cr)
    let legendTop = edge - margin - 20
    let bottom = legendTop - 30
    if let sample = outcome.sample, !sample.isSame {
      // The sample changed: before, after and overlay; the largest glyph changes in a strip.
      let glyphs = Array(outcome.glyphImages.prefix(7))
      let strip = glyphs.isEmpty ? 0.0 : 196.0
      drawSampleBands(sample, top: y, bottom: bottom - strip, x: margin, width: width, on: cr)
      if !glyphs.isEmpty {
        drawGlyphGrid(
          glyphs, total: outcome.entry.glyphs.count + outcome.entry.glyphsMoved.count,
          top: bottom - strip + 14, bottom: bottom,
          columns: 7, x: margin, width: width, on: cr)
      }
    } else {
      // The sample did not change: it once, and the glyph changes large.
      var top = y
      if let sample = outcome.sample {
        top = drawSameSample(sample, top: y, height: 150, x: margin, width: width, on: cr) + 26
      }
      drawLargestChanges(outcome, top: top, bottom: bottom, context, cr)
    }
    drawChangeFoot(outcome, report: report, legendTop: legendTop, context, cr)
  }

  /// The head: what this is, the family, what changed (three lines, and how many more);
  /// returns where the body starts.
  private func drawChangeHead(
    _ entry: DiffReport.Family, _ context: TextContext, _ cr: CairoContext
  ) -> Double {
    let margin = DiffDrawing.imageMargin
    let width = DiffDrawing.imageWidth
    let kicker = caption("Font review · changed", size: 15, in: context)
    cr.setColour(palette.accent)
    kicker.draw(at: margin, 44)
    let name = label(entry.family, size: 40, bold: true, in: context)
    name.ellipsize(width: width)
    cr.setColour(palette.text)
    name.draw(at: margin, 66)
    var y = 66 + name.size.height + 6
    for line in entry.summary.prefix(3) {
      // Cut after a whole word, when it must be.
      let words = FittedText.words(
        line, suffix: "", fits: { label($0, size: 19, in: context).size.width <= width })
      let text = label(words, size: 19, in: context)
      cr.setColour(palette.text, alpha: 0.72)
      text.draw(at: margin, y)
      y += text.size.height + 1
    }
    if entry.summary.count > 3 {
      let more = label(
        "… and \(entry.summary.count - 3) more: see diff.pdf", size: 15, in: context)
      cr.setColour(palette.text, alpha: 0.5)
      more.draw(at: margin, y + 2)
      y += more.size.height + 2
    }
    return max(y + 22, 210)
  }

  /// Below a sample that did not change: the glyph changes (with a few shaping changes), else
  /// the shaping changes, else the metrics, the instances added or removed, or the characters
  /// added and removed, whichever the family has first.
  private func drawLargestChanges(
    _ outcome: FamilyOutcome, top: Double, bottom: Double, _ context: TextContext,
    _ cr: CairoContext
  ) {
    let margin = DiffDrawing.imageMargin
    let width = DiffDrawing.imageWidth
    let glyphs = Array(outcome.glyphImages.prefix(8))
    let shaping = Array(outcome.shapingImages.prefix(glyphs.isEmpty ? 6 : 2))
    let characters = Array((outcome.charactersAdded + outcome.charactersRemoved).prefix(8))
    if !glyphs.isEmpty {
      let split = shaping.isEmpty ? bottom : top + (bottom - top) * 0.55
      drawGlyphGrid(
        glyphs, total: outcome.entry.glyphs.count + outcome.entry.glyphsMoved.count, top: top,
        bottom: split,
        columns: min(4, glyphs.count), x: margin, width: width, on: cr)
      if !shaping.isEmpty {
        drawShapingGrid(
          shaping, top: split + 8, bottom: bottom, columns: 2, x: margin, width: width, on: cr)
      }
    } else if !shaping.isEmpty {
      drawShapingGrid(
        shaping, top: top, bottom: bottom, columns: 2, x: margin, width: width, on: cr)
    } else if let sample = outcome.sample,
      !DiffDrawing.metricLines(outcome.entry.metrics).isEmpty
    {
      drawMetricLines(
        outcome.entry.metrics, sample: sample, top: top, bottom: bottom, x: margin,
        width: width, on: cr)
    } else if !outcome.instanceImages.isEmpty {
      let band = min(180, (bottom - top) / Double(outcome.instanceImages.count))
      for (n, image) in outcome.instanceImages.enumerated() {
        let what = image.only == "before" ? "Instance removed" : "Instance added"
        _ = drawSameSample(
          image, top: top + Double(n) * band, height: band - 12, x: margin, width: width,
          title: "\(what) · \(image.face) · \(image.instance ?? "")", on: cr)
      }
    } else if !characters.isEmpty {
      let added = outcome.charactersAdded.count
      let removed = outcome.charactersRemoved.count
      drawGlyphGrid(
        characters, total: characters.count, top: top, bottom: bottom,
        columns: min(4, characters.count), x: margin, width: width,
        heading: "Characters · \(added) added, \(removed) removed (drawn from their side)",
        on: cr)
    }
    // What has nothing to draw, in a table under what is drawn (alone when nothing is).
    let undrawn = DiffDrawing.undrawnChanges(outcome.entry)
    let drew =
      !glyphs.isEmpty || !shaping.isEmpty || !outcome.instanceImages.isEmpty
      || !characters.isEmpty
      || (outcome.sample != nil && !DiffDrawing.metricLines(outcome.entry.metrics).isEmpty)
    if !undrawn.isEmpty && !drew {
      drawChangeTable(
        undrawn, top: top, bottom: bottom, x: margin, width: width, size: 17,
        heading: "Changes · \(FamilyComparison.grouped(undrawn.count)) with nothing to draw",
        on: cr)
    }
  }

  /// The foot: the legend, and how glyphs were compared.
  private func drawChangeFoot(
    _ outcome: FamilyOutcome, report: DiffReport, legendTop: Double, _ context: TextContext,
    _ cr: CairoContext
  ) {
    let edge = DiffDrawing.imageEdge
    let margin = DiffDrawing.imageMargin
    cr.setColour(palette.text, alpha: 0.2)
    cr.rectangle(margin, legendTop - 14, DiffDrawing.imageWidth, 1)
    cr.fill()
    let keys = legend(at: margin, legendTop, swatch: 16, size: 14, on: cr)
    // Glyph cells mark the advance before (dashed) and after (solid): say which is which.
    if !outcome.glyphImages.isEmpty {
      advanceLegend(at: margin + keys + 8, legendTop, swatch: 16, size: 14, on: cr)
    }
    let how = label(
      "\(report.threshold) px at \(report.pixelsPerEm) px/em · \(FontiVersion.tool)", size: 13,
      in: context, width: 420, alignment: .right)
    cr.setColour(palette.text, alpha: 0.5)
    how.draw(at: edge - margin - 420, legendTop + 8 - how.size.height / 2)
  }

  /// Before, after and the overlay of the sample, each under its caption, one em size for all.
  func drawSampleBands(
    _ sample: SampleChange, top: Double, bottom: Double, x: Double, width: Double,
    on cr: CairoContext
  ) {
    let context = labelContext(for: cr)
    let band = (bottom - top) / 3
    let captionHeight = 26.0
    let fitted = sample.fit(
      width: width, height: band - captionHeight - 14, minimum: 14, maximum: 110)
    let place = FamilyComparison.place(sample.face, sample.instance)
    let kind = sample.languageName == nil ? "" : "\(sample.title) · "
    let titles = [
      "Before · \(kind)\(place)", "After · \(kind)\(place)",
      sample.pixels > 0
        ? "Difference · \(FamilyComparison.grouped(sample.pixels)) px at 64 px/em"
        : "Difference · none in the sample",
    ]
    for (n, title) in titles.enumerated() {
      let bandTop = top + Double(n) * band
      let heading = caption(title, size: 13, in: context)
      cr.setColour(n == 2 ? palette.accent : palette.text, alpha: n == 2 ? 1 : 0.6)
      heading.draw(at: x, bandTop)
      let baseline = bandTop + captionHeight + fitted.em * 0.95
      let before = samplePlacement(
        sample.before, lines: fitted.lines, em: fitted.em, x: x, y: baseline)
      let after = samplePlacement(
        sample.after, lines: fitted.lines, em: fitted.em, x: x, y: baseline)
      switch n {
      case 0: fill(before, colour: palette.text, on: cr)
      case 1: fill(after, colour: palette.text, on: cr)
      default:
        overlay(
          before, after,
          area: (x - 4, bandTop + captionHeight - 4, width + 8, band - captionHeight),
          hatch: 4, on: cr)
      }
    }
  }

  /// The sample once, under a caption that says it is the same on both sides; returns the
  /// bottom of what it drew.
  func drawSameSample(
    _ sample: SampleChange, top: Double, height: Double, x: Double, width: Double,
    title: String? = nil, on cr: CairoContext
  ) -> Double {
    let context = labelContext(for: cr)
    let heading = caption(
      title
        ?? "\(sample.title) · \(FamilyComparison.place(sample.face, sample.instance))"
        + " · the same before and after",
      size: 13, in: context)
    cr.setColour(palette.text, alpha: 0.6)
    heading.draw(at: x, top)
    let fitted = sample.fit(width: width, height: height - 30, minimum: 14, maximum: 72)
    let baseline = top + 26 + fitted.em * 0.95
    fill(
      samplePlacement(sample.after, lines: fitted.lines, em: fitted.em, x: x, y: baseline),
      colour: palette.text, on: cr)
    return baseline + (Double(fitted.lines.count) - 1) * DiffSettings.sampleLineHeight * fitted.em
      + fitted.em * 0.3
  }

  /// The largest glyph changes, each as an overlay in its cell with guides for the pen's
  /// start and both advances, and the character and its numbers under it.
  func drawGlyphGrid(
    _ glyphs: [GlyphChange], total: Int, top: Double, bottom: Double, columns: Int, x: Double,
    width: Double, heading title: String? = nil, on cr: CairoContext
  ) {
    let context = labelContext(for: cr)
    let heading = caption(
      title
        ?? (total > glyphs.count
          ? "Glyph changes · \(glyphs.count) of \(FamilyComparison.grouped(total)): each changed letter once, largest first"
          : "Glyph changes · \(FamilyComparison.grouped(total))"),
      size: 13, in: context)
    cr.setColour(palette.text, alpha: 0.6)
    heading.draw(at: x, top)
    let rows = (glyphs.count + columns - 1) / columns
    let cell = width / Double(max(columns, 1))
    let captionHeight = 44.0
    let rowHeight = min((bottom - top - 26) / Double(max(rows, 1)), cell * 1.1 + captionHeight)
    let box = (width: cell - 14, height: rowHeight - captionHeight - 10)
    for (n, change) in glyphs.enumerated() {
      let cx = x + Double(n % columns) * cell
      let boxTop = top + 26 + Double(n / columns) * rowHeight
      cr.setColour(palette.text, alpha: 0.05)
      cr.rectangle(cx, boxTop, box.width, box.height)
      cr.fill()
      let pad = box.height * 0.06
      let fit = fitGlyph(change, width: box.width - 2 * pad, height: box.height - 2 * pad)
      let ox = cx + pad + fit.x
      let oy = boxTop + pad + fit.y
      glyphGuides(
        change, em: fit.em, x: ox, y: oy, cell: (cx, boxTop, box.width, box.height), on: cr)
      overlay(
        glyphPlacement(change, after: false, em: fit.em, x: ox, y: oy),
        glyphPlacement(change, after: true, em: fit.em, x: ox, y: oy),
        area: (cx, boxTop, box.width, box.height), hatch: max(3.5, fit.em / 40), on: cr)
      markMove(change, em: fit.em, x: ox, y: oy, on: cr)
      let name = label(
        FamilyComparison.character(change.entry.codepoint), size: 14, bold: true, in: context)
      name.ellipsize(width: box.width)
      cr.setColour(palette.text, alpha: 0.9)
      drawCharacterLabel(
        name, size: 14, bold: true, at: cx, top: boxTop + box.height + 4, in: context)
      var numbers: [String] = []
      if let moved = DiffDrawing.moveText(change.entry, short: columns > 4) {
        numbers.append(moved)
      }
      if change.entry.pixels > 0 {
        numbers.append("\(FamilyComparison.grouped(change.entry.pixels)) px")
      }
      if change.entry.advance[0] != change.entry.advance[1] {
        numbers.append(
          "\(columns > 4 ? "adv" : "advance") "
            + DiffNumber.signed(change.entry.advance[1] - change.entry.advance[0]))
      }
      if let instance = change.entry.instance { numbers.append(instance) }
      let detail = label(numbers.joined(separator: " · "), size: 12.5, in: context)
      detail.ellipsize(width: box.width)
      cr.setColour(palette.text, alpha: 0.6)
      detail.draw(at: cx, boxTop + box.height + 23)
    }
  }
}
