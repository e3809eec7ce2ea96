import FontiText

/// A text to try a feature on, with the parts of it the feature is meant for.
struct Candidate: Hashable {
  var scalars: [Unicode.Scalar]
  /// Where the feature is turned on, in scalars from the start; nil: the whole text.
  var ranges: [Range<Int>]?

  init(_ scalars: [Unicode.Scalar], ranges: [Range<Int>]? = nil) {
    self.scalars = scalars
    self.ranges = ranges
  }

  init(_ text: String) { self.init(Array(text.unicodeScalars)) }

  /// A built-in text in which braces mark the parts the feature is meant for: `H{2}O` is
  /// "H2O" with `subs` on the "2" only. Without braces the feature applies to all of it.
  init(marked text: String) {
    var scalars: [Unicode.Scalar] = []
    var ranges: [Range<Int>] = []
    var start: Int?
    for s in text.unicodeScalars {
      switch s {
      case "{": start = scalars.count
      case "}":
        if let open = start, open < scalars.count { ranges.append(open..<scalars.count) }
        start = nil
      default: scalars.append(s)
      }
    }
    self.init(scalars, ranges: ranges.isEmpty ? nil : ranges)
  }

  var text: String { String(String.UnicodeScalarView(scalars)) }

  /// Words, each with the part the feature is meant for (nil: the whole word), joined by
  /// spaces: as many whole words as fit the maximum length, each once.
  static func words(_ words: [(word: [Unicode.Scalar], range: Range<Int>?)]) -> Candidate {
    var out: [Unicode.Scalar] = []
    var ranges: [Range<Int>] = []
    var seen = Set<[Unicode.Scalar]>()
    for (word, range) in words where !word.isEmpty && seen.insert(word).inserted {
      let needed = word.count + (out.isEmpty ? 0 : 1)
      guard out.count + needed <= FeatureSampler.maximumLength else { break }
      if !out.isEmpty { out.append(" ") }
      let start = out.count
      out += word
      let part = range ?? 0..<word.count
      ranges.append((start + part.lowerBound)..<(start + min(part.upperBound, word.count)))
    }
    return Candidate(out, ranges: ranges)
  }

  /// The words of a ranged text that changed (`changed`, per scalar), at most four, with
  /// their ranges; nil when none did or the text has no ranges.
  func changedWords(_ changed: [Bool]) -> Candidate? {
    guard let ranges else { return nil }
    var kept: [(word: [Unicode.Scalar], range: Range<Int>?)] = []
    var start = 0
    for end in scalars.indices.filter({ scalars[$0] == " " }) + [scalars.count] {
      defer { start = end + 1 }
      guard start < end, (start..<end).contains(where: { $0 < changed.count && changed[$0] })
      else { continue }
      // A word holds one range (the texts are built so): the first that falls in it.
      let range = ranges.first { $0.lowerBound >= start && $0.upperBound <= end }
      kept.append(
        (
          Array(scalars[start..<end]),
          range.map { ($0.lowerBound - start)..<($0.upperBound - start) }
        ))
      if kept.count == 4 { break }
    }
    guard !kept.isEmpty else { return nil }
    return Candidate.words(kept)
  }
}

/// Texts in which shaping features act, built from the characters a face maps: Indic
/// clusters (a consonant, a virama and RA; RA, a virama and a consonant…) for the features
/// the Indic shapers apply to parts of a syllable, and letters of a joining script in the
/// position an Arabic `init`, `medi` or `fina` form is for. Each text marks the part the
/// feature is meant for (the reph's RA and virama, the initial letter), so that turned on it
/// draws as a reader sees the script, and turned off shows what the feature does.
enum ContextSamples {
  // MARK: Indic clusters

  /// The Indic scripts whose blocks share one layout (ISCII's): their first code point.
  static let indicBlocks: [UInt32] = [
    0x900, 0x980, 0xA00, 0xA80, 0xB00, 0xB80, 0xC00, 0xC80, 0xD00,
  ]
  /// The OpenType script tags of the first Indic specification, each with the second's.
  static let oldIndicTags: [String: String] = [
    "deva": "dev2", "beng": "bng2", "guru": "gur2", "gujr": "gjr2", "orya": "ory2",
    "taml": "tml2", "telu": "tel2", "knda": "knd2", "mlym": "mlm2",
  ]
  /// Scripts a face has clusters for at most.
  static let scriptLimit = 3

  /// The letters a cluster is made of, by their offset in an Indic block.
  enum Letter {
    case consonant(Int)  // the n-th of the preferred consonants
    case ra, ya, va, ssa, nya, ka, ja
    case virama, nukta, anusvara, visarga
    case aa, i, ii, u, uu, vocalicR, e
    /// ZERO WIDTH JOINER: the explicit reph of Telugu (RA, virama, ZWJ), whether or not the
    /// face maps it (HarfBuzz shapes with it either way).
    case zwj

