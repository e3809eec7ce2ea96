import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The one entry point that runs a job, driven by `run` and `check` (and by the tests): it
/// loads and resolves the job, hearts the job's favourites, finds each family's partners and
/// the pairings to render, chooses each catalogue's families, plans against the previous
/// manifest, takes the output folder's lock and runs the plan through the workers. The
/// favourites manifest is written once, after the run's manifest, with this run's specimen
/// paths. A family travels as `FontFamily` all the way; only the worker protocol names it by
/// reference. Never prints: the front end is told through the closures it passes.
public struct JobRun {
  /// What to run, and how: `run`'s flags.
  public struct Request {
    /// Where the job comes from.
    public enum Source {
      /// A job file (`-`: standard input), loaded and checked against the fonts.
      case file(String)
      /// A job already resolved against its fonts.
      case resolved(ResolvedJob)
    }

    public var source: Source
    /// Overrides the job's output folder (`run -o`).
    public var output: String?
    /// `run --only`: only matching families (and the outputs showing them) are drawn again.
    public var only: [FamilyPattern] = []
    /// Draw again what is up to date.
    public var force = false
    /// Plan only: nothing is written, not even the favourites.
    public var dryRun = false
    /// Every warning fails the run (`BatchReport.isComplete`); files are still written.
    /// The warnings that fail the run (`--strict[=KIND,...]`); nil: none do.
    public var strict: StrictPolicy?
    /// Worker processes at most.
    public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    /// The program the workers run: this executable unless said otherwise.
    public var workers: WorkerPool.Program = .current
    /// The user's imported fonts (nil: none).
    public var library: FontLibrary? = .standard
    /// A fontconfig configuration file instead of the standard one.
    public var configFile: String?
    /// `run --shard K/N`: only this shard's part of the job is drawn (its families and the
    /// pairing sheets they head; no catalogue), and `shard.json` is written beside it.
    public var shard: ShardSpec?
    /// `run --shard-weights MANIFEST`: a previous run's manifest whose per-family timings
    /// balance the shards.
    public var shardWeights: String?
    /// `merge`: what the shards drew; set by `ShardMerge`.
    public var merge: MergeInputs?
    /// Read the output folder's previous manifest while the fonts load, as soon as the job
    /// file names the folder (not for `force`, which draws for seconds and needs only part of
    /// it: read on the run's main thread, its memory is the heap's the run goes on using).
    /// Off for what never runs the job (`check`).
    public var readsPreviousEarly = true

    public init(_ source: Source) {
      self.source = source
    }

    /// The job file at `path`.
    public init(job path: String) {
      self.init(.file(path))
    }
  }

  /// How a run ended.
  public enum Outcome {
    /// `dryRun`: what would be drawn, kept, removed and what is up to date. Nothing written.
    case planned(BatchPlan)
    /// The plan went through, or was interrupted on the way (`report.interrupted`): the
    /// manifest lists what is on disk.
    case ran(BatchReport)
    /// Interrupted before anything was drawn or written.
    case interrupted
  }

  public let request: Request
  /// The job, checked against the fonts.
  public let resolved: ResolvedJob
  /// `--shard-weights`' manifest, read and checked before anything runs.
  let weightsManifest: RunManifest?
  /// The output folder's previous manifest, read on a thread of its own from the moment the
  /// job names the folder, while fontconfig loads and lists the fonts (nil: `run` reads it).
  private let previousRead: Background<PreviousManifest>?

  /// What was found worth a warning before anything runs (the job's, the fonts'), in file
  /// order.
  public var warnings: [Diagnostic] { resolved.warnings }

  /// Loads the job and checks it against the fonts, reporting every problem at once
  /// (`DiagnosticError`); `waiting` hears when the job is slow to come (a FIFO with no writer
  /// yet). `only` patterns that match none of the job's families are a `RequestError`.
  public init(_ request: Request, waiting: ((String) -> Void)? = nil) throws {
    if ProcessMemory.isManaged { ProcessMemory.returnLargeBlocks() }
    var previousRead: Background<PreviousManifest>?
    switch request.source {
    case .resolved(let resolved):
      self.resolved = resolved
    case .file(let path):
      resolved = try ResolvedJob.load(
        path: path, output: request.output, library: request.library,
        configFile: request.configFile, waiting: waiting,
        decoded: request.readsPreviousEarly && !request.force
          ? { job in
            let folder = job.output
            previousRead = Background {
              var read = PreviousManifest.read(folder: folder, force: false)
              read.lookAtOutputs(in: folder)
              return read
            }
          } : nil)
    }
    self.previousRead = previousRead
    self.request = request
    weightsManifest = try request.shardWeights.map(JobRun.loadWeights)
    let only = request.only
    if !only.isEmpty
      && !resolved.jobFamilies.contains(where: { f in only.contains { $0.matches(f.name) } })
    {
      throw RequestError(
        "--only \(only.map { "'\($0.text)'" }.joined(separator: ", ")) matches none of the "
          + "job's families")
    }
  }

