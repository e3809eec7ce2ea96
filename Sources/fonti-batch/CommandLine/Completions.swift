import FontiSupport

/// Shell completion scripts for bash, zsh and fish, generated from the `CommandSpec` table the
/// parser and `--help` read, so they name exactly the commands and options the parser accepts.
/// Family names are not in the scripts: each asks the tool for them as they are typed
/// (`fonti-batch __complete`, `CompletionWords`), so they are the fonts it sees then.
enum Completions {
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  /// What the shell offers after an option that takes a value.
  enum ValueKind: Equatable {
    /// A folder (`DIR`).
    case directory
    /// A file (`FILE`, `PATH`, `MANIFEST`, `FILE.png|DIR`).
    case file
    /// One of these words (`ink|cream`).
    case choice([String])
    /// Free text (`N`, `TEXT`, `PATTERN`): nothing to offer.
    case text
  }

  static func valueKind(_ spec: OptionSpec) -> ValueKind {
    guard let name = spec.valueName else { return .text }
    switch name {
    case "DIR": return .directory
    case "FILE", "PATH", "MANIFEST": return .file
    default:
      if name.contains(".") || name.contains("DIR") { return .file }
      if name.contains("|") { return .choice(name.split(separator: "|").map(String.init)) }
      return .text
    }
  }

  /// The words `help` and the top level complete that are not commands of the table.
  static let globalOptions = ["--version", "-h", "--help"]

  static func script(for shell: Shell, commands: [CommandSpec]) -> String {
    switch shell {
    case .bash: return bash(commands)
    case .zsh: return zsh(commands)
    case .fish: return fish(commands)
    }
  }

  /// The first words of the commands, in table order, with `help` (handled before the parser).
  static func topWords(_ commands: [CommandSpec]) -> [String] {
    var words: [String] = []
    for command in commands where !words.contains(command.words[0]) {
      words.append(command.words[0])
    }
    return words + ["help"]
  }

  /// The second words of a command group (`saved` → `add`, `remove`, `clear`), with `list`
  /// when the group's own form takes it.
  static func subcommands(of group: CommandSpec, in commands: [CommandSpec]) -> [String] {
    guard group.words.count == 1 else { return [] }
    let more = commands.filter { $0.words.count == 2 && $0.words[0] == group.words[0] }
      .map { $0.words[1] }
    guard !more.isEmpty else { return [] }
    return (group.arguments.contains("list") ? ["list"] : []) + more
  }

  /// The words a command takes as its arguments, when they are fixed (`completions`).
  static func argumentWords(_ command: CommandSpec, _ commands: [CommandSpec]) -> [String] {
    if command.words == ["completions"] { return Shell.allCases.map(\.rawValue) }
    return subcommands(of: command, in: commands)
  }

  /// The names a command's FAMILY argument is completed with; nil when it takes no family.
  static func familyNames(_ command: CommandSpec) -> CompletionWords.Names? {
    guard command.arguments.contains("FAMILY") else { return nil }
    switch command.words {
    case ["fonts", "remove"]: return .library
    case ["saved", "remove"]: return .saved
    default: return .families
    }
  }

  /// The words of the comma-separated list a flag takes after `=` (`--strict=KIND,...`): every
  /// word `StrictPolicy.parse` accepts. Nil for any other option.
  static func listWords(_ spec: OptionSpec) -> [String]? {
    guard spec.inlineValueName == OptionSpec.warningKinds else { return nil }
    return ["all", "job"] + WarningKind.allCases.map(\.rawValue).sorted()
  }

  static func allOptions(_ command: CommandSpec) -> [OptionSpec] {
    command.options + Invocation.common
  }

  // MARK: bash