    /// Offsets from the block's start; the first one the block assigns and the face maps.
    var offsets: [UInt32] {
      switch self {
      case .consonant: return []
      case .ra: return [0x30]
      case .ya: return [0x2F]
      case .va: return [0x35]
      case .ssa: return [0x37]
      case .nya: return [0x1E]
      case .ka: return [0x15]
      case .ja: return [0x1C]
      case .virama: return [0x4D]
      case .nukta: return [0x3C]
      case .anusvara: return [0x02]
      case .visarga: return [0x03]
      case .aa: return [0x3E]
      case .i: return [0x3F]
      case .ii: return [0x40]
      case .u: return [0x41]
      case .uu: return [0x42]
      case .vocalicR: return [0x43]
      case .e: return [0x47, 0x46]
      case .zwj: return []
      }
    }
  }

  /// Consonants clusters are made with, in order: common ones that most fonts give conjunct,
  /// half and below-base forms (KA, TA, PA, GA, MA, SA, NA, DA, BA, CA, LA), never RA, YA or
  /// VA (they have forms of their own).
  static let consonants: [UInt32] = [
    0x15, 0x24, 0x2A, 0x17, 0x2E, 0x38, 0x28, 0x26, 0x2C, 0x1A, 0x32,
  ]

  /// A cluster pattern: its letters, and which of them the feature is meant for (nil: all).
  struct Pattern {
    var letters: [Letter]
    var range: Range<Int>?
    init(_ letters: [Letter], _ range: Range<Int>? = nil) {
      self.letters = letters
      self.range = range
    }
  }

  /// The cluster patterns tried for each feature the Indic shapers apply, best first. C is a
  /// consonant, V the virama: `rphf` RA+V+C (the reph; RA+V+ZWJ+C where the reph is
  /// explicit, as in Telugu); `half` C+V+C (a half form);
  /// `blwf`, `pstf`, `pref` C+V+RA or C+V+C (below-, post-, pre-base forms of the second);
  /// `rkrf`, `vatu`, `cjct`, `akhn` the whole cluster; `pres`, `abvs`, `blws`, `psts` the
  /// cluster with the vowel sign the presentation form is made for (a consonant doubled, as
  /// in त्त, is the conjunct most fonts draw as one).
  static let patterns: [String: [[Pattern]]] = {
    let c1 = Letter.consonant(0)
    let c2 = Letter.consonant(1)
    let c3 = Letter.consonant(2)
    return [
      "rphf": [
        [Pattern([.ra, .virama, c1], 0..<2)], [Pattern([.ra, .virama, .zwj, c1], 0..<3)],
      ],
      "half": [[Pattern([c1, .virama, c2], 0..<2)], [Pattern([c1, .virama, .ya], 0..<2)]],
      "blwf": [
        [Pattern([c1, .virama, .ra], 1..<3)], [Pattern([c1, .virama, c2], 1..<3)],
        [Pattern([c1, .virama, .va], 1..<3)],
      ],
      "pstf": [
        [Pattern([c1, .virama, .ya], 1..<3)], [Pattern([c1, .virama, .va], 1..<3)],
        [Pattern([c1, .virama, c2], 1..<3)],
      ],
      "pref": [[Pattern([c1, .virama, .ra], 1..<3)]],
      "rkrf": [[Pattern([c1, .virama, .ra])]],
      "vatu": [[Pattern([c1, .virama, .ra])], [Pattern([c1, .virama, .ya])]],
      "cjct": [
        [Pattern([c1, .virama, c2])], [Pattern([c1, .virama, c1])], [Pattern([c1, .virama, .ra])],
        [Pattern([c1, .virama, .ya])],
      ],
      "akhn": [[Pattern([.ka, .virama, .ssa]), Pattern([.ja, .virama, .nya])]],
      "nukt": [[Pattern([c1, .nukta])]],
      "haln": [[Pattern([c1, .virama])]],
      "pres": [
        [Pattern([c1, .virama, c1])], [Pattern([c1, .virama, c2])], [Pattern([c1, .virama, .ra])],
        [Pattern([c1, .virama, c2, .virama, c3])], [Pattern([c1, .i])],
        [Pattern([c1, .virama, .ra, .i])],
      ],
      "abvs": [
        [Pattern([.ra, .virama, c1, .anusvara])], [Pattern([c1, .e, .anusvara])],
        [Pattern([.ra, .virama, c1, .e])], [Pattern([c1, .i, .anusvara])],
      ],
      "blws": [
        [Pattern([.ra, .u]), Pattern([.ra, .uu])], [Pattern([c1, .virama, .ra, .u])],
        [Pattern([c1, .u]), Pattern([c1, .uu])], [Pattern([c1, .vocalicR])],
        [Pattern([c1, .virama, c2, .u])],
      ],
      "psts": [
        [Pattern([c1, .ii])], [Pattern([c1, .virama, .ra, .ii])], [Pattern([c1, .aa])],
        [Pattern([.ra, .virama, c1, .ii])], [Pattern([c1, .visarga])],
      ],
    ]
  }()