  /// What `check` adds to loading the job: the favourites manifest a run reads before it draws
  /// anything, so that a damaged one fails `check` as it would fail `run`.
  public func check() throws(DiagnosticError) {
    _ = try FavouritesStore(job: resolved.job).load(for: resolved.job)
  }

  /// Runs the job. `waiting` is how a wait for the favourites lock is told and ended (it is
  /// announced after a second, and ends at once when the user interrupts); `progress` hears
  /// each finished item and a tick a few times a second; `written` each file put in place or
  /// removed; `interrupted` is polled and stops the run when it says so. Errors that stop the
  /// run before it draws anything throw; what goes wrong with single outputs, the run's
  /// manifest or the favourites is in the report.
  public func run(
    waiting: FileLock.Waiting? = nil,
    progress: (BatchProgress) -> Void = { _ in },
    written: (BatchReport.FileEvent) -> Void = { _ in },
    interrupted: () -> Bool = { false }
  ) throws -> Outcome {
    let job = resolved.job
    let hearts = try loadFavourites(waiting: waiting)
    if interrupted() { return .interrupted }
    let saved = hearts.favourites.saved.compactMap { entry -> FontFamily? in
      guard let f = resolved.catalog.family(named: entry.family), f.isRenderable else {
        return nil
      }
      return f
    }
    let planning = Planning(
      inputs: resolved.planInputs(saved: saved, creationDate: Timestamp.sourceDateEpoch()),
      saved: saved, catalog: resolved.catalog)
    let read =
      previousRead?.take() ?? PreviousManifest.read(folder: job.output, force: request.force)
    let readState = read.state
    var (plan, part) = try planned(read, planning)
    if request.dryRun { return .planned(plan) }

    try FileSystem.createFolder(job.output, hint: "move the file away, or write elsewhere with -o")
    let lock = try OutputLock(folder: job.output)
    defer { withExtendedLifetime(lock) {} }
    // The previous manifest was read before the lock was taken (while the fonts loaded): a run
    // that finished in this folder meanwhile left another one. Plan again from it; no other
    // run can change it now.
    if FileStamp.state(job.output + "/" + OutputLayout.runManifest) != readState {
      (plan, part) = try planned(
        PreviousManifest.read(folder: job.output, force: request.force), planning)
    }
    // A folder that held a shard holds one again only once this run is through.
    let shardFile = job.output + "/" + ShardManifest.fileName
    if FileStamp.state(shardFile) != nil, unlink(OutputFolder.systemPathOrSame(shardFile)) == 0 {
      written(.removed(ShardManifest.fileName))
    }
    var report = try BatchRunner.run(
      consume plan, job: job, options: batchOptions(),
      jobWarnings: resolved.warnings.filter { $0.severity == .warning },
      premade: request.merge?.premade(in: job.output) ?? [:],
      progress: progress, written: written, interrupted: interrupted)
    report.jobWarnings = resolved.warnings.filter { $0.severity == .warning }
    if let part {
      // A shard writes no favourites (merge does): its folder holds its part and shard.json.
      if !report.interrupted && !interrupted() {
        writeShardManifest(part, &report, planning, to: shardFile, written: written)
      }
      return .ran(report)
    }
    writeFavourites(hearts, &report, interrupted: interrupted())
    return .ran(report)
  }

  /// The favourites as the run sees them: the job hearts `favourites.save`; the manifest gives
  /// hearts and order.
  private struct Hearts {
    let store: FavouritesStore
    var favourites: FavouritesManifest
    let toHeart: [FontFamily]
    let now: Date
  }

  /// What the plan is made from besides the previous manifest.
  private struct Planning {
    let inputs: PlanInputs
    let saved: [FontFamily]
    /// Custom fonts are known by their bytes (a checkout resets their times), each file read
    /// once per run; installed fonts by path, size and time.
    let fingerprints = FontFingerprints()
    let custom: Set<String>

    init(inputs: PlanInputs, saved: [FontFamily], catalog: FontCatalog) {
      self.inputs = inputs
      self.saved = saved
      custom = Set(catalog.families.filter(\.isCustom).flatMap(\.files))
    }
  }

