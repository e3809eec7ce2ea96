import FontiFonts
import FontiText
import Foundation

/// Compares what shaping produces in two versions of one face: every kerning pair of the
/// characters both encode (a class representative standing for its class), each feature's
/// effect on the texts it can act on, mark attachment on bases and marks, and the features,
/// scripts and language systems each version lists. Everything is shaped with HarfBuzz straight
/// from the files; work is bounded by counts (`pairBudget`, `markLimit`), never by time.
///
/// Not Sendable: it owns HarfBuzz objects; one per face pair on the thread that compares.
final class ShapingComparer {
  let before: HarfBuzzFace
  let after: HarfBuzzFace
  private let buffer = HarfBuzzBuffer()

  /// Pairs of class representatives shaped per instance, at most: 500 first-glyph classes by
  /// 500 second-glyph classes.
  static let pairBudget = 250_000
  /// Kerning pairs listed per face (all are counted).
  static let pairsListed = 100
  /// Bases and marks tried for mark attachment, at most.
  static let markLimit = (bases: 48, marks: 32)
  /// Texts listed per feature and instance (all are tried).
  static let textsListed = 4
  /// Characters of a feature's lookups tried one by one, per side.
  static let inputCharacterLimit = 64
  /// Pairs of input characters tried per feature and side, at most.
  static let pairTextLimit = 64
  /// Characters kerning is tried on, at most (the best-ranked: letters first): more than any
  /// font's glyphs, fewer than a cmap that maps every code point.
  static let kerningCharacterLimit = 65_536
  /// Tables whose bytes decide shaping.
  static let tables = ["GSUB", "GPOS", "GDEF", "kern"]
  /// Features that have their own comparison (kerning, marks).
  static let ownComparison: Set<String> = ["kern", "mark", "mkmk", "abvm", "blwm", "size"]
  /// Features whose lookups attach marks.
  static let markFeatures = ["mark", "mkmk", "abvm", "blwm"]

  /// The characters of the compared text: a kerning class is drawn with one of them when it
  /// has one (`representative`).
  let textCharacters: Set<Unicode.Scalar>

  init(before: HarfBuzzFace, after: HarfBuzzFace, text: String = "") {
    self.before = before
    self.after = after
    self.textCharacters = Set(text.unicodeScalars)
  }

  /// The shaping tables whose bytes differ.
  func changedTables() -> [String] {
    ShapingComparer.tables.filter { !before.hasSameTable($0, as: after) }
  }

  // MARK: Features, scripts, language systems

  static func featureTags(_ face: HarfBuzzFace) -> Set<String> {
    Set(LayoutTable.allCases.flatMap { face.featureTags($0).map(HarfBuzzTag.string) })
  }

  static func systems(_ face: HarfBuzzFace) -> (scripts: Set<String>, systems: Set<String>) {
    var scripts = Set<String>()
    var systems = Set<String>()
    for table in LayoutTable.allCases {
      for system in face.languageSystems(table) {
        let script = HarfBuzzTag.string(system.script)
        scripts.insert(script)
        let language = system.language.map {
          HarfBuzzTag.string($0).trimmingCharacters(in: .whitespaces)
        }
        systems.insert("\(script)/\(language ?? "dflt")")
      }
    }
    return (scripts, systems)
  }

  /// Features, scripts and language systems added or removed.
  func listChanges() -> DiffReport.ShapingFeatures {
    var out = DiffReport.ShapingFeatures()
    let tb = ShapingComparer.featureTags(before)
    let ta = ShapingComparer.featureTags(after)
    out.added = ta.subtracting(tb).sorted()
    out.removed = tb.subtracting(ta).sorted()
    let sb = ShapingComparer.systems(before)
    let sa = ShapingComparer.systems(after)
    out.scripts = FaceComparer.difference(sb.scripts, sa.scripts)
    out.languageSystems = FaceComparer.difference(sb.systems, sa.systems)
    return out
  }

  // MARK: Glyph names and shaped runs

  /// Glyph names of `before` and `after`, asked once each for every instance: a name is the
  /// face's, the same at every instance. Kept by face, never by font: fonts are made for each
  /// instance, and a freed font's identity is reused by the next, maybe the other side's.
  private var names: [[UInt32: String]] = [[:], [:]]

