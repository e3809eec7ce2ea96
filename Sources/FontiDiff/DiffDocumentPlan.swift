import Foundation

/// Where everything of `diff.pdf` goes, worked out before anything is drawn (so the summary can
/// give page numbers and every page its "N of M"): pure arithmetic on the comparison's result.
///
/// A4 portrait. The cover has the counts and starts the table of families by status (changed,
/// added, removed, failed, then the unchanged ones three to a row), continued on summary pages.
/// Each changed family then gets its pages: a header, its changes in words, the sample before /
/// after / overlay, a grid of its largest glyph changes (before, after, overlay each), its
/// shaping changes, its changed vertical metrics as lines over the sample, the sample at each
/// named instance added or removed, and some of its added and removed characters, drawn; each added or removed family a short page: its
/// files, faces, axes, instances, features, languages, and its sample as it sets it.
struct DiffDocumentPlan {
  struct Geometry {
    var width = 595.2756
    var height = 841.8898
    var margin = 48.0
    var contentWidth: Double { width - 2 * margin }
    var right: Double { width - margin }
    var headTop = 24.0
    var headRule = 38.0
    var bodyTop = 58.0
    var bodyBottom: Double { height - 50 }
    var footRule: Double { height - 40 }
    var footTop: Double { height - 33 }
    /// The cover's head (title, sides, counts, facts) before the table starts.
    var coverTableTop = 392.0
    var rowHeight = 17.0
    /// The width of a family row's summary, and of a failed family's reason under it.
    var reasonWidth: Double { contentWidth - 212 - 34 }
    var headingHeight = 30.0
    /// Sample bands: label column, largest and smallest em size, tallest band.
    var sampleLabelWidth = 64.0
    var sampleMaximumEm = 26.0
    var sampleMinimumEm = 7.0
    var sampleMaximumBand = 150.0
    var glyphColumns = 2
    var glyphRowHeight = 124.0
    var glyphPanelHeight = 90.0
    /// Added and removed characters: a panel each, eight to a row.
    var characterColumns = 8
    var characterPanelHeight = 54.0
    var characterRowHeight = 86.0
    var lineHeight = 14.5
    /// A change in words: its width, and the height of each line after its first.
    var changeWidth: Double { contentWidth - 12 }
    var changeLineHeight = 12.5
    /// The vertical metrics picture, its heading included.
    var metricsHeight = 190.0
  }

  /// One line of the families table.
  enum Item: Equatable {
    case heading(String)
    case family(Int)
    /// Why the family before could not be compared, in full on `lines` lines.
    case reason(Int, lines: Int)
    /// Unchanged families, several to a line.
    case names([Int])
  }

  /// The most lines a failed family's reason takes on the cover.
  static let mostReasonLines = 4
  /// Height of a line of a failed family's reason.
  static let reasonLineHeight = 11.0

  /// How many lines `text` takes, estimated, at 8 pt in `width` (half an em a character on
  /// average; a path runs wider than prose), at most `mostReasonLines`.
  static func reasonLines(_ text: String, width: Double) -> Int {
    let perLine = max(1, Int(width / (8 * 0.55)))
    return min(mostReasonLines, max(1, (text.count + perLine - 1) / perLine))
  }

  /// A block of a family's pages, with its height.
  enum Block: Equatable {
    case header
    case continued
    case changesHeading(String)
    /// A change in words, wrapped after whole words on `lines` lines.
    case change(String, lines: Int = 1)
    /// The sample's bands (one when `same`: nothing of it differs).
    case sample(lines: Int, em: Double, band: Double, same: Bool)
    case glyphsHeading(shown: Int, total: Int)
    case glyphRow([Int])
    case moreGlyphs(Int)
    /// Characters added (or removed): `shown` of `total` drawn below.
    case charactersHeading(added: Bool, shown: Int, total: Int)
    case characterRow(added: Bool, [Int])
    /// Shaping changes (`FamilyOutcome.shapingImages`), two a row; the first row has the heading.
    case shapingRow([Int], first: Bool)
    /// The changed vertical metrics as lines over the start of the sample, before and after.
    case metrics
    /// A named instance added or removed (`FamilyOutcome.instanceImages[index]`): the sample
    /// set at it, from its side.
    case instance(Int, em: Double, band: Double)
    /// The heading of the table of changes with nothing to draw (`undrawnChanges`), and a row
    /// of it: the change's index there, what changed on `lines` lines.
    case changeTableHeading(Int)
    case changeRow(Int, lines: Int)
  }

