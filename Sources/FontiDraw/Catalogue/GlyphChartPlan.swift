import FontiFonts
import FontiModel

/// The pages of a family's glyph chart (`proofs.glyphs`), worked out before anything is drawn:
/// every encoded character in a grid, block by block (`UnicodeBlocks.group`), a cell per
/// character with its code point as the label, as many pages as needed. Each block starts with
/// a heading; a block that runs onto the next page repeats its heading there, "(continued)".
/// Pure data, like `CataloguePlan`; the catalogue writer draws it.
public struct GlyphChartPlan: Sendable, Hashable {
  /// Where the chart goes on each page and how big its pieces are (points).
  public struct Layout: Sendable, Hashable {
    /// The part of each page the chart fills.
    public var area: CataloguePlan.Rect
    public var columns = 16
    /// A cell: the glyph, and its code point under it.
    public var cellHeight = 40.0
    public var headingHeight = 22.0
    /// Space above a heading that is not at the top of a page.
    public var headingGap = 10.0

    public init(area: CataloguePlan.Rect) {
      self.area = area
    }

    /// The body of a catalogue page of `size` (inside the running head and foot).
    public init(page size: PageSize) {
      let g = CataloguePlan.Geometry(size)
      area = CataloguePlan.Rect(x: g.margin, y: g.bodyTop, width: g.bodyWidth, height: g.bodyHeight)
    }

    public var cellWidth: Double { area.width / Double(max(1, columns)) }
  }

  /// One character's cell.
  public struct Cell: Sendable, Hashable {
    public var codePoint: UInt32
    /// The code point in hex, without `U+` ("1EA0").
    public var label: String
    public var frame: CataloguePlan.Rect
  }

  /// A block's name over its cells.
  public struct Heading: Sendable, Hashable {
    public var block: String
    /// nil for the "No block" and "Unknown block" groups.
    public var range: ClosedRange<UInt32>?
    /// The block began on an earlier page.
    public var continued: Bool
    public var frame: CataloguePlan.Rect

    /// "Latin Extended-A", "Latin Extended-A (continued)".
    public var text: String { continued ? block + " (continued)" : block }
  }

  public struct Page: Sendable, Hashable {
    public var headings: [Heading] = []
    public var cells: [Cell] = []
  }

  /// The most cells a chart draws (a font can map every code point to glyphs); the rest are
  /// counted in `omitted`.
  public static let maximumCells = 65_536

  public var layout: Layout
  public var pages: [Page]
  /// Characters left out past `maximumCells`.
  public var omitted: Int

  /// The number of cells, over all pages.
  public var cellCount: Int { pages.reduce(0) { $0 + $1.cells.count } }

  /// Each block's first page (0-based, within the chart), in order: the bookmarks under the
  /// family.
  public var outline: [(block: String, page: Int)] {
    var out: [(String, Int)] = []
    for (n, page) in pages.enumerated() {
      for heading in page.headings where !heading.continued { out.append((heading.block, n)) }
    }
    return out
  }

  /// Lays out `groups` (block order, as `UnicodeBlocks.group` gives them).
  public init(groups: [UnicodeBlocks.Group], layout: Layout) {
    self.layout = layout
    let area = layout.area
    let bottom = area.y + area.height
    let cellWidth = layout.cellWidth
    let columns = max(1, layout.columns)
    var pages: [Page] = []
    var page = Page()
    var y = area.y
    var atTop = true
    var budget = GlyphChartPlan.maximumCells
    var omitted = 0

    func newPage() {
      pages.append(page)
      page = Page()
      y = area.y
      atTop = true
    }
    func heading(_ group: UnicodeBlocks.Group, continued: Bool, gap: Double) {
      page.headings.append(
        Heading(
          block: group.name, range: group.range, continued: continued,
          frame: CataloguePlan.Rect(
            x: area.x, y: y + gap, width: area.width, height: layout.headingHeight)))
      y += gap + layout.headingHeight
      atTop = false
    }

    for group in groups {
      let take = min(budget, group.codePoints.count)
      omitted += group.codePoints.count - take
      budget -= take
      guard take > 0 else { continue }
      // A heading never ends a page: it needs one row under it.
      if !atTop && y + layout.headingGap + layout.headingHeight + layout.cellHeight > bottom {
        newPage()
      }
      heading(group, continued: false, gap: atTop ? 0 : layout.headingGap)
      var start = 0
      while start < take {
        if y + layout.cellHeight > bottom && !atTop {
          newPage()
          heading(group, continued: true, gap: 0)
        }
        let end = min(take, start + columns)
        for (column, codePoint) in group.codePoints[start..<end].enumerated() {
          page.cells.append(
            Cell(
              codePoint: codePoint, label: CodePointText.hex(codePoint),
              frame: CataloguePlan.Rect(
                x: area.x + Double(column) * cellWidth, y: y, width: cellWidth,
                height: layout.cellHeight)))
        }
        y += layout.cellHeight
        atTop = false
        start = end
      }
    }
    if !page.cells.isEmpty || !page.headings.isEmpty { pages.append(page) }
    self.pages = pages
    self.omitted = omitted
  }
}

extension GlyphChartPlan {
  /// A text form for golden tests: a summary line, then per page its headings and one line per
  /// row of cells with their labels.
  public func dump() -> String {
    let f = CataloguePlan.format
    var out =
      "Glyph chart: \(cellCount) cells, \(pages.count) pages, \(layout.columns) columns, "
      + "cell \(f(layout.cellWidth)) × \(f(layout.cellHeight)) pt"
      + (omitted > 0 ? ", \(omitted) omitted" : "") + "\n"
    for (n, page) in pages.enumerated() {
      out += "Page \(n + 1)\n"
      var headings = page.headings[...]
      var rows: [(y: Double, x: Double, labels: [String])] = []
      for cell in page.cells {
        if let last = rows.last, last.y == cell.frame.y {
          rows[rows.count - 1].labels.append(cell.label)
        } else {
          rows.append((cell.frame.y, cell.frame.x, [cell.label]))
        }
      }
      for row in rows {
        while let heading = headings.first, heading.frame.y < row.y {
          out += "  heading \"\(heading.text)\""
          if let range = heading.range {
            out +=
              " \(CodePointText.format(range.lowerBound))–\(CodePointText.format(range.upperBound))"
          }
          out += " at (\(f(heading.frame.x)), \(f(heading.frame.y)))\n"
          headings = headings.dropFirst()
        }
        out += "  row at (\(f(row.x)), \(f(row.y))): \(row.labels.joined(separator: " "))\n"
      }
    }
    return out
  }
}
