import FontiSupport
import Foundation

/// An option a command accepts. The parser and the help text both read this one table.
struct OptionSpec: Sendable {
  /// Spellings, short first: `["-o", "--output"]`. The last one is the canonical key.
  var names: [String]
  /// The value's placeholder (`DIR`), or nil for a flag.
  var valueName: String?
  var help: String
  /// May be given more than once (values accumulate); otherwise a repeat is an error.
  var repeatable = false
  /// For a flag that may also be given a value after `=` (`--strict=KIND,...`), the value's
  /// placeholder. The next argument is never taken as its value.
  var inlineValueName: String?

  var key: String { names.last ?? "" }
  var isFlag: Bool { valueName == nil }

  static func flag(_ names: String..., help: String) -> OptionSpec {
    OptionSpec(names: names, valueName: nil, help: help)
  }

  /// A flag that may carry a value after `=`: `--strict` or `--strict=KIND,...`.
  static func flag(_ names: String..., orValue valueName: String, help: String) -> OptionSpec {
    OptionSpec(names: names, valueName: nil, help: help, inlineValueName: valueName)
  }

  /// The placeholder of `--strict=KIND,...`: a comma-separated list of warning kinds, which
  /// the completions offer.
  static let warningKinds = "KIND,..."

  /// `--strict[=KIND,...]`: the job's warnings fail `what` (exit 1).
  static func strict(failing what: String) -> OptionSpec {
    .flag(
      "--strict", orValue: warningKinds,
      help: "the job's warnings fail \(what) (exit 1); =KIND,... names exactly which kinds")
  }

  /// `--report FORMAT=FILE`, repeatable: the CI reports of `run`, `check`, `merge` and `diff`.
  static let report = OptionSpec.value(
    "--report", as: "FORMAT=FILE",
    help: "a CI report: junit, sarif, markdown, json or badge (repeatable)",
    repeatable: true)

  static func value(
    _ names: String..., as valueName: String, help: String, repeatable: Bool = false
  )
    -> OptionSpec
  {
    OptionSpec(names: names, valueName: valueName, help: help, repeatable: repeatable)
  }
}

/// A command: its words (`["saved", "add"]`), arguments, options and what runs it.
struct CommandSpec: Sendable {
  var words: [String]
  /// The positional part of the synopsis, e.g. `[JOB]` or `FAMILY...`.
  var arguments: String
  var summary: String
  /// Longer help shown by `help COMMAND`, after the synopsis.
  var details: String = ""
  var minPositionals = 0
  var maxPositionals: Int? = 0
  var options: [OptionSpec] = []
  var run: @Sendable (Invocation, Console) throws -> ExitCode

  var name: String { words.joined(separator: " ") }
}

/// A usage mistake on the command line: exit 2, with the command's usage line.
struct UsageError: Error {
  var message: String
  var command: CommandSpec?
}

/// A parsed command line: which command, its flags, option values and positionals.
struct Invocation {
  var command: CommandSpec
  var flags: Set<String> = []
  var values: [String: [String]] = [:]
  var positionals: [String] = []

  func has(_ key: String) -> Bool { flags.contains(key) }
  func value(_ key: String) -> String? { values[key]?.last }
  func all(_ key: String) -> [String] { values[key] ?? [] }

  /// A FAMILY argument, refused when blank (it would match nothing, and suggest anything).
  func family(_ name: String) throws(UsageError) -> String {
    if name.trimmingCharacters(in: .whitespaces).isEmpty {
      throw UsageError(message: "FAMILY is empty", command: command)
    }
    return name
  }

  /// For a command group whose own form is `GROUP [list]` (`saved`, `fonts`): the only word it
  /// takes is `list`; another word is an unknown subcommand, with "did you mean".
  func checkListWord(subcommands: [String]) throws(UsageError) {
    let group = command.name
    if let word = positionals.first, word != "list" {
      let hint =
        Suggest.didYouMean(word, among: ["list"] + subcommands)
        .map { " (did you mean '\(group) \($0)'?)" } ?? ""
      throw UsageError(message: "unknown command '\(group) \(word)'\(hint)", command: command)
    }
    if positionals.count > 1 {
      throw UsageError(message: "unexpected argument '\(positionals[1])'", command: command)
    }
  }

  /// Options every command takes.
  static let common: [OptionSpec] = [.flag("-h", "--help", help: "show this help")]

