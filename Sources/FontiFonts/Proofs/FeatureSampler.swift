import FontiModel
import FontiText

/// Finds, in one face, a short text that a feature visibly changes.
///
/// A candidate text is shaped twice with HarfBuzz, the feature explicitly off and then on
/// (off is explicit because `liga`, `kern`, `calt`, `locl`… are on by default); it shows the
/// feature when the glyph runs differ (glyph IDs, advances or offsets). Off applies to the
/// whole text; on, to the part of it the feature is meant for when the candidate marks one
/// (the "2" of H2O for `subs`, the reph of an Indic cluster, an Arabic initial letter), so
/// that on draws the text as a reader sees it. Candidates come from built-in context strings
/// (`BuiltInSamples`), then from clusters and joining positions built from the face's own
/// characters (`ContextSamples`: Indic and joining scripts), then from the feature's own
/// lookups: the
/// glyphs they take as input, back to characters through the cmap, tried alone, in words, on
/// bases (marks), in pairs a ligature lookup would take, between the glyphs a contextual rule
/// looks at, and last through the substitutions of other features (a glyph only `ccmp` or
/// `locl` makes). The sample kept is the part of the first differing candidate that changes,
/// shaped again to be sure. Work is bounded by counts, never by time (results must repeat).
///
/// Not Sendable: it owns HarfBuzz objects; make one per face on the thread that reads.
package final class FeatureSampler {
  let face: HarfBuzzFace
  let font: HarfBuzzFont
  /// The face's characters for the glyphs lookups take (shared with `diff`'s rule texts).
  let texts: RuleTexts
  private let buffer = HarfBuzzBuffer()
  private var outlineCache: [UInt32: GlyphOutline] = [:]
  /// The face's GSUB and GPOS, read lookup by lookup on first need (a feature no try shows).
  var ruleSources: [LayoutTable: LayoutRuleSource] = [:]
  /// The glyphs each GSUB feature substitutes in, on first need, by whether the features are
  /// on by default (`madeByOtherFeatures`).
  var outputsByFeature: [Bool: [String: Set<UInt32>]] = [:]

  /// Every text is shaped in this language unless a sample needs its own: the catalogue and
  /// specimens set text as `en` (`TextContext`), so samples are judged as they will be drawn.
  package static let defaultLanguage = "en"
  /// The longest candidate or sample, in characters.
  static let maximumLength = 24
  /// Shapes one feature may cost in one face (each candidate is shaped twice).
  static let shapeBudget = 48
  /// Lookups of one feature read for candidates.
  package static let lookupLimit = 24
  /// Input characters of one feature considered.
  static let characterLimit = 32
  /// Language systems tried for `locl`.
  static let languageSystemLimit = 8

  var shapesLeft = 0
  private var tried: [Found] = []

  /// What sampling one feature found.
  package enum Outcome: Equatable {
    case visible(text: String, language: String?)
    case invisible(tried: [String], languages: [String?])
  }

  /// A text a feature was tried on, in its language (nil: `defaultLanguage`), with the parts
  /// of it the feature was turned on for (nil: all of it).
  struct Found: Equatable {
    var text: String
    package var language: String?
    var ranges: [Range<Int>]?
  }

  /// What sampling one feature found, with the parts of each text the feature acts on: the
  /// sample (nil: no visible effect), and the texts tried when there is none.
  struct Findings: Equatable {
    var sample: Found?
    var tried: [Found]
    /// Why there is no sample, when the feature's rules say (`sampleFromRules`).
    var noEffect: FontProofs.NoEffect?
  }

  package init(face: HarfBuzzFace) {
    self.face = face
    font = HarfBuzzFont(face: face)
    texts = RuleTexts(face: face, font: font)
  }

  private func character(of g: UInt32) -> (
    scalar: Unicode.Scalar, isMark: Bool, rank: (Int, UInt32), script: UInt32
  )? { texts.character(of: g) }

  /// Finds a sample for feature `tag` of `tables`, turned on with `value` (over the whole
  /// sample: `findings` also says which part of it the feature is meant for).
  package func sample(tag: String, tables: [LayoutTable], value: Int = 1) -> Outcome {
    let found = findings(tag: tag, tables: tables, value: value)
    if let sample = found.sample { return .visible(text: sample.text, language: sample.language) }
    return .invisible(tried: found.tried.map(\.text), languages: found.tried.map(\.language))
  }

  /// Finds a sample for feature `tag` of `tables`, turned on with `value` for the parts of
  /// the sample it is meant for; with `rules` off, without the last stage (the feature's own
  /// rules: `sampleFromRules`).
  func findings(tag: String, tables: [LayoutTable], value: Int = 1, rules: Bool = true)
    -> Findings
  {
    shapesLeft = FeatureSampler.shapeBudget
    tried = []
    let hbTag = HarfBuzzTag.make(tag)
    let on = UInt32(max(1, value))
    if tag == "locl" {
      if let found = sampleLocalized(tag: hbTag, tables: tables, value: on) {
        return Findings(sample: found, tried: [])
      }
    } else {
      for text in BuiltInSamples.byTag[tag] ?? [] {
        let candidate = Candidate(marked: text)
        guard covers(candidate.scalars) else { continue }
        if let found = test(candidate, tag: hbTag, value: on, language: nil, builtIn: true) {
          return Findings(sample: found, tried: [])
        }
      }
      if let found = sampleInContext(tag: tag, hbTag: hbTag, tables: tables, value: on) {
        return Findings(sample: found, tried: [])
      }
      if let found = sampleFromLookups(
        tag: hbTag, tables: tables, system: nil, value: on, language: nil)
      {
        return Findings(sample: found, tried: [])
      }
    }
    guard rules else { return Findings(sample: nil, tried: tried) }
    let fromRules = sampleFromRules(tag: tag, tables: tables, value: on)
    if let found = fromRules.sample { return Findings(sample: found, tried: []) }
    return Findings(sample: nil, tried: tried, noEffect: fromRules.noEffect)
  }

  // MARK: - Clusters and joining positions

  /// Tries the Indic clusters and joining positions `ContextSamples` builds for `tag`.
  private func sampleInContext(tag: String, hbTag: UInt32, tables: [LayoutTable], value: UInt32)
    -> Found?
  {
    var candidates = ContextSamples.indic(tag) { font.glyph(for: $0.value) != nil }
    if ContextSamples.positions[tag] != nil {
      var letters: [Unicode.Scalar] = []
      var seen = Set<UInt32>()
      for lookup in face.lookups(.gsub, feature: hbTag).prefix(FeatureSampler.lookupLimit) {
        for g in face.lookupGlyphs(.gsub, lookup: lookup, limit: 2048).input
        where seen.insert(g).inserted {
          if let c = character(of: g), !c.isMark { letters.append(c.scalar) }
        }
      }
      candidates += ContextSamples.joining(tag, letters: letters) {
        font.glyph(for: $0.value) != nil
      }
    }
    for candidate in candidates {
      if let found = test(candidate, tag: hbTag, value: value, language: nil, builtIn: true) {
        return found
      }
    }
    // A font with both Indic specifications (`dev2` and `deva`) is shaped with the new one;
    // a feature only the old one lists (`vatu` in Noto Sans Devanagari) acts only there, so
    // its clusters are shaped again with that script tag (HarfBuzz's `x-hbsc` language).
    let indic = ContextSamples.indic(tag) { font.glyph(for: $0.value) != nil }
    guard !indic.isEmpty else { return nil }
    for language in oldIndicLanguages(listing: hbTag) {
      for candidate in indic {
        if let found = test(
          candidate, tag: hbTag, value: value, language: language, builtIn: true)
        {
          return found
        }
      }
    }
    return nil
  }

  /// The languages (`x-hbsc` + script tag) that make HarfBuzz shape with the first
  /// specification's tag of an Indic script (`deva`, `beng`) whose GSUB lists `feature`
  /// there, when the face also has the second specification's tag (`dev2`, `bng2`), which
  /// HarfBuzz prefers.
  private func oldIndicLanguages(listing feature: UInt32) -> [String] {
    let systems = face.languageSystems(.gsub)
    let scripts = Set(systems.map(\.script))
    var out: [String] = []
    for system in systems where system.language == nil && system.features.contains(feature) {
      let tag = HarfBuzzTag.string(system.script)
      guard let newer = ContextSamples.oldIndicTags[tag], scripts.contains(HarfBuzzTag.make(newer))
      else { continue }
      out.append("x-hbsc" + tag)
    }
    return out
  }

  // MARK: - locl

  /// `locl` acts only in a language: each language system that lists it (GSUB first) is tried
  /// in its own language, with that language's built-in texts and then its own lookups.
  private func sampleLocalized(tag: UInt32, tables: [LayoutTable], value: UInt32) -> Found? {
    var systems: [(LayoutTable, HarfBuzzLanguageSystem, String)] = []
    var seenLanguages = Set<String>()
    for table in tables {
      for system in face.languageSystems(table) where system.features.contains(tag) {
        guard let language = system.language.flatMap({ HarfBuzzFace.bcp47(language: $0) }),
          seenLanguages.insert(language).inserted
        else { continue }
        systems.append((table, system, language))
      }
    }
    for (table, system, language) in systems.prefix(FeatureSampler.languageSystemLimit) {
      let primary = String(language.prefix { $0 != "-" })
      for text in BuiltInSamples.locl[primary] ?? [] {
        let candidate = Candidate(marked: text)
        guard covers(candidate.scalars) else { continue }
        if let found = test(candidate, tag: tag, value: value, language: language, builtIn: true) {
          return found
        }
      }
      if let found = sampleFromLookups(
        tag: tag, tables: [table], system: system, value: value, language: language)
      {
        return found
      }
    }
    return nil
  }

  // MARK: - Candidates from lookups

  /// Tries texts built from the lookups of `tag` (in one language system, or in all), stage
  /// by stage, the costlier stages only when the cheaper ones show nothing.
  private func sampleFromLookups(
    tag: UInt32, tables: [LayoutTable], system: HarfBuzzLanguageSystem?, value: UInt32,
    language: String?
  ) -> Found? {
    var inputGlyphs: [UInt32] = []
    var before: [UInt32] = []
    var after: [UInt32] = []
    var gsubLookups: [UInt32] = []
    var seenGlyphs = Set<UInt32>()
    for table in tables {
      let lookups =
        system.map { face.lookups(table, feature: tag, in: $0) }
        ?? face.lookups(table, feature: tag)
      for lookup in lookups.prefix(FeatureSampler.lookupLimit) {
        if table == .gsub { gsubLookups.append(lookup) }
        let glyphs = face.lookupGlyphs(table, lookup: lookup, limit: 2048)
        for g in glyphs.input where seenGlyphs.insert(g).inserted { inputGlyphs.append(g) }
        before += glyphs.before.prefix(8)
        after += glyphs.after.prefix(8)
      }
    }
    guard !inputGlyphs.isEmpty else { return nil }
    var seen = Set<String>()
    func attempt(_ text: String) -> Found? {
      guard !text.isEmpty, seen.insert(text).inserted else { return nil }
      return test(Candidate(text), tag: tag, value: value, language: language)
    }
    let usable = inputGlyphs.compactMap { g in character(of: g).map { (glyph: g, character: $0) } }
    let ordered = CandidateText.ordered(
      usable, script: \.character.script, rank: \.character.rank)
    // Bases and marks are capped apart: a font with hundreds of letters keeps its marks.
    func glyphs(marks: Bool, _ count: Int) -> [(glyph: UInt32, scalar: Unicode.Scalar)] {
      ordered.lazy.filter { $0.character.isMark == marks }.prefix(count)
        .map { (glyph: $0.glyph, scalar: $0.character.scalar) }
    }
    let baseGlyphs = glyphs(marks: false, 24)
    let markGlyphs = glyphs(marks: true, 8)
    let bases = baseGlyphs.map(\.scalar)
    let marks = markGlyphs.map(\.scalar)

    // Alone: single substitutions and positionings (smcp, onum, ssNN, cvNN, salt…), in a run
    // and then apart (a glyph can take the form already when its neighbour has it).
    if !bases.isEmpty {
      if let found = attempt(CandidateText.run(bases.prefix(8))) { return found }
      if let found = attempt(CandidateText.words(bases.prefix(6).map { [$0] })) { return found }
    }
    // In words of three: forms that depend on the place in a word (init, medi, fina).
    if !bases.isEmpty {
      if let found = attempt(CandidateText.words(bases.prefix(4).map { [$0, $0, $0] })) {
        return found
      }
    }
    // Sequences a ligature or contextual lookup takes (liga, dlig, akhn, half…).
    let sequences = substitutedSequences(
      lookups: gsubLookups, bases: Array(baseGlyphs.prefix(12)), marks: Array(markGlyphs.prefix(4)))
    if !sequences.isEmpty {
      // A sequence that starts with a mark (virama + consonant: a below-base form) is shown
      // after a base; one that ends with a virama (a reph, a half form) before another base,
      // as it is written, and only then on its own.
      let carrier = bases.first
      let whole = sequences.map { seq -> [Unicode.Scalar] in
        guard let carrier, let first = seq.first, CandidateText.isMark(first) else { return seq }
        return [carrier] + seq
      }
      let followed = whole.map { seq -> [Unicode.Scalar] in
        guard let carrier, let last = seq.last, last.properties.canonicalCombiningClass == .virama
        else { return seq }
        return seq + [carrier]
      }
      if let found = attempt(CandidateText.words(followed)) { return found }
      if let found = attempt(CandidateText.words(whole)) { return found }
      if let found = attempt(CandidateText.words(whole.map { $0 + [carrier ?? $0[0]] })) {
        return found
      }
    }
    // Marks on bases (mark, mkmk, abvm, blwm).
    if !marks.isEmpty {
      let carriers = bases.isEmpty ? defaultBases(near: marks) : Array(bases.prefix(6))
      if !carriers.isEmpty {
        if let found = attempt(
          CandidateText.words(
            (0..<min(4, max(carriers.count, marks.count))).map {
              [carriers[$0 % carriers.count], marks[$0 % marks.count]]
            }))
        {
          return found
        }
        if marks.count > 1 {
          if let found = attempt(
            CandidateText.words(
              (0..<min(3, marks.count - 1)).map {
                [carriers[$0 % carriers.count], marks[$0], marks[$0 + 1]]
              }))
          {
            return found
          }
        }
      }
    }
    // Between the glyphs a contextual rule looks at before and after its input.
    let context = texts.contextWords(before: before, inputs: Array(bases.prefix(3)), after: after)
    if !context.isEmpty { if let found = attempt(CandidateText.words(context)) { return found } }
    // Inputs no character maps to directly: reached through other features' substitutions.
    if usable.count < min(inputGlyphs.count, FeatureSampler.characterLimit), !gsubLookups.isEmpty {
      let reached = texts.charactersReaching(Set(inputGlyphs))
      if !reached.isEmpty {
        if let found = attempt(CandidateText.run(reached.prefix(8))) { return found }
        if let found = attempt(CandidateText.words(reached.prefix(4).map { [$0, $0, $0] })) {
          return found
        }
      }
    }
    return nil
  }

  /// Base letters to carry marks that no lookup input supplies: Latin `o`, `n`, `a`, `x`
  /// when the face has them, else its first letters.
  func defaultBases(near marks: [Unicode.Scalar]) -> [Unicode.Scalar] {
    let preferred: [Unicode.Scalar] = ["o", "n", "a", "x"]
    let latin = preferred.filter { font.glyph(for: $0.value) != nil }
    if !latin.isEmpty { return latin }
    return Array(
      texts.characterPool.lazy.map(\.scalar).filter {
        $0.properties.isAlphabetic && !CandidateText.isMark($0)
      }.prefix(4))
  }

  /// Up to 4 sequences of input characters that one of `lookups` would substitute as a whole
  /// (calls `hb_ot_layout_lookup_would_substitute`): pairs of any inputs, then, when no pair
  /// does, a base, a mark and a base (a consonant, a virama and a consonant: `akhn`, `cjct`).
  private func substitutedSequences(
    lookups: [UInt32], bases: [(glyph: UInt32, scalar: Unicode.Scalar)],
    marks: [(glyph: UInt32, scalar: Unicode.Scalar)]
  ) -> [[Unicode.Scalar]] {
    var found: [[Unicode.Scalar]] = []
    let all = bases + marks
    for lookup in lookups.prefix(8) {
      for first in all {
        for second in all
        where face.wouldSubstitute(lookup: lookup, glyphs: [first.glyph, second.glyph]) {
          found.append([first.scalar, second.scalar])
          if found.count == 4 { return found }
          break
        }
      }
    }
    guard found.isEmpty, !marks.isEmpty else { return found }
    for lookup in lookups.prefix(8) {
      for first in bases.prefix(8) {
        for mark in marks.prefix(3) {
          for last in bases.prefix(8)
          where face.wouldSubstitute(lookup: lookup, glyphs: [first.glyph, mark.glyph, last.glyph])
          {
            found.append([first.scalar, mark.scalar, last.scalar])
            if found.count == 4 { return found }
            break
          }
        }
      }
    }
    return found
  }

  // MARK: - Shaping and comparing

  /// Whether the face maps every character of `text` (white space aside).
  private func covers(_ text: [Unicode.Scalar]) -> Bool {
    text.allSatisfy { $0.properties.isWhitespace || font.glyph(for: $0.value) != nil }
  }

  /// Shapes `candidate` off and on; when they differ, narrows it to the part that changes
  /// and returns that (shaped again: a narrowed text that no longer differs is not used). A
  /// built-in or ranged text only loses the words that do not change: its context is the
  /// point.
  func test(
    _ candidate: Candidate, tag: UInt32, value: UInt32, language: String?, builtIn: Bool = false
  ) -> Found? {
    guard shapesLeft >= 2 else { return nil }
    let scalars = Array(candidate.scalars.prefix(FeatureSampler.maximumLength))
    let ranges = candidate.ranges?.filter { $0.upperBound <= scalars.count }
    tried.append(Found(text: Candidate(scalars).text, language: language, ranges: ranges))
    let (off, on) = shapeBoth(scalars, tag: tag, value: value, language: language, ranges: ranges)
    guard !off.isEmpty, looksDifferent(off, on) else { return nil }
    let changed = CandidateText.changedCharacters(off: off, on: on, count: scalars.count)
    let narrowings: [Candidate]
    if ranges != nil {
      narrowings = Candidate(scalars, ranges: ranges).changedWords(changed).map { [$0] } ?? []
    } else {
      narrowings = CandidateText.narrowings(scalars, changed: changed, wordsOnly: builtIn).map {
        Candidate($0)
      }
    }
    for narrowed in narrowings {
      guard narrowed.scalars != scalars, shapesLeft >= 2 else { break }
      let (o, n) = shapeBoth(
        narrowed.scalars, tag: tag, value: value, language: language, ranges: narrowed.ranges)
      if !o.isEmpty, looksDifferent(o, n) {
        return Found(text: narrowed.text, language: language, ranges: narrowed.ranges)
      }
    }
    return Found(text: Candidate(scalars).text, language: language, ranges: ranges)
  }

  /// Whether two runs of the same text draw differently: another number of glyphs, other
  /// advances or offsets, or another glyph that draws another outline. Glyphs that differ
  /// only by ID and draw the same outline (a copy a font keeps for later features) show
  /// nothing; glyphs without outlines (bitmaps, colour glyphs) are taken to differ by ID.
  func looksDifferent(_ off: [ShapedGlyph], _ on: [ShapedGlyph]) -> Bool {
    guard off != on else { return false }
    guard off.count == on.count else { return true }
    for (a, b) in zip(off, on) {
      if a.xAdvance != b.xAdvance || a.yAdvance != b.yAdvance || a.xOffset != b.xOffset
        || a.yOffset != b.yOffset
      {
        return true
      }
      if a.glyph != b.glyph {
        let first = outline(a.glyph)
        if first.isEmpty || first != outline(b.glyph) { return true }
      }
    }
    return false
  }

  func outline(_ glyph: UInt32) -> GlyphOutline {
    if let cached = outlineCache[glyph] { return cached }
    let recorded = font.outline(of: glyph)
    outlineCache[glyph] = recorded
    return recorded
  }

  /// `text` shaped with the feature off, then on (for `ranges` of it only, when given).
  func shapeBoth(
    _ text: [Unicode.Scalar], tag: UInt32, value: UInt32, language: String?,
    ranges: [Range<Int>]? = nil
  ) -> (off: [ShapedGlyph], on: [ShapedGlyph]) {
    shapesLeft -= 2
    let lang = language ?? FeatureSampler.defaultLanguage
    let off = buffer.shape(text, font: font, language: lang, features: [(tag, 0)])
    let on = buffer.shape(
      text, font: font, language: lang, features: [(tag, value)], ranges: ranges)
    return (off, on)
  }
}

