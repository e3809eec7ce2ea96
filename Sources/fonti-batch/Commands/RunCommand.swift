import FontiEngine
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Commands {
  static let run = CommandSpec(
    words: ["run"], arguments: "[JOB]",
    summary: "render everything the job asks for (JOB defaults to ./specimens.yaml)",
    details: """
      Renders one PNG per selected family into OUTPUT/specimens/, a pairing sheet per pairing
      into OUTPUT/pairings/, the job's PDF catalogues, and OUTPUT/manifest.json last. Files
      that are up to date (same inputs, and the file on disk as manifest.json recorded it) are
      skipped; --force draws them again. Outputs the job no longer makes are removed. JOB '-'
      reads the job from standard input (its relative paths are then relative to the current
      folder). Exit 0: all written; 1: some outputs failed (or warned, with --strict); 2: the
      job is invalid and nothing was rendered; 130/143: interrupted. With --shard K/N only
      part K of N is drawn (its families and the pairing sheets they head, no catalogue) with
      OUTPUT/shard.json for 'fonti-batch merge'; --shard auto reads CI_NODE_INDEX and
      CI_NODE_TOTAL (GitLab, 1-based) or JOB_COMPLETION_INDEX (Kubernetes, 0-based) with
      FONTI_SHARD_TOTAL.
      """,
    maxPositionals: 1,
    options: [
      .value("-o", "--output", as: "DIR", help: "override the job's output folder"),
      .value("-j", "--jobs", as: "N", help: "parallel worker processes (default: number of cores)"),
      .value(
        "--only", as: "PATTERN",
        help: "re-render only matching families (glob, case-insensitive); the rest stays listed",
        repeatable: true),
      .value(
        "--shard", as: "K/N",
        help: "draw only part K of N (1-based) for a CI machine; 'auto' reads the CI's variables"),
      .value(
        "--shard-weights", as: "MANIFEST",
        help: "balance the shards by the timings of a previous run's manifest.json"),
      .flag("--force", help: "re-render even what is up to date"),
      .flag("--dry-run", help: "print what would be rendered; write nothing"),
      .strict(failing: "the run"),
      .flag("--json", help: "machine-readable run summary on stdout"),
      .report,
      .flag("-q", "--quiet", help: "no progress and no warnings; errors only"),
      .flag("-v", "--verbose", help: "a line per file written, left the same or removed"),
    ],
    run: { invocation, console in try RunCommand(invocation: invocation, console: console).run() })
}

/// `fonti-batch run`: the flags become a `JobRun.Request`; `JobRun` does the rest; this
/// prints what it tells.
struct RunCommand {
  let invocation: Invocation
  let console: Console

  func run() throws -> ExitCode {
    if invocation.has("--quiet") && invocation.has("--verbose") {
      throw UsageError(
        message: "--quiet and --verbose contradict each other", command: invocation.command)
    }
    console.quiet = invocation.has("--quiet")
    console.verbose = invocation.has("--verbose")
    console.warnAboutSourceDateEpoch()
    if let output = invocation.value("--output"), output.isEmpty {
      throw UsageError(message: "--output is empty", command: invocation.command)
    }
    var request = JobRun.Request(job: invocation.positionals.first ?? "specimens.yaml")
    request.output = invocation.value("--output")
    request.jobs = try invocation.jobs()
    request.only = invocation.all("--only").map(FamilyPattern.init)
    request.force = invocation.has("--force")
    request.dryRun = invocation.has("--dry-run")
    request.strict = try invocation.strict()
    request.shard = try shard()
    if let weights = invocation.value("--shard-weights") {
      guard request.shard != nil else {
        throw UsageError(
          message: "--shard-weights balances shards: it needs --shard K/N",
          command: invocation.command)
      }
      request.shardWeights = weights
    }

    let reports = try CIReports(invocation, console: console)
    if request.dryRun && !reports.targets.isEmpty {
      throw UsageError(
        message: "--report writes files, --dry-run writes nothing: use one or the other",
        command: invocation.command)
    }
    return try RunCommand.run(request, command: .run, reports: reports, invocation: invocation)
  }

  /// Runs `request` for `run` or `merge`: prints what it tells, writes the reports.
  static func run(
    _ request: JobRun.Request, command: CIReport.Command, reports: CIReports,
    invocation: Invocation
  ) throws -> ExitCode {
    let console = reports.console
    let printer = RunCommand(invocation: invocation, console: console)
    let outcome: JobRun.Outcome
    let job: Job
    do {
      (outcome, job) = try RunCommand.drive(request, console: console)
    } catch let error as DiagnosticError
      where !reports.targets.isEmpty || CIReports.stepSummary != nil
    {
      // The job (or the shards) not valid: exit 2, and the reports say why.
      let code = ExitCode.report(error, console: console)
      let path = request.jobDisplayName
      let report = CIReport.check(
        job: CIReport.JobFile(path: path, familiesMark: nil), exitCode: code.rawValue,
        families: nil, diagnostics: error.diagnostics, strict: request.strict, failing: nil,
        json: CheckCommand.json(
          job: path, ok: false, families: nil, diagnostics: error.diagnostics, failing: nil),
        started: reports.started, command: command)
      return reports.finish(report, code: code)
    }
    switch outcome {
    case .planned(let plan): printer.printPlan(plan)
    case .ran(let report): printer.print(report, shard: request.shard)
    case .interrupted: break
    }
    let code = ExitCode.of(outcome)
    guard case .ran(let report) = outcome, !report.interrupted,
      !reports.targets.isEmpty
        || CIReports.stepSummary != nil
    else { return code }
    let ci = report.ciReport(
      command: command, exitCode: code.rawValue,
      job: CIReport.JobFile(
        path: job.path.map { CIReport.shown($0, relativeTo: CIReports.folder) }
          ?? request.jobDisplayName, familiesMark: job.familiesMark),
      catalogueMarks: Dictionary(
        job.catalogues.compactMap { c in c.file.mark.map { (c.file.value, $0) } },
        uniquingKeysWith: { a, _ in a }),
      json: (try? report.manifest.encoded()).map(Array.init) ?? [],
      started: reports.started, folder: CIReports.folder)
    return reports.finish(ci, code: code)
  }

