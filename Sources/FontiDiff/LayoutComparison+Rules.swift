import FontiText

/// Each lookup that differs between two versions named rule by rule: what a substitution gives,
/// a context's glyphs, a pair's or an anchor's values, a lookup's flags.
extension LayoutComparer {
  /// The rules in which lookup `b` (BEFORE) and `a` (AFTER, mapped to BEFORE's glyphs) differ;
  /// either is nil when the feature has fewer lookups on that side. `index` names the lookup.
  func lookupChanges(
    _ b: LayoutLookup?, _ a: LayoutLookup?, index: Int, table: String, feature: String,
    lists: LookupLists
  ) -> [RuleDifference] {
    func change(_ words: String, _ kind: RuleDifference.Kind = .rule, input: [Set<UInt32>] = [])
      -> RuleDifference
    {
      RuleDifference(
        table: table, feature: feature, kind: kind, words: "\(feature): \(words)", input: input)
    }
    guard let b, let a else {
      let lookup = b ?? a
      var added = change(
        "lookup \(index) (\(LayoutComparer.kindName(lookup?.rules ?? .empty))) "
          + (b == nil ? "added" : "removed"))
      if let lookup { LayoutComparer.firstRule(lookup.rules, into: &added) }
      return [added]
    }
    var out: [RuleDifference] = []
    if b.flags != a.flags {
      let words = LayoutComparer.flagWords(b.flags, a.flags)
      out.append(change("lookup \(index) flags: \(words)", input: flagContext(b)))
    }
    if b.markAttachmentGlyphs != a.markAttachmentGlyphs
      || b.markFilteringGlyphs != a.markFilteringGlyphs
    {
      let sb = (b.markAttachmentGlyphs ?? []).union(b.markFilteringGlyphs ?? [])
      let sa = (a.markAttachmentGlyphs ?? []).union(a.markFilteringGlyphs ?? [])
      let added = sa.subtracting(sb).sorted().map(name)
      let removed = sb.subtracting(sa).sorted().map(name)
      out.append(
        change(
          "lookup \(index) marks attended to: "
            + (added.isEmpty ? "" : "+\(added.joined(separator: " ")) ")
            + (removed.isEmpty ? "" : "−\(removed.joined(separator: " "))"),
          input: flagContext(b)))
    }
    guard b.rules != a.rules else { return out }
    switch (b.rules, a.rules) {
    case (.singleSubstitution(let mb), .singleSubstitution(let ma)):
      out += mapChanges(mb, ma, feature: feature, table: table) { name($0) }
    case (.multipleSubstitution(let mb), .multipleSubstitution(let ma)),
      (.alternateSubstitution(let mb), .alternateSubstitution(let ma)):
      out += mapChanges(mb, ma, feature: feature, table: table) {
        $0.isEmpty ? "nothing" : $0.map(name).joined(separator: " ")
      }
    case (.ligatureSubstitution(let mb), .ligatureSubstitution(let ma)):
      let keys = Set(mb.keys).union(ma.keys).filter { mb[$0] != ma[$0] }
        .sorted { $0.lexicographicallyPrecedes($1) }
      var paired = Set<[UInt32]>()
      for k in keys where mb[k] != nil && ma[k] == nil {
        guard let g = mb[k],
          let other = keys.first(where: { ma[$0] == g && mb[$0] == nil && !paired.contains($0) })
        else { continue }
        paired.formUnion([k, other])
        let words =
          "\(other.map(name).joined(separator: " ")) → \(name(g)), was "
          + k.map(name).joined(separator: " ")
        out.append(change(words, input: k.map { [$0] }))
      }
      for k in keys where !paired.contains(k) {
        let components = k.map(name).joined(separator: " ")
        let words =
          switch (mb[k], ma[k]) {
          case (let x?, let y?): "\(components) → \(name(x)), was \(name(y))"
          case (let x?, nil): "\(components) → \(name(x)) no longer applies"
          case (nil, let y?): "\(components) → \(name(y)) added"
          case (nil, nil): components
          }
        out.append(change(words, input: k.map { [$0] }))
      }
    case (.contextSubstitution(let gb), .contextSubstitution(let ga)),
      (.contextPositioning(let gb), .contextPositioning(let ga)):
      out += contextChanges(gb, ga, table: table, feature: feature, lists: lists)
    case (.singlePositioning(let mb), .singlePositioning(let ma)):
      out += mapChanges(mb, ma, feature: feature, table: table) { LayoutComparer.words($0) }
    case (.cursivePositioning(let mb), .cursivePositioning(let ma)):
      out += mapChanges(mb, ma, feature: feature, table: table) {
        "entry \(LayoutComparer.words($0.entry)), exit \(LayoutComparer.words($0.exit))"
      }
    case (.pairPositioning(let pb), .pairPositioning(let pa)):
      out += pairChanges(pb, pa, table: table, feature: feature)
    case (.markToBase(let cb), .markToBase(let ca)),
      (.markToLigature(let cb), .markToLigature(let ca)),
      (.markToMark(let cb), .markToMark(let ca)):
      out += markChanges(cb, ca, table: table, feature: feature)
    default:
      let first = LayoutComparer.firstInput(b.rules) ?? LayoutComparer.firstInput(a.rules)
      out.append(
        change(
          "lookup \(index): \(LayoutComparer.kindName(b.rules)) → "
            + LayoutComparer.kindName(a.rules),
          input: first.map { [[$0]] } ?? []))
    }
    return out
  }

