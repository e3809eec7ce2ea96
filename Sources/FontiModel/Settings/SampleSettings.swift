/// What a job asks of its sample text beyond the family and size (`defaults.language`,
/// `defaults.variations`, `defaults.features`; `render --language/--variations/--features`):
/// applied to the sample, the extra texts and the waterfall, never to labels, names, captions
/// or notes. Plain data; an output that draws with settings records them among its inputs.
public struct SampleSettings: Sendable, Hashable, Codable {
  /// A BCP 47 tag (`sr`, `vi`, `zh-TW`) for the forms a font reserves for a language (`locl`);
  /// nil: the text is shaped as English, as without settings.
  public var language: String?
  /// Coordinates on the family's axes (`wght=650`); axes a family lacks are ignored by it.
  public var variations: [VariationSetting]
  /// OpenType features turned on or off (`smcp`, `-liga`, `cv01=2`).
  public var features: [FeatureSetting]

  public init(
    language: String? = nil, variations: [VariationSetting] = [], features: [FeatureSetting] = []
  ) {
    self.language = language
    self.variations = variations
    self.features = features
  }

  /// No settings: text drawn as it always was.
  public static let none = SampleSettings()

  public var isEmpty: Bool { language == nil && variations.isEmpty && features.isEmpty }
}

/// Which proofs a job asks for (`proofs:`): what is read from each family (manifest fields) and
/// which proof pages a catalogue shows after each family's page. The defaults (`docs/job-file.md`):
/// axes, features and languages on; the glyph chart off.
public struct ProofOptions: Sendable, Hashable, Codable {
  /// Variable axes swept, named instances (variable families only).
  public var axes: Bool
  /// OpenType features, each off and on.
  public var features: Bool
  /// Supported and nearly-supported languages.
  public var languages: Bool
  /// Every encoded character by Unicode block.
  public var glyphs: Bool

  public init(
    axes: Bool = true, features: Bool = true, languages: Bool = true, glyphs: Bool = false
  ) {
    self.axes = axes
    self.features = features
    self.languages = languages
    self.glyphs = glyphs
  }

  /// The defaults `docs/job-file.md` gives.
  public static let standard = ProofOptions()
  /// Every proof off.
  public static let none = ProofOptions(axes: false, features: false, languages: false)

  /// Nothing asked for.
  public var isEmpty: Bool { !(axes || features || languages || glyphs) }
}
