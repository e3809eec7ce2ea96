import FontiFonts
import FontiModel
import FontiSupport
import FontiText

/// What a specimen and its run say of characters the family lacks.
extension SpecimenRenderer {
  /// The run's warning for boxes in a sample: the characters the family lacks (the first eight
  /// named), as the specimen's note counts them, and the boxes drawn, as `missingGlyphs` and
  /// the gallery count them (a character used twice is one character and two boxes).
  /// `instead`: what the specimen shows in place of a sample the family cannot set (its own
  /// script, its glyphs, the text in capitals); such a warning is a fact about the font
  /// (`own-script`), not about the job (`missing-glyphs`).
  static func missingWarning(
    _ family: String, boxes: Int, _ characters: [Unicode.Scalar], instead: String? = nil
  )
    -> String
  {
    let lacking = max(characters.count, 1)
    let noun = lacking == 1 ? "character" : "characters"
    let codes = characters.map { CodePointText.format($0.value) }
    let named =
      codes.isEmpty
      ? "" : codes.prefix(8).joined(separator: ", ") + (codes.count > 8 ? ", …" : "") + "; "
    let drawn = boxes == 1 ? "1 box" : "\(boxes) boxes"
    let warning =
      "family '\(family)' lacks \(lacking) \(noun) of the sample text (\(named)\(drawn) drawn)"
    guard let instead else { return warning }
    return warning + "; its specimen shows \(instead)"
  }

  /// What a specimen shows in place of a sample its family cannot set, for its warning.
  static func shows(_ sample: FallbackSample) -> String {
    switch sample {
    case .capitals: return "the text in capitals"
    case .language(let code, let name, _): return "its own script (\(name == code ? code : name))"
    case .glyphGrid: return "its own glyphs"
    }
  }

  /// The specimen's note on the characters of the text the family lacks: each distinct one
  /// counted once (a sample with "ą" four times lacks one character), and named when there
  /// are at most four, all visible and `drawable` in the note's face ("3 characters of the
  /// text not in this font: “ą” “ę” “ł”").
  static func missingNote(
    _ characters: [Unicode.Scalar], drawable: (Unicode.Scalar) -> Bool = { _ in true }
  ) -> String {
    let count = max(characters.count, 1)
    let note = "\(count) character\(count == 1 ? "" : "s") of the text not in this font"
    let visible = characters.allSatisfy { s in
      switch s.properties.generalCategory {
      case .control, .format, .nonspacingMark, .enclosingMark, .privateUse, .surrogate,
        .unassigned, .spaceSeparator, .lineSeparator, .paragraphSeparator:
        return false
      default:
        return !s.properties.isDefaultIgnorableCodePoint && drawable(s)
      }
    }
    guard !characters.isEmpty, characters.count <= 4, visible else { return note }
    // Quoted: a lone comma or full stop would read as the sentence's own punctuation.
    return note + ": " + characters.map { "“\($0)”" }.joined(separator: " ")
  }
}
