import Foundation

/// File names derived from family names: lower-case ASCII `[a-z0-9-]`, never empty, never
/// able to leave the folder, whatever a font file calls itself.
public enum Slug {
  /// Longest slug kept, before any collision suffix.
  static let maximumLength = 80

  /// "DejaVu Serif" → "dejavu-serif"; "Ünïcødé" → "unicode"; "Ærøskøbing" → "aeroskobing";
  /// "../../x" → "x"; "😀" → "family".
  public static func make(_ name: String) -> String {
    let folded = fold(name)
    var out = ""
    var pendingDash = false
    for scalar in folded.unicodeScalars {
      let v = scalar.value
      let c: Character?
      switch v {
      case 0x30...0x39, 0x61...0x7A: c = Character(scalar)
      case 0x41...0x5A: c = Unicode.Scalar(v + 32).map(Character.init)
      default: c = nil
      }
      if let c {
        if pendingDash && !out.isEmpty { out.append("-") }
        pendingDash = false
        out.append(c)
        if out.count >= maximumLength { break }
      } else {
        pendingDash = true
      }
    }
    return out.isEmpty ? "family" : out
  }

  /// Letters folded to ASCII where a folding exists, the way a reader would: accents dropped
  /// (é → e), and the letters that are not a base letter with an accent spelt out (ø → o,
  /// æ → ae, ß → ss, đ → d, ł → l, þ → th, œ → oe), by ICU's Latin-ASCII transliteration; then
  /// compatibility forms (ﬁ → fi, fullwidth Ａ → A, ² → 2). Other scripts are left as they are
  /// (and so dropped by `make`). ASCII names are returned as they are.
  static func fold(_ name: String) -> String {
    if name.utf8.allSatisfy({ $0 < 0x80 }) { return name }
    let latin = name.applyingTransform(StringTransform("Latin-ASCII"), reverse: false) ?? name
    var out = String.UnicodeScalarView()
    for scalar in latin.decomposedStringWithCompatibilityMapping.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .spacingMark, .enclosingMark: continue
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// Slugs for `names`, in order, unique within the list: the second "foo" becomes "foo-2".
  public static func unique(_ names: [String]) -> [String] {
    var used = Set<String>()
    return names.map { name in
      let base = make(name)
      var candidate = base
      var n = 2
      while !used.insert(candidate).inserted {
        candidate = "\(base)-\(n)"
        n += 1
      }
      return candidate
    }
  }
}
