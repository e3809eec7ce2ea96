import FontiFonts
import FontiText
import Foundation

/// A family that moved between static fonts and a variable font (#56): a face removed on one
/// side is compared with a named instance (or a face) added on the other, when they have the
/// same style name, else the same weight, width and slope. 18 static Inter faces against
/// Inter's variable fonts are 18 pairs ("Bold (static) → Bold (instance of Inter)"), not
/// "16 faces removed, 18 instances added".
extension FamilyComparison {
  /// What a migration paired, and what stays removed or added.
  struct Migrations {
    var pairs: [FacePair] = []
    var migrated: [DiffReport.Migration] = []
    /// Labels of faces left unpaired, as `pairFaces` says them.
    var added: [String] = []
    var removed: [String] = []
    /// Named instances of a variable font paired in part: those left unpaired.
    var instancesAdded: [DiffReport.Instance] = []
    var instancesRemoved: [DiffReport.Instance] = []
  }

  /// A static face, a variable font's named instance, or a variable font naming none: what a
  /// migration pairs, with the style, weight (OS/2 scale), width (percent) and slope it has.
  struct MigrationCandidate {
    var face: SideFace
    /// The face's label on its side (`labels`).
    var label: String
    var instance: NamedInstance?
    var style: String
    var weight: Double
    var width: Double
    var italic: Bool
    /// "Bold (static)", "Bold (instance of Inter)", "Regular (variable)".
    var name: String

    var isVariable: Bool { face.query.isVariable }
  }

  /// Pairs the faces `pairFaces` left `removed` (BEFORE) and `added` (AFTER) across a move
  /// between static and variable fonts: by style name where it is unique, then by weight,
  /// width and slope where they are; a static face only ever with a variable font's instance
  /// (or a variable font naming none), and the other way round.
  static func migrate(
    removed: [(SideFace, String)], added: [(SideFace, String)], family: String
  ) -> Migrations {
    var left = removed.flatMap { candidates($0.0, label: $0.1, family: family) }
    var right = added.flatMap { candidates($0.0, label: $0.1, family: family) }
    var out = Migrations()

    func take(_ key: (MigrationCandidate) -> AnyHashable) {
      var counts: [AnyHashable: (Int, Int)] = [:]
      for c in left { counts[key(c), default: (0, 0)].0 += 1 }
      for c in right { counts[key(c), default: (0, 0)].1 += 1 }
      var remaining: [MigrationCandidate] = []
      for b in left {
        guard counts[key(b)].map({ $0 == (1, 1) }) ?? false,
          let match = right.firstIndex(where: { key($0) == key(b) }),
          right[match].isVariable != b.isVariable
        else {
          remaining.append(b)
          continue
        }
        let a = right.remove(at: match)
        let migration = DiffReport.Migration(
          face: "\(b.name) → \(a.name)", before: paired(b), after: paired(a))
        out.migrated.append(migration)
        out.pairs.append(
          FacePair(
            before: b.face, after: a.face, label: migration.face, migration: migration,
            beforeInstance: b.instance, afterInstance: a.instance))
      }
      left = remaining
    }
    // Static pairs with variable only, never like with like (`pairFaces` did those).
    take { $0.style.lowercased() }
    take { [$0.weight, $0.width, $0.italic ? 1 : 0] as [AnyHashable] }

    // A face none of whose candidates paired stays removed or added; a variable font paired
    // in part leaves its other named instances removed or added.
    func leftovers(
      _ faces: [(SideFace, String)], _ unpaired: [MigrationCandidate]
    ) -> (faces: [String], instances: [DiffReport.Instance]) {
      var labels: [String] = []
      var instances: [DiffReport.Instance] = []
      for (face, label) in faces {
        let mine = unpaired.filter { $0.label == label && $0.face == face }
        let all = candidates(face, label: label, family: family).count
        if mine.count == all || all == 0 {
          labels.append(label)
        } else {
          instances += mine.compactMap { c in
            c.instance.map { FaceComparer.describe($0, face: label) }
          }
        }
      }
      return (labels, instances)
    }
    (out.removed, out.instancesRemoved) = leftovers(removed, left)
    (out.added, out.instancesAdded) = leftovers(added, right)
    return out
  }

