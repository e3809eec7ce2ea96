import FontiSupport

/// Every command, in the order `--help` lists them. Parser and help both read this table.
enum Commands {
  static var all: [CommandSpec] {
    [
      run,
      MergeCommand.spec,
      CheckCommand.spec,
      InitCommand.spec,
      render,
      families,
      pairings,
      saved,
      savedAdd,
      savedRemove,
      savedClear,
      fonts,
      fontsImport,
      fontsRemove,
      diff,
      ServeCommand.spec,
      versionCommand,
      CompletionsCommand.spec,
      CompletionsCommand.manSpec,
    ]
  }

  static let versionCommand = CommandSpec(
    words: ["version"], arguments: "", summary: "version and build (same as --version)",
    run: { _, console in
      console.line("\(FontiVersion.tool) (build \(BuildInfo.commit))")
      return .success
    })
}
