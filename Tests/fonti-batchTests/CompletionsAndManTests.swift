import Foundation
import Testing

/// `completions bash|zsh|fish` and `man`: generated from the table the parser reads, so each
/// names every command and option that `--help` lists; each loads in its shell, and the man
/// page passes `mandoc -Tlint`. Family names come from the tool as they are typed (`__complete`).
@Suite struct CompletionsAndManTests {
  /// `PATH` with the tool in it, as the scripts find it when it is typed as `fonti-batch`.
  static var pathWithTool: String {
    (Repository.binary as NSString).deletingLastPathComponent + ":/usr/bin:/bin"
  }

  /// Each command's help reads in a terminal of 92 columns: its usage and description lines
  /// fit, as a paragraph wrapped by hand keeps them (two had lines of 99 and 112).
  @Test func everyCommandsDescriptionFitsNinetyTwoColumns() throws {
    let box = try CLISandbox("fonti-help-width")
    for (command, _) in try Self.helpTable(box) {
      let help = try box.run(["help"] + command.split(separator: " ").map(String.init))
      let description = help.stdout.components(separatedBy: "\nOptions:\n")[0]
      for line in description.split(separator: "\n") where line.count > 92 {
        Issue.record("help \(command): a line of \(line.count) columns: \(line)")
      }
    }
  }