  private func loadFavourites(waiting: FileLock.Waiting?) throws -> Hearts {
    let job = resolved.job
    let now = Timestamp.now()
    let toHeart = job.save.compactMap { resolved.catalog.family(named: $0.value) }
    let store = FavouritesStore(job: job, waiting: waiting)
    var favourites = try store.load(for: job)
    if !request.dryRun && !toHeart.isEmpty {
      var hearted = favourites
      FavouritesStore.heart(&hearted, toHeart, specimens: [:], now: now)
      // A run that will change the favourites first lets another process finish changing
      // them: it draws the hearts it will write.
      if hearted != favourites { favourites = try store.settled(for: job) }
    }
    FavouritesStore.heart(&favourites, toHeart, specimens: [:], now: now)
    return Hearts(store: store, favourites: favourites, toHeart: toHeart, now: now)
  }

  /// The plan, and the shard's part of it, against the previous manifest `read`.
  private func planned(_ read: consuming PreviousManifest, _ planning: Planning) throws -> (
    BatchPlan, ShardPart?
  ) {
    let job = resolved.job
    let inputs = planning.inputs
    let previous = read.manifest
    var plan = BatchPlan.make(
      job: job, output: job.output, inputs: inputs, previous: previous, force: request.force,
      only: request.only, stamp: planning.fingerprints.stamp(custom: planning.custom),
      verify: read.verify)
    var part: ShardPart?
    if let shard = request.shard {
      // The folder's previous manifest balances only when it times every selected family (a
      // whole run's, restored into each shard's folder): a shard's own manifest times only its
      // part, and shards must all weigh alike to split alike.
      let folderTimings = previous.flatMap(ShardPartition.timings).flatMap { t in
        inputs.families.allSatisfy { t[$0.name] != nil } ? t : nil
      }
      let p = ShardPart.make(
        shard, plan: plan, inputs: inputs,
        timings: weightsManifest.flatMap(ShardPartition.timings) ?? folderTimings)
      plan = p.restrict(plan, previous: previous, job: job)
      part = p
    }
    if let merge = request.merge {
      try merge.check(&plan, saved: planning.saved.map(\.name))
    }
    if let bytes = read.bytes {
      plan.readPreviousProofs(from: bytes)
    } else if read.hasProofs, let previous {
      plan.keepPreviousProofs(from: previous)
    }
    // The plan holds what the run still needs of the previous manifest, and lets it go as the
    // run goes (`BatchRunner.run` consumes it): no other copy may keep it alive.
    return (plan, part)
  }

  /// How the batch runner draws: how many workers, started how, with which fonts.
  private func batchOptions() -> BatchOptions {
    var options = BatchOptions(
      jobs: request.jobs,
      worker: WorkerPool.Launch(
        request.workers,
        setup: WorkerSetup(
          customFonts: resolved.environment.customFiles,
          labelFamily: resolved.catalog.labelFamily.map(FamilyRef.init),
          boxDigitsFace: resolved.environment.boxDigitsFace,
          installedFolders: resolved.environment.workerFolders, outputFolder: resolved.job.output)))
    options.force = request.force
    options.strict = request.strict
    return options
  }

  /// A shard's `shard.json`, written once its part is drawn; an error goes in the report.
  private func writeShardManifest(
    _ part: ShardPart, _ report: inout BatchReport, _ planning: Planning, to shardFile: String,
    written: (BatchReport.FileEvent) -> Void
  ) {
    do {
      let manifest = try shardManifest(
        part, report: report, inputs: planning.inputs, saved: planning.saved,
        fingerprints: planning.fingerprints)
      try AtomicFile.write(try manifest.encoded(), to: shardFile)
      written(.written(ShardManifest.fileName))
    } catch let error as Diagnostic {
      report.manifestError = error
    } catch {
      report.manifestError = .error("cannot write '\(shardFile)': \(error)")
    }
  }

  /// The favourites, written once: the hearts, and where this run's specimens are. An error
  /// goes in the report.
  private func writeFavourites(_ hearts: Hearts, _ report: inout BatchReport, interrupted: Bool) {
    var specimens: [String: String] = [:]
    if !report.interrupted {
      for f in report.manifest.families {
        if let file = f.files.first { specimens[f.family] = file.path }
      }
    }
    func heart(_ manifest: inout FavouritesManifest) {
      FavouritesStore.heart(&manifest, hearts.toHeart, specimens: specimens, now: hearts.now)
    }
    do {
      if report.interrupted || interrupted {
        // Never a wait after an interruption: the hearts land if the lock is free.
        _ = try hearts.store.updateIfFree(heart)
      } else {
        try hearts.store.update(heart)
      }
    } catch {
      report.favouritesError = error
    }
  }
}

