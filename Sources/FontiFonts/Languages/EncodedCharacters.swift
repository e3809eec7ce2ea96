import FontiModel
import FontiSupport
import FontiText

/// The characters a face encodes, from its own cmap (HarfBuzz), for the manifest's
/// `codepoints` and the glyph chart. Not fontconfig's charset: for a symbol font that copies
/// the U+F020–U+F0FF characters to U+0020–U+00FF, which the font does not encode.
public enum EncodedCharacters {
  /// Every Unicode scalar `face`'s cmap maps to a glyph, ascending.
  public static func of(_ face: FontFace) throws(FontReadError) -> [UInt32] {
    try of(file: face.file, index: face.index)
  }

  /// Every Unicode scalar the cmap of face `index` of `file` maps to a glyph, ascending. The
  /// index may carry a variable font's named instance (fontconfig's upper 16 bits): instances
  /// share their face's cmap.
  public static func of(file: String, index: Int = 0) throws(FontReadError) -> [UInt32] {
    try HarfBuzzFace(file: file, index: index).unicodes
  }

  /// The characters of `family`'s regular face (what `codepoints` counts); empty for a family
  /// without faces.
  public static func ofRegularFace(_ family: FontFamily) throws(FontReadError) -> [UInt32] {
    guard let face = family.regularFace else { return [] }
    return try of(face)
  }
}

/// Faces of a family that lack characters its regular face has. A family's language coverage
/// is its regular face's, so a bold or italic that lacks some of them is worth a warning.
public enum FaceCoverage {
  /// How many missing characters a warning lists before "…".
  public static let listed = 5

  /// At most one warning for the family, naming every face that lacks characters the regular
  /// has (or whose file cannot be read), in face order: the first with the characters listed,
  /// the others with their counts — "Bold lacks 126 characters of Book: U+2102, U+210D, U+2115,
  /// U+2119, U+211A, …; Italic lacks 73; Bold Italic lacks 126". One line per family, not per
  /// face: DejaVu's nine faces would otherwise say the same thing nine times in every run.
  /// Faces are compared by their cmaps; faces of the regular's own file and face index (a
  /// variable font's instances) are skipped.
  ///
  /// Only the faces Pango draws are compared (`FontFamily.openTypeFaces`): a Type 1 or bitmap
  /// copy of a face is never drawn, so what it lacks never shows, and its file is no error. A
  /// family of such faces alone gets no warning here. An OpenType face whose file cannot be
  /// read is named, unless `unreadable` is false (the caller already named it: the proofs'
  /// warning does, and a file is named once per family).
  public static func warnings(for family: FontFamily, unreadable: Bool = true) -> [String] {
    guard let regular = family.regularFace, regular.isOpenType else { return [] }
    guard let base = try? EncodedCharacters.of(regular) else { return [] }
    var parts: [String] = []
    var failed: [String] = []
    var seen: Set<String> = [key(regular)]
    let name = names(family.openTypeFaces + [regular])
    for face in family.openTypeFaces where seen.insert(key(face)).inserted {
      do {
        let missing = lacking(try EncodedCharacters.of(face), base)
        guard !missing.isEmpty else { continue }
        if parts.isEmpty,
          let first = warning(face: name(face), regular: name(regular), lacks: missing)
        {
          parts.append(first)
        } else {
          parts.append("\(Sanitize.terminal(name(face))) lacks \(missing.count)")
        }
      } catch {
        let part = Sanitize.terminal("\(face.style): \(error.description)")
        if unreadable, !failed.contains(error.file) { parts.append(part) }
        failed.append(error.file)
      }
    }
    return parts.isEmpty ? [] : [parts.joined(separator: "; ")]
  }

  /// The warning for a face that lacks `missing` (ascending), or nil when it lacks nothing.
  static func warning(face: String, regular: String, lacks missing: [UInt32]) -> String? {
    guard !missing.isEmpty else { return nil }
    let shown = missing.prefix(listed).map(CodePointText.format).joined(separator: ", ")
    let more = missing.count > listed ? ", …" : ""
    let noun = missing.count == 1 ? "character" : "characters"
    return "\(Sanitize.terminal(face)) lacks \(missing.count) \(noun) of "
      + "\(Sanitize.terminal(regular)): \(shown)\(more)"
  }

  /// The elements of `base` not in `characters` (both ascending).
  static func lacking(_ characters: [UInt32], _ base: [UInt32]) -> [UInt32] {
    var out: [UInt32] = []
    var i = 0
    for c in base {
      while i < characters.count && characters[i] < c { i += 1 }
      if i == characters.count || characters[i] != c { out.append(c) }
    }
    return out
  }

  /// How a warning names each of `faces`: by its style, and where two files give one style
  /// (two versions of a family installed side by side, such as Debian's fonts-liberation and
  /// fonts-liberation2) with its folder and file too: "Regular (liberation/LiberationMono-
  /// Regular.ttf)". Otherwise "Regular lacks 1643 characters of Regular" would say nothing.
  static func names(_ faces: [FontFace]) -> (FontFace) -> String {
    var files: [String: Set<String>] = [:]
    for face in faces { files[face.style, default: []].insert(face.file) }
    return { face in
      guard (files[face.style]?.count ?? 0) > 1 else { return face.style }
      let parts = face.file.split(separator: "/").suffix(2).joined(separator: "/")
      return "\(face.style) (\(parts))"
    }
  }

  private static func key(_ face: FontFace) -> String { "\(face.index & 0xFFFF)\u{0}\(face.file)" }
}
