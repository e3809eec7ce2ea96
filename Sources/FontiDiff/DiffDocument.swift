import FontiSupport
import FontiText
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `diff.pdf` from its plan, page by page on Cairo's PDF surface, then finishes it like a
/// catalogue (`PDFFile.finish`: qpdf repairs Cairo 1.16's links, compresses, sets the
/// dates from `creationDate` and a deterministic /ID, checks it, and renames it into place).
final class DiffDocument {
  let drawing: DiffDrawing
  let result: DiffResult
  let plan: DiffDocumentPlan
  let creationDate: Date
  private var g: DiffDocumentPlan.Geometry { plan.geometry }
  private var palette: Palette { drawing.palette }

  init(drawing: DiffDrawing, result: DiffResult, creationDate: Date) {
    self.drawing = drawing
    self.result = result
    self.plan = DiffDocumentPlan(result)
    self.creationDate = creationDate
  }

  /// The last family read (its pages are drawn one after another): one family's drawings in
  /// memory at a time.
  private var last: (index: Int, outcome: FamilyOutcome)?

  private func outcome(at index: Int) -> FamilyOutcome {
    if let last, last.index == index { return last.outcome }
    let outcome = result.outcome(at: index)
    last = (index, outcome)
    return outcome
  }

  static let summaryDestination = "summary"
  static func familyDestination(_ index: Int) -> String { "family-\(index)" }

  /// Draws the review into `path`; `interrupted`, asked before each page, stops it with
  /// `DiffInterrupted` and nothing at `path`.
  func write(to path: String, interrupted: () -> Bool = { false }) throws {
    let raw = AtomicFile.temporaryPath(for: path)
    defer { unlink(OutputFolder.systemPathOrSame(raw)) }
    let tagging = try draw(to: try OutputFolder.systemPath(raw), interrupted: interrupted)
    try PDFFile.finish(
      raw: raw, to: path, creationDate: creationDate, pages: plan.pages.count, tagging: tagging)
  }

  /// Draws every page; returns what the finishing step writes into the structure tree.
  private func draw(to path: String, interrupted: () -> Bool) throws -> PDFTagging? {
    let surface = try CairoSurface.pdf(path: path, width: g.width, height: g.height)
    let report = result.report
    try surface.setMetadata(
      .title, Sanitize.terminal("Font review: \(report.before) → \(report.after)"))
    try surface.setMetadata(.creator, FontiVersion.tool)
    let iso = PDFFile.isoDate(creationDate)
    try surface.setMetadata(.createDate, iso)
    try surface.setMetadata(.modDate, iso)
    try surface.addOutline("Summary", destination: DiffDocument.summaryDestination)
    for (index, _) in plan.familyPages.sorted(by: { $0.value < $1.value }) {
      try surface.addOutline(
        Sanitize.terminal(report.families[index].family),
        destination: DiffDocument.familyDestination(index))
    }
    let cr = try CairoContext(surface)
    cr.beginDocument()
    let context = drawing.labelContext(for: cr)
    for page in plan.pages {
      if interrupted() { throw DiffInterrupted() }
      cr.setColour(palette.background)
      cr.paint()
      switch page.kind {
      case .cover(let items):
        cr.destination(DiffDocument.summaryDestination)
        drawCover(context, cr)
        drawItems(items, top: g.coverTableTop, context, cr)
      case .summary(let items):
        drawHeading("Families, continued", y: g.bodyTop, context, cr)
        drawItems(items, top: g.bodyTop + g.headingHeight, context, cr)
      case .family(let index, let part, let blocks):
        if part == 0 { cr.destination(DiffDocument.familyDestination(index)) }
        let outcome = self.outcome(at: index)
        for placed in blocks { drawBlock(placed, outcome: outcome, context, cr) }
      }
      drawChrome(page, context, cr)
      cr.showPage()
      try cr.check("draw page \(page.number)")
    }
    let tagging = cr.endDocument()
    try surface.finish()
    return tagging
  }

  // MARK: Chrome

