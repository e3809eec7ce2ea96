import FontiModel
import FontiText

/// How far a family's waterfall line reaches above and below its baseline: the ink of the
/// line's text as HarfBuzz shapes it with the family's regular face, read from its file (as the
/// proofs are), before any page is planned. Display leading holds the lines of most families;
/// a script that climbs far above it or hangs far below (Nastaliq's cascades, stacked marks, a
/// swash capital) gets lines as tall as the ink of what each line shows
/// (`CataloguePlan.waterfallRow`).
public struct LineInk: Sendable, Hashable {
  /// One inked glyph, in em: where it starts and ends along the line (the advance of the
  /// glyphs before it in reading order, then its own), where its ink starts and ends along
  /// the line, and how far it reaches above and below the baseline.
  public struct Glyph: Sendable, Hashable {
    public var start: Double
    public var end: Double
    public var left: Double
    public var right: Double
    public var above: Double
    public var below: Double

    /// A glyph of no advance ends where it starts; without its ink's sides, its ink spans its
    /// advance.
    public init(
      start: Double, end: Double? = nil, left: Double? = nil, right: Double? = nil,
      above: Double, below: Double
    ) {
      self.start = start
      self.end = max(start, end ?? start)
      self.left = left ?? start
      self.right = max(self.left, right ?? self.end)
      self.above = above
      self.below = below
    }
  }

  /// The inked glyphs, in reading order.
  public var glyphs: [Glyph]

  /// Ink up to these, in em, stays within display leading (the baseline at 0.93 em, the next
  /// line 1.16 em down): the line keeps it.
  static let usualAbove = 0.95
  static let usualBelow = 0.30
  /// A font may claim any extents: beyond this it is broken, and no page could hold the line.
  static let limit = 3.0

  public init(glyphs: [Glyph]) { self.glyphs = glyphs }

  /// How far the glyphs a line cut to `width` em shows reach above and below the baseline, in
  /// em: those that end within it, and a first glyph wider than it (a cut line keeps whole
  /// glyphs, and at least one; a line cut with an ellipsis shows fewer). Nil when none is
  /// inked.
  func extent(within width: Double) -> (above: Double, below: Double)? {
    let shown = shown(within: width)
    guard let above = shown.map(\.above).max(), let below = shown.map(\.below).max() else {
      return nil
    }
    return (above, below)
  }

  /// The glyphs a line cut to `width` em shows (see `extent(within:)`).
  func shown(within width: Double) -> [Glyph] {
    glyphs.filter { $0.end <= width + 1e-9 || $0.start <= 0 }
  }

  /// The ink of `text` shaped for `language` with `face`; nil when the face cannot be read.
  static func read(_ face: FontFace, text: String, language: String) -> LineInk? {
    guard face.isOpenType, let hbFace = try? HarfBuzzFace(file: face.file, index: face.index)
    else { return nil }
    return measure(text, font: HarfBuzzFont(face: hbFace), language: language)
  }

  /// The ink of `text` shaped for `language` with `font` and `features` (`(tag, 0)` turns one
  /// off).
  static func measure(
    _ text: String, font: HarfBuzzFont, language: String,
    features: [(tag: UInt32, value: UInt32)] = [], ranges: [Range<Int>]? = nil
  ) -> LineInk {
    let em = Double(max(1, font.face.unitsPerEm))
    func clamped(_ units: Int) -> Double { min(limit, max(-limit, Double(units) / em)) }
    // HarfBuzz gives right-to-left text in visual order: by cluster is reading order.
    let shaped = HarfBuzzBuffer().shape(
      Array(text.unicodeScalars), font: font, language: language, features: features,
      ranges: ranges
    ).enumerated().sorted { ($0.element.cluster, $0.offset) < ($1.element.cluster, $1.offset) }
    var glyphs: [Glyph] = []
    var penX = 0
    var penY = 0
    for (_, glyph) in shaped {
      defer {
        penX += glyph.xAdvance
        penY += glyph.yAdvance
      }
      guard let extents = font.inkExtents(of: glyph.glyph), extents.height != 0 else { continue }
      let top = penY + glyph.yOffset + extents.yBearing
      let left = Double(penX) + Double(glyph.xOffset) + Double(extents.xBearing)
      glyphs.append(
        Glyph(
          start: Double(penX) / em, end: Double(penX + glyph.xAdvance) / em, left: left / em,
          right: (left + Double(extents.width)) / em, above: clamped(top),
          below: clamped(-(top + extents.height))))
    }
    return LineInk(glyphs: glyphs)
  }
}