/// Building and judging candidate texts: pure functions, tested on their own.
package enum CandidateText {
  /// Features HarfBuzz applies by default whose substitutions can make a glyph another
  /// feature takes as input.
  static let defaultFeatures = [
    "ccmp", "locl", "rvrn", "rlig", "rclt", "calt", "liga", "clig", "nukt", "akhn", "rphf",
    "rkrf", "pref", "blwf", "abvf", "half", "pstf", "vatu", "cjct", "cfar", "init", "medi",
    "fina", "isol", "med2", "fin2", "fin3", "pres", "abvs", "blws", "psts", "haln", "ljmo",
    "vjmo", "tjmo",
  ]

  /// A character fit for a sample: assigned, visible, not private use.
  package static func isUsable(_ s: Unicode.Scalar) -> Bool {
    let p = s.properties
    if p.isWhitespace || p.isNoncharacterCodePoint || p.isDefaultIgnorableCodePoint { return false }
    switch p.generalCategory {
    case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator,
      .paragraphSeparator, .spaceSeparator:
      return false
    default:
      return true
    }
  }

  package static func isMark(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// Letters first (lower case, then capitals, then other letters), then figures,
  /// punctuation, symbols and marks; by code point within each.
  package static func rank(_ s: Unicode.Scalar) -> (Int, UInt32) {
    let order: Int
    switch s.properties.generalCategory {
    case .lowercaseLetter: order = 0
    case .uppercaseLetter: order = 1
    case .titlecaseLetter, .otherLetter, .modifierLetter: order = 2
    case .decimalNumber: order = 3
    case .letterNumber, .otherNumber: order = 4
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
      .initialPunctuation, .finalPunctuation, .otherPunctuation:
      order = 5
    case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: order = 6
    default: order = 7
    }
    return (order, s.value)
  }

  /// `items` with letters first, …, marks last (`rank`), those of the script most of them
  /// share before the rest (a Bengali feature's sample is not led by a stray Latin modifier).
  static func ordered<T>(_ items: [T], by scalar: (T) -> Unicode.Scalar) -> [T] {
    ordered(items, script: { HarfBuzzUnicode.script(of: scalar($0)) }, rank: { rank(scalar($0)) })
  }

  /// `ordered(_:by:)` with each item's script and `rank` given (known already).
  static func ordered<T>(_ items: [T], script: (T) -> UInt32, rank: (T) -> (Int, UInt32)) -> [T] {
    let scripts = items.map(script)
    var counts: [UInt32: Int] = [:]
    for s in scripts where !HarfBuzzUnicode.isShared(s) { counts[s, default: 0] += 1 }
    let main = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    let keys = zip(items, scripts).map { item, script -> (Int, Int, UInt32) in
      let tier = script == main ? 0 : HarfBuzzUnicode.isShared(script) ? 1 : 2
      let r = rank(item)
      return (tier, r.0, r.1)
    }
    return keys.indices.sorted { keys[$0] < keys[$1] }.map { items[$0] }
  }

  /// Characters in a row, cut at the maximum length.
  static func run<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> String {
    String(String.UnicodeScalarView(scalars.prefix(FeatureSampler.maximumLength)))
  }

  /// Words joined by spaces, each once, as many whole words as fit the maximum length.
  static func words(_ words: [[Unicode.Scalar]]) -> String {
    var out: [Unicode.Scalar] = []
    var seen = Set<[Unicode.Scalar]>()
    for word in words where !word.isEmpty && seen.insert(word).inserted {
      let needed = word.count + (out.isEmpty ? 0 : 1)
      guard out.count + needed <= FeatureSampler.maximumLength else { break }
      if !out.isEmpty { out.append(" ") }
      out += word
    }
    return String(String.UnicodeScalarView(out))
  }

  /// Which of `count` characters shaped differently: clusters are compared glyph by glyph
  /// (ID, advances, offsets); a changed cluster marks the characters from its start to the
  /// next cluster start of either run.
  static func changedCharacters(off: [ShapedGlyph], on: [ShapedGlyph], count: Int) -> [Bool] {
    func groups(_ run: [ShapedGlyph]) -> [Int: [ShapedGlyph]] {
      var out: [Int: [ShapedGlyph]] = [:]
      for var g in run {
        let cluster = g.cluster
        g.cluster = 0
        out[cluster, default: []].append(g)
      }
      return out
    }
    let a = groups(off)
    let b = groups(on)
    let starts = Set(a.keys).union(b.keys).sorted()
    var changed = [Bool](repeating: false, count: count)
    for (i, start) in starts.enumerated() where a[start] != b[start] {
      let end = i + 1 < starts.count ? Int(starts[i + 1]) : count
      for c in Int(start)..<max(Int(start), min(end, count)) { changed[c] = true }
    }
    return changed
  }

  /// Shorter texts that may still show the change, best first: the words that changed (for
  /// texts of words); for a run of characters, the changed characters alone, then a few
  /// characters around the first change. `wordsOnly` keeps runs whole.
  static func narrowings(_ text: [Unicode.Scalar], changed: [Bool], wordsOnly: Bool = false)
    -> [[Unicode.Scalar]]
  {
    guard let first = changed.firstIndex(of: true) else { return [] }
    var out: [[Unicode.Scalar]] = []
    if text.contains(" ") || wordsOnly {
      var words: [[Unicode.Scalar]] = []
      var word: [Unicode.Scalar] = []
      var wordChanged = false
      for (i, s) in text.enumerated() {
        if s == " " {
          if wordChanged { words.append(word) }
          word = []
          wordChanged = false
        } else {
          word.append(s)
          wordChanged = wordChanged || changed[i]
        }
      }
      if wordChanged { words.append(word) }
      let joined = Array(CandidateText.words(Array(words.prefix(4))).unicodeScalars)
      return joined.isEmpty ? [] : [joined]
    }
    var seen = Set<Unicode.Scalar>()
    let alone = text.indices.filter { changed[$0] && seen.insert(text[$0]).inserted }
      .prefix(12).map { text[$0] }
    out.append(Array(alone))
    let start = max(0, first - 1)
    out.append(Array(text[start..<min(text.count, start + 8)]))
    return out.filter { !$0.isEmpty }
  }
}
