import FontiText

/// A layout rule one version of a face has and the other has not, or has otherwise: named as
/// that rule (`words`), with the glyphs a text that shows it is built from, over the BEFORE
/// face's glyph IDs (a glyph only AFTER has is `LayoutComparer.afterOnly` + its ID).
struct RuleDifference: Sendable, Hashable {
  /// GSUB, GPOS or GDEF.
  var table: String
  /// The feature whose lookups hold the rule; empty for GDEF.
  var feature: String
  var kind: Kind
  /// "calt: chain rule after V A: hyphen → hyphen.cap no longer applies".
  var words: String
  /// What the rule's text is built from: before the input, nearest first; the input; after it.
  var backtrack: [Set<UInt32>] = []
  var input: [Set<UInt32>] = []
  var lookahead: [Set<UInt32>] = []
  /// For `.more`: how many rules it counts.
  var count = 0

  enum Kind: Sendable, Hashable {
    /// A substitution, a lookup's flags, a context: shaped with its feature on.
    case rule
    /// A pair's adjustment.
    case pair
    /// A mark's or a base's anchor.
    case mark
    /// Rules left out of the list: counted, not shaped.
    case more
  }
}

/// Compares two versions of a face's GSUB, GPOS and GDEF as rules (`LayoutRules`), feature by
/// feature and language system by language system, over glyph names: two faces whose rules are
/// equal compare equal however their tables are packed. Each side's tables are read once per
/// compared instance, and only those whose bytes (or GDEF's) differ.
///
/// Not Sendable: it holds HarfBuzz faces; one per face pair on the thread that compares.
final class LayoutComparer {
  let before: HarfBuzzFace
  let after: HarfBuzzFace
  /// Glyph names per side (`#ID` where a font has none), and the AFTER face's glyphs paired
  /// with BEFORE's by name: worked out when the rules are first compared.
  private lazy var glyphs = GlyphPairing(before: before, after: after)
  /// GDEF of each side.
  private(set) lazy var definitions = (
    before: before.glyphDefinitions, after: after.glyphDefinitions
  )
  /// The tables whose bytes differ, of GSUB, GPOS, GDEF.
  let changedTables: Set<String>

  /// An AFTER glyph no BEFORE glyph is named as: this plus its ID.
  static let afterOnly: UInt32 = 0x1_0000
  /// Rules named per feature; the rest are counted.
  static let rulesListed = 6
  /// Positioning rules shaped per feature, at most: those whose text shapes alike are no change
  /// (`ShapingComparer.ruleChanges`), so more are tried than listed.
  static let positionsTried = 200
  static let tables = ["GSUB", "GPOS", "GDEF"]

  init(before: HarfBuzzFace, after: HarfBuzzFace) {
    self.before = before
    self.after = after
    changedTables = Set(LayoutComparer.tables.filter { !before.hasSameTable($0, as: after) })
  }

  /// Whether any of GSUB, GPOS and GDEF differs.
  var differs: Bool { !changedTables.isEmpty }

  /// A glyph of the BEFORE ID space by name.
  func name(_ glyph: UInt32) -> String {
    let names = glyphs.names
    if glyph >= LayoutComparer.afterOnly {
      let g = Int(glyph - LayoutComparer.afterOnly)
      return g < names.after.count ? names.after[g] : "#\(g)"
    }
    return Int(glyph) < names.before.count ? names.before[Int(glyph)] : "#\(glyph)"
  }

  /// A BEFORE-space glyph as the AFTER face's ID, when AFTER has it.
  func afterGlyph(_ glyph: UInt32) -> UInt32? {
    glyph >= LayoutComparer.afterOnly ? glyph - LayoutComparer.afterOnly : glyphs.toAfter[glyph]
  }

  /// An AFTER glyph in BEFORE's ID space.
  func mapAfter(_ g: UInt32) -> UInt32 {
    guard let toBefore = glyphs.toBefore else { return g }
    return Int(g) < toBefore.count ? toBefore[Int(g)] : LayoutComparer.afterOnly + g
  }

  /// A BEFORE glyph the rules are compared on: one AFTER has too (nil: left out).
  func keepBefore(_ g: UInt32) -> UInt32? { glyphs.toAfter[g] != nil ? g : nil }

  /// An AFTER glyph as BEFORE's, when BEFORE has it (nil: left out).
  func keepAfter(_ g: UInt32) -> UInt32? {
    let m = mapAfter(g)
    return m < LayoutComparer.afterOnly ? m : nil
  }