  /// Entries of two glyph-keyed maps that differ: "a → a.sc, was a.alt".
  func mapChanges<V: Equatable>(
    _ mb: [UInt32: V], _ ma: [UInt32: V], feature: String, table: String,
    _ say: (V) -> String
  ) -> [RuleDifference] {
    let keys = Set(mb.keys).union(ma.keys).filter { mb[$0] != ma[$0] }.sorted()
    return keys.map { g in
      let words =
        switch (mb[g], ma[g]) {
        case (let x?, let y?): "\(name(g)) → \(say(y)), was \(say(x))"
        case (let x?, nil): "\(name(g)) → \(say(x)) no longer applies"
        case (nil, let y?): "\(name(g)) → \(say(y)) added"
        case (nil, nil): name(g)
        }
      return RuleDifference(
        table: table, feature: feature, kind: table == "GPOS" ? .pair : .rule,
        words: "\(feature): \(words)", input: [[g]])
    }
  }

  // MARK: Contexts

  /// Context rules one side has and the other has not; a rule whose backtrack or lookahead
  /// alone changed is said as that change.
  func contextChanges(
    _ gb: [LayoutContextGroup], _ ga: [LayoutContextGroup], table: String, feature: String,
    lists: LookupLists
  ) -> [RuleDifference] {
    struct Flat: Hashable {
      var first: Set<UInt32>
      var rule: LayoutContextRule
    }
    /// Each rule with its group's first glyphs, its actions naming the lookups they call as
    /// `target` says (BEFORE's lookups they stand for, so that a renumbered list compares equal).
    func flatten(_ groups: [LayoutContextGroup], _ target: (Int) -> Int) -> [Flat] {
      groups.flatMap { g in
        g.rules.map {
          var rule = $0
          rule.actions = $0.actions.map {
            var action = $0
            action.lookupIndex = target($0.lookupIndex)
            return action
          }
          return Flat(first: g.firstGlyphs, rule: rule)
        }
      }
    }
    let fb = flatten(gb, lists.canonical(ofBefore:))
    let fa = flatten(ga, lists.target(ofAfter:))
    let sb = Set(fb)
    let sa = Set(fa)
    var removed = fb.filter { !sa.contains($0) }
    var added = fa.filter { !sb.contains($0) }
    var out: [RuleDifference] = []
    let kind = table == "GSUB" ? "chain rule" : "context positioning"
    func make(_ f: Flat, _ words: String) -> RuleDifference {
      RuleDifference(
        table: table, feature: feature, kind: .rule, words: "\(feature): \(words)",
        backtrack: f.rule.backtrack, input: [f.first] + f.rule.input, lookahead: f.rule.lookahead)
    }
    // The same input and actions in another context.
    for r in removed {
      guard
        let n = added.firstIndex(where: {
          $0.first == r.first && $0.rule.input == r.rule.input && $0.rule.actions == r.rule.actions
        })
      else { continue }
      let a = added.remove(at: n)
      removed.removeAll { $0 == r }
      var change = make(r, "")
      var parts: [String] = []
      for (side, word) in [(\LayoutContextRule.backtrack, "after"), (\.lookahead, "before")] {
        let sb = r.rule[keyPath: side]
        let sa = a.rule[keyPath: side]
        guard sb != sa else { continue }
        var sets: [Set<UInt32>] = []
        for k in 0..<max(sb.count, sa.count) {
          let b = k < sb.count ? sb[k] : []
          let x = k < sa.count ? sa[k] : []
          let place = k == 0 ? "" : " (\(k + 1) \(word == "after" ? "back" : "on"))"
          if !b.subtracting(x).isEmpty {
            parts.append("no longer applies \(word) \(setWords(b.subtracting(x)))\(place)")
          }
          if !x.subtracting(b).isEmpty {
            parts.append("now applies \(word) \(setWords(x.subtracting(b)))\(place)")
          }
          // The text shows the glyphs one side alone has there.
          sets.append(b == x ? b : b.symmetricDifference(x))
        }
        if word == "after" { change.backtrack = sets } else { change.lookahead = sets }
      }
      change.words =
        "\(feature): \(kind) \(actionWords(r)) "
        + parts.joined(separator: "; ")
      out.append(change)
    }
    for r in removed {
      out.append(make(r, "\(kind)\(contextWords(r.rule)): \(actionWords(r)) no longer applies"))
    }
    for a in added {
      out.append(make(a, "\(kind)\(contextWords(a.rule)): \(actionWords(a)) added"))
    }
    return out

    func contextWords(_ rule: LayoutContextRule) -> String {
      var words = ""
      if !rule.backtrack.isEmpty { words += " after \(setsWords(rule.backtrack.reversed()))" }
      if !rule.lookahead.isEmpty { words += " before \(setsWords(rule.lookahead))" }
      return words
    }
    func actionWords(_ f: Flat) -> String {
      let input = [f.first] + f.rule.input
      let effects = f.rule.actions.map { action -> String in
        let at = action.sequenceIndex < input.count ? input[action.sequenceIndex] : []
        guard let lookup = lists.called(action.lookupIndex) else {
          return "lookup \(action.lookupIndex)"
        }
        if case .singleSubstitution(let m) = lookup.rules,
          let g = at.sorted().first(where: { m[$0] != nil }), let s = m[g]
        {
          return "\(name(g)) → \(name(s))"
        }
        return "\(LayoutComparer.kindName(lookup.rules)) at \(setWords(at))"
      }
      return effects.isEmpty ? setsWords(input) : effects.joined(separator: ", ")
    }
  }

