import Foundation

@testable import FontiSupport
@testable import FontiText

/// libFuzzer's entry point for the colour bitmap check (`ColourBitmapCheck`): CBLC's strikes
/// and index subtables (formats 1 to 5), CBDT's images (formats 17, 18, 19) and their PNG
/// headers, and sbix's strikes, read from the font's bytes before Cairo sees a bitmap.
///
/// Seeded with `Tests/Fixtures/ColourBitmaps` (a small font that is mostly CBDT and CBLC).
/// Linked against the support, model and text targets (see `Fuzz/fuzz.sh`). The only
/// failures are a crash, a trap, a sanitizer report, a timeout (a count the check does not
/// bound), or a broken promise checked here: the check is the same from the file and from
/// the face, and a damaged glyph is one the face has.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzColourBitmaps(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzFont.withFile(data, size) { path in
    guard let face = try? HarfBuzzFace(file: path) else { return }
    let check = ColourBitmapCheck(face: face)
    if check != ColourBitmapCheck(file: path) { fuzzFailure("two checks of one face differ") }
    if let glyph = check.glyphs.first(where: { Int($0) >= face.glyphCount }) {
      fuzzFailure("glyph \(glyph) is damaged in a face of \(face.glyphCount) glyphs")
    }
    _ = ColourBitmapCheck.damagedCharacters(file: path)
  }
  return 0
}
