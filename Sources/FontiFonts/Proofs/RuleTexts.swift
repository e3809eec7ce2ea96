import FontiText

/// Texts made of a face's own characters for glyphs a layout rule looks at: each glyph back to
/// a character through the cmap (a glyph's lowest code point), or, for a glyph no character
/// maps to (a contextual form, a glyph `ccmp` or `locl` makes), a character the default
/// features turn into it (`hb_ot_layout_lookups_substitute_closure`). What the proofs' feature
/// sampler tries a feature on, and what `diff` shapes a changed rule on.
///
/// Work is bounded by counts (glyphs looked at per position, characters in the closure's
/// pool), never by time, so a hostile font's huge classes cost no more than a few thousand
/// look-ups and results repeat.
///
/// Not Sendable: it owns HarfBuzz objects; make one per face on the thread that reads.
package final class RuleTexts {
  let face: HarfBuzzFace
  let font: HarfBuzzFont
  private var reverseMapStorage: [UInt32]?

  /// Glyphs of one position's set looked at for a character, in glyph order.
  static let glyphsPerPosition = 512
  /// Positions (backtrack, input and lookahead together) a text is made for at most.
  static let positionLimit = 24

  package convenience init(face: HarfBuzzFace) {
    self.init(face: face, font: HarfBuzzFont(face: face))
  }

  init(face: HarfBuzzFace, font: HarfBuzzFont) {
    self.face = face
    self.font = font
  }

  // MARK: - Texts for rules

  /// A text whose characters are, in order, the backtrack (given nearest first, as
  /// `LayoutContextRule` gives it), the input and the lookahead: for each position a
  /// character mapped (cmap) to one of its set's glyphs, else one the default features turn
  /// into one of them. Characters of the input's script are preferred, then letters before
  /// figures, punctuation and marks (`CandidateText.rank`). Nil when a position has no such
  /// character (its context cannot be made from the font's characters), when a set is empty,
  /// or when there are more than `positionLimit` positions.
  package func text(backtrack: [Set<UInt32>], input: [Set<UInt32>], lookahead: [Set<UInt32>])
    -> String?
  {
    let scalars = characters(backtrack: backtrack, input: input, lookahead: lookahead)
    return scalars.map { String(String.UnicodeScalarView($0)) }
  }

  /// A text whose characters map, in order, to `glyphs` (`text(backtrack:input:lookahead:)`
  /// with one glyph a position).
  package func text(glyphs: [UInt32]) -> String? {
    text(backtrack: [], input: glyphs.map { [$0] }, lookahead: [])
  }

  /// The characters of `text(backtrack:input:lookahead:)`.
  func characters(backtrack: [Set<UInt32>], input: [Set<UInt32>], lookahead: [Set<UInt32>])
    -> [Unicode.Scalar]?
  {
    let positions = backtrack.reversed() + input + lookahead
    guard !input.isEmpty, positions.count <= RuleTexts.positionLimit,
      positions.allSatisfy({ !$0.isEmpty })
    else { return nil }
    // The input's first position sets the script the others prefer.
    guard let first = character(in: input[0], script: nil) else { return nil }
    let script = HarfBuzzUnicode.script(of: first)
    var out: [Unicode.Scalar] = []
    for (n, set) in positions.enumerated() {
      if n == backtrack.count {
        out.append(first)
        continue
      }
      guard let c = character(in: set, script: script) else { return nil }
      out.append(c)
    }
    return out
  }

  /// The best character for one of `set`'s glyphs: mapped by the cmap, of `script` (or a
  /// shared script) before others, then by `CandidateText.rank`; else one the default
  /// features turn into one of them; else the space, when the set holds its glyph (a rule
  /// that looks for the start of a word).
  func character(in set: Set<UInt32>, script: UInt32?) -> Unicode.Scalar? {
    let glyphs = set.sorted().prefix(RuleTexts.glyphsPerPosition)
    var best: (key: (Int, Int, UInt32), scalar: Unicode.Scalar)?
    for g in glyphs {
      guard let c = character(of: g) else { continue }
      let tier =
        script == nil || c.script == script ? 0 : HarfBuzzUnicode.isShared(c.script) ? 1 : 2
      let key = (tier, c.rank.0, c.rank.1)
      if let kept = best, kept.key <= key { continue }
      best = (key, c.scalar)
    }
    if let best { return best.scalar }
    if let reached = charactersReaching(set, limit: 1).first { return reached }
    if let space = font.glyph(for: 0x20), set.contains(space) { return " " }
    return nil
  }

  // MARK: - Glyphs back to characters

  /// Each glyph's lowest code point (0: none), built on first use: features with a built-in
  /// sample never pay for it.
  private var reverseMap: [UInt32] {
    if let reverseMapStorage { return reverseMapStorage }
    let map = font.reverseCharacterMap()
    reverseMapStorage = map
    return map
  }

  /// What a text asks of a glyph's character (`reverseMap`): whether it is usable, a mark,
  /// its rank and script.
  private struct GlyphCharacter {
    static let unknown = GlyphCharacter(scalar: "\0", script: 0, order: 0, state: 0)
    var scalar: Unicode.Scalar
    var script: UInt32
    var order: UInt8
    /// 0: not worked out yet; 1: no usable character; 2: usable; 3: usable, a mark.
    var state: UInt8
  }
  /// Each glyph's `GlyphCharacter`, worked out once per face: every feature asks again for the
  /// glyphs its lookups take (thousands of them), and Swift's Unicode property look-ups cost a
  /// sixth of sampling.
  private var glyphCharacters: [GlyphCharacter] = []

  /// The usable character of glyph `g`, with whether it is a mark, its rank and its script;
  /// nil when no usable character maps to it.
  func character(of g: UInt32) -> (
    scalar: Unicode.Scalar, isMark: Bool, rank: (Int, UInt32), script: UInt32
  )? {
    let map = reverseMap
    guard Int(g) < map.count else { return nil }
    if glyphCharacters.isEmpty {
      glyphCharacters = Array(repeating: .unknown, count: map.count)
    }
    var known = glyphCharacters[Int(g)]
    if known.state == 0 {
      if map[Int(g)] != 0, let s = Unicode.Scalar(map[Int(g)]), CandidateText.isUsable(s) {
        known = GlyphCharacter(
          scalar: s, script: HarfBuzzUnicode.script(of: s),
          order: UInt8(CandidateText.rank(s).0), state: CandidateText.isMark(s) ? 3 : 2)
      } else {
        known.state = 1
      }
      glyphCharacters[Int(g)] = known
    }
    guard known.state >= 2 else { return nil }
    return (known.scalar, known.state == 3, (Int(known.order), known.scalar.value), known.script)
  }

  /// Words of a backtrack character, an input and a lookahead character.
  func contextWords(before: [UInt32], inputs: [Unicode.Scalar], after: [UInt32])
    -> [[Unicode.Scalar]]
  {
    func characters(_ glyphs: [UInt32]) -> [Unicode.Scalar] {
      var seen = Set<UInt32>()
      return glyphs.compactMap { g in
        guard let c = character(of: g), seen.insert(c.scalar.value).inserted else { return nil }
        return c.scalar
      }
    }
    let b = Array(characters(before).prefix(3))
    let a = Array(characters(after).prefix(3))
    guard !inputs.isEmpty, !(b.isEmpty && a.isEmpty) else { return [] }
    var words: [[Unicode.Scalar]] = []
    for (i, input) in inputs.enumerated() {
      let left = b.isEmpty ? [] : [b[i % b.count]]
      let right = a.isEmpty ? [] : [a[i % a.count]]
      words.append(left + [input] + right)
    }
    return words
  }

  // MARK: - The substitution closure

  /// The face's own characters a text may use, letters of its main script first: from the
  /// first 512 usable code points of its cmap, 128 kept. Made once per face.
  var characterPool: [(glyph: UInt32, scalar: Unicode.Scalar)] {
    if let characterPoolStorage { return characterPoolStorage }
    var pool: [(glyph: UInt32, scalar: Unicode.Scalar)] = []
    for v in face.unicodes {
      guard let s = Unicode.Scalar(v), CandidateText.isUsable(s), let g = font.glyph(for: v)
      else { continue }
      pool.append((g, s))
      if pool.count == 512 { break }
    }
    let ordered = Array(CandidateText.ordered(pool, by: \.scalar).prefix(128))
    characterPoolStorage = ordered
    return ordered
  }
  private var characterPoolStorage: [(glyph: UInt32, scalar: Unicode.Scalar)]?

  /// The GSUB lookups of the features HarfBuzz applies by default. Made once per face.
  private var defaultLookups: [UInt32] {
    if let defaultLookupsStorage { return defaultLookupsStorage }
    var lookups = Set<UInt32>()
    for feature in CandidateText.defaultFeatures {
      lookups.formUnion(face.lookups(.gsub, feature: HarfBuzzTag.make(feature)))
    }
    let sorted = lookups.sorted()
    defaultLookupsStorage = sorted
    return sorted
  }
  private var defaultLookupsStorage: [UInt32]?
  /// Closures of the pool's characters under `defaultLookups`: groups of 16 by first index,
  /// single characters by glyph. Filled as needed, kept for the face's other features.
  private var groupClosures: [Int: Set<UInt32>] = [:]
  private var glyphClosures: [UInt32: Set<UInt32>] = [:]

  /// Characters whose glyph the default features (`ccmp`, `locl`, `rlig`, `calt`, `liga`…)
  /// turn into one of `targets`, a glyph no character maps to: found with
  /// `hb_ot_layout_lookups_substitute_closure` over the character pool, 16 characters at a
  /// time, then one by one in a group that reaches a target; `limit` at most.
  func charactersReaching(_ targets: Set<UInt32>, limit: Int = 12) -> [Unicode.Scalar] {
    let lookups = defaultLookups
    guard !lookups.isEmpty else { return [] }
    let pool = characterPool
    var found: [Unicode.Scalar] = []
    for start in stride(from: 0, to: pool.count, by: 16) {
      let group = pool[start..<min(start + 16, pool.count)]
      let closure =
        groupClosures[start]
        ?? face.substituteClosure(lookups: lookups, glyphs: group.map(\.glyph))
      groupClosures[start] = closure
      guard !closure.isDisjoint(with: targets) else { continue }
      for member in group where !targets.contains(member.glyph) {
        let reach =
          glyphClosures[member.glyph]
          ?? face.substituteClosure(lookups: lookups, glyphs: [member.glyph])
        glyphClosures[member.glyph] = reach
        if !reach.isDisjoint(with: targets) {
          found.append(member.scalar)
          if found.count == limit { return found }
        }
      }
    }
    return found
  }
}
