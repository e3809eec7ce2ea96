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
      that are up to date (same inputs as recorded in manifest.json) are skipped; --force
      draws them again. JOB '-' reads the job from standard input (its relative paths are then
      relative to the current folder). Exit 0: all written; 1: some families failed (or
      warned, with --strict); 2: the job is invalid and nothing was rendered; 130/143:
      interrupted.
      """,
    maxPositionals: 1,
    options: [
      .value("-o", "--output", as: "DIR", help: "override the job's output folder"),
      .value("-j", "--jobs", as: "N", help: "parallel worker processes (default: number of cores)"),
      .value(
        "--only", as: "PATTERN", help: "only families matching (glob, case-insensitive)",
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

    var families = resolved.families
    let only = invocation.all("--only").map(FamilyPattern.init)
    if !only.isEmpty {
      families = families.filter { f in only.contains { $0.matches(f.name) } }
      if families.isEmpty {
        throw UsageError(
          message: "--only \(only.map { "'\($0.text)'" }.joined(separator: ", ")) matches none of the job's families",
          command: invocation.command)
      }
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

    // Pairings: strips with installed partners; sheets for pairings touching the selection.
    let map = resolved.pairingMap
    var partners: [String: [FontFamily]] = [:]
    for f in families {
      let names = map.strip(for: f.name, catalog: catalog)
      if !names.isEmpty { partners[f.name] = names.compactMap { catalog.family(named: $0) } }
    }
    let pairings = PairingMap.pairingsToRender(
      for: job, catalog: catalog, selected: families.map(\.name)
    ).compactMap { p -> (heading: FontFamily, body: FontFamily, reason: String)? in
      guard let h = catalog.family(named: p.heading), let b = catalog.family(named: p.body) else {
        return nil
      }
      return (h, b, p.reason)
    }
    let onlyNames = Set(families.map(\.name))
    let resolvedSelection = resolved.selecting(families)
    let catalogueFamilies = job.catalogues.map { spec in
      resolvedSelection.families(for: spec, saved: saved).filter {
        spec.families == .saved || onlyNames.contains($0.name)
      }
    }
    let inputs = PlanInputs(
      families: families, saved: saved, partners: partners, pairings: pairings,
      catalogueFamilies: catalogueFamilies,
      labelFamily: SpecimenRenderer.labelFamily(in: catalog),
      creationDate: Timestamp.sourceDateEpoch())

    let previous = RunManifest.load(job.output + "/" + BatchRunner.manifestName)
    let force = invocation.has("--force")
    let plan = BatchPlan.make(
      job: job, output: job.output, inputs: inputs, previous: previous, force: force)

    if dryRun { return printPlan(plan) }

    do {
      try AtomicFile.createFolder(job.output)
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
      plan, job: job, options: options, previous: previous,
      progress: { progress.update($0) }, interrupted: { Signals.interrupted })
    progress.finish()

    // Record this run's specimen paths on the saved families.
    if !report.interrupted && !saved.isEmpty {
      var paths: [String: String] = [:]
      for f in report.manifest.families { if let file = f.files.first { paths[f.family] = file.path } }
      _ = try? store.heart([], specimens: paths)
    }

    reportDiagnostics(report.diagnostics)
    if invocation.has("--json") {
      console.out(String(decoding: try report.manifest.encoded(), as: UTF8.self))
    }
    summarise(report, plan: plan)
    if report.interrupted || Signals.interrupted { return Signals.exitCode }
    if report.failed > 0 { return .partial }
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
          "\(missing - shown) more families lack glyphs of the sample text (all are listed in "
            + "manifest.json; -v prints each)"))
    }
  }

  func summarise(_ report: BatchReport, plan: BatchPlan) {
    guard !console.quiet else { return }
    let c = report.manifest.counts
    var parts = ["\(c.rendered) rendered", "\(c.skipped) up to date"]
    if c.failed > 0 { parts.append("\(c.failed) failed") }
    if c.warnings > 0 { parts.append("\(c.warnings) warning\(c.warnings == 1 ? "" : "s")") }
    let catalogues = report.manifest.catalogues.map { "\($0.file) (\($0.pages) pages)" }
    var line = "\(c.families) famil\(c.families == 1 ? "y" : "ies"): " + parts.joined(separator: ", ")
    if !report.manifest.pairings.isEmpty { line += "; \(report.manifest.pairings.count) pairing sheets" }
    if !catalogues.isEmpty { line += "; " + catalogues.joined(separator: ", ") }
    line +=
      String(format: " in %.1fs", report.manifest.durationSeconds)
      + " → \(Sanitize.terminal(plan.output))/"
    if report.interrupted { line = "interrupted: " + line }
    console.err(line + "\n")
  }

  func printPlan(_ plan: BatchPlan) -> ExitCode {
    var pending = 0
    var rows: [(String, String)] = []
    for s in plan.catalogues { rows.append((s.upToDate ? "up to date" : "render", s.file)) }
    for s in plan.specimens { rows.append((s.upToDate ? "up to date" : "render", s.file)) }
    for s in plan.pairings { rows.append((s.upToDate ? "up to date" : "render", s.file)) }
    pending = rows.filter { $0.0 == "render" }.count
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
    let upToDate = rows.count - pending
    console.err(
      pending == 0
        ? "everything is up to date (\(upToDate) files in \(Sanitize.terminal(plan.output))/)\n"
        : "\(pending) to render, \(upToDate) up to date (dry run: nothing written)\n")
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
