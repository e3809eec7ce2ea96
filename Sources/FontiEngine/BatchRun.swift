import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One run of a plan, told as its stages: prepare the folders, remove what the job no longer
/// makes, copy in what was drawn elsewhere, draw, then record (`BatchRun+Manifest.swift`). Each
/// stage leaves what the next needs in the run's state.
final class BatchRun {
  /// The caller's callbacks, for the length of the run.
  struct Events {
    var progress: (BatchProgress) -> Void
    var written: (BatchReport.FileEvent) -> Void
    var interrupted: () -> Bool
  }

  let start = Date()
  var plan: BatchPlan
  let job: Job
  let options: BatchOptions
  let premade: [String: PremadeOutput]
  /// What the plan held of the previous manifest, given back when the manifest is assembled.
  let previousEntries: BatchPlan.PreviousEntries
  /// The plan's items still to draw or copy.
  let pending: [WorkItem]

  var diagnostics: [Diagnostic] = []
  /// Old outputs removed, relative to the output folder.
  var removed: [String] = []
  var results: ResultTable
  /// Files written, relative to the output folder, in order.
  var writtenFiles: [String] = []
  /// Outputs copied in from `premade`, and those of them already in place.
  var copiedPaths: Set<String> = []
  var inPlace: Set<String> = []
  var copyInterrupted = false
  /// Every worker started, for the sweep of what a dead one left.
  var pids: [Int32] = []
  /// Whether every item was reached (false: interrupted).
  var finished = false

  init(
    _ plan: consuming BatchPlan, job: Job, options: BatchOptions,
    premade: [String: PremadeOutput]
  ) {
    var plan = plan
    previousEntries = plan.releasingPrevious()
    pending = plan.pendingItems
    results = ResultTable(spool: ProofSpool(folder: plan.output))
    self.plan = plan
    self.job = job
    self.options = options
    self.premade = premade
  }

  /// The stages in order; what the report and the manifest say of them.
  func execute(jobWarnings: [Diagnostic], events: Events) throws -> BatchReport {
    releaseMemoryBeforeWorkers()
    try prepareFolders()
    try refuseFilesNotOurs()
    // A run killed outright (SIGKILL, a power cut) cannot clean up: the temporary files of this
    // plan's outputs whose process is gone go before this run adds its own.
    BatchRunner.sweepTemporaryFiles(in: plan) { pid in kill(pid, 0) != 0 && errno == ESRCH }
    diagnostics = plan.diagnostics
    removeObsolete(events)
    copyPremade(events)
    try draw(events)
    sweepAfterWorkers()
    return record(assemble(), jobWarnings: jobWarnings, events: events)
  }

  // MARK: Before drawing

  /// What the parent read to plan and no longer holds goes back before the first worker starts
  /// beside it. With nothing to draw no worker starts, and the run ends before this would pay
  /// (reading /proc/self/maps is 3 % of an unchanged re-run).
  private func releaseMemoryBeforeWorkers() {
    if ProcessMemory.isManaged && !pending.isEmpty {
      ProcessMemory.releaseAfterPlanning()
    }
  }

  /// The output folder and the folders its outputs go in; refuses a manifest path that can
  /// never be replaced.
  private func prepareFolders() throws(Diagnostic) {
    func createFolder(_ path: String) throws(Diagnostic) {
      try FileSystem.createFolder(path, hint: "move the file away, or write elsewhere with -o")
    }
    try createFolder(plan.output)
    try BatchRunner.checkManifestPath(plan.output + "/" + OutputLayout.runManifest)
    for folder in ["specimens", "pairings"] {
      let needed = folder == "specimens" ? !plan.specimens.isEmpty : !plan.pairings.isEmpty
      if needed { try createFolder(plan.output + "/" + folder) }
    }
    let thumbs = plan.specimens.compactMap(\.thumbnail)
    if thumbs.contains(where: { $0.action == .withSpecimen || $0.action == .fromSpecimen }) {
      try createFolder(plan.output + "/" + OutputLayout.thumbs)
    }
    for catalogue in plan.catalogues {
      try createFolder(FileSystem.folder(of: plan.output + "/" + catalogue.file))
    }
  }

