import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// Draws the pages of one catalogue on one Cairo context, block by block as the plan placed
/// them. Layouts live only while their block is drawn; what is learnt about a family (can it
/// set its own name, which sample it needs) lives until the next family's pages.
///
/// Type rules: a family's own text is set with font fallback off (missing characters show as
/// boxes and are counted); running heads, captions, notes and the names of families that
/// cannot set their own are set in the neutral label face, with fallback on.
final class PageDrawer {
  let writer: CatalogueWriter
  let plan: CataloguePlan
  let input: CatalogueInput<FontFamily>
  let cr: CairoContext
  let palette: Palette
  let g: CataloguePlan.Geometry
  /// What each family's proof pages show, by family index (empty: no proofs).
  let proofs: [CatalogueProofData?]
  /// `input.sample`, for the sample, the texts and the waterfall (never labels).
  let settings: SampleSettings
  /// Characters drawn as boxes, by family name.
  private(set) var missing: [String: Int] = [:]
  private(set) var warnings: [String] = []
  /// Contexts for family text, one per family (each on a map holding only that family), by
  /// family; dropped, with their font maps, when a page of another family (or a page that is
  /// no family's) starts.
  private var contexts: [FamilyKey: TextContext] = [:]
  private struct FamilyKey: Hashable {
    var name: String
    var custom: Bool
    /// A face other than the family's regular one, alone in its map (`context(for:face:)`).
    var face: FontFace? = nil
    /// The family's map with the label face beside it (`contextWithLabel(for:)`).
    var withLabel = false
    /// The files of a family with variable files, which may be drawn whole or as the cut of
    /// its variable files (`FontFamily.variableCut`); nil for every other family.
    var files: [String]? = nil

    init(name: String, custom: Bool, face: FontFace? = nil, withLabel: Bool = false) {
      self.name = name
      self.custom = custom
      self.face = face
      self.withLabel = withLabel
    }

    init(_ family: FontFamily, face: FontFace? = nil, withLabel: Bool = false) {
      self.init(name: family.name, custom: family.isCustom, face: face, withLabel: withLabel)
      if !family.variableFiles.isEmpty { files = family.files }
    }
  }
  var labelContextStorage: TextContext?
  private let savedNames: Set<String>
  private let familyIndex: [String: Int]
  /// Whether a family can set its own name (covers it, draws letters, loads as itself).
  private var ownNameCache: [String: Bool] = [:]
  /// Whether Pango loads a family's own font rather than a fontconfig substitute.
  private var loadsCache: [String: Bool] = [:]
  var current: FamilyFacts?
  /// The size the last of `texts:` was set at, for naming a different one.
  private var previousTextSize: Double?
  /// The most lines one margin label entry wraps onto ("Unified / Canadian / Aboriginal /
  /// Syllabics").
  static let marginLabelLines = 4
  /// The top of the next block down the page while a block is drawn (`draw(page:)`).
  var nextBlockTop: Double?

  /// What drawing a family needs to know, worked out on its first page.
  struct FamilyFacts {
    var index: Int
    var family: FontFamily
    var regular: FontFace?
    /// Why the family cannot be drawn at all, if it cannot.
    var problem: String?
    var pictographic = false
    var ownName = false
    /// The own-script sample or glyph grid, when the family cannot set the sample text.
    var fallback: FallbackSample?
    /// The text of the waterfall and the style grid: the sample, or the own-script sample.
    var lineText: String = ""
    /// The own-script sample's language, which `lineText` is shaped as.
    var lineLanguage: String?

    /// Whether `lineText` is a row of the family's glyphs, cut without an ellipsis.
    var glyphRow: Bool {
      if case .glyphGrid = fallback { return true }
      return false
    }
  }

  init(
    writer: CatalogueWriter, plan: CataloguePlan, input: CatalogueInput<FontFamily>,
    cr: CairoContext, proofs: [CatalogueProofData?] = []
  ) {
    self.proofs = proofs
    settings = input.sample ?? .none
    self.writer = writer
    self.plan = plan
    self.input = input
    self.cr = cr
    self.palette = Palette(input.theme)
    self.g = plan.geometry
    savedNames = Set(input.saved.map { $0.name.lowercased() })
    var index: [String: Int] = [:]
    for (i, f) in input.families.enumerated() where index[f.name.lowercased()] == nil {
      index[f.name.lowercased()] = i
    }
    familyIndex = index
  }

