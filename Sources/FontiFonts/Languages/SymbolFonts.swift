import FontiModel
import FontiText

/// Families that draw no letters, and so support no language, whatever their code points say.
///
/// Two kinds: fonts with a symbol cmap (fontconfig's `symbol`; fontconfig gives them no
/// language but copies their U+F020–U+F0FF characters to U+0020–U+00FF in its charset), and
/// dingbat or symbol fonts with a Unicode cmap that puts pictographs at Latin code points
/// (URW D050000L, Standard Symbols PS), which fontconfig credits with English, German and
/// dozens more. The second kind is told by the names of the glyphs it maps letters to
/// (`PictographProbe`, the same rule the specimens use).
package enum SymbolFonts {
  /// Whether `family`'s regular face is a symbol font of either kind. Reads the face's file
  /// only when fontconfig credits it with a language (a Latin one, in practice). A file that
  /// cannot be read leaves fontconfig's word standing.
  package static func drawsNoLetters(_ family: FontFamily) -> Bool {
    if family.isSymbol { return true }
    guard !family.languages.isEmpty, let face = family.regularFace else { return false }
    return drawsPictographsForLatin(file: face.file, index: face.index)
  }

  /// Whether the face's glyphs for a, b, e, A, B, E are named as something else (HarfBuzz reads
  /// the `post` or `CFF` names).
  package static func drawsPictographsForLatin(file: String, index: Int) -> Bool {
    guard let face = try? HarfBuzzFace(file: file, index: index) else { return false }
    let font = HarfBuzzFont(face: face)
    var names: [(letter: Unicode.Scalar, name: String)] = []
    for letter in PictographProbe.letters {
      guard let glyph = font.glyph(for: letter.value), glyph != 0, let name = font.glyphName(glyph)
      else { continue }
      names.append((letter, name))
    }
    return PictographProbe.isPictographic(names: names)
  }
}
