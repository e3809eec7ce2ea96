import FontiFonts
import FontiModel
import FontiText
import Foundation

/// A named instance of one face (`ProofReader` reads it, as proofs do), with its index in
/// `fvar` for `HarfBuzzFont.setNamedInstance`.
struct NamedInstance: Sendable, Hashable {
  var index: Int
  var name: String
  var coordinates: [String: Double]

  static func read(_ face: HarfBuzzFace, axes: [FontProofs.Axis]) -> [NamedInstance] {
    ProofReader.readInstances(face, axes: axes).enumerated().map {
      NamedInstance(index: $0, name: $1.name, coordinates: $1.coordinates)
    }
  }
}

extension FaceComparer {
  // MARK: Metrics, axes, instances

  /// Metric name → how it is read: hhea and OS/2 fields from the tables (HarfBuzz 6 returns
  /// only whichever the font asks layout to use), the rest through HarfBuzz's OpenType metrics.
  static func metrics(_ face: HarfBuzzFace) -> [String: Int] {
    let font = HarfBuzzFont(face: face)
    var out: [String: Int] = ["unitsPerEm": face.unitsPerEm]
    let fields: [(String, String, Int, Bool)] = [
      ("hheaAscender", "hhea", 4, true), ("hheaDescender", "hhea", 6, true),
      ("hheaLineGap", "hhea", 8, true), ("typoAscender", "OS/2", 68, true),
      ("typoDescender", "OS/2", 70, true), ("typoLineGap", "OS/2", 72, true),
      ("winAscent", "OS/2", 74, false), ("winDescent", "OS/2", 76, false),
    ]
    for (name, table, offset, signed) in fields {
      if let value = face.field(table, at: offset, signed: signed) { out[name] = value }
    }
    if let x = font.metric("xhgt") { out["xHeight"] = x }
    if let cap = font.metric("cpht") { out["capHeight"] = cap }
    return out
  }

  static func metricChanges(_ before: HarfBuzzFace, _ after: HarfBuzzFace) -> [String: [Int?]] {
    let b = metrics(before)
    let a = metrics(after)
    var out: [String: [Int?]] = [:]
    for key in Set(b.keys).union(a.keys) where b[key] != a[key] {
      out[key] = [b[key], a[key]]
    }
    return out
  }

  static func axisChanges(_ before: [FontProofs.Axis], _ after: [FontProofs.Axis], face: String)
    -> DiffReport.Axes
  {
    var out = DiffReport.Axes()
    // A hostile fvar may list a tag twice: the nth axis of a tag pairs with the nth of the
    // other side, so that a face compared with itself never differs.
    func keyed(_ axes: [FontProofs.Axis]) -> [(key: String, axis: FontProofs.Axis)] {
      var seen: [String: Int] = [:]
      return axes.map { axis in
        let n = seen[axis.tag, default: 0]
        seen[axis.tag] = n + 1
        return (n == 0 ? axis.tag : "\(axis.tag)#\(n)", axis)
      }
    }
    let (beforeKeyed, afterKeyed) = (keyed(before), keyed(after))
    let b = Dictionary(beforeKeyed, uniquingKeysWith: { x, _ in x })
    let a = Dictionary(afterKeyed, uniquingKeysWith: { x, _ in x })
    for (key, axis) in afterKeyed where b[key] == nil { out.added.append(describe(axis)) }
    for (key, axis) in beforeKeyed where a[key] == nil { out.removed.append(describe(axis)) }
    for (key, axis) in afterKeyed {
      guard let old = b[key] else { continue }
      if (old.min, old.defaultValue, old.max) != (axis.min, axis.defaultValue, axis.max) {
        out.changed.append(
          DiffReport.AxisChange(face: face, before: describe(old), after: describe(axis)))
      }
    }
    return out
  }

  static func describe(_ axis: FontProofs.Axis) -> DiffReport.Axis {
    DiffReport.Axis(
      tag: axis.tag, name: axis.name, min: axis.min, default: axis.defaultValue, max: axis.max)
  }

  static func describe(_ instance: NamedInstance, face: String) -> DiffReport.Instance {
    DiffReport.Instance(face: face, name: instance.name, coordinates: coordinates(instance))
  }

  static func coordinates(_ instance: NamedInstance) -> [String: Double] {
    instance.coordinates
  }

  /// Whether two instances sit at the same place. An axis only one side has counts, on the
  /// other, as at its default: an axis added with every instance at its default moves none.
  static func sameCoordinates(
    _ b: NamedInstance, _ a: NamedInstance,
    axes: (before: [FontProofs.Axis], after: [FontProofs.Axis])
  ) -> Bool {
    var (before, after) = (coordinates(b), coordinates(a))
    for axis in axes.after where before[axis.tag] == nil { before[axis.tag] = axis.defaultValue }
    for axis in axes.before where after[axis.tag] == nil { after[axis.tag] = axis.defaultValue }
    return before == after
  }

  /// Instances paired by name (case-insensitively; repeated names in order).
  static func pairInstances(_ before: [NamedInstance], _ after: [NamedInstance]) -> (
    [(NamedInstance, NamedInstance)], added: [NamedInstance], removed: [NamedInstance]
  ) {
    var pool: [String: [NamedInstance]] = [:]
    for i in after { pool[i.name.lowercased(), default: []].append(i) }
    var pairs: [(NamedInstance, NamedInstance)] = []
    var removed: [NamedInstance] = []
    for b in before {
      if var candidates = pool[b.name.lowercased()], !candidates.isEmpty {
        pairs.append((b, candidates.removeFirst()))
        pool[b.name.lowercased()] = candidates
      } else {
        removed.append(b)
      }
    }
    let left = Set(pool.values.flatMap { $0.map(\.index) })
    return (pairs, after.filter { left.contains($0.index) }, removed)
  }

  /// Which compared instance the review shows the sample at: the default coordinates, else the
  /// first.
  static func representative(
    _ compared: [(NamedInstance?, NamedInstance?)], axes: [FontProofs.Axis]
  )
    -> Int
  {
    let defaults = Dictionary(
      axes.map { ($0.tag, $0.defaultValue) }, uniquingKeysWith: { a, _ in a })
    return compared.firstIndex { pair in
      guard let a = pair.1 else { return true }
      return coordinates(a) == defaults
    } ?? 0
  }

  // MARK: Helpers

  /// Lengths in each face's units, equal to half a unit of the finer em.
  static func sameLength(_ a: Int, _ ua: Int, _ b: Int, _ ub: Int) -> Bool {
    if ua == ub { return a == b }
    let fine = Double(max(ua, ub, 1))
    return abs(Double(a) / Double(max(ua, 1)) - Double(b) / Double(max(ub, 1))) * fine < 0.5
  }

  static func difference(_ before: Set<String>, _ after: Set<String>)
    -> DiffReport.AddedRemoved<String>
  {
    DiffReport.AddedRemoved(
      added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted())
  }
}
