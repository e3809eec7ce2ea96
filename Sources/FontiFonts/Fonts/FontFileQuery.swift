import FontiText
import Foundation

/// What fontconfig reads from one font file without installing it (through FreeType,
/// `Fontconfig.query`): every face's family, style, weight, slant, width and languages.
///
/// `diff` reads both sides of a comparison this way, file by file, so that two fonts with the
/// same family name never meet in one font map: nothing is registered and nothing is matched.
public enum FontFileQuery {
  /// One face of a file: a static face, or a variable font as a whole (its named instances are
  /// read with HarfBuzz).
  public struct Face: Sendable, Hashable, Codable {
    /// The first family name, the one Pango and the rest of the tool group by.
    public var family: String
    /// The style name; a variable font's is its default instance's ("Regular").
    public var style: String
    /// fontconfig's scales: weight 80 regular, 200 bold; slant 0 roman, 100 italic; width 100.
    public var weight: Int
    public var slant: Int
    public var width: Int
    /// The face's index in the file (a collection holds several); never a named instance.
    public var index: Int
    public var isVariable: Bool
    /// fontconfig's orthographies (its `lang` property) the face covers completely, sorted.
    public var languages: [String]
  }

  /// Why a file cannot be compared, and the family names FreeType could still read from it
  /// (empty when none), so that a review can say which family failed.
  public struct Failure: Error, Sendable, Hashable {
    public var reason: String
    public var families: [String]
  }

  /// The faces of `path`. The file is first checked like every custom font the tool accepts
  /// (`FontFiles.checkContainer`: readable, not empty, a table directory inside the file);
  /// a file that fails the check is still offered to FreeType, only to learn its family name
  /// for the failure.
  public static func faces(of path: String) -> Result<[Face], Failure> {
    let refusal = FontFiles.checkContainer(path)
    guard let query = Fontconfig.query(file: path, details: true) else {
      return .failure(Failure(reason: "cannot be checked (out of memory)", families: []))
    }
    let faces = describe(query.faces)
    if let refusal {
      // FreeType refuses most damaged files outright; HarfBuzz may still read their names.
      let names = faces.isEmpty ? HarfBuzzFace.familyNames(file: path).prefix(1).map { $0 } : []
      return .failure(
        Failure(reason: refusal.description, families: unique(faces.map(\.family) + names)))
    }
    if query.faces.isEmpty {
      return .failure(Failure(reason: "is not a font FreeType can read", families: []))
    }
    if faces.isEmpty { return .failure(Failure(reason: "has no family name", families: [])) }
    return .success(faces)
  }

  /// One `Face` per face index: the variable pattern's languages with its default instance's
  /// names, or the static face's own.
  static func describe(_ patterns: [Fontconfig.QueriedFace]) -> [Face] {
    var byIndex: [Int: (base: Fontconfig.QueriedFace?, variable: Fontconfig.QueriedFace?)] = [:]
    for p in patterns {
      guard p.index >> 16 == 0 else { continue }  // a named instance: HarfBuzz reads those
      if p.isVariable {
        byIndex[p.index, default: (nil, nil)].variable = p
      } else {
        byIndex[p.index, default: (nil, nil)].base = p
      }
    }
    return byIndex.keys.sorted().compactMap { index -> Face? in
      guard let entry = byIndex[index], let names = entry.base ?? entry.variable,
        let family = names.family, !family.isEmpty
      else { return nil }
      let style = names.style.flatMap { $0.isEmpty ? nil : $0 }
      return Face(
        family: family, style: style ?? "Regular", weight: names.weight ?? 80,
        slant: names.slant ?? 0, width: names.width ?? 100, index: index,
        isVariable: entry.variable != nil,
        languages: (entry.variable ?? names).languages)
    }
  }

  private static func unique(_ names: [String]) -> [String] {
    var seen = Set<String>()
    return names.filter { seen.insert($0.lowercased()).inserted }
  }
}
