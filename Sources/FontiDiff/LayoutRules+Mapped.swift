import FontiText

/// Layout rules carried over to another face's glyph IDs (`LayoutComparer` maps the AFTER face's
/// rules onto the BEFORE face's glyphs, paired by name), sorted again as the reader sorts them,
/// so that the same rules over renumbered glyphs compare equal. `f` maps a glyph a rule looks
/// at, nil to leave it out (a glyph the other face has not: the glyph count and the cmap say
/// it); `output` a glyph a substitution gives, which is kept whatever it is.
extension LayoutLookup {
  func mapped(_ f: (UInt32) -> UInt32?, output: (UInt32) -> UInt32) -> LayoutLookup {
    var out = self
    out.markAttachmentGlyphs = markAttachmentGlyphs.map { Set($0.compactMap(f)) }
    out.markFilteringGlyphs = markFilteringGlyphs.map { Set($0.compactMap(f)) }
    out.rules = rules.mapped(f, output: output)
    return out
  }
}

extension LayoutLookupRules {
  func mapped(_ f: (UInt32) -> UInt32?, output: (UInt32) -> UInt32) -> LayoutLookupRules {
    func set(_ s: Set<UInt32>) -> Set<UInt32> { Set(s.compactMap(f)) }
    func keyed<V>(_ m: [UInt32: V], _ value: (V) -> V) -> [UInt32: V] {
      var out: [UInt32: V] = [:]
      for (k, v) in m { if let g = f(k), out[g] == nil { out[g] = value(v) } }
      return out
    }
    func lists(_ m: [UInt32: [UInt32]]) -> [UInt32: [UInt32]] { keyed(m) { $0.map(output) } }
    func anchors<V>(_ m: [UInt32: V]) -> [UInt32: V] { keyed(m) { $0 } }
    func groups(_ g: [LayoutContextGroup]) -> [LayoutContextGroup] {
      g.compactMap { group in
        var out = group
        out.firstGlyphs = set(group.firstGlyphs)
        // A rule one of whose places no glyph the faces share can fill never applies to both.
        out.rules = group.rules.compactMap {
          var rule = $0
          rule.backtrack = $0.backtrack.map(set)
          rule.input = $0.input.map(set)
          rule.lookahead = $0.lookahead.map(set)
          let places = rule.backtrack + rule.input + rule.lookahead
          return places.contains(where: \.isEmpty) ? nil : rule
        }
        return out.firstGlyphs.isEmpty || out.rules.isEmpty ? nil : out
      }.sorted { ($0.firstGlyphs.min() ?? 0) < ($1.firstGlyphs.min() ?? 0) }
    }
    func marks(_ classes: [LayoutMarkClass]) -> [LayoutMarkClass] {
      classes.compactMap {
        var c = $0
        c.marks = anchors($0.marks)
        c.bases = anchors($0.bases)
        return c.marks.isEmpty ? nil : c
      }
      .sorted { ($0.marks.keys.min() ?? 0) < ($1.marks.keys.min() ?? 0) }
    }
    switch self {
    case .empty, .unreadable: return self
    case .singleSubstitution(let m): return .singleSubstitution(keyed(m, output))
    case .multipleSubstitution(let m): return .multipleSubstitution(lists(m))
    case .alternateSubstitution(let m): return .alternateSubstitution(lists(m))
    case .ligatureSubstitution(let m):
      var out: [[UInt32]: UInt32] = [:]
      for (components, ligature) in m {
        let mapped = components.compactMap(f)
        if mapped.count == components.count, out[mapped] == nil { out[mapped] = output(ligature) }
      }
      return .ligatureSubstitution(out)
    case .contextSubstitution(let g): return .contextSubstitution(groups(g))
    case .contextPositioning(let g): return .contextPositioning(groups(g))
    case .reverseChainSubstitution(let g):
      return .reverseChainSubstitution(
        g.map { group in
          var out = group
          out.contexts = group.contexts.map {
            var c = $0
            c.backtrack = $0.backtrack.map(set)
            c.lookahead = $0.lookahead.map(set)
            return c
          }
          out.substitutes = lists(group.substitutes)
          return out
        })
    case .singlePositioning(let m): return .singlePositioning(anchors(m))
    case .pairPositioning(let p): return .pairPositioning(p.mapped(f))
    case .cursivePositioning(let m): return .cursivePositioning(anchors(m))
    case .markToBase(let c): return .markToBase(marks(c))
    case .markToLigature(let c): return .markToLigature(marks(c))
    case .markToMark(let c): return .markToMark(marks(c))
    }
  }
}

extension LayoutPairAdjustments {
  /// The classes mapped, each sorted and the classes sorted by their first glyph again, with
  /// the values' class indices following them.
  func mapped(_ f: (UInt32) -> UInt32?) -> LayoutPairAdjustments {
    /// The classes mapped and sorted, and each old class's new index (-1: left empty).
    func sortedClasses(_ classes: [[UInt32]]) -> (classes: [[UInt32]], index: [Int]) {
      let mapped = classes.map { $0.compactMap(f).sorted() }
      let order = mapped.indices.filter { !mapped[$0].isEmpty }
        .sorted { (mapped[$0].first ?? 0) < (mapped[$1].first ?? 0) }
      var index = [Int](repeating: -1, count: mapped.count)
      for (new, old) in order.enumerated() { index[old] = new }
      return (order.map { mapped[$0] }, index)
    }
    let first = sortedClasses(firstClasses)
    let second = sortedClasses(secondClasses)
    var values: [LayoutPairKey: LayoutPairValue] = [:]
    for (key, value) in self.values
    where key.first < first.index.count && key.second < second.index.count
      && first.index[key.first] >= 0 && second.index[key.second] >= 0
    {
      values[LayoutPairKey(first: first.index[key.first], second: second.index[key.second])] =
        value
    }
    var out = self
    out.firstClasses = first.classes
    out.secondClasses = second.classes
    out.values = values
    return out
  }
}
