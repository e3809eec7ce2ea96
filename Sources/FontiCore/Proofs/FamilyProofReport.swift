/// A family's proof fields as manifest.json and `families --json` record them (SPEC.md,
/// Proofs): `axes`, `instances`, `features`, `languages` and `codepoints`. Each is nil when
/// its proof is off, and then absent from the JSON (not empty).
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

  /// Whether `options` wants codepoints.
  static func wantsCodepoints(_ options: ProofOptions) -> Bool {
    options.languages || options.glyphs
  }

  /// Reads what `options` asks for from `family` (HarfBuzz and fontconfig data only: no
  /// Pango, so any thread may call it). Axes and instances are read whenever `axes` or
  /// `features` is on (they cost next to nothing); features are sampled only with `features`
  /// on, which is where the time goes.
  public static func read(_ family: FontFamily, options: ProofOptions) -> FamilyProofReport {
    var report = FamilyProofReport()
    let name = Sanitize.terminal(family.name)
    if options.features {
      do {
        let proofs = try ProofReader.read(family)
        report.axes = proofs.proofs.axes
        report.instances = proofs.proofs.instances
        report.features = proofs.proofs.features
        report.hiddenAxes = proofs.hiddenAxes
        report.warnings += proofs.warnings.map { "family '\(name)': \($0)" }
      } catch {
        report.warnings.append("family '\(name)': \(error); its proofs are not listed")
      }
    } else if options.axes {
      (report.axes, report.instances, report.hiddenAxes) = axesAndInstances(family)
    }
    if !options.axes {
      report.axes = nil
      report.instances = nil
    }
    if options.languages {
      report.languages = LanguageCoverage(family: family)
      report.warnings += FaceCoverage.warnings(for: family).map { "family '\(name)': \($0)" }
    }
    if wantsCodepoints(options) {
      report.codepoints = (try? EncodedCharacters.ofRegularFace(family))?.count ?? 0
    }
    return report
  }

  /// `read` for each family, over up to `threads` threads, in the families' order.
  public static func readAll(
    _ families: [FontFamily], options: ProofOptions, threads: Int = 2
  ) -> [FamilyProofReport] {
    ParallelMap.map(families, threads: threads) { read($0, options: options) }
  }

  /// The regular face's axes and named instances (empty for a static family or one that
  /// cannot be read).
  public static func axesAndInstances(_ family: FontFamily) -> (
    axes: [FontProofs.Axis], instances: [FontProofs.Instance], hidden: [String]
  ) {
    guard let regular = family.regularFace,
      let face = try? HarfBuzzFace(file: regular.file, index: regular.index)
    else { return ([], [], []) }
    let (axes, hidden) = ProofReader.readAxes(face)
    return (axes, ProofReader.readInstances(face, axes: axes), hidden)
  }

  /// The axes of face `index` of `file` (none when it is static or cannot be read).
  public static func axes(file: String, index: Int) -> [FontProofs.Axis] {
    guard let face = try? HarfBuzzFace(file: file, index: index) else { return [] }
    return ProofReader.readAxes(face).axes
  }

  /// The specimen's quiet line for a variable family (`VARIABLE · wght 100–900`), nil for a
  /// static one.
  public var variationSummary: String? {
    proofs.variationSummary(hiding: Set(hiddenAxes))
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