  private func drawChrome(_ page: DiffDocumentPlan.Page, _ context: TextContext, _ cr: CairoContext)
  {
    let half = g.contentWidth / 2 - 12
    let title = drawing.caption("Font review", size: 6.5, in: context)
    cr.setColour(palette.ink(0.55))
    title.draw(at: g.margin, g.headTop)
    var section = "Summary"
    if case .family(let index, _, _) = page.kind { section = result.report.families[index].family }
    let right = drawing.label(section, size: 7, in: context, width: half, alignment: .right)
    right.ellipsize(width: half)
    right.draw(at: g.right - half, g.headTop - 1)
    rule(y: g.headRule, alpha: 0.22, cr)
    rule(y: g.footRule, alpha: 0.22, cr)
    let number = drawing.label(
      "\(page.number) of \(plan.pages.count)", size: 8, in: context, width: 80, alignment: .right)
    cr.setColour(palette.ink(0.7))
    number.draw(at: g.right - 80, g.footTop)
    let tool = drawing.caption(FontiVersion.tool, size: 6, in: context)
    cr.setColour(palette.ink(0.45))
    tool.draw(at: g.margin, g.footTop + 1.5)
  }

  private func rule(y: Double, alpha: Double, _ cr: CairoContext) {
    cr.setColour(palette.ink(alpha))
    cr.rectangle(g.margin, y, g.contentWidth, 0.5)
    cr.fill()
  }

  // MARK: Cover and summary

  private func drawCover(_ context: TextContext, _ cr: CairoContext) {
    var y = drawCoverTitle(context, cr)
    y = drawCounts(top: y + 18, context, cr)
    drawFacts(top: y + 22, context, cr)
    drawHeading("Families", y: g.coverTableTop - g.headingHeight, context, cr)
  }

  /// The kicker, the title and the two sides compared; returns where the next part goes.
  private func drawCoverTitle(_ context: TextContext, _ cr: CairoContext) -> Double {
    let report = result.report
    var y = 78.0
    let kicker = drawing.caption("Font review", size: 8, in: context)
    cr.setColour(palette.accent)
    kicker.draw(at: g.margin, y)
    y += 16
    let title = drawing.label("What changed", size: 34, bold: true, in: context)
    cr.setColour(palette.text)
    cr.heading { title.draw(at: g.margin, y) }
    y += title.size.height + 8
    for (word, path) in [("Before", report.before), ("After", report.after)] {
      drawKeyed(
        word, path, y: y, style: KeyedStyle(value: 10.5, column: 60), valueColour: palette.text,
        context, cr)
      y += 17
    }
    return y
  }

  /// The counts, one box each; changed in the accent colour. Returns the boxes' bottom.
  private func drawCounts(top y: Double, _ context: TextContext, _ cr: CairoContext) -> Double {
    let c = result.report.counts
    let boxes: [(String, Int, Bool)] = [
      ("Changed", c.changed, true), ("Added", c.added, false), ("Removed", c.removed, false),
      ("Unchanged", c.unchanged, false), ("Failed", c.failed, false),
    ]
    let gap = 8.0
    let boxWidth = (g.contentWidth - gap * Double(boxes.count - 1)) / Double(boxes.count)
    for (n, (word, count, accent)) in boxes.enumerated() {
      let x = g.margin + Double(n) * (boxWidth + gap)
      cr.roundedRectanglePath(x, y, boxWidth, 62, radius: 5)
      let tint = palette.ink(accent ? 0.14 : 0.05, of: accent ? palette.accent : palette.text)
      cr.setColour(tint)
      cr.fill()
      let number = drawing.label("\(count)", size: 26, bold: true, in: context)
      cr.setColour(
        palette.ink(
          count == 0 ? 0.35 : 1, of: accent && count > 0 ? palette.accent : palette.text,
          over: tint))
      number.draw(at: x + 10, y + 6)
      let name = drawing.caption(word, size: 6.5, in: context)
      cr.setColour(palette.ink(0.6, over: tint))
      name.draw(at: x + 10, y + 46)
    }
    return y + 62
  }

