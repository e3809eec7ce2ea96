/// Places items down pages: a header on the first page, a smaller one on continuation pages,
/// rules never left alone at the bottom of a page, a waterfall kept whole when it fits on a
/// page and the page it leaves is well used (a continuation page holding its last line or two,
/// with the page before holding the rest, reads as two waterfalls; a page two-thirds empty
/// before a whole waterfall reads as a mistake), and no item taller than a page.
struct Flow {
  let geometry: CataloguePlan.Geometry
  let first: Int
  var pages: [[CataloguePlan.Block]] = []

  /// `items` placed; when the last page would hold only a line or two (the end of a feature
  /// list, a lone Languages note), set with three quarters of their spaces, else half, if that
  /// saves the page. A waterfall is kept whole unless that costs a page: Noto Nastaliq Urdu's
  /// lines, kept whole, fill its second page and push its styles row onto a third.
  static func laidOut(
    _ items: [CataloguePlan.Item], geometry: CataloguePlan.Geometry, first: Int,
    header: (CataloguePlan.Content, Double), continued: (CataloguePlan.Content, Double)?
  ) -> Flow {
    func laidOut(keepingRuns: Bool) -> Flow {
      var flow = Flow(geometry: geometry, first: first)
      flow.place(items, header: header, continued: continued, keepingRuns: keepingRuns)
      guard flow.lastPageIsShort else { return flow }
      for factor in [0.75, 0.5] {
        var tight = Flow(geometry: geometry, first: first)
        tight.place(
          items.map { $0.tightened(factor) }, header: header, continued: continued,
          keepingRuns: keepingRuns)
        if tight.pages.count < flow.pages.count { return tight }
      }
      return flow
    }
    let kept = laidOut(keepingRuns: true)
    guard kept.pages.count > 1 else { return kept }
    let split = laidOut(keepingRuns: false)
    return split.pages.count < kept.pages.count ? split : kept
  }

  /// Whether the last page's blocks (its continued header aside) end in the top quarter of
  /// the body.
  var lastPageIsShort: Bool {
    guard pages.count > 1, let last = pages.last, let end = last.map(\.frame.bottom).max() else {
      return false
    }
    let g = geometry
    return end - g.bodyTop < (g.bodyBottom - g.bodyTop) / 4
  }

  /// The share of a page's body a page must use before a run that does not fit moves whole to
  /// the next page.
  static let wellUsed = 0.7

  init(geometry: CataloguePlan.Geometry, first: Int) {
    self.geometry = geometry
    self.first = first
  }

  /// Places `items` down pages. `keepingRuns`: a run of items each kept with the next starts
  /// a page rather than break when it fits on one; without, it flows item by item.
  mutating func place(
    _ items: [CataloguePlan.Item], header: (CataloguePlan.Content, Double),
    continued: (CataloguePlan.Content, Double)?, keepingRuns: Bool = true
  ) {
    let g = geometry
    var blocks: [CataloguePlan.Block] = []
    var y = g.bodyTop
    func block(_ c: CataloguePlan.Content, _ top: Double, _ h: Double, x: Double? = nil)
      -> CataloguePlan.Block
    {
      let left = x ?? g.margin
      return CataloguePlan.Block(
        content: c, frame: CataloguePlan.Rect(x: left, y: top, width: g.right - left, height: h))
    }
    blocks.append(block(header.0, y, header.1))
    y += header.1
    var atTop = false
    // The last item of the run that item `i` starts or belongs to.
    var runEnd = -1
    let room = g.bodyBottom - g.bodyTop - (continued?.1 ?? 0)
    var i = 0
    while i < items.count {
      let item = items[i]
      let isRule = item.content == .rule
      let before = atTop ? 0 : item.before
      // A rule (or a title) travels with the item after it; a run of items each kept with the
      // next (a waterfall) goes to the next page whole when it fits on one, and line by line
      // when it does not.
      var needed = before + item.height
      var wholeRun = false
      let next = i + 1 < items.count ? items[i + 1].before + items[i + 1].height : 0
      if i > runEnd {
        runEnd = i
        while runEnd + 1 < items.count, items[runEnd].keepWithNext || items[runEnd].content == .rule
        {
          runEnd += 1
        }
        let run = items[i...runEnd]
        let here = run.dropFirst().reduce(before + item.height) { $0 + $1.before + $1.height }
        // At the top of a page the run's rules are dropped and its first item has no space
        // above it; a hundredth of a point spare, for sums taken in another order below.
        let top = run.reduce(into: (height: 0.0, atTop: true)) { sum, item in
          if item.content == .rule && sum.atTop { return }
          sum.height += (sum.atTop ? 0 : item.before) + item.height
          sum.atTop = false
        }
        // A run that does not fit here moves whole only from a page already well used: a
        // page is never continued with most of it empty for a waterfall kept in one piece.
        let fits =
          keepingRuns && top.height < room - 0.01
          && (y + here <= g.bodyBottom
            || y - g.bodyTop >= Flow.wellUsed * (g.bodyBottom - g.bodyTop))
        needed = fits ? here : needed + (isRule || item.keepWithNext ? next : 0)
        wholeRun = fits
      } else if isRule {
        needed += next
      }
      if y + needed + (wholeRun ? 0 : item.overhang) > g.bodyBottom && !atTop {
        pages.append(blocks)
        blocks = []
        y = g.bodyTop
        if let continued {
          blocks.append(block(continued.0, y, continued.1))
          y += continued.1
        }
        atTop = true
        continue
      }
      if isRule {
        if !atTop { blocks.append(block(.rule, y + before, 0)) }
        y += atTop ? 0 : before
        i += 1
        continue
      }
      let height = min(item.height, g.bodyBottom - y - before)
      blocks.append(block(item.content, y + before, max(0, height)))
      y += before + height
      atTop = false
      i += 1
    }
    pages.append(blocks)
  }
}
