import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// Draws the blocks of proof pages and glyph charts (see `CataloguePlan+Proofs`).
///
/// The family's own text (sweeps, instances, feature samples, chart cells) is set with font
/// fallback off and without the job's sample settings: a proof shows the font as it is. Every
/// label, number and note is in the neutral label face; the glyphs of characters a family lacks
/// for a language are drawn in that face too, in the accent colour, and said to be so.
extension PageDrawer {
  func drawProof(_ content: CataloguePlan.Content, _ f: CataloguePlan.Rect) {
    switch content {
    case .proofHeader(_, let continued): drawProofHeader(f, continued: continued)
    case .proofTitle(_, let title, let note): drawProofTitle(title, note: note, f)
    case .axisStep(_, let axis, let value, let isDefault):
      drawAxisStep(axis, value, isDefault: isDefault, f)
    case .instances(_, let indices): drawInstances(indices, f)
    case .featurePair(_, let tag): drawFeaturePair(tag, f)
    case .invisibleFeature(_, let tag, let reason): drawInvisibleFeature(tag, reason, f)
    case .languageGroup(_, let script, let codes): drawLanguageGroup(script, codes, f)
    case .nearlyTitle(_, let count):
      let face = writer.labelFamily.map { Sanitize.terminal($0.name) } ?? "the label face"
      let isLabelFace = writer.labelFamily?.name == current?.family.name
      drawProofTitle(
        "Nearly supported · \(count)",
        note: "1–\(LanguageCoverage.nearlyLimit) characters missing, as code points"
          + (isLabelFace
            ? " (this family is the label face: it has none of them to show)"
            : " and as drawn in \(face), not in this family"),
        f)
    case .nearlyLanguage(_, let code, let missing): drawNearly(code, missing, f)
    case .proofNote(_, let text):
      let note = label(text, size: 9, italic: true, width: g.contentWidth)
      note.limitHeight(max(12, f.height))
      cr.setColour(ink(0.7))
      note.draw(at: g.contentX, f.y)
    case .glyphHeader(_, let page, let pages): drawGlyphHeader(page, pages, f)
    case .glyphChart(let i, let page): drawGlyphChart(i, page)
    default: break
    }
  }

  /// The proofs of the family being drawn, if any.
  var proofData: CatalogueProofData? {
    guard let i = current?.index, i < proofs.count else { return nil }
    return proofs[i]
  }

  // MARK: Header and titles

  private func drawProofHeader(_ f: CataloguePlan.Rect, continued: Bool) {
    guard let facts = current else { return }
    let nameText = Sanitize.terminal(facts.family.name)
    let number = familyNumber(facts, continued: continued)
    if continued {
      drawContinuedHeader(nameText + ", proofs continued", number: number, f)
      return
    }
    let size = 20.0
    let name = label(nameText + " — proofs", size: size, width: g.contentWidth)
    name.ellipsize(width: g.contentWidth)
    let baseline = f.y + size + 4
    cr.setColour(palette.text)
    name.draw(at: g.contentX, baseline - name.baseline)
    cr.setColour(palette.accent)
    number.draw(at: g.margin, baseline - number.baseline)

    guard let data = proofData else { return }
    var parts: [String] = []
    let axes = data.sweptAxes
    if data.showsAxes {
      parts.append(
        axes.isEmpty
          ? "static (no variation axes)"
          : "\(axes.count) \(axes.count == 1 ? "axis" : "axes"), "
            + "\(data.instances.count) named instance\(data.instances.count == 1 ? "" : "s")")
    }
    if data.showsFeatures {
      let all = data.proofs?.proofs.features?.count ?? 0
      parts.append(
        "\(all) feature\(all == 1 ? "" : "s"), \(data.visibleFeatures.count) shown off / on")
    }
    if let languages = data.languages {
      let count = languages.supported.count
      parts.append("\(count) language\(count == 1 ? "" : "s"), \(languages.nearly.count) nearly")
    }
    let meta = label(parts.joined(separator: "  ·  "), size: 8, width: g.contentWidth)
    meta.ellipsize(width: g.contentWidth)
    cr.setColour(ink(0.6))
    meta.draw(at: g.contentX, baseline + 8)
  }

