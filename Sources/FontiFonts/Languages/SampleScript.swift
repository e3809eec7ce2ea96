import FontiModel
import FontiText

/// The script a sample text is written in, and whether a family can write it: the one rule that
/// decides between setting the user's text (the characters a family lacks drawn as boxes, and
/// reported) and showing the family's own script instead (`FallbackSample`). Specimens,
/// pairing sheets, catalogues, `serve`'s cards, `check` and `diff` all ask it.
package enum SampleScript {
  /// The script of `text`, as an ISO 15924 code ("Latn", "Hebr"): the script of `language`
  /// when one is given and known (a script subtag, `sr-Latn`, first), else the Unicode script
  /// of most of the text's letters, Common and Inherited ignored. A language whose script none
  /// of the text's letters are in is not the text's (the example job's `language: en` kept
  /// over a Greek text): the letters decide. nil for a text without letters (digits,
  /// punctuation, symbols).
  package static func of(_ text: String, language: String?) -> String? {
    let letters = letterScripts(text)
    if let language, let script = script(ofLanguage: language),
      letters.isEmpty || letters.contains(where: { HarfBuzzTag.string($0.script) == script })
    {
      return script
    }
    // Most letters; on a tie, the script met first.
    guard let most = letters.max(by: { $0.count < $1.count }) else { return nil }
    return HarfBuzzTag.string(most.script)
  }

  /// The scripts of `text`'s letters with how many letters each has, in the order first met;
  /// Common and Inherited left out.
  private static func letterScripts(_ text: String) -> [(script: UInt32, count: Int)] {
    var counts: [UInt32: Int] = [:]
    var order: [UInt32] = []
    for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
      let script = HarfBuzzUnicode.script(of: scalar)
      guard !HarfBuzzUnicode.isShared(script) else { continue }
      if counts[script] == nil { order.append(script) }
      counts[script, default: 0] += 1
    }
    return order.map { ($0, counts[$0] ?? 0) }
  }

  /// The script a BCP 47 tag names: its script subtag ("sr-Latn", "zh-Hant"), else the script
  /// of its language as fontconfig's orthographies write it (`sr` Cyrillic, `he` Hebrew,
  /// trying "zh-tw" before "zh"); nil when neither is known.
  static func script(ofLanguage tag: String) -> String? {
    let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    if let subtag = subtags.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }
    ) {
      return subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
    }
    let lower = tag.lowercased().replacingOccurrences(of: "_", with: "-")
    for code in [lower, subtags.first?.lowercased() ?? lower] {
      let script = Languages.script(of: code).code
      if script != "Zzzz" { return script }
    }
    return nil
  }

  /// Whether `family` can write `script`: one of its orthographies (fontconfig's languages)
  /// is written in it, or it has nine in ten of the script's basic letters (`basicLetters`).
  /// A font of Latin capitals only does not write Latin: it shows the text in capitals.
  package static func isWritten(_ script: String, by family: FontFamily) -> Bool {
    if family.languages.contains(where: { Languages.script(of: $0).code == script }) {
      return true
    }
    guard let letters = basicLetters[script] else { return false }
    let covered = letters.count { family.coverage.contains($0) }
    return covered * 10 >= letters.count * 9
  }

  /// The letters a font for a script has whatever else it lacks: the alphabet (both cases
  /// where there are two), an abjad's letters, an abugida's independent vowels and
  /// consonants, the kana, a few of the most common ideographs and Hangul syllables.
  static let basicLetters: [String: [Unicode.Scalar]] = {
    func letters(_ ranges: ClosedRange<UInt32>...) -> [Unicode.Scalar] {
      ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init).filter {
        $0.properties.isAlphabetic && $0.properties.generalCategory != .unassigned
      }
    }
    func listed(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
    return [
      "Latn": letters(0x41...0x5A, 0x61...0x7A),
      "Grek": letters(0x391...0x3A9, 0x3B1...0x3C9),
      "Cyrl": letters(0x410...0x44F),
      "Armn": letters(0x531...0x556, 0x561...0x586),
      "Hebr": letters(0x5D0...0x5EA),
      "Arab": letters(0x621...0x63A, 0x641...0x64A),
      "Syrc": letters(0x710...0x72C),
      "Thaa": letters(0x780...0x7A5),
      "Deva": letters(0x905...0x914, 0x915...0x939),
      "Beng": letters(0x985...0x994, 0x995...0x9B9),
      "Guru": letters(0xA05...0xA14, 0xA15...0xA39),
      "Gujr": letters(0xA85...0xA94, 0xA95...0xAB9),
      "Orya": letters(0xB05...0xB14, 0xB15...0xB39),
      "Taml": letters(0xB85...0xB94, 0xB95...0xBB9),
      "Telu": letters(0xC05...0xC14, 0xC15...0xC39),
      "Knda": letters(0xC85...0xC94, 0xC95...0xCB9),
      "Mlym": letters(0xD05...0xD14, 0xD15...0xD39),
      "Sinh": letters(0xD85...0xD96, 0xD9A...0xDC6),
      "Thai": letters(0xE01...0xE2E),
      "Laoo": letters(0xE81...0xEA3),
      "Tibt": letters(0xF40...0xF69),
      "Mymr": letters(0x1000...0x102A),
      "Geor": letters(0x10D0...0x10FA),
      "Ethi": letters(0x1200...0x1248),
      "Khmr": letters(0x1780...0x17A2),
      "Hira": letters(0x3041...0x3093),
      "Kana": letters(0x30A1...0x30F3),
      "Hani": listed("一二三四五六七八九十人大中日本国年月上下"),
      "Hang": listed("가나다라마바사아자차카타파하한국어"),
    ]
  }()
}

extension FallbackSample {
  /// Whether `coverage` has none of the characters of `text` that need a glyph (a text of
  /// spaces only has nothing to lack).
  package static func hasNone(of text: String, coverage: CharacterCoverage) -> Bool {
    var any = false
    for s in text.unicodeScalars where !CharacterCoverage.needsNoGlyph(s) {
      if coverage.contains(s) { return false }
      any = true
    }
    return any
  }

  /// Whether `family` shows its own script rather than `text`: it lacks some of the text's
  /// characters and does not write the text's script (`SampleScript`; `language` is the sample's, `defaults.language` or
  /// `--language`). For a text without letters, when it lacks a third of its characters. A
  /// family that writes the script always sets the text: the characters it lacks are drawn as
  /// boxes and reported (`missing-glyphs`), never hidden behind a stock sample.
  package static func showsOwnScript(_ text: String, language: String?, family: FontFamily)
    -> Bool
  {
    // A family that has every character sets the text, whatever its script's other letters.
    if family.coverage.missing(in: text).isEmpty { return false }
    guard let script = SampleScript.of(text, language: language) else {
      return lacksRealShare(of: text, coverage: family.coverage)
    }
    return !SampleScript.isWritten(script, by: family)
  }
}
