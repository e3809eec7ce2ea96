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
  public static let manifestName = OutputLayout.runManifest
  public static let lockName = OutputLayout.runLock

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
    let start = Date()
    var plan = plan
    let previousEntries = plan.releasingPrevious()
    let pending = plan.pendingItems
    // What the parent read to plan and no longer holds goes back before the first worker
    // starts beside it. With nothing to draw no worker starts, and the run ends before this
    // would pay (reading /proc/self/maps is 3 % of an unchanged re-run).
    if ProcessMemory.isManaged && !pending.isEmpty {
      ProcessMemory.releaseAfterPlanning()
    }
    func createFolder(_ path: String) throws(Diagnostic) {
      try FileSystem.createFolder(path, hint: "move the file away, or write elsewhere with -o")
    }
    try createFolder(plan.output)
    try checkManifestPath(plan.output + "/" + manifestName)
    for folder in ["specimens", "pairings"] {
      let needed = folder == "specimens" ? !plan.specimens.isEmpty : !plan.pairings.isEmpty
      if needed { try createFolder(plan.output + "/" + folder) }
    }
    let thumbs = plan.specimens.compactMap(\.thumbnail)
    if thumbs.contains(where: { $0.action == .withSpecimen || $0.action == .fromSpecimen }) {
      try createFolder(plan.output + "/" + OutputLayout.thumbs)
    }
    for catalogue in plan.catalogues {
      try createFolder(
        URL(fileURLWithPath: plan.output + "/" + catalogue.file).deletingLastPathComponent().path)
    }

    // A run killed outright (SIGKILL, a power cut) cannot clean up: the temporary files of this
    // plan's outputs whose process is gone go before this run adds its own.
    sweepTemporaryFiles(in: plan) { pid in kill(pid, 0) != 0 && errno == ESRCH }

    // Outputs of the previous run that this one no longer makes (families no longer selected):
    // removed first, so that whatever happens next no manifest lists them any more.
    var diagnostics: [Diagnostic] = plan.diagnostics
    var removed: [String] = []
    for file in plan.obsolete {
      let path = plan.output + "/" + file
      guard FileStamp.state(path) != nil else { continue }
      if unlink(path) == 0 {
        removed.append(file)
        written(.removed(file))
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
      rmdir(plan.output + "/" + OutputLayout.thumbs)
    }

    var results = ResultTable(spool: ProofSpool(folder: plan.output))
    var writtenFiles: [String] = []
    func relative(_ path: String) -> String {
      path.hasPrefix(plan.output + "/") ? String(path.dropFirst(plan.output.count + 1)) : path
    }
    func announce(_ path: String) {
      writtenFiles.append(relative(path))
      written(.written(relative(path)))
    }
    // Outputs drawn elsewhere: copied in first, each whole or not at all.
    var copied = 0
    var copiedPaths: Set<String> = []
    var inPlace: Set<String> = []
    var copyInterrupted = false
    let toCopy = pending.filter { premade[$0.path] != nil }.count
    for item in pending {
      guard let made = premade[item.path] else { continue }
      if interrupted() {
        copyInterrupted = true
        break
      }
      let (result, same) = made.placeOrKeep(at: item.path)
      results[item.path] = result
      copiedPaths.insert(item.path)
      if same {
        inPlace.insert(item.path)
        written(.unchanged(relative(item.path)))
      } else if result.ok {
        announce(item.path)
      }
      copied += 1
      progress(
        BatchProgress(
          done: copied, total: toCopy, elapsed: Date().timeIntervalSince(start),
          finished: item.subject, failed: results[item.path]?.ok != true))
    }
    // Files that come with a copied output (the gallery's thumbnails), copied after it.
    let itemPaths = Set(pending.map(\.path))
    for (path, made) in premade.sorted(by: { $0.key < $1.key })
    where !itemPaths.contains(path) && !copyInterrupted {
      results[path] = made.place(at: path)
      if results[path]?.ok == true { announce(path) }
    }
    let items = pending.filter { premade[$0.path] == nil }
    var done = 0
    // Catalogues count twice: drawn, then finished.
    let total =
      items.count
      + items.filter { if case .catalogue = $0 { return true } else { return false } }.count
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
        for (path, failure) in staged.finish() { results[path] = failure }
        staged.drainCommitted().forEach(announce)
      }
      return try pool.run(
        work,
        completed: { index, result in
          if result.ok, let temporary = result.staged {
            staged.commit(temporary, to: work[index].path)
          } else if result.ok, work[index].isPNG {
            written(.unchanged(relative(work[index].path)))
          }
          // A drawn specimen's thumbnail, made by the worker from the same image.
          if result.ok, case .specimen(let request, _) = work[index], let thumb = request.thumbnail,
            let made = result.thumbnail
          {
            if let sha = made.sha256 {
              if let temporary = made.staged {
                staged.commit(temporary, to: thumb)
              } else {
                written(.unchanged(relative(thumb)))
              }
              results[thumb] = WorkResult(ok: true, sha256: sha)
            } else {
              results[thumb] = .failure(made.error ?? "not made")
            }
          }
          if result.ok, case .finishCatalogue = work[index] { announce(work[index].path) }
          // Their temporary names are spent once committed: only what the manifest needs stays.
          var result = result
          result.staged = nil
          result.thumbnail = nil
          results[work[index].path] = result
          done += 1
          staged.drainCommitted().forEach(announce)
          workDone += weights.weight(of: work[index])
          progress(
            BatchProgress(
              done: done, total: total, elapsed: Date().timeIntervalSince(start),
              finished: work[index].subject, failed: !result.ok, workDone: workDone,
              workTotal: workTotal))
        },
        tick: {
          staged.drainCommitted().forEach(announce)
          progress(
            BatchProgress(
              done: done, total: total, elapsed: Date().timeIntervalSince(start), finished: nil,
              failed: false, workDone: workDone, workTotal: workTotal))
        }, interrupted: interrupted)
    }
    // Drawing first; then each drawn catalogue is finished by qpdf in fresh workers that load
    // no fonts, so qpdf's hold on the whole document never stacks on a drawing worker's memory.
    var finished = copyInterrupted ? false : try runPool(items)
    var finishing: [WorkItem] = []
    for item in items {
      guard case .catalogue(_, let path) = item, let drawn = results[path], drawn.ok,
        let raw = drawn.raw
      else { continue }
      finishing.append(
        .finishCatalogue(
          FinishCatalogueTask(
            raw: raw, path: path, creationDate: drawn.creationDate ?? Date(),
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
          result.missingByFamily = first.missingByFamily
          result.familyPages = first.familyPages
        }
        results[task.path] = result
      }
    }
    for case .finishCatalogue(let task) in finishing { unlink(task.raw) }
    // Workers are gone and staged files are in place: whatever temporary file is left is from a
    // worker that died or was stopped mid-item, or from an interruption. Remove it. A run that
    // started no worker and copied nothing in (an unchanged re-run) has none to look for.
    if !pids.isEmpty || !premade.isEmpty {
      let ours = Set(pids + [getpid()])
      sweepTemporaryFiles(in: plan) { ours.contains($0) }
    }

    // The manifest: what this run made, and every other output of the job still on disk as the
    // last manifest recorded it (up to date, left out by --only, or not reached before an
    // interruption). A failed output is listed with its error and no file.
    // Families drawn again but not reached (an interruption) are listed as before.
    previousEntries.restore(in: &plan, from: plan.output + "/" + manifestName) {
      results[$0] != nil
    }
    var report = Assembly(plan: plan, title: job.title)
    // Proof fields the job now asks for that a kept entry lacks (a proof just turned on) are
    // read here, without drawing the specimen again; the rest come from the worker or the
    // previous manifest.
    let lacking = plan.specimens.filter { s in
      guard let old = s.previous, !old.files.isEmpty else { return false }
      let drawn = s.action == .render && results[plan.output + "/" + s.file]?.ok == true
      return !drawn && !old.proofs.covers(job.proofs)
    }.map(\.family)
    let wanted = job.proofs
    let read = Dictionary(
      zip(
        lacking.map(\.name),
        ParallelMap.map(lacking, threads: 2) { FamilyProofReport.read($0, options: wanted) }),
      uniquingKeysWith: { a, _ in a })

    /// The thumbnail's entry of a family whose specimen `kept` is listed (nil: it has none);
    /// `drawn`: the specimen was drawn in this run.
    func thumbnailEntry(_ s: BatchPlan.Specimen, specimen kept: RunManifest.File, drawn: Bool)
      -> RunManifest.File?
    {
      guard let t = s.thumbnail else { return nil }
      let path = plan.output + "/" + t.file
      let made = drawn ? t.action == .withSpecimen : t.action == .fromSpecimen
      if made, let r = results[path] {
        if r.ok, let sha = r.sha256, let state = FileStamp.state(path) {
          return file(t.file, sha: sha, inputs: drawn ? s.inputs : t.inputs, state: state)
        }
        diagnostics.append(
          .warning(
            "cannot make the thumbnail '\(t.file)' of '\(s.family.name)': "
              + (r.error ?? "it is not on disk after writing it"),
            hint: "the gallery shows the specimen instead; the next run tries again"))
        return nil
      }
      // Not made in this run: the one on disk counts while it is of the specimen listed.
      guard let old = t.previous, old.inputs != nil, old.inputs == kept.inputs else { return nil }
      return old
    }
    for s in plan.specimens {
      let path = plan.output + "/" + s.file
      var entry = RunManifest.Family(
        family: s.family.name, slug: s.slug, custom: s.family.isCustom, saved: s.saved,
        styles: s.family.styles, bold: s.family.hasBold, italic: s.family.hasItalic,
        missingGlyphs: 0, missingCharacters: MissingCharacters.codes(s.missingCharacters),
        warnings: [], files: [],
        error: nil)
      entry.drawnFrom = s.family.drawnFrom
      if s.action == .render, let r = results[path] {
        if r.ok, let sha = r.sha256, let state = FileStamp.state(path) {
          entry.missingGlyphs = r.missingGlyphs
          entry.warnings = r.warnings
          let record = file(s.file, sha: sha, inputs: s.inputs, state: state)
          entry.files =
            [record] + [thumbnailEntry(s, specimen: record, drawn: true)].compactMap { $0 }
          entry.seconds = r.seconds.map(milliseconds)
          var proofs: FamilyProofReport?
          do {
            proofs = try results.proofs(at: path)
          } catch {
            // Spooled, and not to be read back: read from the fonts again.
            proofs = FamilyProofReport.read(s.family, options: job.proofs)
          }
          entry.proofs = (proofs ?? FamilyProofReport()).selecting(job.proofs)
          report.families.rendered += 1
          if copiedPaths.contains(path) { report.families.copied += 1 }
          if inPlace.contains(path) { report.families.alreadyInPlace += 1 }
        } else {
          let error = r.ok ? "'\(path)' is not on disk after writing it" : r.error ?? "failed"
          entry.error = error
          report.families.failed += 1
          if let reason = r.writeFailure {
            report.unwritten(reason, path: path, kind: .specimen(s.family.name), message: error)
          } else {
            // The family's own problem (a font that breaks shaping): its files are named.
            report.diagnostics.append(
              .error(
                "family '\(s.family.name)' failed: \(error)"
                  + " (fonts: \(s.family.files.joined(separator: ", ")))"))
          }
        }
      } else if let old = s.previous, let file = old.files.first {
        entry.missingGlyphs = old.missingGlyphs
        entry.warnings = old.warnings
        entry.seconds = old.seconds  // what `run --shard auto` balances by, while up to date
        entry.files = [file] + [thumbnailEntry(s, specimen: file, drawn: false)].compactMap { $0 }
        entry.proofs = old.proofs.selecting(job.proofs)
        if let fresh = read[s.family.name] {
          entry.proofs = entry.proofs.filling(from: fresh).selecting(job.proofs)
          entry.warnings += fresh.warnings.filter { !entry.warnings.contains($0) }
        }
        report.families.carried(s.action)
      } else {
        if s.action == .keep { report.families.kept += 1 }
        continue  // nothing on disk to list: not reached before an interruption, or left out
      }
      report.warnings += entry.warnings.count
      entry.warningKinds = Self.kinds(entry.warnings)
      report.diagnostics += Self.warnings(entry.warnings, recorded: s.action != .render)
      report.manifest.families.append(entry)
    }

    for p in plan.pairings {
      let path = plan.output + "/" + p.file
      var entry = RunManifest.Pairing(
        heading: p.heading.name, body: p.body.name, file: p.file, sha256: "", inputs: p.inputs,
        warnings: [])
      if p.action == .render, let r = results[path] {
        guard r.ok, let sha = r.sha256, let state = FileStamp.state(path) else {
          report.pairings.failed += 1
          let name = "\(p.heading.name) + \(p.body.name)"
          let error = r.error ?? "'\(path)' is not on disk after writing it"
          if let reason = r.writeFailure {
            report.unwritten(reason, path: path, kind: .pairing(name), message: error)
          } else {
            report.diagnostics.append(.error("pairing '\(name)' failed: \(error)"))
          }
          continue
        }
        entry.sha256 = sha
        (entry.size, entry.mtimeNs) = (state.size, state.mtimeNs)
        entry.warnings = r.warnings
        entry.seconds = r.seconds.map(milliseconds)
        report.pairings.rendered += 1
      } else if let old = p.previous {
        entry = old
        entry.warnings = old.warnings ?? []
        report.pairings.carried(p.action)
      } else {
        if p.action == .keep { report.pairings.kept += 1 }
        continue
      }
      report.warnings += entry.warnings?.count ?? 0
      entry.warningKinds = Self.kinds(entry.warnings ?? [])
      report.diagnostics += Self.warnings(entry.warnings ?? [], recorded: p.action != .render)
      report.manifest.pairings.append(entry)
    }

    // Families whose specimens show their own script: their boxes on catalogue pages are a
    // fact about the font, as their specimens' are.
    let ownScript = Set(
      report.manifest.families.filter { $0.warnings.contains { WarningKind.of($0) == .ownScript } }
        .map(\.family))
    for c in plan.catalogues {
      let path = plan.output + "/" + c.file
      var entry: RunManifest.Catalogue
      var drawn = false
      if c.action == .render, let r = results[path] {
        if r.ok && r.sha256 == nil {
          // Drawn, not finished: interrupted. The file is as it was.
          guard let old = c.previous else { continue }
          entry = old
          report.catalogues.append(.init(file: c.file, state: .kept, pages: old.pages))
        } else if r.ok, let sha = r.sha256, let state = FileStamp.state(path) {
          let missing = r.missingByFamily ?? [:]
          entry = RunManifest.Catalogue(
            file: c.file, pages: r.pages ?? 0, sha256: sha, inputs: c.inputs, size: state.size,
            mtimeNs: state.mtimeNs, missingGlyphs: missing,
            warnings: r.warnings + missingGlyphWarnings(c, missing, ownScript: ownScript),
            families: r.familyPages)
          drawn = true
          report.catalogues.append(.init(file: c.file, state: .rendered, pages: entry.pages))
        } else {
          report.catalogues.append(.init(file: c.file, state: .failed, pages: nil))
          let error = r.error ?? "'\(path)' is not on disk after writing it"
          if let reason = r.writeFailure {
            report.unwritten(reason, path: path, kind: .catalogue(c.file), message: error)
          } else {
            report.diagnostics.append(.error("catalogue '\(c.file)' failed: \(error)"))
          }
          continue
        }
      } else if let old = c.previous {
        entry = old
        report.catalogues.append(
          .init(file: c.file, state: c.action == .upToDate ? .upToDate : .kept, pages: old.pages))
      } else {
        report.catalogues.append(.init(file: c.file, state: .notWritten, pages: nil))
        continue
      }
      report.warnings += entry.warnings?.count ?? 0
      entry.warningKinds = Self.kinds(entry.warnings ?? [])
      report.diagnostics += Self.warnings(entry.warnings ?? [], recorded: drawn == false)
      report.manifest.catalogues.append(entry)
    }

    report.manifest.families = FontCatalog.sorted(report.manifest.families, by: \.family)

    // The web gallery is made from the manifest (the page depends on nothing the rest of the
    // manifest adds below: counts, duration, its own record), and put in place after it.
    var page: Data?
    var galleryKept = false
    var galleryError: Diagnostic?
    if plan.gallery {
      let date = Timestamp.sourceDateEpoch()
      let inputs = GalleryModel.pageInputs(output: plan.output, date: date)
      if let previous = plan.galleryManifest, let record = previous.gallery,
        record.inputs == inputs, Self.sameGallerySource(previous, report.manifest)
      {
        // The page on disk was made from this very manifest and inputs: kept as it is.
        report.manifest.gallery = record
        report.manifest.gallery?.mtimeNs = plan.galleryFound?.mtimeNs
        galleryKept = true
      } else {
        do {
          var warned = false
          let model = GalleryModel(
            run: report.manifest, output: plan.output, date: date,
            warn: {
              warned = true
              diagnostics.append($0)
            })
          let bytes = try GalleryPage.html(model)
          report.manifest.gallery = RunManifest.Gallery(
            file: OutputLayout.gallery, sha256: SHA256.hex(bytes), size: Int64(bytes.count),
            inputs: warned ? nil : inputs)
          page = bytes
        } catch {
          galleryError = error
        }
      }
    }
    // The page is written and flushed before the manifest, which records its size and time (a
    // re-run that finds them does not read the page again), and put in place once the manifest
    // it comes from is on disk. It is rewritten only when it changed.
    let pagePath = plan.output + "/" + OutputLayout.gallery
    var preparedPage: AtomicFile.Prepared?
    var pageSame = galleryKept
    if let page {
      do throws(Diagnostic) {
        if (try? AtomicFile.read(pagePath, limit: page.count + 1)) != page {
          // A page no manifest of this folder records as it is on disk is not ours to replace:
          // a site's own index.html, or our page edited since.
          if plan.galleryFound == nil, FileStamp.state(pagePath) != nil {
            report.manifest.gallery = nil
            throw Diagnostic.error(
              "'\(pagePath)' is not a page this folder's manifest.json records: fonti-batch did "
                + "not write it, or it was edited since; it is left as it is",
              hint: "move it away and run again to have the gallery written there, write "
                + "elsewhere with -o, or set 'gallery: false'")
          }
          let prepared = try AtomicFile.prepare(page, to: pagePath)
          preparedPage = prepared
          report.manifest.gallery?.mtimeNs = prepared.state.mtimeNs
        } else {
          report.manifest.gallery?.mtimeNs = FileStamp.state(pagePath)?.mtimeNs
          pageSame = true
        }
      } catch {
        galleryError = error
      }
    }
    // Every warning counts: the job's and the fonts' (before the run), the plan's, removals
    // that failed, and each output's.
    let runWarnings = diagnostics.filter { $0.severity == .warning }
    report.manifest.counts = report.counts(
      warnings: jobWarnings.count + report.warnings + runWarnings.count)
    let loose = jobWarnings + runWarnings
    report.manifest.warnings = loose.isEmpty ? nil : loose.map(RunManifest.Warning.init)
    report.manifest.warningsByKind = Self.byKind(
      jobWarnings.map(\.message) + runWarnings.map(\.message)
        + report.manifest.families.flatMap(\.warnings)
        + report.manifest.pairings.flatMap { $0.warnings ?? [] }
        + report.manifest.catalogues.flatMap { $0.warnings ?? [] })
    report.manifest.durationSeconds = (Date().timeIntervalSince(start) * 100).rounded() / 100
    // A run that drew, copied and removed nothing (an unchanged re-run) leaves the manifest on
    // disk as it is when it would say the same but for its duration (after another such run):
    // nothing is written, no time changes, and a watcher or a CI cache sees the folder
    // unchanged. The run's summary and `--json` still give this run's duration. A run that drew
    // anything records new times, and one with other counts (the first re-run after a run that
    // drew) says something else: neither is compared, for the writer cannot stop midway.
    let manifestPath = plan.output + "/" + manifestName
    var unchanged = false
    if pending.isEmpty && removed.isEmpty && preparedPage == nil,
      report.manifest.counts == plan.previousCounts, let duration = plan.previousDuration
    {
      var onDisk = report.manifest
      onDisk.durationSeconds = duration
      unchanged = onDisk.isWritten(at: manifestPath)
    }
    var manifestError: Diagnostic?
    if unchanged {
      written(.unchanged(manifestName))
    } else {
      do throws(Diagnostic) {
        try report.manifest.write(toFile: manifestPath)
        announce(manifestPath)
      } catch {
        manifestError = error
      }
    }
    if pageSame && manifestError == nil && galleryError == nil {
      written(.unchanged(OutputLayout.gallery))
    }
    if let preparedPage {
      if manifestError == nil {
        do throws(Diagnostic) {
          try preparedPage.commit()
          announce(pagePath)
        } catch {
          galleryError = error
        }
      } else {
        preparedPage.discard()
      }
    }
    // Rendering went through: the error names what was written (and what no manifest lists).
    manifestError?.hint =
      writtenFiles.isEmpty
      ? "no other file was written"
      : "\(writtenFiles.count) file\(writtenFiles.count == 1 ? " was" : "s were") written that "
        + "no manifest lists: " + writtenFiles.map(Sanitize.terminal).joined(separator: ", ")
    var outcome = BatchReport(
      manifest: report.manifest,
      diagnostics: report.writeFailures() + diagnostics + report.diagnostics,
      interrupted: !finished, output: plan.output, families: report.families,
      pairings: report.pairings, catalogues: report.catalogues, written: writtenFiles,
      removed: removed, manifestError: manifestError)
    outcome.strict = options.strict
    // The page counts once it is on disk, made from the manifest that is.
    outcome.gallery =
      (page != nil || galleryKept) && manifestError == nil && galleryError == nil
      ? OutputLayout.gallery : nil
    outcome.galleryError = galleryError
    return outcome
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
      let shown =
        characters.prefix(12).joined(separator: ", ")
        + (characters.count > 12 ? " and \(characters.count - 12) more" : "")
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
    for file in files + [manifestName, OutputLayout.gallery] {
      let path = plan.output + "/" + file
      outputs[FileSystem.folder(of: path), default: []].insert(FileSystem.name(of: path))
    }
    for (folder, names) in outputs {
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
        continue
      }
      for entry in entries {
        guard let (pid, name) = AtomicFile.temporaryParts(entry), names.contains(name), remove(pid)
        else { continue }
        unlink(folder + "/" + entry)
      }
    }
  }

}
