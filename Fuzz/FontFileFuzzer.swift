import Foundation

@testable import FontiFonts
@testable import FontiSupport
@testable import FontiText

/// libFuzzer's entry point for the font-file check: the table directory read before FreeType
/// sees a file (`SFNT.checkDirectory`), fontconfig's query of its faces
/// (`FontFiles.inspect`, `FontFileQuery.faces`, the one rule that names a family), and the
/// names HarfBuzz reads from a damaged file to say which font failed.
///
/// Linked against the support, model, text and fonts targets (see `Fuzz/fuzz.sh`). Any input
/// may be refused; the only failures are a crash, a trap, a sanitizer report, a timeout, or a
/// broken promise checked here: a font that is accepted has a family, and every family name
/// shown is free of control characters (but a tab) once escaped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFontFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  _ = SFNT.checkDirectory(Array(UnsafeBufferPointer(start: data, count: size)), fileSize: size)
  FuzzFont.withFile(data, size) { path in
    if case .success(let inspection) = FontFiles.inspect(path) {
      if inspection.families.isEmpty { fuzzFailure("a font was accepted with no family") }
      for family in inspection.families {
        let shown = Sanitize.terminal(family)
        // A tab is kept (`Sanitize.terminal` keeps it for source snippets): it moves no cursor.
        let controls = shown.unicodeScalars.filter { $0.properties.generalCategory == .control }
        if controls.contains(where: { $0 != "\t" }) {
          fuzzFailure("a family name is shown with control characters: \(shown.debugDescription)")
        }
      }
    }
    if case .success(let faces) = FontFileQuery.faces(of: path) {
      for face in faces where face.family.isEmpty { fuzzFailure("a face of no family") }
    }
    _ = HarfBuzzFace.familyNames(file: path)
  }
  return 0
}