  struct Placed: Equatable {
    var block: Block
    var y: Double
    var height: Double
  }

  enum Kind: Equatable {
    case cover(items: Range<Int>)
    case summary(items: Range<Int>)
    case family(Int, part: Int, blocks: [Placed])
  }

  struct Page: Equatable {
    var number: Int
    var kind: Kind
  }

  let geometry = Geometry()
  var items: [Item] = []
  var pages: [Page] = []
  /// The first page of each changed family, by its index in the result.
  var familyPages: [Int: Int] = [:]

  init(_ result: DiffResult) {
    items = DiffDocumentPlan.tableItems(result.report.families, reasonWidth: geometry.reasonWidth)
    paginateTable()
    for index in result.outcomes.indices {
      let status = result.outcomes[index].entry.status
      guard [.changed, .added, .removed].contains(status) else { continue }
      let outcome = result.outcome(at: index)
      guard let blocks = familyBlocks(outcome) else { continue }
      familyPages[index] = pages.count + 1
      for (part, placed) in familyParts(blocks, outcome).enumerated() {
        pages.append(
          Page(number: pages.count + 1, kind: .family(index, part: part, blocks: placed)))
      }
    }
  }

  /// The families table: a heading and a row for each family by status (changed, added,
  /// removed, failed with its reason), then the unchanged ones three to a row.
  static func tableItems(_ families: [DiffReport.Family], reasonWidth: Double) -> [Item] {
    func indices(_ status: DiffReport.Status) -> [Int] {
      families.indices.filter { families[$0].status == status }
    }
    var items: [Item] = []
    let groups: [(String, DiffReport.Status)] = [
      ("Changed", .changed), ("Added", .added), ("Removed", .removed), ("Failed", .failed),
    ]
    for (title, status) in groups {
      let members = indices(status)
      guard !members.isEmpty else { continue }
      items.append(.heading("\(title) · \(members.count)"))
      for member in members {
        items.append(.family(member))
        if status == .failed, let error = families[member].error {
          items.append(.reason(member, lines: reasonLines(error, width: reasonWidth)))
        }
      }
    }
    let unchanged = indices(.unchanged)
    if !unchanged.isEmpty {
      items.append(.heading("Unchanged · \(unchanged.count)"))
      for start in stride(from: 0, to: unchanged.count, by: 3) {
        items.append(.names(Array(unchanged[start..<min(start + 3, unchanged.count)])))
      }
    }
    return items
  }

  /// The cover and the summary pages: the table's items, as many as fit each page.
  private mutating func paginateTable() {
    let g = geometry
    var start = 0
    var top = g.coverTableTop
    var first = true
    repeat {
      var y = top
      var end = start
      while end < items.count {
        let h = height(items[end])
        // A heading never ends a page.
        let next = end + 1 < items.count ? height(items[end + 1]) : 0
        if y + h + (isHeading(items[end]) ? next : 0) > g.bodyBottom { break }
        y += h
        end += 1
      }
      if end == start && start < items.count { end = start + 1 }  // never stall
      pages.append(
        Page(
          number: pages.count + 1,
          kind: first ? .cover(items: start..<end) : .summary(items: start..<end)))
      first = false
      start = end
      top = g.bodyTop + g.headingHeight
    } while start < items.count
  }

