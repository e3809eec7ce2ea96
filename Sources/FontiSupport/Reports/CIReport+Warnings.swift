extension CIReport.Rule {
  /// Every warning kind as a rule, with its meaning and where docs/warnings.md explains it; a
  /// job kind a warning, a font fact a note, unless `--strict` raises them.
  public static var warningKinds: [CIReport.Rule] {
    WarningKind.allCases.map { kind in
      CIReport.Rule(
        id: kind.rawValue, summary: kind.meaning, help: "docs/warnings.md (kind \(kind.rawValue))",
        level: kind.group == .job ? .warning : .note)
    }
  }
}

extension CIReport.Level {
  /// A warning's level: `error` when it fails under `strict`, `warning` for the job's other
  /// kinds, `note` for facts about fonts.
  public static func of(_ kind: WarningKind, strict: StrictPolicy?) -> CIReport.Level {
    if strict?.fails(kind) == true { return .error }
    return kind.group == .job ? .warning : .note
  }
}

extension CIReport {
  /// A job's report: the job file's warnings (each at its line, or at `families:` when it has
  /// none) and errors as findings, a JUnit case for the job itself.
  public struct JobFile: Sendable {
    /// The job file as the user named it.
    public var path: String
    /// Where `families:` is written: a warning about a family has no line of its own.
    public var familiesMark: Mark?

    public init(path: String, familiesMark: Mark?) {
      self.path = path
      self.familiesMark = familiesMark
    }

    /// Where a diagnostic points: its own file and position, else (no file, or the job file
    /// without a line) the job's `families:` line, or its first line, with the family it names.
    public func location(
      file: String?, line: Int?, column: Int?, message: String, family: String? = nil
    ) -> Location {
      let named = family ?? Diagnostic.family(in: message)
      // A warning in another file, or at a line of the job file, stays where it points.
      if let file, file != path || line != nil {
        return Location(file: file, line: line, column: column, family: named)
      }
      return Location(
        file: path, line: familiesMark?.line ?? 1, column: familiesMark?.column ?? 1,
        family: named)
    }
  }

  /// A finding for a warning message of `kind`.
  public static func warning(
    _ message: String, kind: WarningKind, strict: StrictPolicy?, at location: Location
  ) -> Finding {
    Finding(
      rule: kind.rawValue, level: Level.of(kind, strict: strict), message: message,
      location: location)
  }

  /// A JUnit case's outcome for its warnings: those failing `strict` make it `failed`, the
  /// rest are notes (`[kind] message`).
  public static func outcome(
    warnings: [(message: String, kind: WarningKind)], strict: StrictPolicy?
  ) -> (outcome: Case.Outcome, notes: [String]) {
    let failing = warnings.filter { strict?.fails($0.kind) == true }
    let notes = warnings.filter { strict?.fails($0.kind) != true }.map {
      "[\($0.kind.rawValue)] \($0.message)"
    }
    guard let first = failing.first else { return (.passed, notes) }
    let message =
      failing.count == 1
      ? "[\(first.kind.rawValue)] \(first.message)"
      : "\(failing.count) warnings fail --strict, the first: [\(first.kind.rawValue)] "
        + first.message
    return (
      .failed(message: message, details: failing.map { "[\($0.kind.rawValue)] \($0.message)" }),
      notes
    )
  }

  /// A path as reports show it: relative to the working folder when it is inside it.
  public static func shown(_ path: String, relativeTo folder: String) -> String {
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
  }
}