  /// How the comparison was made, and the first files that could not be read.
  private func drawFacts(top: Double, _ context: TextContext, _ cr: CairoContext) {
    let report = result.report
    let unreadable =
      report.unreadable.isEmpty
      ? ""
      : "; \(report.unreadable.count) file\(report.unreadable.count == 1 ? "" : "s") "
        + "could not be read"
    let facts: [(String, String)] = [
      ("Families", "\(report.counts.families) compared" + unreadable),
      (
        "Glyphs",
        "changed when more than \(report.threshold) px differ by more than \(report.greyLevels) grey levels at \(report.pixelsPerEm) px per em, unhinted, or when their points move by a unit or more"
      ),
      ("Sample", report.text.replacingOccurrences(of: "\n", with: " ")),
      ("Date", PDFFile.displayDate(creationDate)),
    ]
    var y = top
    for (key, value) in facts {
      // How glyphs are compared on two lines, the sample on one, cut after a whole word.
      let lines = drawKeyed(
        key, value, y: y,
        style: KeyedStyle(value: 9, column: 60, lines: key == "Glyphs" ? 2 : 1, words: true),
        valueColour: palette.ink(0.9), context, cr)
      y += 15 + Double(lines - 1) * 11
    }
    for (n, u) in report.unreadable.prefix(3).enumerated() {
      // Named in the key column, so that the note does not read as part of the date.
      drawKeyed(
        n == 0 ? "Unreadable" : nil, "\(u.side): \(u.file) \(u.error)", y: y,
        style: KeyedStyle(value: 8, column: 60), valueColour: palette.accent, context, cr)
      y += 12
    }
  }

  /// The sizes of a keyed line: its key's and its value's, the key column's width, the key's ink.
  private struct KeyedStyle {
    var key = 6.5
    var value: Double
    var column: Double
    var keyInk = 0.55
    /// The value on at most this many lines, wrapped and cut after whole words when `words`
    /// (else on one line, ellipsized: a path).
    var lines = 1
    var words = false
  }

  /// A value with its key (a caption) in the column before it, on the same baseline: the
  /// cover's sides, facts and unreadable files, a family's files.
  @discardableResult
  private func drawKeyed(
    _ key: String?, _ value: String, y: Double, style: KeyedStyle, valueColour: Colour,
    _ context: TextContext, _ cr: CairoContext
  ) -> Int {
    let width = g.contentWidth - style.column
    let v: TextLayout
    if style.words {
      let wrapped = { (text: String) in
        self.drawing.label(text, size: style.value, in: context, width: width, wrap: .words)
      }
      v = wrapped(
        FittedText.words(value, suffix: "", fits: { wrapped($0).lineCount <= style.lines }))
    } else {
      v = drawing.label(value, size: style.value, in: context)
      v.ellipsize(width: width)
    }
    if let key {
      let k = drawing.caption(key, size: style.key, in: context)
      cr.setColour(palette.ink(style.keyInk))
      k.draw(at: g.margin, y + v.baseline - k.baseline)
    }
    cr.setColour(valueColour)
    v.draw(at: g.margin + style.column, y)
    return max(1, v.lineCount)
  }

  /// A section's heading on a family's page, in small capitals of the accent colour.
  private func drawSectionHeading(
    _ text: String, y: Double, _ context: TextContext, _ cr: CairoContext
  ) {
    let heading = drawing.caption(text, size: 7.5, in: context)
    cr.setColour(palette.accent)
    heading.draw(at: g.margin, y)
  }

  private func drawHeading(_ text: String, y: Double, _ context: TextContext, _ cr: CairoContext) {
    let layout = drawing.label(text, size: 15, bold: true, in: context)
    cr.setColour(palette.accent)
    cr.rectangle(g.margin, y + 4, 3, 14)
    cr.fill()
    cr.setColour(palette.text)
    layout.draw(at: g.margin + 10, y + 1)
  }