  /// A changed, added or removed family's blocks before its characters: its header, its
  /// changes in words (an added or removed family's profile), its sample, glyphs, shaping,
  /// metrics and instances. nil for an added or removed family without a profile.
  func familyBlocks(_ outcome: FamilyOutcome) -> [Block]? {
    let g = geometry
    var blocks: [Block] = [.header]
    switch outcome.entry.status {
    case .added, .removed:
      guard let profile = outcome.profile else { return nil }
      blocks.append(
        .changesHeading(outcome.entry.status == .added ? "New family" : "Family removed"))
      blocks += profile.lines.map(changeBlock)
    default:
      blocks.append(.changesHeading("What changed"))
      blocks += outcome.entry.summary.map(changeBlock)
    }
    if let sample = outcome.sample {
      let fit = fit(sample)
      let band = DiffDocumentPlan.bandHeight(lines: fit.lines.count, em: fit.em)
      blocks.append(.sample(lines: fit.lines.count, em: fit.em, band: band, same: sample.isSame))
    }
    let shown = outcome.glyphImages.count
    if shown > 0 {
      let total = outcome.entry.glyphs.count + outcome.entry.glyphsMoved.count
      blocks.append(.glyphsHeading(shown: shown, total: total))
      for rowStart in stride(from: 0, to: shown, by: g.glyphColumns) {
        blocks.append(.glyphRow(Array(rowStart..<min(rowStart + g.glyphColumns, shown))))
      }
      if total > shown { blocks.append(.moreGlyphs(total - shown)) }
    }
    let shaping = outcome.shapingImages.count
    for rowStart in stride(from: 0, to: shaping, by: 2) {
      blocks.append(
        .shapingRow(Array(rowStart..<min(rowStart + 2, shaping)), first: rowStart == 0))
    }
    if outcome.sample != nil, !DiffDrawing.metricLines(outcome.entry.metrics).isEmpty {
      blocks.append(.metrics)
    }
    for (n, image) in outcome.instanceImages.enumerated() {
      let fit = fit(image)
      let band = DiffDocumentPlan.bandHeight(lines: fit.lines.count, em: fit.em)
      blocks.append(.instance(n, em: fit.em, band: band))
    }
    if outcome.entry.status == .changed {
      let undrawn = DiffDrawing.undrawnChanges(outcome.entry)
      if !undrawn.isEmpty { blocks.append(.changeTableHeading(undrawn.count)) }
      for (n, change) in undrawn.enumerated() {
        blocks.append(.changeRow(n, lines: changeRowLines(change)))
      }
    }
    return blocks
  }

  /// The most lines a row of the table of changes takes.
  static let mostChangeRowLines = 4

  /// How many lines what changed takes in its column at 8 pt (a little wide, never fewer than
  /// it needs), at most `mostChangeRowLines`.
  func changeRowLines(_ change: DiffReport.Change) -> Int {
    let width = DiffDrawing.changeColumns(width: geometry.contentWidth).what - 6.4
    let perLine = max(1, Int(width / (8 * 0.6)))
    let text = DiffDrawing.changeCells(change).what
    return min(DiffDocumentPlan.mostChangeRowLines, max(1, (text.count + perLine - 1) / perLine))
  }

  /// A change in words on a family's page, on as many lines as it takes (estimated at 9.5 pt
  /// a little wide, so that a line is never cut).
  func changeBlock(_ text: String) -> Block {
    let perLine = max(1, Int(geometry.changeWidth / (9.5 * 0.6)))
    return .change(text, lines: max(1, (text.count + perLine - 1) / perLine))
  }

  /// A sample on a family's page: its lines at the largest em size that fits beside the band
  /// labels, in a band at most `sampleMaximumBand` tall.
  func fit(_ sample: SampleChange) -> (lines: [[(paragraph: Int, word: Int)]], em: Double) {
    let g = geometry
    return sample.fit(
      width: g.contentWidth - g.sampleLabelWidth, height: g.sampleMaximumBand,
      minimum: g.sampleMinimumEm, maximum: g.sampleMaximumEm)
  }

  /// A family's pages: `blocks` (its header, changes, sample and glyphs), then its characters.
  /// A last page holding a row or two of characters is saved, when it can be, by drawing fewer
  /// of the added characters (a few from each block still: `CharacterSpread`).
  func familyParts(_ blocks: [Block], _ outcome: FamilyOutcome) -> [[Placed]] {
    let columns = geometry.characterColumns
    let addedRows = (outcome.charactersAdded.count + columns - 1) / columns
    let parts = paginate(blocks + characterBlocks(outcome, addedRows: addedRows))
    guard parts.count > 1, isShort(parts[parts.count - 1]), addedRows > 1 else { return parts }
    for rows in stride(from: addedRows - 1, through: 1, by: -1) {
      let fewer = paginate(blocks + characterBlocks(outcome, addedRows: rows))
      if fewer.count < parts.count { return fewer }
    }
    return parts
  }

