import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where a command writes: results to stdout, diagnostics and progress to stderr.
///
/// Colour only on a terminal, never when `NO_COLOR` is set or `TERM` is `dumb`.
final class Console: @unchecked Sendable {
  let stdoutIsTerminal: Bool
  let stderrIsTerminal: Bool
  let colour: Bool
  let stdinIsTerminal: Bool
  var quiet = false
  var verbose = false
  /// Also print diagnostics as GitHub Actions workflow commands (`GITHUB_ACTIONS=true`), so
  /// that they show on the lines of a pull request.
  let annotations: Bool

  init() {
    stdoutIsTerminal = isatty(1) == 1
    stderrIsTerminal = isatty(2) == 1
    stdinIsTerminal = isatty(0) == 1
    let noColour = getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
    // A dumb terminal (Emacs' shell, some CI log viewers) shows escape codes as text.
    let dumb = getenv("TERM").map { String(cString: $0) == "dumb" } ?? false
    colour = stderrIsTerminal && !noColour && !dumb
    annotations = getenv("GITHUB_ACTIONS").map { String(cString: $0) == "true" } ?? false
  }

  /// Writes to stdout as is.
  func out(_ text: String) {
    write(1, text)
  }

  /// Writes a line to stdout.
  func line(_ text: String = "") {
    write(1, text + "\n")
  }

  /// Writes to stderr as is.
  func err(_ text: String) {
    write(2, text)
  }

  /// Prints a diagnostic to stderr in the `fonti-batch: error: FILE:LINE:COLUMN: message` form.
  func report(_ diagnostic: Diagnostic) {
    if diagnostic.severity == .warning && quiet { return }
    write(2, DiagnosticPrinter(colour: colour).format(diagnostic))
    if annotations { annotate(diagnostic) }
  }

  /// A warning with its kind after it ("… [missing-glyphs]"), as `run` and `check` print them.
  func report(_ diagnostic: Diagnostic, kind: WarningKind) {
    if quiet { return }
    var shown = diagnostic
    shown.message += " [\(kind.rawValue)]"
    write(2, DiagnosticPrinter(colour: colour).format(shown))
    if annotations { annotate(diagnostic, kind: kind) }
  }

  /// Why a command that went through exits non-zero (`--strict`): one line on stderr, even
  /// when quiet.
  func failing(_ line: String) {
    write(2, "fonti-batch: \(Sanitize.terminal(line))\n")
    if annotations { annotate(.error(line)) }
  }

  /// The workflow commands held until `flushAnnotations`, by rank (errors, the job's warnings,
  /// facts about fonts), at most `Console.annotationsPerSeverity` + 1 of each, and how many
  /// there were: GitHub shows 10 of each severity a step and drops the rest without a word.
  private var heldAnnotations: [[String]] = [[], [], []]
  private var annotationCounts = [0, 0, 0]
  /// Where the annotations left out can be read ("N more: see FILE"); the log by default.
  var detailsFile: String?
  /// Annotations of one severity printed before the rest are counted in one more.
  static let annotationsPerSeverity = 9

  private func annotate(_ d: Diagnostic, kind: WarningKind? = nil) {
    let rank = d.severity == .error ? 0 : (kind ?? d.kind).group == .job ? 1 : 2
    annotationCounts[rank] += 1
    if heldAnnotations[rank].count <= Console.annotationsPerSeverity {
      heldAnnotations[rank].append(Console.workflowCommand(d, kind: kind))
    }
  }

  /// Prints the annotations held, most severe first: of each severity all of them when there
  /// are at most 10, else 9 and a 10th that counts the rest and says where they are.
  func flushAnnotations() {
    let limit = Console.annotationsPerSeverity
    var lines: [String] = []
    for (severity, ranks) in [("error", [0]), ("warning", [1, 2])] {
      let held = ranks.flatMap { heldAnnotations[$0] }
      let total = ranks.reduce(0) { $0 + annotationCounts[$1] }
      if total <= limit + 1 {
        lines += held
      } else {
        lines += held.prefix(limit)
        let more = total - limit
        let noun = more == 1 ? severity : severity + "s"
        lines.append(
          "::\(severity) title=fonti-batch::\(more) more \(noun): see "
            + (detailsFile.map(Sanitize.terminal) ?? "the step's log")
            .replacingOccurrences(of: "%", with: "%25"))
      }
    }
    heldAnnotations = [[], [], []]
    annotationCounts = [0, 0, 0]
    for line in lines { write(2, line + "\n") }
  }

  /// `::warning file=F,line=L,col=C::message` (or `::error …`): a GitHub Actions workflow
  /// command. Values are escaped as the runner reads them (`%`, CR, LF; and `:` `,` in
  /// properties), so no message can end the command early or forge another.
  static func workflowCommand(_ d: Diagnostic, kind: WarningKind? = nil) -> String {
    func data(_ s: String) -> String {
      s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
        .replacingOccurrences(of: "\n", with: "%0A")
    }
    func property(_ s: String) -> String {
      data(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
    var properties: [String] = []
    if let file = d.file { properties.append("file=" + property(Sanitize.terminal(file))) }
    if let mark = d.mark { properties += ["line=\(mark.line)", "col=\(mark.column)"] }
    if d.severity == .warning {
      properties.append("title=" + property("fonti-batch " + (kind ?? d.kind).rawValue))
    }
    let command = d.severity == .warning ? "warning" : "error"
    let message =
      data(Sanitize.terminal(d.message))
      + (d.hint.map { "%0A" + data(Sanitize.terminal($0)) } ?? "")
    return "::\(command)" + (properties.isEmpty ? "" : " " + properties.joined(separator: ","))
      + "::" + message
  }

  func report(_ diagnostics: [Diagnostic]) {
    // Errors and warnings in file order, as a compiler prints them.
    for d in diagnostics { report(d) }
  }

  func error(_ message: String) {
    report(.error(message))
  }

  func warning(_ message: String) {
    report(.warning(message))
  }

  /// A line on stderr that explains a wait (a lock held by another process, a FIFO with no
  /// writer yet): printed even when quiet, since without it the command looks hung.
  func notice(_ message: String) {
    write(2, Sanitize.terminal(message) + "\n")
  }

  /// A warning when `SOURCE_DATE_EPOCH` is set but unusable, for the commands that record
  /// times (run, saved add).
  func warnAboutSourceDateEpoch() {
    if let problem = Timestamp.sourceDateEpochProblem() { warning(problem) }
  }

  /// A note on stderr, unless quiet.
  /// Paths in it are the user's and may hold anything: control characters are replaced.
  func info(_ message: String) {
    guard !quiet else { return }
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
    write(2, lines.map { Sanitize.terminal(String($0)) }.joined(separator: "\n") + "\n")
  }

  /// Writes all of `text`; a closed pipe ends it quietly (there is no one left to tell).
  private func write(_ fd: Int32, _ text: String) {
    _ = FileSystem.writeAll(fd, Array(text.utf8))
  }
}