  private func drawItems(
    _ range: Range<Int>, top: Double, _ context: TextContext, _ cr: CairoContext
  ) {
    var y = top
    let families = result.report.families
    for item in plan.items[range] {
      switch item {
      case .heading(let text):
        let layout = drawing.caption(text, size: 7.5, in: context)
        cr.setColour(palette.accent)
        layout.draw(at: g.margin, y + 14)
        rule(y: y + 26, alpha: 0.18, cr)
      case .family(let index):
        let f = families[index]
        let page = plan.familyPages[index]
        let row = {
          let name = self.drawing.label(f.family, size: 9, bold: true, in: context)
          name.ellipsize(width: 150)
          cr.setColour(self.palette.text)
          name.draw(at: self.g.margin, y + 2)
          let status = self.drawing.caption(f.status.rawValue, size: 6.5, in: context)
          cr.setColour(
            self.palette.ink(0.7, of: f.status == .failed ? self.palette.accent : self.palette.text)
          )
          status.draw(at: self.g.margin + 156, y + 4.5)
          // A failed family's reason follows on lines of its own (`.reason`).
          let what = self.drawing.label(
            f.status == .failed
              ? "could not be compared:" : self.rowSummary(f, page: page, context),
            size: 8.5, in: context)
          cr.setColour(self.palette.ink(0.75))
          what.draw(at: self.g.margin + 212, y + 2.5)
          if let page {
            let number = self.drawing.label(
              "\(page)", size: 8.5, in: context, width: 30, alignment: .right)
            cr.setColour(self.palette.ink(0.7))
            number.draw(at: self.g.right - 30, y + 2.5)
          }
        }
        if page != nil {
          cr.link(
            to: DiffDocument.familyDestination(index),
            rect: (g.margin, y, g.contentWidth, g.rowHeight), row)
        } else {
          row()
        }
      case .reason(let index, let lines):
        let reason = drawing.label(
          families[index].error ?? "", size: 8, in: context, width: g.reasonWidth, wrap: .words)
        reason.limitHeight(Double(lines) * DiffDocumentPlan.reasonLineHeight + 1)
        cr.setColour(palette.ink(0.75))
        reason.draw(at: g.margin + 212, y)
      case .names(let indices):
        let column = g.contentWidth / 3
        for (n, index) in indices.enumerated() {
          let name = drawing.label(families[index].family, size: 8.5, in: context)
          name.ellipsize(width: column - 10)
          cr.setColour(palette.ink(0.6))
          name.draw(at: g.margin + Double(n) * column, y + 2.5)
        }
      }
      y += plan.height(item)
    }
  }

  /// A family's changes on its row of the table: as many as fit, then how many more and
  /// where they are ("and 129 more: see page 4"), cut only after a whole word.
  private func rowSummary(_ f: DiffReport.Family, page: Int?, _ context: TextContext) -> String {
    let width = g.reasonWidth
    return FittedText.lines(
      f.summary,
      more: { " · and \($0) more: see \(page.map { "page \($0)" } ?? "diff.json")" },
      fits: { drawing.label($0, size: 8.5, in: context).size.width <= width })
  }

  // MARK: Family pages