  func setWords(_ set: Set<UInt32>) -> String {
    let sorted = set.sorted()
    if sorted.count == 1 { return name(sorted[0]) }
    let shown = sorted.prefix(3).map(name).joined(separator: " ")
    return sorted.count > 3 ? "[\(shown) … (\(sorted.count))]" : "[\(shown)]"
  }

  func setsWords<S: Sequence<Set<UInt32>>>(_ sets: S) -> String {
    sets.map(setWords).joined(separator: " ")
  }

  // MARK: Pairs

  /// The pairs whose adjustment differs, by the classes both sides' classes cut them into:
  /// "kern: V o −175 → −215 (12 pairs of its classes)".
  func pairChanges(
    _ pb: LayoutPairAdjustments, _ pa: LayoutPairAdjustments, table: String, feature: String
  ) -> [RuleDifference] {
    func classIndex(_ classes: [[UInt32]]) -> [UInt32: Int] {
      var out: [UInt32: Int] = [:]
      for (i, c) in classes.enumerated() { for g in c { out[g] = i } }
      return out
    }
    /// Glyphs grouped by their class on each side: (before class, after class) → glyphs.
    func combined(_ b: [[UInt32]], _ a: [[UInt32]]) -> [(b: Int, a: Int, glyphs: [UInt32])] {
      let ib = classIndex(b)
      let ia = classIndex(a)
      var groups: [[Int]: [UInt32]] = [:]
      for g in Set(ib.keys).union(ia.keys) {
        groups[[ib[g] ?? -1, ia[g] ?? -1], default: []].append(g)
      }
      return groups.map { ($0.key[0], $0.key[1], $0.value.sorted()) }
        .sorted { ($0.glyphs.first ?? 0) < ($1.glyphs.first ?? 0) }
    }
    let firsts = combined(pb.firstClasses, pa.firstClasses)
    let seconds = combined(pb.secondClasses, pa.secondClasses)
    var rowsB: [Int: [Int]] = [:]
    var rowsA: [Int: [Int]] = [:]
    for key in pb.values.keys { rowsB[key.first, default: []].append(key.second) }
    for key in pa.values.keys { rowsA[key.first, default: []].append(key.second) }
    var secondsByB: [Int: [Int]] = [:]
    var secondsByA: [Int: [Int]] = [:]
    for (n, s) in seconds.enumerated() {
      secondsByB[s.b, default: []].append(n)
      secondsByA[s.a, default: []].append(n)
    }
    var found: [(first: [UInt32], second: [UInt32], b: LayoutPairValue?, a: LayoutPairValue?)] = []
    for f in firsts {
      var candidates = Set<Int>()
      for sb in rowsB[f.b] ?? [] { candidates.formUnion(secondsByB[sb] ?? []) }
      for sa in rowsA[f.a] ?? [] { candidates.formUnion(secondsByA[sa] ?? []) }
      for n in candidates.sorted() {
        let s = seconds[n]
        let vb = pb.values[LayoutPairKey(first: f.b, second: s.b)]
        let va = pa.values[LayoutPairKey(first: f.a, second: s.a)]
        if (vb?.isZero ?? true) && (va?.isZero ?? true) { continue }
        if vb != va { found.append((f.glyphs, s.glyphs, vb, va)) }
      }
    }
    // Largest change first.
    func advance(_ v: LayoutPairValue?) -> Int {
      v.map { $0.first.xAdvance + $0.second.xAdvance } ?? 0
    }
    found.sort { abs(advance($0.a) - advance($0.b)) > abs(advance($1.a) - advance($1.b)) }
    return found.map { p in
      let count = p.first.count * p.second.count
      let values: String
      if let b = p.b, let a = p.a, LayoutComparer.advanceOnly(b), LayoutComparer.advanceOnly(a) {
        values = "\(advance(b)) → \(advance(a))"
      } else {
        values = "\(LayoutComparer.words(p.b)) → \(LayoutComparer.words(p.a))"
      }
      return RuleDifference(
        table: table, feature: feature, kind: .pair,
        words: "\(feature): \(name(p.first[0])) \(name(p.second[0])) \(values)"
          + (count > 1 ? " (\(count) pairs of its classes)" : ""),
        input: [Set(p.first), Set(p.second)])
    }
  }

