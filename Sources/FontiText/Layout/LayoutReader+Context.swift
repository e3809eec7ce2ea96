/// Context and chained context lookups (GSUB 5 and 6, GPOS 7 and 8), formats 1 to 3, read as
/// rules over glyph sets: each first glyph's rules in the order HarfBuzz tries them (subtable
/// after subtable, rule after rule), a rule the glyph already tried, or one with a position no
/// glyph can fill, left out; glyphs with the same rules grouped.
extension LayoutReader {
  /// The rules read so far: each once, and each first glyph's rules by number.
  struct ContextCollection {
    var rules: [LayoutContextRule] = []
    var numbers: [LayoutContextRule: Int] = [:]
    var perGlyph: [UInt32: [Int]] = [:]
  }

  /// What a rule's numbers name: glyphs (format 1) or classes of a class definition (2).
  enum ContextValues {
    case glyphs
    case classes(LayoutClasses)
  }

  mutating func readContexts(_ subtables: [Int], chained: Bool) throws(LayoutDamage)
    -> [LayoutContextGroup]
  {
    var collection = ContextCollection()
    for sub in subtables {
      let format = try bytes.read16(sub)
      switch format {
      case 1: try readGlyphContexts(sub, chained: chained, into: &collection)
      case 2: try readClassContexts(sub, chained: chained, into: &collection)
      case 3: try readCoverageContext(sub, chained: chained, into: &collection)
      default: throw LayoutDamage(reason: "a context subtable of format \(format)")
      }
    }
    var groups: [[Int]: Set<UInt32>] = [:]
    for (glyph, numbers) in collection.perGlyph { groups[numbers, default: []].insert(glyph) }
    return groups.map {
      LayoutContextGroup(firstGlyphs: $0.value, rules: $0.key.map { collection.rules[$0] })
    }.sorted { ($0.firstGlyphs.min() ?? 0) < ($1.firstGlyphs.min() ?? 0) }
  }

  /// Format 1: a rule set per covered glyph, the rules naming glyphs.
  mutating func readGlyphContexts(
    _ sub: Int, chained: Bool, into collection: inout ContextCollection
  ) throws(LayoutDamage) {
    let covered = try coverage(sub + (try bytes.read16(sub + 2)))
    let count = try bytes.read16(sub + 4)
    for (glyph, index) in covered where index < count {
      let set = try bytes.read16(sub + 6 + 2 * index)
      guard set > 0 else { continue }
      let values = chained ? [ContextValues.glyphs, .glyphs, .glyphs] : [.glyphs]
      try readRuleSet(sub + set, chained: chained, values, firstGlyphs: [glyph], &collection)
    }
  }

  /// Format 2: a rule set per class of the covered glyphs, the rules naming classes.
  mutating func readClassContexts(
    _ sub: Int, chained: Bool, into collection: inout ContextCollection
  ) throws(LayoutDamage) {
    let covered = try coverage(sub + (try bytes.read16(sub + 2)))
    var values: [ContextValues] = []
    let definitions = chained ? [4, 6, 8] : [4]
    for at in definitions {
      values.append(.classes(try classes(sub + (try bytes.read16(sub + at)))))
    }
    guard case .classes(let input) = values[chained ? 1 : 0] else { return }
    let countAt = chained ? sub + 10 : sub + 6
    let count = try bytes.read16(countAt)
    var byClass: [Int: [UInt32]] = [:]
    for (glyph, _) in covered { byClass[input.value(glyph), default: []].append(glyph) }
    for (value, glyphs) in byClass where value < count {
      let set = try bytes.read16(countAt + 2 + 2 * value)
      guard set > 0 else { continue }
      try readRuleSet(sub + set, chained: chained, values, firstGlyphs: glyphs, &collection)
    }
  }

