import FontiFonts
import FontiModel
import FontiText
import Foundation

extension FaceComparer {
  // MARK: Glyphs

  func compareGlyphs(
    _ codepoints: [UInt32], _ before: HarfBuzzFont, _ after: HarfBuzzFont, face: String,
    instance: String?, into out: inout FaceDifference
  ) throws {
    let ub = before.face.unitsPerEm
    let ua = after.face.unitsPerEm
    var cacheBefore: [UInt32: GlyphOutline] = [:]
    var cacheAfter: [UInt32: GlyphOutline] = [:]
    func outline(_ glyph: UInt32, _ font: HarfBuzzFont, _ cache: inout [UInt32: GlyphOutline])
      -> GlyphOutline
    {
      if let known = cache[glyph] { return known }
      let drawn = font.outline(of: glyph)
      cache[glyph] = drawn
      return drawn
    }
    for scalar in codepoints {
      guard let gb = before.glyph(for: scalar), let ga = after.glyph(for: scalar) else { continue }
      let ob = outline(gb, before, &cacheBefore)
      let oa = outline(ga, after, &cacheAfter)
      let ab = before.advance(of: gb)
      let aa = after.advance(of: ga)
      let sameAdvance = FaceComparer.sameLength(ab, ub, aa, ua)
      let shape = try compareShapes(ob, unitsPerEm: ub, oa, unitsPerEm: ua)
      if shape.same && sameAdvance { continue }
      let pixels =
        shape.same
        ? 0
        : try raster.difference(
          [GlyphRaster.Placed(outline: ob, x: 0, y: 0)], unitsPerEm: ub,
          [GlyphRaster.Placed(outline: oa, x: 0, y: 0)], unitsPerEm: ua)
      let entry = DiffReport.Glyph(
        codepoint: DiffNumber.codepoint(scalar), face: face, instance: instance, pixels: pixels,
        advance: [ab, aa], moved: shape.moved)
      if pixels > settings.threshold || !sameAdvance {
        out.glyphs.append(entry)
      } else {
        out.belowThreshold += 1
        // An edit is a change whatever it paints at 64 px/em: points that moved by a unit or
        // more, or an outline redrawn that paints otherwise at 256 px/em.
        guard shape.edited else { continue }
        out.moved.append(entry)
      }
      out.glyphImages.append(
        GlyphChange(entry: entry, before: ob, after: oa, unitsPerEm: (ub, ua)))
      if out.glyphImages.count > 4 * settings.glyphImages {
        out.glyphImages = GlyphChange.selection(out.glyphImages, limit: settings.glyphImages)
      }
    }
    out.glyphImages = GlyphChange.selection(out.glyphImages, limit: settings.glyphImages)
  }

  /// What two outlines of a glyph are as shapes (`OutlineShape`): the same (also when
  /// redrawn with other points and painting the same at 256 px per em, within `threshold`
  /// pixels), or `edited` — points moved by a font unit or more (`moved`, capped: a hostile
  /// font's far-flung points must not overflow Int), or redrawn to paint otherwise.
  func compareShapes(
    _ before: GlyphOutline, unitsPerEm ub: Int, _ after: GlyphOutline, unitsPerEm ua: Int
  ) throws -> (same: Bool, edited: Bool, moved: Int?) {
    if ub == ua && before == after { return (true, false, nil) }
    if ub == ua, let b = OutlineShape(before), let a = OutlineShape(after) {
      switch OutlineShape.compare(b, a) {
      case .same: return (true, false, nil)
      case .edited(let distance, _, _) where migrating && distance < 1:
        // An instance made static has its points rounded to whole units: a move of less
        // than a unit is that rounding.
        return (true, false, nil)
      case .edited(let distance, _, _):
        let moved = Int(min(distance, 1e9).rounded())
        return (false, moved > 0, moved)
      case .redrawn: break
      }
    }
    if FaceComparer.sameGeometry(before, unitsPerEm: ub, after, unitsPerEm: ua) {
      return (true, false, nil)
    }
    let pixels = try shapeRaster.difference(
      [GlyphRaster.Placed(outline: before, x: 0, y: 0)], unitsPerEm: ub,
      [GlyphRaster.Placed(outline: after, x: 0, y: 0)], unitsPerEm: ua, limit: settings.threshold)
    return pixels > settings.threshold ? (false, true, nil) : (true, false, nil)
  }