  // MARK: Marks

  /// Marks and bases whose anchors differ: "mark: acute on a (500, 1200) → (520, 1200)".
  func markChanges(
    _ cb: [LayoutMarkClass], _ ca: [LayoutMarkClass], table: String, feature: String
  ) -> [RuleDifference] {
    var out: [RuleDifference] = []
    func make(_ words: String, _ base: UInt32, _ mark: UInt32) -> RuleDifference {
      RuleDifference(
        table: table, feature: feature, kind: .mark, words: "\(feature): \(words)",
        input: [[base], [mark]])
    }
    // Each mark's own anchor.
    func marks(_ classes: [LayoutMarkClass]) -> [UInt32: LayoutAnchor] {
      var out: [UInt32: LayoutAnchor] = [:]
      for c in classes { out.merge(c.marks) { a, _ in a } }
      return out
    }
    let mb = marks(cb)
    let ma = marks(ca)
    for m in Set(mb.keys).union(ma.keys).sorted() where mb[m] != ma[m] {
      let base =
        (cb.first { $0.marks[m] != nil } ?? ca.first { $0.marks[m] != nil })?.bases.keys.min() ?? 0
      out.append(
        make(
          "\(name(m)) anchor \(LayoutComparer.words(mb[m])) → \(LayoutComparer.words(ma[m]))",
          base, m))
    }
    // The bases' anchors, class by class where both sides class the marks alike.
    for (b, a) in zip(cb, ca) {
      guard Set(b.marks.keys) == Set(a.marks.keys), let m = b.marks.keys.min() else {
        if let m = b.marks.keys.min() {
          out.append(make("marks of \(name(m)) classed otherwise", b.bases.keys.min() ?? 0, m))
        }
        continue
      }
      func say(_ anchors: [LayoutAnchor?]?) -> String {
        anchors.map { $0.map { LayoutComparer.words($0) }.joined(separator: ", ") } ?? "none"
      }
      for g in Set(b.bases.keys).union(a.bases.keys).sorted() where b.bases[g] != a.bases[g] {
        out.append(make("\(name(m)) on \(name(g)) \(say(b.bases[g])) → \(say(a.bases[g]))", g, m))
      }
    }
    return out
  }