  private func drawBlock(
    _ placed: DiffDocumentPlan.Placed, outcome: FamilyOutcome, _ context: TextContext,
    _ cr: CairoContext
  ) {
    let f = outcome.entry
    let y = placed.y
    switch placed.block {
    case .header:
      drawHeader(f, y: y, context, cr)
    case .continued:
      let name = drawing.label(f.family + ", continued", size: 11, in: context)
      name.ellipsize(width: g.contentWidth)
      cr.setColour(palette.ink(0.6))
      name.draw(at: g.margin, y)
    case .changesHeading(let text):
      drawSectionHeading(text, y: y + 6, context, cr)
    case .change(let text, let lines):
      cr.setColour(palette.accent)
      cr.circle(g.margin + 3, y + 7.5, radius: 1.6)
      cr.fill()
      let line = drawing.label(
        text, size: 9.5, in: context, width: g.changeWidth, wrap: .words)
      line.limitHeight(Double(lines) * 13)
      cr.setColour(palette.ink(0.9))
      line.draw(at: g.margin + 12, y + 1)
    case .sample(_, let em, let band, let same):
      guard let sample = outcome.sample else { return }
      drawSample(sample, of: f.family, top: y, em: em, band: band, same: same, context, cr)
    case .glyphsHeading(let shown, let total):
      drawGlyphsHeading(shown: shown, total: total, y: y, context, cr)
    case .glyphRow(let indices):
      let cell = g.contentWidth / Double(g.glyphColumns)
      for (n, index) in indices.enumerated() where index < outcome.glyphImages.count {
        drawGlyphCell(
          outcome.glyphImages[index], of: f.family, x: g.margin + Double(n) * cell, y: y,
          width: cell - 14, context, cr)
      }
    case .moreGlyphs(let more):
      let line = drawing.label(
        "… and \(FamilyComparison.grouped(more)) more changed glyphs, all listed in diff.json",
        size: 8.5, in: context)
      cr.setColour(palette.ink(0.6))
      line.draw(at: g.margin, y + 4)
    case .charactersHeading(let added, let shown, let total):
      drawCharactersHeading(outcome, added: added, shown: shown, total: total, y: y, context, cr)
    case .shapingRow(let indices, let first):
      let images = indices.filter { $0 < outcome.shapingImages.count }.map {
        outcome.shapingImages[$0]
      }
      let kinds = Set(images.map { $0.kind.lowercased() }).sorted().joined(separator: ", ")
      cr.figure(alt: "\(f.family): shaping before and after the change (\(kinds))") {
        drawing.drawShapingGrid(
          images, top: y + (first ? 6 : 0), bottom: y + (first ? 148 : 132) - 6, columns: 2,
          x: g.margin, width: g.contentWidth, heading: first, textSize: 7.5, on: cr)
      }
    case .metrics:
      guard let sample = outcome.sample else { return }
      drawMetrics(f.metrics, of: f.family, sample: sample, y: y, context, cr)
    case .instance(let index, let em, let band):
      guard index < outcome.instanceImages.count else { return }
      let image = outcome.instanceImages[index]
      let what = image.only == "before" ? "Instance removed" : "Instance added"
      drawSample(
        image, of: f.family, top: y, em: em, band: band, same: true, context, cr,
        title: "\(what) · \(image.face) · \(image.instance ?? "")")
    case .characterRow(let added, let indices):
      drawCharacterRow(outcome, added: added, indices: indices, y: y, context, cr)
    case .changeTableHeading(let count):
      drawSectionHeading(
        "Changes with nothing to draw · \(FamilyComparison.grouped(count))", y: y + 10, context,
        cr)
    case .changeRow(let index, let lines):
      let undrawn = DiffDrawing.undrawnChanges(f)
      guard index < undrawn.count else { return }
      drawing.drawChangeTable(
        [undrawn[index]], top: y + 2, bottom: .infinity, x: g.margin, width: g.contentWidth,
        size: 8, lines: lines, on: cr)
    }
  }

  /// A family's name, its status in a chip, and its files on each side.
  private func drawHeader(
    _ f: DiffReport.Family, y: Double, _ context: TextContext, _ cr: CairoContext
  ) {
    let name = drawing.label(f.family, size: 22, bold: true, in: context)
    name.ellipsize(width: g.contentWidth - 80)
    cr.setColour(palette.text)
    cr.heading { name.draw(at: g.margin, y) }
    let chip = drawing.caption(f.status.rawValue, size: 7, in: context)
    let chipWidth = chip.size.width + 14
    cr.roundedRectanglePath(g.right - chipWidth, y + 6, chipWidth, 16, radius: 8)
    cr.setColour(palette.ink(0.16, of: palette.accent))
    cr.fill()
    cr.setColour(palette.accent)
    chip.draw(at: g.right - chipWidth + 7, y + 14 - chip.size.height / 2)
    var lineY = y + name.size.height + 6
    for (word, files) in [("Before", f.files.before), ("After", f.files.after)] {
      let shown =
        files.count <= 2
        ? files.joined(separator: ", ") : "\(files[0]) and \(files.count - 1) more files"
      drawKeyed(
        word, shown, y: lineY, style: KeyedStyle(key: 6, value: 8, column: 50, keyInk: 0.5),
        valueColour: palette.ink(0.75), context, cr)
      lineY += 13
    }
  }

