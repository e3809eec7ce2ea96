import Foundation

@testable import FontiDiff
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport
@testable import FontiText

/// The sound font each input is compared with, both ways (run from the repository's root).
let soundFont = "Tests/Fixtures/AnswerFonts/AnswerSans-Regular.ttf"

/// libFuzzer's entry point for `diff`'s readers of font bytes: the tables compared byte for
/// byte, the metrics read as fields of `head`, `hhea`, `OS/2` and `post`, the class
/// definitions and pair tables of GDEF, GPOS and `kern` (`KerningClasses`), what a face declares
/// (`DeclaredTables`: OS/2, head, post, name, gasp, glyph instructions, CPAL, STAT, cmap 14,
/// MATH, vmtx, read when the other side's table differs), the colour glyphs (`ColourGlyphs`:
/// COLR layers and paint graphs, SVG documents; `ColourBitmapStrike`: CBDT/CBLC and sbix
/// strikes; read both ways and on the input alone), the outlines and
/// advances rasterised and compared, the named instances and axes, and the shaping of the
/// review's sample, through `FaceComparer.compare`, as `diff` calls it for each pair of faces.
///
/// Each input is compared with itself (every shortcut off, so nothing is skipped as the same
/// bytes) and with a sound font both ways. Linked against the support, model, text, fonts and
/// diff targets (see `Fuzz/fuzz.sh`). The only failures are a crash, a trap, a sanitizer
/// report, a timeout, or a broken promise checked here: a face compared with itself differs
/// in nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFontDiff(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  FuzzFont.withFile(data, size) { path in
    guard case .success(let faces) = FontFileQuery.faces(of: path), let face = faces.first,
      case .success(let sound) = FontFileQuery.faces(of: soundFont), let soundFace = sound.first
    else { return }
    let input = SideFace(query: face, file: path, relativePath: "input.ttf")
    let other = SideFace(query: soundFace, file: soundFont, relativePath: "sound.ttf")
    var settings = DiffSettings()
    settings.shortcuts = false
    let comparer = FaceComparer(settings: settings)
    let itself = FacePair(before: input, after: input, label: "Regular")
    comparer.sample = comparer.sampleSource(for: itself)
    if let difference = try? comparer.compare(itself), differs(difference) {
      fuzzFailure("a face compared with itself differs: \(difference)")
    }
    _ = try? comparer.compare(FacePair(before: input, after: other, label: "Regular"))
    _ = try? comparer.compare(FacePair(before: other, after: input, label: "Regular"))
    if let hb = try? HarfBuzzFace(file: path) {
      _ = KerningClasses(face: hb)
      // The colour glyph readers on both sides at once: the comparisons above reach them only
      // where the other side's table differs. A face's colour glyphs equal themselves.
      var colour = DeclaredComparer(before: hb, after: hb, face: "Regular")
      colour.colour(differing: ["COLR", "CBDT", "CBLC", "sbix", "SVG "])
      if let found = colour.out.changes.first(where: { !$0.text.contains("(unreadable: ") }) {
        fuzzFailure("a face's colour glyphs compared with themselves differ: \(found)")
      }
    }
  }
  return 0
}

/// Whether a face's comparison found anything that `diff` would report.
func differs(_ d: FaceDifference) -> Bool {
  !d.codepointsAdded.isEmpty || !d.codepointsRemoved.isEmpty || !d.glyphs.isEmpty
    || !d.metrics.isEmpty || !d.axes.isEmpty || !d.instances.isEmpty
    || !(d.shaping?.isEmpty ?? true) || !d.sample.isEmpty || !d.declared.changes.isEmpty
    || !d.declared.info.isEmpty
}