  static func bash(_ commands: [CommandSpec]) -> String {
    let groups = commands.filter { $0.words.count == 2 }.map { "\"\($0.name)\"" }
    var cases = ""
    for command in commands {
      let options = allOptions(command)
      let names = options.flatMap(\.names).joined(separator: " ")
      let valued = options.filter { !$0.isFlag }
      var valueCases = ""
      for kind in [ValueKind.directory, .file] {
        let matching = valued.filter { valueKind($0) == kind }.flatMap(\.names)
        guard !matching.isEmpty else { continue }
        let action = kind == .directory ? "compgen -d" : "compgen -f"
        valueCases +=
          "        \(matching.joined(separator: "|"))) COMPREPLY=($(\(action) -- \"$cur\")); return ;;\n"
      }
      for spec in valued {
        if case .choice(let words) = valueKind(spec) {
          valueCases +=
            "        \(spec.names.joined(separator: "|"))) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
        }
      }
      let textual = valued.filter { valueKind($0) == .text }.flatMap(\.names)
      if !textual.isEmpty {
        valueCases += "        \(textual.joined(separator: "|"))) return ;;\n"
      }
      var lists = ""
      for spec in options {
        guard let words = listWords(spec) else { continue }
        lists +=
          "      _fonti_batch_list \(spec.key) \"\(words.joined(separator: " "))\" && return\n"
      }
      cases += """
          "\(command.name)")
        \(lists)      case "$prev" in
        \(valueCases)    esac
            words="\(argumentWords(command, commands).joined(separator: " "))"
            opts="\(names)"
            names="\(familyNames(command)?.rawValue ?? "")"
            ;;

        """
    }
    return """
      # bash completion for fonti-batch; generated by 'fonti-batch completions bash'.

      # Family names, from the tool itself (the fonts it sees now), one a line; each quoted for
      # the line unless the word is typed in quotes. The word typed is unquoted to match them.
      _fonti_batch_names() {
        local prog=fonti-batch typed=$cur quoted="" name
        local -a names
        [[ ${COMP_WORDS[0]} == */* && -x ${COMP_WORDS[0]} ]] && prog=${COMP_WORDS[0]}
        case $typed in
          [\\"\\']*) quoted=1 typed=${typed:1} ;;
          *) typed=${typed//\\\\/} ;;
        esac
        mapfile -t names < <("$prog" \(CompletionWords.command) "$1" "$typed" 2>/dev/null)
        for name in "${names[@]}"; do
          [[ -z $quoted ]] && printf -v name %q "$name"
          COMPREPLY+=("$name")
        done
      }

      # The words of a comma-separated list after OPTION= (bash splits '--strict=a,b' at the
      # '=' into '--strict' '=' 'a,b'): those not given yet, after what is typed up to the last
      # comma. Fails when the word is not such a list.
      _fonti_batch_list() {
        local option=$1 before="" typed word
        if [[ $cur == "$option"=* ]]; then
          before="$option=" typed=${cur#*=}
        elif [[ $cur == = && $prev == "$option" ]]; then
          typed=""
        elif [[ $prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == "$option" ]]; then
          typed=$cur
        else
          return 1
        fi
        local given=${typed%"${typed##*,}"}
        for word in $2; do
          [[ ,$given == *,"$word",* ]] && continue
          [[ $word == "${typed##*,}"* ]] && COMPREPLY+=("$before$given$word")
        done
        return 0
      }

      _fonti_batch() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD - 1]}"
        local cmd="" words="" opts="" names=""
        COMPREPLY=()
        if ((COMP_CWORD == 1)); then
          COMPREPLY=($(compgen -W "\(topWords(commands).joined(separator: " ")) \(globalOptions.joined(separator: " "))" -- "$cur"))
          return
        fi
        cmd="${COMP_WORDS[1]}"
        case "$cmd" in
          favorites | favourites) cmd=saved ;;
        esac
        if ((COMP_CWORD >= 3)); then
          case "$cmd ${COMP_WORDS[2]}" in
            \(groups.joined(separator: " | "))) cmd="$cmd ${COMP_WORDS[2]}" ;;
          esac
        fi
        case "$cmd" in
          help)
            ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "\(topWords(commands).dropLast().joined(separator: " "))" -- "$cur"))
            return
            ;;
      \(cases)    *) return ;;
        esac
        if [[ $cur == -* ]]; then
          COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        elif [[ -n $words && $cmd != *" "* ]] && ((COMP_CWORD == 2)); then
          COMPREPLY=($(compgen -W "$words" -- "$cur"))
        elif [[ -n $names ]]; then
          _fonti_batch_names "$names"
        fi
      }
      complete -o default -o bashdefault -F _fonti_batch fonti-batch

      """
  }

  // MARK: zsh