  private func drawGlyphsHeading(
    shown: Int, total: Int, y: Double, _ context: TextContext, _ cr: CairoContext
  ) {
    let text =
      shown < total
      ? "Glyphs · \(shown) of \(FamilyComparison.grouped(total)) changes: each changed letter once, largest first"
      : "Glyphs · \(FamilyComparison.count(total, "change"))"
    drawSectionHeading(text, y: y + 10, context, cr)
    let note = drawing.label("Each: before, after, overlay", size: 7.5, in: context)
    cr.setColour(palette.ink(0.6))
    note.draw(at: g.margin, y + 24)
    let legend = drawing.legend(
      at: g.margin + note.size.width + 12, y + 25, swatch: 8, size: 7, on: cr)
    drawing.advanceLegend(
      at: g.margin + note.size.width + 12 + legend, y + 25, swatch: 8, size: 7, on: cr)
  }

  private func drawCharactersHeading(
    _ outcome: FamilyOutcome, added: Bool, shown: Int, total: Int, y: Double,
    _ context: TextContext, _ cr: CairoContext
  ) {
    let what = added ? "Characters added" : "Characters removed"
    let text =
      shown < total
      ? "\(what) · \(shown) of \(FamilyComparison.grouped(total)), spread over their blocks of code points"
      : "\(what) · \(FamilyComparison.grouped(total))"
    drawSectionHeading(text, y: y + 10, context, cr)
    let cells = added ? outcome.charactersAdded : outcome.charactersRemoved
    let faces = Set(cells.map(\.entry.face))
    var words = added ? "As the fonts after draw them" : "As the fonts before drew them"
    if faces.count == 1, let face = faces.first { words += ", in \(face)" }
    words += "; baseline and advance marked"
    if shown < total { words += "; all listed in diff.json" }
    let note = drawing.label(words, size: 7.5, in: context)
    note.ellipsize(width: g.contentWidth)
    cr.setColour(palette.ink(0.6))
    note.draw(at: g.margin, y + 24)
  }

  /// The changed vertical metrics as lines over the start of the sample.
  private func drawMetrics(
    _ metrics: [String: [Int?]], of family: String, sample: SampleChange, y: Double,
    _ context: TextContext, _ cr: CairoContext
  ) {
    drawSectionHeading(DiffDrawing.metricsHeading(sample), y: y + 10, context, cr)
    let top = y + 30
    cr.setColour(palette.ink(0.03))
    cr.rectangle(g.margin, top, g.contentWidth, g.metricsHeight - 38)
    cr.fill()
    let place = FamilyComparison.place(sample.face, sample.instance)
    cr.figure(
      alt: "\(family), \(place): the vertical metrics that changed, drawn over the sample, "
        + "before dashed, after solid"
    ) {
      drawing.drawMetricLines(
        metrics, sample: sample, top: top + 6, bottom: y + g.metricsHeight - 14,
        x: g.margin + 6, width: g.contentWidth - 12, headingSize: nil, labelSize: 8,
        stroke: 1, on: cr)
    }
  }

  /// A row of added or removed characters, at one scale and on one baseline for all of them
  /// so that their sizes compare; each names its face when they come from several.
  private func drawCharacterRow(
    _ outcome: FamilyOutcome, added: Bool, indices: [Int], y: Double, _ context: TextContext,
    _ cr: CairoContext
  ) {
    let cells = added ? outcome.charactersAdded : outcome.charactersRemoved
    let namesFaces = Set(cells.map(\.entry.face)).count > 1
    let cell = g.contentWidth / Double(g.characterColumns)
    let fit = DiffDrawing.fitGlyphs(cells, width: cell - 14, height: g.characterPanelHeight - 8)
    for (n, index) in indices.enumerated() where index < cells.count {
      drawCharacterCell(
        cells[index], of: outcome.entry.family, added: added, face: namesFaces, fit: fit,
        x: g.margin + Double(n) * cell, y: y, width: cell - 6, context, cr)
    }
  }