  /// Stops the run before anything is drawn when a file it would write is not its own: a file
  /// no manifest of this folder records (a site's own `manifest.json`, the user's
  /// `specimens/inter.png`), or one changed since it was recorded (its size, time and SHA-256
  /// are not the manifest's). Such a file is the user's and is never replaced. An empty file
  /// is a write that never finished, not anybody's work: it is drawn again. Links are not
  /// files here: they are replaced as links (`OutputFolder`).
  private func refuseFilesNotOurs() throws(Diagnostic) {
    var written: [(file: String, recorded: Bool)] = []
    // A manifest.json that cannot be read as a run's manifest is somebody else's.
    written.append((OutputLayout.runManifest, plan.previousCounts != nil))
    // Drawn specimens' records went to `previousEntries` (with their thumbnails'), intact.
    for (i, s) in plan.specimens.enumerated() where s.action == .render {
      written.append((s.file, s.previous != nil || previousEntries.recorded(i)))
    }
    for (i, s) in plan.specimens.enumerated() {
      guard let thumb = s.thumbnail, thumb.action == .withSpecimen || thumb.action == .fromSpecimen
      else { continue }
      written.append(
        (thumb.file, thumb.previous != nil || previousEntries.recorded(i, thumbnail: true)))
    }
    for p in plan.pairings where p.action == .render { written.append((p.file, p.previous != nil)) }
    for c in plan.catalogues where c.action == .render {
      written.append((c.file, c.previous != nil))
    }
    if plan.gallery { written.append((OutputLayout.gallery, plan.galleryFound != nil)) }
    let recorded = Set(written.filter(\.recorded).map { plan.output + "/" + $0.file })
    let theirs = FilesNotOurs.theirs(written.map { plan.output + "/" + $0.file }) {
      recorded.contains($0)
    }
    guard theirs.isEmpty else {
      throw FilesNotOurs.refusal(theirs, record: OutputLayout.runManifest)
    }
  }

  /// Outputs of the previous run that this one no longer makes (families no longer selected):
  /// removed first, so that whatever happens next no manifest lists them any more.
  private func removeObsolete(_ events: Events) {
    for file in plan.obsolete {
      let path = plan.output + "/" + file
      guard FileStamp.state(path) != nil else { continue }
      if unlink(OutputFolder.systemPathOrSame(path)) == 0 {
        removed.append(file)
        events.written(.removed(file))
      } else {
        diagnostics.append(
          .warning(
            "cannot remove '\(path)', which this job no longer makes: "
              + FileSystem.describe(errno)))
      }
    }
    // Without the gallery, its emptied thumbnails' folder goes too (only when empty: the rest
    // is the user's).
    if !plan.gallery && removed.contains(where: { $0.hasPrefix(OutputLayout.thumbs + "/") }) {
      rmdir(OutputFolder.systemPathOrSame(plan.output + "/" + OutputLayout.thumbs))
    }
  }

  /// `path` relative to the output folder.
  func relative(_ path: String) -> String {
    path.hasPrefix(plan.output + "/") ? String(path.dropFirst(plan.output.count + 1)) : path
  }

  /// A file now on disk under its name.
  func announce(_ path: String, _ events: Events) {
    writtenFiles.append(relative(path))
    events.written(.written(relative(path)))
  }

  /// The files the staging threads put in place since the last call, announced.
  func announceCommitted(_ staged: StagedFiles, _ events: Events) {
    for path in staged.drainCommitted() { announce(path, events) }
  }

  /// Outputs drawn elsewhere: copied in first, each whole or not at all; then the files that
  /// come with them (the gallery's thumbnails).
  private func copyPremade(_ events: Events) {
    var copied = 0
    let toCopy = pending.filter { premade[$0.path] != nil }.count
    for item in pending {
      guard let made = premade[item.path] else { continue }
      if events.interrupted() {
        copyInterrupted = true
        break
      }
      let (result, same) = made.placeOrKeep(at: item.path)
      results[item.path] = result
      copiedPaths.insert(item.path)
      if same {
        inPlace.insert(item.path)
        events.written(.unchanged(relative(item.path)))
      } else if result.ok {
        announce(item.path, events)
      }
      copied += 1
      events.progress(
        BatchProgress(
          done: copied, total: toCopy, elapsed: Date().timeIntervalSince(start),
          finished: item.subject, failed: results[item.path]?.ok != true))
    }
    let itemPaths = Set(pending.map(\.path))
    for (path, made) in premade.sorted(by: { $0.key < $1.key })
    where !itemPaths.contains(path) && !copyInterrupted {
      results[path] = made.place(at: path)
      if results[path]?.ok == true { announce(path, events) }
    }
  }

  // MARK: Drawing

