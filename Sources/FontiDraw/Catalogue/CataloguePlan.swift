import FontiFonts
import FontiModel
import FontiSupport
import Foundation

/// The pages of a catalogue, worked out before anything is drawn: which page shows what, where
/// on the page, and which page number each contents entry points at. Pure data computed from a
/// `CatalogueInput` with font-independent estimates of text height; the writer fits each text
/// into the frame the plan gave it (shrinking or cutting between lines), so that the plan's
/// page numbers are always the real ones.
///
/// Sections, in order: cover, contents, one page per family (long content flows onto
/// continuation pages), each followed by its proof pages and glyph chart when the input asks for
/// proofs and the family has something to show (see `CataloguePlan+Proofs`), Pairings (when
/// there are pairings), Saved.
public struct CataloguePlan: Sendable, Hashable {
  /// A rectangle in PDF user space (points, origin at the top left).
  public struct Rect: Sendable, Hashable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }

    var bottom: Double { y + height }
  }

  /// The page grid: margins, a narrow label column for sizes and captions, and the content
  /// column every text aligns on.
  public struct Geometry: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var margin = 48.0
    public var labelWidth = 58.0
    public var gutter = 14.0
    /// Top of the running head, and the rule under it.
    public var headTop = 26.0
    public var headRule = 42.0
    public var bodyTop = 60.0

    public init(_ size: PageSize) {
      (width, height) = size.points
    }

    public var bodyBottom: Double { height - 60 }
    public var footRule: Double { height - 42 }
    public var footTop: Double { height - 36 }
    public var bodyWidth: Double { width - 2 * margin }
    public var bodyHeight: Double { bodyBottom - bodyTop }
    public var contentX: Double { margin + labelWidth + gutter }
    public var contentWidth: Double { width - margin - contentX }
    public var right: Double { width - margin }
  }

  /// Where a contents entry or bookmark leads.
  public enum Destination: Sendable, Hashable {
    case contents
    case family(Int)
    case pairings
    case saved
    /// A family's first proof page.
    case proofs(Int)
    /// A family's weights page: every face, its name and a line set in it.
    case faces(Int)
    /// A family's glyph chart, and the first page of its block number `block` (0-based).
    case glyphs(Int)
    case glyphBlock(Int, block: Int)

    /// The PDF named destination.
    public var name: String {
      switch self {
      case .contents: return "contents"
      case .family(let i): return "family-\(i + 1)"
      case .faces(let i): return "family-\(i + 1)-faces"
      case .proofs(let i): return "family-\(i + 1)-proofs"
      case .glyphs(let i): return "family-\(i + 1)-glyphs"
      case .glyphBlock(let i, let block): return "family-\(i + 1)-glyphs-\(block + 1)"
      case .pairings: return "pairings"
      case .saved: return "saved"
      }
    }
  }

  /// One face slot of a family page's style grid: the face asked for in `styles:` and the
  /// real face that answers, or nil when the family does not have it.
  public struct StyleCell: Sendable, Hashable {
    public var asked: StylePick
    public var face: FontFace?
  }

  /// What a block shows. Family, pairing and card numbers index the input's lists.
  public enum Content: Sendable, Hashable {
    case cover
    /// A section's title at the top of its first page: "Contents", "Pairings", "Saved".
    case sectionTitle(String)
    case contentsEntry(title: String, destination: Destination, page: Int)
    /// The family's name, number and facts.
    case familyHeader(family: Int)
    /// A continuation page's small header.
    case continuedHeader(family: Int)
    /// The sample text at up to `size` points (or the family's own-script sample).
    case sample(family: Int, size: Double, ownScript: Bool, gridInPlaceOfText: Bool = false)
    /// One of `texts:`.
    case text(family: Int, index: Int, size: Double)
    /// A hairline between sections.
    case rule
    /// One waterfall line, its baseline this far below the top of its frame.
    case waterfall(family: Int, size: Double, baseline: Double)
    /// A row of the style grid: up to four cells of the faces of `styles:`; `row` counts the
    /// rows from 0 (the first is labelled).
    case styles(family: Int, cells: [StyleCell], row: Int)
    /// The head of a family's weights page (its name, how many faces), or of a continuation.
    case facesHeader(family: Int, continued: Bool)
    /// One face of the family (`FontFamily.distinctFaces`): its name and a line set in it;
    /// `first` of the list carries its label.
    case faceLine(family: Int, face: FontFace, first: Bool)
    /// The "pairs well with" strip.
    case partners(family: Int, names: [String])
    case pairing(index: Int)
    /// One row of the Saved grid: two cards (or one), by index into the favourites.
    case savedCards([Int])
    /// "Heart a font to keep it here."
    case savedEmpty
    /// The head of a family's proof pages (its name, "Proofs"), or of a continuation page.
    case proofHeader(family: Int, continued: Bool)
    /// A proof section's title ("Weight · wght 100–900", "Named instances", "Features"…) and a
    /// small note under it.
    case proofTitle(family: Int, title: String, note: String?)
    /// One step of an axis sweep: the short text at `value` on axis `axis`, the value printed.
    case axisStep(family: Int, axis: String, value: Double, isDefault: Bool)
    /// A row of the named-instances grid, by index into the family's instances.
    case instances(family: Int, indices: [Int])
    /// Feature `tag`'s sample, off and on side by side.
    case featurePair(family: Int, tag: String)
    /// Feature `tag`, which changed nothing visible on the texts tried: its tag, name, why,
    /// texts.
    /// `reason`: why it shows nothing, in a few words (`FontProofs.NoEffect.phrase`).
    case invisibleFeature(family: Int, tag: String, reason: String?)
    /// The supported languages written in one script, by English name.
    case languageGroup(family: Int, script: String, codes: [String])
    /// The title of the nearly supported languages (it names the neutral face).
    case nearlyTitle(family: Int, count: Int)
    /// A nearly supported language and the characters it lacks.
    case nearlyLanguage(family: Int, code: String, missing: [UInt32])
    /// A sentence on a proof page: a proof that cannot be read, a family with no language.
    case proofNote(family: Int, text: String)
    /// The head of a glyph chart page: the family's name, the count of characters.
    case glyphHeader(family: Int, page: Int, pages: Int)
    /// Page `page` (0-based) of the family's glyph chart (`CataloguePlan.glyphCharts`).
    case glyphChart(family: Int, page: Int)
  }

  /// A positioned piece of a page.
  public struct Block: Sendable, Hashable {
    public var content: Content
    public var frame: Rect
  }

  /// Which section a page belongs to.
  public enum Kind: Sendable, Hashable {
    case cover
    case contents
    case family(Int, continued: Bool)
    /// A family's weights page, after its own (more than four faces).
    case faces(Int, continued: Bool)
    /// A family's proof pages, after its own.
    case proofs(Int, continued: Bool)
    /// A page of a family's glyph chart, after its proof pages.
    case glyphs(Int, page: Int)
    case pairings
    case saved
  }

  /// One page: its printed number (the cover's is 1 and not printed), what it is, the named
  /// destinations it defines and its blocks.
  public struct Page: Sendable, Hashable {
    public var number: Int
    public var kind: Kind
    public var destinations: [Destination]
    public var blocks: [Block]
  }

  /// What the plan needs to know of a family, kept for `dump()` and the outline.
  public struct FamilySummary: Sendable, Hashable {
    public var name: String
    public var styles: [String]
  }

  public static let emptySavedText = "Heart a font to keep it here."
  /// The paragraph of the Pairings section, set in the body family.
  public static let pairingParagraph =
    "A good pairing lets the heading speak in its own voice while the text stays quiet, even "
    + "and easy to read over a long page. The two faces should share proportions and a sense "
    + "of rhythm, yet differ enough that the reader can tell at a glance which is which."

  // Sizes used by the plan and the writer alike.
  static let nameSize = 28.0
  static let familyHeaderHeight = 50.0
  static let textSize = 12.0
  static let styleSize = 15.0
  static let contentsRow = 15.0
  static let contentsColumnGap = 24.0
  static let sectionTitleHeight = 70.0
  static let savedCardHeight = 104.0
  static let pairingHeadingSize = 26.0
  static let pairingBodySize = 10.5

  public var geometry: Geometry
  public var pages: [Page]
  public var families: [FamilySummary]
  /// The first page of each family, by index.
  public var familyPages: [Int]
  public var pairingsPage: Int?
  public var savedPage: Int
  /// The first proof page of each family that has proof pages, by index.
  public var proofPages: [Int: Int] = [:]
  /// The weights page of each family that has one, by index.
  public var facesPages: [Int: Int] = [:]
  /// The glyph chart of each family that has one, by index, and its first page.
  public var glyphCharts: [Int: GlyphChartPlan] = [:]
  public var glyphPages: [Int: Int] = [:]

  /// A bookmark: its title, where it leads, and the index of its parent entry in `outline`
  /// (nil at the top level).
  public struct OutlineEntry: Sendable, Hashable {
    public var title: String
    public var destination: Destination
    public var parent: Int?
  }

  /// Bookmarks, in order: Contents, each family (with its proof pages and glyph chart under it,
  /// the chart's Unicode blocks under the chart), Pairings, Saved.
  public var outline: [OutlineEntry] {
    var out = [OutlineEntry(title: "Contents", destination: .contents, parent: nil)]
    for (i, f) in families.enumerated() {
      let parent = out.count
      out.append(OutlineEntry(title: f.name, destination: .family(i), parent: nil))
      if facesPages[i] != nil {
        out.append(OutlineEntry(title: "Faces", destination: .faces(i), parent: parent))
      }
      if proofPages[i] != nil {
        out.append(OutlineEntry(title: "Proofs", destination: .proofs(i), parent: parent))
      }
      if let chart = glyphCharts[i] {
        let chartEntry = out.count
        out.append(OutlineEntry(title: "Glyph chart", destination: .glyphs(i), parent: parent))
        for (k, block) in chart.outline.enumerated() {
          out.append(
            OutlineEntry(
              title: Sanitize.terminal(block.block), destination: .glyphBlock(i, block: k),
              parent: chartEntry))
        }
      }
    }
    if pairingsPage != nil {
      out.append(OutlineEntry(title: "Pairings", destination: .pairings, parent: nil))
    }
    out.append(OutlineEntry(title: "Saved", destination: .saved, parent: nil))
    return out
  }

  /// Plans the catalogue of `input`, with the proof pages `proofs` (by family index; empty or
  /// nil entries: none) when the input asks for proofs, and waterfall lines as tall as
  /// `lineInk` needs (by family index; nil or missing: display leading). The sections are
  /// planned in their order; the contents, whose length is known first, is filled in last,
  /// once every page its entries point at is known.
  public init(
    _ input: CatalogueInput<FontFamily>, proofs: [CatalogueProofData?] = [],
    lineInk: [LineInk?] = [], grids: [Int?]? = nil
  ) {
    geometry = Geometry(input.page)
    families = input.families.map {
      FamilySummary(name: Sanitize.terminal($0.name), styles: $0.styles.map(Sanitize.terminal))
    }
    pages = []
    familyPages = []
    pairingsPage = nil
    savedPage = 0
    let contents = Contents(families: families, pairings: !input.pairings.isEmpty, geometry)
    appendCoverAndContents(contentsPages: contents.pageCount)
    for (i, family) in input.families.enumerated() {
      appendFamily(
        i, family, input, ink: i < lineInk.count ? lineInk[i] : nil,
        grid: grids.map { i < $0.count ? $0[i] : nil },
        proofs: input.proofs != nil && i < proofs.count ? proofs[i] : nil)
    }
    appendPairings(input)
    appendSaved(input)
    fillContents(contents)
  }

  /// The contents' entries, in order, and the rows its pages hold: how many pages it takes is
  /// known before the rest is planned; the page of each entry, only after.
  struct Contents {
    var entries: [(title: String, destination: Destination)]
    /// Rows a column holds on the first page (under the section's title) and on the others.
    var rowsFirst: Int
    var rowsOther: Int
    var pageCount: Int

    init(families: [FamilySummary], pairings: Bool, _ g: Geometry) {
      entries = families.enumerated().map { ($1.name, .family($0)) }
      if pairings { entries.append(("Pairings", .pairings)) }
      entries.append(("Saved", .saved))
      rowsFirst = max(
        1, Int((g.bodyHeight - CataloguePlan.sectionTitleHeight) / CataloguePlan.contentsRow))
      rowsOther = max(1, Int(g.bodyHeight / CataloguePlan.contentsRow))
      pageCount = 1
      var capacity = 2 * rowsFirst
      while capacity < entries.count {
        pageCount += 1
        capacity += 2 * rowsOther
      }
    }
  }

  /// The cover, then `contentsPages` pages for the contents, empty until `fillContents`.
  private mutating func appendCoverAndContents(contentsPages: Int) {
    let g = geometry
    pages.append(
      Page(
        number: 1, kind: .cover, destinations: [],
        blocks: [
          Block(
            content: .cover,
            frame: Rect(x: g.margin, y: g.bodyTop, width: g.bodyWidth, height: g.bodyHeight))
        ]))
    for _ in 0..<contentsPages {
      pages.append(Page(number: pages.count + 1, kind: .contents, destinations: [], blocks: []))
    }
    pages[1].destinations = [.contents]
  }

  /// Flows `items` onto pages after the last one; the first of them is `destination`.
  private mutating func appendFlow(
    _ items: [Item], header: (Content, Double), continued: (Content, Double)?,
    kind: (_ continued: Bool) -> Kind, destination: Destination
  ) {
    let flow = Flow.laidOut(
      items, geometry: geometry, first: pages.count + 1, header: header, continued: continued)
    for (n, blocks) in flow.pages.enumerated() {
      pages.append(
        Page(
          number: pages.count + 1, kind: kind(n > 0), destinations: n == 0 ? [destination] : [],
          blocks: blocks))
    }
  }

  /// Family `i`'s pages: its own, then, with `proofs` (nil: the input asks for none), its
  /// proof pages and its glyph chart, each when it has something to show.
  private mutating func appendFamily(
    _ i: Int, _ family: FontFamily, _ input: CatalogueInput<FontFamily>, ink: LineInk?,
    grid: Int??, proofs: CatalogueProofData?
  ) {
    familyPages.append(pages.count + 1)
    appendFlow(
      CataloguePlan.familyItems(i, family, input, geometry, ink: ink, grid: grid),
      header: (.familyHeader(family: i), CataloguePlan.familyHeaderHeight),
      continued: (.continuedHeader(family: i), 30), kind: { .family(i, continued: $0) },
      destination: .family(i))
    let faceItems = CataloguePlan.weightsPageItems(i, family)
    if !faceItems.isEmpty {
      facesPages[i] = pages.count + 1
      appendFlow(
        faceItems, header: (.facesHeader(family: i, continued: false), 40),
        continued: (.facesHeader(family: i, continued: true), 30),
        kind: { .faces(i, continued: $0) }, destination: .faces(i))
    }
    guard let data = proofs else { return }
    let proofItems = data.findsNothing ? [] : CataloguePlan.proofItems(i, data, geometry)
    if !proofItems.isEmpty {
      proofPages[i] = pages.count + 1
      appendFlow(
        proofItems,
        header: (.proofHeader(family: i, continued: false), CataloguePlan.familyHeaderHeight),
        continued: (.proofHeader(family: i, continued: true), 30),
        kind: { .proofs(i, continued: $0) }, destination: .proofs(i))
    }
    if let chart = CataloguePlan.glyphChart(data, geometry) {
      appendGlyphChart(i, chart)
    }
  }

  /// Family `i`'s glyph chart, a page each of `chart`'s pages, each Unicode block that starts
  /// on a page a destination of it.
  private mutating func appendGlyphChart(_ i: Int, _ chart: GlyphChartPlan) {
    let g = geometry
    glyphCharts[i] = chart
    glyphPages[i] = pages.count + 1
    var block = 0
    for (n, chartPage) in chart.pages.enumerated() {
      var destinations: [Destination] = n == 0 ? [.glyphs(i)] : []
      for heading in chartPage.headings where !heading.continued {
        destinations.append(.glyphBlock(i, block: block))
        block += 1
      }
      pages.append(
        Page(
          number: pages.count + 1, kind: .glyphs(i, page: n), destinations: destinations,
          blocks: [
            Block(
              content: .glyphHeader(family: i, page: n, pages: chart.pages.count),
              frame: Rect(
                x: g.margin, y: g.bodyTop, width: g.bodyWidth,
                height: CataloguePlan.glyphHeaderHeight)),
            Block(content: .glyphChart(family: i, page: n), frame: chart.layout.area),
          ]))
    }
  }

  /// The Pairings section, when the input has pairings: one after the other, ruled apart.
  private mutating func appendPairings(_ input: CatalogueInput<FontFamily>) {
    guard !input.pairings.isEmpty else { return }
    pairingsPage = pages.count + 1
    var items: [Item] = []
    for (i, pairing) in input.pairings.enumerated() {
      if i > 0 { items.append(Item(.rule, height: 0, before: 16)) }
      items.append(
        Item(
          .pairing(index: i), height: CataloguePlan.pairingHeight(pairing, input, geometry),
          before: 16))
    }
    appendFlow(
      items, header: (.sectionTitle("Pairings"), CataloguePlan.sectionTitleHeight),
      continued: nil, kind: { _ in .pairings }, destination: .pairings)
  }

  /// The Saved section: the favourites' cards two to a row, or a word on an empty one.
  private mutating func appendSaved(_ input: CatalogueInput<FontFamily>) {
    savedPage = pages.count + 1
    var savedItems: [Item] = []
    if input.saved.isEmpty {
      savedItems.append(Item(.savedEmpty, height: 180, before: 40))
    } else {
      for row in stride(from: 0, to: input.saved.count, by: 2) {
        let indices = Array(row..<min(row + 2, input.saved.count))
        savedItems.append(
          Item(.savedCards(indices), height: CataloguePlan.savedCardHeight, before: 14))
      }
    }
    appendFlow(
      savedItems, header: (.sectionTitle("Saved"), CataloguePlan.sectionTitleHeight),
      continued: nil, kind: { _ in .saved }, destination: .saved)
  }

  /// The contents entries on the pages kept for them, in two columns, now that every target
  /// page is known.
  private mutating func fillContents(_ contents: Contents) {
    let g = geometry
    let columnWidth = (g.bodyWidth - CataloguePlan.contentsColumnGap) / 2
    var entryIndex = 0
    for p in 0..<contents.pageCount {
      var blocks: [Block] = []
      var top = g.bodyTop
      if p == 0 {
        blocks.append(
          Block(
            content: .sectionTitle("Contents"),
            frame: Rect(
              x: g.margin, y: top, width: g.bodyWidth, height: CataloguePlan.sectionTitleHeight)))
        top += CataloguePlan.sectionTitleHeight
      }
      let rows = p == 0 ? contents.rowsFirst : contents.rowsOther
      for column in 0..<2 {
        for row in 0..<rows where entryIndex < contents.entries.count {
          let (title, destination) = contents.entries[entryIndex]
          blocks.append(
            Block(
              content: .contentsEntry(
                title: title, destination: destination, page: page(of: destination)),
              frame: Rect(
                x: g.margin + Double(column) * (columnWidth + CataloguePlan.contentsColumnGap),
                y: top + Double(row) * CataloguePlan.contentsRow, width: columnWidth,
                height: CataloguePlan.contentsRow)))
          entryIndex += 1
        }
      }
      pages[1 + p].blocks = blocks
    }
  }

  /// The page a contents entry or bookmark leads to.
  func page(of destination: Destination) -> Int {
    switch destination {
    case .family(let i): return familyPages[i]
    case .pairings: return pairingsPage ?? savedPage
    case .saved: return savedPage
    case .contents: return 2
    case .proofs(let i): return proofPages[i] ?? familyPages[i]
    case .faces(let i): return facesPages[i] ?? familyPages[i]
    case .glyphs(let i), .glyphBlock(let i, _): return glyphPages[i] ?? familyPages[i]
    }
  }

  static func pairingHeight(
    _ p: FamilyPairing<FontFamily>, _ input: CatalogueInput<FontFamily>, _ g: Geometry
  ) -> Double {
    let headingSize = estimatedFittingSize(
      input.text, size: pairingHeadingSize, width: g.contentWidth, minimum: 10)
    let heading = min(3, estimatedLines(input.text, size: headingSize, width: g.contentWidth))
    let body = estimatedLines(pairingParagraph, size: pairingBodySize, width: g.contentWidth)
    let reason = p.reason.isEmpty ? 0 : estimatedLines(p.reason, size: 9, width: g.contentWidth)
    return
      (16 + Double(heading) * headingSize * 1.2 + 12
      + Double(body) * pairingBodySize * 1.5 + (reason > 0 ? 10 + Double(reason) * 9 * 1.4 : 0))
      .rounded(.up)
  }

  // MARK: Estimates

  /// An estimate of how wide `text` sets at `size`: half an em for most characters, a full em
  /// for wide (CJK) ones, nothing for marks. Deliberately font-independent.
  static func estimatedWidth(_ text: String, size: Double) -> Double {
    var ems = 0.0
    for s in text.unicodeScalars { ems += estimatedEms(s) }
    return ems * size
  }

  /// The width `estimatedWidth` gives one character, in ems.
  static func estimatedEms(_ s: Unicode.Scalar) -> Double {
    switch s.value {
    case 0x0300...0x036F, 0x0591...0x05C7, 0x064B...0x065F, 0x0900...0x0903, 0x093A...0x094F,
      0x0981...0x0983, 0x09BC...0x09D7, 0x200B...0x200F, 0xFE00...0xFE0F:
      return 0
    case 0x20: return 0.28
    case 0x41...0x5A, 0x30...0x39: return 0.62
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
      0x1F300...0x1FAFF, 0x20000...0x3FFFF:
      return 1.0
    default: return 0.52
    }
  }

  /// The size the writer will likely set `text` at so that its widest word fits `width`: a
  /// word wider than the measure makes the text smaller rather than being broken. A word is a
  /// run of characters between spaces; CJK characters, and Thai, Lao, Khmer and Myanmar
  /// (written without spaces, broken by Pango's dictionaries), count one character at a time.
  static func estimatedFittingSize(_ text: String, size: Double, width: Double, minimum: Double)
    -> Double
  {
    var widest = 0.0
    var word = 0.0
    for s in text.unicodeScalars {
      let unit = estimatedEms(s) * size
      switch s.value {
      case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x1100...0x115F, 0x2E80...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFF:
        widest = max(widest, word, unit)
        word = 0
      default:
        if s.properties.isWhitespace {
          widest = max(widest, word)
          word = 0
        } else {
          word += unit
        }
      }
    }
    widest = max(widest, word) * 1.08  // the slack `estimatedLines` allows
    guard widest > width, widest > 0 else { return size }
    return max(minimum, min(size, size * width / widest))
  }

  /// Lines `text` wraps to at `size` in `width`, each paragraph (line break) at least one.
  static func estimatedLines(_ text: String, size: Double, width: Double) -> Int {
    guard width > 0 else { return 1 }
    var lines = 0
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let w = estimatedWidth(String(paragraph), size: size) * 1.08  // word-wrap slack
      lines += max(1, Int((w / width).rounded(.up)))
    }
    return max(1, lines)
  }
}
