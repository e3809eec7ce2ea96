import FontiEngine
import FontiModel
import FontiSupport
import Foundation

/// `fonti-batch check [JOB]`: validates the job file and reports every problem at once.
enum CheckCommand {
  static let spec = CommandSpec(
    words: ["check"], arguments: "[JOB]",
    summary: "validate the job file and every font it names; render nothing",
    details: """
      JOB defaults to ./specimens.yaml; '-' reads the job from standard input (its relative
      paths are then relative to the current folder). Every problem is reported at once, on
      stderr, as FILE:LINE:COLUMN: message [kind]; the verdict ('JOB: OK, N families selected')
      goes to stdout. What can be known before drawing is checked: patterns, settings,
      coordinates, and which families lack characters of the sample text, with the kinds a run
      gives (docs/warnings.md). Exit status 0 when the job is valid, 1 when it is valid but
      --strict fails on its warnings, 2 when it is not valid.
      """,
    maxPositionals: 1,
    options: [
      .strict(failing: "the check"),
      .flag("--json", help: "the verdict and every warning, with its kind, as JSON on stdout"),
      .report,
      .flag("-q", "--quiet", help: "print nothing when the job is valid, and no warnings"),
      .flag("-v", "--verbose", help: "every warning, font facts included, one by one"),
    ],
    run: { invocation, console in
      if invocation.has("--quiet") && invocation.has("--verbose") {
        throw UsageError(
          message: "--quiet and --verbose contradict each other", command: invocation.command)
      }
      console.quiet = invocation.has("--quiet")
      console.verbose = invocation.has("--verbose")
      let strict = try invocation.strict()
      let reports = try CIReports(invocation, console: console)
      return run(
        path: invocation.positionals.first ?? "specimens.yaml", strict: strict,
        json: invocation.has("--json"), console: console, reports: reports)
    })

  static func run(
    path: String, strict: StrictPolicy? = nil, json: Bool = false, console: Console,
    reports: CIReports? = nil
  ) -> ExitCode {
    let name = Sanitize.terminal(JobDecoder.displayName(path))
    /// The reports, when asked for: `check`'s findings and verdict.
    func finish(
      _ code: ExitCode, families: Int?, diagnostics: [Diagnostic], failing: String?,
      familiesMark: Mark?
    ) -> ExitCode {
      guard let reports, !reports.targets.isEmpty || CIReports.stepSummary != nil else {
        return code
      }
      let report = CIReport.check(
        job: CIReport.JobFile(path: name, familiesMark: familiesMark), exitCode: code.rawValue,
        families: families, diagnostics: diagnostics, strict: strict, failing: failing,
        json: CheckCommand.json(
          job: name, ok: code == .success, families: families, diagnostics: diagnostics,
          failing: failing), started: reports.started)
      return reports.finish(report, code: code)
    }
    do {
      var request = JobRun.Request(job: path)
      request.readsPreviousEarly = false
      let job = try JobRun(request, waiting: console.notice)
      // A run reads the favourites manifest before it renders: a damaged one fails it.
      try job.check()
      let warnings =
        job.warnings
        + SampleCoverageCheck.warnings(
          text: job.resolved.job.defaults.text,
          language: job.resolved.job.defaults.sample.language, families: job.resolved.families,
          file: job.resolved.job.path)
      let report = WarningReport(console: console, keptIn: nil)
      report.print(warnings)
      let count = warnings.filter { $0.severity == .warning }.count
      let families = job.resolved.families.count
      let failing = strict?.failingLine(warnings)
      if json {
        printJSON(
          job: name, ok: failing == nil, families: families, diagnostics: warnings,
          failing: failing, console: console)
      } else if !console.quiet {
        console.line(
          "\(name): OK, \(families) famil\(families == 1 ? "y" : "ies") selected"
            + (count == 0 ? "" : " (\(count) warning\(count == 1 ? "" : "s"))"))
      }
      report.failing(failing)
      return finish(
        failing == nil ? .success : .partial, families: families, diagnostics: warnings,
        failing: failing, familiesMark: job.resolved.job.familiesMark)
    } catch {
      let code = ExitCode.report(error, console: console)
      let diagnostics = (error as? DiagnosticError)?.diagnostics ?? []
      let errors = diagnostics.filter(\.isError).count
      if errors > 1 { console.err("\(name): \(errors) errors\n") }
      if json {
        printJSON(
          job: name, ok: false, families: nil, diagnostics: diagnostics, failing: nil,
          console: console)
      }
      return finish(
        code, families: nil, diagnostics: diagnostics, failing: nil, familiesMark: nil)
    }
  }

  /// `{ "job", "ok", "families", "warnings": [{ "kind", "message", "file", "line", "column" }],
  /// "errors": [...], "failing" }`.
  static func printJSON(
    job: String, ok: Bool, families: Int?, diagnostics: [Diagnostic], failing: String?,
    console: Console
  ) {
    let bytes = json(
      job: job, ok: ok, families: families, diagnostics: diagnostics, failing: failing)
    if !bytes.isEmpty { console.out(String(decoding: bytes, as: UTF8.self)) }
  }

  /// What `check --json` prints, and its `--report json=FILE` holds.
  static func json(
    job: String, ok: Bool, families: Int?, diagnostics: [Diagnostic], failing: String?
  ) -> [UInt8] {
    func entry(_ d: Diagnostic) -> [String: Any] {
      var e: [String: Any] = ["message": d.message]
      if d.severity == .warning { e["kind"] = d.kind.rawValue }
      if let file = d.file { e["file"] = file }
      if let mark = d.mark {
        e["line"] = mark.line
        e["column"] = mark.column
      }
      return e
    }
    var object: [String: Any] = [
      "job": job, "ok": ok,
      "warnings": diagnostics.filter { $0.severity == .warning }.map(entry),
      "errors": diagnostics.filter(\.isError).map(entry),
    ]
    if let families { object["families"] = families }
    if let failing { object["failing"] = failing }
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return [] }
    return Array(data) + [0x0A]
  }
}
