import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// The cover and the sections that are no family's: the contents, the Pairings and the
/// Saved section, drawn block by block as the plan placed them.
extension PageDrawer {
  // MARK: Cover, sections, contents

  func drawCover(_ f: CataloguePlan.Rect) {
    let x = g.contentX
    let w = g.contentWidth
    var y = f.y + f.height * 0.14
    let kicker = caption("Type specimen catalogue", size: 8)
    cr.setColour(palette.accent)
    kicker.draw(at: x, y)
    y += kicker.size.height + 14

    let title = label(input.title, size: 40, bold: true, width: w)
    title.setLineSpacing(1.05)
    title.limitHeight(f.height * 0.3)
    cr.setColour(palette.accent)
    cr.rectangle(g.margin, y + title.baseline - 16, 30, 4)
    cr.fill()
    cr.setColour(palette.text)
    cr.heading { title.draw(at: x, y) }
    y += title.size.height + 12
    if let author = input.author, !author.isEmpty {
      let by = label(author, size: 16, width: w)
      by.limitHeight(60)
      cr.setColour(ink(0.75))
      by.draw(at: x, y)
      y += by.size.height
    }

    // A strip of "Aa" in the first families that set Latin as themselves.
    let wallTop = max(y + 60, f.y + f.height * 0.5)
    var shown = 0
    let cells = 6
    let cell = w / Double(cells)
    for family in input.families.prefix(60) where shown < cells {
      guard let spec = latinSpec(family, size: 34) else { continue }
      let aa = TextLayout("Aa", font: spec, in: context(for: family))
      cr.setColour(palette.text)
      let cx = x + Double(shown) * cell
      aa.draw(at: cx, wallTop + 40 - aa.baseline)
      let name = label(Sanitize.terminal(family.name), size: 6.5, width: cell - 8)
      name.ellipsize(width: cell - 8)
      cr.setColour(ink(0.55))
      name.draw(at: cx, wallTop + 52)
      shown += 1
    }
    if shown > 0 { drawRule(y: wallTop - 8, from: x, to: g.right, alpha: 0.16) }

    // Facts, bottom-aligned: the family count, date and tool.
    let facts: [(String, String)] = [
      ("Families", "\(input.families.count)"),
      ("Date", PDFFile.displayDate(input.date)),
      ("Made with", FontiVersion.tool),
    ]
    var rowY = f.y + f.height - Double(facts.count) * 20
    drawRule(y: rowY - 12, from: g.margin, to: g.right, alpha: 0.22)
    for (name, value) in facts {
      let key = caption(name, size: 6.5)
      let text = label(value, size: 10.5, width: w)
      text.ellipsize(width: w)
      cr.setColour(ink(0.55))
      key.draw(at: g.margin, rowY + text.baseline - key.baseline)
      cr.setColour(palette.text)
      text.draw(at: x, rowY)
      rowY += 20
    }
  }

  func drawSectionTitle(_ title: String, _ f: CataloguePlan.Rect) {
    let layout = label(title, size: 26, bold: true)
    cr.setColour(palette.accent)
    cr.rectangle(g.margin, f.y + layout.baseline - 10, 30, 4)
    cr.fill()
    cr.setColour(palette.text)
    cr.heading { layout.draw(at: g.contentX, f.y) }
    let subtitle: String
    switch title {
    case "Contents":
      let n = input.families.count
      let families = "\(n) \(n == 1 ? "family" : "families")"
      // Proofs and glyph charts give a family more pages than one.
      let pages = (plan.pairingsPage ?? plan.savedPage) - (plan.familyPages.first ?? 0)
      subtitle =
        n == 0 || pages == n ? "\(families), one page each" : "\(families) on \(pages) pages"
    case "Pairings":
      let n = input.pairings.count
      subtitle = "Heading and body: \(n) \(n == 1 ? "pairing" : "pairings")"
    default:
      let n = input.saved.count
      subtitle = n == 0 ? "Hearted families" : "\(n) hearted, most recent first"
    }
    let sub = label(subtitle, size: 9, width: g.contentWidth)
    cr.setColour(ink(0.6))
    sub.draw(at: g.contentX, f.y + layout.size.height + 2)
  }

