import FontiFonts
import FontiModel
import FontiSupport
import FontiText

/// A family's own pages as the plan lays them out: the items of its page (sample, texts,
/// waterfall, style grid, faces, partners) and of its weights page.
extension CataloguePlan {
  // MARK: Family pages

  /// One piece of a flowing section: what it is, its height, and the space above it (dropped
  /// at the top of a page).
  struct Item {
    var content: Content
    var height: Double
    var before: Double
    /// Kept on the page of the item after it, like a rule (a proof section's title). A run of
    /// such items (a waterfall's lines) starts a page rather than break when it fits on one.
    var keepWithNext: Bool
    /// Ink below the item's frame (a waterfall line drawn up under the one above it): the
    /// page must still hold it when the item is the last on it.
    var overhang = 0.0
    init(_ content: Content, height: Double, before: Double, keepWithNext: Bool = false) {
      self.content = content
      self.height = height
      self.before = before
      self.keepWithNext = keepWithNext
    }

    /// The item with `factor` of its space above.
    func tightened(_ factor: Double) -> Item {
      var item = self
      item.before *= factor
      return item
    }
  }

  static func familyItems(
    _ i: Int, _ family: FontFamily, _ input: CatalogueInput<FontFamily>, _ g: Geometry,
    ink: LineInk? = nil, grid known: Int?? = nil
  ) -> [Item] {
    var items: [Item] = []
    let ownScript = FallbackSample.showsOwnScript(
      input.text, language: input.sample?.language, family: family)
    let grid = ownScript ? known ?? gridInPlaceOfText(family, input) : nil
    let sampleNatural =
      grid.map { gridHeight($0, width: g.contentWidth, columns: 10) }
      ?? sampleHeight(input.text, size: input.size, ownScript: ownScript, width: g.contentWidth)
    items.append(
      Item(
        .sample(
          family: i, size: input.size, ownScript: ownScript, gridInPlaceOfText: grid != nil),
        height: sampleNatural,
        before: 14))

    if !input.texts.isEmpty {
      items.append(Item(.rule, height: 0, before: 12))
      for (n, text) in input.texts.enumerated() {
        let size = estimatedFittingSize(text, size: textSize, width: g.contentWidth, minimum: 6)
        let lines = estimatedLines(text, size: size, width: g.contentWidth)
        items.append(
          Item(
            .text(family: i, index: n, size: textSize), height: Double(lines) * size * 1.4,
            before: n == 0 ? 12 : 5))
      }
    }
    if !input.sizes.isEmpty {
      items.append(Item(.rule, height: 0, before: 12))
      let rows = waterfallRows(
        input.sizes, ink: ink, width: g.contentWidth, room: g.bodyHeight - familyHeaderHeight)
      for (n, (size, row)) in zip(input.sizes, rows).enumerated() {
        var item = Item(
          .waterfall(family: i, size: size, baseline: row.baseline), height: row.height,
          before: n == 0 ? 10 : 0, keepWithNext: n + 1 < input.sizes.count)
        item.overhang = row.overhang
        items.append(item)
      }
    }
    let cells = CataloguePlan.styleCells(family, input.styles)
    if !cells.isEmpty {
      items.append(Item(.rule, height: 0, before: 12))
      for row in stride(from: 0, to: cells.count, by: 4) {
        items.append(
          Item(
            .styles(family: i, cells: Array(cells[row..<min(row + 4, cells.count)]), row: row / 4),
            height: 34, before: row == 0 ? 12 : 8, keepWithNext: row + 4 < cells.count))
      }
    }
    // A family of up to four faces lists them on its page, unless the style grid shows each.
    let faces = family.distinctFaces
    if faces.count <= CataloguePlan.facesOnFamilyPage,
      !Set(faces).isSubset(of: Set(cells.compactMap(\.face)))
    {
      items.append(Item(.rule, height: 0, before: 12))
      for (n, face) in faces.enumerated() {
        items.append(
          Item(
            .faceLine(family: i, face: face, first: n == 0), height: CataloguePlan.faceLineHeight,
            before: n == 0 ? 10 : 2, keepWithNext: n + 1 < faces.count))
      }
    }
    let partners = input.partners(of: family)
    if !partners.isEmpty {
      items.append(Item(.rule, height: 0, before: 12))
      items.append(
        Item(
          .partners(family: i, names: partners.map { Sanitize.terminal($0.name) }), height: 22,
          before: 12))
    }

    // One page when it fits, letting the sample give up to 60 % of its height for that; a
    // grid of glyphs in place of the text spreads across the column, down to cells of
    // `smallestCell`, with the page's spaces halved (the flow halves them when that saves a
    // page).
    let total = familyHeaderHeight + items.reduce(0) { $0 + $1.before + $1.height }
    if total > g.bodyHeight {
      let spare = g.bodyHeight - (total - sampleNatural)
      if let grid {
        let halved = spare + items.reduce(0) { $0 + $1.before } / 2
        let least = gridHeight(
          grid, width: g.contentWidth, columns: Int(g.contentWidth / smallestCell))
        if halved >= least { items[0].height = min(sampleNatural, halved.rounded(.down)) }
      } else if spare >= sampleNatural * 0.4 {
        items[0].height = spare.rounded(.down)
      }
    }
    // The sample always starts on the family's first page, under the header: the writer fits
    // it to whatever frame it gets, so a page never shows a family's name and nothing of it.
    let firstPageRoom = g.bodyHeight - familyHeaderHeight - items[0].before
    items[0].height = min(items[0].height, max(0, firstPageRoom.rounded(.down)))
    return items
  }

