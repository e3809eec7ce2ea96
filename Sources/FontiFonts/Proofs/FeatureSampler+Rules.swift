import FontiModel
import FontiText

/// The last stage of sampling: texts built from the feature's own rules (`LayoutRules`, read
/// only when every earlier try showed nothing), and, when none of them shows the feature
/// either, why (`FontProofs.NoEffect`).
extension FeatureSampler {
  /// Rules of one feature looked at, over all its lookups.
  static let ruleLimit = 256
  /// Texts built from rules and tried, words of them joined as the other stages join theirs.
  static let ruleWordLimit = 48
  /// Shapes the rules stage may add to the feature's budget.
  static let ruleShapeBudget = 16

  /// What the feature's rules hold, rule by rule: the words built for the rules whose
  /// substitutes draw otherwise (or that move glyphs), and counts of the rest.
  struct RuleSurvey {
    var words: [[Unicode.Scalar]] = []
    var seenWords = Set<[Unicode.Scalar]>()
    /// Rules whose substitute draws as the glyph it replaces.
    var alike = 0
    /// Rules whose glyphs or context no character makes.
    var unreachable = 0
    /// Glyphs those rules take that no character makes.
    var unreachableGlyphs = Set<UInt32>()
    var rules = 0
    var readableLookups = 0
    var unreadableLookups = 0
    var language: String?
    /// The scripts whose language systems list the feature, in the table's order.
    var scripts: [String] = []
    var tag = ""
    /// The glyphs the substitutions whose words were made give (single, alternate, multiple
    /// and ligature rules).
    var outputs = Set<UInt32>()
  }

  /// Tries texts built from the rules of `tag`'s lookups (every language system of the
  /// face's GSUB and GPOS); when none shows the feature, says why.
  func sampleFromRules(tag: String, tables: [LayoutTable], value: UInt32)
    -> (sample: Found?, noEffect: FontProofs.NoEffect?)
  {
    var survey = RuleSurvey()
    survey.tag = tag
    for table in tables { surveyRules(table: table, tag: tag, value: value, into: &survey) }
    shapesLeft += FeatureSampler.ruleShapeBudget
    let hbTag = HarfBuzzTag.make(tag)
    // In the text's own script first; then, for a feature a script system lists that the
    // text's script does not pick (`math`, an old Indic tag), in that system (HarfBuzz's
    // `x-hbsc` language).
    var languages = [survey.language]
    if let script = survey.scripts.first(where: { $0 != "DFLT" }) {
      languages.append("x-hbsc" + script)
    }
    for language in languages {
      var start = 0
      while start < survey.words.count, shapesLeft >= 2 {
        let chunk = Array(survey.words[start...].prefix(6))
        let candidate = Candidate(Array(CandidateText.words(chunk).unicodeScalars))
        start += max(1, candidate.scalars.split(separator: " ").count)
        if let found = test(candidate, tag: hbTag, value: value, language: language) {
          return (found, nil)
        }
      }
    }
    if FeatureSampler.verticalFeatures.contains(tag) { return (nil, .verticalOnly) }
    return (nil, reason(survey))
  }

  /// Features HarfBuzz applies in vertical text only.
  static let verticalFeatures: Set<String> = [
    "vert", "vrt2", "vrtr", "vkrn", "vpal", "valt", "vhal", "vkna",
  ]

  /// The reason a feature whose rules were surveyed shows nothing.
  private func reason(_ survey: RuleSurvey) -> FontProofs.NoEffect? {
    if survey.readableLookups == 0 {
      return survey.unreadableLookups > 0 ? .unreadable : .noRules
    }
    if survey.rules == 0 { return .noRules }
    if !survey.words.isEmpty {
      // Every glyph its substitutions give, another feature on by default gives too (the
      // Tifinagh fonts' liga, whose ligatures ccmp makes): turned off, it changes nothing.
      let others = madeByOtherFeatures(than: survey.tag, onByDefault: true)
      return !survey.outputs.isEmpty && survey.outputs.isSubset(of: others)
        ? .madeByDefaultFeature : .actsElsewhere
    }
    if survey.alike > 0 { return .drawsAlike }
    guard survey.unreachable > 0 else { return nil }
    // Glyphs that only other features (off by default) make: the feature acts on their
    // forms only, the default glyphs already have its own.
    return madeByOtherFeatures(than: survey.tag, onByDefault: false)
      .isDisjoint(with: survey.unreachableGlyphs)
      ? .contextUnreachable : .alreadyDefault
  }

