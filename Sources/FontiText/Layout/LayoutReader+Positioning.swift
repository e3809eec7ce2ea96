/// GPOS's own lookup types but pairs (`LayoutReader+Pairs`): single adjustments, cursive
/// anchors and mark attachments, each glyph taken by the first subtable that applies to it.
extension LayoutReader {
  /// GPOS 1, formats 1 (one value for every glyph) and 2 (a value each); zero values left out.
  mutating func readSinglePositioning(_ subtables: [Int]) throws(LayoutDamage)
    -> [UInt32: LayoutValue]
  {
    var out: [UInt32: LayoutValue] = [:]
    for sub in subtables {
      let format = try bytes.read16(sub)
      let covered = try coverage(sub + (try bytes.read16(sub + 2)))
      let valueFormat = try bytes.read16(sub + 4)
      switch format {
      case 1:
        let value = try value(valueFormat, at: sub + 6, base: sub)
        for (glyph, _) in covered where out[glyph] == nil { out[glyph] = value }
      case 2:
        let count = try bytes.read16(sub + 6)
        let size = Self.valueSize(valueFormat)
        try spend(covered.count)
        for (glyph, index) in covered where out[glyph] == nil && index < count {
          out[glyph] = try value(valueFormat, at: sub + 8 + index * size, base: sub)
        }
      default: throw LayoutDamage(reason: "a single adjustment of format \(format)")
      }
    }
    return out.filter { !$0.value.isZero }
  }

  /// GPOS 3: each glyph's entry and exit anchors, each from the first subtable that gives it.
  mutating func readCursive(_ subtables: [Int]) throws(LayoutDamage)
    -> [UInt32: LayoutCursiveAnchors]
  {
    var out: [UInt32: LayoutCursiveAnchors] = [:]
    for sub in subtables {
      guard try bytes.read16(sub) == 1 else {
        throw LayoutDamage(reason: "a cursive attachment of an unknown format")
      }
      let covered = try coverage(sub + (try bytes.read16(sub + 2)))
      let count = try bytes.read16(sub + 4)
      for (glyph, index) in covered where index < count {
        let entry = try bytes.read16(sub + 6 + 4 * index)
        let exit = try bytes.read16(sub + 8 + 4 * index)
        var anchors = out[glyph] ?? LayoutCursiveAnchors()
        if anchors.entry == nil, entry > 0 { anchors.entry = try anchor(sub + entry) }
        if anchors.exit == nil, exit > 0 { anchors.exit = try anchor(sub + exit) }
        if anchors.entry != nil || anchors.exit != nil { out[glyph] = anchors }
      }
    }
    return out
  }

  /// One mark attachment subtable: its marks' classes and anchors, and its bases' (or
  /// ligatures', or marks') anchors per class (per component for a ligature: one for a base).
  struct MarkSubtable {
    var marks: [UInt32: (markClass: Int, anchor: LayoutAnchor)] = [:]
    var bases: [UInt32: [[LayoutAnchor?]]] = [:]

    /// The base's anchors for `markClass`, nil when it has none (it does not attach the mark).
    func anchors(_ base: UInt32, _ markClass: Int) -> [LayoutAnchor?]? {
      guard let classes = bases[base], markClass < classes.count else { return nil }
      let anchors = classes[markClass]
      return anchors.contains { $0 != nil } ? anchors : nil
    }
  }

