/// Names of OpenType feature tags as a reader sees them.
public enum FeatureNames {
  /// The name to show for `tag`: the font's own UI name when it gives one (`ssNN`, `cvNN`),
  /// else the registered name ("Small Capitals", "Stylistic Set 3", "Character Variant 12"),
  /// else a plain label for an unregistered (private) tag, which is shown beside its tag.
  public static func name(for tag: String, fontLabel: String? = nil) -> String {
    if let fontLabel, let clean = ProofText.clean(fontLabel), !clean.isEmpty { return clean }
    return registeredName(tag) ?? "Unregistered feature"
  }

  /// The OpenType feature registry's friendly name for `tag`, nil when it is not registered.
  public static func registeredName(_ tag: String) -> String? {
    if let name = registry[tag] { return name }
    let bytes = Array(tag.utf8)
    guard bytes.count == 4, let number = Int(String(decoding: bytes[2...], as: UTF8.self)),
      bytes[2...].allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    switch String(decoding: bytes[..<2], as: UTF8.self) {
    case "ss" where (1...20).contains(number): return "Stylistic Set \(number)"
    case "cv" where (1...99).contains(number): return "Character Variant \(number)"
    default: return nil
    }
  }

  /// The registered feature tags (OpenType 1.9 feature registry), `ssNN` and `cvNN` aside.
  static let registry: [String: String] = [
    "aalt": "Access All Alternates",
    "abvf": "Above-base Forms",
    "abvm": "Above-base Mark Positioning",
    "abvs": "Above-base Substitutions",
    "afrc": "Alternative Fractions",
    "akhn": "Akhand",
    "apkn": "Kerning for Alternate Proportional Widths",
    "blwf": "Below-base Forms",
    "blwm": "Below-base Mark Positioning",
    "blws": "Below-base Substitutions",
    "c2pc": "Petite Capitals From Capitals",
    "c2sc": "Small Capitals From Capitals",
    "calt": "Contextual Alternates",
    "case": "Case-Sensitive Forms",
    "ccmp": "Glyph Composition / Decomposition",
    "cfar": "Conjunct Form After Ro",
    "chws": "Contextual Half-width Spacing",
    "cjct": "Conjunct Forms",
    "clig": "Contextual Ligatures",
    "cpct": "Centered CJK Punctuation",
    "cpsp": "Capital Spacing",
    "cswh": "Contextual Swash",
    "curs": "Cursive Positioning",
    "dist": "Distances",
    "dlig": "Discretionary Ligatures",
    "dnom": "Denominators",
    "dtls": "Dotless Forms",
    "expt": "Expert Forms",
    "falt": "Final Glyph on Line Alternates",
    "fin2": "Terminal Forms #2",
    "fin3": "Terminal Forms #3",
    "fina": "Terminal Forms",
    "flac": "Flattened Accent Forms",
    "frac": "Fractions",
    "fwid": "Full Widths",
    "half": "Half Forms",
    "haln": "Halant Forms",
    "halt": "Alternate Half Widths",
    "hist": "Historical Forms",
    "hkna": "Horizontal Kana Alternates",
    "hlig": "Historical Ligatures",
    "hngl": "Hangul",
    "hojo": "Hojo Kanji Forms (JIS X 0212-1990 Kanji Forms)",
    "hwid": "Half Widths",
    "init": "Initial Forms",
    "isol": "Isolated Forms",
    "ital": "Italics",
    "jalt": "Justification Alternates",
    "jp04": "JIS2004 Forms",
    "jp78": "JIS78 Forms",
    "jp83": "JIS83 Forms",
    "jp90": "JIS90 Forms",
    "kern": "Kerning",
    "lfbd": "Left Bounds",
    "liga": "Standard Ligatures",
    "ljmo": "Leading Jamo Forms",
    "lnum": "Lining Figures",
    "locl": "Localized Forms",
    "ltra": "Left-to-right Alternates",
    "ltrm": "Left-to-right Mirrored Forms",
    "mark": "Mark Positioning",
    "med2": "Medial Forms #2",
    "medi": "Medial Forms",
    "mgrk": "Mathematical Greek",
    "mkmk": "Mark to Mark Positioning",
    "mset": "Mark Positioning via Substitution",
    "nalt": "Alternate Annotation Forms",
    "nlck": "NLC Kanji Forms",
    "nukt": "Nukta Forms",
    "numr": "Numerators",
    "onum": "Oldstyle Figures",
    "opbd": "Optical Bounds",
    "ordn": "Ordinals",
    "ornm": "Ornaments",
    "palt": "Proportional Alternate Widths",
    "pcap": "Petite Capitals",
    "pkna": "Proportional Kana",
    "pnum": "Proportional Figures",
    "pref": "Pre-base Forms",
    "pres": "Pre-base Substitutions",
    "pstf": "Post-base Forms",
    "psts": "Post-base Substitutions",
    "pwid": "Proportional Widths",
    "qwid": "Quarter Widths",
    "rand": "Randomize",
    "rclt": "Required Contextual Alternates",
    "rkrf": "Rakar Forms",
    "rlig": "Required Ligatures",
    "rphf": "Reph Form",
    "rtbd": "Right Bounds",
    "rtla": "Right-to-left Alternates",
    "rtlm": "Right-to-left Mirrored Forms",
    "ruby": "Ruby Notation Forms",
    "rvrn": "Required Variation Alternates",
    "salt": "Stylistic Alternates",
    "sinf": "Scientific Inferiors",
    "size": "Optical Size",
    "smcp": "Small Capitals",
    "smpl": "Simplified Forms",
    "ssty": "Math Script Style Alternates",
    "stch": "Stretching Glyph Decomposition",
    "subs": "Subscript",
    "sups": "Superscript",
    "swsh": "Swash",
    "titl": "Titling",
    "tjmo": "Trailing Jamo Forms",
    "tnam": "Traditional Name Forms",
    "tnum": "Tabular Figures",
    "trad": "Traditional Forms",
    "twid": "Third Widths",
    "unic": "Unicase",
    "valt": "Alternate Vertical Metrics",
    "vapk": "Kerning for Alternate Proportional Vertical Metrics",
    "vatu": "Vattu Variants",
    "vchw": "Vertical Contextual Half-width Spacing",
    "vert": "Vertical Alternates",
    "vhal": "Alternate Vertical Half Metrics",
    "vjmo": "Vowel Jamo Forms",
    "vkna": "Vertical Kana Alternates",
    "vkrn": "Vertical Kerning",
    "vpal": "Proportional Alternate Vertical Metrics",
    "vrt2": "Vertical Alternates and Rotation",
    "vrtr": "Vertical Alternates for Rotation",
    "zero": "Slashed Zero",
  ]
}