  /// Faces a family page lists itself; a family of more gets a weights page.
  static let facesOnFamilyPage = 4
  /// A face's line: its name and the sample set at `faceLineSize`.
  static let faceLineSize = 18.0
  static let faceLineHeight = 24.0

  /// The cells of the style grid `styles` asks for: one per item (each face once), or one per
  /// face for `all`.
  static func styleCells(_ family: FontFamily, _ styles: StyleSelection) -> [StyleCell] {
    switch styles {
    case .all:
      return family.distinctFaces.map { StyleCell(asked: .face($0.style), face: $0) }
    case .picks(let picks):
      var seen = Set<StylePick>()
      return picks.filter { seen.insert($0).inserted }.map { pick in
        switch pick {
        case .slot(let style): return StyleCell(asked: pick, face: face(of: family, style))
        case .face(let name): return StyleCell(asked: pick, face: family.faces(named: name).first)
        }
      }
    }
  }

  /// The rows of a family's weights page: every face, when it has more than
  /// `facesOnFamilyPage`; none otherwise.
  static func weightsPageItems(_ i: Int, _ family: FontFamily) -> [Item] {
    let faces = family.distinctFaces
    guard faces.count > facesOnFamilyPage else { return [] }
    return faces.enumerated().map { n, face in
      Item(
        .faceLine(family: i, face: face, first: false), height: faceLineHeight,
        before: n == 0 ? 6 : 4)
    }
  }

  /// The real face a family page shows for `style`, if the family has one.
  static func face(of family: FontFamily, _ style: StyleName) -> FontFace? {
    switch style {
    case .regular: return family.face(bold: false, italic: false)
    case .bold: return family.face(bold: true, italic: false)
    case .italic: return family.face(bold: false, italic: true)
    case .boldItalic: return family.face(bold: true, italic: true)
    }
  }

  /// A waterfall line's frame: its height, and its baseline below the frame's top. Display
  /// leading (1.16 em, the baseline at 0.93 em) while the ink of what the line can show in
  /// `width` stays near it; a line whose ink reaches further gets a frame holding it, 0.08 em
  /// to spare above and below, so that the lines of a waterfall never overlap. Never taller
  /// than `room`.
  static func waterfallRow(_ size: Double, ink: LineInk?, width: Double, room: Double)
    -> (height: Double, baseline: Double)
  {
    let height = max(size * 1.16, 14).rounded(.up)
    let baseline = max(size * 0.93, 11)
    guard let reach = ink?.extent(within: width / size),
      reach.above > LineInk.usualAbove || reach.below > LineInk.usualBelow
    else { return (height, baseline) }
    let spare = 0.08 * size
    let inked = max(baseline, reach.above * size + spare)
    return (min(max(height, (inked + reach.below * size + spare).rounded(.up)), room), inked)
  }