  /// One added or removed character: its outline (both sides of the change hold it) at the
  /// grid's scale with its baseline, origin and advance, and its code point below (its face too
  /// when `face`).
  private func drawCharacterCell(
    _ character: GlyphChange, of family: String, added: Bool, face: Bool,
    fit: (em: Double, baseline: Double), x: Double, y: Double, width: Double,
    _ context: TextContext, _ cr: CairoContext
  ) {
    let height = g.characterPanelHeight
    cr.setColour(palette.ink(0.03))
    cr.rectangle(x, y, width, height)
    cr.fill()
    let ox = x + 4 + DiffDrawing.x(of: character, em: fit.em, width: width - 8)
    let oy = y + 4 + fit.baseline
    let what = added ? "added, as the fonts after draw it" : "removed, as the fonts before drew it"
    let shown = FamilyComparison.character(character.entry.codepoint)
    cr.figure(alt: "\(family), \(character.entry.face): \(shown) \(what)") {
      drawing.glyphGuides(
        character, em: fit.em, x: ox, y: oy, cell: (x, y, width, height), oneSide: true, on: cr)
      drawing.fill(
        drawing.glyphPlacement(character, after: true, em: fit.em, x: ox, y: oy),
        colour: palette.text, on: cr)
    }
    let name = drawing.label(
      FamilyComparison.character(character.entry.codepoint), size: 7.5, bold: true, in: context)
    name.ellipsize(width: width)
    cr.setColour(palette.text)
    drawing.drawCharacterLabel(name, size: 7.5, bold: true, at: x, top: y + height + 4, in: context)
    guard face else { return }
    let detail = drawing.label(character.entry.face, size: 6.5, in: context)
    detail.ellipsize(width: width)
    cr.setColour(palette.ink(0.6))
    detail.draw(at: x, y + height + 15)
  }

  private func drawSample(
    _ sample: SampleChange, of family: String, top: Double, em: Double, band: Double,
    same: Bool, _ context: TextContext, _ cr: CairoContext, title: String? = nil
  ) {
    let place = FamilyComparison.place(sample.face, sample.instance)
    drawSectionHeading(
      title
        ?? (same && sample.only == nil
          ? "\(sample.title) · \(place) · the same before and after"
          : "\(sample.title) · \(place)"),
      y: top + 10, context, cr)
    let width = g.contentWidth - g.sampleLabelWidth
    let lines = plan.fit(sample).lines
    // What the figures show: "the sample in Arabic", "the sample of the instance added".
    let subject =
      title == nil
      ? "the " + sample.title.prefix(1).lowercased() + sample.title.dropFirst()
      : "the sample of the instance \(sample.only == "before" ? "removed" : "added")"
    let x = g.margin + g.sampleLabelWidth
    let words =
      switch sample.only {
      case "after": ["After"]
      case "before": ["Before"]
      default: same ? ["Both"] : ["Before", "After", "Overlay"]
      }
    for (n, word) in words.enumerated() {
      let bandTop = top + 30 + Double(n) * band
      let tint = palette.ink(n == 2 ? 0.06 : 0.03)
      cr.setColour(tint)
      cr.rectangle(g.margin, bandTop, g.contentWidth, band - 4)
      cr.fill()
      let key = drawing.caption(word, size: 6.5, in: context)
      cr.setColour(palette.ink(0.6, over: tint))
      let baseline = bandTop + 6 + em * 1.0
      key.draw(at: g.margin + 6, baseline - key.baseline)
      let before = drawing.samplePlacement(sample.before, lines: lines, em: em, x: x, y: baseline)
      let after = drawing.samplePlacement(sample.after, lines: lines, em: em, x: x, y: baseline)
      cr.figure(alt: "\(family), \(place): \(subject)\(DiffDocument.shows(word))") {
        switch n {
        case 0: drawing.fill(before, colour: palette.text, on: cr)
        case 1: drawing.fill(after, colour: palette.text, on: cr)
        default:
          drawing.overlay(
            before, after, area: (x - 2, bandTop, width + 2, band - 4), hatch: 2.2, on: cr)
        }
      }
    }
    if same { return }
    let legendTop = top + 30 + 3 * band + 6
    let width2 = drawing.legend(at: g.margin, legendTop, swatch: 9, size: 7.5, on: cr)
    let result =
      sample.pixels > 0
      ? "\(FamilyComparison.grouped(sample.pixels)) px differ at 64 px/em"
      : "no pixel of the sample differs"
    let note = drawing.label(result, size: 7.5, in: context)
    cr.setColour(palette.ink(0.55))
    note.draw(at: g.margin + width2 + 8, legendTop + 4.5 - note.size.height / 2)
  }

