import FontiEngine
import FontiSupport
import Foundation

/// `fonti-batch merge SHARD_DIR... -o DIR`: the shards' parts put together, and what one run
/// would draw besides (catalogues, favourites, manifest) drawn here, through the same `JobRun`.
struct MergeCommand {
  static let spec = CommandSpec(
    words: ["merge"], arguments: "SHARD_DIR...",
    summary: "put the folders of 'run --shard K/N' together into one output",
    details: """
      Checks that the shard folders come from the same job, tool, fonts (by content, against
      this machine's) and SOURCE_DATE_EPOCH, that each of 1/N … N/N is there once, and that
      every file they list stays inside its folder and is the file recorded; then writes into
      DIR what one unsharded run would: the specimens and pairing sheets (copied), the
      catalogues (drawn here from the recorded job), the favourites and manifest.json. Exit 0:
      all written; 1: some output failed; 2: the shards do not fit together (each problem is
      named) and nothing was written; 130/143: interrupted.
      """,
    minPositionals: 1, maxPositionals: nil,
    options: [
      .value("-o", "--output", as: "DIR", help: "where the whole output goes (required)"),
      .value("-j", "--jobs", as: "N", help: "parallel worker processes for the catalogues"),
      .flag("--json", help: "the merged run's manifest as JSON on stdout"),
      .report,
      .flag("-q", "--quiet", help: "no progress and no warnings; errors only"),
      .flag("-v", "--verbose", help: "a line per file written"),
    ],
    run: { invocation, console in try MergeCommand(invocation: invocation, console: console).run() }
  )

  let invocation: Invocation
  let console: Console

  func run() throws -> ExitCode {
    guard let output = invocation.value("--output"), !output.isEmpty else {
      throw UsageError(
        message: "merge needs -o DIR: where the whole output goes", command: invocation.command)
    }
    console.quiet = invocation.has("--quiet")
    console.verbose = invocation.has("--verbose")
    let reports = try CIReports(invocation, console: console)
    var request = try ShardMerge.request(shards: invocation.positionals, output: output)
    request.jobs = try invocation.jobs()
    return try RunCommand.run(request, command: .merge, reports: reports, invocation: invocation)
  }
}