  /// Texts for `tag` in each Indic script `maps` covers (the virama and KA mapped): per
  /// pattern group, a text of up to four clusters with different consonants, the part the
  /// feature is meant for marked. Empty for other features.
  static func indic(_ tag: String, maps: (Unicode.Scalar) -> Bool) -> [Candidate] {
    guard let groups = patterns[tag] else { return [] }
    var out: [Candidate] = []
    for block in indicBlocks {
      guard out.count < scriptLimit * groups.count else { break }
      func scalar(_ offset: UInt32) -> Unicode.Scalar? {
        guard let s = Unicode.Scalar(block + offset), s.properties.generalCategory != .unassigned,
          maps(s)
        else { return nil }
        return s
      }
      guard scalar(0x4D) != nil, scalar(0x15) != nil else { continue }
      let consonants = ContextSamples.consonants.compactMap { scalar($0) }
      func letter(_ l: Letter, variant: Int) -> Unicode.Scalar? {
        if case .zwj = l { return "\u{200D}" }
        if case .consonant(let n) = l {
          guard !consonants.isEmpty else { return nil }
          return consonants[(n + variant) % consonants.count]
        }
        return l.offsets.compactMap { scalar($0) }.first
      }
      for group in groups {
        var words: [(word: [Unicode.Scalar], range: Range<Int>?)] = []
        for pattern in group {
          // Four clusters: the consonants shift by one each time (KA TA, TA PA, PA GA…).
          for variant
            in 0..<(pattern.letters.contains {
              if case .consonant = $0 { return true }
              return false
            } ? 4 : 1)
          {
            let letters = pattern.letters.map { letter($0, variant: variant) }
            guard letters.allSatisfy({ $0 != nil }) else { continue }
            words.append((letters.compactMap { $0 }, pattern.range))
          }
        }
        let candidate = Candidate.words(words)
        if !candidate.scalars.isEmpty { out.append(candidate) }
      }
    }
    return out
  }

  // MARK: Joining scripts

  /// Where in a word each joining feature acts: `init` on a first letter, `medi` between
  /// two, `fina` on a last, `isol` alone (Syriac's `med2`, `fin2`, `fin3` like `medi`, `fina`).
  enum Position { case initial, medial, final, isolated }

  static let positions: [String: Position] = [
    "init": .initial, "medi": .medial, "med2": .medial, "fina": .final, "fin2": .final,
    "fin3": .final, "isol": .isolated,
  ]

  /// A dual-joining letter of each joining script to join to (BEH, BETH, NKo BA, Mongolian BA),
  /// else the tatweel, which joins on both sides in every Arabic-script font.
  static let joiners: [String: [Unicode.Scalar]] = [
    "Arab": ["\u{628}", "\u{640}"], "Syrc": ["\u{712}", "\u{640}"], "Nkoo": ["\u{7D3}", "\u{7FA}"],
    "Mong": ["\u{182A}"], "Mand": ["\u{841}", "\u{640}"], "Adlm": ["\u{1E926}", "\u{640}"],
  ]

  /// Words for a joining feature: each of `letters` (the feature's own input) in the
  /// position the feature is for, joined to its script's joining letter, the letter marked;
  /// four words to a text (eight single letters for `isol`), three texts at most. Empty for
  /// other features or when no joiner is mapped.
  static func joining(_ tag: String, letters: [Unicode.Scalar], maps: (Unicode.Scalar) -> Bool)
    -> [Candidate]
  {
    guard let position = positions[tag] else { return [] }
    // The basic letters of the Arabic block before its hamza carriers and extensions.
    let sorted = letters.sorted { a, b in
      let ka = (0x628...0x64A).contains(a.value) ? 0 : 1
      let kb = (0x628...0x64A).contains(b.value) ? 0 : 1
      return (ka, a.value) < (kb, b.value)
    }
    var words: [(word: [Unicode.Scalar], range: Range<Int>?)] = []
    let perText = position == .isolated ? 8 : 4
    for letter in sorted {
      let script = HarfBuzzTag.string(HarfBuzzUnicode.script(of: letter))
      guard let joiner = joiners[script]?.first(where: { maps($0) && $0 != letter })
      else { continue }
      switch position {
      case .initial: words.append(([letter, joiner], 0..<1))
      case .medial: words.append(([joiner, letter, joiner], 1..<2))
      case .final: words.append(([joiner, letter], 1..<2))
      case .isolated: words.append(([letter], 0..<1))
      }
      if words.count == 3 * perText { break }
    }
    return stride(from: 0, to: words.count, by: perText).map {
      Candidate.words(Array(words[$0..<min($0 + perText, words.count)]))
    }.filter { !$0.scalars.isEmpty }
  }
}