  static func paired(_ c: MigrationCandidate) -> DiffReport.PairedFace {
    DiffReport.PairedFace(file: c.face.file, style: c.style, instance: c.instance?.name)
  }

  /// The candidates of one face: a static face itself; a variable font's named instances, or
  /// the font itself when it names none. None when the file cannot be read.
  static func candidates(_ face: SideFace, label: String, family: String)
    -> [MigrationCandidate]
  {
    guard let hb = try? HarfBuzzFace(file: face.file, index: face.query.index) else { return [] }
    // OS/2: usWeightClass (4), usWidthClass (6), fsSelection (62); head.macStyle (44).
    let weight = Double(hb.field("OS/2", at: 4, signed: false) ?? 400)
    let width = widthPercent(hb.field("OS/2", at: 6, signed: false) ?? 5)
    let italic =
      (hb.field("OS/2", at: 62, signed: false) ?? 0) & 1 != 0
      || (hb.field("head", at: 44, signed: false) ?? 0) & 2 != 0 || face.query.slant > 0
    let own = MigrationCandidate(
      face: face, label: label, instance: nil, style: face.style, weight: weight, width: width,
      italic: italic,
      name: "\(face.style) (\(face.query.isVariable ? "variable" : "static"))")
    guard face.query.isVariable else { return [own] }
    let instances = NamedInstance.read(hb, axes: FontAxes.read(hb).axes)
    guard !instances.isEmpty else { return [own] }
    let font = face.style.lowercased() == "regular" ? family : "\(family) \(face.style)"
    return instances.map { i in
      let c = i.coordinates
      return MigrationCandidate(
        face: face, label: label, instance: i, style: i.name, weight: c["wght"] ?? weight,
        width: c["wdth"] ?? width,
        italic: (c["ital"] ?? 0) >= 0.5 || (c["slnt"] ?? 0) != 0 || italic,
        name: "\(i.name) (instance of \(font))")
    }
  }

  /// OS/2 usWidthClass 1–9 as a percentage of normal, as the `wdth` axis says it.
  static func widthPercent(_ widthClass: Int) -> Double {
    let percents: [Double] = [50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200]
    return percents[min(max(widthClass, 1), 9) - 1]
  }
}

extension DeclaredDifference {
  /// Kinds a variable font declares once for all its instances (its default's style names and
  /// style bits and bounding box, its instances' and axes' names, STAT): across a migration they say the
  /// default, not the instance compared, and are no change.
  static func isWholeFont(_ kind: String) -> Bool {
    if ["stat", "os2.fsSelection", "head.macStyle", "head.bbox"].contains(kind) { return true }
    guard kind.hasPrefix("name."), let id = Int(kind.dropFirst(5)) else { return false }
    return [1, 2, 4, 6, 16, 17].contains(id) || id >= 256
  }

  /// What a migrated pair declares differently, without what the variable font declares for
  /// all its instances at once; its weight class (and width class) kept only where the static
  /// face's differs from the instance's coordinates.
  func acrossMigration(_ pair: FacePair) -> DeclaredDifference {
    let instance = pair.afterInstance ?? pair.beforeInstance
    let staticAfter = pair.afterInstance == nil && pair.beforeInstance != nil
    func matchesInstance(_ c: DiffReport.Change, axis: String) -> Bool {
      guard let value = instance?.coordinates[axis] else { return false }
      let side = staticAfter ? c.after : c.before
      if axis == "wdth", case .int(let widthClass) = side {
        return FamilyComparison.widthPercent(widthClass) == value
      }
      return side == .int(Int(value.rounded()))
    }
    var out = self
    out.changes = changes.filter { c in
      if DeclaredDifference.isWholeFont(c.kind) { return false }
      if c.kind == "os2.weightClass" { return !matchesInstance(c, axis: "wght") }
      if c.kind == "os2.widthClass" { return !matchesInstance(c, axis: "wdth") }
      return true
    }
    let kept = Set(out.changes.map(\.text))
    let dropped = Set(changes.map(\.text)).subtracting(kept)
    out.lines = lines.filter { !dropped.contains($0) }
    return out
  }
}