  private func drawProofTitle(_ title: String, note: String?, _ f: CataloguePlan.Rect) {
    drawRule(y: f.y, from: g.contentX, to: g.right, alpha: 0.16)
    let heading = label(title, size: 10.5, bold: true, width: g.contentWidth)
    heading.ellipsize(width: g.contentWidth)
    cr.setColour(palette.text)
    heading.draw(at: g.contentX, f.y + 4)
    guard let note else { return }
    let small = label(note, size: 7, width: g.contentWidth)
    small.ellipsize(width: g.contentWidth)
    cr.setColour(ink(0.55))
    small.draw(at: g.contentX, f.y + 4 + heading.size.height + 1)
  }

  // MARK: Axes and instances

  /// The short text of sweeps and instances: "Hamburgefonstiv" when the family sets it as
  /// itself, else a few words (or glyphs) of its own script.
  private var proofWord: (text: String, language: String?) {
    guard let facts = current else { return ("Hamburgefonstiv", nil) }
    if !facts.pictographic, facts.fallback == nil,
      facts.family.coverage.missing(in: "Hamburgefonstiv").isEmpty
    {
      return ("Hamburgefonstiv", nil)
    }
    switch facts.fallback {
    case .capitals(let text)?:
      return (text.split(separator: " ").prefix(2).joined(separator: " "), nil)
    case .language(let code, _, let text)?:
      return (text.split(separator: " ").prefix(2).joined(separator: " "), code)
    case .glyphGrid(let glyphs)?: return (FallbackSample.row(glyphs, count: 8), nil)
    case nil:
      let words = input.text.split(separator: " ")
      return (String(words.max { $0.count < $1.count } ?? "Aa"), nil)
    }
  }

  private func drawAxisStep(
    _ axis: String, _ value: Double, isDefault: Bool, _ f: CataloguePlan.Rect
  ) {
    guard let facts = current, facts.problem == nil else { return }
    let baseline = f.y + CataloguePlan.sweepSize
    let valueText = ProofNumber.format(value) + (isDefault ? "  ◆" : "")
    let number = label(valueText, size: 8, bold: isDefault)
    cr.setColour(isDefault ? palette.accent : ink(0.6))
    number.draw(at: g.margin, baseline - number.baseline)
    // Swept in the variable file the axes were read from, never in a static face beside it.
    let family =
      facts.family.axesFile.flatMap { facts.family.variableCut(files: [$0]) } ?? facts.family
    var spec = FontSpec(
      family: family.name, size: CataloguePlan.sweepSize, face: family.regularFace)
    spec.variations = [VariationSetting(tag: axis, value: value)]
    let word = proofWord
    let text = TextLayout(word.text, font: spec, in: context(for: family), language: word.language)
    text.ellipsize(width: g.contentWidth, mark: mark)
    cr.setColour(palette.text)
    text.draw(at: g.contentX, baseline - text.baseline)
  }

