import FontiCore

/// `fonti-batch check [JOB]`: validates the job file and reports every problem at once.
enum CheckCommand {
  static let spec = CommandSpec(
    words: ["check"], arguments: "[JOB]",
    summary: "validate the job file and every font it names; render nothing",
    details: """
      JOB defaults to ./specimens.yaml. Every problem is reported at once, as
      FILE:LINE:COLUMN: message. Exit status 0 when the job is valid, 2 when it is not.
      """,
    maxPositionals: 1,
    options: [.flag("-q", "--quiet", help: "print nothing when the job is valid, and no warnings")],
    run: { invocation, console in
      console.quiet = invocation.has("--quiet")
      return run(path: invocation.positionals.first ?? "specimens.yaml", console: console)
    })

  static func run(path: String, console: Console) -> ExitCode {
    let job: Job
    var warnings: [Diagnostic]
    do {
      (job, warnings) = try JobDecoder.load(path: path)
    } catch {
      console.report(error.diagnostics)
      let errors = error.diagnostics.filter(\.isError).count
      if errors > 1 { console.err("\(path): \(errors) errors\n") }
      return .usage
    }
    warnings += validateAgainstFonts(job)
    console.report(warnings)
    if warnings.contains(where: \.isError) { return .usage }
    let count = warnings.count
    console.info("\(path): OK" + (count == 0 ? "" : " (\(count) warning\(count == 1 ? "" : "s"))"))
    return .success
  }

  /// Checks the job's family names, `fonts:` files and selection against the installed fonts.
  ///
  /// Not written yet: the font catalogue lives on another branch and is wired in here when the
  /// branches merge. Returns the errors and warnings it finds, each located in the job file.
  static func validateAgainstFonts(_ job: Job) -> [Diagnostic] {
    []
  }
}