  // MARK: Words

  static func flagWords(_ b: UInt16, _ a: UInt16) -> String {
    let flags: [(UInt16, String)] = [
      (1, "RightToLeft"), (2, "IgnoreBaseGlyphs"), (4, "IgnoreLigatures"), (8, "IgnoreMarks"),
    ]
    var words: [String] = []
    for (bit, name) in flags where b & bit != a & bit {
      words.append("\(name) \(a & bit != 0 ? "added" : "removed")")
    }
    return words.isEmpty ? "\(b) → \(a)" : words.joined(separator: ", ")
  }

  /// Where a lookup's flags show: its first ligature's or context's glyphs with a mark (of its
  /// own marks, else GDEF's) after the first.
  func flagContext(_ lookup: LayoutLookup) -> [Set<UInt32>] {
    let marks =
      lookup.markFilteringGlyphs ?? lookup.markAttachmentGlyphs
      ?? Set(definitions.before.glyphClasses.filter { $0.value == 3 }.keys)
    guard let mark = marks.min() else { return [] }
    switch lookup.rules {
    case .ligatureSubstitution(let ligatures):
      guard
        let components = ligatures.keys.sorted(by: { $0.lexicographicallyPrecedes($1) })
          .first(where: { $0.count > 1 })
      else { return [] }
      return [[components[0]], [mark]] + components.dropFirst().map { [$0] }
    case .contextSubstitution(let groups), .contextPositioning(let groups):
      guard let g = groups.first, let r = g.rules.first else { return [] }
      return [g.firstGlyphs, [mark]] + r.input
    case .pairPositioning(let pairs):
      guard let key = pairs.values.keys.min(by: { ($0.first, $0.second) < ($1.first, $1.second) }),
        key.first < pairs.firstClasses.count, key.second < pairs.secondClasses.count
      else { return [] }
      return [Set(pairs.firstClasses[key.first]), [mark], Set(pairs.secondClasses[key.second])]
    default:
      return LayoutComparer.firstInput(lookup.rules).map { [[$0], [mark]] } ?? []
    }
  }

