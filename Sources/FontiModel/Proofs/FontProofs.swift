/// What a family can do, in exactly the shape manifest.json and `families --json` record
/// (`docs/proofs.md`): `axes`, `instances`, `features`.
///
/// A proof the job turns off leaves its fields out (absent, not empty): the fields are
/// optional, `nil` encodes as absent, and `selecting(axes:features:)` drops what is off. A
/// static font has `axes: []` and `instances: []`. To put these fields into a larger manifest
/// entry, call `encode(to:)` with that entry's encoder: the keys join the entry's own.
public struct FontProofs: Codable, Sendable, Hashable {
  /// Every variation axis of the regular face, in `fvar` order.
  public var axes: [Axis]?
  /// Every named instance of the regular face, in `fvar` order.
  public var instances: [Instance]?
  /// Every GSUB and GPOS feature of any face of the family, once each, sorted by tag.
  public var features: [Feature]?

  public init(axes: [Axis]? = [], instances: [Instance]? = [], features: [Feature]? = []) {
    self.axes = axes
    self.instances = instances
    self.features = features
  }

  /// A variation axis: `{ "tag": "wght", "name": "Weight", "min": 100, "default": 400,
  /// "max": 900 }`, values in the axis's user units.
  public struct Axis: Codable, Sendable, Hashable {
    public var tag: String
    public var name: String
    public var min: Double
    public var defaultValue: Double
    public var max: Double

    public init(tag: String, name: String, min: Double, defaultValue: Double, max: Double) {
      self.tag = tag
      self.name = name
      self.min = min
      self.defaultValue = defaultValue
      self.max = max
    }

    enum CodingKeys: String, CodingKey {
      case tag, name, min, max
      case defaultValue = "default"
    }

    /// `wght 100–900`.
    public var range: String {
      "\(tag) \(ProofNumber.format(min))–\(ProofNumber.format(max))"
    }

    /// Steps of an axis sweep, min and max included (the default is added between them): what
    /// catalogues draw and proofs read.
    public static let sweepSteps = 5

    /// The values a sweep draws: `count` evenly spaced from min to max, and the default
    /// among them (added when it falls between two steps), ascending. One value for an axis
    /// whose min equals its max.
    public func sweep(steps count: Int = sweepSteps) -> [Double] {
      let n = Swift.max(2, count)
      guard max > min else { return [defaultValue] }
      var values = (0..<n).map { min + (max - min) * Double($0) / Double(n - 1) }
      values[n - 1] = max
      if !values.contains(defaultValue) { values.append(defaultValue) }
      return values.sorted()
    }
  }

  /// A named instance: `{ "name": "Bold", "coordinates": { "wght": 700 } }`.
  public struct Instance: Codable, Sendable, Hashable {
    public var name: String
    public var coordinates: [String: Double]

    public init(name: String, coordinates: [String: Double]) {
      self.name = name
      self.coordinates = coordinates
    }
  }

  /// A layout feature: `{ "tag": "smcp", "name": "Small Capitals", "tables": ["GSUB"],
  /// "visible": true }`. `visible` is true only when shaping a sample with the feature on
  /// changes the glyphs or their positions; false means no visible effect on the tried text.
  public struct Feature: Codable, Sendable, Hashable {
    public var tag: String
    public var name: String
    /// `GSUB`, `GPOS` or both, in that order.
    public var tables: [String]
    public var visible: Bool
    /// Why a feature with no visible effect shows none, when its rules say (nil: visible, or
    /// no reason found). Optional in `manifest.json` (`"noEffect"`), so older manifests read.
    public var noEffect: NoEffect?

    public init(
      tag: String, name: String, tables: [String], visible: Bool, noEffect: NoEffect? = nil
    ) {
      self.tag = tag
      self.name = name
      self.tables = tables
      self.visible = visible
      self.noEffect = noEffect
    }
  }

  /// Why a feature has no visible effect, read from its own rules (GSUB, GPOS) after no text
  /// built from them shaped differently with the feature on.
  public enum NoEffect: String, Codable, Sendable, Hashable, CaseIterable {
    /// Every substitution its characters reach gives a glyph that draws as the one it
    /// replaces (same outline and advance): `zero` whose slashed zero is the default one.
    case drawsAlike
    /// It acts only on glyphs that only other features (off by default) make: the default
    /// glyphs already have its form, as `tnum` in a font whose figures are tabular.
    case alreadyDefault
    /// The glyphs its rules take, or their context, cannot be made from the font's
    /// characters, one for each glyph (through the cmap and the default features): no
    /// character maps to them, or the default features make them only from clusters.
    case contextUnreachable
    /// Its lookups hold no rule (or none for a script the face has).
    case noRules
    /// Its lookups cannot be read (a damaged table).
    case unreadable
    /// Every glyph its substitutions give, a feature on by default gives too: turned off, the
    /// other one makes the same glyphs (the Tifinagh fonts' `liga` and their `ccmp`).
    case madeByDefaultFeature
    /// Texts built from its rules shape alike with it on and off: another feature acts on
    /// those glyphs first, or the shaper leaves them out (vertical, math or private forms).
    case actsElsewhere
    /// It acts in vertical text only (`vert`, `vrt2`): the proofs set text horizontally.
    case verticalOnly
    /// Not tried: the family lists more features than are sampled.
    case untried

