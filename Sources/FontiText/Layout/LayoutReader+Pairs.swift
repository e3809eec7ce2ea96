/// GPOS 2, pair adjustment, formats 1 (pairs one by one) and 2 (class pairs), read as the
/// coarsest classes of first and second glyphs that adjust alike and the value of each pair of
/// classes. A pair is adjusted by the first subtable that applies to it (format 1: one that
/// lists it; format 2: one that covers its first glyph, whatever the second's class); pairs
/// that move nothing are left out.
///
/// Glyphs are first grouped by how the subtables see them (a first glyph by its class in each
/// subtable that covers it, a second glyph by its class in each), so a class-kerned font costs
/// its classes, not its glyphs squared; the groups are then merged where their rows (and
/// columns) are equal. Every cell computed is spent from the budget.
extension LayoutReader {
  /// One pair subtable as read.
  enum PairSubtable {
    /// Format 1: each first glyph's second glyphs and values.
    case glyphs([UInt32: [UInt32: LayoutPairValue]])
    /// Format 2: classes, and the value matrix read cell by cell.
    case classes(PairClasses)
  }

  /// A format 2 subtable: where its matrix is and how its glyphs are classed.
  struct PairClasses {
    var offset: Int
    var formats: (Int, Int)
    var first: LayoutClasses
    var second: LayoutClasses
    var firstCount: Int
    var secondCount: Int
    var covered: Set<UInt32>
  }

  mutating func readPairs(_ subtables: [Int]) throws(LayoutDamage) -> LayoutPairAdjustments {
    var read: [PairSubtable] = []
    for sub in subtables { read.append(try readPairSubtable(sub)) }
    // How each subtable sees a first glyph: the class it applies with (format 2), or the glyph
    // itself (format 1, -1 - glyph); subtables that never apply to it left out.
    var firstSeen: [UInt32: [Int]] = [:]
    for (s, subtable) in read.enumerated() {
      switch subtable {
      case .glyphs(let pairs):
        for glyph in pairs.keys { firstSeen[glyph, default: []] += [s, -1 - Int(glyph)] }
      case .classes(let table):
        try spend(table.covered.count)
        for glyph in table.covered where table.first.value(glyph) < table.firstCount {
          firstSeen[glyph, default: []] += [s, table.first.value(glyph)]
        }
      }
    }
    // How the subtables see a second glyph: its class in each, or itself where it is listed.
    try spend(glyphCount * max(1, read.count))
    var listed = [Set<UInt32>](repeating: [], count: read.count)
    for (s, subtable) in read.enumerated() {
      if case .glyphs(let pairs) = subtable {
        for seconds in pairs.values { listed[s].formUnion(seconds.keys) }
      }
    }
    var secondGroups: [[Int]: [UInt32]] = [:]
    for glyph in 0..<UInt32(glyphCount) {
      let key = read.enumerated().map { s, subtable -> Int in
        switch subtable {
        case .glyphs: return listed[s].contains(glyph) ? Int(glyph) : -1
        case .classes(let table):
          let value = table.second.value(glyph)
          return value < table.secondCount ? value : -1
        }
      }
      secondGroups[key, default: []].append(glyph)
    }
    let seconds = Array(secondGroups.values)
    var secondGroupOf: [UInt32: Int] = [:]
    for (i, group) in seconds.enumerated() { for glyph in group { secondGroupOf[glyph] = i } }
    var firstGroups: [[Int]: [UInt32]] = [:]
    for (glyph, key) in firstSeen { firstGroups[key, default: []].append(glyph) }
    // Each format 2 subtable's class of each group of second glyphs (-1: none it applies with).
    var secondClasses: [Int: [Int]] = [:]
    for (s, subtable) in read.enumerated() {
      guard case .classes(let table) = subtable else { continue }
      secondClasses[s] = seconds.map { members in
        let value = members.first.map { table.second.value($0) } ?? -1
        return value < table.secondCount ? value : -1
      }
    }
    // Each group of first glyphs: its row of nonzero values by group of second glyphs. A class
    // row (a format 2 subtable's first class against every group) is made once and shared by
    // every first glyph that reaches it (glyphs listed one by one first, then by class).
    var classRows: [[Int]: [(group: Int, value: LayoutPairValue)]] = [:]
    var rows: [[Int: LayoutPairValue]: [UInt32]] = [:]
    for (key, glyphs) in firstGroups {
      guard let glyph = glyphs.first else { continue }
      var row: [Int: LayoutPairValue] = [:]
      var decided = Set<Int>()
      for at in stride(from: 0, to: key.count, by: 2) {
        switch read[key[at]] {
        case .glyphs(let pairs):
          for (second, value) in pairs[glyph] ?? [:] {
            guard let group = secondGroupOf[second], decided.insert(group).inserted else {
              continue
            }
            if !value.isZero { row[group] = value }
          }
        case .classes(let table):
          let classes = secondClasses[key[at]] ?? []
          let rowKey = [key[at], key[at + 1]]
          if classRows[rowKey] == nil {
            classRows[rowKey] = try classRow(table, key[at + 1], classes)
          }
          let classRow = classRows[rowKey] ?? []
          try spend(classRow.count)
          for (group, value) in classRow where !decided.contains(group) { row[group] = value }
          // Later subtables see only the groups this one does not apply to.
          if at + 2 < key.count {
            try spend(classes.count)
            for (group, secondClass) in classes.enumerated() where secondClass >= 0 {
              decided.insert(group)
            }
          }
        }
      }
      guard !row.isEmpty else { continue }
      try spend(row.count)
      rows[row, default: []] += glyphs
    }
    return canonicalPairs(rows: rows, seconds: seconds)
  }