  private func drawInstances(_ indices: [Int], _ f: CataloguePlan.Rect) {
    guard let facts = current, facts.problem == nil, let data = proofData else { return }
    let instances = data.instances
    let axes = data.proofs?.proofs.axes ?? []
    let columns = Double(CataloguePlan.instanceColumns)
    let cellWidth = (g.contentWidth - (columns - 1) * g.gutter) / columns
    // A shorter word than the sweep's: three instances share a line.
    let word: (text: String, language: String?) =
      proofWord.text == "Hamburgefonstiv" ? ("Hamburg", nil) : proofWord
    // Drawn from the variable file the instances were read from, at their coordinates.
    let family =
      facts.family.axesFile.flatMap { facts.family.variableCut(files: [$0]) } ?? facts.family
    for (k, index) in indices.enumerated() where index < instances.count {
      let instance = instances[index]
      let x = g.contentX + Double(k) * (cellWidth + g.gutter)
      let name = label(Sanitize.terminal(instance.name), size: 7.5, bold: true, width: cellWidth)
      name.ellipsize(width: cellWidth)
      cr.setColour(ink(0.8))
      name.draw(at: x, f.y)
      let coordinates = axes.compactMap { axis in
        instance.coordinates[axis.tag].map { "\(axis.tag) \(ProofNumber.format($0))" }
      }
      let small = label(coordinates.joined(separator: " · "), size: 6, width: cellWidth)
      small.ellipsize(width: cellWidth)
      cr.setColour(ink(0.55))
      small.draw(at: x, f.y + 10)
      var spec = FontSpec(
        family: family.name, size: CataloguePlan.instanceSize, face: family.regularFace)
      spec.variations = axes.compactMap { axis in
        instance.coordinates[axis.tag].map { VariationSetting(tag: axis.tag, value: $0) }
      }
      let text = TextLayout(
        word.text, font: spec, in: context(for: family), language: word.language)
      text.ellipsize(width: cellWidth, mark: mark)
      cr.setColour(palette.text)
      text.draw(at: x, f.y + 20 + CataloguePlan.instanceSize - text.baseline)
    }
  }

  // MARK: Features

  /// The family's face a feature sample was found in (by file and face index).
  private func face(of sample: FeatureSample, in family: FontFamily) -> FontFace? {
    family.faces.first { $0.file == sample.file && $0.index == sample.index }
      ?? family.faces.first { $0.file == sample.file && $0.index & 0xFFFF == sample.index & 0xFFFF }
  }

  private func drawFeaturePair(_ tag: String, _ f: CataloguePlan.Rect) {
    guard let facts = current, facts.problem == nil, let data = proofData,
      let sample = data.proofs?.sample(for: tag)
    else { return }
    let family = facts.family
    let feature = data.proofs?.proofs.features?.first { $0.tag == tag }
    var heading = "\(Sanitize.terminal(tag))  \(Sanitize.terminal(feature?.name ?? ""))"
    var notes: [String] = []
    if let system = sample.scriptSystem {
      notes.append("in its ‘\(Sanitize.terminal(system))’ script system")
    } else if let language = sample.language {
      notes.append("in \(Sanitize.terminal(Languages.name(of: language.lowercased())))")
    }
    let face = face(of: sample, in: family) ?? facts.regular
    if let face, face != facts.regular { notes.append("in \(Sanitize.terminal(face.style))") }
    if !notes.isEmpty { heading += "  (" + notes.joined(separator: ", ") + ")" }
    let title = label(heading, size: 7.5, width: g.contentWidth)
    title.ellipsize(width: g.contentWidth)
    cr.setColour(ink(0.75))
    title.draw(at: g.contentX, f.y)
    drawMarginLabel([tag], top: f.y + 14)

    let columnWidth = (g.contentWidth - 2 * g.gutter) / 2
    let spec = FontSpec(family: family.name, size: CataloguePlan.featureSize, face: face)
    // As tall as the sample's ink needs (the plan gave the row that room).
    let room = CataloguePlan.featureRoom(data.featureInk[tag], g)
    let baseline = f.y + 14 + CataloguePlan.featureSize + room.above
    for (k, setting) in [sample.off, sample.on].enumerated() {
      // Whole points: the two columns are drawn on the same pixel grid, so that a test (or an
      // eye) comparing them sees the feature, not a sub-pixel shift.
      let x = (g.contentX + Double(k) * (columnWidth + 2 * g.gutter)).rounded()
      // Off for the whole text; on for the part the feature is meant for (`ranges`).
      let text = TextLayout(
        sample.text, font: spec, in: context(for: family, face: face), language: sample.language,
        features: [setting], featureRanges: k == 1 ? sample.ranges : nil)
      text.ellipsize(width: columnWidth, mark: mark)
      cr.setColour(palette.text)
      text.draw(at: x, baseline - text.baseline)
      let state = caption(k == 0 ? "off" : "on", size: 5.5)
      cr.setColour(k == 0 ? ink(0.45) : palette.accent)
      state.draw(at: x, baseline + 8 + room.below)
    }
  }