  /// What `--help` and `help COMMAND` list: each command's name and option spellings.
  static func helpTable(_ box: CLISandbox) throws -> [(command: String, options: [String])] {
    let overview = try box.run(["--help"])
    #expect(overview.status == 0, "\(overview)")
    let lines = overview.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "Commands:") else {
      throw CLIError(description: "no Commands: in\n\(overview.stdout)")
    }
    var table: [(String, [String])] = []
    for line in lines[(start + 1)...] {
      guard line.hasPrefix("  ") else { break }
      // "  saved add     heart families": the name is the words before the two-space gap.
      let name = line.dropFirst(2).components(separatedBy: "  ")[0]
      let help = try box.run(["help"] + name.split(separator: " ").map(String.init))
      #expect(help.status == 0, "\(help)")
      let options = help.stdout.components(separatedBy: "\nOptions:\n").last ?? ""
      let names = options.split(separator: "\n").flatMap { line in
        // "  -o, --output DIR  help": the spellings before the placeholder; an optional value
        // written into the name ("--strict[=KIND,...]") is not part of it.
        line.split(separator: " ").prefix { $0.hasPrefix("-") }.map {
          String(
            $0.trimmingCharacters(in: CharacterSet(charactersIn: ","))
              .prefix { $0 != "[" && $0 != "=" })
        }
      }
      table.append((name, names))
    }
    return table
  }

  @Test func everyCommandAndOptionIsInEachCompletionAndTheManPage() throws {
    let box = try CLISandbox("fonti-completions")
    let table = try Self.helpTable(box)
    #expect(table.count >= 15, "\(table)")
    #expect(
      table.contains { $0.command == "completions" } && table.contains { $0.command == "man" })
    #expect(table.contains { $0.command == "run" && $0.options.contains("--shard-weights") })
    let man = try box.run(["man"])
    #expect(man.status == 0 && man.stderr.isEmpty, "\(man)")
    // The page as its reader sees the words: escapes and font changes removed.
    let manText = man.stdout.replacingOccurrences(of: "\\-", with: "-")
      .replacingOccurrences(of: "\\fB", with: "").replacingOccurrences(of: "\\fI", with: "")
      .replacingOccurrences(of: "\\fR", with: "")
    for shell in ["bash", "zsh", "fish"] {
      let script = try box.run(["completions", shell])
      #expect(script.status == 0 && script.stderr.isEmpty, "\(script)")
      for (command, options) in table {
        for word in command.split(separator: " ") {
          #expect(script.stdout.contains(String(word)), "\(shell): no '\(word)'")
        }
        for option in options {
          // fish names `--output` as `-l output` and `-o` as `-s o`.
          let spelled =
            shell == "fish"
            ? (option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())")
            : option
          #expect(script.stdout.contains(spelled), "\(shell): '\(command)' lacks \(option)")
        }
      }
    }
    for (command, options) in table {
      #expect(manText.contains(".SS fonti-batch \(command)"), "man: no section for \(command)")
      for option in options {
        #expect(manText.contains(option), "man: '\(command)' lacks \(option)")
      }
    }
  }

  @Test func manPagePassesMandocLint() throws {
    let box = try CLISandbox("fonti-man")
    let man = try box.run(["man"], environment: ["SOURCE_DATE_EPOCH": "0"])
    #expect(man.status == 0, "\(man)")
    #expect(man.stdout.hasPrefix(".TH FONTI\\-BATCH 1 1970-01-01 "), "\(man.stdout.prefix(80))")
    try box.write("fonti-batch.1", man.stdout)
    let lint = try box.run(["-Tlint", "-Wall", "fonti-batch.1"], executable: "/usr/bin/mandoc")
    #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint)")
    // man(1) formats it, with the sections a reader looks for.
    let read = try box.run(
      ["-l", box.path("fonti-batch.1")], executable: "/usr/bin/man",
      environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
    #expect(read.status == 0, "\(read)")
    for heading in ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES"] {
      #expect(read.stdout.contains("\n\(heading)\n"), "\(heading) missing")
    }
  }

  /// The bash script registers itself and completes commands, subcommands, options, the
  /// words an option takes, the kinds after `--strict=` (bash splits the word at '=') and
  /// the family names of the fonts the tool sees, quoted for the line.
  @Test func bashCompletionLoadsAndCompletes() throws {
    let box = try CLISandbox("fonti-bash")
    let script = try box.run(["completions", "bash"])
    #expect(script.status == 0, "\(script)")
    try box.write("fonti-batch.bash", script.stdout)
    let probe = """
      source fonti-batch.bash
      complete -p fonti-batch
      t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _fonti_batch
        echo "$*=${COMPREPLY[*]}"; }
      t fonti-batch sa
      t fonti-batch saved ''
      t fonti-batch run --sh
      t fonti-batch render --theme ''
      t fonti-batch completions ''
      t fonti-batch help fo
      t fonti-batch render Dej
      t fonti-batch render "'dej"
      t fonti-batch pairings -- No
      t fonti-batch saved add Cantarell D
      t fonti-batch run --strict =
      t fonti-batch check --strict = mi
      t fonti-batch run --strict = missing-glyphs,f
      t fonti-batch run --strict=missing-glyphs,face-c
      """
    try box.write("probe.sh", probe)
    let result = try box.run(
      ["probe.sh"], executable: "/bin/bash", environment: ["PATH": Self.pathWithTool])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    let expected = [
      "complete -o bashdefault -o default -F _fonti_batch fonti-batch",
      "fonti-batch sa=saved",
      "fonti-batch saved =list add remove clear",
      "fonti-batch run --sh=--shard --shard-weights",
      "fonti-batch render --theme =ink cream",
      "fonti-batch completions =bash zsh fish",
      "fonti-batch help fo=fonts",
      "fonti-batch render Dej=DejaVu\\ Serif",
      "fonti-batch render 'dej=DejaVu Serif",
      "fonti-batch pairings -- No=Noto\\ Sans\\ Bengali Noto\\ Sans\\ Hebrew",
      "fonti-batch saved add Cantarell D=D050000L DejaVu\\ Serif",
      "fonti-batch run --strict ==all job " + Self.kinds.joined(separator: " "),
      "fonti-batch check --strict = mi=missing-glyphs",
      "fonti-batch run --strict = missing-glyphs,f="
        + "missing-glyphs,face-absent missing-glyphs,face-coverage missing-glyphs,face-weight "
        + "missing-glyphs,font-file",
      "fonti-batch run --strict=missing-glyphs,face-c=--strict=missing-glyphs,face-coverage",
    ]
    #expect(result.stdout.split(separator: "\n").map(String.init) == expected, "\(result)")
  }

  /// The warning kinds `--strict=KIND,...` accepts, as `StrictPolicy.parse` reads them.
  static let kinds = [
    "axis-range", "catalogue-empty", "catalogue-kept", "colour-not-drawn", "custom-overrides",
    "duplicate-pairing", "environment", "face-absent", "face-coverage", "face-weight", "font-file",
    "missing-glyphs", "no-style", "not-drawable", "other", "output-file", "own-script",
    "proofs-unreadable", "unknown-setting", "unmatched-pattern", "unvaried",
  ]

  /// `__complete` prints the families the tool sees (its fontconfig, the imported library),
  /// the library's, or the saved ones, one a line, starting with a prefix in any case; it says
  /// nothing on stderr and is in no help.
  @Test func hiddenCommandPrintsTheFamiliesTheToolSees() throws {
    let box = try CLISandbox("fonti-complete")
    let all = try box.run(["__complete", "families"])
    #expect(all.status == 0 && all.stderr.isEmpty, "\(all)")
    #expect(
      all.stdout == "Cantarell\nD050000L\nDejaVu Serif\nNoto Sans Bengali\nNoto Sans Hebrew\n",
      "\(all)")
    #expect(try box.run(["__complete", "families", "dEJ"]).stdout == "DejaVu Serif\n")
    #expect(try box.run(["__complete", "library"]).stdout.isEmpty)
    #expect(try box.run(["__complete", "saved"]).stdout.isEmpty)

    try FileManager.default.createDirectory(atPath: box.library, withIntermediateDirectories: true)
    let cantarell = try Repository.font("Cantarell-Regular.otf")
    try FontBytes.renamingFamily(cantarell, from: "Cantarell", to: "Brandface")
      .write(to: URL(fileURLWithPath: box.library + "/brand.otf"))
    let library = try box.run(["__complete", "library"])
    #expect(library.status == 0 && library.stdout == "Brandface\n", "\(library)")
    #expect(try box.run(["__complete", "families", "b"]).stdout == "Brandface\n")
    #expect(try box.run(["saved", "add", "DejaVu Serif", "Brandface"]).status == 0)
    #expect(try box.run(["__complete", "saved"]).stdout == "Brandface\nDejaVu Serif\n")

    for wrong in [[], ["fonts"], ["families", "a", "b"]] {
      let result = try box.run(["__complete"] + wrong)
      #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }
    let help = try box.run(["--help"])
    let man = try box.run(["man"])
    #expect(!help.stdout.contains("__complete") && !man.stdout.contains("__complete"))
  }

  /// A family name inside a font reaches the shell as one word, quoted, and never runs; a
  /// name with a newline or a control character, or one that would read as an option, is not
  /// offered at all.
  @Test func hostileFamilyNamesAreQuotedOrLeftOut() throws {
    let box = try CLISandbox("fonti-complete-hostile")
    try FileManager.default.createDirectory(atPath: box.library, withIntermediateDirectories: true)
    let cantarell = try Repository.font("Cantarell-Regular.otf")
    for (file, name) in [
      ("quote", "It's $(x)"), ("newline", "Two\nLines"), ("escape", "Bel\u{7}\u{1B}[31m"),
      ("dash", "-Dashname"),
    ] {
      try FontBytes.renamingFamily(cantarell, from: "Cantarell", to: name)
        .write(to: URL(fileURLWithPath: box.library + "/\(file).otf"))
    }
    let listed = try box.run(["families"])
    #expect(listed.stdout.contains("Two\u{FFFD}Lines"), "the fonts are seen: \(listed)")
    let library = try box.run(["__complete", "library"])
    #expect(library.status == 0 && library.stdout == "It's $(x)\n", "\(library)")
    let families = try box.run(["__complete", "families"])
    #expect(families.stdout.split(separator: "\n").count == 6, "\(families)")
    #expect(families.stdout.contains("It's $(x)\n") && !families.stdout.contains("Lines"))

    let script = try box.run(["completions", "bash"])
    try box.write("fonti-batch.bash", script.stdout)
    // The reply is read back by the shell as the name itself; `x` would say if it ran.
    let probe = """
      source fonti-batch.bash
      x() { echo ran; }
      COMP_WORDS=(fonti-batch render It); COMP_CWORD=2; _fonti_batch
      printf '%s\\n' "${COMPREPLY[@]}"
      eval "set -- ${COMPREPLY[0]}"; printf '%s\\n' "$#" "$1"
      COMP_WORDS=(fonti-batch fonts remove ''); COMP_CWORD=3; COMPREPLY=(); _fonti_batch
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    try box.write("probe.sh", probe)
    let bash = try box.run(
      ["probe.sh"], executable: "/bin/bash", environment: ["PATH": Self.pathWithTool])
    #expect(bash.status == 0 && bash.stderr.isEmpty, "\(bash)")
    #expect(
      bash.stdout == "It\\'s\\ \\$\\(x\\)\n1\nIt's $(x)\nIt\\'s\\ \\$\\(x\\)\n", "\(bash)")
  }

  /// zsh and fish read their scripts without a syntax error; fish completes from its script.
  /// (Both shells come with `make setup-test`.)
  @Test func zshAndFishScriptsParse() throws {
    let box = try CLISandbox("fonti-zsh-fish")
    for (shell, file) in [("zsh", "_fonti-batch"), ("fish", "fonti-batch.fish")] {
      let executable = "/usr/bin/\(shell)"
      try #require(
        FileManager.default.isExecutableFile(atPath: executable),
        "\(shell) is not installed: make setup-test installs it")
      let script = try box.run(["completions", shell])
      #expect(script.status == 0, "\(script)")
      try box.write(file, script.stdout)
      let check = try box.run(["-n", box.path(file)], executable: executable)
      #expect(check.status == 0 && check.stderr.isEmpty, "\(shell): \(check)")
    }
    let zsh = try box.run(
      [
        "-fc",
        "autoload -Uz compinit; compinit -u -d \(box.root)/zcd; source _fonti-batch; "
          + "print ${_comps[fonti-batch]}",
      ], executable: "/usr/bin/zsh")
    #expect(zsh.status == 0 && zsh.stdout == "_fonti_batch\n", "\(zsh)")
    let fish = try box.run(
      ["-c", "source fonti-batch.fish; complete -C 'fonti-batch completions '"],
      executable: "/usr/bin/fish")
    #expect(fish.status == 0 && fish.stdout == "bash\nfish\nzsh\n", "\(fish)")
  }

  /// fish completes family names from the tool and the kinds after `--strict=`, keeping what
  /// is typed before the last comma; the zsh script asks the tool for names in the same way
  /// and completes the kinds as a comma-separated list.
  @Test func zshAndFishCompleteFamilyNamesAndKinds() throws {
    let box = try CLISandbox("fonti-zsh-fish-names")
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"),
      "fish is not installed: make setup-test installs it")
    try box.write("fonti-batch.fish", try box.run(["completions", "fish"]).stdout)
    let lines = [
      "fonti-batch render Dej", "fonti-batch saved add Cantarell No",
      "fonti-batch run --strict=missing-glyphs,f", "fonti-batch check --strict=unv",
    ]
    let fish = try box.run(
      [
        "-c",
        "source fonti-batch.fish; " + lines.map { "complete -C '\($0)'" }.joined(separator: "; "),
      ],
      executable: "/usr/bin/fish", environment: ["PATH": Self.pathWithTool])
    #expect(fish.status == 0 && fish.stderr.isEmpty, "\(fish)")
    let expected = [
      "DejaVu Serif\tfont family",
      "Noto Sans Bengali\tfont family", "Noto Sans Hebrew\tfont family",
      "--strict=missing-glyphs,face-absent", "--strict=missing-glyphs,face-coverage",
      "--strict=missing-glyphs,face-weight",
      "--strict=missing-glyphs,font-file",
      "--strict=unvaried",
    ]
    #expect(fish.stdout.split(separator: "\n").map(String.init) == expected, "\(fish)")

    let zsh = try box.run(["completions", "zsh"]).stdout
    // `render FAMILY` and `pairings [FAMILY]`; `saved add FAMILY...`.
    let families = zsh.components(separatedBy: "'1:font family: _fonti_batch_names families'")
    #expect(families.count == 3, "\(zsh)")
    #expect(zsh.contains("'*:font family: _fonti_batch_names families'"))
    #expect(zsh.contains("'*:font family: _fonti_batch_names library'"))
    #expect(zsh.contains("'*:font family: _fonti_batch_names saved'"))
    #expect(zsh.contains("$($prog __complete $1 2>/dev/null)"))
    #expect(
      zsh.contains("::KIND,...:_values -s , kind all job " + Self.kinds.joined(separator: " ")))
  }

  @Test func anUnknownShellIsAUsageError() throws {
    let box = try CLISandbox("fonti-shell")
    let result = try box.run(["completions", "bsah"])
    #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
    #expect(result.stderr.contains("unknown shell 'bsah'") && result.stderr.contains("'bash'"))
    let none = try box.run(["completions"])
    #expect(none.status == 2, "\(none)")
  }
}