  /// GPOS 4, 5 and 6: marks grouped by the bases they attach to and where, each mark with its
  /// own anchor; a mark and base pair is attached by the first subtable that attaches it.
  mutating func readMarkAttachments(_ subtables: [Int], ligatures: Bool) throws(LayoutDamage)
    -> [LayoutMarkClass]
  {
    let read = try subtables.map { (sub: Int) throws(LayoutDamage) in
      try readMarkSubtable(sub, ligatures: ligatures)
    }
    // Each mark's (subtable, class) in the order tried; marks with the same attach alike.
    var tried: [UInt32: [(subtable: Int, markClass: Int)]] = [:]
    for (s, subtable) in read.enumerated() {
      for (mark, record) in subtable.marks {
        tried[mark, default: []].append((s, record.markClass))
      }
    }
    var groups: [[Int]: [UInt32]] = [:]
    for (mark, list) in tried {
      groups[list.flatMap { [$0.subtable, $0.markClass] }, default: []].append(mark)
    }
    var classes: [[UInt32: [LayoutAnchor?]]: [UInt32: LayoutAnchor]] = [:]
    for (key, marks) in groups {
      let list = stride(from: 0, to: key.count, by: 2).map { (key[$0], key[$0 + 1]) }
      // Each base attaches to the first (subtable, class) of the list that gives it an anchor.
      var basesBy = [[UInt32: [LayoutAnchor?]]](repeating: [:], count: list.count)
      var decided = Set<UInt32>()
      for (i, (s, markClass)) in list.enumerated() {
        try spend(read[s].bases.count)
        for base in read[s].bases.keys where !decided.contains(base) {
          guard let anchors = read[s].anchors(base, markClass) else { continue }
          decided.insert(base)
          basesBy[i][base] = anchors
        }
      }
      for mark in marks {
        var byAnchor: [LayoutAnchor: [UInt32: [LayoutAnchor?]]] = [:]
        for (i, (s, _)) in list.enumerated() where !basesBy[i].isEmpty {
          guard let anchor = read[s].marks[mark]?.anchor else { continue }
          byAnchor[anchor, default: [:]].merge(basesBy[i]) { first, _ in first }
        }
        for (anchor, bases) in byAnchor {
          try spend(bases.count)
          classes[bases, default: [:]][mark] = anchor
        }
      }
    }
    // In one order in every process, whatever the dictionary's: by marks, then bases (a mark
    // with anchors for other bases is in more than one class), then anchors.
    return classes.map { (marks: $0.value.keys.sorted(), bases: $0.key.keys.sorted(), $0) }
      .sorted { a, b in
        if a.marks != b.marks { return a.marks.lexicographicallyPrecedes(b.marks) }
        if a.bases != b.bases { return a.bases.lexicographicallyPrecedes(b.bases) }
        return "\(a.2)" < "\(b.2)"
      }
      .map { LayoutMarkClass(marks: $0.2.value, bases: $0.2.key) }
  }

  /// One MarkBasePos, MarkLigPos or MarkMarkPos subtable (format 1).
  mutating func readMarkSubtable(_ sub: Int, ligatures: Bool) throws(LayoutDamage)
    -> MarkSubtable
  {
    guard try bytes.read16(sub) == 1 else {
      throw LayoutDamage(reason: "a mark attachment of an unknown format")
    }
    let marks = try coverage(sub + (try bytes.read16(sub + 2)))
    let bases = try coverage(sub + (try bytes.read16(sub + 4)))
    let classCount = try bytes.read16(sub + 6)
    let markArray = sub + (try bytes.read16(sub + 8))
    let baseArray = sub + (try bytes.read16(sub + 10))
    var out = MarkSubtable()
    let markCount = try bytes.read16(markArray)
    for (mark, index) in marks where index < markCount {
      let markClass = try bytes.read16(markArray + 2 + 4 * index)
      let offset = try bytes.read16(markArray + 4 + 4 * index)
      guard markClass < classCount, offset > 0 else { continue }
      out.marks[mark] = (markClass, try anchor(markArray + offset))
    }
    let baseCount = try bytes.read16(baseArray)
    for (base, index) in bases where index < baseCount {
      if ligatures {
        let attach = baseArray + (try bytes.read16(baseArray + 2 + 2 * index))
        let components = try bytes.read16(attach)
        try spend(components * classCount)
        var perClass = [[LayoutAnchor?]](repeating: [], count: classCount)
        for c in 0..<components {
          let row = attach + 2 + 2 * c * classCount
          for k in 0..<classCount {
            perClass[k].append(try optionalAnchor(attach, try bytes.read16(row + 2 * k)))
          }
        }
        out.bases[base] = perClass
      } else {
        try spend(classCount)
        let row = baseArray + 2 + 2 * index * classCount
        out.bases[base] = try (0..<classCount).map { (k: Int) throws(LayoutDamage) in
          [try optionalAnchor(baseArray, try bytes.read16(row + 2 * k))]
        }
      }
    }
    return out
  }

  /// The anchor at `base + offset`, nil when `offset` is 0.
  mutating func optionalAnchor(_ base: Int, _ offset: Int) throws(LayoutDamage) -> LayoutAnchor? {
    offset > 0 ? try anchor(base + offset) : nil
  }
}
