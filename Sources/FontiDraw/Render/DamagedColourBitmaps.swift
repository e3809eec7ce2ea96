import FontiModel
import FontiSupport
import FontiText

/// What a drawing says of a family whose colour bitmaps are damaged (`ColourBitmapCheck`):
/// those glyphs are drawn empty, never handed to Cairo, and one warning names them.
enum DamagedColourBitmaps {
  /// The warning for `characters` of `family` drawn empty in `place` ("the glyph chart"),
  /// naming the first twelve and the first problem.
  static func warning(
    family: String, characters: [UInt32], problem: String, in place: String
  ) -> String {
    let codes = characters.map(CodePointText.format)
    let shown = Sanitize.list(codes, limit: 12)
    let count =
      codes.count == 1 ? "1 damaged colour bitmap" : "\(codes.count) damaged colour bitmaps"
    return "family '\(family)': \(count) (\(shown): \(problem)) drawn empty in \(place)"
  }

  /// The warning for a drawing of `text` in `face` that drew `blanked` glyphs empty, naming the
  /// damaged characters of `text` (all the face's when `text` has none: a fallback was drawn).
  static func warning(family: String, face: FontFace, text: String, in place: String) -> String? {
    guard let found = ColourBitmapCheck.damagedCharacters(file: face.file, index: face.index)
    else { return nil }
    let used = Set(text.unicodeScalars.map(\.value))
    let named = found.characters.filter(used.contains)
    return warning(
      family: family, characters: named.isEmpty ? found.characters : named,
      problem: found.problem, in: place)
  }
}
