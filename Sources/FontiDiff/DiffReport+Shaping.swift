extension DiffReport {
  /// What shaping does differently in one face (diff.json `shaping`, one entry per face that
  /// differs): kerning pairs, features, scripts and language systems, mark attachment, and the
  /// shaping tables whose bytes differ.
  public struct FaceShaping: Codable, Sendable, Hashable {
    public var face: String
    public var kerning = KerningChanges()
    public var features = ShapingFeatures()
    public var marks: [MarkChange] = []
    /// The layout rules that differ (GSUB, GPOS and GDEF compared as rules); absent when none.
    public var rules: [RuleChange]?
    public var tables = ShapingTables()

    public init(face: String) { self.face = face }

    public var isEmpty: Bool {
      kerning.count == 0 && features.isEmpty && marks.isEmpty && tables.changed.isEmpty
        && (rules ?? []).isEmpty
    }

    /// Whether anything is seen to shape differently (tables apart).
    var shapesDifferently: Bool {
      kerning.count > 0 || !features.changed.isEmpty || !marks.isEmpty
    }
  }

  /// Kerning pairs whose positioning differs, largest change first.
  public struct KerningChanges: Codable, Sendable, Hashable {
    /// Pairs of characters that kern differently (each listed pair counts the pairs of
    /// characters its classes stand for).
    public var count = 0
    /// At most `KerningComparer.pairsListed` of them, the largest change first.
    public var pairs: [KerningPair] = []
  }

  /// One pair of characters shaped in both versions: the sum of its glyphs' adjustments to
  /// their advances (its kerning), `[before, after]`, in each face's units.
  public struct KerningPair: Codable, Sendable, Hashable {
    /// The two characters, as text.
    public var pair: String
    public var codepoints: [String]
    public var instance: String?
    public var kerning: [Int]
    /// How many pairs of characters kern as this one does (the font's kerning classes: the
    /// characters of the first's class times those of the second's); 1 for a glyph pair.
    public var classPairs: Int
  }

  /// Layout features, scripts and language systems added or removed in one face, and the
  /// features whose effect on a text differs.
  public struct ShapingFeatures: Codable, Sendable, Hashable {
    public var added: [String] = []
    public var removed: [String] = []
    /// Script tags (`latn`, `deva`) of GSUB and GPOS.
    public var scripts = AddedRemoved<String>()
    /// `script/LANG` (`latn/TRK`), a script's default system as `script/dflt`.
    public var languageSystems = AddedRemoved<String>()
    public var changed: [FeatureEffect] = []

    public var isEmpty: Bool {
      added.isEmpty && removed.isEmpty && scripts.isEmpty && languageSystems.isEmpty
        && changed.isEmpty
    }
  }

  /// A text that a feature, turned on in both versions, shapes differently.
  public struct FeatureEffect: Codable, Sendable, Hashable {
    public var tag: String
    public var instance: String?
    public var text: String
    /// The glyphs each version sets the text with (names, or `#ID` where a font has none).
    public var before: [String]
    public var after: [String]
    /// Whether the glyphs are the same and only their positions differ.
    public var positionsOnly: Bool
  }

  /// A mark on a base (or on another mark) placed elsewhere: where the last mark sits from the
  /// base's origin, `[x, y]`.
  public struct MarkChange: Codable, Sendable, Hashable {
    public var text: String
    public var codepoints: [String]
    public var instance: String?
    public var before: [Int]
    public var after: [Int]
  }

  /// A layout rule one version has and the other has not, or has otherwise, named as that rule,
  /// and the text built from it shaped by both versions.
  public struct RuleChange: Codable, Sendable, Hashable {
    /// GSUB, GPOS or GDEF.
    public var table: String
    /// The feature whose lookups hold the rule; empty for a GDEF class.
    public var feature: String
    public var instance: String?
    /// The rule in words: "calt: chain rule after V A: hyphen → hyphen.cap no longer applies".
    public var rule: String
    /// The text built from the rule's glyphs (through the cmap and the default features'
    /// substitutions); absent when the font's characters cannot make it.
    public var text: String?
    /// The glyphs each version sets `text` with, the rule's feature on.
    public var before: [String]?
    public var after: [String]?
    /// `substitution` (other glyphs), `positions` (the same glyphs placed otherwise), `alike`
    /// (the text shapes the same: the rule's change does not show on it), `noText` (none could
    /// be made), `counted` (a rule left out of the list, counted in its words).
    public var shapes: String
  }
}

extension DiffReport.RuleChange {
  /// The change's kind: what the rule's text shows (`shaping.feature`, `kerning`, `mark`), or
  /// `layout.rule` for a rule whose change no text shows.
  var kind: String {
    guard shapes == "substitution" || shapes == "positions" else { return "layout.rule" }
    if table == "GPOS" && ShapingComparer.markFeatures.contains(feature) { return "mark" }
    if table == "GPOS" && feature == "kern" { return "kerning" }
    return "shaping.feature"
  }

  /// The rule and what its text shows, in words: "liga: f f i → f_f_i added: “ffi” f f i →
  /// f_f_i".
  var words: String {
    switch shapes {
    case "noText": return "\(rule) (its text cannot be made from the font's characters)"
    case "counted": return rule
    case "alike": return "\(rule) (“\(text ?? "")” shapes alike)"
    default:
      let b = (before ?? []).joined(separator: " ")
      let a = (after ?? []).joined(separator: " ")
      return shapes == "positions"
        ? "\(rule): “\(text ?? "")” \(b) placed differently"
        : "\(rule): “\(text ?? "")” \(b) → \(a)"
    }
  }
}

extension DiffReport {
  /// The shaping tables (GSUB, GPOS, GDEF, kern) whose bytes differ, and those of them in which
  /// no tried pair or text shapes differently.
  public struct ShapingTables: Codable, Sendable, Hashable {
    public var changed: [String] = []
    public var unexplained: [String] = []
  }
}
