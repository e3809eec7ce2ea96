import FontiFonts
import FontiSupport
import Foundation

/// How a comparison runs: what is compared, which families, on how many threads.
public struct DiffOptions: Sendable {
  public var settings: DiffSettings
  /// Only families matching one of these (either side's name); all when empty.
  public var only: [FamilyPattern]
  /// Threads comparing families at once.
  public var jobs: Int

  public init(settings: DiffSettings, only: [FamilyPattern] = [], jobs: Int = 1) {
    self.settings = settings
    self.only = only
    self.jobs = jobs
  }
}

/// A finished comparison: the report, and what the review pages of changed families draw.
public struct DiffResult: Sendable {
  public var report: DiffReport
  /// Parallel to `report.families`. A family compared in a worker has its drawings on disk
  /// (`FamilyOutcome.stored`): `outcome(at:)` reads them, one family at a time.
  var outcomes: [FamilyOutcome]

  /// Family `index`'s outcome with its glyph images and sample, read from the worker's file
  /// when they wait there (nothing to draw when it cannot be read).
  func outcome(at index: Int) -> FamilyOutcome {
    var outcome = outcomes[index]
    if let stored = outcome.stored, let drawing = DiffWork.load(stored) {
      outcome.glyphImages = drawing.glyphImages
      outcome.sample = drawing.sample
      outcome.profile = drawing.profile
      outcome.charactersAdded = drawing.charactersAdded
      outcome.charactersRemoved = drawing.charactersRemoved
      outcome.shapingImages = drawing.shapingImages
      outcome.instanceImages = drawing.instanceImages
    }
    return outcome
  }

  /// Removes the workers' files of drawings.
  package func removeStored() {
    for case let stored? in outcomes.map(\.stored) { unlink(OutputFolder.systemPathOrSame(stored)) }
  }
}

/// Pairs the families of two sides by name and compares each pair: in worker processes
/// (`compare(before:after:options:workers:folder:…)`, what `diff` does) or in parallel threads
/// of this process (HarfBuzz and Cairo image surfaces only; no font map, no fontconfig match).
public enum DiffEngine {
  /// The families to compare, by name, with their slugs: every family of either side (those
  /// `options.only` matches), sorted.
  package static func plan(before: DiffSide, after: DiffSide, options: DiffOptions)
    throws(DiagnosticError) -> [(before: SideFamily?, after: SideFamily?, slug: String)]
  {
    var keys = Set(before.families.keys).union(after.families.keys)
    if !options.only.isEmpty {
      keys = keys.filter { key in
        let names = [before.families[key]?.name, after.families[key]?.name].compactMap { $0 }
        return options.only.contains { p in names.contains { p.matches($0) } }
      }
      if keys.isEmpty {
        let patterns = options.only.map { "'\($0.text)'" }.joined(separator: ", ")
        throw DiagnosticError(.error("--only \(patterns) matches no family on either side"))
      }
    }
    let names = FontCatalog.sorted(
      keys.map { key in (key, after.families[key]?.name ?? before.families[key]?.name ?? key) },
      by: \.1)
    let slugs = Slug.unique(names.map(\.1))
    return zip(names, slugs).map { (name, slug) in
      (before.families[name.0], after.families[name.0], slug)
    }
  }

  /// Compares in threads of this process.
  public static func compare(before: DiffSide, after: DiffSide, options: DiffOptions)
    throws(DiagnosticError) -> DiffResult
  {
    let items = try plan(before: before, after: after, options: options)
    let settings = options.settings
    let outcomes = BoundedPool.map(items, width: options.jobs) { item in
      FamilyComparison.compare(
        before: item.before, after: item.after, slug: item.slug,
        comparer: FaceComparer(settings: settings))
    }
    return assemble(outcomes, before: before, after: after, settings: settings)
  }

  /// The report of `outcomes` (in the order of `plan`): counts, and each changed family's image.
  package static func assemble(
    _ outcomes: [FamilyOutcome], before: DiffSide, after: DiffSide, settings: DiffSettings
  ) -> DiffResult {
    var report = DiffReport(
      before: before.path, after: after.path, threshold: settings.threshold,
      greyLevels: settings.greyLevels, pixelsPerEm: settings.pixelsPerEm, text: settings.text,
      counts: DiffReport.Counts(), families: [], unreadable: before.unreadable + after.unreadable)
    var kept: [FamilyOutcome] = []
    var outcomes = outcomes
    LikelyRenames.mark(&outcomes, before: before, after: after)
    for var outcome in outcomes {
      switch outcome.entry.status {
      case .added: report.counts.added += 1
      case .removed: report.counts.removed += 1
      case .changed:
        report.counts.changed += 1
        outcome.entry.image = DiffReview.imagePath(outcome.entry.slug)
      case .unchanged: report.counts.unchanged += 1
      case .failed: report.counts.failed += 1
      }
      report.families.append(outcome.entry)
      kept.append(outcome)
    }
    report.counts.families = report.families.count
    return DiffResult(report: report, outcomes: kept)
  }
}
