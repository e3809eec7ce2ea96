import FontiSupport

/// Help text, generated from the same `CommandSpec` table the parser reads.
enum Usage {
  static func synopsis(_ command: CommandSpec) -> String {
    var parts = ["fonti-batch", command.name]
    if !command.options.isEmpty { parts.append("[OPTIONS]") }
    if !command.arguments.isEmpty { parts.append(command.arguments) }
    return parts.joined(separator: " ")
  }

  static func optionLines(_ options: [OptionSpec]) -> String {
    let rows = options.map { spec -> (String, String) in
      var left = spec.names.joined(separator: ", ")
      if let v = spec.valueName { left += " \(v)" }
      if let v = spec.inlineValueName { left += "[=\(v)]" }
      if spec.repeatable { left += " (repeatable)" }
      return (left, spec.help)
    }
    let width = min(30, rows.map(\.0.count).max() ?? 0)
    return rows.map { left, help in
      let pad = String(repeating: " ", count: max(0, width - left.count))
      return "  \(left)\(pad)  \(help)"
    }.joined(separator: "\n")
  }

  static func help(for command: CommandSpec) -> String {
    var text = "Usage: \(synopsis(command))\n\n\(command.summary)\n"
    if !command.details.isEmpty { text += "\n\(command.details)\n" }
    text += "\nOptions:\n\(optionLines(command.options + Invocation.common))\n"
    return text
  }

  static func overview(_ commands: [CommandSpec]) -> String {
    var text = """
      fonti-batch \(FontiVersion.number): type specimens in batch, from a YAML job file.

      Usage: fonti-batch COMMAND [OPTIONS] [ARGUMENTS]

      Commands:

      """
    let width = commands.map { $0.name.count }.max() ?? 0
    for command in commands {
      let pad = String(repeating: " ", count: width - command.name.count)
      text += "  \(command.name)\(pad)  \(command.summary)\n"
    }
    text += """

      Global:
        --version    version and build
        -h, --help   this help; 'fonti-batch help COMMAND' or 'COMMAND --help' for one command

      """
    return text
  }
}
