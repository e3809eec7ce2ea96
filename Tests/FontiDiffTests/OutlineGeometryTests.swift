import FontTestSupport
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiText

/// Outlines compared by their geometry before any drawing (#56): the same shape in another
/// outline format is decided without a raster; anything else is left to the raster.
struct OutlineGeometryTests {
  static let fixtures = TestFixtures.folder + "/Diff/shapes/garamond-"

  /// Every glyph of the fixture Garamond in CFF and in TrueType (cu2qu at its default
  /// tolerance), by code point.
  func garamond() throws -> [(UInt32, GlyphOutline, GlyphOutline, Int)] {
    let cff = HarfBuzzFont(
      face: try HarfBuzzFace(file: Self.fixtures + "cff/FixtureGaramond-Regular.otf"))
    let ttf = HarfBuzzFont(
      face: try HarfBuzzFace(file: Self.fixtures + "ttf/FixtureGaramond-Regular.ttf"))
    return cff.face.unicodes.sorted().compactMap { scalar in
      guard let b = cff.glyph(for: scalar), let a = ttf.glyph(for: scalar) else { return nil }
      return (scalar, cff.outline(of: b), ttf.outline(of: a), cff.face.unitsPerEm)
    }
  }

  func square(_ x: Float, _ y: Float, _ side: Float = 100, reversed: Bool = false)
    -> [(Float, Float)]
  {
    let corners = [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
    return reversed ? corners.reversed() : corners
  }

  func outline(_ contours: [[(Float, Float)]]) -> GlyphOutline {
    var outline = GlyphOutline()
    for points in contours {
      outline.move(points[0].0, points[0].1)
      for p in points.dropFirst() { outline.line(p.0, p.1) }
      outline.close()
    }
    return outline
  }

  func same(_ a: GlyphOutline, _ b: GlyphOutline, units: Int = 1000, other: Int? = nil) -> Bool {
    FaceComparer.sameGeometry(a, unitsPerEm: units, b, unitsPerEm: other ?? units)
  }

  @Test func cubicOutlinesConvertedToQuadraticAreTheSameWithoutARaster() throws {
    let glyphs = try garamond()
    #expect(glyphs.count > 10)
    let same = glyphs.filter { self.same($0.1, $0.2, units: $0.3) }
    // cu2qu strays by 1/1000 em at most: every glyph is within half a pixel at 256 px per em.
    #expect(
      same.count == glyphs.count,
      "not decided: \(glyphs.filter { !self.same($0.1, $0.2, units: $0.3) }.map(\.0))")
  }

  @Test func aPointMovedTwentyUnitsIsNotTheSame() throws {
    let glyphs = try garamond()
    let (scalar, cff, ttf, units) = try #require(glyphs.first { $0.0 == 0x52 })  // R
    #expect(same(cff, ttf, units: units))
    // The TrueType R with its first point moved 20 units right.
    var moved = GlyphOutline()
    var i = 0
    let c = ttf.coordinates
    for verb in ttf.verbs {
      switch verb {
      case .move:
        moved.move(c[i] + (i == 0 ? 20 : 0), c[i + 1])
        i += 2
      case .line:
        moved.line(c[i], c[i + 1])
        i += 2
      case .quadratic:
        moved.quadratic(c[i], c[i + 1], c[i + 2], c[i + 3])
        i += 4
      case .cubic:
        moved.cubic(c[i], c[i + 1], c[i + 2], c[i + 3], c[i + 4], c[i + 5])
        i += 6
      case .close: moved.close()
      }
    }
    #expect(scalar == 0x52)
    #expect(!same(cff, moved, units: units))
  }

  @Test func windingStartPointsAndUnitsPerEm() {
    let a = outline([square(0, 0, 400), square(100, 100, 200, reversed: true)])
    // Every contour reversed together fills the same (nonzero).
    #expect(same(a, outline([square(0, 0, 400, reversed: true), square(100, 100, 200)])))
    // One reversed alone fills the counter: not decided here.
    #expect(!same(a, outline([square(0, 0, 400), square(100, 100, 200)])))
    // Contour order does not matter; other units per em scale to a common em.
    #expect(same(a, outline([square(100, 100, 200, reversed: true), square(0, 0, 400)])))
    let doubled = outline([square(0, 0, 800), square(200, 200, 400, reversed: true)])
    #expect(same(a, doubled, units: 1000, other: 2000))
    // A contour more or fewer, or a move of a unit (half a pixel at 256 px per em is ~2 units).
    #expect(!same(a, outline([square(0, 0, 400)])))
    #expect(same(a, outline([square(0, 0, 400), square(101, 100, 200, reversed: true)])))
    #expect(!same(a, outline([square(0, 0, 400), square(103, 100, 200, reversed: true)])))
  }

  @Test func hostileOutlinesAreLeftToTheRaster() {
    let square = outline([square(0, 0)])
    for bad: Float in [.nan, .infinity, -.infinity, 3e38] {
      var o = GlyphOutline()
      o.move(0, 0)
      o.line(bad, 0)
      o.line(100, 100)
      o.close()
      #expect(!same(square, o))
      #expect(!same(o, o))
    }
    // A curve whose control point lies far beyond any em.
    var far = GlyphOutline()
    far.move(0, 0)
    far.quadratic(30000, 30000, 100, 0)
    far.close()
    #expect(!same(far, far, units: 1))
    // Many contours, and many points on one: bounded, never a trap.
    let many = outline(
      (0..<3000).map { k in self.square(Float(k % 50) * 10, Float(k / 50) * 10, 5) })
    #expect(!same(many, many))
    var long = GlyphOutline()
    long.move(0, 0)
    for k in 0..<200_000 { long.line(Float(k % 1000), Float(k / 1000)) }
    long.close()
    #expect(!same(long, long))
    // Empty outlines are the same; a contour that encloses nothing is not judged (a figure of
    // eight encloses no net area and paints).
    #expect(same(GlyphOutline(), GlyphOutline()))
    var line = GlyphOutline()
    line.move(0, 0)
    line.line(100, 0)
    line.line(200, 0)
    line.close()
    #expect(!same(line, GlyphOutline()))
  }
}
