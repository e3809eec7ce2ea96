import FontiModel
import FontiSupport
import FontiText

// Reading a family's proofs from its fonts (HarfBuzz, fontconfig's coverage): apart from the
// report's plain data, which manifests (and their fuzz targets) carry without a font library.

extension FamilyProofReport {
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
        report.warnings += (proofs.warnings + proofs.unvaried).map { "family '\(name)': \($0)" }
      } catch {
        report.warnings.append("family '\(name)': \(error); its proofs are not listed")
      }
    } else if options.axes {
      if let face = axesHarfBuzzFace(family) {
        (report.axes, report.instances, report.hiddenAxes) = axesAndInstances(face)
        report.warnings += VariationCheck.warnings(
          face: face, axes: report.axes ?? [], hidden: Set(report.hiddenAxes),
          instances: report.instances ?? [], steps: FontProofs.Axis.sweepSteps
        ).map { "family '\(name)': \($0)" }
      } else {
        (report.axes, report.instances) = ([], [])
      }
    }
    if !options.axes {
      report.axes = nil
      report.instances = nil
    }
    if options.languages {
      report.languages = LanguageCoverage(family: family)
      // With features on, the proofs' warning already named the files HarfBuzz cannot read.
      report.warnings += FaceCoverage.warnings(for: family, unreadable: !options.features).map {
        "family '\(name)': \($0)"
      }
    }
    report.warnings += FaceWeights.warnings(for: family).map { "family '\(name)': \($0)" }
    if wantsCodepoints(options) {
      if let regular = family.regularFace, !regular.isOpenType {
        // A Type 1 or bitmap face: HarfBuzz reads no cmap from it; fontconfig's charset does.
        report.codepoints = family.coverage.count
      } else {
        report.codepoints = (try? EncodedCharacters.ofRegularFace(family))?.count ?? 0
      }
    }
    return report
  }

  /// `read` for each family, over up to `threads` threads, in the families' order.
  public static func readAll(
    _ families: [FontFamily], options: ProofOptions, threads: Int = 2
  ) -> [FamilyProofReport] {
    ParallelMap.map(families, threads: threads) { read($0, options: options) }
  }

  /// The axes and named instances of the family's `axesFace` (empty for a static family or
  /// one that cannot be read).
  public static func axesAndInstances(_ family: FontFamily) -> (
    axes: [FontProofs.Axis], instances: [FontProofs.Instance], hidden: [String]
  ) {
    axesHarfBuzzFace(family).map(axesAndInstances) ?? ([], [], [])
  }

  /// The family's `axesFace`, opened; nil when it cannot be read.
  static func axesHarfBuzzFace(_ family: FontFamily) -> HarfBuzzFace? {
    family.axesFace.flatMap { try? HarfBuzzFace(file: $0.file, index: $0.index) }
  }

  static func axesAndInstances(_ face: HarfBuzzFace) -> (
    axes: [FontProofs.Axis], instances: [FontProofs.Instance], hidden: [String]
  ) {
    let (axes, hidden) = FontAxes.read(face)
    return (axes, ProofReader.readInstances(face, axes: axes), hidden)
  }

  /// The specimen's quiet line for a variable family (`VARIABLE · wght 100–900`), nil for a
  /// static one.
  public var variationSummary: String? {
    proofs.variationSummary(hiding: Set(hiddenAxes))
  }
}
