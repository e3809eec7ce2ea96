import FontiCore

/// The process exit codes of SPEC.md, in one place.
enum ExitCode: Int32 {
  /// Everything asked for was written.
  case success = 0
  /// The run went through but some families failed (or warned, with --strict).
  case partial = 1
  /// Usage or validation error: nothing was rendered.
  case usage = 2
  /// Interrupted by SIGINT.
  case interrupted = 130
  /// Interrupted by SIGTERM.
  case terminated = 143
}
