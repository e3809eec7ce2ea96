import Testing

@testable import FontiDiff
@testable import FontiText

/// Outlines as shapes (#56): what normalisation sets aside and what it leaves to the drawing.
struct OutlineShapeTests {
  /// A square of side 100 at (x, y), drawn counter-clockwise from its corner number `start`.
  func square(_ x: Float, _ y: Float, start: Int = 0, reversed: Bool = false) -> [(Float, Float)] {
    var corners = [(x, y), (x + 100, y), (x + 100, y + 100), (x, y + 100)]
    if reversed { corners.reverse() }
    return Array(corners[start...] + corners[..<start])
  }

  func outline(_ contours: [[(Float, Float)]]) -> GlyphOutline {
    var outline = GlyphOutline()
    for points in contours {
      outline.move(points[0].0, points[0].1)
      for p in points.dropFirst() { outline.line(p.0, p.1) }
      outline.line(points[0].0, points[0].1)
      outline.close()
    }
    return outline
  }

  func verdict(_ a: GlyphOutline, _ b: GlyphOutline) throws -> OutlineShape.Verdict {
    OutlineShape.compare(try #require(OutlineShape(a)), try #require(OutlineShape(b)))
  }

  func isSame(_ v: OutlineShape.Verdict) -> Bool {
    if case .same = v { return true }
    return false
  }

  func isRedrawn(_ v: OutlineShape.Verdict) -> Bool {
    if case .redrawn = v { return true }
    return false
  }

  @Test func startPointsContourOrderAndAReversalOfEveryContourAreTheSameShape() throws {
    let a = outline([square(0, 0), square(200, 0)])
    #expect(isSame(try verdict(a, outline([square(0, 0, start: 2), square(200, 0, start: 1)]))))
    #expect(isSame(try verdict(a, outline([square(200, 0), square(0, 0)]))))
    #expect(
      isSame(
        try verdict(
          a, outline([square(0, 0, reversed: true), square(200, 0, start: 3, reversed: true)]))))
    // One contour reversed alone is left to the drawing.
    #expect(isRedrawn(try verdict(a, outline([square(0, 0), square(200, 0, reversed: true)]))))
  }

  @Test func anImpliedOnCurvePointIsItsOmission() throws {
    // Off-curve (0, 100) and (100, 100) with the on-curve point between them written out, or
    // implied (HarfBuzz draws both as two quadratic segments through (50, 100)).
    var written = GlyphOutline()
    written.move(0, 0)
    written.quadratic(0, 100, 50, 100)
    written.quadratic(100, 100, 100, 0)
    written.line(0, 0)
    written.close()
    var shifted = GlyphOutline()
    shifted.move(0, 0)
    shifted.quadratic(0, 100, 50.5, 100)
    shifted.quadratic(101, 100, 100, 0)
    shifted.line(0, 0)
    shifted.close()
    let a = try #require(OutlineShape(written))
    #expect(
      a.contours == [
        [
          .init(x: 0, y: 0, kind: .on), .init(x: 0, y: 100, kind: .quadratic),
          .init(x: 100, y: 100, kind: .quadratic), .init(x: 100, y: 0, kind: .on),
        ]
      ])
    // A real edit keeps its points: the control point moved one unit.
    guard case .edited(let distance, let x, let y) = try verdict(written, shifted) else {
      Issue.record("not an edit")
      return
    }
    #expect(distance == 1 && x == 101 && y == 100)
  }

  @Test func hostileOutlinesNeverTrap() throws {
    var infinite = GlyphOutline()
    infinite.move(0, 0)
    infinite.line(.infinity, 0)
    infinite.close()
    #expect(OutlineShape(infinite) == nil)
    // A contour of one point repeated 60,000 times, against one point moved: bounded work.
    var repeated = GlyphOutline()
    var moved = GlyphOutline()
    repeated.move(0, 0)
    moved.move(0, 0)
    for k in 0..<60_000 {
      repeated.line(Float(k % 2), 0)
      moved.line(Float(k % 2), k == 7 ? 1 : 0)
    }
    repeated.close()
    moved.close()
    _ = try verdict(repeated, moved)
  }
}
