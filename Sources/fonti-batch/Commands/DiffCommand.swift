import FontiDiff
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

extension Commands {
  static let diff = CommandSpec(
    words: ["diff"], arguments: "BEFORE AFTER",
    summary: "what changed between two versions of a font library (files or folders)",
    details: """
      Pairs the families of BEFORE and AFTER (font files or folders, searched recursively) by
      name and compares each pair: characters, every glyph of the characters both have (at
      every named instance of a variable font), advances, kerning, the sample text, vertical
      metrics, faces, axes, instances, features and languages. Writes into DIR: diff.pdf (the
      review), changes/<slug>.png (before | after | difference, per changed family), diff.md
      (a summary for a pull request) and diff.json. Exit 0: the review was written and nothing
      failed; 1: some family failed (with --exit-code, also when anything changed, was added
      or removed); 2: usage errors, nothing written.
      """,
    minPositionals: 2, maxPositionals: 2,
    options: [
      .value("-o", "--output", as: "DIR", help: "where the review goes (default ./diff)"),
      .value(
        "--only", as: "PATTERN", help: "only families matching (glob, case-insensitive)",
        repeatable: true),
      .value("--text", as: "TEXT", help: "the compared sample (default: the pangram)"),
      .value(
        "--threshold", as: "PX",
        help: "a glyph changed when more pixels than this differ (default 16)"),
      .flag("--exit-code", help: "exit 1 when anything changed, was added or removed"),
      .flag("--json", help: "print diff.json on stdout too"),
      .report,
      .flag("-q", "--quiet", help: "no progress and no summary; errors only"),
      .value(
        "-j", "--jobs", as: "N",
        help: "worker processes comparing families at once (default: number of cores)"),
    ],
    run: { invocation, console in try DiffCommand(invocation: invocation, console: console).run() })
}

/// `fonti-batch diff`: both sides read, families compared, the review written.
struct DiffCommand {
  let invocation: Invocation
  let console: Console

  func run() throws -> ExitCode {
    let started = Date()
    let command = invocation.command
    console.quiet = invocation.has("--quiet")
    let text = invocation.value("--text") ?? defaultSampleText
    if text.isEmpty { throw UsageError(message: "--text is empty", command: command) }
    if let problem = Limits.sampleTextProblem(text) {
      throw UsageError(message: "--text \(problem)", command: command)
    }
    let threshold = Int(
      try invocation.number("--threshold", default: 16, range: 0...1_000_000, integer: true))
    let jobs = try invocation.jobs()
    let output = invocation.value("--output") ?? "diff"
    if output.isEmpty { throw UsageError(message: "--output is empty", command: command) }
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), !isFolder.boolValue {
      throw UsageError(message: "output '\(output)' exists and is not a folder", command: command)
    }
    for pattern in invocation.all("--only") where pattern.isEmpty {
      throw UsageError(message: "--only is empty", command: command)
    }
    let reports = try CIReports(invocation, console: console)

    let (before, after) = try DiffSide.load(
      before: invocation.positionals[0], after: invocation.positionals[1], jobs: jobs)
    let options = DiffOptions(
      settings: DiffSettings(threshold: threshold, text: text),
      only: invocation.all("--only").map(FamilyPattern.init), jobs: jobs)
    // Labels only: the system's fonts, never the compared ones.
    let environment = try FontEnvironment()
    // From here SIGINT and SIGTERM stop the workers; nothing of the review is written then.
    Signals.install()
    let progress = ProgressLine(console: console)
    let compared = try DiffReview(environment: environment, creationDate: Timestamp.now()).run(
      before: before, after: after, options: options, workers: .current, to: output,
      progress: { progress.update($0) }, interrupted: { Signals.interrupted })
    progress.finish()
    guard let report = compared else { return Signals.exitCode }
    for family in report.families where family.status == .failed {
      console.report(
        .error("family '\(family.family)' could not be compared: \(family.error ?? "")"))
    }
    for file in report.unreadable {
      console.report(.error("\(file.side): font file '\(file.file)' \(file.error)"))
    }
    if invocation.has("--json") {
      console.out(String(decoding: try report.encoded(), as: UTF8.self))
    }
    let c = report.counts
    var parts = [
      "\(c.changed) changed", "\(c.added) added", "\(c.removed) removed",
      "\(c.unchanged) unchanged",
    ]
    if c.failed > 0 { parts.append("\(c.failed) failed") }
    let seconds = Date().timeIntervalSince(started)
    console.info(
      "\(c.families) famil\(c.families == 1 ? "y" : "ies"): " + parts.joined(separator: ", ")
        + String(format: " in %.1fs", seconds) + " → \(output)/")
    let code = ExitCode.of(report, failOnDifferences: invocation.has("--exit-code"))
    guard !reports.targets.isEmpty || CIReports.stepSummary != nil else { return code }
    return reports.finish(
      report.ciReport(
        exitCode: code.rawValue, failOnDifferences: invocation.has("--exit-code"),
        output: output, started: started), code: code)
  }
}