  /// A lookup of one side over the glyphs both faces have, in BEFORE's IDs: rules of glyphs one
  /// face alone has are the glyph count's and the cmap's changes, not the rules'.
  func common(_ lookup: LayoutLookup, after: Bool) -> LayoutLookup {
    if glyphs.toBefore == nil { return lookup }
    return after
      ? lookup.mapped(keepAfter, output: mapAfter) : lookup.mapped(keepBefore, output: { $0 })
  }

  /// Two faces' glyphs paired by name.
  struct GlyphPairing {
    let names: (before: [String], after: [String])
    /// The AFTER face's glyphs as BEFORE's IDs (`afterOnly` + ID where BEFORE names none so);
    /// nil when both faces name the same glyphs in the same order.
    let toBefore: [UInt32]?
    /// BEFORE's glyph IDs as AFTER's, where AFTER has the glyph.
    let toAfter: [UInt32: UInt32]

    init(before: HarfBuzzFace, after: HarfBuzzFace) {
      let fb = HarfBuzzFont(face: before)
      let fa = HarfBuzzFont(face: after)
      let nb = (0..<before.glyphCount).map { fb.glyphName(UInt32($0)) ?? "#\($0)" }
      let na = (0..<after.glyphCount).map { fa.glyphName(UInt32($0)) ?? "#\($0)" }
      names = (nb, na)
      if nb == na {
        toBefore = nil
        toAfter = Dictionary(uniqueKeysWithValues: (0..<nb.count).map { (UInt32($0), UInt32($0)) })
        return
      }
      var index: [String: UInt32] = [:]
      for (g, n) in nb.enumerated() where index[n] == nil { index[n] = UInt32(g) }
      let map = na.enumerated().map { g, n in index[n] ?? LayoutComparer.afterOnly + UInt32(g) }
      toBefore = map
      var inverse: [UInt32: UInt32] = [:]
      for (g, b) in map.enumerated() where inverse[b] == nil { inverse[b] = UInt32(g) }
      toAfter = inverse
    }
  }

  /// What the comparison at one instance found: the rules that differ, and per table whether
  /// its rules are the same (`same`), or could not all be read (`unreadable`).
  struct Outcome {
    var changes: [RuleDifference] = []
    var same: Set<String> = []
    var unreadable: Set<String> = []
  }

  /// Compares the tables at normalized coordinates `coordinates` of each side (empty: the
  /// default instance).
  func compare(before cb: [Int], after ca: [Int]) -> Outcome {
    var out = Outcome()
    let gdefChanged = changedTables.contains("GDEF")
    if gdefChanged {
      let changes = classChanges()
      if changes.isEmpty { out.same.insert("GDEF") }
      out.changes += changes
      if definitions.before.problem != nil || definitions.after.problem != nil {
        out.unreadable.insert("GDEF")
      }
    }
    for table in [LayoutTable.gsub, .gpos] {
      let tag = table.rawValue
      // GDEF's classes and variation store are read into the rules of both.
      guard changedTables.contains(tag) || gdefChanged || cb != ca else {
        out.same.insert(tag)
        continue
      }
      let rb = rules(table, after: false, coordinates: cb)
      let ra = rules(table, after: true, coordinates: ca)
      if rb.problem != nil || ra.problem != nil
        || (rb.lookups + ra.lookups).contains(where: { $0.rules.isUnreadable })
      {
        out.unreadable.insert(tag)
      }
      let (changes, same) = compare(rb, ra, table: tag)
      if same { out.same.insert(tag) }
      out.changes += changes
    }
    // GDEF's variation store is read into GPOS's values, its mark sets into the lookups.
    if !(out.same.contains("GSUB") && out.same.contains("GPOS")) { out.same.remove("GDEF") }
    return out
  }

  /// Rules read so far that do not vary, by side and table.
  private var read: [String: LayoutRules] = [:]

  /// One side's GSUB or GPOS at `coordinates`, read once: a table without FeatureVariations
  /// (and, for GPOS, whose GDEF has no variation store) is the same at every instance.
  func rules(_ table: LayoutTable, after side: Bool, coordinates: [Int]) -> LayoutRules {
    let face = side ? after : before
    let tag = table.rawValue
    let featureVariations =
      (face.field(tag, at: 2, signed: false) ?? 0) >= 1
      && (face.field(tag, at: 10, signed: false) ?? 0)
        | (face.field(tag, at: 12, signed: false) ?? 0)
        != 0
    let store = (side ? definitions.after : definitions.before).hasVariationStore
    let varies = featureVariations || (table == .gpos && store)
    let key = "\(side) \(tag)"
    if !varies, let known = read[key] { return known }
    let rules = face.layoutRules(table, coordinates: varies ? coordinates : [])
    // Rules that vary are read at each instance and not kept (Inter's GPOS, nine times).
    if !varies { read[key] = rules }
    return rules
  }