  func drawContentsEntry(
    _ title: String, _ destination: CataloguePlan.Destination, _ page: Int,
    _ f: CataloguePlan.Rect
  ) {
    let number = label("\(page)", size: 8.5, width: 30, alignment: .right)
    let isSection: Bool
    if case .family = destination { isSection = false } else { isSection = true }
    let name = label(title, size: 9.5, bold: isSection)
    name.ellipsize(width: f.width - 40)
    let baseline = f.y + 11
    cr.link(to: destination.name, rect: (f.x, f.y, f.width, f.height)) {
      cr.setColour(palette.text)
      name.draw(at: f.x, baseline - name.baseline)
      cr.setColour(ink(0.7))
      number.draw(at: f.x + f.width - 30, baseline - number.baseline)
    }
    // Dot leaders between the name and its page number.
    let start = f.x + min(name.size.width, f.width - 40) + 6
    let end = f.x + f.width - number.size.width - 6
    cr.setColour(ink(0.3))
    var dot = (start / 4).rounded(.up) * 4
    while dot < end {
      cr.circle(dot, baseline - 1, radius: 0.45)
      dot += 4
    }
    cr.fill()
  }

  // MARK: Pairings and Saved

  func drawPairing(_ index: Int, _ f: CataloguePlan.Rect) {
    guard index < input.pairings.count else { return }
    let pairing = input.pairings[index]
    let number = label(index < 9 ? "0\(index + 1)" : "\(index + 1)", size: 10, bold: true)
    cr.setColour(palette.accent)
    number.draw(at: g.margin, f.y)

    let names = label(
      "Heading  \(Sanitize.terminal(pairing.heading.name))     Body  "
        + Sanitize.terminal(pairing.body.name), size: 8, width: g.contentWidth)
    names.ellipsize(width: g.contentWidth)
    cr.setColour(ink(0.6))
    names.draw(at: g.contentX, f.y + number.baseline - names.baseline)
    var y = f.y + 16
    let bottom = f.y + f.height

    guard loadsAsItself(pairing.heading), loadsAsItself(pairing.body) else {
      let note = label(
        "One of these families could not be loaded; the pairing is not shown.", size: 9,
        italic: true, width: g.contentWidth)
      cr.setColour(ink(0.6))
      note.draw(at: g.contentX, y)
      warn(
        "pairing '\(pairing.heading.name)' + '\(pairing.body.name)' could not be drawn: a family "
          + "could not be loaded")
      return
    }
    // The heading in its family's boldest real upright face up to bold, as on pairing sheets:
    // the page shows the pairing the sheet does.
    let headingText = PairingSheetText.text(
      input.text, for: pairing.heading, language: input.sample?.language)
    let headingFace =
      pairing.heading.face(bold: true, italic: false) ?? pairing.heading.regularFace
    let (heading, headingSize) = TextLayout.fittingWords(
      headingText.text,
      font: FontSpec(
        family: pairing.heading.name, size: CataloguePlan.pairingHeadingSize, face: headingFace),
      in: context(for: pairing.heading, face: headingFace), width: g.contentWidth, minimum: 10,
      language: headingText.language)
    // The sample is led by its size and its first baseline set one size under the names, so
    // that TeX Gyre Heros and Nimbus Sans (one design, other line heights) sit alike; an
    // own-script sample or a row of glyphs keeps its font's spacing and its top.
    var headingTop = y
    if headingText.text == input.text {
      heading.setLeading(1.15)
      let inkAbove = heading.baseline - heading.inkRect.y
      headingTop = y + max(headingSize, inkAbove) - heading.baseline
    }
    heading.limitHeight(min(bottom - headingTop, headingSize * 1.2 * 3), mark: mark)
    cr.setColour(palette.text)
    heading.draw(at: g.contentX, headingTop)
    y = headingTop + heading.size.height + 10

    let bodyText = PairingSheetText.text(CataloguePlan.pairingParagraph, for: pairing.body)
    let (body, bodySize) = TextLayout.fittingWords(
      bodyText.text,
      font: FontSpec(
        family: pairing.body.name, size: CataloguePlan.pairingBodySize,
        face: pairing.body.regularFace),
      in: context(for: pairing.body), width: g.contentWidth, minimum: 6,
      language: bodyText.language)
    // Led by the type size, as on pairing sheets: Pango's factor multiplies each font's own
    // line height, which sets one body looser than another. Text in the family's own script
    // or a row of its glyphs keeps its font's spacing (tall scripts and emoji need it).
    if bodyText.text == CataloguePlan.pairingParagraph {
      body.setLeading(1.45)
    } else {
      body.setLineSpacing(1.3)
    }
    let reasonText = Sanitize.terminal(pairing.reason)
    let reason =
      reasonText.isEmpty
      ? nil : label(reasonText, size: 9, italic: true, width: g.contentWidth)
    let reasonHeight = reason.map { $0.size.height + 8 } ?? 0
    if body.size.height > bottom - y - reasonHeight {
      body.limitHeight(
        max(bodySize * 1.4, bottom - y - reasonHeight), mark: mark)
    }
    cr.setColour(ink(0.9))
    body.draw(at: g.contentX, y)
    y += body.size.height + 8
    if let reason {
      if reason.size.height > bottom - y { reason.limitHeight(max(12, bottom - y)) }
      cr.setColour(ink(0.6))
      reason.draw(at: g.contentX, y)
    }
  }