  /// A glyph's name, or `#ID` where the font has none.
  func name(_ glyph: UInt32, _ font: HarfBuzzFont) -> String {
    guard let side = font.face === before ? 0 : font.face === after ? 1 : nil else {
      return font.glyphName(glyph) ?? "#\(glyph)"
    }
    if let known = names[side][glyph] { return known }
    let found = font.glyphName(glyph) ?? "#\(glyph)"
    names[side][glyph] = found
    return found
  }

  /// Glyphs' own advances in one font at one instance, asked of HarfBuzz once each: kept for one
  /// call only, since fonts are made for each instance and a freed font's identity is reused.
  struct Advances {
    let font: HarfBuzzFont
    private var known: [UInt32: Int] = [:]

    init(_ font: HarfBuzzFont) { self.font = font }

    mutating func callAsFunction(_ glyph: UInt32) -> Int {
      if let value = known[glyph] { return value }
      let value = font.advance(of: glyph)
      known[glyph] = value
      return value
    }
  }

  /// Whether two runs set the same glyphs: by name where both fonts name them, else by ID.
  func sameGlyphs(
    _ b: [ShapedGlyph], _ fb: HarfBuzzFont, _ a: [ShapedGlyph], _ fa: HarfBuzzFont
  ) -> Bool {
    guard b.count == a.count else { return false }
    for (x, y) in zip(b, a) where name(x.glyph, fb) != name(y.glyph, fa) { return false }
    return true
  }

  /// Whether two runs of the same glyphs are adjusted alike: each glyph's advance beyond or
  /// short of its own (kerning), its offsets and vertical advance, in each face's units. A
  /// glyph's own advance is not compared: a glyph whose advance changed is reported as that
  /// glyph, not again as every pair and feature text it is in ("Qa" −26 → −26).
  func sameAdjustments(
    _ b: [ShapedGlyph], _ fb: inout Advances, _ ub: Int, _ a: [ShapedGlyph],
    _ fa: inout Advances, _ ua: Int
  ) -> Bool {
    guard b.count == a.count else { return false }
    for (x, y) in zip(b, a) {
      if !FaceComparer.sameLength(x.xAdvance - fb(x.glyph), ub, y.xAdvance - fa(y.glyph), ua)
        || !FaceComparer.sameLength(x.xOffset, ub, y.xOffset, ua)
        || !FaceComparer.sameLength(x.yOffset, ub, y.yOffset, ua)
        || !FaceComparer.sameLength(x.yAdvance, ub, y.yAdvance, ua)
      {
        return false
      }
    }
    return true
  }

  /// Where each glyph of a run is drawn from the run's origin: the advances before it plus its
  /// offsets. A mark's place on its base, whatever the base's advance (HarfBuzz offsets a mark
  /// back by the advance of the base it follows).
  static func placements(_ run: [ShapedGlyph]) -> [(x: Int, y: Int)] {
    var pen = (x: 0, y: 0)
    return run.map { glyph in
      defer { pen = (pen.x + glyph.xAdvance, pen.y + glyph.yAdvance) }
      return (pen.x + glyph.xOffset, pen.y + glyph.yOffset)
    }
  }

  /// `scalars` shaped by `font` with `features`, in the comparer's one buffer.
  func shape(
    _ scalars: [Unicode.Scalar], _ font: HarfBuzzFont, features: [(tag: UInt32, value: UInt32)] = []
  ) -> [ShapedGlyph] {
    buffer.shape(scalars, font: font, language: FeatureSampler.defaultLanguage, features: features)
  }

  // MARK: Kerning

  /// The characters both versions encode that kerning is tried on: every visible character
  /// and the space, not marks (`marks` tries those on bases), in rank order, the first
  /// `kerningCharacterLimit`. Each is ranked once: a cmap that maps every code point (a
  /// hostile font, or a last-resort font) maps a million, and ranking inside the sort's
  /// comparisons, then classing and picking representatives among all of them, kept a diff
  /// busy for minutes.
  func kerningCharacters() -> [Unicode.Scalar] {
    let afterSet = Set(after.unicodes)
    var ranked: [(rank: (Int, UInt32), scalar: Unicode.Scalar)] = []
    for value in before.unicodes where afterSet.contains(value) {
      guard let scalar = Unicode.Scalar(value),
        scalar == " " || CandidateText.isUsable(scalar), !CandidateText.isMark(scalar)
      else { continue }
      ranked.append((CandidateText.rank(scalar), scalar))
    }
    ranked.sort { $0.rank < $1.rank }
    return ranked.prefix(ShapingComparer.kerningCharacterLimit).map(\.scalar)
  }