  /// GDEF's glyph classes over names: "GDEF: acute is a base glyph, was a mark".
  func classChanges() -> [RuleDifference] {
    var cb: [UInt32: Int] = [:]
    for (g, c) in definitions.before.glyphClasses { if let k = keepBefore(g) { cb[k] = c } }
    var ca: [UInt32: Int] = [:]
    for (g, c) in definitions.after.glyphClasses { if let k = keepAfter(g) { ca[k] = c } }
    let glyphs = Set(cb.keys).union(ca.keys).filter { cb[$0] != ca[$0] }.sorted()
    let classNames = [1: "a base glyph", 2: "a ligature", 3: "a mark", 4: "a component"]
    var out: [RuleDifference] = []
    for g in glyphs.prefix(LayoutComparer.rulesListed) {
      let was = cb[g].map { classNames[$0] ?? "class \($0)" } ?? "unclassed"
      let now = ca[g].map { classNames[$0] ?? "class \($0)" } ?? "unclassed"
      var change = RuleDifference(
        table: "GDEF", feature: "", kind: .rule, words: "GDEF: \(name(g)) is \(now), was \(was)")
      (change.feature, change.input) = markContext(g)
      out.append(change)
    }
    if glyphs.count > LayoutComparer.rulesListed {
      out.append(
        RuleDifference(
          table: "GDEF", feature: "", kind: .more,
          words: "GDEF: +\(glyphs.count - LayoutComparer.rulesListed) more glyph classes",
          count: glyphs.count - LayoutComparer.rulesListed))
    }
    return out
  }

  /// Where a mark between glyphs shows what skips it: the first ligature of a GSUB lookup that
  /// skips marks (its feature, and its components with `mark` after the first); else the mark
  /// after a base.
  func markContext(_ mark: UInt32) -> (feature: String, input: [Set<UInt32>]) {
    let gsub = rules(.gsub, after: false, coordinates: [])
    for system in gsub.languageSystems {
      for tag in system.features.keys.sorted() {
        for index in system.features[tag] ?? [] where index < gsub.lookups.count {
          let lookup = gsub.lookups[index]
          guard lookup.flags & 0x8 != 0 || lookup.markFilteringGlyphs != nil,
            case .ligatureSubstitution(let ligatures) = lookup.rules,
            let components = ligatures.keys.sorted(by: { $0.lexicographicallyPrecedes($1) })
              .first(where: { $0.count > 1 })
          else { continue }
          let sets = components.map { Set([$0]) }
          return (tag, [sets[0], [mark]] + sets.dropFirst())
        }
      }
    }
    return ("", [[mark]])
  }

  // MARK: Features

  /// The rules of two versions of one table, feature by feature, over names. A feature one
  /// version alone lists is left to the lists' comparison (`ShapingComparer.listChanges`).
  func compare(_ rb: LayoutRules, _ ra: LayoutRules, table: String)
    -> (changes: [RuleDifference], same: Bool)
  {
    let lists = LookupLists(rb, ra, comparer: self)
    var keysB: [LayoutFeatureKey: [Int]] = [:]
    var keysA: [LayoutFeatureKey: [Int]] = [:]
    for s in rb.languageSystems {
      for (tag, lookups) in s.features {
        keysB[LayoutFeatureKey(script: s.script, language: s.language, feature: tag)] = lookups
      }
    }
    for s in ra.languageSystems {
      for (tag, lookups) in s.features {
        keysA[LayoutFeatureKey(script: s.script, language: s.language, feature: tag)] = lookups
      }
    }
    // A feature one side alone lists is said by the lists' comparison, not as rules.
    var differs = Set(keysB.keys) != Set(keysA.keys)
    var compared: Set<[[Int]]> = []
    var byFeature: [String: [RuleDifference]] = [:]
    let order = keysB.keys.filter { keysA[$0] != nil }.sorted {
      ($0.feature, $0.script, $0.language ?? "") < ($1.feature, $1.script, $1.language ?? "")
    }
    for key in order {
      guard let ib = keysB[key], let ia = keysA[key], compared.insert([ib, ia]).inserted else {
        continue
      }
      let lb = ib.map(lists.before)
      let la = ia.map(lists.after)
      guard lb != la else { continue }
      var found: [RuleDifference] = []
      for n in 0..<max(lb.count, la.count) {
        let b = n < lb.count ? lb[n] : nil
        let a = n < la.count ? la[n] : nil
        guard b != a else { continue }
        found += lookupChanges(
          b, a, index: n < ib.count ? ib[n] : ia[n], table: table, feature: key.feature,
          lists: lists)
      }
      // Lookups unequal in nothing a rule names (rules in another order where order does not
      // matter) are the same.
      if !found.isEmpty { differs = true }
      byFeature[key.feature, default: []] += found
    }
    // Lookups no feature lists, matched by what they hold (a list that lost or gained one
    // renumbers the rest): one the features' context rules call is compared with the rules that
    // call it; one nothing reaches shapes nothing, and a difference there is left unexplained.
    var listed = (before: Set<Int>(), after: Set<Int>())
    for lookups in keysB.values { listed.before.formUnion(lookups) }
    for lookups in keysA.values { listed.after.formUnion(lookups) }
    var matched = Set<Int>()
    for j in 0..<ra.lookups.count where !listed.after.contains(j) {
      let k = lists.target(ofAfter: j)
      if k >= 0 { matched.insert(k) } else { differs = true }
    }
    for k in 0..<rb.lookups.count where !listed.before.contains(k) {
      if !matched.contains(lists.canonical(ofBefore: k)) { differs = true }
    }
    var out: [RuleDifference] = []
    for tag in byFeature.keys.sorted() {
      var seen = Set<String>()
      let changes = (byFeature[tag] ?? []).filter { seen.insert($0.words).inserted }
      let limit = table == "GPOS" ? LayoutComparer.positionsTried : LayoutComparer.rulesListed
      out += changes.prefix(limit)
      if changes.count > limit {
        out.append(
          RuleDifference(
            table: table, feature: tag, kind: .more,
            words: "\(tag): +\(changes.count - limit) more rules", count: changes.count - limit))
      }
    }
    return (out, !differs)
  }
}

