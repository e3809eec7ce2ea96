import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How `run` was asked to behave (the command-line flags that reach FontiCore).
public struct BatchOptions: Sendable {
  public var jobs: Int
  public var force = false
  public var strict = false
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

/// What a run did: the manifest it wrote and the problems it met.
public struct BatchReport: Sendable {
  public var manifest: RunManifest
  /// Warnings and per-family errors, in a stable order.
  public var diagnostics: [Diagnostic]
  public var interrupted: Bool
  public var output: String

  public var failed: Int { manifest.counts.failed }
  public var warnings: Int { manifest.counts.warnings }
}

/// Runs a plan through the worker pool and writes `manifest.json` last. Never prints.
public enum BatchRunner {
  public static let manifestName = "manifest.json"
  public static let lockName = ".fonti-batch.lock"

  /// Executes `plan`. The caller holds the output folder's lock (`OutputLock`).
  public static func run(
    _ plan: BatchPlan, job: Job, options: BatchOptions, previous: RunManifest?,
    progress: (BatchProgress) -> Void = { _ in }, interrupted: () -> Bool = { false }
  ) throws -> BatchReport {
    let start = Date()
    try createFolder(plan.output)
    try checkManifestPath(plan.output + "/" + manifestName)
    for folder in ["specimens", "pairings"] {
      let needed = folder == "specimens" ? !plan.specimens.isEmpty : !plan.pairings.isEmpty
      if needed { try createFolder(plan.output + "/" + folder) }
    }
    for catalogue in plan.catalogues {
      try createFolder(URL(fileURLWithPath: plan.output + "/" + catalogue.file).deletingLastPathComponent().path)
    }

    // A run killed outright (SIGKILL, a power cut) cannot clean up: the temporary files of this
    // plan's outputs whose process is gone go before this run adds its own.
    sweepTemporaryFiles(in: plan) { pid in kill(pid, 0) != 0 && errno == ESRCH }

    let items = plan.pendingItems
    var results: [String: WorkResult] = [:]  // by output path
    var done = 0
    // Catalogues count twice: drawn, then finished.
    let total = items.count + items.filter { if case .catalogue = $0 { return true } else { return false } }.count
    let weights = ProgressWeights(items)
    let workTotal = weights.total
    var workDone = 0.0
    var pids: [Int32] = []
    let staged = StagedFiles(lanes: options.jobs)
    func runPool(_ work: [WorkItem]) throws -> Bool {
      guard !work.isEmpty else { return true }
      let pool = WorkerPool(launch: options.worker, size: min(options.jobs, work.count))
      defer {
        pids += pool.pids
        // What workers drew counts once it is on disk under its own name.
        for (path, failure) in staged.finish() { results[path] = .failure(failure) }
      }
      return try pool.run(
        work,
        completed: { index, result in
          if result.ok, let temporary = result.staged { staged.commit(temporary, to: work[index].path) }
          results[work[index].path] = result
          done += 1
          workDone += weights.weight(of: work[index])
          progress(
            BatchProgress(
              done: done, total: total, elapsed: Date().timeIntervalSince(start),
              finished: work[index].subject, failed: !result.ok, workDone: workDone,
              workTotal: workTotal))
        },
        tick: {
          progress(
            BatchProgress(
              done: done, total: total, elapsed: Date().timeIntervalSince(start), finished: nil,
              failed: false, workDone: workDone, workTotal: workTotal))
        }, interrupted: interrupted)
    }
    // Drawing first; then each drawn catalogue is finished by qpdf in fresh workers that load
    // no fonts, so qpdf's hold on the whole document never stacks on a drawing worker's memory.
    var finished = try runPool(items)
    var finishing: [WorkItem] = []
    for item in items {
      guard case .catalogue(let task) = item, let drawn = results[task.path], drawn.ok,
        let raw = drawn.raw
      else { continue }
      finishing.append(
        .finishCatalogue(
          FinishCatalogueTask(
            raw: raw, path: task.path, creationDate: drawn.creationDate ?? Date(),
            pages: drawn.pages ?? 0)))
    }
    if finished {
      let drawn = results
      finished = try runPool(finishing)
      for item in finishing {
        guard case .finishCatalogue(let task) = item else { continue }
        var result = results[task.path] ?? .failure("not finished")
        if result.ok, let first = drawn[task.path] {
          // The drawing step knows the warnings and missing glyphs; the finishing step the bytes.
          result.warnings = first.warnings
          result.missingGlyphs = first.missingGlyphs
        }
        results[task.path] = result
      }
    }
    for case .finishCatalogue(let task) in finishing { unlink(task.raw) }
    // Workers are gone and staged files are in place: whatever temporary file is left is from a
    // worker that died or was stopped mid-item, or from an interruption. Remove it.
    let ours = Set(pids + [getpid()])
    sweepTemporaryFiles(in: plan) { ours.contains($0) }

    // The manifest: finished work only, carried over from the last run where skipped.
    var diagnostics: [Diagnostic] = []
    let previousFamilies = Dictionary(
      (previous?.families ?? []).map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })
    var families: [RunManifest.Family] = []
    var rendered = 0
    var skipped = 0
    var failed = 0
    var warningCount = 0
    for s in plan.specimens {
      var entry = RunManifest.Family(
        family: s.family.name, slug: s.slug, custom: s.family.isCustom, saved: s.saved,
        styles: s.family.styles, bold: s.family.hasBold, italic: s.family.hasItalic,
        missingGlyphs: 0, warnings: [], files: [], error: nil)
      if s.upToDate, let old = previousFamilies[s.slug], let file = old.files.first {
        entry.missingGlyphs = old.missingGlyphs
        entry.warnings = old.warnings
        entry.files = [RunManifest.File(path: s.file, sha256: file.sha256, inputs: s.inputs)]
        skipped += 1
      } else if let r = results[plan.output + "/" + s.file] {
        if r.ok, let sha = r.sha256 {
          entry.missingGlyphs = r.missingGlyphs
          entry.warnings = r.warnings
          entry.files = [RunManifest.File(path: s.file, sha256: sha, inputs: s.inputs)]
          rendered += 1
        } else {
          entry.error = r.error ?? "failed"
          failed += 1
          diagnostics.append(
            .error(
              "family '\(s.family.name)' failed: \(entry.error ?? "")"
                + " (fonts: \(s.family.files.joined(separator: ", ")))"))
        }
      } else {
        continue  // not reached before an interruption: not in the manifest
      }
      warningCount += entry.warnings.count
      diagnostics += entry.warnings.map { .warning($0) }
      families.append(entry)
    }