  /// The characters grouped by how they kern in both versions, first and second glyph apart;
  /// each group's first character stands for it (`representative`).
  struct KerningGroups {
    var left: [[Unicode.Scalar]]
    var right: [[Unicode.Scalar]]
    /// After the first instance: the pairs (left × right.count + right) that kern there in
    /// either version, the only ones shaped at the other instances.
    var kerned: [Int]?
  }

  func kerningGroups(_ fb: HarfBuzzFont, _ fa: HarfBuzzFont) -> KerningGroups {
    let classesBefore = KerningClasses(face: before)
    let classesAfter = KerningClasses(face: after)
    var leftIndex: [[Int32]: Int] = [:]
    var rightIndex: [[Int32]: Int] = [:]
    var groups = KerningGroups(left: [], right: [])
    for scalar in kerningCharacters() {
      guard let gb = fb.glyph(for: scalar.value), let ga = fa.glyph(for: scalar.value) else {
        continue
      }
      let l = classesBefore.leftKey(gb) + [-9] + classesAfter.leftKey(ga)
      let r = classesBefore.rightKey(gb) + [-9] + classesAfter.rightKey(ga)
      if let i = leftIndex[l] {
        groups.left[i].append(scalar)
      } else {
        leftIndex[l] = groups.left.count
        groups.left.append([scalar])
      }
      if let i = rightIndex[r] {
        groups.right[i].append(scalar)
      } else {
        rightIndex[r] = groups.right.count
        groups.right.append([scalar])
      }
    }
    for (n, group) in groups.left.enumerated() {
      groups.left[n] = ShapingComparer.representativeFirst(group, text: textCharacters)
    }
    for (n, group) in groups.right.enumerated() {
      groups.right[n] = ShapingComparer.representativeFirst(group, text: textCharacters)
    }
    // Within the budget: the first classes (their best-ranked members first).
    let total = groups.left.count * groups.right.count
    if total > ShapingComparer.pairBudget {
      let side = Int(Double(ShapingComparer.pairBudget).squareRoot())
      let leftKept = min(
        groups.left.count, max(side, ShapingComparer.pairBudget / max(1, groups.right.count)))
      let rightKept = min(groups.right.count, ShapingComparer.pairBudget / max(1, leftKept))
      groups.left = Array(groups.left.prefix(leftKept))
      groups.right = Array(groups.right.prefix(rightKept))
    }
    return groups
  }