  /// First class `first` of a format 2 subtable against each group of second glyphs
  /// (`classes`: each group's second class, -1 for none): the nonzero values.
  mutating func classRow(_ table: PairClasses, _ first: Int, _ classes: [Int])
    throws(LayoutDamage) -> [(group: Int, value: LayoutPairValue)]
  {
    try spend(classes.count + table.secondCount)
    var values = [LayoutPairValue?](repeating: nil, count: table.secondCount)
    var out: [(group: Int, value: LayoutPairValue)] = []
    for (group, secondClass) in classes.enumerated() where secondClass >= 0 {
      var value: LayoutPairValue
      if let known = values[secondClass] {
        value = known
      } else {
        value = try pairValue(table, first, secondClass)
        values[secondClass] = value
      }
      if !value.isZero { out.append((group, value)) }
    }
    return out
  }

  /// The coarsest classes: first glyphs merged by row (done), second glyphs by column.
  func canonicalPairs(rows: [[Int: LayoutPairValue]: [UInt32]], seconds: [[UInt32]])
    -> LayoutPairAdjustments
  {
    let firsts = rows.map { (row: $0.key, glyphs: $0.value.sorted()) }
      .sorted { ($0.glyphs.first ?? 0) < ($1.glyphs.first ?? 0) }
    var columns: [Int: [Int: LayoutPairValue]] = [:]
    for (a, first) in firsts.enumerated() {
      for (group, value) in first.row { columns[group, default: [:]][a] = value }
    }
    var merged: [[Int: LayoutPairValue]: [UInt32]] = [:]
    for (group, column) in columns { merged[column, default: []] += seconds[group] }
    let secondClasses = merged.map { (column: $0.key, glyphs: $0.value.sorted()) }
      .sorted { ($0.glyphs.first ?? 0) < ($1.glyphs.first ?? 0) }
    var values: [LayoutPairKey: LayoutPairValue] = [:]
    for (b, second) in secondClasses.enumerated() {
      for (a, value) in second.column { values[LayoutPairKey(first: a, second: b)] = value }
    }
    return LayoutPairAdjustments(
      firstClasses: firsts.map(\.glyphs), secondClasses: secondClasses.map(\.glyphs),
      values: values)
  }

  /// One PairPos subtable: format 1's pairs read whole, format 2's classes.
  mutating func readPairSubtable(_ sub: Int) throws(LayoutDamage) -> PairSubtable {
    let format = try bytes.read16(sub)
    let covered = try coverage(sub + (try bytes.read16(sub + 2)))
    let formats = (try bytes.read16(sub + 4), try bytes.read16(sub + 6))
    let sizes = (Self.valueSize(formats.0), Self.valueSize(formats.1))
    switch format {
    case 1:
      let count = try bytes.read16(sub + 8)
      var out: [UInt32: [UInt32: LayoutPairValue]] = [:]
      for (glyph, index) in covered where index < count {
        let set = sub + (try bytes.read16(sub + 10 + 2 * index))
        let pairs = try bytes.read16(set)
        try spend(pairs)
        var seconds: [UInt32: LayoutPairValue] = [:]
        for p in 0..<pairs {
          let record = set + 2 + p * (2 + sizes.0 + sizes.1)
          let second = UInt32(try bytes.read16(record))
          guard seconds[second] == nil, Int(second) < glyphCount else { continue }
          seconds[second] = LayoutPairValue(
            first: try value(formats.0, at: record + 2, base: sub),
            second: try value(formats.1, at: record + 2 + sizes.0, base: sub))
        }
        out[glyph] = seconds
      }
      return .glyphs(out)
    case 2:
      return .classes(
        PairClasses(
          offset: sub, formats: formats, first: try classes(sub + (try bytes.read16(sub + 8))),
          second: try classes(sub + (try bytes.read16(sub + 10))),
          firstCount: try bytes.read16(sub + 12), secondCount: try bytes.read16(sub + 14),
          covered: Set(covered.map(\.glyph))))
    default:
      throw LayoutDamage(reason: "a pair adjustment of format \(format)")
    }
  }

  /// The value of class pair (`first`, `second`) of a format 2 subtable.
  mutating func pairValue(_ table: PairClasses, _ first: Int, _ second: Int) throws(LayoutDamage)
    -> LayoutPairValue
  {
    let sizes = (Self.valueSize(table.formats.0), Self.valueSize(table.formats.1))
    let record =
      table.offset + 16 + (first * table.secondCount + second) * (sizes.0 + sizes.1)
    return LayoutPairValue(
      first: try value(table.formats.0, at: record, base: table.offset),
      second: try value(table.formats.1, at: record + sizes.0, base: table.offset))
  }
}