  private func drawGlyphCell(
    _ change: GlyphChange, of family: String, x: Double, y: Double, width: Double,
    _ context: TextContext, _ cr: CairoContext
  ) {
    let panel = (width - 8) / 3
    let panelHeight = g.glyphPanelHeight
    let fit = drawing.fitGlyph(change, width: panel - 8, height: panelHeight - 8)
    let shown =
      "\(family), \(FamilyComparison.place(change.entry.face, change.entry.instance)): "
      + FamilyComparison.character(change.entry.codepoint)
    for (n, word) in ["Before", "After", "Overlay"].enumerated() {
      let px = x + Double(n) * (panel + 4)
      cr.setColour(palette.ink(n == 2 ? 0.06 : 0.03))
      cr.rectangle(px, y, panel, panelHeight)
      cr.fill()
      let ox = px + 4 + fit.x
      let oy = y + 4 + fit.y
      drawing.glyphGuides(
        change, em: fit.em, x: ox, y: oy, cell: (px, y, panel, panelHeight), on: cr)
      let before = drawing.glyphPlacement(change, after: false, em: fit.em, x: ox, y: oy)
      let after = drawing.glyphPlacement(change, after: true, em: fit.em, x: ox, y: oy)
      cr.figure(alt: shown + DiffDocument.shows(word)) {
        switch n {
        case 0: drawing.fill(before, colour: palette.text, on: cr)
        case 1: drawing.fill(after, colour: palette.text, on: cr)
        default:
          drawing.overlay(before, after, area: (px, y, panel, panelHeight), hatch: 2.2, on: cr)
          drawing.markMove(change, em: fit.em, x: ox, y: oy, on: cr)
        }
      }
    }
    let e = change.entry
    let name = drawing.label(
      FamilyComparison.character(e.codepoint), size: 8.5, bold: true, in: context)
    name.ellipsize(width: width)
    cr.setColour(palette.text)
    drawing.drawCharacterLabel(
      name, size: 8.5, bold: true, at: x, top: y + panelHeight + 4, in: context)
    var numbers: [String] = []
    if let moved = DiffDrawing.moveText(e) { numbers.append(moved) }
    if e.pixels > 0 { numbers.append("\(FamilyComparison.grouped(e.pixels)) px") }
    if e.advance[0] != e.advance[1] {
      numbers.append("advance \(e.advance[0]) → \(e.advance[1])")
    }
    numbers.append(FamilyComparison.place(e.face, e.instance))
    let detail = drawing.label(numbers.joined(separator: " · "), size: 7, in: context)
    detail.ellipsize(width: width)
    cr.setColour(palette.ink(0.6))
    detail.draw(at: x, y + panelHeight + 16)
  }
}

extension DiffDocument {
  /// What a band or panel titled `word` ("Before", "After", "Overlay", "Both") shows, said
  /// after its subject, for a figure's alternative text.
  static func shows(_ word: String) -> String {
    switch word {
    case "Before": " before the change"
    case "After": " after the change"
    case "Overlay":
      " before and after overlaid: what only the fonts before draw hatched in amber, what only "
        + "the fonts after draw in blue"
    default: ", the same before and after"
    }
  }
}

/// A review stopped by the user while its PDF was drawn.
struct DiffInterrupted: Error, CustomStringConvertible {
  var description: String { "interrupted" }
}
