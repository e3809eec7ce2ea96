import FontiText

/// An outline as the shape it draws, for telling an edit from the same shape drawn another
/// way (#56): each contour a ring of points, with no start point (a contour that starts
/// elsewhere is the same ring), no implied on-curve point (a TrueType on-curve point midway
/// between two quadratic control points is its omission) and no zero-length line.
///
/// Read from HarfBuzz's path commands, which already flatten composite glyphs into their
/// components' transformed outlines.
struct OutlineShape: Sendable {
  /// A point of a ring: on the curve, or a control point of a quadratic or cubic segment.
  struct Point: Hashable, Sendable {
    var x: Float
    var y: Float
    var kind: Kind

    static func precedes(_ a: Point, _ b: Point) -> Bool {
      (a.x, a.y, a.kind.rawValue) < (b.x, b.y, b.kind.rawValue)
    }
  }

  enum Kind: UInt8, Sendable {
    case on, quadratic, cubic
  }

  /// What two outlines are, as shapes.
  enum Verdict {
    /// The same rings, in any order, each from any start point, all reversed or none.
    case same
    /// The same rings point for point, some points moved: the largest move (font units) and
    /// where it lands on the after side.
    case edited(distance: Double, x: Double, y: Double)
    /// Other points, other kinds of segment, or some contours reversed and not others: only
    /// the drawn shapes can tell.
    case redrawn
  }

  /// Each contour's ring of points.
  var contours: [[Point]]

  /// Rings longer than this are not aligned point by point (a hostile glyph's contour of
  /// 65,535 points) such an outline that differs is judged by its drawing.
  static let alignedPoints = 1024

  /// Nil for a coordinate that is not finite or an outline whose commands and points disagree.
  init?(_ outline: GlyphOutline) {
    var contours: [[Point]] = []
    var ring: [Point] = []
    // A segment after a close starts where the closed contour started, as Cairo draws it.
    var start: Point?
    let c = outline.coordinates
    var i = 0
    func point(_ kind: Kind) -> Point? {
      guard i + 1 < c.count, c[i].isFinite, c[i + 1].isFinite else { return nil }
      defer { i += 2 }
      return Point(x: c[i], y: c[i + 1], kind: kind)
    }
    for verb in outline.verbs {
      switch verb {
      case .move:
        contours.append(OutlineShape.ring(ring))
        guard let p = point(.on) else { return nil }
        ring = [p]
        start = p
      case .line:
        guard let p = point(.on) else { return nil }
        if ring.isEmpty, let start { ring = [start] }
        ring.append(p)
      case .quadratic:
        guard let control = point(.quadratic), let end = point(.on) else { return nil }
        if ring.isEmpty, let start { ring = [start] }
        ring += [control, end]
      case .cubic:
        guard let c1 = point(.cubic), let c2 = point(.cubic), let end = point(.on) else {
          return nil
        }
        if ring.isEmpty, let start { ring = [start] }
        ring += [c1, c2, end]
      case .close:
        contours.append(OutlineShape.ring(ring))
        ring = []
      }
    }
    contours.append(OutlineShape.ring(ring))
    guard i == c.count else { return nil }
    self.contours = contours.filter { $0.count > 1 }
  }

  /// A contour's points (its start point first) as a ring: the point that closes it on its
  /// start dropped, zero-length lines dropped, implied on-curve points dropped.
  static func ring(_ points: [Point]) -> [Point] {
    var ring = points
    if ring.count > 1, ring[ring.count - 1] == ring[0] { ring.removeLast() }
    // Zero-length lines: an on-curve point where the one before it is the same point.
    ring = ring.indices.compactMap { k in
      let previous = ring[(k + ring.count - 1) % ring.count]
      return ring.count > 1 && ring[k].kind == .on && previous == ring[k] ? nil : ring[k]
    }
    guard ring.count > 2 else { return ring }
    return ring.indices.compactMap { k in
      let p = ring[k]
      let a = ring[(k + ring.count - 1) % ring.count]
      let b = ring[(k + 1) % ring.count]
      guard p.kind == .on, a.kind == .quadratic, b.kind == .quadratic else { return p }
      // Implied: within half a unit of the midpoint (a TrueType point is on whole units).
      let implied =
        abs(2 * Double(p.x) - Double(a.x) - Double(b.x)) <= 1
        && abs(2 * Double(p.y) - Double(a.y) - Double(b.y)) <= 1
      return implied ? nil : p
    }
  }

