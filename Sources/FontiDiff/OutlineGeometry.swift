import FontiText

/// An outline as the boundaries it draws, flattened to polylines in pixels: for telling, without
/// drawing, that two outlines in other formats (CFF's cubic curves against TrueType's quadratic
/// ones) are the same shape (#56).
///
/// Two outlines are the same shape when their contours pair off one to one, each pair wound the
/// same way (or every pair the other way: the whole glyph reversed fills the same under the
/// nonzero rule) and enclosing about the same area, and no point of either boundary lies half a
/// pixel or more from the other's (a Hausdorff distance, bounded from above). Anything else is
/// not decided here: the raster judges it (`GlyphRaster`).
struct OutlineGeometry {
  struct Point {
    var x: Double
    var y: Double
  }

  /// One closed polyline: its points (the last joins the first), box and signed area.
  struct Contour {
    var points: [Point]
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    /// Twice the signed area: its sign is the direction it is wound.
    var area = 0.0
    /// The length of the boundary.
    var perimeter = 0.0

    init(_ points: [Point]) {
      self.points = points
      for (k, p) in points.enumerated() {
        let q = points[(k + 1) % points.count]
        minX = min(minX, p.x)
        minY = min(minY, p.y)
        maxX = max(maxX, p.x)
        maxY = max(maxY, p.y)
        area += p.x * q.y - q.x * p.y
        perimeter += OutlineGeometry.length(p, q)
      }
    }

    /// Whether segment `hint`, or the one before or after it, lies within `reach` of both `p`
    /// and `q`; `hint` becomes that segment.
    func near(hint: inout Int, _ p: Point, _ q: Point, reach: Double) -> Bool {
      let count = points.count
      guard hint >= 0, hint < count else { return false }
      let next = hint + 1 == count ? 0 : hint + 1
      let previous = hint == 0 ? count - 1 : hint - 1
      for k in 0..<3 {
        let segment = k == 0 ? hint : k == 1 ? next : previous
        if close(segment, p.x, p.y, reach: reach) && close(segment, q.x, q.y, reach: reach) {
          hint = segment
          return true
        }
      }
      return false
    }

    /// Whether segment `k` (from point k to the next) lies within `reach` of (x, y).
    @inline(__always)
    func close(_ k: Int, _ x: Double, _ y: Double, reach: Double) -> Bool {
      let p = points[k]
      let q = points[k + 1 == points.count ? 0 : k + 1]
      let dx = q.x - p.x
      let dy = q.y - p.y
      let squared = dx * dx + dy * dy
      var t = squared > 0 ? ((x - p.x) * dx + (y - p.y) * dy) / squared : 0
      t = min(1, max(0, t))
      let ex = p.x + dx * t - x
      let ey = p.y + dy * t - y
      return ex * ex + ey * ey <= reach * reach
    }
  }

  var contours: [Contour]

  /// Flattened points of one outline, at most: a hostile glyph is left to the raster.
  static let maximumPoints = 1 << 17
  /// Contours of one outline, at most (their pairing is quadratic).
  static let maximumContours = 2048
  /// Coordinates beyond this many pixels from the origin are left to the raster.
  static let maximumExtent = 1e6

