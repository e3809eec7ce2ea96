import FontiModel
import FontiSupport

/// `fonti-batch init [PATH]`: writes the commented example job, never over an existing file.
enum InitCommand {
  static let spec = CommandSpec(
    words: ["init"], arguments: "[PATH]",
    summary: "write a commented example job file (refuses to overwrite)",
    details: """
      PATH defaults to ./specimens.yaml; a folder gets a specimens.yaml inside it; - prints
      the example on stdout. The example works as it is on a machine with the DejaVu fonts.
      """,
    maxPositionals: 1,
    run: { invocation, console in
      let path = invocation.positionals.first ?? "specimens.yaml"
      if path == "-" {
        console.out(ExampleJob.text)
        return .success
      }
      let written = try ExampleJob.write(to: path)
      // The command's result, on stdout like every other command's.
      let shown = Sanitize.terminal(written)
      console.line(
        "wrote \(shown)\nnext: fonti-batch check \(shown), then fonti-batch run \(shown)")
      return .success
    })
}
