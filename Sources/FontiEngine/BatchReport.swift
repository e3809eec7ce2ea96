import FontiModel
import FontiSupport
import Foundation

/// What a run did: the manifest it wrote, the problems it met, and how each kind of output
/// fared. The engine never prints; the command line prints from this.
public struct BatchReport: Sendable {
  /// How one kind of output (specimens, pairing sheets) fared.
  public struct Tally: Sendable, Equatable {
    public var total = 0
    public var rendered = 0
    public var upToDate = 0
    /// Not up to date, and not drawn because `--only` leaves it out (its file, if any, is
    /// left as it was).
    public var kept = 0
    public var failed = 0
    /// Of `rendered`, those `merge` copied from the shards that drew them, and of those, the
    /// ones already in place with the same bytes (left as they were): the summary says so
    /// rather than "rendered".
    public var copied = 0
    public var alreadyInPlace = 0
    /// Not drawn and listed in the manifest (carried over from the last run): `skipped`.
    var carried = 0

    /// Counts an output carried over from the last run: up to date, left out by `--only`, or
    /// (to be drawn) not reached before an interruption.
    mutating func carried(_ action: BatchPlan.Action) {
      switch action {
      case .upToDate: upToDate += 1
      case .keep: kept += 1
      case .render: break
      }
      carried += 1
    }
  }

  /// How one catalogue fared.
  public struct CatalogueOutcome: Sendable, Equatable {
    public enum State: Sendable, Equatable {
      case rendered, upToDate, kept, failed
      /// Neither drawn nor on disk from an earlier run (`--only` left it out).
      case notWritten
    }
    public var file: String
    public var state: State
    public var pages: Int?
  }

  /// A file put in place, drawn again the same and left as it was, or removed, for `-v`.
  public enum FileEvent: Sendable, Equatable {
    case written(String)
    case unchanged(String)
    case removed(String)
  }

  public var manifest: RunManifest
  /// Warnings and errors, in a stable order: a cause that stopped many files once, then each
  /// output's own.
  public var diagnostics: [Diagnostic]
  public var interrupted: Bool
  public var output: String
  public var families: Tally
  public var pairings: Tally
  public var catalogues: [CatalogueOutcome]
  /// Files written by this run, relative to the output folder, in the order they were.
  public var written: [String]
  /// Outputs of the previous run that this job no longer makes, removed.
  public var removed: [String]
  /// Why `manifest.json` could not be written, if it could not; the other files were (the
  /// error's hint names them).
  public var manifestError: Diagnostic?
  /// Why the favourites manifest could not be written at the end of the run, if it could not.
  public var favouritesError: Diagnostic?
  /// The warnings that fail the run (`run --strict[=KIND,...]`); nil: none do.
  public var strict: StrictPolicy?
  /// The warnings found before the run (the job's, the fonts'), already shown to the user:
  /// they count for `strict` as the outputs' do.
  public var jobWarnings: [Diagnostic] = []
  /// The web gallery's page, relative to the output folder, when the run made it (written, or
  /// already on disk with the same bytes).
  public var gallery: String?
  /// Why the web gallery could not be made or written, if it could not.
  public var galleryError: Diagnostic?

  /// Whether everything asked for was written: every output, the manifest and the favourites,
  /// and, with `strict`, with no warning; false too when the run was interrupted.
  public var isComplete: Bool {
    !interrupted && failed == 0 && manifestError == nil && favouritesError == nil
      && galleryError == nil && failingWarnings.isEmpty
  }

  /// The warnings that fail the run under `strict`, counted by kind.
  public var failingWarnings: [(kind: WarningKind, count: Int)] {
    strict?.failing(jobWarnings + diagnostics) ?? []
  }

  /// "failing: 3 warnings under --strict: missing-glyphs ×3", when the run fails by them.
  public var failingLine: String? { strict?.failingLine(jobWarnings + diagnostics) }

  /// Outputs of every kind that failed.
  public var failed: Int {
    families.failed + pairings.failed + catalogues.filter { $0.state == .failed }.count
  }
  /// Every warning of the run, those found before it (selection, fonts) included.
  public var warnings: Int { manifest.counts.warnings }

  /// The run's one-line summary, as `run` prints it: each kind of output counted on its own.
  /// "4 families: 2 rendered, 2 failed; 3 pairing sheets: 3 failed; catalogue.pdf failed".
  public var summary: String {
    func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
    let f = families
    var parts = ["\(f.rendered - f.copied) rendered", "\(f.upToDate) up to date"]
    if f.alreadyInPlace > 0 { parts.insert("\(f.alreadyInPlace) already in place", at: 1) }
    if f.copied > f.alreadyInPlace {
      parts.insert("\(f.copied - f.alreadyInPlace) copied from the shards", at: 1)
    }
    if f.kept > 0 { parts.append("\(f.kept) left out by --only") }
    if f.failed > 0 { parts.append("\(f.failed) failed") }
    let w = manifest.counts.warnings
    if w > 0 { parts.append(plural(w, "warning", "warnings")) }
    if let n = manifest.counts.notes, n > 0 { parts.append(plural(n, "note", "notes")) }
    var line = plural(f.total, "family", "families") + ": " + parts.joined(separator: ", ")
    let p = pairings
    if p.total > 0 {
      line += "; " + plural(p.total, "pairing sheet", "pairing sheets")
      if p.failed > 0 || p.kept > 0 {
        var parts: [String] = []
        if p.rendered > 0 { parts.append("\(p.rendered) rendered") }
        if p.upToDate > 0 { parts.append("\(p.upToDate) up to date") }
        if p.kept > 0 { parts.append("\(p.kept) left out by --only") }
        if p.failed > 0 { parts.append("\(p.failed) failed") }
        line += ": " + parts.joined(separator: ", ")
      }
    }
    let catalogues = self.catalogues.map { c -> String in
      let name = Sanitize.terminal(c.file)
      switch c.state {
      case .rendered, .upToDate: return "\(name) (\(plural(c.pages ?? 0, "page", "pages")))"
      case .kept: return "\(name) (\(plural(c.pages ?? 0, "page", "pages")), left as it was)"
      case .failed: return "\(name) failed"
      case .notWritten: return "\(name) not written"
      }
    }
    if !catalogues.isEmpty { line += "; " + catalogues.joined(separator: ", ") }
    if let gallery {
      line += "; gallery \(gallery)"
    } else if galleryError != nil {
      line += "; gallery failed"
    }
    if !removed.isEmpty {
      line += "; removed " + plural(removed.count, "old output", "old outputs")
    }
    return line
  }
}