  static func kindName(_ rules: LayoutLookupRules) -> String {
    switch rules {
    case .empty: return "no rules"
    case .singleSubstitution: return "single substitution"
    case .multipleSubstitution: return "multiple substitution"
    case .alternateSubstitution: return "alternate substitution"
    case .ligatureSubstitution: return "ligature substitution"
    case .contextSubstitution: return "chain rules"
    case .reverseChainSubstitution: return "reverse chain rules"
    case .singlePositioning: return "single positioning"
    case .pairPositioning: return "pair positioning"
    case .cursivePositioning: return "cursive attachment"
    case .markToBase: return "marks on bases"
    case .markToLigature: return "marks on ligatures"
    case .markToMark: return "marks on marks"
    case .contextPositioning: return "context positioning"
    case .unreadable(let why): return "unreadable (\(why))"
    }
  }

  /// The glyphs of the first rule of `rules` (a ligature's components, a context's sequence,
  /// a pair), as `change`'s text glyphs.
  static func firstRule(_ rules: LayoutLookupRules, into change: inout RuleDifference) {
    switch rules {
    case .ligatureSubstitution(let m):
      if let k = m.keys.min(by: { $0.lexicographicallyPrecedes($1) }) {
        change.input = k.map { [$0] }
      }
    case .contextSubstitution(let g), .contextPositioning(let g):
      if let group = g.first, let rule = group.rules.first {
        change.backtrack = rule.backtrack
        change.input = [group.firstGlyphs] + rule.input
        change.lookahead = rule.lookahead
      }
    case .pairPositioning(let p):
      if let key = p.values.keys.min(by: { ($0.first, $0.second) < ($1.first, $1.second) }),
        key.first < p.firstClasses.count, key.second < p.secondClasses.count
      {
        change.input = [Set(p.firstClasses[key.first]), Set(p.secondClasses[key.second])]
      }
    case .markToBase(let c), .markToLigature(let c), .markToMark(let c):
      if let first = c.first, let base = first.bases.keys.min(), let mark = first.marks.keys.min() {
        change.input = [[base], [mark]]
      }
    default:
      change.input = firstInput(rules).map { [[$0]] } ?? []
    }
  }

  /// A glyph the rules act on, to build a text from.
  static func firstInput(_ rules: LayoutLookupRules) -> UInt32? {
    switch rules {
    case .singleSubstitution(let m): return m.keys.min()
    case .multipleSubstitution(let m), .alternateSubstitution(let m): return m.keys.min()
    case .ligatureSubstitution(let m): return m.keys.compactMap(\.first).min()
    case .contextSubstitution(let g), .contextPositioning(let g):
      return g.first?.firstGlyphs.min()
    case .reverseChainSubstitution(let g): return g.first?.substitutes.keys.min()
    case .singlePositioning(let m): return m.keys.min()
    case .pairPositioning(let p): return p.firstClasses.first?.first
    case .cursivePositioning(let m): return m.keys.min()
    case .markToBase(let c), .markToLigature(let c), .markToMark(let c):
      return c.first?.bases.keys.min()
    case .empty, .unreadable: return nil
    }
  }

  static func advanceOnly(_ v: LayoutPairValue) -> Bool {
    func only(_ x: LayoutValue) -> Bool {
      var y = x
      y.xAdvance = 0
      return y.isZero
    }
    return only(v.first) && only(v.second)
  }

  static func words(_ v: LayoutPairValue?) -> String {
    guard let v else { return "none" }
    return v.second.isZero ? words(v.first) : "\(words(v.first)) | \(words(v.second))"
  }

  static func words(_ v: LayoutValue?) -> String {
    guard let v, !v.isZero else { return "0" }
    var parts: [String] = []
    if v.xPlacement != 0 { parts.append("x \(v.xPlacement)") }
    if v.yPlacement != 0 { parts.append("y \(v.yPlacement)") }
    if v.xAdvance != 0 { parts.append("advance \(v.xAdvance)") }
    if v.yAdvance != 0 { parts.append("y advance \(v.yAdvance)") }
    if parts.isEmpty { parts.append("device deltas") }
    return parts.joined(separator: " ")
  }

  static func words(_ a: LayoutAnchor?) -> String {
    guard let a else { return "none" }
    return "(\(a.x), \(a.y))"
  }
}
