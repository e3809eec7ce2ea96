import FontiSupport

/// `fonti-batch completions SHELL` and `fonti-batch man`: the shell completions and the manual
/// page, printed from the command table the parser reads (`make install` installs both).
enum CompletionsCommand {
  static let spec = CommandSpec(
    words: ["completions"], arguments: "SHELL",
    summary: "shell completions for bash, zsh or fish, on stdout",
    details: """
      SHELL is bash, zsh or fish. The script completes every command, subcommand and option
      the parser accepts, the warning kinds after --strict=, and family names: those of the
      fonts fonti-batch sees as they are typed (it asks the tool). Install it where the shell
      looks: make install does, or e.g.
      fonti-batch completions bash > ~/.local/share/bash-completion/completions/fonti-batch
      """,
    minPositionals: 1, maxPositionals: 1,
    run: { invocation, console in
      let name = invocation.positionals[0]
      guard let shell = Completions.Shell(rawValue: name) else {
        let names = Completions.Shell.allCases.map(\.rawValue)
        let hint = Suggest.didYouMean(name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        throw UsageError(
          message: "unknown shell '\(name)': one of \(names.joined(separator: ", "))\(hint)",
          command: invocation.command)
      }
      console.out(Completions.script(for: shell, commands: Commands.all))
      return .success
    })

  static let manSpec = CommandSpec(
    words: ["man"], arguments: "",
    summary: "the manual page fonti-batch(1), in roff, on stdout",
    details: """
      Read it with: fonti-batch man | man -l -
      make install installs it as share/man/man1/fonti-batch.1.
      """,
    run: { _, console in
      console.out(ManPage.page(Commands.all))
      return .success
    })
}