  func context(for family: FontFamily) -> TextContext {
    let key = FamilyKey(family)
    if let c = contexts[key] { return c }
    let map: FontMap
    switch writer.makeFontMap(for: family) {
    case .success(let made): map = made
    case .failure(let error):
      // Drawn with no font (boxes, and "no font could be loaded" on its page), and said.
      warnings.append(error.message)
      map = writer.fontMaps.emptyMap()
    }
    let c = map.makeContext(for: cr)
    contexts[key] = c
    return c
  }

  /// The context for text set in `face` of `family`: the family's own for its regular face
  /// (or none given), else one on a map holding only `face`, so that the face named is the
  /// face drawn (`FontMaps.map(for:only:)`). Dropped with the family's.
  func context(for family: FontFamily, face: FontFace?) -> TextContext {
    guard let face, face != family.regularFace else { return context(for: family) }
    let key = FamilyKey(family, face: face)
    if let c = contexts[key] { return c }
    guard let map = try? writer.fontMaps.map(for: family, only: face) else {
      return context(for: family)
    }
    let c = map.makeContext(for: cr)
    contexts[key] = c
    return c
  }

  /// A context on a map holding `family` and the neutral label face: text set in the family
  /// with fallback on draws what the family lacks (quotation marks, a comma) in the label face,
  /// never in a third font. For quoting the family's own texts in a note. Dropped with the
  /// family's contexts.
  func contextWithLabel(for family: FontFamily) -> TextContext {
    let key = FamilyKey(family, withLabel: true)
    if let c = contexts[key] { return c }
    guard let labelFamily = writer.labelFamily,
      let map = try? writer.fontMaps.map(for: [family, labelFamily])
    else { return context(for: family) }
    let c = map.makeContext(for: cr)
    contexts[key] = c
    return c
  }

  var labelContext: TextContext {
    if let c = labelContextStorage { return c }
    let c = writer.labelFontMap().makeContext(for: cr)
    labelContextStorage = c
    return c
  }

  /// Our ellipsis for a family's text: in its face when it has U+2026, else in the label face.
  var mark: TextLayout.Ellipsis {
    TextLayout.Ellipsis(
      neutral: writer.labelFamily.map { ($0.name, writer.labelRegular, labelContext) })
  }

  // MARK: Pages

  func draw(_ page: CataloguePlan.Page) {
    // Each family's map lives for its pages: Pango frees the fonts it loaded with the map,
    // so memory stays flat in the number of families.
    var continues = false
    if case .family(let i, continued: true) = page.kind { continues = current?.index == i }
    if !continues { contexts = [:] }
    if ownNameCache.count > 4096 || loadsCache.count > 4096 {
      ownNameCache = [:]
      loadsCache = [:]
    }
    cr.setColour(palette.background)
    cr.paint()
    for destination in page.destinations { cr.destination(destination.name) }
    if let i = page.kind.familyIndex, current?.index != i {
      current = facts(i)
      previousTextSize = nil
    }
    if page.kind != .cover { drawChrome(page) }
    for (n, block) in page.blocks.enumerated() {
      // Where the block below starts (the body's foot for the last): room for margin labels.
      nextBlockTop =
        page.blocks.dropFirst(n + 1).map(\.frame.y).filter { $0 > block.frame.y }
        .min() ?? g.bodyBottom
      draw(block)
    }
  }