  /// The glyphs the GSUB lookups of the features on (or off) by default, other than `tag`,
  /// substitute in (and those their context rules call), read from the rules once per face
  /// (those of the features on by default apart from the others: each read only when asked).
  private func madeByOtherFeatures(than tag: String, onByDefault: Bool) -> Set<UInt32> {
    let defaults = Set(CandidateText.defaultFeatures)
    if outputsByFeature[onByDefault] == nil {
      let features = Set(rules(.gsub, features: [tag]).languageSystems.flatMap(\.features.keys))
        .filter { defaults.contains($0) == onByDefault }
      let gsub = rules(.gsub, features: features)
      var byFeature: [String: Set<Int>] = [:]
      for system in gsub.languageSystems {
        for (feature, indices) in system.features where features.contains(feature) {
          byFeature[feature, default: []].formUnion(indices.prefix(FeatureSampler.lookupLimit))
        }
      }
      outputsByFeature[onByDefault] = byFeature.mapValues { indices in
        var out = Set<UInt32>()
        for index in indices { out.formUnion(substitutes(of: index, in: gsub, depth: 1)) }
        return out
      }
    }
    var out = Set<UInt32>()
    for (feature, glyphs) in outputsByFeature[onByDefault] ?? [:] where feature != tag {
      out.formUnion(glyphs)
    }
    return out
  }

  /// The glyphs lookup `index` substitutes in, with those of the lookups its context rules
  /// call down to `depth` more levels.
  private func substitutes(of index: Int, in gsub: LayoutRules, depth: Int) -> Set<UInt32> {
    guard index < gsub.lookups.count else { return [] }
    switch gsub.lookups[index].rules {
    case .singleSubstitution(let map): return Set(map.values)
    case .multipleSubstitution(let map), .alternateSubstitution(let map):
      return Set(map.values.joined())
    case .ligatureSubstitution(let map): return Set(map.values)
    case .reverseChainSubstitution(let groups):
      return Set(groups.flatMap { $0.substitutes.values.joined() })
    case .contextSubstitution(let groups):
      guard depth > 0 else { return [] }
      let called = Set(groups.flatMap { $0.rules.flatMap { $0.actions.map(\.lookupIndex) } })
      var out = Set<UInt32>()
      for nested in called.sorted().prefix(FeatureSampler.lookupLimit) where nested != index {
        out.formUnion(substitutes(of: nested, in: gsub, depth: depth - 1))
      }
      return out
    default: return []
    }
  }

  /// The face's `table` read as rules for `features`: their lookups and those their context
  /// rules call (with any read for features before; each lookup read once), the language
  /// systems whole.
  func rules(_ table: LayoutTable, features: Set<String>) -> LayoutRules {
    if let source = ruleSources[table] { return source.rules(features: features) }
    let source = face.layoutRuleSource(table)
    ruleSources[table] = source
    return source.rules(features: features)
  }

  /// Surveys the rules of `tag`'s lookups in `table` into `survey`.
  private func surveyRules(
    table: LayoutTable, tag: String, value: UInt32, into survey: inout RuleSurvey
  ) {
    let read = rules(table, features: [tag])
    var indices = Set<Int>()
    for system in read.languageSystems {
      guard let found = system.features[tag], !found.isEmpty else { continue }
      indices.formUnion(found)
      if !survey.scripts.contains(system.script) { survey.scripts.append(system.script) }
      // A feature only a language system lists is shaped in that language.
      if survey.language == nil, let language = system.language,
        read.languageSystems.allSatisfy({ $0.language != nil || $0.features[tag] == nil })
      {
        survey.language = HarfBuzzFace.bcp47(language: HarfBuzzTag.make(language))
      }
    }
    for index in indices.sorted().prefix(FeatureSampler.lookupLimit) {
      guard index < read.lookups.count else {
        survey.unreadableLookups += 1
        continue
      }
      let lookup = read.lookups[index]
      if case .unreadable = lookup.rules {
        survey.unreadableLookups += 1
        continue
      }
      survey.readableLookups += 1
      surveyLookup(lookup.rules, table: read, value: value, into: &survey)
    }
  }