  func drawSavedCards(_ indices: [Int], _ f: CataloguePlan.Rect) {
    let cardWidth = (g.contentWidth - g.gutter) / 2
    for (k, index) in indices.enumerated() where index < input.saved.count {
      let family = input.saved[index]
      let x = g.contentX + Double(k) * (cardWidth + g.gutter)
      let draw = { self.drawCard(family, x: x, y: f.y, width: cardWidth, height: f.height) }
      if let target = familyIndex[family.name.lowercased()] {
        cr.link(
          to: CataloguePlan.Destination.family(target).name,
          rect: (x, f.y, cardWidth, f.height), draw)
      } else {
        draw()
      }
    }
  }

  private func drawCard(_ family: FontFamily, x: Double, y: Double, width: Double, height: Double) {
    let card = ink(0.035)
    cr.roundedRectanglePath(x, y, width, height, radius: 6)
    cr.setColour(card)
    cr.fill()
    cr.roundedRectanglePath(x + 0.3, y + 0.3, width - 0.6, height - 0.6, radius: 6)
    cr.setColour(ink(0.2, over: card))
    cr.stroke(width: 0.6)
    drawHeart(centreX: x + width - 16, top: y + 11, size: 11, filled: true)

    let name = nameLayout(family, size: 10)
    name.ellipsize(width: width - 44, mark: canSetOwnName(family) ? mark : nil)
    cr.setColour(ink(0.8, over: card))
    name.draw(at: x + 12, y + 20 - name.baseline)

    // "Aa Bb" when the family sets Latin as itself; else a few of its own characters.
    let text: String
    let spec: FontSpec
    var language: String?
    var glyphs = false
    if let latin = latinSpec(family, size: 40) {
      text = "Aa Bb"
      spec = latin
    } else if loadsAsItself(family), let regular = family.regularFace {
      let choice = FallbackSample.choose(
        for: family, preferGrid: family.coverage.missing(in: "AaBb").isEmpty)
      language = choice.language
      switch choice {
      case .glyphGrid(let grid):
        text = FallbackSample.row(grid, count: 4)
        glyphs = true
      case .capitals(let own), .language(_, _, let own):
        text = own.split(separator: " ").prefix(2).joined(separator: " ")
      }
      spec = FontSpec(family: family.name, size: 40, face: regular)
    } else {
      return
    }
    guard !text.isEmpty else { return }
    let sample = TextLayout(text, font: spec, in: context(for: family), language: language)
    if glyphs {
      sample.truncate(width: width - 24)
    } else {
      sample.ellipsize(width: width - 24, mark: mark)
    }
    cr.setColour(palette.text)
    sample.draw(at: x + 12, y + height - 18 - sample.baseline)
  }

  func drawSavedEmpty(_ f: CataloguePlan.Rect) {
    let centre = g.contentX + g.contentWidth / 2
    drawHeart(centreX: centre, top: f.y + 30, size: 30, filled: false)
    let text = label(
      CataloguePlan.emptySavedText, size: 13, width: g.contentWidth, alignment: .centre)
    cr.setColour(ink(0.65))
    text.draw(at: g.contentX, f.y + 76)
  }
}