  /// A feature with no visible effect on one line: tag, name, why (when its rules say) and
  /// the texts tried.
  private func drawInvisibleFeature(_ tag: String, _ reason: String?, _ f: CataloguePlan.Rect) {
    guard let data = proofData else { return }
    let feature = data.proofs?.proofs.features?.first { $0.tag == tag }
    let tagLayout = label(Sanitize.terminal(tag), size: 7.5, bold: true)
    cr.setColour(ink(0.8))
    tagLayout.draw(at: g.contentX, f.y)
    let nameWidth = g.contentWidth * 0.42 - 34
    let name = label(Sanitize.terminal(feature?.name ?? ""), size: 7.5, width: nameWidth)
    name.ellipsize(width: nameWidth)
    name.draw(at: g.contentX + 34, f.y)
    let texts = data.tried(tag)
    let x = g.contentX + g.contentWidth * 0.42
    let why = reason.map { $0 + (texts.isEmpty ? "" : " · ") } ?? ""
    let head = label(
      why + (texts.isEmpty ? (reason == nil ? "no text tried" : "") : "tried: "), size: 6.5)
    cr.setColour(ink(0.5))
    let baseline = f.y + tagLayout.baseline
    head.draw(at: x, baseline - head.baseline)
    guard !texts.isEmpty, let facts = current, facts.problem == nil else { return }
    let room = g.right - x - head.size.width
    let tried = triedTexts(texts, of: facts.family, face: facts.regular, width: room)
    tried.draw(at: x + head.size.width, baseline - tried.baseline)
  }

  /// The texts a feature was tried on, quoted, on one line cut to `width`. They are the
  /// family's own (its script's samples): set in `face` of the family, with the label face
  /// for the quotation marks and commas the family may lack, never as boxes. Each text is
  /// isolated (FSI … PDI) in a left-to-right line (LRM): a right-to-left text keeps its own
  /// order inside its marks, and the list reads from the left.
  func triedTexts(_ texts: [String], of family: FontFamily, face: FontFace?, width: Double)
    -> TextLayout
  {
    let quoted =
      "\u{200E}"
      + texts.map { "“\u{2068}\(Sanitize.terminal($0))\u{2069}”" }.joined(separator: ", ")
    let layout = TextLayout(
      quoted, font: FontSpec(family: family.name, size: 6.5, face: face),
      in: contextWithLabel(for: family), width: max(1, width), fallback: true)
    layout.ellipsize(width: width)
    return layout
  }

  // MARK: Languages

  private func drawLanguageGroup(_ script: String, _ codes: [String], _ f: CataloguePlan.Rect) {
    drawMarginLabel([Sanitize.terminal(script), "\(codes.count)"], top: f.y)
    let list = label(
      CataloguePlan.languageList(codes), size: CataloguePlan.languageSize, width: g.contentWidth)
    list.setLineSpacing(1.3)
    if list.size.height > f.height + 1 { list.limitHeight(max(f.height, 12)) }
    cr.setColour(ink(0.85))
    list.draw(at: g.contentX, f.y)
  }

