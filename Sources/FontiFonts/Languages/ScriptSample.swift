import FontiModel
import FontiText

/// What a specimen shows when the family cannot set the user's text: the text in capitals for
/// a font of capitals only (titling and initial fonts), a sample in its own script (Pango's
/// sample sentence for a language the font covers), or a grid of its own glyphs for symbol,
/// dingbat and emoji fonts.
public enum FallbackSample: Sendable, Hashable {
  case capitals(String)
  case language(code: String, name: String, text: String)
  case glyphGrid([String])

  /// The language the sample is written in, for shaping it with that language's forms
  /// (OpenType `locl`); nil for the user's text in capitals and for a glyph grid.
  package var language: String? {
    if case .language(let code, _, _) = self { return code }
    return nil
  }

  /// Share of the text's distinct characters a family may lack before the specimen adds its
  /// own-script sample.
  static let missingShareThreshold = 1.0 / 3.0

  /// Whether `coverage` lacks a real share of `text`'s characters.
  package static func lacksRealShare(of text: String, coverage: CharacterCoverage) -> Bool {
    let distinct = Set(text.unicodeScalars.filter { !CharacterCoverage.needsNoGlyph($0) })
    guard !distinct.isEmpty else { return false }
    let missing = distinct.filter { !coverage.contains($0) }.count
    return Double(missing) / Double(distinct.count) >= missingShareThreshold
  }

  /// The best sample for `family`: a language whose Pango sample the font covers, preferring
  /// samples in the family's own script (Latin for a Latin family, `isLatinFamily`; else a
  /// script other than Latin), else a glyph grid. Punctuation the font lacks is left out of a
  /// sample rather than drawn as a box: many script fonts leave the full stop and the comma to
  /// a Latin companion (Noto Sans Hebrew has neither), and their script is what the sample is
  /// for. A letter the font lacks rules the sample out; a sample the font covers whole is
  /// preferred to one that lost its punctuation.
  ///
  /// Before all that, a font of capitals only (Linux Libertine Initials: A to Z, no lower case)
  /// shows `text` itself in capitals when it has every letter of them: what it is made to set,
  /// rather than another script it happens to carry.
  package static func choose(for family: FontFamily, preferGrid: Bool, text: String? = nil)
    -> FallbackSample
  {
    if !preferGrid, let text, let capitals = capitals(of: text, coverage: family.coverage) {
      return .capitals(capitals)
    }
    if !preferGrid {
      let latinFamily = isLatinFamily(family.coverage)
      var best: (score: (Int, Int, Int, Int, Int, String), code: String, text: String)?
      for code in family.languages {
        guard let sample = pangoSampleString(for: code) else { continue }
        let missing = family.coverage.missing(in: sample)
        guard missing.allSatisfy(isPunctuation),
          let text = missing.isEmpty ? sample : without(missing, in: sample)
        else { continue }
        let latin = text.unicodeScalars.contains {
          ("a"..."z").contains($0) || ("A"..."Z").contains($0)
        }
        // The family's own script first (Latin for a Latin family, else any other), then
        // the language its name names (Urdu for Noto Nastaliq Urdu, Arabic for Noto Kufi
        // Arabic), whole samples, English for a Latin family, languages with a known name,
        // and by code for stability.
        let named = LanguageNames.name(code) != nil
        let score = (
          latin == latinFamily ? 0 : 1, namesLanguage(family.name, code) ? 0 : 1,
          missing.isEmpty ? 0 : 1, latinFamily && code == "en" ? 0 : 1, named ? 0 : 1, code
        )
        if best.map({ score < $0.score }) ?? true { best = (score, code, text) }
      }
      // Named once chosen: a name outside `LanguageNames`' table costs reading the ISO tables.
      if let best {
        return .language(code: best.code, name: LanguageNames.shown(best.code), text: best.text)
      }
    }
    return .glyphGrid(gridCharacters(family.coverage, limit: 40))
  }

  /// `text` in capitals, its punctuation the font lacks left out, when the font is one of
  /// capitals only (every capital A to Z, not half the lower case) and has every letter of it;
  /// nil otherwise.
  static func capitals(of text: String, coverage: CharacterCoverage) -> String? {
    guard coverage.missing(in: "ABCDEFGHIJKLMNOPQRSTUVWXYZ").isEmpty,
      coverage.missing(in: "abcdefghijklmnopqrstuvwxyz").count >= 13
    else { return nil }
    let upper = text.uppercased()
    guard upper != text else { return nil }
    let missing = coverage.missing(in: upper)
    guard missing.allSatisfy(isPunctuation) else { return nil }
    return missing.isEmpty ? upper : without(missing, in: upper)
  }

