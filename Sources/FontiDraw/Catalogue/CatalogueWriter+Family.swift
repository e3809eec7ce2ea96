import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// A family's pages: its header (or a continuation page's), its sample (or what it shows
/// instead), the texts, the waterfall, the style row and its partners.
extension PageDrawer {
  /// The size a name `width` wide at `size` is set at to fit `room`: `size` when it fits, else
  /// smaller in steps of 0.1 pt, down to 60 % of `size` (past that it is cut).
  static func fittedSize(_ size: Double, width: Double, room: Double) -> Double {
    guard width > room, width > 0 else { return size }
    return max(size * 0.6, (size * room / width * 10).rounded(.down) / 10)
  }

  /// The family's number on its pages, in as many digits as the last family's ("07" of 12),
  /// in the label face: smaller on a continuation page.
  func familyNumber(_ facts: FamilyFacts, continued: Bool) -> TextLayout {
    let digits = String(input.families.count).count
    let numberText =
      String(repeating: "0", count: max(0, digits - String(facts.index + 1).count))
      + String(facts.index + 1)
    return label(numberText, size: continued ? 8 : 10, bold: true)
  }

  /// A continuation page's small header: `text` ("Name, continued") beside the family's
  /// `number`.
  func drawContinuedHeader(_ text: String, number: TextLayout, _ f: CataloguePlan.Rect) {
    let name = label(text, size: 11, width: g.contentWidth)
    name.ellipsize(width: g.contentWidth)
    cr.setColour(ink(0.6))
    name.draw(at: g.contentX, f.y)
    cr.setColour(palette.accent)
    number.draw(at: g.margin, f.y + name.baseline - number.baseline)
  }

  func drawFamilyHeader(_ f: CataloguePlan.Rect, continued: Bool) {
    guard let facts = current else { return }
    let family = facts.family
    let number = familyNumber(facts, continued: continued)
    let nameText = Sanitize.terminal(family.name)
    if continued {
      drawContinuedHeader(nameText + ", continued", number: number, f)
      return
    }
    let size = CataloguePlan.nameSize
    func nameLayout(_ size: Double) -> TextLayout {
      guard facts.ownName, facts.problem == nil else { return label(nameText, size: size) }
      return TextLayout(
        nameText, font: FontSpec(family: family.name, size: size, face: facts.regular),
        in: context(for: family))
    }
    // A long name is set smaller to fit (down to 60 % of the size), and cut only past that:
    // "Noto Sans Canadian Aboriginal" whole on its own page, not "Noto Sans Canadian Abor…".
    var name = nameLayout(size)
    let nameWidth = g.contentWidth - 34
    let fitted = PageDrawer.fittedSize(size, width: name.size.width, room: nameWidth)
    if fitted < size { name = nameLayout(fitted) }
    name.ellipsize(
      width: nameWidth, mark: facts.ownName && facts.problem == nil ? mark : nil)
    let baseline = f.y + size
    cr.setColour(palette.text)
    cr.heading { name.draw(at: g.contentX, baseline - name.baseline) }
    cr.setColour(palette.accent)
    number.draw(at: g.margin, baseline - number.baseline)
    if family.isCustom {
      cr.circle(
        g.contentX + min(name.size.width, nameWidth) + 9, baseline - size * 0.3, radius: 3.5)
      cr.fill()
    }
    if savedNames.contains(family.name.lowercased()) {
      drawHeart(centreX: g.right - 8, top: baseline - size * 0.62, size: 16, filled: true)
    }

    var facts2: [String] = []
    // What of its colour is drawn in one colour: said first on the page (a long list of faces
    // cannot push it off) and warned of, once a family.
    let colourNote = family.colour?.notDrawnNote
    if let colourNote {
      facts2.append(colourNote)
      warn("family '\(family.name)': \(colourNote)")
    }
    if family.isCustom { facts2.append("custom font") }
    if facts.pictographic { facts2.append("draws symbols, not letters") }
    if let problem = facts.problem { facts2.append("cannot be drawn: \(problem)") }
    if let proofs = proofData, proofs.findsNothing { facts2.append(proofs.nothingFound) }
    // The faces of the family as listed (a variable cut drawn at the job's coordinates has
    // fewer), as many names as fit, and how many more.
    facts2.insert(
      facesFact(input.families[facts.index], rest: facts2, width: g.contentWidth), at: 0)
    if let colourNote, let at = facts2.lastIndex(of: colourNote) {
      facts2.insert(facts2.remove(at: at), at: 0)
    }
    let meta = label(facts2.joined(separator: "  ·  "), size: 8, width: g.contentWidth)
    meta.ellipsize(width: g.contentWidth)
    cr.setColour(ink(0.6))
    meta.draw(at: g.contentX, baseline + 10)
  }

