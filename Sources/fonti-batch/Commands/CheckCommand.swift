import FontiCore

/// `fonti-batch check [JOB]`: validates the job file and reports every problem at once.
enum CheckCommand {
  static let spec = CommandSpec(
    words: ["check"], arguments: "[JOB]",
    summary: "validate the job file and every font it names; render nothing",
    details: """
      JOB defaults to ./specimens.yaml; '-' reads the job from standard input (its relative
      paths are then relative to the current folder). Every problem is reported at once, on
      stderr, as FILE:LINE:COLUMN: message; the verdict ('JOB: OK, N families selected') goes
      to stdout. Exit status 0 when the job is valid, 2 when it is not.
      """,
    maxPositionals: 1,
    options: [.flag("-q", "--quiet", help: "print nothing when the job is valid, and no warnings")],
    run: { invocation, console in
      console.quiet = invocation.has("--quiet")
      return run(path: invocation.positionals.first ?? "specimens.yaml", console: console)
    })

  static func run(path: String, console: Console) -> ExitCode {
    let name = Sanitize.terminal(JobDecoder.displayName(path))
    do {
      var request = JobRun.Request(job: path)
      request.readsPreviousEarly = false
      let job = try JobRun(request, waiting: console.notice)
      // A run reads the favourites manifest before it renders: a damaged one fails it.
      try job.check()
      let warnings = job.warnings
      console.report(warnings)
      let count = warnings.count
      let families = job.resolved.families.count
      if !console.quiet {
        console.line(
          "\(name): OK, \(families) famil\(families == 1 ? "y" : "ies") selected"
            + (count == 0 ? "" : " (\(count) warning\(count == 1 ? "" : "s"))"))
      }
      return .success
    } catch {
      let code = ExitCode.report(error, console: console)
      let errors = (error as? DiagnosticError)?.diagnostics.filter(\.isError).count ?? 1
      if errors > 1 { console.err("\(name): \(errors) errors\n") }
      return code
    }
  }
}