  /// `members` (in rank order) with the one that stands for the class first: a plain member —
  /// no character with a canonical decomposition (Г, not Ѓ), a base letter of the script most
  /// members share — of the compared `text` when one is, else the lowest code point. A class
  /// without such a letter keeps its best-ranked member first.
  static func representativeFirst(_ members: [Unicode.Scalar], text: Set<Unicode.Scalar>)
    -> [Unicode.Scalar]
  {
    guard members.count > 1 else { return members }
    var counts: [UInt32: Int] = [:]
    let scripts = members.map { HarfBuzzUnicode.script(of: $0) }
    for s in scripts where !HarfBuzzUnicode.isShared(s) { counts[s, default: 0] += 1 }
    let main = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    func key(_ n: Int) -> (Int, Int, Int, Int, UInt32) {
      let s = members[n]
      let decomposed = String(Character(s)).decomposedStringWithCanonicalMapping.unicodeScalars
      let plain = decomposed.count == 1 && decomposed.first == s
      let letter: Bool
      switch s.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter: letter = true
      default: letter = false
      }
      let base = plain && letter && (main == nil || scripts[n] == main)
      return (plain ? 0 : 1, base ? 0 : 1, base && text.contains(s) ? 0 : 1, base ? 0 : n, s.value)
    }
    // Each member's key once (a decomposition each), not twice per comparison.
    let keys = members.indices.map(key)
    let first = members.indices.min { keys[$0] < keys[$1] } ?? 0
    return [members[first]] + members.enumerated().filter { $0.offset != first }.map(\.element)
  }

  /// Every pair of class representatives shaped in both versions; the pairs whose positioning
  /// differs (and whose glyphs are the same: a substitution is a feature's change).
  func kerning(
    _ fb: HarfBuzzFont, _ fa: HarfBuzzFont, groups: inout KerningGroups, instance: String?
  ) -> [DiffReport.KerningPair] {
    let ub = before.unitsPerEm
    let ua = after.unitsPerEm
    var out: [DiffReport.KerningPair] = []
    let first = groups.kerned == nil
    var kerned: [Int] = []
    let tried =
      groups.kerned
      ?? Array(0..<(groups.left.count * groups.right.count))
    let columns = max(1, groups.right.count)
    var advancesB = Advances(fb)
    var advancesA = Advances(fa)
    for index in tried {
      let l = groups.left[index / columns]
      let r = groups.right[index % columns]
      let text = [l[0], r[0]]
      let b = shape(text, fb)
      let a = shape(text, fa)
      let kb = b.reduce(0) { $0 + $1.xAdvance - advancesB($1.glyph) }
      let ka = a.reduce(0) { $0 + $1.xAdvance - advancesA($1.glyph) }
      if first
        && (kb != 0 || ka != 0 || b.contains { $0.xOffset != 0 || $0.yOffset != 0 }
          || a.contains { $0.xOffset != 0 || $0.yOffset != 0 })
      {
        kerned.append(index)
      }
      do {
        guard sameGlyphs(b, fb, a, fa), !sameAdjustments(b, &advancesB, ub, a, &advancesA, ua)
        else { continue }
        out.append(
          DiffReport.KerningPair(
            pair: String(String.UnicodeScalarView(text)),
            codepoints: text.map { DiffNumber.codepoint($0.value) }, instance: instance,
            kerning: [kb, ka], classPairs: l.count * r.count))
      }
    }
    if first { groups.kerned = kerned }
    return out
  }

  /// Largest change first, then by pair.
  static func sortPairs(_ pairs: inout [DiffReport.KerningPair]) {
    pairs.sort {
      (abs($0.kerning[1] - $0.kerning[0]), $1.pair, $1.instance ?? "")
        > (abs($1.kerning[1] - $1.kerning[0]), $0.pair, $0.instance ?? "")
    }
  }

  /// A face's shaping once every instance is compared: the pairs counted, sorted and cut to
  /// `pairsListed`; the changed tables in which nothing was seen to shape differently.
  static func finish(_ shaping: inout DiffReport.FaceShaping) {
    sortPairs(&shaping.kerning.pairs)
    shaping.kerning.count = shaping.kerning.pairs.reduce(0) { $0 + $1.classPairs }
    shaping.kerning.pairs = Array(shaping.kerning.pairs.prefix(pairsListed))
    let f = shaping.features
    let listsDiffer =
      !f.added.isEmpty || !f.removed.isEmpty || !f.scripts.isEmpty
      || !f.languageSystems.isEmpty
    let positioned =
      shaping.kerning.count > 0 || !shaping.marks.isEmpty
      || f.changed.contains { $0.positionsOnly }
    let substituted = f.changed.contains { !$0.positionsOnly }
    // A table with a rule that differs is explained by it (GDEF by any: its store and classes
    // are read into GSUB's and GPOS's rules).
    let ruled = Set((shaping.rules ?? []).map(\.table))
    shaping.tables.unexplained = shaping.tables.changed.filter { table in
      guard !ruled.contains(table) && !(table == "GDEF" && !ruled.isEmpty) else { return false }
      switch table {
      case "GSUB": return !(substituted || listsDiffer)
      case "GPOS", "kern": return !(positioned || listsDiffer)
      default: return !(positioned || substituted || listsDiffer)
      }
    }
  }

  // MARK: Features

  private var samplers: [Int: FeatureSampler] = [:]
  private var reverseMaps: [Int: [UInt32]] = [:]

  /// One sampler per side (0 before, 1 after), for all its features.
  private func sampler(_ side: Int) -> FeatureSampler {
    if let known = samplers[side] { return known }
    let made = FeatureSampler(face: side == 0 ? before : after)
    samplers[side] = made
    return made
  }

  private var clusters: [Int: [[Unicode.Scalar]]] = [:]

  /// Indic clusters for a face that maps a virama: consonant + virama + consonant over the
  /// first `clusterConsonants` consonants of its block (half forms, conjuncts, their kerning),
  /// and RA + virama + consonant (reph).
  func clusterTexts(_ side: Int) -> [[Unicode.Scalar]] {
    if let known = clusters[side] { return known }
    let face = side == 0 ? before : after
    let mapped = Set(face.unicodes)
    var texts: [[Unicode.Scalar]] = []
    for virama in ShapingComparer.viramas where mapped.contains(virama) {
      let block = virama & ~0x7F
      let consonants = (block + 0x15...block + 0x39).filter { mapped.contains($0) }.prefix(
        ShapingComparer.clusterConsonants
      ).compactMap(Unicode.Scalar.init)
      guard let v = Unicode.Scalar(virama) else { continue }
      for c1 in consonants { for c2 in consonants { texts.append([c1, v, c2]) } }
      if let ra = Unicode.Scalar(block + 0x30), mapped.contains(ra.value) {
        for c in consonants { texts.append([ra, v, c]) }
      }
    }
    clusters[side] = texts
    return texts
  }

  /// The viramas of the Indic scripts (Devanagari to Malayalam).
  static let viramas: [UInt32] = [
    0x094D, 0x09CD, 0x0A4D, 0x0ACD, 0x0B4D, 0x0BCD, 0x0C4D, 0x0CCD, 0x0D4D,
  ]
  /// Consonants of a block paired in clusters.
  static let clusterConsonants = 6

  /// Each glyph's lowest code point, per side, read once.
  private func reverseMap(_ side: Int) -> [UInt32] {
    if let known = reverseMaps[side] { return known }
    let map = HarfBuzzFont(face: side == 0 ? before : after).reverseCharacterMap()
    reverseMaps[side] = map
    return map
  }

  /// The texts a feature can act on in either version: the sample `FeatureSampler` finds in
  /// each, and the characters its lookups take as input, one by one.
  func featureTexts(_ tag: String) -> [[Unicode.Scalar]] {
    var texts: [[Unicode.Scalar]] = []
    var seen = Set<String>()
    func add(_ text: [Unicode.Scalar]) {
      let key = String(String.UnicodeScalarView(text))
      guard !text.isEmpty, seen.insert(key).inserted else { return }
      texts.append(text)
    }
    let hbTag = HarfBuzzTag.make(tag)
    for (side, face) in [before, after].enumerated() {
      let tables = LayoutTable.allCases.filter {
        face.featureTags($0).contains(hbTag)
      }
      guard !tables.isEmpty else { continue }
      if case .visible(let text, _) = sampler(side).sample(tag: tag, tables: tables) {
        add(Array(text.unicodeScalars))
      }
      let reverse = reverseMap(side)
      var characters: [Unicode.Scalar] = []
      var substituting: [(lookup: UInt32, glyphs: [(UInt32, Unicode.Scalar)])] = []
      for table in tables {
        for lookup in face.lookups(table, feature: hbTag).prefix(FeatureSampler.lookupLimit) {
          var glyphs: [(UInt32, Unicode.Scalar)] = []
          for g in face.lookupGlyphs(table, lookup: lookup, limit: 2048).input
          where Int(g) < reverse.count && reverse[Int(g)] != 0 {
            if let s = Unicode.Scalar(reverse[Int(g)]), CandidateText.isUsable(s) {
              characters.append(s)
              glyphs.append((g, s))
            }
          }
          if table == .gsub { substituting.append((lookup, glyphs)) }
        }
      }
      for text in clusterTexts(side) { add(text) }
      let ordered = Set(characters).sorted { CandidateText.rank($0) < CandidateText.rank($1) }
      for s in ordered.prefix(ShapingComparer.inputCharacterLimit) {
        add(CandidateText.isMark(s) ? ["o", s] : [s])
      }
      // Ligatures and other rules of two glyphs: the pairs of input characters a lookup
      // substitutes as a pair (and not the first alone), asked of HarfBuzz without shaping.
      var pairs = 0
      for (lookup, glyphs) in substituting {
        let firsts = glyphs.prefix(ShapingComparer.inputCharacterLimit)
        for (g1, s1) in firsts
        where !face.wouldSubstitute(lookup: lookup, glyphs: [g1], zeroContext: true) {
          for (g2, s2) in firsts
          where pairs < ShapingComparer.pairTextLimit
            && face.wouldSubstitute(lookup: lookup, glyphs: [g1, g2], zeroContext: true)
          {
            add([s1, s2])
            pairs += 1
          }
        }
      }
    }
    return texts
  }

  /// The texts that the features both versions have shape differently with the feature on,
  /// where they shape alike with it off (a change of another feature, or of kerning, is
  /// reported there). GSUB features are shaped with kerning off.
  func featureEffects(
    _ fb: HarfBuzzFont, _ fa: HarfBuzzFont, texts: [String: [[Unicode.Scalar]]],
    instance: String?
  ) -> [DiffReport.FeatureEffect] {
    let ub = before.unitsPerEm
    let ua = after.unitsPerEm
    var out: [DiffReport.FeatureEffect] = []
    let kern = HarfBuzzTag.make("kern")
    var advancesB = Advances(fb)
    var advancesA = Advances(fa)
    for tag in texts.keys.sorted() {
      let hbTag = HarfBuzzTag.make(tag)
      let substitutes =
        before.featureTags(.gsub).contains(hbTag) || after.featureTags(.gsub).contains(hbTag)
      let extra: [(tag: UInt32, value: UInt32)] = substitutes ? [(tag: kern, value: UInt32(0))] : []
      var listed = 0
      for text in texts[tag] ?? [] where listed < ShapingComparer.textsListed {
        let onB = shape(text, fb, features: [(hbTag, 1)] + extra)
        let onA = shape(text, fa, features: [(hbTag, 1)] + extra)
        let glyphsAlike = sameGlyphs(onB, fb, onA, fa)
        if glyphsAlike && sameAdjustments(onB, &advancesB, ub, onA, &advancesA, ua) { continue }
        let offB = shape(text, fb, features: [(hbTag, 0)] + extra)
        let offA = shape(text, fa, features: [(hbTag, 0)] + extra)
        guard sameGlyphs(offB, fb, offA, fa),
          sameAdjustments(offB, &advancesB, ub, offA, &advancesA, ua)
        else {
          continue
        }
        out.append(
          DiffReport.FeatureEffect(
            tag: tag, instance: instance, text: String(String.UnicodeScalarView(text)),
            before: onB.map { name($0.glyph, fb) }, after: onA.map { name($0.glyph, fa) },
            positionsOnly: glyphsAlike))
        listed += 1
      }
    }
    return out
  }

  /// The features both versions list, each with the texts it is compared on.
  func comparedFeatures() -> [String: [[Unicode.Scalar]]] {
    let both = ShapingComparer.featureTags(before).intersection(
      ShapingComparer.featureTags(after))
    var out: [String: [[Unicode.Scalar]]] = [:]
    for tag in both.sorted() where !ShapingComparer.ownComparison.contains(tag) {
      out[tag] = featureTexts(tag)
    }
    return out
  }

  // MARK: Marks

  /// Bases and marks of the mark-attachment lookups (`mark`, `mkmk`) of either version, as
  /// characters both encode: the texts base + mark and base + mark + mark.
  func markTexts() -> [[Unicode.Scalar]] {
    var bases = Set<Unicode.Scalar>()
    var marks = Set<Unicode.Scalar>()
    let common = Set(before.unicodes).intersection(after.unicodes)
    for (side, face) in [before, after].enumerated() {
      let reverse = reverseMap(side)
      for tag in ShapingComparer.markFeatures {
        for lookup in face.lookups(.gpos, feature: HarfBuzzTag.make(tag)) {
          for g in face.lookupGlyphs(.gpos, lookup: lookup, limit: 4096).input
          where Int(g) < reverse.count && common.contains(reverse[Int(g)]) {
            guard let s = Unicode.Scalar(reverse[Int(g)]), CandidateText.isUsable(s) else {
              continue
            }
            if CandidateText.isMark(s) { marks.insert(s) } else { bases.insert(s) }
          }
        }
      }
    }
    let rank = { (a: Unicode.Scalar, b: Unicode.Scalar) in
      CandidateText.rank(a) < CandidateText.rank(b)
    }
    let baseList = bases.sorted(by: rank).prefix(ShapingComparer.markLimit.bases)
    let markList = marks.sorted(by: rank).prefix(ShapingComparer.markLimit.marks)
    var texts: [[Unicode.Scalar]] = []
    for b in baseList { for m in markList { texts.append([b, m]) } }
    if let b = baseList.first {
      for m in markList { for n in markList { texts.append([b, m, n]) } }
    }
    return texts
  }

  /// The marks placed elsewhere on their base (or mark) in `texts`.
  func marks(
    _ fb: HarfBuzzFont, _ fa: HarfBuzzFont, texts: [[Unicode.Scalar]], instance: String?
  ) -> [DiffReport.MarkChange] {
    let ub = before.unitsPerEm
    let ua = after.unitsPerEm
    var out: [DiffReport.MarkChange] = []
    for text in texts {
      let b = shape(text, fb)
      let a = shape(text, fa)
      guard b.count > 1, sameGlyphs(b, fb, a, fa) else { continue }
      let pb = ShapingComparer.placements(b)
      let pa = ShapingComparer.placements(a)
      let moved = zip(pb, pa).dropFirst().contains {
        !FaceComparer.sameLength($0.x, ub, $1.x, ua) || !FaceComparer.sameLength($0.y, ub, $1.y, ua)
      }
      guard moved, let lb = pb.last, let la = pa.last else { continue }
      out.append(
        DiffReport.MarkChange(
          text: String(String.UnicodeScalarView(text)),
          codepoints: text.map { DiffNumber.codepoint($0.value) }, instance: instance,
          before: [lb.x, lb.y], after: [la.x, la.y]))
    }
    return out
  }
}

