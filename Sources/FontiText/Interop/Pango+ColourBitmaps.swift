internal import CHarfBuzz
internal import CPango
import Foundation

/// The colour bitmap checks of the faces Pango has drawn with in this process, by HarfBuzz face.
/// Only faces with colour bitmap tables are kept (each with a reference, so that its pointer
/// stays its own); a face without them costs two table lookups a run.
private final class ColourBitmapChecks: @unchecked Sendable {
  static let shared = ColourBitmapChecks()
  private let lock = NSLock()
  private var checks: [OpaquePointer: (face: HarfBuzzFace, check: ColourBitmapCheck)] = [:]

  /// The check of `face`, or nil when it has no colour bitmaps.
  func check(_ face: OpaquePointer) -> ColourBitmapCheck? {
    let cblc = HarfBuzzTag.make("CBLC")
    let sbix = HarfBuzzTag.make("sbix")
    guard HarfBuzzFace.hasTable(face, cblc) || HarfBuzzFace.hasTable(face, sbix) else {
      return nil
    }
    lock.lock()
    defer { lock.unlock() }
    if let known = checks[face] { return known.check }
    let held = HarfBuzzFace(referencing: face)
    let check = ColourBitmapCheck(face: held)
    checks[face] = (held, check)
    return check
  }
}

extension HarfBuzzFace {
  /// Whether `face` has table `tag` (calls `hb_face_reference_table`).
  static func hasTable(_ face: OpaquePointer, _ tag: UInt32) -> Bool {
    guard let blob = hb_face_reference_table(face, tag) else { return false }
    defer { hb_blob_destroy(blob) }
    return hb_blob_get_length(blob) > 0
  }
}

extension TextLayout {
  /// Makes every glyph of the layout whose colour bitmap is damaged (`ColourBitmapCheck`) an
  /// empty one, so that Cairo never decodes it, and returns how many there were. A sound font
  /// costs a look at its table directory per run.
  func blankDamagedColourBitmaps() -> Int {
    guard let iter = pango_layout_get_iter(layout) else { return 0 }
    defer { pango_layout_iter_free(iter) }
    var blanked = 0
    repeat {
      guard let run = pango_layout_iter_get_run(iter), let item = run.pointee.item,
        let glyphs = run.pointee.glyphs, let font = item.pointee.analysis.font,
        let shaping = pango_font_get_hb_font(font), let face = hb_font_get_face(shaping),
        let check = ColourBitmapChecks.shared.check(face), !check.isSound
      else { continue }
      for i in 0..<Int(glyphs.pointee.num_glyphs) {
        let glyph = glyphs.pointee.glyphs[i].glyph
        guard glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0, glyph != PANGO_GLYPH_EMPTY,
          check.isDamaged(glyph)
        else { continue }
        glyphs.pointee.glyphs[i].glyph = PANGO_GLYPH_EMPTY
        blanked += 1
      }
    } while pango_layout_iter_next_run(iter) != 0
    return blanked
  }
}