  func drawSample(_ size: Double, _ f: CataloguePlan.Rect, gridInPlaceOfText: Bool = false) {
    guard let facts = current else { return }
    let family = facts.family
    if let problem = facts.problem {
      let note = label(
        "This family cannot be shown: \(problem).", size: 10, width: g.contentWidth)
      cr.setColour(ink(0.6))
      note.draw(at: g.contentX, f.y)
      return
    }
    let ctx = context(for: family)
    guard let fallback = facts.fallback else {
      let (layout, fitted) = fit(
        input.text, FontSpec(family: family.name, size: size, face: facts.regular), ctx,
        width: g.contentWidth, height: f.height, minimum: min(size, 8), mark: mark,
        settings: settings, leading: SpecimenRenderer.sampleLeading)
      count(layout.unknownGlyphs, family)
      cr.setColour(palette.text)
      layout.draw(at: g.contentX, f.y)
      drawMarginLabel(["Sample"] + sizeLabel(asked: size, shown: fitted), top: f.y)
      return
    }

    // The user's text, small and honest about its boxes, then the family's own sample; a
    // family with none of the text's characters shows its glyphs alone, saying so, rather
    // than a line of boxes.
    let small = min(size, 16)
    let topHeight = min(f.height * 0.38, 4 * small * 1.35)
    let (yours, _) = fit(
      input.text, FontSpec(family: family.name, size: small, face: facts.regular), ctx,
      width: g.contentWidth, height: topHeight, minimum: min(small, 8), mark: mark,
      settings: settings, leading: SpecimenRenderer.sampleLeading)
    count(yours.unknownGlyphs, family)
    // As the plan decided it, which sized the frame for it.
    if gridInPlaceOfText, case .glyphGrid(let glyphs) = fallback {
      drawMarginLabel(
        [facts.pictographic ? "Its symbols" : "Its glyphs", "none of your text"], top: f.y)
      drawGrid(
        glyphs, family: family, face: facts.regular, context: ctx, top: f.y, height: f.height)
      return
    }
    cr.setColour(ink(0.8))
    yours.draw(at: g.contentX, f.y)
    drawMarginLabel(["Your text"], top: f.y)

    let top = f.y + min(topHeight, yours.size.height) + 18
    let heading: [String]
    switch fallback {
    case .capitals:
      heading = ["In capitals"]
    case .language(_, let name, _):
      // The language on a line of its own: "Own script: Mongolian" is wider than the column.
      heading = ["Own script", name]
    case .glyphGrid:
      heading = [facts.pictographic ? "Its symbols" : "Its glyphs"]
    }
    drawMarginLabel(heading, top: top)
    let rest = f.y + f.height - top
    switch fallback {
    case .capitals(let text):
      // The user's text, so the job's settings (its language too).
      let (layout, _) = fit(
        text, FontSpec(family: family.name, size: size, face: facts.regular), ctx,
        width: g.contentWidth, height: rest, minimum: min(size, 8), mark: mark,
        settings: settings, leading: SpecimenRenderer.sampleLeading)
      count(layout.unknownGlyphs, family)
      cr.setColour(palette.text)
      layout.draw(at: g.contentX, top)
    case .language(let code, _, let own):
      let (layout, _) = fit(
        own, FontSpec(family: family.name, size: size, face: facts.regular), ctx,
        width: g.contentWidth, height: rest, minimum: min(size, 8), language: code,
        mark: mark, settings: ownScriptSettings)
      cr.setColour(palette.text)
      layout.draw(at: g.contentX, top)
    case .glyphGrid(let glyphs):
      drawGrid(glyphs, family: family, face: facts.regular, context: ctx, top: top, height: rest)
    }
  }