    /// A few words for the catalogue's "no visible effect" line, for feature `tag`.
    public func phrase(tag: String) -> String {
      let figures = [
        "tnum": "tabular", "pnum": "proportional", "lnum": "lining", "onum": "oldstyle",
      ]
      switch self {
      case .drawsAlike, .alreadyDefault:
        if let form = figures[tag] { return "figures already \(form)" }
        return self == .drawsAlike
          ? "its substitutes draw like the glyphs they replace"
          : "acts only on glyphs other features make"
      case .contextUnreachable: return "its context cannot be made from its characters"
      case .noRules: return "its lookups hold no rules"
      case .unreadable: return "its lookups cannot be read"
      case .madeByDefaultFeature: return "a feature on by default makes the same glyphs"
      case .actsElsewhere: return "texts made from its rules shape alike (another feature acts)"
      case .verticalOnly: return "acts in vertical text only"
      case .untried: return "not tried"
      }
    }
  }

  /// A variable family: the regular face has at least one axis.
  public var isVariable: Bool { !(axes ?? []).isEmpty }

  /// The specimen's quiet line for a variable family, `VARIABLE · wght 100–900 · wdth 75–100`
  /// (hidden axes left out); nil for a static one or when axes are not read.
  public func variationSummary(hiding hidden: Set<String> = []) -> String? {
    let shown = (axes ?? []).filter { !hidden.contains($0.tag) }
    guard !shown.isEmpty else { return nil }
    return (["VARIABLE"] + shown.map(\.range)).joined(separator: " · ")
  }

  /// Only the proofs a job turns on: `axes` covers axes and instances.
  public func selecting(axes: Bool, features: Bool) -> FontProofs {
    var out = self
    if !axes {
      out.axes = nil
      out.instances = nil
    }
    if !features { out.features = nil }
    return out
  }
}

/// Everything read about one family: the manifest part and what a catalogue needs to draw it.
public struct FamilyProofs: Codable, Sendable, Equatable {
  /// The manifest fields (all present; narrow them with `FontProofs.selecting`).
  public var proofs: FontProofs
  /// How to show each visible feature, in tag order. Not part of the manifest.
  public var samples: [FeatureSample]
  /// The texts tried for each feature with no visible effect, so that a reader (or a test)
  /// can see what "no visible effect on the tried text" covered. Not part of the manifest.
  public var tried: [FeatureTrial]
  /// Axes the font marks hidden (`fvar` flag): listed in the manifest, not swept.
  public var hiddenAxes: [String]
  /// Faces that could not be read (the family's other faces still are).
  public var warnings: [String]
  /// Sweeps and named instances that draw alike (`VariationCheck`): "wght 100–900: the face
  /// drawn does not vary". Said on the proof page and, naming the family, in the manifest.
  public var unvaried: [String] = []

  public init(
    proofs: FontProofs, samples: [FeatureSample] = [], tried: [FeatureTrial] = [],
    hiddenAxes: [String] = [], warnings: [String] = []
  ) {
    self.proofs = proofs
    self.samples = samples
    self.tried = tried
    self.hiddenAxes = hiddenAxes
    self.warnings = warnings
  }

  /// The sample of feature `tag`, nil when it has no visible effect.
  public func sample(for tag: String) -> FeatureSample? { samples.first { $0.tag == tag } }
}

/// A text that shows one feature working: shaped with the feature off and on (in `language`,
/// in the face at `file`/`index`), the glyphs or their positions differ.
public struct FeatureSample: Codable, Sendable, Equatable {
  public var tag: String
  public var text: String
  /// BCP 47, when the sample needs its language to show (`locl`); nil: shaped as `en`, like
  /// every other text the tool sets.
  public var language: String?
  /// The setting that turns the feature on (`cv01=1`; `aalt`/`salt` first alternate).
  public var on: FeatureSetting
  /// The setting that turns it off, explicitly (features such as `liga`, `kern`, `calt`,
  /// `locl` are on by default).
  public var off: FeatureSetting { FeatureSetting(tag: tag, value: 0) }
  /// The OpenType script tag the sample is shaped with when it is not the one HarfBuzz
  /// chooses (`deva`, the first Indic specification, in a font that also has `dev2`), from a
  /// `language` of HarfBuzz's `x-hbsc` form (`x-hbscdeva`); nil otherwise.
  public var scriptSystem: String? {
    guard let language, let range = language.range(of: "x-hbsc") else { return nil }
    let tag = language[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
    return tag.isEmpty ? nil : String(tag.prefix(4))
  }
  /// The face the sample was found in: the regular face unless only another face has the
  /// feature or shows it (`swsh` in an italic).
  public var file: String
  public var index: Int
  public var style: String
  /// The parts of `text` the feature is meant for, in Unicode scalars from its start: the
  /// "2" of "H2O" for `subs`, the reph of "र्क" for `rphf`, the first letter of an Arabic
  /// word for `init`. `on` applies to these only (the rest is the context the feature reads);
  /// `off` always applies to the whole text. nil: `on` applies to the whole text.
  public var ranges: [Range<Int>]?

  public init(
    tag: String, text: String, language: String? = nil, on: FeatureSetting, file: String,
    index: Int, style: String, ranges: [Range<Int>]? = nil
  ) {
    self.tag = tag
    self.text = text
    self.language = language
    self.on = on
    self.file = file
    self.index = index
    self.style = style
    self.ranges = ranges
  }
}

/// A text tried for a feature, in its language (nil: `en`) and face, that the feature did not
/// change.
public struct FeatureTrial: Codable, Sendable, Equatable {
  public var tag: String
  public var text: String
  public var language: String?
  public var file: String
  public var index: Int
  /// The parts of `text` the feature was turned on for (`FeatureSample.ranges`); nil: all.
  public var ranges: [Range<Int>]?

  public init(
    tag: String, text: String, language: String? = nil, file: String, index: Int,
    ranges: [Range<Int>]? = nil
  ) {
    self.tag = tag
    self.text = text
    self.language = language
    self.file = file
    self.index = index
    self.ranges = ranges
  }
}