/// Text read from a font (axis, instance and feature names) made safe to show and to store.
public enum ProofText {
  /// The longest name kept, in characters; longer ones end in "…".
  public static let maximumLength = 64

  /// Control characters, bidi controls and line breaks become spaces, runs of white space
  /// one space, the ends trimmed, and the length capped. nil when nothing is left.
  public static func clean(_ text: String) -> String? {
    var out = String.UnicodeScalarView()
    var lastWasSpace = true
    var count = 0
    for scalar in text.unicodeScalars {
      let isSpace: Bool
      switch scalar.value {
      case 0x00...0x20, 0x7F...0xA0, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F,
        0xFEFF, 0xFFF9...0xFFFD:
        isSpace = true
      default:
        isSpace = scalar.properties.isWhitespace
      }
      if isSpace {
        if !lastWasSpace {
          out.append(" ")
          count += 1
        }
        lastWasSpace = true
      } else {
        out.append(scalar)
        count += 1
        lastWasSpace = false
      }
      if count > maximumLength { break }
    }
    var result = String(out)
    while result.last == " " { result.removeLast() }
    if result.isEmpty { return nil }
    if result.count > maximumLength {
      result = String(result.prefix(maximumLength - 1))
      while result.last == " " { result.removeLast() }
      result += "…"
    }
    return result
  }
}