  /// Adds one lookup's rules to `survey`: a word for each rule that can change what is drawn
  /// and whose glyphs the face's characters make.
  private func surveyLookup(
    _ rules: LayoutLookupRules, table: LayoutRules, value: UInt32, into survey: inout RuleSurvey
  ) {
    /// Whether a word was made for the rule (or one like it already was).
    @discardableResult func add(
      backtrack: [Set<UInt32>] = [], _ input: [Set<UInt32>], lookahead: [Set<UInt32>] = [],
      alike: Bool = false, carrier: Bool = false
    ) -> Bool {
      guard survey.rules < FeatureSampler.ruleLimit else { return false }
      survey.rules += 1
      if alike {
        survey.alike += 1
        return false
      }
      guard survey.words.count < FeatureSampler.ruleWordLimit,
        var word = texts.characters(backtrack: backtrack, input: input, lookahead: lookahead)
      else {
        if survey.words.count < FeatureSampler.ruleWordLimit {
          survey.unreachable += 1
          for set in backtrack + input + lookahead where set.count <= 64 {
            survey.unreachableGlyphs.formUnion(set)
          }
        }
        return false
      }
      // A mark on a mark needs a base to sit on.
      if carrier, let base = defaultBases(near: []).first { word.insert(base, at: 0) }
      guard word.count <= FeatureSampler.maximumLength else { return false }
      if survey.seenWords.insert(word).inserted { survey.words.append(word) }
      return true
    }
    func single(_ g: UInt32, _ s: UInt32) {
      if add([[g]], alike: drawsAlike(g, s)) { survey.outputs.insert(s) }
    }

    switch rules {
    case .empty, .unreadable: return
    case .singleSubstitution(let map):
      for (g, s) in map.sorted(by: { $0.key < $1.key }).prefix(64) { single(g, s) }
    case .alternateSubstitution(let map):
      for (g, alternates) in map.sorted(by: { $0.key < $1.key }).prefix(64) {
        guard !alternates.isEmpty else { continue }
        single(g, alternates[min(Int(value), alternates.count) - 1])
      }
    case .multipleSubstitution(let map):
      for (g, out) in map.sorted(by: { $0.key < $1.key }).prefix(64) {
        if add([[g]], alike: out.count == 1 && drawsAlike(g, out[0])) {
          survey.outputs.formUnion(out)
        }
      }
    case .ligatureSubstitution(let map):
      for (components, ligature) in map.sorted(by: {
        $0.key.lexicographicallyPrecedes($1.key)
      }).prefix(64) where add(components.map { [$0] }) {
        survey.outputs.insert(ligature)
      }
    case .contextSubstitution(let groups), .contextPositioning(let groups):
      for group in groups.prefix(32) {
        for rule in group.rules.prefix(4) {
          add(
            backtrack: rule.backtrack, [group.firstGlyphs] + rule.input,
            lookahead: rule.lookahead,
            alike: actionsDrawAlike(rule, first: group.firstGlyphs, table: table))
        }
      }
    case .reverseChainSubstitution(let groups):
      for group in groups.prefix(16) {
        for (g, substitutes) in group.substitutes.sorted(by: { $0.key < $1.key }).prefix(8) {
          for (context, s) in zip(group.contexts, substitutes).prefix(2) {
            add(
              backtrack: context.backtrack, [[g]], lookahead: context.lookahead,
              alike: drawsAlike(g, s))
          }
        }
      }
    case .singlePositioning(let map):
      for g in map.keys.sorted().prefix(64) { add([[g]]) }
    case .pairPositioning(let pairs):
      for key in pairs.values.keys.sorted(by: { ($0.first, $0.second) < ($1.first, $1.second) })
        .prefix(64)
      where key.first < pairs.firstClasses.count && key.second < pairs.secondClasses.count {
        add([Set(pairs.firstClasses[key.first]), Set(pairs.secondClasses[key.second])])
      }
    case .cursivePositioning(let anchors):
      let exits = Set(anchors.filter { $0.value.exit != nil }.keys)
      let entries = Set(anchors.filter { $0.value.entry != nil }.keys)
      if !exits.isEmpty, !entries.isEmpty { add([exits, entries]) }
    case .markToBase(let classes), .markToLigature(let classes):
      for mark in classes.prefix(16) { add([Set(mark.bases.keys), Set(mark.marks.keys)]) }
    case .markToMark(let classes):
      for mark in classes.prefix(16) {
        add([Set(mark.bases.keys), Set(mark.marks.keys)], carrier: true)
      }
    }
  }

  /// Whether glyph `b` draws as `a`: the same glyph, or the same outline (not empty) and
  /// advance.
  func drawsAlike(_ a: UInt32, _ b: UInt32) -> Bool {
    if a == b { return true }
    let first = outline(a)
    return !first.isEmpty && first == outline(b) && font.advance(of: a) == font.advance(of: b)
  }

  /// Whether every substitution a context rule's actions make (single substitutions, on the
  /// glyphs its input position may hold) draws as the glyph it replaces; false when an action
  /// calls anything else.
  private func actionsDrawAlike(_ rule: LayoutContextRule, first: Set<UInt32>, table: LayoutRules)
    -> Bool
  {
    guard !rule.actions.isEmpty else { return false }
    let positions = [first] + rule.input
    for action in rule.actions {
      guard action.lookupIndex < table.lookups.count, action.sequenceIndex < positions.count,
        case .singleSubstitution(let map) = table.lookups[action.lookupIndex].rules
      else { return false }
      for g in positions[action.sequenceIndex].sorted().prefix(64) {
        if let s = map[g], !drawsAlike(g, s) { return false }
      }
    }
    return true
  }
}
