/// Built-in texts for features that need context to act (a fraction needs its slash, an
/// ordinal its figure, kerning a pair) or whose usual sample reads better than letters picked
/// from the font's lookups. Tried first, in order; a text is tried only when the face maps
/// every one of its characters. Braces mark the part of a text a feature is meant for (the
/// "2" of `H{2}O`): the feature is turned on there only, the rest is its context
/// (`Candidate(marked:)`). Lookups supply the rest.
enum BuiltInSamples {
  static let byTag: [String: [String]] = [
    "afrc": ["1/2 3/4"],
    "c2pc": ["ABC", "HOUSE"],
    "c2sc": ["ABC", "HOUSE"],
    "calt": ["H-O 12:30", "x->y", "a:b"],
    "case": ["(H-O)", "[H]", "H:O", "¿H?"],
    "ccmp": ["i\u{308} j\u{301}"],
    "clig": ["fi fl ffi"],
    "cpsp": ["HAMBURG", "CAPITALS"],
    "dlig": ["ct st sp", "Th", "ck"],
    "dnom": ["1\u{2044}{4} 3\u{2044}{8}", "1/{4} 3/{8}", "1234"],
    "frac": ["1/2 3/4", "1/2"],
    "hlig": ["ct st", "sb sk"],
    "kern": ["AV To Ty", "AVAWAY", "LT Yo", "Wa"],
    "liga": ["fi fl ffi", "fi", "fl", "ff"],
    "lnum": ["0123456789"],
    "numr": ["{1}\u{2044}4 {3}\u{2044}8", "{1}/4 {3}/8", "1234"],
    "onum": ["0123456789"],
    "ordn": ["1{a} 2{o}", "{No}. 1", "1{st}"],
    "pcap": ["Petite Caps", "abc"],
    "pnum": ["1111 0123456789", "0123456789"],
    "sinf": ["H{2}O CO{2}", "H{2}O"],
    "smcp": ["Small Caps", "abc"],
    "subs": ["H{2}O", "x{1}"],
    "sups": ["x{2} y{3}", "1{st} 2{nd}"],
    "tnum": ["1111 0123456789", "0123456789"],
    "titl": ["TITLING", "ABC"],
    "unic": ["Unicase", "aBc"],
    "zero": ["0", "10 000"],
  ]

  /// Texts for `locl` by language (the primary subtag of the BCP 47 tag HarfBuzz gives for
  /// the font's language system), shaped in that language.
  static let locl: [String: [String]] = [
    "az": ["fi ı i", "İi"],
    "bg": ["джзийклптцшщю", "джзий"],
    "ca": ["l·l L·L", "l·l"],
    "crh": ["fi ı i"],
    "de": ["ẞ ß"],
    "kk": ["fi i"],
    "mk": ["бгдпт", "бг"],
    "mo": ["şţ ŞŢ", "şţ"],
    "nl": ["ij IJ íj́"],
    "pl": ["ćńóśź", "ó"],
    "ro": ["şţ ŞŢ", "şţ"],
    "sr": ["бгдпт", "бг"],
    "tr": ["fi ı i", "fi"],
    "tt": ["fi i"],
  ]
}
