import Foundation
import FontiCore

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
      job is invalid and nothing was rendered; 130/143: interrupted.
      """,
    maxPositionals: 1,
    options: [
      .value("-o", "--output", as: "DIR", help: "override the job's output folder"),
      .value("-j", "--jobs", as: "N", help: "parallel worker processes (default: number of cores)"),
      .value(
        "--only", as: "PATTERN",
        help: "re-render only matching families (glob, case-insensitive); the rest stays listed",
        repeatable: true),
      .flag("--force", help: "re-render even what is up to date"),
      .flag("--dry-run", help: "print what would be rendered; write nothing"),
      .flag("--strict", help: "warnings (e.g. missing glyphs) fail the run (exit 1)"),
      .flag("--json", help: "machine-readable run summary on stdout"),
      .flag("-q", "--quiet", help: "no progress and no warnings; errors only"),
      .flag("-v", "--verbose", help: "a line per file written"),
    ],
    run: { invocation, console in try RunCommand(invocation: invocation, console: console).run() })
}

/// `fonti-batch run`: job → fonts → plan → workers → manifest.
struct RunCommand {
  let invocation: Invocation
  let console: Console

  func run() throws -> ExitCode {
    if invocation.has("--quiet") && invocation.has("--verbose") {
      throw UsageError(message: "--quiet and --verbose contradict each other", command: invocation.command)
    }
    console.quiet = invocation.has("--quiet")
    console.verbose = invocation.has("--verbose")
    console.warnAboutSourceDateEpoch()
    let jobs = Int(
      try invocation.number(
        "--jobs", default: Double(ProcessInfo.processInfo.activeProcessorCount), range: 1...64,
        integer: true))
    let jobPath = invocation.positionals.first ?? "specimens.yaml"

    if let output = invocation.value("--output"), output.isEmpty {
      throw UsageError(message: "--output is empty", command: invocation.command)
    }
    let resolved = try ResolvedJob.load(
      path: jobPath, output: invocation.value("--output"), waiting: console.notice)
    let job = resolved.job
    console.report(resolved.warnings)

    // --only restricts what is drawn again; the plan still covers every output of the job.
    let only = invocation.all("--only").map(FamilyPattern.init)
    if !only.isEmpty
      && !resolved.jobFamilies.contains(where: { f in only.contains { $0.matches(f.name) } })
    {
      throw UsageError(
        message: "--only \(only.map { "'\($0.text)'" }.joined(separator: ", ")) matches none of the job's families",
        command: invocation.command)
    }
    let catalog = resolved.catalog
    let dryRun = invocation.has("--dry-run")

    // Favourites: the job hearts `favourites.save`; the manifest gives hearts and order. From
    // here SIGINT and SIGTERM are handled: a wait for the favourites lock ends at once.
    Signals.install()
    let store = FavouritesStore(job: job, waiting: Signals.lockWaiting(console))
    let toHeart = job.save.compactMap { catalog.family(named: $0.value) }
    var favourites = try store.load(for: job)
    if !toHeart.isEmpty {
      if dryRun {
        FavouritesStore.heart(&favourites, toHeart, specimens: [:], now: Timestamp.now())
      } else {
        favourites = try store.heart(toHeart)
      }
    }
    if Signals.interrupted { return Signals.exitCode }
    let saved = favourites.saved.compactMap { entry -> FontFamily? in
      guard let f = catalog.family(named: entry.family), f.isRenderable else { return nil }
      return f
    }

    let inputs = resolved.planInputs(saved: saved, creationDate: Timestamp.sourceDateEpoch())
    let previous = RunManifest.load(job.output + "/" + BatchRunner.manifestName)
    let force = invocation.has("--force")
    let plan = BatchPlan.make(
      job: job, output: job.output, inputs: inputs, previous: previous, force: force, only: only)

    if dryRun { return printPlan(plan) }

    do {
      try FileSystem.createFolder(job.output)
    }
    let lock = try OutputLock(folder: job.output)
    defer { withExtendedLifetime(lock) {} }

    var options = BatchOptions(
      jobs: jobs,
      worker: WorkerPool.Launch(
        executable: Executable.path, arguments: [Executable.workerCommand],
        setup: WorkerSetup(customFonts: resolved.environment.customFiles)))
    options.force = force
    options.strict = invocation.has("--strict")
    let progress = ProgressLine(console: console)
    let report = try BatchRunner.run(
      plan, job: job, options: options,
      jobWarnings: resolved.warnings.filter { $0.severity == .warning }.count,
      progress: { progress.update($0) },
      written: { event in
        guard console.verbose else { return }
        progress.finish()
        switch event {
        case .written(let file): console.err("wrote   \(Sanitize.terminal(file))\n")
        case .removed(let file): console.err("removed \(Sanitize.terminal(file))\n")
        }
      },
      interrupted: { Signals.interrupted })
    progress.finish()

    // Record this run's specimen paths on the saved families.
    if !report.interrupted && !saved.isEmpty {
      var paths: [String: String] = [:]
      for f in report.manifest.families { if let file = f.files.first { paths[f.family] = file.path } }
      _ = try? store.heart([], specimens: paths)
    }

    reportDiagnostics(report.diagnostics)
    if var error = report.manifestError {
      // Rendering went through: exit 1, not 2 ("nothing was rendered"), naming what was.
      let files = report.written
      error.hint =
        files.isEmpty
        ? "no other file was written"
        : "\(files.count) file\(files.count == 1 ? " was" : "s were") written that no "
          + "manifest lists: " + files.map(Sanitize.terminal).joined(separator: ", ")
      console.report(error)
    }
    if invocation.has("--json") {
      console.out(String(decoding: try report.manifest.encoded(), as: UTF8.self))
    }
    summarise(report, plan: plan)
    if report.interrupted || Signals.interrupted { return Signals.exitCode }
    if report.failed > 0 || report.manifestError != nil { return .partial }
    if options.strict && report.warnings > 0 { return .partial }
    return .success
  }

  /// Errors in full. Missing-glyph warnings are expected by the hundred on a machine with many
  /// script-specific fonts: the first few are shown and the rest counted (all are in
  /// manifest.json; -v prints every one).
  func reportDiagnostics(_ diagnostics: [Diagnostic]) {
    let shown = 5
    var missing = 0
    for d in diagnostics {
      if d.severity == .warning && !console.verbose && d.message.contains(" glyph") {
        missing += 1
        if missing > shown { continue }
      }
      console.report(d)
    }
    if missing > shown {
      console.report(
        .warning(
          "\(missing - shown) more warnings of missing glyphs (all are listed in manifest.json; "
            + "-v prints each)"))
    }
  }

  func summarise(_ report: BatchReport, plan: BatchPlan) {
    guard !console.quiet else { return }
    var line =
      report.summary + String(format: " in %.1fs", report.manifest.durationSeconds)
      + " → \(Sanitize.terminal(plan.output))/"
    if report.interrupted { line = "interrupted: " + line }
    console.err(line + "\n")
  }

  func printPlan(_ plan: BatchPlan) -> ExitCode {
    console.report(plan.diagnostics)
    func label(_ action: BatchPlan.Action) -> String {
      switch action {
      case .render: return "render"
      case .upToDate: return "up to date"
      case .keep: return "keep"
      }
    }
    var rows: [(String, String)] = []
    for s in plan.catalogues { rows.append((label(s.action), s.file)) }
    for s in plan.specimens { rows.append((label(s.action), s.file)) }
    for s in plan.pairings { rows.append((label(s.action), s.file)) }
    for file in plan.obsolete { rows.append(("remove", file)) }
    let toRender = rows.filter { $0.0 == "render" }.count
    let toRemove = plan.obsolete.count
    let pending = toRender + toRemove
    let kept = rows.filter { $0.0 == "keep" }.count
    if invocation.has("--json") {
      let entries = rows.map { ["action": $0.0, "file": $0.1] }
      if let data = try? JSONSerialization.data(
        withJSONObject: ["output": plan.output, "pending": pending, "outputs": entries],
        options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
      {
        console.out(String(decoding: data, as: UTF8.self) + "\n")
      }
    } else {
      for (action, file) in rows { console.line("\(action.padding(toLength: 10, withPad: " ", startingAt: 0))  \(Sanitize.terminal(file))") }
    }
    let upToDate = rows.count - pending - kept
    let keptNote = kept == 0 ? "" : ", \(kept) left as \(kept == 1 ? "it is" : "they are") (--only)"
    let folder = Sanitize.terminal(plan.output) + "/"
    console.err(
      pending == 0 && kept == 0
        ? "everything is up to date (\(upToDate) file\(upToDate == 1 ? "" : "s") in "
          + "\(folder))\n"
        : "\(toRender) to render, "
          + (toRemove == 0 ? "" : "\(toRemove) to remove (no longer in the job), ")
          + "\(upToDate) up to date\(keptNote) (dry run: nothing written)\n")
    return .success
  }
}

/// This executable, for starting workers.
enum Executable {
  static let workerCommand = "__worker"

  static var path: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return String(cString: buffer) }
    return CommandLine.arguments[0]
  }
}
