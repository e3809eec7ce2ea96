/// GSUB's own lookup types: each subtable read in order, a glyph taken by the first subtable
/// that applies to it (as HarfBuzz tries them), what maps a glyph to itself left out.
extension LayoutReader {
  /// GSUB 1, formats 1 (a delta) and 2 (a list).
  mutating func readSingleSubstitution(_ subtables: [Int]) throws(LayoutDamage)
    -> [UInt32: UInt32]
  {
    var out: [UInt32: UInt32] = [:]
    for sub in subtables {
      let format = try bytes.read16(sub)
      let covered = try coverage(sub + (try bytes.read16(sub + 2)))
      switch format {
      case 1:
        let delta = try bytes.read16(sub + 4)
        for (glyph, _) in covered where out[glyph] == nil {
          out[glyph] = UInt32((Int(glyph) + delta) & 0xFFFF)
        }
      case 2:
        let count = try bytes.read16(sub + 4)
        for (glyph, index) in covered where out[glyph] == nil && index < count {
          out[glyph] = UInt32(try bytes.read16(sub + 6 + 2 * index))
        }
      default: throw LayoutDamage(reason: "a single substitution of format \(format)")
      }
    }
    return out.filter { $0.key != $0.value }
  }

  /// GSUB 2 and 3: each glyph's Sequence or AlternateSet (an empty alternate set does not
  /// apply; an empty sequence deletes the glyph).
  mutating func readSequences(_ subtables: [Int], alternates: Bool) throws(LayoutDamage)
    -> [UInt32: [UInt32]]
  {
    var out: [UInt32: [UInt32]] = [:]
    for sub in subtables {
      guard try bytes.read16(sub) == 1 else {
        throw LayoutDamage(reason: "a multiple or alternate substitution of an unknown format")
      }
      let covered = try coverage(sub + (try bytes.read16(sub + 2)))
      let count = try bytes.read16(sub + 4)
      for (glyph, index) in covered where out[glyph] == nil && index < count {
        let sequence = sub + (try bytes.read16(sub + 6 + 2 * index))
        let length = try bytes.read16(sequence)
        try spend(length + 1)
        if alternates && length == 0 { continue }
        out[glyph] = try (0..<length).map { (i: Int) throws(LayoutDamage) in
          UInt32(try bytes.read16(sequence + 2 + 2 * i))
        }
      }
    }
    return alternates ? out : out.filter { $0.value != [$0.key] }
  }

  /// GSUB 4: for each first glyph its ligatures in the order they are tried (subtable after
  /// subtable); those some input can reach.
  mutating func readLigatures(_ subtables: [Int]) throws(LayoutDamage) -> [[UInt32]: UInt32] {
    var tried: [UInt32: [[UInt32]]] = [:]
    var out: [[UInt32]: UInt32] = [:]
    for sub in subtables {
      guard try bytes.read16(sub) == 1 else {
        throw LayoutDamage(reason: "a ligature substitution of an unknown format")
      }
      let covered = try coverage(sub + (try bytes.read16(sub + 2)))
      let count = try bytes.read16(sub + 4)
      for (glyph, index) in covered where index < count {
        let set = sub + (try bytes.read16(sub + 6 + 2 * index))
        let ligatures = try bytes.read16(set)
        try spend(ligatures)
        for l in 0..<ligatures {
          let ligature = set + (try bytes.read16(set + 2 + 2 * l))
          let target = UInt32(try bytes.read16(ligature))
          let components = try bytes.read16(ligature + 2)
          guard components > 0 else { continue }
          try spend(components)
          var sequence = [glyph]
          for c in 1..<max(components, 1) {
            sequence.append(UInt32(try bytes.read16(ligature + 2 + 2 * c)))
          }
          // A ligature whose components start with those of one tried before never forms.
          let earlier = tried[glyph, default: []]
          try spend(earlier.count)
          guard !earlier.contains(where: { sequence.starts(with: $0) }) else { continue }
          tried[glyph, default: []].append(sequence)
          out[sequence] = target
        }
      }
    }
    return out.filter { $0.key != [$0.value] }
  }

  /// GSUB 8: each glyph's contexts in the order they are tried, with its substitute in each.
  mutating func readReverseChains(_ subtables: [Int]) throws(LayoutDamage)
    -> [LayoutReverseChainGroup]
  {
    var contexts: [LayoutReverseChainContext] = []
    var contextIDs: [LayoutReverseChainContext: Int] = [:]
    var perGlyph: [UInt32: [(context: Int, substitute: UInt32)]] = [:]
    for sub in subtables {
      guard try bytes.read16(sub) == 1 else {
        throw LayoutDamage(reason: "a reverse chaining substitution of an unknown format")
      }
      let covered = try coverage(sub + (try bytes.read16(sub + 2)))
      let backtrackCount = try bytes.read16(sub + 4)
      let backtrack = try coverageSets(sub, at: sub + 6, count: backtrackCount)
      let lookaheadAt = sub + 6 + 2 * backtrackCount
      let lookaheadCount = try bytes.read16(lookaheadAt)
      let lookahead = try coverageSets(sub, at: lookaheadAt + 2, count: lookaheadCount)
      let substitutesAt = lookaheadAt + 2 + 2 * lookaheadCount
      let substitutes = try bytes.read16(substitutesAt)
      // A context with an empty position matches nothing.
      guard !(backtrack + lookahead).contains(where: \.isEmpty) else { continue }
      let context = LayoutReverseChainContext(backtrack: backtrack, lookahead: lookahead)
      let id: Int
      if let known = contextIDs[context] {
        id = known
      } else {
        id = contexts.count
        contexts.append(context)
        contextIDs[context] = id
      }
      for (glyph, index) in covered where index < substitutes {
        guard !perGlyph[glyph, default: []].contains(where: { $0.context == id }) else {
          continue
        }
        let substitute = UInt32(try bytes.read16(substitutesAt + 2 + 2 * index))
        perGlyph[glyph, default: []].append((id, substitute))
      }
    }
    var groups: [[Int]: LayoutReverseChainGroup] = [:]
    for (glyph, list) in perGlyph {
      let key = list.map(\.context)
      groups[
        key, default: LayoutReverseChainGroup(contexts: key.map { contexts[$0] }, substitutes: [:])
      ]
      .substitutes[glyph] = list.map(\.substitute)
    }
    return groups.values.sorted {
      ($0.substitutes.keys.min() ?? 0) < ($1.substitutes.keys.min() ?? 0)
    }
  }

  /// `count` Coverage tables whose offsets (from `base`) are listed at `at`, as sets.
  mutating func coverageSets(_ base: Int, at: Int, count: Int) throws(LayoutDamage)
    -> [Set<UInt32>]
  {
    try spend(count)
    var out: [Set<UInt32>] = []
    for i in 0..<count { out.append(try coverageSet(base + (try bytes.read16(at + 2 * i)))) }
    return out
  }
}