  private func draw(_ block: CataloguePlan.Block) {
    let f = block.frame
    switch block.content {
    case .cover: drawCover(f)
    case .sectionTitle(let title): drawSectionTitle(title, f)
    case .contentsEntry(let title, let destination, let page):
      drawContentsEntry(title, destination, page, f)
    case .familyHeader: drawFamilyHeader(f, continued: false)
    case .continuedHeader: drawFamilyHeader(f, continued: true)
    case .sample(_, let size, _): drawSample(size, f)
    case .text(_, let index, let size): drawText(index, size, f)
    case .rule: drawRule(y: f.y, from: g.margin, to: g.right, alpha: 0.16)
    case .waterfall(_, let size, let baseline): drawWaterfall(size, baseline: baseline, f)
    case .styles(_, let cells): drawStyles(cells, f)
    case .partners: drawPartners(f)
    case .pairing(let index): drawPairing(index, f)
    case .savedCards(let indices): drawSavedCards(indices, f)
    case .savedEmpty: drawSavedEmpty(f)
    default: drawProof(block.content, f)
    }
  }

  /// Running head (title at the left, section at the right), foot (page number at the
  /// right), and the rules under and over them.
  private func drawChrome(_ page: CataloguePlan.Page) {
    let half = g.bodyWidth / 2 - 12
    let title = caption(input.title, size: 6.5)
    title.ellipsize(width: half)
    cr.setColour(ink(0.55))
    title.draw(at: g.margin, g.headTop)
    let section: String
    var foot: String?
    switch page.kind {
    case .cover: section = ""
    case .contents: section = "Contents"
    case .family(let i, _), .proofs(let i, _), .glyphs(let i, _):
      section = Sanitize.terminal(input.families[i].name)
      foot = "Family \(i + 1) of \(input.families.count)"
    case .pairings: section = "Pairings"
    case .saved: section = "Saved"
    }
    let right = caption(section, size: 6.5, width: half, alignment: .right)
    right.ellipsize(width: half)
    right.draw(at: g.right - half, g.headTop)
    drawRule(y: g.headRule, from: g.margin, to: g.right, alpha: 0.22)
    drawRule(y: g.footRule, from: g.margin, to: g.right, alpha: 0.22)
    let number = label("\(page.number)", size: 8, width: 60, alignment: .right)
    cr.setColour(ink(0.7))
    number.draw(at: g.right - 60, g.footTop)
    if let foot {
      let left = caption(foot, size: 6.5)
      cr.setColour(ink(0.5))
      left.draw(at: g.margin, g.footTop + (number.baseline - left.baseline))
    }
  }

  // MARK: Cover, sections, contents

