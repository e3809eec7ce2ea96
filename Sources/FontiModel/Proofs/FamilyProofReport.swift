/// A family's proof fields as manifest.json and `families --json` record them
/// (`docs/proofs.md`): `axes`, `instances`, `features`, `languages` and `codepoints`. Each is nil
/// when its proof is off, and then absent from the JSON (not empty).
///
/// `codepoints` (the regular face's cmap count) goes with the character-set proofs: present
/// when `languages` or `glyphs` is on.
public struct FamilyProofReport: Codable, Sendable, Hashable {
  public var axes: [FontProofs.Axis]?
  public var instances: [FontProofs.Instance]?
  public var features: [FontProofs.Feature]?
  public var languages: LanguageCoverage?
  public var codepoints: Int?
  /// What reading found worth a warning (a face that lacks characters the regular face has, a
  /// face that cannot be read), each naming the family. Not a manifest field of its own: the
  /// family's `warnings` take them.
  public var warnings: [String]
  /// Axes the font marks hidden: listed, but not on the specimen's variable line.
  public var hiddenAxes: [String] = []

  public init(
    axes: [FontProofs.Axis]? = nil, instances: [FontProofs.Instance]? = nil,
    features: [FontProofs.Feature]? = nil, languages: LanguageCoverage? = nil,
    codepoints: Int? = nil, warnings: [String] = []
  ) {
    self.axes = axes
    self.instances = instances
    self.features = features
    self.languages = languages
    self.codepoints = codepoints
    self.warnings = warnings
  }

  /// The keys of a run manifest's family entry that hold these proofs.
  static let manifestKeys: Set<String> = [
    "axes", "codepoints", "features", "instances", "languages",
  ]

  /// Whether `options` wants codepoints.
  package static func wantsCodepoints(_ options: ProofOptions) -> Bool {
    options.languages || options.glyphs
  }

  /// Only the fields `options` turns on.
  public func selecting(_ options: ProofOptions) -> FamilyProofReport {
    var out = self
    if !options.axes {
      out.axes = nil
      out.instances = nil
    }
    if !options.features { out.features = nil }
    if !options.languages { out.languages = nil }
    if !Self.wantsCodepoints(options) { out.codepoints = nil }
    return out
  }

  /// Whether every field `options` turns on is here.
  public func covers(_ options: ProofOptions) -> Bool {
    (!options.axes || (axes != nil && instances != nil))
      && (!options.features || features != nil)
      && (!options.languages || languages != nil)
      && (!Self.wantsCodepoints(options) || codepoints != nil)
  }

  /// The fields of `other` where this one has none.
  public func filling(from other: FamilyProofReport) -> FamilyProofReport {
    var out = self
    if out.axes == nil || out.instances == nil {
      out.axes = other.axes
      out.instances = other.instances
    }
    out.features = out.features ?? other.features
    out.languages = out.languages ?? other.languages
    out.codepoints = out.codepoints ?? other.codepoints
    return out
  }

  /// The axes, instances and features as `FontProofs`.
  public var proofs: FontProofs { FontProofs(axes: axes, instances: instances, features: features) }
}
