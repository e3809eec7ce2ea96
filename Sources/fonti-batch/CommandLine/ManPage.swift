import FontiModel
import FontiSupport

/// The manual page fonti-batch(1), in roff's man macros, generated from the `CommandSpec` table
/// the parser and `--help` read: every command with its summary, details and options.
enum ManPage {
  /// Text safe in roff text lines: backslashes and hyphens escaped, refilled into lines of at
  /// most `width` bytes (roff fills them again; mandoc asks for short input lines), and a line
  /// that would start with a control character (`.` or `'`) guarded with `\&`.
  static func escape(_ text: String, width: Int = 78) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      var escaped = ""
      for character in word {
        switch character {
        case "\\": escaped += "\\e"
        case "-": escaped += "\\-"
        default: escaped.append(character)
        }
      }
      if !line.isEmpty, line.utf8.count + 1 + escaped.utf8.count > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? escaped : " " + escaped
    }
    if !line.isEmpty { lines.append(line) }
    return lines.map { $0.first == "." || $0.first == "'" ? "\\&" + $0 : $0 }
      .joined(separator: "\n")
  }

  /// The page's date: `SOURCE_DATE_EPOCH`'s day when it is set (reproducible builds), else
  /// today's, as `man` pages carry the date they were made.
  static var date: String {
    String(Timestamp.format(Timestamp.now()).prefix(10))
  }

  /// `-o, --output DIR` as roff: names bold, the value's placeholder italic.
  static func optionLabel(_ spec: OptionSpec) -> String {
    var label = spec.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
    if let value = spec.valueName { label += " \\fI\(escape(value))\\fR" }
    return label
  }

  static func synopsis(_ command: CommandSpec) -> String {
    var parts = ["\\fBfonti\\-batch \(escape(command.name))\\fR"]
    if !command.options.isEmpty { parts.append("[\\fIOPTIONS\\fR]") }
    if !command.arguments.isEmpty { parts.append("\\fI\(escape(command.arguments))\\fR") }
    return parts.joined(separator: " ")
  }

  static func page(_ commands: [CommandSpec]) -> String {
    var roff = """
      .TH FONTI\\-BATCH 1 \(date) "fonti\\-batch \(FontiVersion.number)" "User Commands"
      .SH NAME
      fonti\\-batch \\- type specimens in batch, from a YAML job file
      .SH SYNOPSIS
      .B fonti\\-batch
      .I COMMAND
      .RI [ OPTIONS ]
      .RI [ ARGUMENTS ]
      .br
      .B fonti\\-batch help
      .RI [ COMMAND ]
      .br
      .B fonti\\-batch \\-\\-version
      .SH DESCRIPTION
      .B fonti\\-batch
      turns a YAML job file into type specimens
      (a 1080\\(mu1080 PNG per font family), PDF catalogues with proof pages,
      pairing sheets, a favourites manifest and a web gallery;
      it compares two versions of a font library,
      and splits one job over several machines.
      Fonts are found and matched by fontconfig, shaped by Pango and HarfBuzz,
      and drawn by Cairo.
      .PP
      .B fonti\\-batch init
      writes a commented example job file;
      .B fonti\\-batch run
      renders it.
      Results go to standard output; diagnostics and progress go to standard error.
      An error in a file is printed as
      .IR FILE : LINE : COLUMN ": error: " MESSAGE ,
      and every error of a job file is reported at once.
      .SH COMMANDS

      """
    for command in commands {
      roff += ".SS \(synopsis(command))\n\(escape(command.summary)).\n"
      if !command.details.isEmpty { roff += ".PP\n\(escape(command.details))\n" }
      for spec in command.options {
        roff += ".TP\n\(optionLabel(spec))\n\(escape(spec.help))"
        roff += spec.repeatable ? " (repeatable).\n" : ".\n"
      }
    }
    roff += """
      .SH OPTIONS
      Every command also takes:
      .TP
      \(Invocation.common.map(optionLabel).joined(separator: "\n"))
      show the command's help.
      .PP
      Without a command:
      .TP
      .B \\-\\-version
      print the version and the build (the git commit).
      .TP
      .BR \\-h ", " \\-\\-help
      list the commands.
      .SH EXIT STATUS
      .TP
      .B 0
      everything asked for was written.
      .TP
      .B 1
      the run went through but some outputs failed (or, with
      .BR \\-\\-strict ,
      warned); the rest was written.
      .TP
      .B 2
      usage or validation error: nothing was rendered.
      .TP
      .BR 130 ", " 143
      interrupted by SIGINT or SIGTERM: finished files are intact,
      nothing half\\-written is left behind.
      .SH ENVIRONMENT
      .TP
      .B SOURCE_DATE_EPOCH
      the time written into outputs (manifests, PDF dates), for reproducible builds.
      .TP
      .B NO_COLOR
      no colour in messages, even on a terminal.
      .TP
      .B XDG_DATA_HOME
      where the font library lives
      .RI ( $XDG_DATA_HOME/fonti/fonts ).
      .TP
      .BR CI_NODE_INDEX ", " CI_NODE_TOTAL ", " JOB_COMPLETION_INDEX ", " FONTI_SHARD_TOTAL
      the shard a machine draws, for
      .BR "run \\-\\-shard auto" .
      .TP
      .B GITHUB_ACTIONS
      when
      .BR true ,
      warnings and errors are also printed as workflow commands, at most 10 of each
      severity, most severe first.
      .TP
      .B GITHUB_STEP_SUMMARY
      the file that
      .BR run ", " check ", " merge " and " diff
      append their Markdown summary to.
      .TP
      .B FONTI_ITEM_TIMEOUT
      seconds a family's drawing may take before it fails as timed out (default 60; a
      catalogue gets that for each of its families).
      .SH FILES
      .TP
      .I ./specimens.yaml
      the job file
      .B run
      and
      .B check
      read when none is named.
      .TP
      .I ~/.local/share/fonti/fonts
      the imported font library
      .RB ( "fonti\\-batch fonts" ).
      .SH SEE ALSO
      .BR fc\\-list (1),
      .BR pango\\-view (1)
      .PP
      The manual by topic is the
      .I docs/
      folder of the source repository.

      """
    return roff
  }
}
