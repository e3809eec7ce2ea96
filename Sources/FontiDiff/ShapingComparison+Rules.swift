import FontiFonts
import FontiText

/// Layout rules that differ, each shaped by both versions on a text built from the rule (its
/// backtrack, input and lookahead as the font's own characters, `RuleTexts`), so that a rule
/// change reads and draws as a shaping change with the rule named.
extension ShapingComparer {
  /// Rules whose text is drawn per face, at most.
  static let ruleImages = 4

  /// The rule differences at one instance as report entries, and the pictures of the first
  /// that shape differently. `texts` builds each side's texts (BEFORE, AFTER).
  func ruleChanges(
    _ differences: [RuleDifference], layout: LayoutComparer, _ fb: HarfBuzzFont,
    _ fa: HarfBuzzFont, texts: (before: RuleTexts, after: RuleTexts), face: String,
    instance: String?
  ) -> (changes: [DiffReport.RuleChange], images: [ShapingImage]) {
    var changes: [DiffReport.RuleChange] = []
    var images: [ShapingImage] = []
    let ub = before.unitsPerEm
    let ua = after.unitsPerEm
    var advancesB = Advances(fb)
    var advancesA = Advances(fa)
    // Positioning rules listed and left out per feature (more are tried than listed).
    var listed: [String: Int] = [:]
    var more: [String: Int] = [:]
    for d in differences {
      var change = DiffReport.RuleChange(
        table: d.table, feature: d.feature, instance: instance, rule: d.words, shapes: "counted")
      guard d.kind != .more else {
        if d.table == "GPOS" {
          more[d.feature, default: 0] += d.count
        } else {
          changes.append(change)
        }
        continue
      }
      // A positioning rule past the list is counted when it shows, as the rules listed are.
      let pastList =
        d.table == "GPOS" && listed[d.feature, default: 0] >= LayoutComparer.rulesListed
      guard let text = ruleText(d, layout: layout, texts: texts) else {
        if pastList {
          more[d.feature, default: 0] += 1
        } else {
          change.shapes = "noText"
          changes.append(change)
        }
        continue
      }
      let scalars = Array(text.unicodeScalars)
      let features = ruleFeatures(d)
      let b = shape(scalars, fb, features: features)
      let a = shape(scalars, fa, features: features)
      if !sameGlyphs(b, fb, a, fa) {
        change.shapes = "substitution"
      } else if !sameAdjustments(b, &advancesB, ub, a, &advancesA, ua) {
        change.shapes = "positions"
      } else {
        change.shapes = "alike"
        // Positions are what a positioning rule does: the same on its own text (another lookup
        // kerns the pair as the rule did, or the units per em scaled), it changed nothing.
        if d.table == "GPOS" { continue }
      }
      if pastList {
        more[d.feature, default: 0] += 1
        continue
      }
      change.text = text
      change.before = b.map { name($0.glyph, fb) }
      change.after = a.map { name($0.glyph, fa) }
      changes.append(change)
      if d.table == "GPOS" { listed[d.feature, default: 0] += 1 }
      if change.shapes != "alike" && images.count < ShapingComparer.ruleImages {
        let words =
          d.words.hasPrefix("\(d.feature): ")
          ? String(d.words.dropFirst(d.feature.count + 2)) : d.words
        images.append(
          ShapingImage(
            kind: d.feature.isEmpty ? d.table : "Rule \(d.feature)", title: "“\(text)” \(words)",
            face: face, instance: instance, before: run(scalars, fb, features: features),
            after: run(scalars, fa, features: features)))
      }
    }
    for (tag, count) in more.sorted(by: { $0.key < $1.key }) where count > 0 {
      changes.append(
        DiffReport.RuleChange(
          table: "GPOS", feature: tag, instance: instance, rule: "\(tag): +\(count) more rules",
          shapes: "counted"))
    }
    return (changes, images)
  }