  /// The frames of a waterfall's lines: each as `waterfallRow` gives it, then, between two
  /// lines inked beyond display leading, the next line drawn up until the ink of the glyphs
  /// that stand over one another (their ink's sides 0.08 em apart or closer) keeps 0.08 em
  /// apart, never closer than display leading: Nastaliq's cascades and a size font's radicals
  /// rise where the line above has no descent. A frame drawn up keeps the rest of its height
  /// as `overhang`: ink below the frame that the page must still hold when the line is the
  /// last on it.
  static func waterfallRows(_ sizes: [Double], ink: LineInk?, width: Double, room: Double)
    -> [(height: Double, baseline: Double, overhang: Double)]
  {
    var rows = sizes.map { size in
      let row = waterfallRow(size, ink: ink, width: width, room: room)
      return (height: row.height, baseline: row.baseline, overhang: 0.0)
    }
    guard let ink else { return rows }
    for n in rows.indices.dropLast() {
      let (a, b) = (sizes[n], sizes[n + 1])
      let usual = waterfallRow(a, ink: nil, width: width, room: room)
      let distance = rows[n].height - rows[n].baseline + rows[n + 1].baseline
      let leading =
        usual.height - usual.baseline + waterfallRow(b, ink: nil, width: width, room: room).baseline
      let upper = ink.shown(within: width / a)
      let lower = ink.shown(within: width / b)
      guard distance > leading + 0.5, upper.count * lower.count <= maximumInkPairs else {
        continue
      }
      let spare = 0.08 * max(a, b)
      var needed = leading
      for g in upper {
        for h in lower where g.left * a - spare < h.right * b && h.left * b - spare < g.right * a {
          needed = max(needed, g.below * a + h.above * b + spare)
        }
      }
      let height = (min(distance, needed) - rows[n + 1].baseline + rows[n].baseline).rounded(.up)
      guard height < rows[n].height else { continue }
      rows[n].overhang = rows[n].height - height
      rows[n].height = height
    }
    return rows
  }

  /// Glyph pairs of two waterfall lines compared, at most: beyond (a hostile font's glyphs of
  /// no advance, all shown), the lines keep the frames that hold each one's ink.
  static let maximumInkPairs = 250_000

  /// The glyphs a family page shows in a grid in place of the user's text, when the family
  /// has none of the text's characters and no language to show instead: a symbol font, a
  /// size font of math delimiters. Nil for any other family.
  static func gridInPlaceOfText(_ family: FontFamily, _ input: CatalogueInput<FontFamily>)
    -> Int?
  {
    guard FallbackSample.hasNone(of: input.text, coverage: family.coverage) else { return nil }
    return gridInPlaceOfText(
      input.text, family: family,
      fallback: FallbackSample.choose(for: family, preferGrid: false, text: input.text))
  }

  /// `gridInPlaceOfText(_:_:)` from the fallback already chosen for `text` (the waterfall
  /// line's, `PageDrawer.line` without the pictographic check); nil without one.
  static func gridInPlaceOfText(_ text: String, family: FontFamily, fallback: FallbackSample?)
    -> Int?
  {
    guard case .glyphGrid(let glyphs) = fallback,
      FallbackSample.hasNone(of: text, coverage: family.coverage)
    else { return nil }
    return glyphs.count
  }

  /// The smallest cell, in points, a glyph grid in place of the user's text is drawn with to
  /// keep a family on one page.
  static let smallestCell = 20.0

  /// The height of a grid of `count` glyphs in `columns` square cells across `width`.
  static func gridHeight(_ count: Int, width: Double, columns: Int) -> Double {
    let cell = width / Double(max(1, columns))
    return (Double(GlyphCell.rows(max(1, count), columns: max(1, columns))) * cell).rounded(.up)
  }

  static func sampleHeight(_ text: String, size: Double, ownScript: Bool, width: Double) -> Double {
    if !ownScript {
      let fitting = estimatedFittingSize(text, size: size, width: width, minimum: min(size, 8))
      let lines = min(8, estimatedLines(text, size: fitting, width: width))
      return (Double(lines) * fitting * 1.2).rounded(.up)
    }
    // "Your text" small, then the own-script sample at full size on up to two lines.
    let small = estimatedFittingSize(
      text, size: min(size, 16), width: width, minimum: min(size, 16, 8))
    let smallLines = min(4, estimatedLines(text, size: small, width: width))
    return (26 + Double(smallLines) * small * 1.35 + 34 + 2 * size * 1.3).rounded(.up)
  }
}