  /// Whether `family`'s name has the English name of language `code` as a word of its own.
  static func namesLanguage(_ family: String, _ code: String) -> Bool {
    guard let name = LanguageNames.name(code)?.lowercased() else { return false }
    let words = family.lowercased().split(whereSeparator: { !$0.isLetter })
    return words.contains { $0 == name }
  }

  /// Whether a family is drawn for Latin first: it has every letter of Latin-1 (À to ÿ). A
  /// font for another script that carries ASCII for numbers and names does not; a Latin font
  /// with Greek or Cyrillic beside it does, and its sample is then Latin (English), not Greek.
  static func isLatinFamily(_ coverage: CharacterCoverage) -> Bool {
    coverage.missing(in: latin1Letters).isEmpty
  }

  /// The letters of Latin-1 Supplement: U+00C0–U+00FF without × and ÷.
  static let latin1Letters = String(
    String.UnicodeScalarView(
      (0xC0...0xFF).filter { $0 != 0xD7 && $0 != 0xF7 }.compactMap(Unicode.Scalar.init)))

  static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
      .initialPunctuation, .finalPunctuation, .otherPunctuation:
      return true
    default:
      return false
    }
  }

  /// `text` without `dropped`, the spaces they leave closed up ("כך." → "כך", "a , b" →
  /// "a b"); nil when nothing drawable is left.
  static func without(_ dropped: [Unicode.Scalar], in text: String) -> String? {
    let gone = Set(dropped)
    var out = String.UnicodeScalarView()
    for s in text.unicodeScalars where !gone.contains(s) {
      if s == " ", out.last == " " || out.isEmpty { continue }
      out.append(s)
    }
    while out.last == " " { out.removeLast() }
    let result = String(out)
    return result.unicodeScalars.contains(where: drawable) ? result : nil
  }

  /// Up to `limit` drawable characters the font covers, skipping ASCII when the font has
  /// enough beyond it (an emoji font's digits are not what it is for), in code point order —
  /// but for a font made for letters of a script other than Latin, Greek and Cyrillic (from
  /// U+0530 on: at least `limit / 2` of them, and a quarter of what it covers beyond ASCII),
  /// those letters first: a font for Adlam, Yi or Elbasan that also carries punctuation, CJK
  /// brackets or Greek shows its own letters before those. A symbol font, with a few
  /// letter-like signs among thousands of others, keeps code point order. An emoji font (at
  /// least half of what it covers beyond ASCII drawn as emoji by default) shows its emoji
  /// (`pictographGrid`), not the ©, ® and arrows that come first in code point order.
  static func gridCharacters(_ coverage: CharacterCoverage, limit: Int) -> [String] {
    var ascii: [Unicode.Scalar] = []
    var letters: [Unicode.Scalar] = []
    var pictographs: [Unicode.Scalar] = []
    var beyond: [Unicode.Scalar] = []
    for (index, page) in coverage.pageNumbers.enumerated() {
      let bits = coverage.page(at: index)
      for (word, wordBits) in bits.enumerated() where wordBits != 0 {
        for bit in 0..<32 where wordBits & (1 << UInt32(bit)) != 0 {
          let value = page << 8 | UInt32(word * 32 + bit)
          guard let scalar = Unicode.Scalar(value), drawable(scalar) || value == 0xAD else {
            continue
          }
          if value < 0x80 {
            ascii.append(scalar)
          } else {
            beyond.append(scalar)
            if value >= 0x530, scalar.properties.isAlphabetic { letters.append(scalar) }
            // The first emoji by default is U+231A: no property lookups below it.
            if value >= 0x231A, isPictograph(scalar) { pictographs.append(scalar) }
          }
        }
      }
    }
    let shown: [Unicode.Scalar]
    if pictographs.count >= limit, pictographs.count * 2 >= beyond.count {
      shown = pictographGrid(pictographs, limit: limit)
    } else if letters.count >= limit / 2, letters.count * 4 >= beyond.count {
      let first = Set(letters)
      shown = letters + beyond.lazy.filter { !first.contains($0) }.prefix(limit)
    } else {
      shown = beyond.count >= limit / 2 ? beyond : ascii + beyond
    }
    return shown.prefix(limit).map(String.init)
  }

  /// The first `count` of a grid's `glyphs` as a line of text (a waterfall's, a heading's):
  /// spaced, but for emoji, which stand side by side as they are typed (an emoji font's space
  /// is as wide as an emoji, and left gaps wider than the glyphs at every size).
  package static func row(_ glyphs: [String], count: Int) -> String {
    // A soft hyphen (a dingbat font's ②) is drawn only in grids: in a line, Pango hides it.
    let shown = glyphs.filter { $0 != "\u{00AD}" }.prefix(count)
    let pictographic = shown.allSatisfy { $0.unicodeScalars.allSatisfy(isPictograph) }
    return shown.joined(separator: pictographic ? "" : " ")
  }

  /// An emoji by default (Unicode's Emoji_Presentation), but for the regional indicators and
  /// skin-tone modifiers, which only make sense joined to others.
  static func isPictograph(_ s: Unicode.Scalar) -> Bool {
    s.properties.isEmojiPresentation && !s.properties.isEmojiModifier
      && !(0x1F1E6...0x1F1FF).contains(s.value)
  }

  /// `limit` of an emoji font's `pictographs` (in code point order): a row of smiling faces
  /// (the first of the Emoticons block) first, then the rest taken evenly across the font's
  /// range, so that the grid shows weather, animals, food, transport and objects rather than
  /// its first forty.
  static func pictographGrid(_ pictographs: [Unicode.Scalar], limit: Int) -> [Unicode.Scalar] {
    func spread(_ from: [Unicode.Scalar], _ count: Int) -> [Unicode.Scalar] {
      guard count > 0, !from.isEmpty else { return [] }
      let n = min(count, from.count)
      return (0..<n).map { from[$0 * from.count / n] }
    }
    let faces = pictographs.filter { (0x1F600...0x1F60F).contains($0.value) }
    let row = spread(faces, min(8, limit / 5))
    let chosen = Set(row)
    return row + spread(pictographs.filter { !chosen.contains($0) }, limit - row.count)
  }

  static func drawable(_ s: Unicode.Scalar) -> Bool {
    if CharacterCoverage.needsNoGlyph(s) { return false }
    switch s.properties.generalCategory {
    case .control, .format, .surrogate, .unassigned, .nonspacingMark, .enclosingMark,
      .spacingMark, .lineSeparator, .paragraphSeparator, .spaceSeparator:
      return false
    default:
      return true
    }
  }
}