  /// The rule's text: of BEFORE's characters where every glyph is BEFORE's, else of AFTER's.
  func ruleText(
    _ d: RuleDifference, layout: LayoutComparer, texts: (before: RuleTexts, after: RuleTexts)
  ) -> String? {
    let limit = LayoutComparer.afterOnly
    let onBefore = { (sets: [Set<UInt32>]) in sets.map { $0.filter { $0 < limit } } }
    if let text = texts.before.text(
      backtrack: onBefore(d.backtrack), input: onBefore(d.input),
      lookahead: onBefore(d.lookahead))
    {
      return text
    }
    let onAfter = { (sets: [Set<UInt32>]) in sets.map { Set($0.compactMap(layout.afterGlyph)) } }
    return texts.after.text(
      backtrack: onAfter(d.backtrack), input: onAfter(d.input), lookahead: onAfter(d.lookahead))
  }

  /// The rule's feature on; a substitution's text is shaped with kerning off, as features are.
  func ruleFeatures(_ d: RuleDifference) -> [(tag: UInt32, value: UInt32)] {
    guard !d.feature.isEmpty else { return [] }
    var features: [(tag: UInt32, value: UInt32)] = [(HarfBuzzTag.make(d.feature), 1)]
    if d.table != "GPOS" && d.feature != "kern" {
      features.append((HarfBuzzTag.make("kern"), 0))
    }
    return features
  }
}

extension ShapingImage {
  /// Whether the picture is of a changed rule's text (`ShapingComparer.ruleChanges`).
  var isRule: Bool { kind.hasPrefix("Rule ") || kind == "GDEF" }
}

/// A face pair's layout rules compared at each instance (`LayoutComparer`), the differences
/// shaped into the face's shaping, and what the comparison decides: the tables only repacked
/// (rules the same at every instance), and whether the tried texts need shaping at all.
///
/// Not Sendable: it holds HarfBuzz objects; one per face pair on the thread that compares.
final class RuleComparison {
  let layout: LayoutComparer
  /// Whether `kern` holds the same bytes on both sides (the rules do not read it).
  let kernSame: Bool
  /// The tables whose rules were the same at every instance so far.
  private var same: Set<String>?
  private var unreadable = Set<String>()
  private var texts: (before: RuleTexts, after: RuleTexts)?

  init(layout: LayoutComparer, kernSame: Bool) {
    self.layout = layout
    self.kernSame = kernSame
  }

  /// The tables whose bytes differ and whose rules are the same wherever compared, all read.
  var repacked: Set<String> {
    (same ?? []).intersection(layout.changedTables).subtracting(unreadable)
  }

  /// Compares the rules at one instance of each side (nil: the default) and adds the rules
  /// that differ to `shaping`, shaped, with pictures when the face has none yet. Returns
  /// whether shaping reads the same rules on both sides there (every table read, kern the same),
  /// so that trying texts would find nothing.
  func compare(
    _ before: HarfBuzzFace, _ ib: NamedInstance?, _ after: HarfBuzzFace, _ ia: NamedInstance?,
    fonts: (before: HarfBuzzFont, after: HarfBuzzFont), shaper: ShapingComparer, face: String,
    instance: String?, shaping: inout DiffReport.FaceShaping, into out: inout FaceDifference
  ) -> Bool {
    let cb = ib.map { before.normalizedCoordinates($0.coordinates.map { ($0.key, $0.value) }) }
    let ca = ia.map { after.normalizedCoordinates($0.coordinates.map { ($0.key, $0.value) }) }
    let outcome = layout.compare(before: cb ?? [], after: ca ?? [])
    same = same.map { $0.intersection(outcome.same) } ?? outcome.same
    unreadable.formUnion(outcome.unreadable)
    if !outcome.changes.isEmpty {
      let sides = texts ?? (RuleTexts(face: before), RuleTexts(face: after))
      texts = sides
      let (changes, images) = shaper.ruleChanges(
        outcome.changes, layout: layout, fonts.before, fonts.after, texts: sides, face: face,
        instance: instance)
      shaping.rules = (shaping.rules ?? []) + changes
      if !out.shapingImages.contains(where: \.isRule) {
        out.shapingImages = images + out.shapingImages
      }
    }
    return outcome.changes.isEmpty && outcome.unreadable.isEmpty && kernSame
      && layout.changedTables.isSubset(of: outcome.same)
  }
}
