import FontiText
import Foundation

/// Draws glyph outlines into 8-bit coverage images, unhinted and grey antialiased, at a fixed
/// number of pixels per em, and counts the pixels that differ between two sides.
///
/// Both sides are drawn with the same transform: the pen origin (baseline, x 0) lands on the
/// same whole pixel in both images, so an advance that changed alone paints no pixel and an
/// outline that moved paints exactly what moved. Not Sendable: one per thread.
final class GlyphRaster {
  /// An outline placed on the page: its pen origin in font units (y up).
  struct Placed {
    var outline: GlyphOutline
    var x: Double
    var y: Double
  }

  let pixelsPerEm: Double
  /// A pixel counts when the two coverages differ by more than this many grey levels.
  let greyLevels: Int
  /// Images are at most this many pixels on a side and in all; ink beyond is not compared
  /// (16 em around the origin at 64 px per em for one glyph).
  static let maximumSide = 8192
  static let maximumPixels = 1 << 25

  /// A pixel counts only when it lies outside the range of the other side's pixels within this
  /// many pixels of it (`CairoSurface.countDifferences(from:tolerance:reach:)`); 0 compares
  /// pixel by pixel.
  let reach: Int

  init(pixelsPerEm: Double = 64, greyLevels: Int = 8, reach: Int = 0) {
    self.pixelsPerEm = pixelsPerEm
    self.greyLevels = greyLevels
    self.reach = reach
  }

  /// How many pixels differ between `before` and `after`, each scaled by its own units per em;
  /// with a `reach`, counting stops past `limit`.
  func difference(
    _ before: [Placed], unitsPerEm beforeUnits: Int, _ after: [Placed],
    unitsPerEm afterUnits: Int, limit: Int = .max
  ) throws(CairoError) -> Int {
    let sb = pixelsPerEm / Double(max(1, beforeUnits))
    let sa = pixelsPerEm / Double(max(1, afterUnits))
    let drawnBefore = before.filter { GlyphRaster.drawable($0, scale: sb) }
    let drawnAfter = after.filter { GlyphRaster.drawable($0, scale: sa) }
    // The union of both sides' boxes, in pixels with y down, widened to whole pixels.
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    for (placed, s) in drawnBefore.map({ ($0, sb) }) + drawnAfter.map({ ($0, sa) }) {
      guard let b = placed.outline.bounds else { continue }
      minX = min(minX, (placed.x + b.minX) * s)
      maxX = max(maxX, (placed.x + b.maxX) * s)
      minY = min(minY, -(placed.y + b.maxY) * s)
      maxY = max(maxY, -(placed.y + b.minY) * s)
    }
    guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return 0 }
    let left = (minX.rounded(.down) - 1)
    let top = (minY.rounded(.down) - 1)
    var width = Int(min(Double(GlyphRaster.maximumSide), maxX.rounded(.up) + 1 - left))
    var height = Int(min(Double(GlyphRaster.maximumSide), maxY.rounded(.up) + 1 - top))
    width = max(1, width)
    height = max(1, min(height, GlyphRaster.maximumPixels / width))

    let imageBefore = try draw(drawnBefore, scale: sb, left: left, top: top, width, height)
    let imageAfter = try draw(drawnAfter, scale: sa, left: left, top: top, width, height)
    return reach > 0
      ? imageBefore.countDifferences(
        from: imageAfter, tolerance: greyLevels, reach: reach, limit: limit)
      : imageBefore.countDifferences(from: imageAfter, tolerance: greyLevels)
  }

  /// One side's coverage image: the outlines filled (nonzero winding) in one path.
  private func draw(
    _ placed: [Placed], scale: Double, left: Double, top: Double, _ width: Int, _ height: Int
  ) throws(CairoError) -> CairoSurface {
    let surface = try CairoSurface.coverage(width: width, height: height)
    let cr = try CairoContext(surface)
    cr.setGreyAntialias()
    for p in placed {
      cr.append(p.outline, x: p.x * scale - left, y: -p.y * scale - top, scale: scale)
    }
    cr.fill()
    try cr.check("draw glyph outlines")
    return surface
  }

  /// Whether an outline has ink and finite coordinates within a million pixels: a hostile
  /// font's far-flung points are left out rather than handed to Cairo's fixed-point maths.
  static func drawable(_ placed: Placed, scale: Double) -> Bool {
    guard let b = placed.outline.bounds else { return false }
    let limit = 1e6
    return [placed.x + b.minX, placed.x + b.maxX, placed.y + b.minY, placed.y + b.maxY]
      .allSatisfy { ($0 * scale).isFinite && abs($0 * scale) < limit }
  }
}
