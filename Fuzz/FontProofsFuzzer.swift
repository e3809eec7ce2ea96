import Foundation

@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport
@testable import FontiText

/// libFuzzer's entry point for the proof readers: everything a run reads from a font's own
/// tables for its proofs and manifest. `fvar`, `avar` and `STAT` (`FontAxes`, named
/// instances, the sweep's variation check), `cmap` (the coverage, the glyph chart's
/// characters, each face's coverage against the regular one), `name`, the GSUB and GPOS
/// script, language and feature lists and the lookups a feature sample is found in
/// (`ProofReader`, `FeatureSampler`), and the colour bitmaps checked before drawing.
///
/// Linked against the support, model, text and fonts targets (see `Fuzz/fuzz.sh`). Any font
/// may be refused or read as having nothing; the only failures are a crash, a trap, a
/// sanitizer report, a timeout (a reader that does not stop on a hostile count), or a broken
/// promise checked here: every warning the font earns is a font fact, never the job's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFontProofs(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzFont.withFile(data, size) { path in
    guard let face = try? HarfBuzzFace(file: path) else { return }
    let characters = face.unicodes
    let regular = FontFace(style: "Regular", weight: 80, slant: 0, file: path)
    let italic = FontFace(style: "Italic", weight: 80, slant: 100, file: path)
    let family = FontFamily(
      name: "Fuzz", faces: [regular, italic], coverage: CharacterCoverage(scalars: characters))
    let report = FamilyProofReport.read(
      family, options: ProofOptions(axes: true, features: true, languages: true, glyphs: true))
    // What a font says of itself is a font fact: never a warning `--strict` holds the job to.
    for warning in report.warnings + FaceCoverage.warnings(for: family)
    where WarningKind.of(warning).group != .font {
      fuzzFailure("a font's warning is the job's: \(warning)")
    }
    for id: UInt32 in [1, 2, 4, 16, 17, 21, 22, 256, 0xFFFF] { _ = face.name(id) }
    _ = HarfBuzzFont(face: face).reverseCharacterMap()
    _ = ColourBitmapCheck(face: face)
    _ = ColourBitmapCheck.damagedCharacters(file: path)
  }
  return 0
}
