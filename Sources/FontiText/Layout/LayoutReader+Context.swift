/// Context and chained context lookups (GSUB 5 and 6, GPOS 7 and 8), formats 1 to 3, read as
/// rules over glyph sets: each first glyph's rules in the order HarfBuzz tries them (subtable
/// after subtable, rule after rule), a rule the glyph already tried, or one with a position no
/// glyph can fill, left out; glyphs with the same rules grouped.
extension LayoutReader {
  /// A rule with its glyph sets by number (`intern`): hashed without reading the sets.
  struct RuleKey: Hashable {
    var backtrack: [Int]
    var input: [Int]
    var lookahead: [Int]
    var actions: [LayoutSequenceAction]
  }

  /// The rules read so far, each once; the rule sets (a glyph's or a class's rules in one
  /// subtable, by rule number); each first glyph's rule sets in the order tried. A glyph's
  /// rules are its sets' rules, each once: worked out per distinct list of sets, not per glyph.
  struct ContextCollection {
    var rules: [RuleKey] = []
    var numbers: [RuleKey: Int] = [:]
    var ruleSets: [[Int]] = []
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
    var bySets: [[Int]: [UInt32]] = [:]
    for (glyph, sets) in collection.perGlyph { bySets[sets, default: []].append(glyph) }
    var groups: [[Int]: Set<UInt32>] = [:]
    for (sets, glyphs) in bySets {
      var seen = Set<Int>()
      var numbers: [Int] = []
      for set in sets {
        try spend(collection.ruleSets[set].count)
        for number in collection.ruleSets[set] where seen.insert(number).inserted {
          numbers.append(number)
        }
      }
      if !numbers.isEmpty { groups[numbers, default: []].formUnion(glyphs) }
    }
    let rules = collection.rules.map { key in
      LayoutContextRule(
        backtrack: key.backtrack.map { internedSets[$0] },
        input: key.input.map { internedSets[$0] },
        lookahead: key.lookahead.map { internedSets[$0] }, actions: key.actions)
    }
    return groups.map {
      LayoutContextGroup(firstGlyphs: $0.value, rules: $0.key.map { rules[$0] })
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
    var numbers: [Int] = []
    for r in 0..<rules {
      var at = set + (try bytes.read16(set + 2 + 2 * r))
      var backtrack: [Int] = []
      var lookahead: [Int] = []
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
      let rule = RuleKey(
        backtrack: backtrack, input: input, lookahead: lookahead,
        actions: try actions(at, count: actionCount))
      if let number = try number(rule, &collection) { numbers.append(number) }
    }
    try add(numbers, firstGlyphs: firstGlyphs, &collection)
  }

  /// Format 3: one rule whose positions are coverage tables.
  mutating func readCoverageContext(
    _ sub: Int, chained: Bool, into collection: inout ContextCollection
  ) throws(LayoutDamage) {
    var backtrack: [Int] = []
    var lookahead: [Int] = []
    var input: [Int]
    let actionCount: Int
    var at = sub + 2
    if chained {
      let count = try bytes.read16(at)
      backtrack = try coverageSetNumbers(sub, at: at + 2, count: count)
      at += 2 + 2 * count
      let inputCount = try bytes.read16(at)
      input = try coverageSetNumbers(sub, at: at + 2, count: inputCount)
      at += 2 + 2 * inputCount
      let lookaheadCount = try bytes.read16(at)
      lookahead = try coverageSetNumbers(sub, at: at + 2, count: lookaheadCount)
      at += 2 + 2 * lookaheadCount
      actionCount = try bytes.read16(at)
      at += 2
    } else {
      let inputCount = try bytes.read16(at)
      actionCount = try bytes.read16(at + 2)
      input = try coverageSetNumbers(sub, at: at + 4, count: inputCount)
      at += 4 + 2 * inputCount
    }
    guard let first = input.first else { return }
    input.removeFirst()
    let rule = RuleKey(
      backtrack: backtrack, input: input, lookahead: lookahead,
      actions: try actions(at, count: actionCount))
    if let number = try number(rule, &collection) {
      try add([number], firstGlyphs: internedSets[first].sorted(), &collection)
    }
  }

  /// `count` glyph sets (by number) from the values at `at`: each a glyph, or the glyphs of a
  /// class.
  mutating func sets(_ at: Int, count: Int, _ values: ContextValues) throws(LayoutDamage)
    -> [Int]
  {
    try spend(count)
    var out: [Int] = []
    for i in 0..<count {
      let value = try bytes.read16(at + 2 * i)
      switch values {
      case .glyphs:
        if let known = glyphSetNumbers[value] {
          out.append(known)
        } else {
          let number = try intern(value < glyphCount ? [UInt32(value)] : [])
          glyphSetNumbers[value] = number
          out.append(number)
        }
      case .classes(let classes):
        if let known = classes.numbers[value] {
          out.append(known)
        } else {
          let number = try intern(try glyphs(ofClass: value, in: classes))
          classes.numbers[value] = number
          out.append(number)
        }
      }
    }
    return out
  }

  /// `count` Coverage tables (offsets from `base` listed at `at`) as set numbers.
  mutating func coverageSetNumbers(_ base: Int, at: Int, count: Int) throws(LayoutDamage)
    -> [Int]
  {
    try spend(count)
    var out: [Int] = []
    for i in 0..<count {
      let offset = base + (try bytes.read16(at + 2 * i))
      if let known = coverageNumbers[offset] {
        out.append(known)
      } else {
        let number = try intern(try coverageSet(offset))
        coverageNumbers[offset] = number
        out.append(number)
      }
    }
    return out
  }

  /// The number of a glyph set: equal sets the same number. Each set is hashed once per
  /// table it comes from (a class, a coverage), not once per rule.
  mutating func intern(_ set: Set<UInt32>) throws(LayoutDamage) -> Int {
    try spend(set.count + 1)
    if let known = internedNumbers[set] { return known }
    internedNumbers[set] = internedSets.count
    internedSets.append(set)
    return internedSets.count - 1
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

  /// The rule's number, nil for a rule with a position no glyph can fill.
  mutating func number(_ rule: RuleKey, _ collection: inout ContextCollection)
    throws(LayoutDamage) -> Int?
  {
    let positions = rule.backtrack + rule.input + rule.lookahead
    guard !positions.contains(where: { internedSets[$0].isEmpty }) else { return nil }
    try spend(positions.count + rule.actions.count + 1)
    if let known = collection.numbers[rule] { return known }
    collection.numbers[rule] = collection.rules.count
    collection.rules.append(rule)
    return collection.rules.count - 1
  }

  /// Adds a rule set (rule numbers, in order) to the sets each of `firstGlyphs` tries.
  mutating func add(_ numbers: [Int], firstGlyphs: [UInt32], _ collection: inout ContextCollection)
    throws(LayoutDamage)
  {
    guard !numbers.isEmpty else { return }
    try spend(firstGlyphs.count + 1)
    let set = collection.ruleSets.count
    collection.ruleSets.append(numbers)
    for glyph in firstGlyphs { collection.perGlyph[glyph, default: []].append(set) }
  }
}