/// The manifest and report being put together at the end of a run.
struct Assembly {
  /// An output that was not written because its file could not be.
  enum Unwritten {
    case specimen(String)
    case pairing(String)
    case catalogue(String)
  }

  var manifest: RunManifest
  var families = BatchReport.Tally()
  var pairings = BatchReport.Tally()
  var catalogues: [BatchReport.CatalogueOutcome] = []
  var diagnostics: [Diagnostic] = []
  /// Write failures by the system's reason, with the paths and what they were, in order.
  private var unwritten:
    [(reason: String, items: [(path: String, kind: Unwritten, message: String)])] = []

  init(plan: BatchPlan, title: String) {
    manifest = RunManifest(
      title: title, families: [], pairings: [], catalogues: [],
      counts: RunManifest.Counts(families: 0, rendered: 0, skipped: 0, failed: 0, warnings: 0),
      durationSeconds: 0)
    families.total = plan.specimens.count
    pairings.total = plan.pairings.count
  }

  /// Records an output that failed because its file could not be written; `message` is its
  /// own error, used when it is the only one with this cause.
  mutating func unwritten(_ reason: String, path: String, kind: Unwritten, message: String) {
    if let i = unwritten.firstIndex(where: { $0.reason == reason }) {
      unwritten[i].items.append((path, kind, message))
    } else {
      unwritten.append((reason, [(path, kind, message)]))
    }
  }

  /// One error per cause: the folder all its files are in, the system's reason, and what it
  /// stopped, counted by kind ("cannot write in 'out/specimens': Permission denied; not
  /// written: 4 specimens (A, B, C, D)"); a cause that stopped one file, that file's error. The
  /// fonts are never blamed for the disk.
  func writeFailures() -> [Diagnostic] {
    unwritten.map { group in
      if group.items.count == 1, let only = group.items.first {
        switch only.kind {
        case .specimen(let name): return .error("family '\(name)' failed: \(only.message)")
        case .pairing(let name): return .error("pairing '\(name)' failed: \(only.message)")
        case .catalogue(let file): return .error("catalogue '\(file)' failed: \(only.message)")
        }
      }
      let folder = Assembly.commonFolder(group.items.map(\.path))
      var specimens: [String] = []
      var pairings: [String] = []
      var catalogues: [String] = []
      for (_, kind, _) in group.items {
        switch kind {
        case .specimen(let name): specimens.append(name)
        case .pairing(let name): pairings.append(name)
        case .catalogue(let file): catalogues.append(file)
        }
      }
      var what: [String] = []
      if !specimens.isEmpty {
        what.append(
          "\(specimens.count) specimen\(specimens.count == 1 ? "" : "s") "
            + "(\(Sanitize.list(specimens)))")
      }
      if !pairings.isEmpty {
        what.append(
          "\(pairings.count) pairing sheet\(pairings.count == 1 ? "" : "s") "
            + "(\(Sanitize.list(pairings)))")
      }
      if !catalogues.isEmpty {
        what.append(
          "\(catalogues.count) catalogue\(catalogues.count == 1 ? "" : "s") "
            + "(\(Sanitize.list(catalogues)))")
      }
      return .error(
        "cannot write in '\(folder)': \(group.reason); not written: "
          + what.joined(separator: ", "))
    }
  }

  /// The deepest folder holding every one of `paths`.
  static func commonFolder(_ paths: [String]) -> String {
    let folders = paths.map {
      FileSystem.folder(of: $0).split(separator: "/", omittingEmptySubsequences: false)
    }
    guard var common = folders.first else { return "." }
    for f in folders.dropFirst() {
      var n = 0
      while n < common.count && n < f.count && common[n] == f[n] { n += 1 }
      common = Array(common.prefix(n))
    }
    let joined = common.joined(separator: "/")
    return joined.isEmpty ? "/" : joined
  }

  /// `counts` as `docs/outputs.md` gives it: the fields for families, then pairing sheets and catalogues on their own.
  func counts(warnings: Int, notes: Int) -> RunManifest.Counts {
    var counts = RunManifest.Counts(
      families: families.total, rendered: families.rendered, skipped: families.carried,
      failed: families.failed, warnings: warnings)
    counts.notes = notes
    counts.pairings = pairings.total
    counts.pairingsRendered = pairings.rendered
    counts.pairingsSkipped = pairings.carried
    counts.pairingsFailed = pairings.failed
    counts.catalogues = catalogues.count
    counts.cataloguesRendered = catalogues.filter { $0.state == .rendered }.count
    counts.cataloguesSkipped =
      catalogues.filter { $0.state == .upToDate || $0.state == .kept }.count
    counts.cataloguesFailed = catalogues.filter { $0.state == .failed }.count
    return counts
  }
}