  private func drawNearly(_ code: String, _ missing: [UInt32], _ f: CataloguePlan.Rect) {
    let nameWidth = 150.0
    let name = label(
      "\(Sanitize.terminal(Languages.name(of: code))) (\(code))", size: 8, width: nameWidth)
    name.ellipsize(width: nameWidth)
    cr.setColour(ink(0.85))
    name.draw(at: g.contentX, f.y)
    let baseline = f.y + name.baseline
    var x = g.contentX + nameWidth + 8
    let neutral = writer.labelFamily
    for value in missing {
      let codeLayout = label(CodePointText.format(value), size: 7)
      let glyph: TextLayout? = Unicode.Scalar(value).flatMap { scalar in
        guard let neutral, neutral.coverage.contains(scalar),
          !CataloguePlan.isBlank(scalar)
        else { return nil }
        let layout = TextLayout(
          String(scalar), font: FontSpec(family: neutral.name, size: 10, face: writer.labelRegular),
          in: labelContext)
        return layout.unknownGlyphs == 0 ? layout : nil
      }
      let width = codeLayout.size.width + (glyph.map { $0.size.width + 5 } ?? 0) + 12
      if x + width > g.right { break }
      cr.setColour(ink(0.6))
      codeLayout.draw(at: x, baseline - codeLayout.baseline)
      x += codeLayout.size.width + 4
      if let glyph {
        cr.setColour(palette.accent)
        glyph.draw(at: x, baseline - glyph.baseline)
        x += glyph.size.width
      }
      x += 12
    }
  }

  // MARK: Glyph chart

  private func drawGlyphHeader(_ page: Int, _ pages: Int, _ f: CataloguePlan.Rect) {
    guard let facts = current else { return }
    let nameText = Sanitize.terminal(facts.family.name) + " — glyph chart"
    let name = label(nameText, size: 13, width: g.bodyWidth * 0.6)
    name.ellipsize(width: g.bodyWidth * 0.6)
    cr.setColour(palette.text)
    name.draw(at: g.margin, f.y)
    let count = proofData?.characters?.count ?? 0
    // A dingbat or symbol font maps its pictographs to Latin code points: the codes the
    // chart shows are the font's, not the pictographs' own in Unicode.
    let encoding = facts.pictographic ? " · symbol encoding" : ""
    // The line takes what the name leaves of the width (at least 40 % of it).
    let room = max(g.bodyWidth * 0.4, g.bodyWidth - min(name.size.width, g.bodyWidth * 0.6) - 24)
    let info = caption(
      "\(count) encoded characters\(encoding) · page \(page + 1) of \(pages)", size: 6.5,
      width: room, alignment: .right)
    info.ellipsize(width: room)
    cr.setColour(ink(0.55))
    info.draw(at: g.right - room, f.y + name.baseline - info.baseline)
  }

