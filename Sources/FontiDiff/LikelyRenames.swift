import FontiSupport
import FontiText
import Foundation

extension DiffReport {
  /// A family removed while another was added with the same outlines or the same file name:
  /// probably the same family renamed. Both keep their status; each names the other.
  public struct LikelyRename: Codable, Sendable, Hashable {
    public var before: String
    public var after: String
    /// "same outlines" or "same file name".
    public var reason: String
  }
}

/// Pairs removed and added families that are probably one family renamed: the same outlines
/// in their first usual face (every character's outline, HarfBuzz's path commands and
/// points), else a font file of the same name.
enum LikelyRenames {
  static func mark(_ outcomes: inout [FamilyOutcome], before: DiffSide, after: DiffSide) {
    let removed = outcomes.indices.filter { outcomes[$0].entry.status == .removed }
    let added = outcomes.indices.filter { outcomes[$0].entry.status == .added }
    guard !removed.isEmpty, !added.isEmpty else { return }
    func side(_ i: Int, _ from: DiffSide) -> SideFamily? {
      from.families[outcomes[i].entry.family.lowercased()]
    }
    var prints: [Int: Int] = [:]
    func fingerprint(_ i: Int, _ from: DiffSide) -> Int? {
      if let known = prints[i] { return known }
      guard let face = side(i, from)?.faces.sorted(by: SideFace.order).first,
        let value = outlines(face)
      else { return nil }
      prints[i] = value
      return value
    }
    var taken = Set<Int>()
    for r in removed {
      let names = Set((side(r, before)?.faces ?? []).map { FileSystem.name(of: $0.relativePath) })
      var match: (Int, String)?
      if let print = fingerprint(r, before) {
        if let a = added.first(where: { !taken.contains($0) && fingerprint($0, after) == print }) {
          match = (a, "same outlines")
        }
      }
      if match == nil,
        let a = added.first(where: { a in
          !taken.contains(a)
            && (side(a, after)?.faces ?? []).contains {
              names.contains(FileSystem.name(of: $0.relativePath))
            }
        })
      {
        match = (a, "same file name")
      }
      guard let (a, reason) = match else { continue }
      taken.insert(a)
      let rename = DiffReport.LikelyRename(
        before: outcomes[r].entry.family, after: outcomes[a].entry.family, reason: reason)
      for i in [r, a] {
        outcomes[i].entry.likelyRename = rename
        outcomes[i].entry.summary.append(
          "likely rename: \(rename.before) → \(rename.after)? (\(reason))")
      }
    }
  }

  /// A hash of every encoded character's outline, in code point order; nil when the file
  /// cannot be read or draws nothing.
  static func outlines(_ face: SideFace) -> Int? {
    guard let hb = try? HarfBuzzFace(file: face.file, index: face.query.index) else { return nil }
    let font = HarfBuzzFont(face: hb)
    var hasher = Hasher()
    var drawn = 0
    for scalar in hb.unicodes {
      guard let glyph = font.glyph(for: scalar) else { continue }
      let outline = font.outline(of: glyph)
      if !outline.isEmpty { drawn += 1 }
      hasher.combine(scalar)
      hasher.combine(outline)
    }
    return drawn > 0 ? hasher.finalize() : nil
  }
}