/// A text as one version shapes it, for the review's pictures: each glyph's outline and where
/// it goes, in the face's units.
struct ShapedRun: Sendable, Codable, Hashable {
  var outlines: [GlyphOutline]
  var x: [Int]
  var y: [Int]
  var unitsPerEm: Int

  var placed: [GlyphRaster.Placed] {
    zip(outlines, zip(x, y)).map {
      GlyphRaster.Placed(outline: $0, x: Double($1.0), y: Double($1.1))
    }
  }
}

/// One shaping change drawn both ways: a kerning pair, a feature's text, a mark on its base.
struct ShapingImage: Sendable, Codable, Hashable {
  /// "Kerning", "Feature liga", "Mark attachment".
  var kind: String
  /// The text and its numbers: "“To” −105 → −255".
  var title: String
  var face: String
  var instance: String?
  var before: ShapedRun
  var after: ShapedRun

  /// Shaping images kept per face and kind, at most.
  static let perKind = 3
}

extension ShapingComparer {
  /// `text` shaped by `font` with `features`, with its glyphs' outlines.
  func run(
    _ text: [Unicode.Scalar], _ font: HarfBuzzFont,
    features: [(tag: UInt32, value: UInt32)] = []
  ) -> ShapedRun {
    let glyphs = shape(text, font, features: features)
    var pen = 0
    var run = ShapedRun(outlines: [], x: [], y: [], unitsPerEm: font.face.unitsPerEm)
    for g in glyphs {
      run.outlines.append(font.outline(of: g.glyph))
      run.x.append(pen + g.xOffset)
      run.y.append(g.yOffset)
      pen = ShapedText.clamped(pen + g.xAdvance)
    }
    return run
  }

