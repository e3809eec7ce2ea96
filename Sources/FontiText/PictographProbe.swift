import FontiModel

/// Tells a dingbat or symbol font that encodes its pictographs at Latin code points (D050000L,
/// Standard Symbols PS) from a font that really has letters there, by the names of the glyphs
/// it maps a few letters to. fontconfig cannot tell: such a font "covers" Latin, and fontconfig
/// lists English, German and dozens more among its languages.
///
/// One rule for every reader of glyph names (Pango/FreeType for specimens, HarfBuzz for
/// language coverage), so that a family never counts as pictographic in one place and textual
/// in another.
package enum PictographProbe {
  /// The letters whose glyphs are looked at.
  package static let letters: [Unicode.Scalar] = ["a", "b", "e", "A", "B", "E"]

  /// Whether the glyph names of `letters` (those the font maps and names; fonts without glyph
  /// names say nothing and count as textual) show pictographs: at least three named, and most
  /// of them not named after their letter (`a`, `uni0061`, `a.sc`, `a.alt`…).
  package static func isPictographic(names: [(letter: Unicode.Scalar, name: String)]) -> Bool {
    var pictographic = 0
    for (letter, name) in names {
      let text = String(letter)
      let expected = [text, "uni" + CodePointText.hex(letter.value), text + ".sc"]
      if !expected.contains(name) && !name.hasPrefix(text + ".") { pictographic += 1 }
    }
    return names.count >= 3 && pictographic * 2 > names.count
  }
}