  /// The sections of a family's added and removed characters, with at most `addedRows` rows of
  /// the added ones (chosen again from those drawn, a few from each block, when fewer).
  func characterBlocks(_ outcome: FamilyOutcome, addedRows: Int) -> [Block] {
    let g = geometry
    var blocks: [Block] = []
    let added = outcome.charactersAdded
    var addedShown = Array(added.indices)
    if added.count > addedRows * g.characterColumns {
      let kept = Set(
        CharacterSpread.pick(added.map(\.scalar), limit: addedRows * g.characterColumns))
      addedShown = added.indices.filter { kept.contains(added[$0].scalar) }
    }
    for (isAdded, shown, total) in [
      (true, addedShown, outcome.entry.codepoints.added.count),
      (false, Array(outcome.charactersRemoved.indices), outcome.entry.codepoints.removed.count),
    ] where !shown.isEmpty {
      blocks.append(.charactersHeading(added: isAdded, shown: shown.count, total: total))
      for rowStart in stride(from: 0, to: shown.count, by: g.characterColumns) {
        blocks.append(
          .characterRow(
            added: isAdded, Array(shown[rowStart..<min(rowStart + g.characterColumns, shown.count)])
          ))
      }
    }
    return blocks
  }

  /// A family's blocks on its pages: a continuation header atop each page after the first;
  /// headings kept with what follows them.
  func paginate(_ blocks: [Block]) -> [[Placed]] {
    let g = geometry
    var parts: [[Placed]] = []
    var placed: [Placed] = []
    var y = g.bodyTop
    for (n, block) in blocks.enumerated() {
      let h = height(block)
      let keep: Double
      switch block {
      case .changesHeading, .glyphsHeading, .charactersHeading, .changeTableHeading:
        keep = n + 1 < blocks.count ? height(blocks[n + 1]) : 0
      default: keep = 0
      }
      if y + h + keep > g.bodyBottom, !placed.isEmpty {
        parts.append(placed)
        placed = [Placed(block: .continued, y: g.bodyTop, height: height(.continued))]
        y = g.bodyTop + height(.continued)
      }
      placed.append(Placed(block: block, y: y, height: h))
      y += h
    }
    parts.append(placed)
    return parts
  }

  /// Whether a page's blocks end in the top quarter of the body.
  func isShort(_ page: [Placed]) -> Bool {
    let g = geometry
    let end = page.map { $0.y + $0.height }.max() ?? g.bodyTop
    return end - g.bodyTop < (g.bodyBottom - g.bodyTop) / 4
  }

  /// A sample band: the lines at `em`, with room above the first baseline and below the last.
  static func bandHeight(lines: Int, em: Double) -> Double {
    (Double(max(lines, 1)) - 1) * DiffSettings.sampleLineHeight * em + em * 1.35 + 12
  }

  func height(_ item: Item) -> Double {
    switch item {
    case .heading: return geometry.headingHeight
    case .reason(_, let lines): return Double(lines) * DiffDocumentPlan.reasonLineHeight + 4
    case .family, .names: return geometry.rowHeight
    }
  }

  func isHeading(_ item: Item) -> Bool {
    if case .heading = item { return true }
    return false
  }

  func height(_ block: Block) -> Double {
    let g = geometry
    switch block {
    case .header: return 84
    case .continued: return 34
    case .changesHeading: return 22
    case .change(_, let lines): return g.lineHeight + Double(lines - 1) * g.changeLineHeight
    case .sample(_, _, let band, let same): return 30 + (same ? band : 3 * band + 34) + 8
    case .glyphsHeading: return 44
    case .glyphRow: return g.glyphRowHeight
    case .moreGlyphs: return 20
    case .charactersHeading: return 44
    case .characterRow: return g.characterRowHeight
    case .shapingRow(_, let first): return first ? 148 : 132
    case .metrics: return g.metricsHeight
    case .instance(_, _, let band): return 30 + band + 8
    case .changeTableHeading: return 30
    case .changeRow(_, let lines): return Double(lines) * 10.4 + 4
    }
  }
}