  private func drawCover(_ f: CataloguePlan.Rect) {
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
    title.draw(at: x, y)
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

  private func drawSectionTitle(_ title: String, _ f: CataloguePlan.Rect) {
    let layout = label(title, size: 26, bold: true)
    cr.setColour(palette.accent)
    cr.rectangle(g.margin, f.y + layout.baseline - 10, 30, 4)
    cr.fill()
    cr.setColour(palette.text)
    layout.draw(at: g.contentX, f.y)
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

  private func drawContentsEntry(
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

  // MARK: Family pages

  private func facts(_ i: Int) -> FamilyFacts {
    // Coordinates are drawn from the family's variable files (`FontFamily.variableCut`).
    let asked = settings.variations.map(\.tag)
    let listed = input.families[i]
    let family = asked.isEmpty ? listed : listed.variableCut(axes: asked) ?? listed
    var facts = FamilyFacts(index: i, family: family, regular: family.regularFace)
    guard family.isRenderable, let regular = family.regularFace else {
      facts.problem = "its fonts are Type 1 or bitmap only, which Pango cannot draw"
      warnings.append("family '\(family.name)' cannot be drawn: \(facts.problem ?? "")")
      return facts
    }
    let ctx = context(for: family)
    let probe = FontSpec(family: family.name, size: 12, face: regular)
    guard let loaded = ctx.loadedFile(for: probe) else {
      facts.problem = "no font of the family could be loaded"
      warnings.append("family '\(family.name)' cannot be drawn: \(facts.problem ?? "")")
      return facts
    }
    guard family.files.contains(loaded.file) else {
      facts.problem = "fontconfig offered another family’s font (\(loaded.file))"
      warnings.append("family '\(family.name)' cannot be drawn: \(facts.problem ?? "")")
      return facts
    }
    facts.pictographic = ctx.drawsPictographsForLatin(probe)
    facts.ownName = !facts.pictographic && family.coverage.missing(in: family.name).isEmpty
    ownNameCache[family.name] = facts.ownName
    let line = PageDrawer.line(of: family, text: input.text, pictographic: facts.pictographic)
    facts.fallback = line.fallback
    facts.lineLanguage = line.fallback?.language
    facts.lineText = line.text
    return facts
  }

  /// The text of a family's waterfall and style grid: the sample on one line, or, for a family
  /// that cannot set it (or draws pictographs for Latin), its own-script sample or the first 24
  /// glyphs of its grid, with that choice.
  static func line(of family: FontFamily, text: String, pictographic: Bool)
    -> (text: String, fallback: FallbackSample?)
  {
    guard pictographic || FallbackSample.lacksRealShare(of: text, coverage: family.coverage)
    else { return (text.replacingOccurrences(of: "\n", with: " "), nil) }
    let choice = FallbackSample.choose(for: family, preferGrid: pictographic, text: text)
    let line =
      switch choice {
      case .capitals(let text), .language(_, _, let text): text
      case .glyphGrid(let glyphs): FallbackSample.row(glyphs, count: 24)
      }
    return (line.replacingOccurrences(of: "\n", with: " "), choice)
  }

  /// The size a name `width` wide at `size` is set at to fit `room`: `size` when it fits, else
  /// smaller in steps of 0.1 pt, down to 60 % of `size` (past that it is cut).
  static func fittedSize(_ size: Double, width: Double, room: Double) -> Double {
    guard width > room, width > 0 else { return size }
    return max(size * 0.6, (size * room / width * 10).rounded(.down) / 10)
  }

  private func drawFamilyHeader(_ f: CataloguePlan.Rect, continued: Bool) {
    guard let facts = current else { return }
    let family = facts.family
    let digits = String(input.families.count).count
    let numberText =
      String(repeating: "0", count: max(0, digits - String(facts.index + 1).count))
      + String(facts.index + 1)
    let number = label(numberText, size: continued ? 8 : 10, bold: true)
    let nameText = Sanitize.terminal(family.name)
    if continued {
      let name = label(nameText + ", continued", size: 11, width: g.contentWidth)
      name.ellipsize(width: g.contentWidth)
      cr.setColour(ink(0.6))
      name.draw(at: g.contentX, f.y)
      cr.setColour(palette.accent)
      number.draw(at: g.margin, f.y + name.baseline - number.baseline)
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
    name.draw(at: g.contentX, baseline - name.baseline)
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
    let styles = family.styles.map(Sanitize.terminal)
    facts2.append(
      "\(styles.count) \(styles.count == 1 ? "style" : "styles"): "
        + styles.joined(separator: ", "))
    if family.isCustom { facts2.append("custom font") }
    if facts.pictographic { facts2.append("draws symbols, not letters") }
    if let problem = facts.problem { facts2.append("cannot be drawn: \(problem)") }
    if let proofs = proofData, proofs.findsNothing { facts2.append(proofs.nothingFound) }
    let meta = label(facts2.joined(separator: "  ·  "), size: 8, width: g.contentWidth)
    meta.ellipsize(width: g.contentWidth)
    cr.setColour(ink(0.6))
    meta.draw(at: g.contentX, baseline + 10)
  }

  private func drawSample(_ size: Double, _ f: CataloguePlan.Rect) {
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
      drawMarginLabel(["Sample", "\(format(fitted)) pt"], top: f.y)
      return
    }

    // The user's text, small and honest about its boxes, then the family's own sample.
    let small = min(size, 16)
    let topHeight = min(f.height * 0.38, 4 * small * 1.35)
    let (yours, _) = fit(
      input.text, FontSpec(family: family.name, size: small, face: facts.regular), ctx,
      width: g.contentWidth, height: topHeight, minimum: min(small, 8), mark: mark,
      settings: settings, leading: SpecimenRenderer.sampleLeading)
    count(yours.unknownGlyphs, family)
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
  private func drawText(_ index: Int, _ size: Double, _ f: CataloguePlan.Rect) {
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
    let sizeText = "\(format(used)) pt"
    if index == 0 {
      drawMarginLabel(["Texts", sizeText], top: f.y)
    } else if format(used) != format(previousTextSize ?? size) {
      drawMarginLabel([sizeText], top: f.y, muted: true)
    }
    previousTextSize = used
  }

  private func drawWaterfall(_ size: Double, baseline offset: Double, _ f: CataloguePlan.Rect) {
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

  private func drawStyles(_ cells: [CataloguePlan.StyleCell], _ f: CataloguePlan.Rect) {
    guard let facts = current, facts.problem == nil else { return }
    let family = facts.family
    let columns = 4.0
    let cellWidth = (g.contentWidth - (columns - 1) * g.gutter) / columns
    let baseline = f.y + 13 + CataloguePlan.styleSize
    drawMarginLabel(["Styles"], top: f.y)
    for (k, cell) in cells.enumerated() {
      let x = g.contentX + Double(k % 4) * (cellWidth + g.gutter)
      let wanted = PageDrawer.styleTitle(cell.style)
      let title = caption(wanted, size: 5.5)
      title.ellipsize(width: cellWidth)
      if let faceName = cell.face, let face = CataloguePlan.face(of: family, cell.style) {
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
        let note = label("not in this family", size: 8, italic: true, width: cellWidth)
        note.ellipsize(width: cellWidth)
        cr.setColour(ink(0.45))
        note.draw(at: x, baseline - note.baseline)
      }
    }
  }

  private func drawPartners(_ f: CataloguePlan.Rect) {
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

  // MARK: Pairings and Saved

  private func drawPairing(_ index: Int, _ f: CataloguePlan.Rect) {
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
      warnings.append(
        "pairing '\(pairing.heading.name)' + '\(pairing.body.name)' could not be drawn: a family "
          + "could not be loaded")
      return
    }
    // The heading in its family's boldest real upright face up to bold, as on pairing sheets:
    // the page shows the pairing the sheet does.
    let headingText = PairingSheetText.text(input.text, for: pairing.heading)
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

  private func drawSavedCards(_ indices: [Int], _ f: CataloguePlan.Rect) {
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

  private func drawSavedEmpty(_ f: CataloguePlan.Rect) {
    let centre = g.contentX + g.contentWidth / 2
    drawHeart(centreX: centre, top: f.y + 30, size: 30, filled: false)
    let text = label(
      CataloguePlan.emptySavedText, size: 13, width: g.contentWidth, alignment: .centre)
    cr.setColour(ink(0.65))
    text.draw(at: g.contentX, f.y + 76)
  }

  // MARK: Helpers

  /// The job's settings for a family's own-script text: its axes and features, but the
  /// language of its script, not the job's.
  var ownScriptSettings: SampleSettings {
    var own = settings
    own.language = nil
    return own
  }

  static func styleTitle(_ style: StyleName) -> String {
    switch style {
    case .regular: return "Regular"
    case .bold: return "Bold"
    case .italic: return "Italic"
    case .boldItalic: return "Bold Italic"
    }
  }

  func count(_ n: Int, _ family: FontFamily) {
    if n > 0 { missing[family.name, default: 0] += n }
  }

  /// The label face at `size`: regular, or its real bold / italic when asked and present.
  func label(
    _ text: String, size: Double, bold: Bool = false, italic: Bool = false,
    width: Double? = nil, alignment: TextLayout.Alignment = .left
  ) -> TextLayout {
    let family = writer.labelFamily
    let face = writer.labelFace(bold: bold, italic: italic) ?? writer.labelRegular
    let spec = FontSpec(family: family?.name ?? "sans-serif", size: size, face: face)
    return TextLayout(
      Sanitize.terminal(text), font: spec, in: labelContext, width: width.map { max(1, $0) },
      alignment: alignment, fallback: true)
  }

  /// Small capitals of the label face, spaced out: captions and running heads.
  func caption(
    _ text: String, size: Double, width: Double? = nil, wrap: TextLayout.Wrap = .anywhere,
    alignment: TextLayout.Alignment = .left
  ) -> TextLayout {
    let family = writer.labelFamily
    let spec = FontSpec(family: family?.name ?? "sans-serif", size: size, face: writer.labelRegular)
    return TextLayout(
      Sanitize.terminal(text).uppercased(), font: spec, in: labelContext,
      width: width.map { max(1, $0) }, wrap: wrap, alignment: alignment,
      letterSpacing: size * 0.06, fallback: true)
  }

  /// Caption lines in the label column, the first at `top` (in the accent colour unless
  /// `muted`). A line too wide for the column wraps between its words, onto four lines at most
  /// ("Unified / Canadian / Aboriginal / Syllabics"), and is cut only past them. Wrapped lines
  /// that would not fit in `room` (by default, down to the next block) stay one line each, cut.
  func drawMarginLabel(
    _ lines: [String], top: Double, muted: Bool = false, room: Double? = nil
  ) {
    var y = top + 2
    for (n, layout) in marginLabel(lines, room: room ?? nextBlockTop.map { $0 - top }).enumerated()
    {
      if n == 0 && !muted {
        cr.setColour(palette.accent)
      } else {
        cr.setColour(ink(0.55))
      }
      layout.draw(at: g.margin, y)
      y += layout.size.height + 1
    }
  }

  /// The layouts of `drawMarginLabel`'s lines: wrapped when they fit in `room` (nil: any
  /// room), else one line each.
  func marginLabel(_ lines: [String], room: Double?) -> [TextLayout] {
    func layouts(wrapping: Bool) -> [TextLayout] {
      lines.map { line in
        guard wrapping else {
          let layout = caption(line, size: 6, width: g.labelWidth)
          layout.ellipsize(width: g.labelWidth)
          return layout
        }
        var layout = caption(line, size: 6, width: g.labelWidth, wrap: .words)
        if layout.overflowsWidth { layout = caption(line, size: 6, width: g.labelWidth) }
        if layout.lineCount > PageDrawer.marginLabelLines {
          layout.limitHeight(
            caption("X", size: 6).size.height * Double(PageDrawer.marginLabelLines) + 0.5)
        }
        return layout
      }
    }
    let shown = layouts(wrapping: true)
    let height = shown.reduce(2) { $0 + $1.size.height + 1 }  // drawn from `top + 2`
    if let room, height > room, shown.contains(where: { $0.lineCount > 1 }) {
      return layouts(wrapping: false)
    }
    return shown
  }

  /// `family`'s name set in the family when it can set it, else in the label face.
  private func nameLayout(_ family: FontFamily, size: Double) -> TextLayout {
    let text = Sanitize.terminal(family.name)
    if canSetOwnName(family) {
      return TextLayout(
        text, font: FontSpec(family: family.name, size: size, face: family.regularFace),
        in: context(for: family))
    }
    return label(text, size: size)
  }

  func canSetOwnName(_ family: FontFamily) -> Bool {
    if let known = ownNameCache[family.name] { return known }
    var can = false
    if family.coverage.missing(in: family.name).isEmpty, loadsAsItself(family),
      let regular = family.regularFace
    {
      let probe = FontSpec(family: family.name, size: 12, face: regular)
      can = !context(for: family).drawsPictographsForLatin(probe)
    }
    ownNameCache[family.name] = can
    return can
  }

  /// Whether Pango loads `family`'s own regular font, not a substitute fontconfig offers
  /// (the same proof specimens require before setting a family's text).
  func loadsAsItself(_ family: FontFamily) -> Bool {
    if let known = loadsCache[family.name] { return known }
    var loads = false
    if family.isRenderable, let regular = family.regularFace {
      let probe = FontSpec(family: family.name, size: 12, face: regular)
      if let loaded = context(for: family).loadedFile(for: probe) {
        loads = family.files.contains(loaded.file)
      }
    }
    loadsCache[family.name] = loads
    return loads
  }

  /// A spec for Latin letters in `family`, when it really draws them as itself.
  private func latinSpec(_ family: FontFamily, size: Double) -> FontSpec? {
    guard family.coverage.missing(in: "AaBb").isEmpty, canSetOwnName(family) else { return nil }
    return FontSpec(family: family.name, size: size, face: family.regularFace)
  }

  /// A left-aligned layout of `text` at the largest size up to `font.size` (to a tenth of a
  /// point) whose wrapped lines fit: no word wider than `width` (lines break only between
  /// words, never with an added hyphen) and the height within `height`. At `minimum`, a word
  /// still too wide breaks between its characters and lines that still do not fit end in our
  /// ellipsis (`mark`). Returns the layout and the size used.
  func fit(
    _ text: String, _ font: FontSpec, _ context: TextContext, width: Double, height: Double,
    minimum: Double, language: String? = nil, mark: TextLayout.Ellipsis? = nil,
    settings: SampleSettings = .none,
    leading: TextLayout.Leading? = nil
  ) -> (layout: TextLayout, size: Double) {
    func make(_ size: Double, _ wrap: TextLayout.Wrap = .words, text: String = text) -> TextLayout {
      var spec = font
      spec.size = size
      let layout = TextLayout(
        sample: text, font: spec, settings: settings, in: context, width: max(1, width),
        wrap: wrap, language: language)
      if let leading {
        layout.setLeading(leading)
      }
      return layout
    }
    func fits(_ layout: TextLayout) -> Bool {
      layout.size.height <= height && !layout.overflowsWidth
    }
    /// At the smallest size: words broken when they must be, lines cut when they must be; a
    /// last word alone on its line pulled back (`TextLayout.pullingBackLastWord`).
    func last(_ layout: TextLayout, _ size: Double) -> TextLayout {
      let layout =
        layout.overflowsWidth
        ? make(size, .anywhere)
        : TextLayout.pullingBackLastWord(layout) { make(size, text: $0) }
      if layout.size.height > height { layout.limitHeight(max(height, minimum * 1.2), mark: mark) }
      return layout
    }
    let full = make(font.size)
    if fits(full) || font.size <= minimum {
      return (last(full, font.size), font.size)
    }
    // Bisect between a size that fits and one that does not.
    var low = minimum
    var high = font.size
    var best: TextLayout?
    for _ in 0..<12 where high - low > 0.1 {
      let middle = (low + high) / 2
      let layout = make(middle)
      if fits(layout) {
        low = middle
        best = layout
      } else {
        high = middle
      }
    }
    let size = best == nil ? minimum : max(minimum, (low * 10).rounded(.down) / 10)
    return (last(make(size), size), size)
  }

  private func drawGrid(
    _ glyphs: [String], family: FontFamily, face: FontFace?, context: TextContext, top: Double,
    height: Double
  ) {
    guard !glyphs.isEmpty, height > 10 else { return }
    let columns = 10
    let rows = (glyphs.count + columns - 1) / columns
    let cell = min(g.contentWidth / Double(columns), height / Double(rows))
    for (i, glyph) in glyphs.enumerated() {
      let cx = g.contentX + Double(i % columns) * cell
      let cy = top + Double(i / columns) * cell
      cr.setColour(ink(0.12))
      cr.rectangle(cx + 0.25, cy + 0.25, cell - 0.5, cell - 0.5)
      cr.stroke(width: 0.5)
      let placed = GlyphCell.layout(
        glyph, family: family.name, face: face, context: context, cell: cell, x: cx, y: cy)
      cr.setColour(palette.text)
      placed.layout.draw(at: placed.x, placed.y)
    }
  }

  func drawRule(y: Double, from x0: Double, to x1: Double, alpha: Double) {
    cr.setColour(ink(alpha))
    cr.rectangle(x0, y, x1 - x0, 0.5)
    cr.fill()
  }

  /// The page's text colour at `alpha` laid over `base` (the page's background unless said):
  /// `Palette.ink`.
  func ink(_ alpha: Double, over base: Colour? = nil) -> Colour {
    palette.ink(alpha, over: base)
  }

  private func drawHeart(centreX x: Double, top y: Double, size s: Double, filled: Bool) {
    cr.setColour(palette.accent)
    cr.heartPath(centreX: x, top: y, size: s)
    if filled { cr.fill() } else { cr.stroke(width: 1.2) }
  }

  func format(_ size: Double) -> String {
    let rounded = (size * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