  /// The ring started at its least point (the least rotation among those starting there):
  /// the same for every start point of the same ring.
  static func canonical(_ ring: [Point]) -> [Point] {
    guard let least = ring.min(by: Point.precedes) else { return ring }
    var starts = ring.indices.filter { ring[$0] == least }
    // A hostile ring of one point repeated: no more than a bounded amount of work.
    if starts.count * ring.count > 1 << 20 { starts = [starts[0]] }
    func rotated(_ s: Int) -> [Point] { Array(ring[s...] + ring[..<s]) }
    var best = rotated(starts[0])
    for s in starts.dropFirst() {
      let candidate = rotated(s)
      if candidate.lexicographicallyPrecedes(best, by: Point.precedes) { best = candidate }
    }
    return best
  }

  /// The ring drawn the other way round.
  static func reversed(_ ring: [Point]) -> [Point] { Array(ring.reversed()) }

  /// Twice the signed area of the ring's polygon (control points included): its direction.
  static func area(_ ring: [Point]) -> Double {
    var sum = 0.0
    for k in ring.indices {
      let p = ring[k]
      let q = ring[(k + 1) % ring.count]
      sum += Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
    }
    return sum
  }

  /// `before` and `after` as shapes.
  static func compare(_ before: OutlineShape, _ after: OutlineShape) -> Verdict {
    let rings = before.contours.map(canonical)
    var best: (unmatched: [Int], other: [[Point]], left: [Int])?
    // Every contour reversed together is the same shape: try the after side both ways.
    for reverse in [false, true] {
      let other = after.contours.map { canonical(reverse ? reversed($0) : $0) }
      var pool: [[Point]: [Int]] = [:]
      for (k, ring) in other.enumerated() { pool[ring, default: []].append(k) }
      var unmatched: [Int] = []
      for (k, ring) in rings.enumerated() {
        if var found = pool[ring], !found.isEmpty {
          found.removeFirst()
          pool[ring] = found
        } else {
          unmatched.append(k)
        }
      }
      let left = pool.values.flatMap { $0 }.sorted()
      if unmatched.isEmpty && left.isEmpty { return .same }
      if best == nil || unmatched.count < best?.unmatched.count ?? 0 {
        best = (unmatched, other, left)
      }
    }
    guard let best, best.unmatched.count == best.left.count else { return .redrawn }
    // The contours left over are paired in order, and each aligned point for point.
    var largest = (distance: 0.0, x: 0.0, y: 0.0)
    for (k, j) in zip(best.unmatched, best.left) {
      guard let move = aligned(rings[k], best.other[j]) else { return .redrawn }
      if move.distance > largest.distance { largest = move }
    }
    return largest.distance > 0
      ? .edited(distance: largest.distance, x: largest.x, y: largest.y) : .same
  }

  /// The largest move between two rings of the same points, at the start point that moves
  /// them least; nil when no start point gives the same kinds of points, or when `after`
  /// fits better reversed, or is drawn the other way round (one contour reversed alone).
  static func aligned(_ before: [Point], _ after: [Point]) -> (
    distance: Double, x: Double, y: Double
  )? {
    let n = before.count
    guard n == after.count, n > 0, n <= alignedPoints else { return nil }
    let (a, b) = (area(before), area(after))
    if a * b < 0 { return nil }
    func best(_ other: [Point]) -> (distance: Double, x: Double, y: Double)? {
      var found: (distance: Double, x: Double, y: Double)?
      for shift in 0..<n {
        var largest = (distance: 0.0, x: 0.0, y: 0.0)
        var fits = true
        for k in 0..<n {
          let p = before[k]
          let q = other[(k + shift) % n]
          guard p.kind == q.kind else {
            fits = false
            break
          }
          let dx = Double(q.x) - Double(p.x)
          let dy = Double(q.y) - Double(p.y)
          let d = (dx * dx + dy * dy).squareRoot()
          if d > largest.distance { largest = (d, Double(q.x), Double(q.y)) }
          if let found, largest.distance >= found.distance {
            fits = false
            break
          }
        }
        if fits { found = largest }
      }
      return found
    }
    guard let forward = best(after) else { return nil }
    if let backward = best(reversed(after)), backward.distance < forward.distance { return nil }
    return forward
  }
}