  /// Drawing first; then each drawn catalogue is finished by qpdf in fresh workers that load no
  /// fonts, so qpdf's hold on the whole document never stacks on a drawing worker's memory.
  private func draw(_ events: Events) throws {
    let items = pending.filter { premade[$0.path] == nil }
    var progress = DrawProgress(items, start: start)
    let staged = StagedFiles(lanes: options.jobs)
    finished = copyInterrupted ? false : try runPool(items, staged, &progress, events)
    let finishing = finishingItems(items)
    if finished {
      let drawn = results
      finished = try runPool(finishing, staged, &progress, events)
      for item in finishing {
        guard case .finishCatalogue(let task) = item else { continue }
        var result = results[task.path] ?? .failure("not finished")
        if result.ok, let first = drawn[task.path] {
          // The drawing step knows the warnings and missing glyphs; the finishing step the bytes.
          result.warnings = first.warnings
          result.missingGlyphs = first.missingGlyphs
          result.missingByFamily = first.missingByFamily
          result.familyPages = first.familyPages
        }
        results[task.path] = result
      }
    }
    for case .finishCatalogue(let task) in finishing {
      unlink(OutputFolder.systemPathOrSame(task.raw))
    }
  }

  /// The finishing step of each catalogue drawn.
  private func finishingItems(_ items: [WorkItem]) -> [WorkItem] {
    items.compactMap { item in
      guard case .catalogue(_, let path) = item, let drawn = results[path], drawn.ok,
        let raw = drawn.raw
      else { return nil }
      return .finishCatalogue(
        FinishCatalogueTask(
          raw: raw, path: path, creationDate: drawn.creationDate ?? Date(),
          pages: drawn.pages ?? 0, tagging: drawn.tagging))
    }
  }

  /// Runs `work` through a pool of workers; false when interrupted.
  private func runPool(
    _ work: [WorkItem], _ staged: StagedFiles, _ progress: inout DrawProgress, _ events: Events
  ) throws -> Bool {
    guard !work.isEmpty else { return true }
    let pool = WorkerPool(launch: options.worker, size: min(options.jobs, work.count))
    defer {
      pids += pool.pids
      // What workers drew counts once it is on disk under its own name.
      for (path, failure) in staged.finish() { results[path] = failure }
      announceCommitted(staged, events)
    }
    return try pool.run(
      work,
      completed: { index, result in
        keep(result, of: work[index], staged: staged, events)
        announceCommitted(staged, events)
        progress.finished(work[index])
        events.progress(progress.event(finished: work[index].subject, failed: !result.ok))
      },
      tick: {
        announceCommitted(staged, events)
        events.progress(progress.event(finished: nil, failed: false))
      }, interrupted: events.interrupted)
  }

  /// A worker's answer for `item`: its file (and its thumbnail's) committed under their names,
  /// and what the manifest needs kept in the results.
  private func keep(_ result: WorkResult, of item: WorkItem, staged: StagedFiles, _ events: Events)
  {
    if result.ok, let temporary = result.staged {
      staged.commit(temporary, to: item.path)
    } else if result.ok, item.isPNG {
      events.written(.unchanged(relative(item.path)))
    }
    // A drawn specimen's thumbnail, made by the worker from the same image.
    if result.ok, case .specimen(let request, _) = item, let thumb = request.thumbnail,
      let made = result.thumbnail
    {
      if let sha = made.sha256 {
        if let temporary = made.staged {
          staged.commit(temporary, to: thumb)
        } else {
          events.written(.unchanged(relative(thumb)))
        }
        results[thumb] = WorkResult(ok: true, sha256: sha)
      } else {
        results[thumb] = .failure(made.error ?? "not made")
      }
    }
    if result.ok, case .finishCatalogue = item { announce(item.path, events) }
    // Their temporary names are spent once committed: only what the manifest needs stays.
    var result = result
    result.staged = nil
    result.thumbnail = nil
    results[item.path] = result
  }

  /// Workers are gone and staged files are in place: whatever temporary file is left is from a
  /// worker that died or was stopped mid-item, or from an interruption. Remove it. A run that
  /// started no worker and copied nothing in (an unchanged re-run) has none to look for.
  private func sweepAfterWorkers() {
    guard !pids.isEmpty || !premade.isEmpty else { return }
    let ours = Set(pids + [getpid()])
    BatchRunner.sweepTemporaryFiles(in: plan) { ours.contains($0) }
  }
}

/// How far drawing is: items done of all (catalogues count twice: drawn, then finished), and
/// work done in specimens' worth (`ProgressWeights`).
struct DrawProgress {
  let start: Date
  let total: Int
  let weights: ProgressWeights
  var done = 0
  var workDone = 0.0

  init(_ items: [WorkItem], start: Date) {
    self.start = start
    total =
      items.count
      + items.filter { if case .catalogue = $0 { return true } else { return false } }.count
    weights = ProgressWeights(items)
  }

  mutating func finished(_ item: WorkItem) {
    done += 1
    workDone += weights.weight(of: item)
  }

  func event(finished: String?, failed: Bool) -> BatchProgress {
    BatchProgress(
      done: done, total: total, elapsed: Date().timeIntervalSince(start), finished: finished,
      failed: failed, workDone: workDone, workTotal: weights.total)
  }
}
