import FontiSupport

/// The text of a job file split into lines, so that diagnostics can show the offending line.
///
/// Lines are split at the same breaks libyaml counts (LF, CR, CRLF, NEL, LS, PS), so a `Mark`
/// from the parser names the same line here. Kept with the decoded `Job` so that later checks
/// (family names against installed fonts) can point into the file with a snippet too.
public struct SourceText: Sendable, Hashable {
  /// The file as the user named it, used as the `FILE` of `FILE:LINE:COLUMN`.
  public let file: String
  /// The lines, without their line breaks.
  public let lines: [String]

  public init(file: String, text: String) {
    self.file = file
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n" where previousWasCR:
        previousWasCR = false  // the second half of a CRLF
        continue
      case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
        lines.append(String(current))
        current = String.UnicodeScalarView()
        previousWasCR = scalar == "\r"
      default:
        current.append(scalar)
        previousWasCR = false
      }
    }
    lines.append(String(current))
    self.lines = lines
  }

  /// Line `number` (1-based), if the file has it.
  public func line(_ number: Int) -> String? {
    number >= 1 && number <= lines.count ? lines[number - 1] : nil
  }

  /// A diagnostic pointing into this file at `mark`, with the source line as its snippet.
  public func diagnostic(
    _ severity: Diagnostic.Severity, _ message: String, at mark: Mark?, hint: String? = nil
  ) -> Diagnostic {
    Diagnostic(
      severity, message, file: file, mark: mark, snippet: mark.flatMap { line($0.line) },
      hint: hint)
  }

  /// An error at `mark`, with the source line as its snippet.
  public func error(_ message: String, at mark: Mark?, hint: String? = nil) -> Diagnostic {
    diagnostic(.error, message, at: mark, hint: hint)
  }

  /// A warning at `mark`, with the source line as its snippet.
  public func warning(_ message: String, at mark: Mark?, hint: String? = nil) -> Diagnostic {
    diagnostic(.warning, message, at: mark, hint: hint)
  }
}
