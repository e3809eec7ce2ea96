import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How `run` was asked to behave (the command-line flags that reach the engine).
public struct BatchOptions: Sendable {
  public var jobs: Int
  public var force = false
  /// The warnings that fail the run (`--strict`, `--strict=KIND,...`); nil: none do.
  public var strict: StrictPolicy?
  /// How to start a worker: this executable and the arguments that make it one.
  public var worker: WorkerPool.Launch

  public init(jobs: Int, worker: WorkerPool.Launch) {
    self.jobs = jobs
    self.worker = worker
  }
}

/// A progress event, for the front end's progress line.
public struct BatchProgress: Sendable {
  public var done: Int
  public var total: Int
  public var elapsed: Double
  /// The item just finished (nil on a timer tick).
  public var finished: String?
  public var failed: Bool
  /// Work done and in all, in specimens' worth (a catalogue weighs its pages; see
  /// `ProgressWeights`): what the time left is estimated from.
  public var workDone: Double = 0
  public var workTotal: Double = 0
}

/// Runs a plan through the worker pool and writes `manifest.json` last. Never prints.
public enum BatchRunner {

  /// Executes `plan`. The caller holds the output folder's lock (`OutputLock`). `jobWarnings`
  /// counts the warnings found before the run (selection, fonts), already shown to the user:
  /// the manifest counts every warning. `written` is called with each file (relative to the
  /// output folder) once it is on disk under its name, and with each old output removed.
  ///
  /// `premade` holds outputs already drawn elsewhere (`merge`: by the shards), by absolute
  /// output path: they are copied into place, checked against their checksum, instead of being
  /// drawn, and the manifest lists them as the machine that drew them reported them.
  ///
  /// The plan is consumed: what it holds of the previous manifest goes as soon as the run no
  /// longer needs it (`BatchPlan.PreviousEntries`), so a caller that hands over its only copy
  /// frees it during the run.
  public static func run(
    _ plan: consuming BatchPlan, job: Job, options: BatchOptions, jobWarnings: [Diagnostic] = [],
    premade: [String: PremadeOutput] = [:],
    progress: (BatchProgress) -> Void = { _ in },
    written: (BatchReport.FileEvent) -> Void = { _ in },
    interrupted: () -> Bool = { false }
  ) throws -> BatchReport {
    let run = BatchRun(plan, job: job, options: options, premade: premade)
    // The callbacks are called during the run only: no stage keeps them.
    return try withoutActuallyEscaping(progress) { progress in
      try withoutActuallyEscaping(written) { written in
        try withoutActuallyEscaping(interrupted) { interrupted in
          try run.execute(
            jobWarnings: jobWarnings,
            events: BatchRun.Events(progress: progress, written: written, interrupted: interrupted))
        }
      }
    }
  }

  /// Whether two manifests give the same gallery page: equal but for what the run adds after
  /// making the page (its counts, duration, warnings by kind and the page's own record).
  static func sameGallerySource(_ a: RunManifest, _ b: RunManifest) -> Bool {
    func source(_ m: RunManifest) -> RunManifest {
      var m = m
      m.counts = b.counts
      m.durationSeconds = 0
      m.gallery = nil
      m.warnings = nil
      m.warningsByKind = nil
      return m
    }
    return source(a) == source(b)
  }

  /// An output's warnings as diagnostics; `recorded` when the output was not drawn by this run
  /// (its warnings come from the previous manifest and are not printed again).
  static func warnings(_ messages: [String], recorded: Bool) -> [Diagnostic] {
    messages.map {
      var d = Diagnostic.warning($0)
      d.recorded = recorded
      return d
    }
  }

  /// The kinds of an entry's warnings, in their order (`warningKinds[i]` is the kind of
  /// `warnings[i]`); nil when there is none.
  static func kinds(_ warnings: [String]) -> [String]? {
    warnings.isEmpty ? nil : warnings.map { WarningKind.of($0).rawValue }
  }

  /// How many warnings of each kind; nil when there is none.
  static func byKind(_ warnings: [String]) -> [String: Int]? {
    guard !warnings.isEmpty else { return nil }
    return warnings.reduce(into: [:]) { $0[WarningKind.of($1).rawValue, default: 0] += 1 }
  }

  /// Seconds to the millisecond, as manifests record them.
  static func milliseconds(_ seconds: Double) -> Double {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    return (seconds * 1000).rounded() / 1000
  }

  /// A manifest file entry for a file just written.
  static func file(_ path: String, sha: String, inputs: String, state: FileState)
    -> RunManifest.File
  {
    RunManifest.File(
      path: path, sha256: sha, inputs: inputs, size: state.size, mtimeNs: state.mtimeNs)
  }

  /// One warning per family whose catalogue pages show boxes: the characters it lacks (of the
  /// sample and the texts), so that `texts:` lines a family cannot set do not pass unnoticed.
  /// Those of `ownScript` families (which cannot set the sample, and whose specimens show
  /// their own script) say so.
  static func missingGlyphWarnings(
    _ c: BatchPlan.Catalogue, _ missing: [String: Int], ownScript: Set<String> = []
  ) -> [String] {
    c.families.compactMap { name in
      guard let boxes = missing[name], boxes > 0 else { return nil }
      let characters = MissingCharacters.codes(c.missingCharacters[name] ?? [])
      let shown = Sanitize.list(characters, limit: 12)
      let warning =
        characters.isEmpty
        ? "catalogue '\(c.file)': family '\(name)' shows \(boxes) missing glyph"
          + "\(boxes == 1 ? "" : "s") as boxes"
        : "catalogue '\(c.file)': family '\(name)' has no glyph for \(characters.count) character"
          + "\(characters.count == 1 ? "" : "s") of the sample and texts (\(shown)), shown as boxes"
      return ownScript.contains(name) ? warning + "; its specimen shows its own script" : warning
    }
  }

  /// Refuses, before anything renders, a manifest path that can never be replaced (a folder is
  /// in the way): otherwise every family would render and the run would fail at the very end.
  static func checkManifestPath(_ path: String) throws(Diagnostic) {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return }
    throw .error(
      "'\(path)' is in the way of the run's manifest: it is not a regular file",
      hint: "move it away, or write elsewhere with -o")
  }

  /// Removes the temporary files (`.fonti-tmp-PID-RANDOM-NAME`) of this plan's outputs — NAME
  /// is exactly one of its specimens, pairing sheets, catalogues or the manifest, in that
  /// output's folder — made by a process `remove` accepts. Nothing else: a `saved` command may
  /// be replacing a favourites file among the outputs, another run may write a folder nested
  /// in this one.
  static func sweepTemporaryFiles(in plan: BatchPlan, removing remove: (Int32) -> Bool) {
    var outputs: [String: Set<String>] = [:]
    let files =
      plan.specimens.map(\.file) + plan.pairings.map(\.file) + plan.catalogues.map(\.file)
      + plan.specimens.compactMap(\.thumbnail?.file)
    for file in files + [OutputLayout.runManifest, OutputLayout.gallery] {
      let path = plan.output + "/" + file
      outputs[FileSystem.folder(of: path), default: []].insert(FileSystem.name(of: path))
    }
    for (folder, names) in outputs {
      guard let system = try? OutputFolder.systemFolder(folder),
        let entries = try? FileManager.default.contentsOfDirectory(atPath: system)
      else { continue }
      for entry in entries {
        guard let (pid, name) = AtomicFile.temporaryParts(entry), names.contains(name), remove(pid)
        else { continue }
        unlink(system + "/" + entry)
      }
    }
  }

}
