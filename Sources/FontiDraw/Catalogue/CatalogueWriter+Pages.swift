import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// Draws the pages of one catalogue on one Cairo context, block by block as the plan placed
/// them. Layouts live only while their block is drawn; what is learnt about a family (can it
/// set its own name, which sample it needs) lives until the next family's pages.
///
/// This file holds its state, the fonts and contexts it sets text from, and the page's frame;
/// the blocks are drawn in `+Sections` (the cover, contents, Pairings, Saved), `+Family` (a
/// family's pages) and `+Proofs` (proof pages and glyph charts).
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
  /// Each family's characters whose colour bitmap is damaged (`ColourBitmapCheck`), read on
  /// its first glyph chart page: drawn as labelled empty boxes, never handed to Cairo.
  var damagedBitmaps: [String: Set<UInt32>] = [:]
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
  let savedNames: Set<String>
  let familyIndex: [String: Int]
  /// Whether a family can set its own name (covers it, draws letters, loads as itself).
  private var ownNameCache: [String: Bool] = [:]
  /// Whether Pango loads a family's own font rather than a fontconfig substitute.
  private var loadsCache: [String: Bool] = [:]
  var current: FamilyFacts?
  /// The size the last of `texts:` was set at, for naming a different one.
  var previousTextSize: Double?
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
    switch page.kind {
    case .family(let i, continued: true), .faces(let i, _): continues = current?.index == i
    default: break
    }
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
    case .sample(_, let size, _, let grid): drawSample(size, f, gridInPlaceOfText: grid)
    case .text(_, let index, let size): drawText(index, size, f)
    case .rule: drawRule(y: f.y, from: g.margin, to: g.right, alpha: 0.16)
    case .waterfall(_, let size, let baseline): drawWaterfall(size, baseline: baseline, f)
    case .styles(_, let cells, let row): drawStyles(cells, row: row, f)
    case .facesHeader(_, let continued): drawFacesHeader(f, continued: continued)
    case .faceLine(_, let face, let first): drawFaceLine(face, first: first, f)
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
    case .family(let i, _), .faces(let i, _), .proofs(let i, _), .glyphs(let i, _):
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

  // MARK: What is known of a family

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
    let line = PageDrawer.line(
      of: family, text: input.text, language: input.sample?.language,
      pictographic: facts.pictographic)
    facts.fallback = line.fallback
    facts.lineLanguage = line.fallback?.language
    facts.lineText = line.text
    return facts
  }

  /// The text of a family's waterfall and style grid: the sample on one line, or, for a family
  /// that cannot set it (or draws pictographs for Latin), its own-script sample or the first 24
  /// glyphs of its grid, with that choice.
  static func line(of family: FontFamily, text: String, language: String?, pictographic: Bool)
    -> (text: String, fallback: FallbackSample?)
  {
    guard
      pictographic || FallbackSample.showsOwnScript(text, language: language, family: family)
    else { return (text.replacingOccurrences(of: "\n", with: " "), nil) }
    let choice = FallbackSample.choose(for: family, preferGrid: pictographic, text: text)
    let line =
      switch choice {
      case .capitals(let text), .language(_, _, let text): text
      case .glyphGrid(let glyphs): FallbackSample.row(glyphs, count: 24)
      }
    return (line.replacingOccurrences(of: "\n", with: " "), choice)
  }

  // MARK: Helpers

  /// The job's settings for a family's own-script text: its axes and features, but the
  /// language of its script, not the job's.
  var ownScriptSettings: SampleSettings {
    var own = settings
    own.language = nil
    return own
  }

  /// A style cell's title: the slot's name, or the face name as `styles:` wrote it.
  static func styleTitle(_ pick: StylePick) -> String {
    switch pick {
    case .slot(let style): return styleTitle(style)
    case .face(let name): return Sanitize.terminal(name)
    }
  }

  static func styleTitle(_ style: StyleName) -> String {
    switch style {
    case .regular: return "Regular"
    case .bold: return "Bold"
    case .italic: return "Italic"
    case .boldItalic: return "Bold Italic"
    }
  }

  /// Says `warning` in the catalogue's result (`warnings`).
  func warn(_ warning: String) { warnings.append(warning) }

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
      letterSpacing: size * TextLayout.wordTracking, fallback: true)
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
  func nameLayout(_ family: FontFamily, size: Double) -> TextLayout {
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
  func latinSpec(_ family: FontFamily, size: Double) -> FontSpec? {
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

  func drawHeart(centreX x: Double, top y: Double, size s: Double, filled: Bool) {
    cr.setColour(palette.accent)
    cr.heartPath(centreX: x, top: y, size: s)
    if filled { cr.fill() } else { cr.stroke(width: 1.2) }
  }

  func format(_ size: Double) -> String {
    let rounded = (size * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