  /// One of `texts:` at `size`, or smaller when one of its words is wider than the measure; cut
  /// between lines when it is taller than its frame. Its size is named in the label column
  /// when it is the first text or differs from the text before it.
  func drawText(_ index: Int, _ size: Double, _ f: CataloguePlan.Rect) {
    guard let facts = current, facts.problem == nil, index < input.texts.count else { return }
    let family = facts.family
    let (layout, used) = TextLayout.fittingWords(
      input.texts[index], font: FontSpec(family: family.name, size: size, face: facts.regular),
      in: context(for: family), width: g.contentWidth, minimum: min(size, 6), settings: settings)
    if layout.size.height > f.height + 1 {
      layout.limitHeight(max(f.height, used * 1.2), mark: mark)
    }
    count(layout.unknownGlyphs, family)
    cr.setColour(palette.text)
    layout.draw(at: g.contentX, f.y)
    let sizeText = sizeLabel(asked: size, shown: used)
    if index == 0 {
      drawMarginLabel(["Texts"] + sizeText, top: f.y)
    } else if format(used) != format(previousTextSize ?? size) {
      drawMarginLabel(sizeText, top: f.y, muted: true)
    }
    previousTextSize = used
  }

  func drawWaterfall(_ size: Double, baseline offset: Double, _ f: CataloguePlan.Rect) {
    guard let facts = current, facts.problem == nil else { return }
    let family = facts.family
    let layout = TextLayout(
      sample: facts.lineText, font: FontSpec(family: family.name, size: size, face: facts.regular),
      settings: facts.lineLanguage == nil ? settings : ownScriptSettings,
      in: context(for: family), language: facts.lineLanguage)
    if facts.glyphRow {
      layout.truncate(width: g.contentWidth)
    } else {
      layout.ellipsize(width: g.contentWidth, mark: mark)
    }
    let baseline = f.y + offset
    cr.setColour(palette.text)
    layout.draw(at: g.contentX, baseline - layout.baseline)
    let sizeLabel = label("\(format(size)) pt", size: 7)
    cr.setColour(ink(0.55))
    sizeLabel.draw(at: g.margin, baseline - sizeLabel.baseline)
  }

  /// The style row: each face asked for in `styles:` on a four-column grid, its real name
  /// set in the face itself (or, for a family that cannot set Latin, its own text); a face the
  /// family lacks is named as absent, never imitated.
  /// How much smaller a styles-row sample is set, from how far its ink reaches above and below
  /// its baseline at `CataloguePlan.styleSize`: 1 while it stays between the style's title
  /// (19.5 pt above the baseline) and 8 pt below it, the row's foot; never below half.
  static func styleSampleScale(above: Double, below: Double) -> Double {
    guard above.isFinite, below.isFinite else { return 1 }
    return max(0.5, min(1, 19.5 / max(above, 1e-9), 8 / max(below, 1e-9)))
  }