  /// Text for a zsh `_arguments` description: brackets, colons and quotes escaped.
  static func zshText(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "[", "]", ":", "\\": out += "\\\(character)"
      case "'": out += "'\\''"
      default: out.append(character)
      }
    }
    return out
  }

  static func zshSpecs(_ options: [OptionSpec]) -> [String] {
    options.map { spec in
      let help = zshText(spec.help)
      let exclusive = spec.names.count > 1 ? "(\(spec.names.joined(separator: " ")))" : ""
      let repeatable = spec.repeatable ? "*" : ""
      var action = ""
      if let valueName = spec.valueName {
        let label = zshText(valueName)
        switch valueKind(spec) {
        case .directory: action = ":\(label):_files -/"
        case .file: action = ":\(label):_files"
        case .choice(let words): action = ":\(label):(\(words.joined(separator: " ")))"
        case .text: action = ":\(label): "
        }
      }
      if let words = listWords(spec) {
        // `--strict=KIND,...`: the list only after '=', in the same word, and optional.
        let label = zshText(spec.inlineValueName ?? "")
        return
          "'\(spec.key)=-[\(help)]::\(label):_values -s , kind \(words.joined(separator: " "))'"
      }
      let names = spec.names.count > 1 ? "{\(spec.names.joined(separator: ","))}" : spec.names[0]
      if spec.names.count > 1 {
        return "'\(repeatable)\(exclusive)'\(names)'[\(help)]\(action)'"
      }
      return "'\(repeatable)\(names)[\(help)]\(action)'"
    }
  }

  static func zsh(_ commands: [CommandSpec]) -> String {
    let described = commands.filter { $0.words.count == 1 }.map {
      "'\($0.name):\($0.summary.replacingOccurrences(of: "'", with: "'\\''"))'"
    }
    var cases = ""
    for command in commands {
      var specs = zshSpecs(allOptions(command))
      let words = argumentWords(command, commands)
      if !words.isEmpty {
        specs.append(
          "'1:\(command.arguments.isEmpty ? "word" : zshText(command.arguments)):(\(words.joined(separator: " ")))'"
        )
      } else if let names = familyNames(command) {
        // A leading space: _arguments calls the function with these words only.
        let position = command.maxPositionals == 1 ? "1" : "*"
        specs.append("'\(position):font family: _fonti_batch_names \(names.rawValue)'")
      } else if command.maxPositionals != 0 {
        specs.append("'*:\(zshText(command.arguments)):_files'")
      }
      cases += """
            '\(command.name)')
              _arguments -s \\
                \(specs.joined(separator: " \\\n          "))
              ;;

        """
    }
    let groups = commands.filter { $0.words.count == 2 }.map { "'\($0.name)'" }
    return """
      #compdef fonti-batch
      # zsh completion for fonti-batch; generated by 'fonti-batch completions zsh'.

      # Family names, from the tool itself (the fonts it sees now), one a line.
      _fonti_batch_names() {
        local -a names expl
        names=(${(f)"$($prog \(CompletionWords.command) $1 2>/dev/null)"})
        _wanted families expl 'font family' compadd -a names
      }

      _fonti_batch() {
        # The tool as typed when it is a path (./fonti-batch), else the one on $PATH.
        local prog=${(Q)words[1]}
        [[ $prog == */* && -x $prog ]] || prog=fonti-batch
        local -a commands
        commands=(
          \(described.joined(separator: "\n    "))
          'help:help for one command'
        )
        if (( CURRENT == 2 )); then
          _describe -t commands 'fonti-batch command' commands
          compadd -- \(globalOptions.joined(separator: " "))
          return
        fi
        local cmd=${words[2]}
        [[ $cmd == favorites || $cmd == favourites ]] && cmd=saved
        local skip=1
        if (( CURRENT >= 4 )); then
          case "$cmd ${words[3]}" in
            \(groups.joined(separator: "|"))) cmd="$cmd ${words[3]}"; skip=2 ;;
          esac
        fi
        shift $skip words
        (( CURRENT -= skip ))
        case $cmd in
          help)
            _describe -t commands 'fonti-batch command' commands
            ;;
      \(cases)  esac
      }

      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        _fonti_batch "$@"
      else
        compdef _fonti_batch fonti-batch
      fi

      """
  }

  // MARK: fish

  /// Text in fish single quotes.
  static func fishText(_ text: String) -> String {
    "'"
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
      + "'"
  }

  static func fish(_ commands: [CommandSpec]) -> String {
    let top = topWords(commands)
    var lines = [
      "# fish completion for fonti-batch; generated by 'fonti-batch completions fish'.",
      "",
      "# Family names, from the tool itself (the fonts it sees now), one a line.",
      "function __fonti_batch_names",
      "    set -l prog (commandline -opc)[1]",
      "    string match -q -- '*/*' $prog; and test -x $prog; or set prog fonti-batch",
      "    command $prog \(CompletionWords.command) $argv[1] 2>/dev/null",
      "end",
      "",
      "# After OPTION= (argv[1]), the words of a comma-separated list (the rest of argv) not",
      "# given yet, after what is typed up to the last comma.",
      "function __fonti_batch_list",
      "    set -l token (commandline -ct)",
      "    string match -q -- \"$argv[1]=*\" \"$token\"; or return",
      "    set -l typed (string replace -- \"$argv[1]=\" '' \"$token\")",
      "    set -l given (string replace -r -- '[^,]*$' '' \"$typed\")",
      "    for word in $argv[2..-1]",
      "        contains -- $word (string split -- , \"$given\"); or echo \"$argv[1]=$given$word\"",
      "    end",
      "end",
      "",
      "complete -c fonti-batch -f",
      "complete -c fonti-batch -n __fish_use_subcommand -l version -d 'version and build'",
      "complete -c fonti-batch -n __fish_use_subcommand -s h -l help -d 'this help'",
      "complete -c fonti-batch -n __fish_use_subcommand -a help -d 'help for one command'",
      "complete -c fonti-batch -n '__fish_seen_subcommand_from help' -a "
        + fishText(top.dropLast().joined(separator: " ")),
    ]
    for command in commands where command.words.count == 1 {
      lines.append(
        "complete -c fonti-batch -n __fish_use_subcommand -a \(command.name) -d \(fishText(command.summary))"
      )
    }
    for command in commands {
      // The condition that this command is the one being typed.
      var condition: String
      if command.words.count == 2 {
        condition =
          "__fish_seen_subcommand_from \(command.words[0]); and __fish_seen_subcommand_from \(command.words[1])"
      } else {
        condition = "__fish_seen_subcommand_from \(command.words[0])"
        let subs = subcommands(of: command, in: commands).filter { $0 != "list" }
        if !subs.isEmpty {
          condition += "; and not __fish_seen_subcommand_from \(subs.joined(separator: " "))"
        }
      }
      let prefix = "complete -c fonti-batch -n \(fishText(condition))"
      for word in argumentWords(command, commands) {
        let summary =
          commands.first { $0.words == command.words + [word] }?.summary
          ?? (word == "list" ? "list (the default)" : nil)
        lines.append("\(prefix) -a \(word)" + (summary.map { " -d \(fishText($0))" } ?? ""))
      }
      if let names = familyNames(command) {
        lines.append("\(prefix) -a '(__fonti_batch_names \(names.rawValue))' -d 'font family'")
      } else if command.maxPositionals != 0 && argumentWords(command, commands).isEmpty {
        // Files, but not for the list after `--strict=`: fish would offer them after the '='.
        var files = condition
        for spec in allOptions(command) where listWords(spec) != nil {
          files += "; and not string match -q -- \"\(spec.key)=*\" (commandline -ct)"
        }
        lines.append("complete -c fonti-batch -n \(fishText(files)) -F")
      }
      for spec in allOptions(command) {
        var line = prefix
        for name in spec.names {
          line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
        }
        if !spec.isFlag {
          switch valueKind(spec) {
          case .directory: line += " -r -F"
          case .file: line += " -r -F"
          case .choice(let words): line += " -x -a \(fishText(words.joined(separator: " ")))"
          case .text: line += " -x"
          }
        }
        lines.append(line + " -d \(fishText(spec.help))")
        if let words = listWords(spec) {
          lines.append(
            "\(prefix) -a '(__fonti_batch_list \(spec.key) \(words.joined(separator: " ")))'")
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
