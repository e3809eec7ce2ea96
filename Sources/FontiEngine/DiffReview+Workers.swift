import FontiDiff
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// A review run by the engine: its folder locked like a run's output, its families compared in
// worker processes (`WorkerPool`), as `run` draws.

extension DiffReview {
  /// Writes every file of the review into `folder` (created when missing).
  public func write(_ result: DiffResult, to folder: String) throws(Diagnostic) {
    let lock = try DiffReview.prepare(folder)
    defer { withExtendedLifetime(lock) {} }
    try writeFiles(result, to: folder)
  }

  /// Compares `before` with `after` in worker processes (`DiffEngine`) and writes the review
  /// into `folder`, which is created and locked first (the workers leave each changed family's
  /// drawings there until the pages are drawn). nil when `interrupted` stopped it: nothing of
  /// the review is then written or changed.
  public func run(
    before: DiffSide, after: DiffSide, options: DiffOptions, workers: WorkerPool.Program,
    to folder: String, progress: (BatchProgress) -> Void = { _ in },
    interrupted: () -> Bool = { false }
  ) throws -> DiffReport? {
    // Usage errors (`--only` matching nothing) before anything is created.
    _ = try DiffEngine.plan(before: before, after: after, options: options)
    let lock = try DiffReview.prepare(folder)
    defer { withExtendedLifetime(lock) {} }
    // A file of the user's where the review goes stops it before any comparing.
    try DiffReview.refuseFilesNotOurs(
      in: folder, writing: [DiffReview.jsonName, DiffReview.markdownName, DiffReview.pdfName])
    guard
      let result = try DiffEngine.compare(
        before: before, after: after, options: options, workers: workers, folder: folder,
        progress: progress, interrupted: interrupted)
    else { return nil }
    defer { result.removeStored() }
    guard try writeFiles(result, to: folder, interrupted: interrupted) else { return nil }
    return result.report
  }

  /// Creates `folder` and takes its lock: two reviews never write one folder at once (the lock
  /// `run` takes on its output). Removes what a killed review left there.
  static func prepare(_ folder: String) throws(Diagnostic) -> OutputLock {
    var info = stat()
    if stat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
      throw .error("output '\(folder)' exists and is not a folder")
    }
    try FileSystem.createFolder(folder)
    let lock = try OutputLock(folder: folder)
    DiffReview.sweepTemporaryFiles(in: folder)
    return lock
  }
}

extension DiffWork {
  /// Compares the task's family (in the worker). A changed family's drawings go to a temporary
  /// file in the review's folder, named in the answer.
  static func perform(_ task: DiffFamilyTask) -> WorkResult {
    let outcome = FamilyComparison.compare(
      before: task.before, after: task.after, slug: task.slug,
      comparer: FaceComparer(settings: task.settings))
    var stored: String?
    if outcome.hasDrawing {
      do {
        stored = try store(outcome, in: task.folder, slug: task.slug)
      } catch {
        return .failure("\(error)")
      }
    }
    var result = WorkResult(ok: true)
    result.diff = DiffFamilyResult(entry: outcome.entry, stored: stored)
    return result
  }
}

extension DiffEngine {
  /// Compares each family in a worker process of `launch`'s program (`WorkerPool`, as `run`
  /// draws), at most `options.jobs` at once; a worker that dies fails only its family. The
  /// review's folder (`folder`, which the caller has created and locked) receives each changed
  /// family's drawings, which `DiffReview` reads and removes. `progress` hears each family
  /// compared and a tick a few times a second; `interrupted` stops the pool when it says so
  /// (the result is then nil).
  public static func compare(
    before: DiffSide, after: DiffSide, options: DiffOptions, workers: WorkerPool.Program,
    folder: String, progress: (BatchProgress) -> Void = { _ in },
    interrupted: () -> Bool = { false }
  ) throws -> DiffResult? {
    let start = Date()
    let tasks = try plan(before: before, after: after, options: options).map {
      DiffFamilyTask(
        before: $0.before, after: $0.after, slug: $0.slug, settings: options.settings,
        folder: folder)
    }
    let items = tasks.map(WorkItem.diff)
    var results = [WorkResult?](repeating: nil, count: items.count)
    var done = 0
    let pool = WorkerPool(
      launch: WorkerPool.Launch(
        workers, setup: WorkerSetup(customFonts: [], outputFolder: folder)),
      size: min(max(1, options.jobs), max(1, items.count)))
    func report(_ finished: String?, failed: Bool) {
      progress(
        BatchProgress(
          done: done, total: items.count, elapsed: Date().timeIntervalSince(start),
          finished: finished, failed: failed, workDone: Double(done),
          workTotal: Double(items.count)))
    }
    let finished = try pool.run(
      items,
      completed: { index, result in
        results[index] = result
        done += 1
        report(tasks[index].name, failed: !result.ok || result.diff?.entry.status == .failed)
      },
      tick: { report(nil, failed: false) }, interrupted: interrupted)
    guard finished else {
      for case let stored? in results.map({ $0?.diff?.stored }) { unlink(stored) }
      return nil
    }
    let outcomes = zip(tasks, results).map { task, result -> FamilyOutcome in
      if let result, result.ok, let found = result.diff {
        return .compared(found.entry, stored: found.stored)
      }
      var entry = FamilyComparison.entry(task.before, task.after, slug: task.slug)
      entry.status = .failed
      entry.error =
        (result?.error ?? "the worker gave no answer")
        + " (fonts: \(task.files.joined(separator: ", ")))"
      entry.summary = FamilyComparison.summary(entry)
      return .compared(entry)
    }
    return assemble(outcomes, before: before, after: after, settings: options.settings)
  }
}