  private func drawGlyphChart(_ i: Int, _ page: Int) {
    guard let facts = current, let chart = plan.glyphCharts[i], page < chart.pages.count
    else { return }
    let chartPage = chart.pages[page]
    for heading in chartPage.headings {
      var text = Sanitize.terminal(heading.text)
      if let range = heading.range {
        text +=
          "   \(CodePointText.format(range.lowerBound))–\(CodePointText.format(range.upperBound))"
      }
      let layout = caption(text, size: 6.5, width: heading.frame.width)
      layout.ellipsize(width: heading.frame.width)
      cr.setColour(palette.accent)
      layout.draw(at: heading.frame.x, heading.frame.y + heading.frame.height - 12)
    }
    guard facts.problem == nil else { return }
    let family = facts.family
    let damaged = damagedBitmaps(of: facts)
    let ctx = context(for: family)
    // Code points are hex digits, which the label face has: set without font fallback, which
    // costs Pango a fontset lookup per layout (thousands on a CJK chart).
    let neutral = writer.labelFamily
    let codeFont = FontSpec(
      family: neutral?.name ?? "sans-serif", size: 4.5, face: writer.labelRegular)
    for cell in chartPage.cells {
      let r = cell.frame
      cr.setColour(ink(0.12))
      cr.rectangle(r.x + 0.25, r.y + 0.25, r.width - 0.5, r.height - 0.5)
      cr.stroke(width: 0.5)
      let code = TextLayout(
        cell.label, font: codeFont, in: labelContext, width: r.width, alignment: .centre)
      cr.setColour(ink(0.5))
      code.draw(at: r.x, r.y + r.height - 7)
      guard let scalar = Unicode.Scalar(cell.codePoint) else { continue }
      let size = min(r.width, r.height) * 0.55
      func layout() -> TextLayout {
        TextLayout(
          String(scalar), font: FontSpec(family: family.name, size: size, face: facts.regular),
          in: ctx)
      }
      if CataloguePlan.isBlank(scalar) {
        // A format character the font maps to a glyph with ink shows it (the soft hyphen's
        // hyphen; D050000L's ②, which shaping would hide).
        if scalar.properties.isDefaultIgnorableCodePoint, case let glyph = layout(),
          let ink = glyph.revealIgnorableGlyphs(), ink.width > 0
        {
          cr.setColour(palette.text)
          glyph.draw(
            at: r.x + (r.width - ink.width) / 2 - ink.x, r.y + r.height * 0.62 - glyph.baseline)
          continue
        }
        // Spaces, controls and other format characters draw nothing: a tinted, empty cell.
        cr.setColour(ink(0.05))
        cr.rectangle(r.x + 0.5, r.y + 0.5, r.width - 1, r.height - 1)
        cr.fill()
        continue
      }
      if damaged.contains(cell.codePoint) {
        drawDamagedBitmap(r)
        continue
      }
      let glyph = layout()
      // A character the face maps but Pango cannot draw stays empty: never a hex box.
      guard glyph.unknownGlyphs == 0 else { continue }
      cr.setColour(palette.text)
      glyph.draw(
        at: r.x + (r.width - glyph.size.width) / 2, r.y + r.height * 0.62 - glyph.baseline)
    }
  }
}

extension PageDrawer {
  /// The characters of `facts`' family whose colour bitmap is damaged, read once per family;
  /// the first time, one warning names them (`DamagedColourBitmaps`).
  func damagedBitmaps(of facts: FamilyFacts) -> Set<UInt32> {
    let name = facts.family.name
    if let known = damagedBitmaps[name] { return known }
    guard let face = facts.regular,
      let found = ColourBitmapCheck.damagedCharacters(file: face.file, index: face.index)
    else {
      damagedBitmaps[name] = []
      return []
    }
    damagedBitmaps[name] = Set(found.characters)
    warn(
      DamagedColourBitmaps.warning(
        family: name, characters: found.characters, problem: found.problem,
        in: "the glyph chart"))
    return damagedBitmaps[name] ?? []
  }

  /// A glyph whose colour bitmap is damaged: an empty square where the glyph would stand,
  /// "damaged" under it, above the cell's code point.
  func drawDamagedBitmap(_ r: CataloguePlan.Rect) {
    let side = min(r.width, r.height) * 0.35
    cr.setColour(ink(0.35))
    cr.rectangle(r.x + (r.width - side) / 2, r.y + r.height * 0.1, side, side)
    cr.stroke(width: 0.5)
    let label = caption("damaged", size: 4, width: r.width)
    cr.setColour(ink(0.5))
    label.draw(at: r.x + (r.width - label.size.width) / 2, r.y + r.height * 0.5)
  }
}

extension CataloguePlan {
  /// Characters a glyph chart shows as an empty cell (spaces, controls, format characters,
  /// line and paragraph separators, surrogates): they draw nothing by design.
  static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .spaceSeparator, .control, .format, .lineSeparator, .paragraphSeparator, .surrogate:
      return true
    default: return false
    }
  }
}

extension CataloguePlan.Kind {
  /// The family a family page, proof page or glyph chart page belongs to; nil for the rest.
  public var familyIndex: Int? {
    switch self {
    case .family(let i, _), .faces(let i, _), .proofs(let i, _), .glyphs(let i, _): return i
    default: return nil
    }
  }
}
