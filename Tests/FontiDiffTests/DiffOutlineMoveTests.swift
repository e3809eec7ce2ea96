import Foundation
import Testing

@testable import FontiDiff
@testable import FontiText

/// Outlines moved by a few units (Fixtures/Diff/README.md, `nudge-*`): each is reported with its
/// character, face and largest point move in font units, drawn for the review pages, and a
/// change of the family even when it paints fewer pixels than the threshold.
struct DiffOutlineMoveTests {
  let engine = DiffEngineTests()

  @Test(arguments: [5, 30])
  func anOutlineMovedIsReportedWithWhereAndHowFar(units: Int) throws {
    let result = try engine.compare("base", "nudge-\(units)")
    let f = try engine.only(result.report)
    #expect(f.status == .changed)
    #expect(result.report.hasDifferences)
    let r = try #require(f.glyphs.first)
    #expect(f.glyphs.count == 1 && f.glyphsMoved.isEmpty)
    #expect(r.codepoint == "U+0052" && r.face == "Regular" && r.instance == nil)
    #expect(r.moved == units && r.advance == [713, 713])
    #expect(f.summary == ["1 glyph changed: U+0052 R (moved \(units) units, \(r.pixels) px)"])
    // Drawn on the review pages and in the change image, with the place it moved most.
    let image = try #require(result.outcomes[0].glyphImages.first)
    #expect(image.entry == r)
    let move = try #require(image.largestMove)
    #expect(Int(move.distance.rounded()) == units)
  }

  @Test func aMoveThatPaintsFewerPixelsThanTheThresholdIsStillAChange() throws {
    let result = try engine.compare("base", "nudge-point")
    let f = try engine.only(result.report)
    #expect(f.status == .changed)
    #expect(result.report.hasDifferences)
    #expect(f.glyphs.isEmpty && f.glyphsBelowThreshold == 1)
    let r = try #require(f.glyphsMoved.first)
    #expect(f.glyphsMoved.count == 1)
    #expect(r.codepoint == "U+0052" && r.face == "Regular" && r.moved == 5)
    #expect(r.pixels > 0 && r.pixels <= 16)
    #expect(
      f.summary == [
        "outline of U+0052 R (Regular) moved by up to 5 units (\(r.pixels) px, within the threshold)"
      ])
    #expect(result.outcomes[0].glyphImages.map(\.entry) == [r])
    // Above a threshold it passes, it is a glyph change like any other.
    let low = try engine.only(try engine.compare("base", "nudge-point", threshold: 2).report)
    #expect(low.glyphs.map(\.moved) == [5] && low.glyphsMoved.isEmpty)
  }

  @Test func pointsAreComparedOnlyWhenBothSidesHaveTheSame() throws {
    var square = GlyphOutline()
    square.move(0, 0)
    square.line(100, 0)
    square.line(100, 100)
    square.close()
    var moved = GlyphOutline()
    moved.move(0, 0)
    moved.line(103, 4)
    moved.line(100, 100)
    moved.close()
    let move = square.largestMove(to: moved)
    #expect(move?.distance == 5 && move?.x == 103 && move?.y == 4)
    #expect(square.largestMove(to: square) == nil)
    // A hostile point far away is measured in Double (the report caps it; no overflow).
    for x in [Float(1e20), Float.greatestFiniteMagnitude] {
      var far = GlyphOutline()
      far.move(0, 0)
      far.line(x, 0)
      far.line(100, 100)
      far.close()
      let distance = try #require(square.largestMove(to: far)?.distance)
      #expect(distance.isFinite && distance > Double(x) * 0.99)
    }
    var redrawn = moved
    redrawn.line(0, 50)
    #expect(square.largestMove(to: redrawn) == nil)
  }
}