  /// `outline` scaled by `scale` pixels per font unit, each curve cut into lines that stray from
  /// it by no more than `tolerance` pixels; nil for an outline with coordinates that are not
  /// finite or far beyond any em, one whose commands and points disagree, or one too large.
  init?(_ outline: GlyphOutline, scale: Double, tolerance: Double) {
    guard scale.isFinite, scale > 0, tolerance > 0 else { return nil }
    let c = outline.coordinates
    var i = 0
    var contours: [Contour] = []
    var ring: [Point] = []
    var start: Point?
    var total = 0
    var failed = false
    func point() -> Point? {
      guard i + 1 < c.count else { return nil }
      defer { i += 2 }
      let p = Point(x: Double(c[i]) * scale, y: Double(c[i + 1]) * scale)
      let limit = OutlineGeometry.maximumExtent
      guard p.x.isFinite, p.y.isFinite, abs(p.x) < limit, abs(p.y) < limit else { return nil }
      return p
    }
    func add(_ p: Point) {
      if let last = ring.last, last.x == p.x, last.y == p.y { return }
      ring.append(p)
      total += 1
    }
    func finish() {
      if let first = ring.first, let last = ring.last, ring.count > 1, first.x == last.x,
        first.y == last.y
      {
        ring.removeLast()
      }
      // Fewer than three points enclose nothing.
      if ring.count > 2 { contours.append(Contour(ring)) }
      ring = []
    }
    /// Cuts a curve given by `at` (t in 0...1) into `n` lines.
    func curve(_ n: Int, _ at: (Double) -> Point) {
      for k in 1...n { add(at(Double(k) / Double(n))) }
    }
    for verb in outline.verbs {
      if total > OutlineGeometry.maximumPoints || failed { return nil }
      if verb != .move && verb != .close && ring.isEmpty, let start { ring = [start] }
      let from = ring.last
      switch verb {
      case .move:
        finish()
        guard let p = point() else { return nil }
        start = p
        add(p)
      case .line:
        guard let p = point() else { return nil }
        add(p)
      case .quadratic:
        guard let p0 = from, let p1 = point(), let p2 = point() else { return nil }
        // A chord of a parameter interval h strays by at most |p0 − 2p1 + p2| h² / 4.
        let d = OutlineGeometry.length(
          Point(x: p0.x - 2 * p1.x + p2.x, y: p0.y - 2 * p1.y + p2.y), Point(x: 0, y: 0))
        guard let n = OutlineGeometry.pieces(d / (4 * tolerance)) else {
          failed = true
          continue
        }
        curve(n) { t in
          let u = 1 - t
          return Point(
            x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
            y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
        }
      case .cubic:
        guard let p0 = from, let p1 = point(), let p2 = point(), let p3 = point() else {
          return nil
        }
        // |B''| ≤ 6 max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|); a chord strays by |B''| h² / 8.
        let zero = Point(x: 0, y: 0)
        let d = max(
          OutlineGeometry.length(
            Point(x: p0.x - 2 * p1.x + p2.x, y: p0.y - 2 * p1.y + p2.y), zero),
          OutlineGeometry.length(
            Point(x: p1.x - 2 * p2.x + p3.x, y: p1.y - 2 * p2.y + p3.y), zero))
        guard let n = OutlineGeometry.pieces(3 * d / (4 * tolerance)) else {
          failed = true
          continue
        }
        curve(n) { t in
          let u = 1 - t
          let (a, b, c, e) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
          return Point(
            x: a * p0.x + b * p1.x + c * p2.x + e * p3.x,
            y: a * p0.y + b * p1.y + c * p2.y + e * p3.y)
        }
      case .close:
        finish()
      }
    }
    finish()
    guard !failed, i == c.count, total <= OutlineGeometry.maximumPoints,
      contours.count <= OutlineGeometry.maximumContours
    else { return nil }
    self.contours = contours
  }

  /// How many lines a curve is cut into for a chord error of `squared` (n² ≥ it); nil past a
  /// bound no glyph at a few hundred pixels per em needs.
  static func pieces(_ squared: Double) -> Int? {
    guard squared.isFinite else { return nil }
    let n = max(1, Int(squared.squareRoot().rounded(.up)))
    return n <= 4096 ? n : nil
  }

  static func length(_ p: Point, _ q: Point) -> Double {
    let dx = q.x - p.x
    let dy = q.y - p.y
    return (dx * dx + dy * dy).squareRoot()
  }

  /// Whether `before` and `after` draw the same shape to within `distance` pixels: every
  /// contour paired with one of the other side whose boundary lies within `distance` of it both
  /// ways, each pair wound alike (or every pair reversed). `step` is how finely boundaries are
  /// sampled (the result is exact to `step` / 2: callers keep that margin). False says only
  /// that this cannot tell.
  static func sameShape(
    _ before: OutlineGeometry, _ after: OutlineGeometry, distance: Double, step: Double
  ) -> Bool {
    guard before.contours.count == after.contours.count, distance > 0, step > 0 else {
      return false
    }
    var used = [Bool](repeating: false, count: after.contours.count)
    var direction = 0.0
    for a in before.contours {
      // The contour of the other side with the nearest box: boxes of boundaries within
      // `distance` of each other are within `distance` of each other.
      var best: (index: Int, gap: Double)?
      for (k, b) in after.contours.enumerated() where !used[k] {
        let gap = max(
          abs(a.minX - b.minX), abs(a.minY - b.minY), abs(a.maxX - b.maxX),
          abs(a.maxY - b.maxY))
        if gap <= distance, gap < best?.gap ?? .infinity { best = (k, gap) }
      }
      guard let best else { return false }
      used[best.index] = true
      let b = after.contours[best.index]
      // Wound alike, or every pair reversed alike; a contour enclosing nothing is not judged.
      let sign = a.area * b.area
      guard sign != 0, direction == 0 || (sign > 0) == (direction > 0) else { return false }
      direction = sign
      // Boundaries within `distance` enclose areas within about that much times their length.
      let slack = (a.perimeter + b.perimeter) * distance + 4 * distance * distance
      guard abs(abs(a.area) - abs(b.area)) / 2 <= slack else { return false }
      guard within(a, of: b, distance: distance, step: step),
        within(b, of: a, distance: distance, step: step)
      else { return false }
    }
    return true
  }

  /// Whether every point of `a`'s boundary lies within `distance` of `b`'s boundary (to within
  /// `step` / 2). A segment of `a` whose two ends lie within `distance` of one segment of `b` lies
  /// within it all along (the distance to a segment is convex along a line); other segments are
  /// halved until both halves are, or until they are no longer than `step` and their ends are
  /// each within `distance` of `b`.
  static func within(_ a: Contour, of b: Contour, distance: Double, step: Double) -> Bool {
    // Filing `b`'s segments costs more than a few scans of them: most boundaries need a scan
    // to find where they start on the other side, and their neighbours after that.
    var grid: SegmentGrid?
    var scans = 0
    func near(_ p: Point, _ q: Point) -> Bool {
      if let grid { return grid.near(p, q, hint: &hint) }
      if scans < 8 {
        scans += 1
        for k in b.points.indices
        where b.close(k, p.x, p.y, reach: distance) && b.close(k, q.x, q.y, reach: distance) {
          hint = k
          return true
        }
        return false
      }
      let filed = SegmentGrid(b, reach: distance)
      grid = filed
      return filed.near(p, q, hint: &hint)
    }
    let n = a.points.count
    // Ends walk along the boundary: the segment near the last one is usually near the next.
    var hint = 0
    // Halvings, at most: a hostile outline is left to the raster.
    var budget = 4 * maximumPoints
    func covered(_ p: Point, _ q: Point) -> Bool {
      budget -= 1
      guard budget > 0 else { return false }
      if b.near(hint: &hint, p, q, reach: distance) || near(p, q) { return true }
      if length(p, q) <= step {
        return near(p, p) && near(q, q)
      }
      let m = Point(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2)
      return covered(p, m) && covered(m, q)
    }
    for k in 0..<n where !covered(a.points[k], a.points[(k + 1) % n]) { return false }
    return true
  }

  /// A contour's segments filed by the square cells within `reach` of them: the segments near a
  /// point are those filed under its cell.
  struct SegmentGrid {
    let contour: Contour
    let reach: Double
    let cell: Double
    let originX: Double
    let originY: Double
    let columns: Int
    let rows: Int
    /// Cell k's segments are `segments[starts[k]..<starts[k + 1]]`.
    let starts: [Int32]
    let segments: [Int32]

    init(_ contour: Contour, reach: Double) {
      self.contour = contour
      self.reach = reach
      let originX = contour.minX - reach
      let originY = contour.minY - reach
      let width = contour.maxX - contour.minX + 2 * reach
      let height = contour.maxY - contour.minY + 2 * reach
      // Cells of a few pixels, no more than 256 on a side.
      let cell = max(2 * reach, 2, width / 256, height / 256)
      let columns = max(1, Int((width / cell).rounded(.up)))
      let rows = max(1, Int((height / cell).rounded(.up)))
      func column(_ x: Double) -> Int {
        min(columns - 1, max(0, Int(((x - originX) / cell).rounded(.down))))
      }
      func row(_ y: Double) -> Int {
        min(rows - 1, max(0, Int(((y - originY) / cell).rounded(.down))))
      }
      var counts = [Int32](repeating: 0, count: columns * rows + 1)
      var filed: [(cell: Int32, segment: Int32)] = []
      let n = contour.points.count
      for k in 0..<n {
        let p = contour.points[k]
        let q = contour.points[(k + 1) % n]
        // A long line is filed piece by piece, each piece under the cells of its box.
        let pieces = max(1, Int((OutlineGeometry.length(p, q) / cell).rounded(.up)))
        for s in 0..<pieces {
          let t0 = Double(s) / Double(pieces)
          let t1 = Double(s + 1) / Double(pieces)
          let x0 = p.x + (q.x - p.x) * t0
          let x1 = p.x + (q.x - p.x) * t1
          let y0 = p.y + (q.y - p.y) * t0
          let y1 = p.y + (q.y - p.y) * t1
          for r in row(min(y0, y1) - reach)...row(max(y0, y1) + reach) {
            for c in column(min(x0, x1) - reach)...column(max(x0, x1) + reach) {
              filed.append((Int32(r * columns + c), Int32(k)))
              counts[r * columns + c] += 1
            }
          }
        }
      }
      var starts = [Int32](repeating: 0, count: counts.count)
      var running: Int32 = 0
      for (k, count) in counts.enumerated() {
        starts[k] = running
        running += count
      }
      var next = starts
      var segments = [Int32](repeating: 0, count: filed.count)
      for entry in filed {
        segments[Int(next[Int(entry.cell)])] = entry.segment
        next[Int(entry.cell)] += 1
      }
      self.originX = originX
      self.originY = originY
      self.cell = cell
      self.columns = columns
      self.rows = rows
      self.starts = starts
      self.segments = segments
    }

    /// Whether one segment lies within `reach` of both `p` and `q`: segment `hint` and its
    /// neighbours first, then those filed under `p`'s cell; `hint` becomes the segment found.
    func near(_ p: Point, _ q: Point, hint: inout Int) -> Bool {
      if contour.near(hint: &hint, p, q, reach: reach) { return true }
      let c = Int(((p.x - originX) / cell).rounded(.down))
      let r = Int(((p.y - originY) / cell).rounded(.down))
      guard c >= 0, c < columns, r >= 0, r < rows else { return false }
      let index = r * columns + c
      for s in starts[index]..<starts[index + 1] {
        let k = Int(segments[Int(s)])
        if contour.close(k, p.x, p.y, reach: reach) && contour.close(k, q.x, q.y, reach: reach) {
          hint = k
          return true
        }
      }
      return false
    }

  }
}