/// English names of the languages whose samples a specimen may show.
enum LanguageNames {
  /// The name a sample's heading gives `code`: this table's, else the ISO 639 name with its
  /// territory ("Mongolian (China)" for `mn-cn`), else the code.
  static func shown(_ code: String) -> String {
    name(code) ?? Languages.name(of: code)
  }

  /// The languages whose samples are preferred when a family has several: the common ones.
  static func name(_ code: String) -> String? { table[code] }

  /// Made once: a family is scored against each of its languages, a hundred for some.
  private static let table: [String: String] = [
    "ar": "Arabic", "am": "Amharic", "as": "Assamese", "bn": "Bengali", "bo": "Tibetan",
    "chr": "Cherokee", "dv": "Dhivehi", "el": "Greek", "fa": "Persian", "gu": "Gujarati",
    "he": "Hebrew", "hi": "Hindi", "hy": "Armenian", "ja": "Japanese", "ka": "Georgian",
    "km": "Khmer", "kn": "Kannada", "ko": "Korean", "lo": "Lao", "ml": "Malayalam",
    "mn-mn": "Mongolian", "mr": "Marathi", "my": "Burmese", "ne": "Nepali", "or": "Odia",
    "pa": "Punjabi", "ru": "Russian", "si": "Sinhala", "syr": "Syriac", "ta": "Tamil",
    "te": "Telugu", "th": "Thai", "ti-er": "Tigrinya", "ur": "Urdu", "yi": "Yiddish",
    "zh-cn": "Chinese (Simplified)", "zh-tw": "Chinese (Traditional)", "uk": "Ukrainian",
    "sa": "Sanskrit", "iu": "Inuktitut", "ii": "Yi", "en": "English", "vi": "Vietnamese",
  ]
}