  /// Matches tokens against the command table. `help`/`--version` are handled by the caller.
  static func parse(_ arguments: [String], commands: [CommandSpec]) throws(UsageError) -> Invocation
  {
    let tokens = Tokenizer.tokenize(arguments)
    // The longest run of leading words that names a command wins (`saved add` over `saved`).
    var leading: [String] = []
    for token in tokens {
      guard case .value(let word, _) = token else { break }
      leading.append(word)
    }
    var best: CommandSpec?
    for command in commands where command.words.count <= leading.count {
      if Array(leading.prefix(command.words.count)) == command.words,
        command.words.count > (best?.words.count ?? 0)
      {
        best = command
      }
    }
    guard let command = best else {
      guard let word = leading.first else {
        // An option before any command (`fonti-batch --versoin`): name it, not "no command".
        if case .option(let name, _, _)? = tokens.first {
          let global = ["--version", "--help"]
          let hint = Suggest.didYouMean(name, among: global).map { " (did you mean '\($0)'?)" }
          throw UsageError(
            message: "unknown option '\(name)'" + (hint ?? "; options come after the command"),
            command: nil)
        }
        throw UsageError(message: "no command given", command: nil)
      }
      let names = Set(commands.map { $0.words[0] })
      let hint = Suggest.didYouMean(word, among: names).map { " (did you mean '\($0)'?)" } ?? ""
      throw UsageError(message: "unknown command '\(word)'\(hint)", command: nil)
    }
    var invocation = Invocation(command: command)
    let options = command.options + common
    var index = command.words.count
    var afterTerminator = false
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      switch token {
      case .terminator:
        afterTerminator = true
      case .value(let value, _):
        invocation.positionals.append(value)
      case .option(let name, let inline, _):
        if afterTerminator {
          invocation.positionals.append(name + (inline ?? ""))
          continue
        }
        guard let spec = options.first(where: { $0.names.contains(name) }) else {
          let all = Set(options.flatMap(\.names).filter { $0.hasPrefix("--") })
          let hint = Suggest.didYouMean(name, among: all).map { " (did you mean '\($0)'?)" } ?? ""
          throw UsageError(message: "unknown option '\(name)'\(hint)", command: command)
        }
        if spec.isFlag {
          if let inline, spec.inlineValueName != nil, name.hasPrefix("--") {
            if invocation.flags.contains(spec.key) {
              throw UsageError(message: "option '\(spec.key)' given twice", command: command)
            }
            invocation.flags.insert(spec.key)
            invocation.values[spec.key] = [inline]
            continue
          }
          if let inline {
            // `-qv` style bundles are not supported; `--flag=x` never makes sense.
            throw UsageError(
              message: name.hasPrefix("--")
                ? "option '\(name)' takes no value (got '\(inline)')"
                : "unknown option '\(name)\(inline)'",
              command: command)
          }
          if invocation.flags.contains(spec.key), !spec.repeatable {
            throw UsageError(message: "option '\(spec.key)' given twice", command: command)
          }
          invocation.flags.insert(spec.key)
        } else {
          var value = inline
          if value == nil, index < tokens.count, case .value(let next, _) = tokens[index] {
            value = next
            index += 1
          }
          guard let value else {
            throw UsageError(
              message: "option '\(name)' needs a value (\(spec.valueName ?? "VALUE"))",
              command: command)
          }
          if invocation.values[spec.key] != nil, !spec.repeatable {
            throw UsageError(message: "option '\(spec.key)' given twice", command: command)
          }
          invocation.values[spec.key, default: []].append(value)
        }
      }
    }
    if invocation.has("--help") { return invocation }
    if invocation.positionals.count < command.minPositionals {
      throw UsageError(message: "missing \(command.arguments)", command: command)
    }
    if let max = command.maxPositionals, invocation.positionals.count > max {
      let extra = invocation.positionals[max]
      throw UsageError(message: "unexpected argument '\(extra)'", command: command)
    }
    return invocation
  }
}

extension Invocation {
  /// A numeric option within `range`, or a usage error naming the range.
  func number(
    _ key: String, default fallback: Double, range: ClosedRange<Double>, integer: Bool = false
  ) throws(UsageError) -> Double {
    guard let text = value(key) else { return fallback }
    // A whole number is written as one: digits, not "1e3" or "2.0".
    let written = !integer || Int(text) != nil
    guard written, let v = Double(text), v.isFinite, range.contains(v), !integer || v.rounded() == v
    else {
      let shown =
        integer
        ? "\(Int(range.lowerBound))–\(Int(range.upperBound))"
        : "\(range.lowerBound.formatted())–\(range.upperBound.formatted())"
      throw UsageError(
        message: "\(key) must be \(integer ? "a whole number " : "")in \(shown) (got '\(text)')",
        command: command)
    }
    return v
  }

  /// An enumerated option, with "did you mean" for a near miss.
  func choice<T: RawRepresentable & CaseIterable>(_ key: String, default fallback: T)
    throws(UsageError) -> T where T.RawValue == String
  {
    guard let text = value(key) else { return fallback }
    if let v = T(rawValue: text.lowercased()) { return v }
    let names = T.allCases.map(\.rawValue)
    let hint = Suggest.didYouMean(text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
    throw UsageError(
      message: "\(key) must be one of \(names.joined(separator: ", ")) (got '\(text)')\(hint)",
      command: command)
  }

  /// `--strict` (the job's kinds of warning fail), `--strict=KIND,...` (exactly those), or nil.
  func strict() throws(UsageError) -> StrictPolicy? {
    guard has("--strict") else { return nil }
    guard let text = value("--strict") else { return .job }
    switch StrictPolicy.parse(text) {
    case .success(let policy): return policy
    case .failure(let unknown): throw UsageError(message: unknown.message, command: command)
    }
  }

  /// `-j N`, 1–64, by default the number of cores.
  func jobs() throws(UsageError) -> Int {
    Int(
      try number(
        "--jobs", default: Double(ProcessInfo.processInfo.activeProcessorCount), range: 1...64,
        integer: true))
  }
}
