import FontiDiff
import FontiEngine
import FontiFonts
import FontiSupport
import FontiText

/// The process exit codes of `docs/exit-codes.md`, and the one table that turns every error and every
/// outcome into one of them: how an error is printed and what it exits with is decided here
/// only, for `FontiBatch`, every command and the worker.
enum ExitCode: Int32 {
  /// Everything asked for was written.
  case success = 0
  /// The run went through but some outputs failed (or warned, with --strict), or the run's
  /// manifest or the favourites could not be written at the end: the rest was written.
  case partial = 1
  /// Usage or validation error: nothing was rendered and nothing changed.
  case usage = 2
  /// Interrupted by SIGINT.
  case interrupted = 130
  /// Interrupted by SIGTERM.
  case terminated = 143
}

// MARK: Errors

extension ExitCode {
  /// Prints `error` as its kind is printed and returns its exit code. `command` is the command
  /// that was running, for the usage line of a usage error.
  ///
  /// | error | printed | exit |
  /// |---|---|---|
  /// | `UsageError`, `RequestError` | `error: MESSAGE`, the usage line, "See 'fonti-batch C --help'." | 2 |
  /// | `DiagnosticError`, `Diagnostic` | each diagnostic, located, with snippet and hint | 2 |
  /// | `RenderError` (one output could not be drawn) | `error: MESSAGE` | 1 |
  /// | `Worker.Failure` (a worker cannot talk to its parent) | `error: MESSAGE` | 2 |
  /// | anything else | `error: DESCRIPTION` | 2 |
  ///
  /// After SIGINT or SIGTERM every error ends as the interruption (130 / 143): a wait the
  /// signal cut short (a lock, a FIFO) says so in its diagnostic, and nothing was changed.
  static func report(_ error: any Error, command: CommandSpec? = nil, console: Console)
    -> ExitCode
  {
    switch error {
    case let usage as UsageError:
      printUsage(usage.message, command: usage.command, console: console)
      return .usage
    case let request as RequestError:
      printUsage(request.message, command: command, console: console)
      return .usage
    case let error as DiagnosticError:
      console.report(error.diagnostics)
      return stopped(or: .usage)
    case let diagnostic as Diagnostic:
      console.report(diagnostic)
      return stopped(or: .usage)
    case let render as RenderError:
      console.error(render.message)
      return stopped(or: .partial)
    default:
      console.error("\(error)")
      return stopped(or: .usage)
    }
  }

  /// `code`, unless SIGINT or SIGTERM arrived: then the interruption's code.
  static func stopped(or code: ExitCode) -> ExitCode {
    Signals.interrupted ? Signals.exitCode : code
  }

  private static func printUsage(_ message: String, command: CommandSpec?, console: Console) {
    console.error(message)
    if let command {
      console.err("Usage: \(Usage.synopsis(command))\n")
      console.err("See 'fonti-batch \(command.name) --help'.\n")
    } else {
      console.err("See 'fonti-batch --help'.\n")
    }
  }
}

// MARK: Outcomes

extension ExitCode {
  /// A run: 0 when everything asked for was written; 1 when an output, the manifest or the
  /// favourites failed, or (with `--strict`) anything warned; 130 / 143 when interrupted.
  static func of(_ outcome: JobRun.Outcome) -> ExitCode {
    switch outcome {
    case .planned: return .success
    case .interrupted: return Signals.exitCode
    case .ran(let report):
      if report.interrupted || Signals.interrupted { return Signals.exitCode }
      return report.isComplete ? .success : .partial
    }
  }

  /// `diff`: 1 when a family failed, or with `--exit-code` when anything changed.
  static func of(_ report: DiffReport, failOnDifferences: Bool) -> ExitCode {
    if report.hasFailures { return .partial }
    return failOnDifferences && report.hasDifferences ? .partial : .success
  }

  /// `fonts import`: 1 when a file was refused (the others were still imported).
  static func of(_ imports: [FontLibrary.ImportOutcome]) -> ExitCode {
    let refused = imports.contains {
      if case .refused = $0 { return true } else { return false }
    }
    return refused ? .partial : .success
  }
}