  /// A RuleSet (or ChainRuleSet): its rules in order, for each of `firstGlyphs`.
  mutating func readRuleSet(
    _ set: Int, chained: Bool, _ values: [ContextValues], firstGlyphs: [UInt32],
    _ collection: inout ContextCollection
  ) throws(LayoutDamage) {
    let rules = try bytes.read16(set)
    try spend(rules)
    for r in 0..<rules {
      var at = set + (try bytes.read16(set + 2 + 2 * r))
      var backtrack: [Set<UInt32>] = []
      var lookahead: [Set<UInt32>] = []
      if chained {
        let count = try bytes.read16(at)
        backtrack = try sets(at + 2, count: count, values[0])
        at += 2 + 2 * count
      }
      let inputCount = try bytes.read16(at)
      guard inputCount > 0 else { continue }
      var actionCount = 0
      if !chained {
        actionCount = try bytes.read16(at + 2)
        at += 2
      }
      let input = try sets(at + 2, count: inputCount - 1, values[chained ? 1 : 0])
      at += 2 + 2 * (inputCount - 1)
      if chained {
        let count = try bytes.read16(at)
        lookahead = try sets(at + 2, count: count, values[2])
        at += 2 + 2 * count
        actionCount = try bytes.read16(at)
        at += 2
      }
      let rule = LayoutContextRule(
        backtrack: backtrack, input: input, lookahead: lookahead,
        actions: try actions(at, count: actionCount))
      try add(rule, firstGlyphs: firstGlyphs, &collection)
    }
  }

  /// Format 3: one rule whose positions are coverage tables.
  mutating func readCoverageContext(
    _ sub: Int, chained: Bool, into collection: inout ContextCollection
  ) throws(LayoutDamage) {
    var backtrack: [Set<UInt32>] = []
    var lookahead: [Set<UInt32>] = []
    var input: [Set<UInt32>]
    let actionCount: Int
    var at = sub + 2
    if chained {
      let count = try bytes.read16(at)
      backtrack = try coverageSets(sub, at: at + 2, count: count)
      at += 2 + 2 * count
      let inputCount = try bytes.read16(at)
      input = try coverageSets(sub, at: at + 2, count: inputCount)
      at += 2 + 2 * inputCount
      let lookaheadCount = try bytes.read16(at)
      lookahead = try coverageSets(sub, at: at + 2, count: lookaheadCount)
      at += 2 + 2 * lookaheadCount
      actionCount = try bytes.read16(at)
      at += 2
    } else {
      let inputCount = try bytes.read16(at)
      actionCount = try bytes.read16(at + 2)
      input = try coverageSets(sub, at: at + 4, count: inputCount)
      at += 4 + 2 * inputCount
    }
    guard let first = input.first else { return }
    input.removeFirst()
    let rule = LayoutContextRule(
      backtrack: backtrack, input: input, lookahead: lookahead,
      actions: try actions(at, count: actionCount))
    try add(rule, firstGlyphs: first.sorted(), &collection)
  }

  /// `count` glyph sets from the numbers at `at`: each a glyph, or the glyphs of a class.
  mutating func sets(_ at: Int, count: Int, _ values: ContextValues) throws(LayoutDamage)
    -> [Set<UInt32>]
  {
    try spend(count)
    var out: [Set<UInt32>] = []
    for i in 0..<count {
      let value = try bytes.read16(at + 2 * i)
      switch values {
      case .glyphs: out.append(value < glyphCount ? [UInt32(value)] : [])
      case .classes(let classes): out.append(try glyphs(ofClass: value, in: classes))
      }
    }
    return out
  }

  /// `count` SequenceLookupRecords at `at`.
  mutating func actions(_ at: Int, count: Int) throws(LayoutDamage) -> [LayoutSequenceAction] {
    try spend(count)
    return try (0..<count).map { (i: Int) throws(LayoutDamage) in
      LayoutSequenceAction(
        sequenceIndex: try bytes.read16(at + 4 * i),
        lookupIndex: try bytes.read16(at + 4 * i + 2))
    }
  }

  /// Adds `rule` to the rules of each of `firstGlyphs` that has not tried it already.
  mutating func add(
    _ rule: LayoutContextRule, firstGlyphs: [UInt32], _ collection: inout ContextCollection
  ) throws(LayoutDamage) {
    let positions = rule.backtrack + rule.input + rule.lookahead
    guard !positions.contains(where: \.isEmpty) else { return }
    // Hashing a rule reads each of its sets.
    try spend(positions.reduce(1) { $0 + $1.count })
    let number: Int
    if let known = collection.numbers[rule] {
      number = known
    } else {
      number = collection.rules.count
      collection.rules.append(rule)
      collection.numbers[rule] = number
    }
    for glyph in firstGlyphs {
      let tried = collection.perGlyph[glyph, default: []]
      try spend(tried.count + 1)
      if !tried.contains(number) { collection.perGlyph[glyph, default: []].append(number) }
    }
  }
}