  func drawStyles(_ cells: [CataloguePlan.StyleCell], row: Int, _ f: CataloguePlan.Rect) {
    guard let facts = current, facts.problem == nil else { return }
    let family = facts.family
    let columns = 4.0
    let cellWidth = (g.contentWidth - (columns - 1) * g.gutter) / columns
    let baseline = f.y + 13 + CataloguePlan.styleSize
    if row == 0 { drawMarginLabel(["Styles"], top: f.y) }
    for (k, cell) in cells.enumerated() {
      let x = g.contentX + Double(k % 4) * (cellWidth + g.gutter)
      let wanted = PageDrawer.styleTitle(cell.asked)
      let title = caption(wanted, size: 5.5)
      title.ellipsize(width: cellWidth)
      if let face = cell.face, face.isRenderable {
        let faceName = Sanitize.terminal(face.style)
        cr.setColour(ink(0.55))
        title.draw(at: x, f.y)
        // A row of glyphs is cut to what the cell holds; words of a sample, two of them.
        let text =
          facts.ownName
          ? faceName
          : facts.glyphRow
            ? facts.lineText : facts.lineText.split(separator: " ").prefix(2).joined(separator: " ")
        func layout(_ size: Double) -> TextLayout {
          let sample = TextLayout(
            text, font: FontSpec(family: family.name, size: size, face: face),
            in: context(for: family, face: face),
            language: facts.ownName ? nil : facts.lineLanguage)
          if facts.glyphRow && !facts.ownName {
            sample.truncate(width: cellWidth)
          } else {
            sample.ellipsize(width: cellWidth, mark: mark)
          }
          return sample
        }
        var sample = layout(CataloguePlan.styleSize)
        // Ink that would climb into the style's title or hang out of the row (STIX's integrals,
        // a tall swash) is set smaller to fit, on the same baseline.
        let ink = sample.inkRect
        let scale = PageDrawer.styleSampleScale(
          above: sample.baseline - ink.y, below: ink.y + ink.height - sample.baseline)
        if scale < 1 { sample = layout(CataloguePlan.styleSize * scale) }
        cr.setColour(palette.text)
        sample.draw(at: x, baseline - sample.baseline)
      } else {
        cr.setColour(ink(0.3))
        title.draw(at: x, f.y)
        let why = cell.face.flatMap(FamilyFace.problem).map { "cannot be drawn: \($0)" }
        let note = label(why ?? "not in this family", size: 8, italic: true, width: cellWidth)
        note.ellipsize(width: cellWidth)
        cr.setColour(ink(0.45))
        note.draw(at: x, baseline - note.baseline)
      }
    }
  }

  func drawPartners(_ f: CataloguePlan.Rect) {
    guard let facts = current else { return }
    let partners = input.partners(of: facts.family)
    drawMarginLabel(["Pairs well", "with"], top: f.y)
    var x = g.contentX
    let baseline = f.y + 14
    for (n, partner) in partners.prefix(6).enumerated() {
      let layout = nameLayout(partner, size: 14)
      let w = layout.size.width
      if x + w > g.right { break }
      let draw = {
        self.cr.setColour(self.palette.text)
        layout.draw(at: x, baseline - layout.baseline)
      }
      if let target = familyIndex[partner.name.lowercased()] {
        cr.link(
          to: CataloguePlan.Destination.family(target).name,
          rect: (x, baseline - 14, w, 18), draw)
      } else {
        draw()
      }
      x += w
      if n < min(partners.count, 6) - 1 {
        cr.setColour(palette.accent)
        cr.circle(x + 9, baseline - 4.5, radius: 1.6)
        cr.fill()
        x += 18
      }
    }
  }

  /// A family's glyphs in a grid across the column from `top`, ten columns or more when that
  /// gives larger cells, in cells as large as `height` allows.
  private func drawGrid(
    _ glyphs: [String], family: FontFamily, face: FontFace?, context: TextContext, top: Double,
    height: Double
  ) {
    guard !glyphs.isEmpty, height > 10 else { return }
    let (columns, cell) = GlyphCell.fitted(glyphs.count, width: g.contentWidth, height: height)
    GlyphCell.drawGrid(
      glyphs, columns: columns, cell: cell, at: g.contentX, top, family: family.name, face: face,
      context: context, line: 0.5, outline: (ink(0.12), alpha: 1), colour: palette.text, on: cr)
  }
}

extension PageDrawer {
  /// The margin's words for a text set at `shown` points where `asked` were asked for: the size
  /// asked for ("48 pt"), and, when the text was made smaller to fit, the size it is shown at
  /// ("shown at 41.5 pt to fit"). Never a size nobody asked for as if it were the job's.
  func sizeLabel(asked: Double, shown: Double) -> [String] {
    let askedText = "\(format(asked)) pt"
    guard format(shown) != format(asked) else { return [askedText] }
    return [askedText, "shown at \(format(shown)) pt to fit"]
  }
}
