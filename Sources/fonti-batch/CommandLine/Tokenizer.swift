/// One command-line argument, split the way `Invocation` matches it.
enum Token: Equatable {
  /// `--name`, `--name=value`, `-n`, or `-nVALUE` (the inline value, when there is one).
  case option(name: String, inlineValue: String?, index: Int)
  /// Anything else: a command word, a positional, or an option's separate value.
  case value(String, index: Int)
  /// `--`: everything after it is positional.
  case terminator(index: Int)
}

/// Splits argv into tokens; knows nothing of commands (ArgumentParser's SplitArguments).
enum Tokenizer {
  static func tokenize(_ arguments: [String]) -> [Token] {
    var tokens: [Token] = []
    var afterTerminator = false
    for (index, argument) in arguments.enumerated() {
      if afterTerminator {
        tokens.append(.value(argument, index: index))
      } else if argument == "--" {
        afterTerminator = true
        tokens.append(.terminator(index: index))
      } else if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        if let eq = body.firstIndex(of: "=") {
          tokens.append(
            .option(
              name: "--" + body[..<eq], inlineValue: String(body[body.index(after: eq)...]),
              index: index))
        } else {
          tokens.append(.option(name: argument, inlineValue: nil, index: index))
        }
      } else if argument.hasPrefix("-") && argument.count > 1 && !isNegativeNumber(argument) {
        let name = String(argument.prefix(2))
        let rest = argument.dropFirst(2)
        tokens.append(
          .option(name: name, inlineValue: rest.isEmpty ? nil : String(rest), index: index))
      } else {
        tokens.append(.value(argument, index: index))
      }
    }
    return tokens
  }

  /// "-3", "-0.5": a value (an option's, to be refused there with its reason), never an
  /// option: no option is a digit.
  static func isNegativeNumber(_ argument: String) -> Bool {
    let rest = argument.utf8.dropFirst()
    return rest.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
  }
}