/// Two versions of one table's lookup list over the glyphs both faces have (`LayoutComparer.common`),
/// each lookup mapped once, and which BEFORE lookup each AFTER lookup a context rule calls
/// stands for: context rules name the lookups they call by index, and a lookup list that lost
/// or gained a lookup renumbers the rest.
final class LookupLists {
  let rules: (before: LayoutRules, after: LayoutRules)
  unowned let comparer: LayoutComparer
  private var mapped: (before: [Int: LayoutLookup], after: [Int: LayoutLookup]) = ([:], [:])
  private var targets: [Int: Int] = [:]

  init(_ before: LayoutRules, _ after: LayoutRules, comparer: LayoutComparer) {
    rules = (before, after)
    self.comparer = comparer
  }

  func before(_ i: Int) -> LayoutLookup { lookup(i, after: false) }

  func after(_ i: Int) -> LayoutLookup { lookup(i, after: true) }

  /// One side's lookup `i` over the glyphs both faces have, mapped once.
  private func lookup(_ i: Int, after: Bool) -> LayoutLookup {
    if let known = after ? mapped.after[i] : mapped.before[i] { return known }
    let list = after ? rules.after.lookups : rules.before.lookups
    let lookup = i < list.count ? comparer.common(list[i], after: after) : .missing
    if after { mapped.after[i] = lookup } else { mapped.before[i] = lookup }
    return lookup
  }

  private var canonical: [Int: Int] = [:]

  /// The first BEFORE lookup equal to BEFORE's lookup `k`: what a context rule's action calling
  /// `k` is compared by (a font may hold the same lookup twice).
  func canonical(ofBefore k: Int) -> Int {
    if let known = canonical[k] { return known }
    let lookup = before(k)
    let found =
      k < rules.before.lookups.count
      ? (0..<k).first(where: { before($0) == lookup }) ?? k : k
    canonical[k] = found
    return found
  }

  /// The BEFORE lookup AFTER's lookup `i` stands for in a context rule's actions (as
  /// `canonical(ofBefore:)`): the same index when those are equal, else the first equal one,
  /// else `-1 - i` (AFTER's own).
  func target(ofAfter i: Int) -> Int {
    if let known = targets[i] { return known }
    let lookup = after(i)
    var found = -1 - i
    if i < rules.before.lookups.count && before(i) == lookup {
      found = canonical(ofBefore: i)
    } else if let k = (0..<rules.before.lookups.count).first(where: { before($0) == lookup }) {
      found = k
    }
    targets[i] = found
    return found
  }

  /// A lookup a context action names: BEFORE's at `index`, AFTER's own below 0.
  func called(_ index: Int) -> LayoutLookup? {
    if index >= 0 { return index < rules.before.lookups.count ? before(index) : nil }
    return -1 - index < rules.after.lookups.count ? after(-1 - index) : nil
  }
}

extension LayoutLookupRules {
  /// Whether the lookup could not be read.
  var isUnreadable: Bool {
    if case .unreadable = self { return true }
    return false
  }
}
