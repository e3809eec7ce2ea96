import FontiCore

/// `fonti-batch init [PATH]`: writes the commented example job, never over an existing file.
enum InitCommand {
  static let spec = CommandSpec(
    words: ["init"], arguments: "[PATH]",
    summary: "write a commented example job file (refuses to overwrite)",
    details: """
      PATH defaults to ./specimens.yaml; a folder gets a specimens.yaml inside it.
      The example works as it is on a machine with the DejaVu fonts.
      """,
    maxPositionals: 1,
    run: { invocation, console in
      let path = invocation.positionals.first ?? "specimens.yaml"
      let written = try ExampleJob.write(to: path)
      console.info(
        "wrote \(written)\nnext: fonti-batch check \(written), then fonti-batch run \(written)")
      return .success
    })
}