    let previousPairings = Dictionary(
      (previous?.pairings ?? []).map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
    var pairings: [RunManifest.Pairing] = []
    for p in plan.pairings {
      var sha: String?
      if p.upToDate {
        sha = previousPairings[p.file]?.sha256
      } else if let r = results[plan.output + "/" + p.file] {
        if r.ok {
          sha = r.sha256
          warningCount += r.warnings.count
          diagnostics += r.warnings.map { .warning($0) }
        } else {
          failed += 1
          diagnostics.append(.error("pairing '\(p.heading.name) + \(p.body.name)' failed: \(r.error ?? "")"))
        }
      }
      if let sha {
        pairings.append(
          RunManifest.Pairing(
            heading: p.heading.name, body: p.body.name, file: p.file, sha256: sha, inputs: p.inputs))
      }
    }

    let previousCatalogues = Dictionary(
      (previous?.catalogues ?? []).map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
    var catalogues: [RunManifest.Catalogue] = []
    for c in plan.catalogues {
      if c.upToDate, let old = previousCatalogues[c.file] {
        catalogues.append(RunManifest.Catalogue(file: c.file, pages: old.pages, sha256: old.sha256, inputs: c.inputs))
      } else if let r = results[plan.output + "/" + c.file] {
        if r.ok && r.sha256 == nil { continue }  // drawn, not finished: interrupted
        if r.ok, let sha = r.sha256 {
          catalogues.append(
            RunManifest.Catalogue(file: c.file, pages: r.pages ?? 0, sha256: sha, inputs: c.inputs))
          warningCount += r.warnings.count
          diagnostics += r.warnings.map { .warning($0) }
        } else {
          failed += 1
          diagnostics.append(.error("catalogue '\(c.file)' failed: \(r.error ?? "")"))
        }
      }
    }

    families.sort { FontCatalog.order($0.family, $1.family) }
    var manifest = RunManifest(
      title: job.title, families: families, pairings: pairings, catalogues: catalogues,
      counts: RunManifest.Counts(
        families: plan.specimens.count, rendered: rendered, skipped: skipped, failed: failed,
        warnings: warningCount),
      durationSeconds: 0)
    manifest.durationSeconds = (Date().timeIntervalSince(start) * 100).rounded() / 100
    try AtomicFile.write(try manifest.encoded(), to: plan.output + "/" + manifestName)
    return BatchReport(
      manifest: manifest, diagnostics: diagnostics, interrupted: !finished, output: plan.output)
  }

  /// Creates `path` and its missing parents (`mkdir -p`), saying which one failed and why.
  static func createFolder(_ path: String) throws(Diagnostic) {
    var info = stat()
    if stat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR { return }
      throw .error(
        "'\(path)' is a file where fonti-batch needs a folder",
        hint: "move the file away, or write elsewhere with -o")
    }
    let parent = JobPath.directory(of: path)
    if parent != path && parent != "/" && parent != "." { try createFolder(parent) }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw .error("cannot create folder '\(path)': \(AtomicFile.describe(errno))")
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
    let files = plan.specimens.map(\.file) + plan.pairings.map(\.file) + plan.catalogues.map(\.file)
    for file in files + [manifestName] {
      let path = plan.output + "/" + file
      outputs[AtomicFile.folder(of: path), default: []].insert((path as NSString).lastPathComponent)
    }
    for (folder, names) in outputs {
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      for entry in entries {
        guard let (pid, name) = AtomicFile.temporaryParts(entry), names.contains(name), remove(pid)
        else { continue }
        unlink(folder + "/" + entry)
      }
    }
  }

}

/// An exclusive lock on an output folder, so that two runs never write the same files or
/// manifest at once. Held until released or the process ends.
public final class OutputLock {
  let fd: Int32

  /// Takes the lock without waiting; throws a clear error when another run holds it.
  public init(folder: String) throws(Diagnostic) {
    let path = folder + "/" + BatchRunner.lockName
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .error("cannot lock output folder '\(folder)': \(String(cString: strerror(errno)))")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      throw .error(
        "another fonti-batch run is writing to '\(folder)'; wait for it to finish",
        hint: "a run does not wait for another: run again when it has finished, or use -o to "
          + "write elsewhere")
    }
    self.fd = fd
  }

  deinit {
    flock(fd, LOCK_UN)
    close(fd)
  }
}