  /// `--shard K/N` or `--shard auto`.
  func shard() throws -> ShardSpec? {
    guard let text = invocation.value("--shard") else { return nil }
    if text == "auto" {
      return try ShardSpec.auto(environment: ProcessInfo.processInfo.environment)
    }
    guard let spec = ShardSpec.parse(text) else {
      throw UsageError(
        message: "--shard '\(Sanitize.terminal(text))' is not K/N with 1 ≤ K ≤ N ≤ "
          + "\(ShardSpec.maximumTotal) (e.g. 2/4), nor 'auto'", command: invocation.command)
    }
    return spec
  }

  /// The report of a run (`shard`: of that part of the job), or of a merge.
  /// Runs `request` as `run` and `merge` do: the job's warnings, then signals handled, the
  /// progress line, and (with -v) a line per file written, drawn the same (left as it was) or
  /// removed.
  static func drive(_ request: JobRun.Request, console: Console) throws -> (JobRun.Outcome, Job) {
    let job = try JobRun(request, waiting: console.notice)
    WarningReport(console: console).print(job.warnings)
    // From here SIGINT and SIGTERM are handled: a wait for the favourites lock ends at once,
    // and a run stops its workers and writes an honest manifest.
    Signals.install()
    let progress = ProgressLine(console: console)
    let outcome = try job.run(
      waiting: Signals.lockWaiting(console), progress: { progress.update($0) },
      written: { event in
        guard console.verbose else { return }
        progress.finish()
        switch event {
        case .written(let file): console.err("wrote   \(Sanitize.terminal(file))\n")
        case .unchanged(let file): console.err("same    \(Sanitize.terminal(file))\n")
        case .removed(let file): console.err("removed \(Sanitize.terminal(file))\n")
        }
      },
      interrupted: { Signals.interrupted })
    progress.finish()
    return (outcome, job.resolved.job)
  }

  func print(_ report: BatchReport, shard: ShardSpec? = nil) {
    let warnings = WarningReport(console: console)
    warnings.print(report.diagnostics)
    defer { warnings.failing(report.failingLine) }
    for error in [report.manifestError, report.favouritesError, report.galleryError]
      .compactMap({ $0 })
    {
      console.report(error)
    }
    if invocation.has("--json"), let data = try? report.manifest.encoded() {
      console.out(String(decoding: data, as: UTF8.self))
    }
    guard !console.quiet else { return }
    let line =
      (shard.map { "shard \($0): " } ?? "") + report.summary
      + String(format: " in %.1fs", report.manifest.durationSeconds)
      + " → \(Sanitize.terminal(report.output))/"
    console.err((report.interrupted ? "interrupted: " : "") + line + "\n")
  }

  /// `--dry-run`: each output and what a run would do with it; the tally on stderr.
  func printPlan(_ plan: BatchPlan) {
    console.report(plan.diagnostics)
    let listing = plan.listing
    if invocation.has("--json") {
      let entries = listing.rows.map { ["action": $0.action, "file": $0.file] }
      if let data = try? JSONSerialization.data(
        withJSONObject: ["output": plan.output, "pending": listing.pending, "outputs": entries],
        options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      {
        console.out(String(decoding: data, as: UTF8.self) + "\n")
      }
    } else {
      for row in listing.rows {
        let action = row.action.padding(toLength: 10, withPad: " ", startingAt: 0)
        console.line("\(action)  \(Sanitize.terminal(row.file))")
      }
    }
    let kept = listing.kept
    let keptNote = kept == 0 ? "" : ", \(kept) left as \(kept == 1 ? "it is" : "they are") (--only)"
    let folder = Sanitize.terminal(plan.output) + "/"
    let upToDate = listing.upToDate
    console.err(
      listing.pending == 0 && kept == 0
        ? "everything is up to date (\(upToDate) file\(upToDate == 1 ? "" : "s") in \(folder))\n"
        : "\(listing.toRender) to render, "
          + (listing.toRemove == 0 ? "" : "\(listing.toRemove) to remove (no longer in the job), ")
          + "\(upToDate) up to date\(keptNote) (dry run: nothing written)\n")
  }
}