extension JobRun {
  /// `--shard-weights MANIFEST`: a previous run's manifest, hostile input. Anything but a
  /// readable version-1 run manifest is an error located at the file.
  static func loadWeights(_ path: String) throws(DiagnosticError) -> RunManifest {
    let data: Data?
    do {
      data = try AtomicFile.read(path, limit: RunManifest.readLimit)
    } catch {
      throw DiagnosticError(error)
    }
    guard let data else {
      throw DiagnosticError(.error("--shard-weights: no such file", file: path))
    }
    guard let manifest = RunManifest.decode(data) else {
      throw DiagnosticError(
        .error(
          "--shard-weights: not a run manifest (the manifest.json of a previous run)", file: path))
    }
    return manifest
  }

  /// What this shard leaves for `merge` (see `ShardManifest`).
  func shardManifest(
    _ part: ShardPart, report: BatchReport, inputs: PlanInputs, saved: [FontFamily],
    fingerprints: FontFingerprints
  ) throws -> ShardManifest {
    let job = resolved.job
    let text = String(decoding: job.bytes ?? [], as: UTF8.self)
    var drawnWith: [FontFamily] = inputs.labelFamily.map { [$0] } ?? []
    let mine = Set(part.families)
    for f in inputs.families where mine.contains(f.name) {
      drawnWith.append(f)
      drawnWith += inputs.partners[f.name] ?? []
    }
    for p in inputs.pairings where mine.contains(part.unit(of: p)) {
      drawnWith += [p.heading, p.body]
    }
    var fonts: [String: String] = [:]
    for f in drawnWith where fonts[f.name] == nil { fonts[f.name] = fingerprints.family(f) }
    return ShardManifest(
      shard: part.spec.index, shards: part.spec.total, tool: FontiVersion.tool,
      job: .init(
        path: job.path ?? JobDecoder.standardInputName, directory: job.directory, text: text,
        fingerprint: SHA256.hex(Array(text.utf8))),
      sourceDateEpoch: Timestamp.sourceDateEpoch().map { Int($0.timeIntervalSince1970) },
      selection: resolved.families.map(\.name), saved: saved.map(\.name), fonts: fonts,
      weights: part.weightSource.rawValue, partition: part.partition,
      families: report.manifest.families,
      pairings: report.manifest.pairings)
  }
}

/// A request that cannot be carried out as asked (`run --only` patterns that match none of the
/// job's families): a usage error, nothing was done.
public struct RequestError: Error, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// The output folder's previous manifest, as a run reads it. A forced run draws every family
/// again and needs none of its proofs (most of each entry): it reads it without them. Any other
/// run reads it whole, in one pass, expecting to keep most entries (an unchanged re-run keeps
/// them all); when its proofs cannot be read (a wrong type), without them, and keeps its bytes
/// for the plan to read back what it can for the entries it keeps (`readPreviousProofs`).
struct PreviousManifest: Sendable {
  /// The manifest's bytes, kept only when its proofs could not be read.
  var bytes: [UInt8]?
  var manifest: RunManifest?
  /// The file's size and time just before it was read (nil: there was none).
  var state: FileState?
  /// What `FileStamp.state` said of each output file it lists (by path in the folder; nil:
  /// none, or not a regular file), when it was read on a thread of its own, so that planning,
  /// on the run's main thread, need not (`verify`).
  var outputs: [String: FileState?] = [:]

  /// Whether `manifest` was read with its proofs (its bytes are kept only when they were not).
  var hasProofs: Bool { bytes == nil && manifest != nil }

  static func read(folder: String, force: Bool) -> PreviousManifest {
    let path = folder + "/" + OutputLayout.runManifest
    let state = FileStamp.state(path)
    let bytes = RunManifest.readBytes(path)
    if !force, let whole = bytes.flatMap({ RunManifest.decode($0) }) {
      return PreviousManifest(bytes: nil, manifest: whole, state: state)
    }
    return PreviousManifest(
      bytes: bytes, manifest: bytes.flatMap { RunManifest.decode($0, proofs: false) },
      state: state)
  }

  /// Looks at every output file the manifest lists (`outputs`), whatever its path: `lstat`
  /// opens nothing, and planning consults a state only for a path it has checked itself (an
  /// output it makes, or an own output path).
  mutating func lookAtOutputs(in folder: String) {
    for (file, _) in manifest?.outputs ?? [] {
      let path = folder + "/" + file
      outputs[path] = FileStamp.state(path)
    }
  }

  /// `FileStamp.verify`, with the state found as the manifest was read when there is one.
  func verify(_ path: String, _ record: OutputRecord) -> FileState? {
    FileStamp.verify(path, record, state: outputs[path] ?? FileStamp.state(path))
  }
}