  /// Pictures of the largest changes found at one instance: kerning pairs, feature texts and
  /// marks, `ShapingImage.perKind` of each at most.
  func images(
    _ fb: HarfBuzzFont, _ fa: HarfBuzzFont, face: String, instance: String?,
    pairs: [DiffReport.KerningPair], effects: [DiffReport.FeatureEffect],
    marks: [DiffReport.MarkChange]
  ) -> [ShapingImage] {
    var out: [ShapingImage] = []
    var sorted = pairs
    ShapingComparer.sortPairs(&sorted)
    for p in sorted.prefix(ShapingImage.perKind) {
      let text = Array(p.pair.unicodeScalars)
      out.append(
        ShapingImage(
          kind: "Kerning", title: "“\(p.pair)” \(p.kerning[0]) → \(p.kerning[1])", face: face,
          instance: instance, before: run(text, fb), after: run(text, fa)))
    }
    var tags = Set<String>()
    for e in effects where tags.insert(e.tag).inserted && tags.count <= ShapingImage.perKind {
      let text = Array(e.text.unicodeScalars)
      let on: [(tag: UInt32, value: UInt32)] = [(tag: HarfBuzzTag.make(e.tag), value: 1)]
      out.append(
        ShapingImage(
          kind: "Feature \(e.tag)", title: "“\(e.text)”", face: face, instance: instance,
          before: run(text, fb, features: on), after: run(text, fa, features: on)))
    }
    for m in marks.prefix(ShapingImage.perKind) {
      let text = Array(m.text.unicodeScalars)
      out.append(
        ShapingImage(
          kind: "Mark attachment",
          title: "“\(m.text)” y \(m.before[1]) → \(m.after[1])"
            + (m.before[0] != m.after[0] ? ", x \(m.before[0]) → \(m.after[0])" : ""),
          face: face, instance: instance, before: run(text, fb), after: run(text, fa)))
    }
    return out
  }
}