  /// Whether two outlines are the same shape by their geometry alone (`OutlineGeometry`): every
  /// boundary within half a pixel of the other side's at 256 px per em (each side scaled by its
  /// own units per em), so that the raster need not be drawn. Curves are cut into lines within
  /// 1/32 px and boundaries sampled every 1/16 px: the distance allowed leaves room for both.
  static func sameGeometry(
    _ before: GlyphOutline, unitsPerEm ub: Int, _ after: GlyphOutline, unitsPerEm ua: Int
  ) -> Bool {
    let pixels = DiffSettings.shapePixelsPerEm
    let tolerance = 1.0 / 32
    let step = 1.0 / 16
    guard
      let b = OutlineGeometry(before, scale: pixels / Double(max(1, ub)), tolerance: tolerance),
      let a = OutlineGeometry(after, scale: pixels / Double(max(1, ua)), tolerance: tolerance)
    else { return false }
    return OutlineGeometry.sameShape(b, a, distance: 0.5 - 2 * tolerance - step / 2, step: step)
  }

  // MARK: The sample

  func compareSample(
    _ before: HarfBuzzFont, _ after: HarfBuzzFont, face: String, instance: String?,
    keepImage: Bool, into out: inout FaceDifference
  ) throws {
    let shapedBefore = ShapedText(sample.text, font: before, language: sample.language)
    let shapedAfter = ShapedText(sample.text, font: after, language: sample.language)
    var pixels = 0
    if shapedBefore != shapedAfter, try !sameShapes(shapedBefore, shapedAfter) {
      let lines = ShapedText.lines(
        shapedBefore, shapedAfter, lineWidth: DiffSettings.sampleLineWidth)
      pixels = try raster.difference(
        shapedBefore.placed(on: lines, lineHeight: DiffSettings.sampleLineHeight),
        unitsPerEm: shapedBefore.unitsPerEm,
        shapedAfter.placed(on: lines, lineHeight: DiffSettings.sampleLineHeight),
        unitsPerEm: shapedAfter.unitsPerEm)
    }
    let sameWidth = FaceComparer.sameLength(
      shapedBefore.width, shapedBefore.unitsPerEm, shapedAfter.width, shapedAfter.unitsPerEm)
    if pixels > settings.threshold || !sameWidth {
      out.sample.append(
        DiffReport.Sample(
          face: face, instance: instance,
          text: sample.text == settings.text ? nil : sample.text,
          width: [shapedBefore.width, shapedAfter.width], pixels: pixels))
    }
    // The review shows the sample where it changed most; on a tie, at the representative
    // instance.
    let current = out.sampleImage?.pixels ?? -1
    if pixels > current || (pixels == current && keepImage) {
      out.sampleImage = SampleChange(
        before: shapedBefore, after: shapedAfter, face: face, instance: instance, pixels: pixels,
        languageName: sample.languageName)
    }
  }

  /// Whether two settings of the sample differ in their outlines' drawing alone, every glyph
  /// the same shape (`compareShapes`): a font converted to another outline format sets the
  /// same sample.
  func sameShapes(_ before: ShapedText, _ after: ShapedText) throws -> Bool {
    guard before.unitsPerEm == after.unitsPerEm, before.paragraphs == after.paragraphs,
      before.spaceWidth == after.spaceWidth, before.width == after.width,
      before.isRightToLeft == after.isRightToLeft,
      Set(before.outlines.keys) == Set(after.outlines.keys)
    else { return false }
    for (glyph, outline) in before.outlines {
      guard let other = after.outlines[glyph] else { return false }
      let shape = try compareShapes(
        outline, unitsPerEm: before.unitsPerEm, other, unitsPerEm: after.unitsPerEm)
      if !shape.same { return false }
    }
    return true
  }
}
