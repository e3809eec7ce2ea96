import FontiEngine
import FontiModel
import FontiSupport
import Foundation

extension JobRun.Request {
  /// The job as reports name it: the file as given (`<stdin>` for `-`).
  var jobDisplayName: String {
    switch source {
    case .file(let path): return JobDecoder.displayName(path)
    case .resolved(let resolved): return resolved.job.path ?? "job"
    }
  }
}

/// `--report FORMAT=FILE` of `run`, `check`, `merge` and `diff`: the paths checked before the
/// command does anything (a usage error, exit 2), the reports written at the end, the
/// Markdown summary appended to `$GITHUB_STEP_SUMMARY`. A report that cannot be written makes
/// a passing command exit 1; otherwise reports never change the exit code.
struct CIReports {
  let targets: [ReportTarget]
  let console: Console
  let started = Date()

  /// The `--report` values of `invocation`, parsed and checked.
  init(_ invocation: Invocation, console: Console) throws {
    var targets: [ReportTarget] = []
    for value in invocation.all("--report") {
      switch ReportTarget.parse(value) {
      case .success(let target): targets.append(target)
      case .failure(let problem):
        throw UsageError(message: problem.message, command: invocation.command)
      }
    }
    if let problem = ReportTarget.problems(targets).first {
      throw UsageError(message: problem.message, command: invocation.command)
    }
    self.targets = targets
    self.console = console
    // The annotations left out are in the fullest report asked for.
    for format in [ReportTarget.Format.sarif, .junit, .json, .markdown] {
      if let target = targets.first(where: { $0.format == format }) {
        console.detailsFile = target.path
        break
      }
    }
  }

  /// The step summary's file, when GitHub Actions gives one.
  static var stepSummary: String? {
    guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty
    else { return nil }
    return path
  }

  /// Writes every report and the step summary; the exit code, 1 instead of 0 when a report
  /// could not be written.
  func finish(_ report: CIReport, code: ExitCode) -> ExitCode {
    var report = report
    if console.detailsFile == nil { console.detailsFile = report.detailsFile }
    var code = code
    report.finished = Date()
    let errors = report.write(to: targets)
    for error in errors { console.report(error) }
    if !errors.isEmpty && code == .success { code = .partial }
    if let summary = CIReports.stepSummary, let problem = report.appendSummary(to: summary) {
      console.report(Diagnostic(.warning, problem.message))
    }
    return code
  }

  /// The current working folder, that reports show paths relative to.
  static var folder: String { FileManager.default.currentDirectoryPath }
}
