import FontiFonts
import FontiModel
import FontiSupport
import FontiText

/// A specimen and the family's faces: the face a sample is set in by name (`render --face`,
/// `serve`'s face picker), and how many faces the family has, beside the B and I badges.
extension SpecimenRenderer {
  /// The footer's row: its top, the badges' size, and where what the badges take ends.
  struct Footer {
    var top: Double
    var badgeSize: Double
    var right: Double
  }

  /// The face of `family` named `name` (as `FaceName` compares names) that Pango can draw, or
  /// `regular` and a warning saying what is shown instead: never a stand-in passed off as it.
  static func face(named name: String, in family: FontFamily, regular: FontFace)
    -> (FontFace, String?)
  {
    let named = family.faces(named: name)
    if let face = named.first(where: \.isRenderable) { return (face, nil) }
    let shown = Sanitize.terminal(regular.style)
    let asked = Sanitize.terminal(String(name.prefix(Limits.faceNameLength)))
    if let face = named.first {
      return (
        regular,
        "family '\(family.name)' has no real '\(asked)' face Pango can draw "
          + "(\(FamilyFace.problem(face) ?? "")); shown in \(shown)"
      )
    }
    return (regular, "family '\(family.name)' has no real '\(asked)' face; shown in \(shown)")
  }

  /// How many faces the family has, after the badges: "18 faces", or the face the sample is
  /// set in among them ("Semibold Italic · 12 of 18 faces") when one was asked for by name. A
  /// family of up to four faces, shown in its regular, says nothing: the badges tell it all.
  /// Returns where the footer's free room starts.
  func drawFaceCount(_ page: SpecimenPage, _ footer: Footer, named: Bool) -> Double {
    let faces = page.family.distinctFaces
    let k = page.k
    var text: String?
    if named, let at = faces.firstIndex(of: page.face) {
      text =
        "\(Sanitize.terminal(page.face.style)) · \(at + 1) of \(faces.count) "
        + (faces.count == 1 ? "face" : "faces")
    } else if faces.count > CataloguePlan.facesOnFamilyPage {
      text = "\(faces.count) faces"
    }
    guard let text, let labelContext = page.labelContext, let labelFamily else {
      return footer.right
    }
    let left = footer.right + 26 * k
    let layout = TextLayout(
      text, font: FontSpec(family: labelFamily.name, size: 19 * k, face: labelFamily.regularFace),
      in: labelContext, fallback: true)
    layout.ellipsize(width: (page.edge - left - page.margin) / 2)
    page.cr.setColour(page.palette.text, alpha: 0.7)
    layout.draw(at: left, footer.top + (footer.badgeSize - layout.size.height) / 2)
    return left + layout.size.width
  }
}
