import FontiEngine
import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The entry point: parse, run one command, map every outcome to an exit code, exit.
@main
enum FontiBatch {
  static func main() {
    let console = Console()
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments == [Worker.command] {
      do {
        try Worker.main()
        exit(ExitCode.success.rawValue)
      } catch {
        let code = ExitCode.report(error, console: console)
        console.flushAnnotations()
        exit(code.rawValue)
      }
    }
    // A write over a file-size limit fails (EFBIG) and is reported, like a full disk.
    signal(SIGXFSZ, SIG_IGN)
    // A run's parent tunes its allocator and gives back what it read to plan: this program's
    // choice, made before any thread starts.
    ProcessMemory.manage()
    Signals.unblock()
    if let bad = argumentNotUTF8() {
      // Swift would have read its bytes as U+FFFD: a path so named would "not exist".
      console.error(
        "argument '\(bad)' is not UTF-8: fonti-batch reads paths and names as UTF-8 "
          + "(a file or folder so named: rename it, e.g. with convmv)")
      exit(ExitCode.usage.rawValue)
    }
    let code = run(arguments, console: console)
    // Under GitHub Actions: the workflow commands, bounded, most severe first.
    console.flushAnnotations()
    exit(code.rawValue)
  }

  /// The first command-line argument whose bytes are not UTF-8, shown with `\xNN` escapes.
  static func argumentNotUTF8() -> String? {
    guard CommandLine.argc > 1 else { return nil }
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      let bytes = UnsafeBufferPointer(start: argument, count: strlen(argument)).map {
        UInt8(bitPattern: $0)
      }
      if String(validating: bytes, as: UTF8.self) == nil { return FileSystem.display(bytes) }
    }
    return nil
  }

  static func run(_ arguments: [String], console: Console) -> ExitCode {
    let commands = Commands.all
    switch arguments.first {
    case nil, "-h", "--help":
      console.out(Usage.overview(commands))
      return arguments.isEmpty ? .usage : .success
    case "--version":
      console.line("\(FontiVersion.tool) (build \(BuildInfo.commit))")
      return .success
    case CompletionWords.command:
      return CompletionWords.run(Array(arguments.dropFirst()), console: console)
    case "help":
      let words = Array(arguments.dropFirst())
      if words.isEmpty {
        console.out(Usage.overview(commands))
        return .success
      }
      if words == ["-h"] || words == ["--help"] {
        console.out(
          "Usage: fonti-batch help [COMMAND]\n\nshow the commands, or the help of COMMAND "
            + "(the same as 'fonti-batch COMMAND --help')\n")
        return .success
      }
      guard
        let command = commands.filter({ Array(words.prefix($0.words.count)) == $0.words })
          .max(by: { $0.words.count < $1.words.count })
      else {
        let hint = Suggest.didYouMean(words[0], among: commands.map { $0.words[0] })
        console.error(
          "unknown command '\(words[0])'" + (hint.map { " (did you mean '\($0)'?)" } ?? ""))
        return .usage
      }
      // `help saved ad`: a word past the command is a mistyped subcommand, not to be ignored.
      if words.count > command.words.count {
        let asked = words.joined(separator: " ")
        let depth = command.words.count
        let subcommands = commands.filter {
          $0.words.count == depth + 1 && Array($0.words.prefix(depth)) == command.words
        }.map { $0.words[depth] }
        let hint =
          Suggest.didYouMean(words[depth], among: subcommands)
          .map { " (did you mean '\(command.name) \($0)'?)" } ?? ""
        console.error("unknown command '\(asked)'\(hint)")
        console.err("See 'fonti-batch help \(command.name)'.\n")
        return .usage
      }
      console.out(Usage.help(for: command))
      return .success
    default:
      break
    }
    // `favorites` is the American spelling of `saved`.
    var arguments = arguments
    if arguments.first == "favorites" || arguments.first == "favourites" { arguments[0] = "saved" }
    var command: CommandSpec?
    do {
      let invocation = try Invocation.parse(arguments, commands: commands)
      command = invocation.command
      if invocation.has("--help") {
        console.out(Usage.help(for: invocation.command))
        return .success
      }
      return try invocation.command.run(invocation, console)
    } catch {
      return ExitCode.report(error, command: command, console: console)
    }
  }
}
