import FontiModel
import FontiSupport

/// Faces whose style name says one weight while the weight fontconfig reads from the font (its
/// OS/2 weight class) says another: Noto Serif Myanmar's "Bold" file declares a regular weight,
/// Linux Biolinum Keyboard's only face, "Regular", a bold one. fontconfig, and so Pango and
/// every application on the system, goes by the weight: such a "Bold" is a second regular (the
/// family has no bold, and a plain request may draw it), such a "Regular" is the family's bold.
/// The specimen and the catalogue show what fontconfig sees; this warning says why their style
/// row and the style names disagree — a fault to report to the font's maker.
public enum FaceWeights {
  /// At most one warning for the family, naming each face whose style name and weight disagree,
  /// in face order.
  public static func warnings(for family: FontFamily) -> [String] {
    var seen = Set<String>()
    let parts = family.renderableFaces.compactMap { face -> String? in
      guard seen.insert(face.style).inserted else { return nil }
      let style = Sanitize.terminal(face.style)
      if namesBold(face.style), face.weight < 180 {
        return "face '\(style)' has \(named(face.weight)): fontconfig and Pango see no bold in it, "
          + "and may draw it for regular text"
      }
      if namesRegular(face.style), face.weight >= 180 {
        return "face '\(style)' has \(named(face.weight)): fontconfig and Pango take it for a "
          + "bold, not a regular"
      }
      return nil
    }
    return parts.isEmpty ? [] : [parts.joined(separator: "; ")]
  }

  /// The words of a style name, lower-cased, without slant words and optical-size numbers
  /// ("12 Bold Italic" → ["bold"]).
  static func words(_ style: String) -> [String] {
    style.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).map(
      String.init
    ).filter { word in
      !["italic", "oblique", "slanted", "upright"].contains(word) && !word.allSatisfy(\.isNumber)
    }
  }

  /// "Bold" and no word that makes it another weight ("Semi Bold", "ExtraBold", "Bold Condensed"
  /// is still bold).
  static func namesBold(_ style: String) -> Bool {
    let words = words(style)
    let other = [
      "semi", "demi", "extra", "ultra", "semibold", "demibold", "extrabold", "ultrabold",
    ]
    return words.contains("bold") && !words.contains(where: other.contains)
  }

  /// Nothing but a name for the regular weight ("Regular", "Book", "Normal", "Roman", "Plain").
  static func namesRegular(_ style: String) -> Bool {
    let words = words(style)
    return words.count == 1 && ["regular", "book", "normal", "roman", "plain"].contains(words[0])
  }

  /// "a regular weight (fontconfig 80)", "an extra-bold weight (fontconfig 205)".
  static func named(_ weight: Int) -> String {
    let name = name(of: weight)
    return "\(name.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(name) weight "
      + "(fontconfig \(weight))"
  }

  /// The name of a fontconfig weight, by the nearest of its named steps.
  static func name(of weight: Int) -> String {
    let steps: [(Int, String)] = [
      (0, "thin"), (40, "extra-light"), (50, "light"), (55, "semi-light"), (75, "book"),
      (80, "regular"), (100, "medium"), (180, "semibold"), (200, "bold"), (205, "extra-bold"),
      (210, "black"), (215, "extra-black"),
    ]
    return steps.min { abs($0.0 - weight) < abs($1.0 - weight) }?.1 ?? "regular"
  }
}
