/// A position in a source file, 1-based (libyaml's marks are 0-based; the loader adds 1).
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (a: Mark, b: Mark) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }

  public var description: String { "\(line):\(column)" }
}

/// A value read from a file, with where it was read, so later checks can point at it.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
  public var value: Value
  public var mark: Mark?

  public init(_ value: Value, at mark: Mark? = nil) {
    self.value = value
    self.mark = mark
  }
}

/// One problem found in the user's input or environment: an error or a warning.
///
/// The library never prints; it returns diagnostics and the front end prints them with
/// `DiagnosticPrinter`.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
  public enum Severity: String, Sendable, Hashable {
    case error
    case warning
  }

  public var severity: Severity
  public var message: String
  /// The file the problem points into, if any.
  public var file: String?
  /// Where in `file`.
  public var mark: Mark?
  /// The offending source line, shown under the message with a caret.
  public var snippet: String?
  /// A suggestion ("did you mean …?" is part of the message; hints say what to do).
  public var hint: String?
  /// A warning of an output this run did not draw, carried over from the previous run's
  /// manifest: it counts (and fails `--strict` as it did), but is not printed again.
  public var recorded = false

  public init(
    _ severity: Severity, _ message: String, file: String? = nil, mark: Mark? = nil,
    snippet: String? = nil, hint: String? = nil
  ) {
    self.severity = severity
    self.message = message
    self.file = file
    self.mark = mark
    self.snippet = snippet
    self.hint = hint
  }

  public static func error(
    _ message: String, file: String? = nil, at mark: Mark? = nil, hint: String? = nil
  ) -> Diagnostic {
    Diagnostic(.error, message, file: file, mark: mark, hint: hint)
  }

  public static func warning(
    _ message: String, file: String? = nil, at mark: Mark? = nil, hint: String? = nil
  ) -> Diagnostic {
    Diagnostic(.warning, message, file: file, mark: mark, hint: hint)
  }

  public var isError: Bool { severity == .error }

  /// `FILE:LINE:COLUMN: message`, or `FILE: message`, or just the message.
  public var locatedMessage: String {
    switch (file, mark) {
    case (let file?, let mark?): return "\(file):\(mark.line):\(mark.column): \(message)"
    case (let file?, nil): return "\(file): \(message)"
    default: return message
    }
  }

  public var description: String { "\(severity.rawValue): \(locatedMessage)" }
}

/// Errors carrying several diagnostics at once: a job file with five mistakes throws one of
/// these with five errors (and any warnings found on the way).
public struct DiagnosticError: Error, Sendable {
  public var diagnostics: [Diagnostic]

  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
  public init(_ diagnostic: Diagnostic) { self.diagnostics = [diagnostic] }
}
