import Foundation

/// What `run`, `check`, `merge` or `diff` tells a CI, in one shape that every report format
/// (`--report FORMAT=FILE`: JUnit, SARIF, Markdown, JSON, a badge) is written from
/// (docs/ci.md). The engine and `diff` fill it from their results; the writers beside it only
/// lay it out, so that every format says the same thing.
///
/// Nothing in it depends on the clock except `started` and `finished`, which only JUnit's
/// `time`/`timestamp` and SARIF's invocation times show: the other bytes of every report are
/// the same for the same results.
public struct CIReport: Sendable {
  /// The command reported on; each has its own JUnit suite and SARIF `automationDetails.id`.
  public enum Command: String, Sendable, CaseIterable {
    case run, check, merge, diff
  }

  /// How much a finding matters, most severe first.
  public enum Level: String, Sendable, Comparable, CaseIterable {
    /// A failed output, or a warning that fails `--strict`.
    case error
    /// A warning of the job's kinds that does not fail (no `--strict`).
    case warning
    /// A fact about a font, or a change `diff` found.
    case note

    var rank: Int {
      switch self {
      case .error: return 0
      case .warning: return 1
      case .note: return 2
      }
    }

    public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
  }

  /// Where a finding is: a file (the job file, or for `diff` a font file) with the line and
  /// column when it points at one, and the family, face and glyph it is about.
  public struct Location: Sendable, Hashable {
    /// As given on the command line or in the job: relative to the working folder, or absolute.
    public var file: String
    public var line: Int?
    public var column: Int?
    public var family: String?
    public var face: String?
    public var glyph: String?

    public init(
      file: String, line: Int? = nil, column: Int? = nil, family: String? = nil,
      face: String? = nil, glyph: String? = nil
    ) {
      self.file = file
      self.line = line
      self.column = column
      self.family = family
      self.face = face
      self.glyph = glyph
    }

    /// `file:line:column`, as far as it is known.
    public var text: String {
      file + (line.map { ":\($0)" } ?? "") + (line != nil ? column.map { ":\($0)" } ?? "" : "")
    }
  }

  /// One warning, failure or change, located.
  public struct Finding: Sendable, Hashable {
    /// The rule: a warning kind (docs/warnings.md), a `diff` change kind (docs/diff.md), or one
    /// of `Rule.failures`.
    public var rule: String
    public var level: Level
    public var message: String
    public var location: Location

    public init(rule: String, level: Level, message: String, location: Location) {
      self.rule = rule
      self.level = level
      self.message = message
      self.location = location
    }
  }

  /// What a rule is, for SARIF's `tool.driver.rules`.
  public struct Rule: Sendable, Hashable {
    public var id: String
    /// One line: what this kind of finding means.
    public var summary: String
    /// Where the documentation says more, relative to the repository (`docs/warnings.md#…`).
    public var help: String
    /// The level a finding of this rule has when nothing raises it.
    public var level: Level

    public init(id: String, summary: String, help: String, level: Level) {
      self.id = id
      self.summary = summary
      self.help = help
      self.level = level
    }
  }

  /// One test case of the JUnit report: an output (specimen, pairing sheet, catalogue), a
  /// `diff` family, or the job itself (its own warnings and errors).
  public struct Case: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
      case passed
      /// A warning failing `--strict` (or, for `diff --exit-code`, a change): `failure`.
      case failed(message: String, details: [String])
      /// An output not drawn: `error`.
      case error(message: String, details: [String])
      /// Not made in this run and not on disk either (`--only` left it out): `skipped`.
      case skipped(message: String)
    }

    /// What kind of case: `specimen`, `pairing`, `catalogue`, `job`, `family` (JUnit's
    /// `classname`, after the command).
    public var group: String
    public var name: String
    public var seconds: Double?
    public var outcome: Outcome
    /// Facts and warnings that do not fail: JUnit's `system-out`.
    public var notes: [String]

    public init(
      group: String, name: String, seconds: Double? = nil, outcome: Outcome = .passed,
      notes: [String] = []
    ) {
      self.group = group
      self.name = name
      self.seconds = seconds
      self.outcome = outcome
      self.notes = notes
    }
  }

  /// The shields.io endpoint's colour.
  public enum BadgeColour: String, Sendable {
    case brightgreen, orange, red
  }

  public var command: Command
  /// The exit status the command ends with (before any report is written).
  public var exitCode: Int32
  /// What was looked at: the job file, or `BEFORE → AFTER`.
  public var subject: String
  /// The one-line verdict with the counts ("4 families: 2 rendered, …").
  public var summary: String
  public var badgeMessage: String
  public var badgeColour: BadgeColour
  public var cases: [Case] = []
  public var findings: [Finding] = []
  public var rules: [Rule] = []
  /// The outputs written and skipped, as lines for the Markdown summary ("12 written").
  public var outputs: [String] = []
  /// Markdown to use as it is (for `diff`: `diff.md`'s text); nil: made from the rest.
  public var markdown: String?
  /// What `--json` prints.
  public var json: [UInt8] = []
  /// Where a reader finds everything a bounded report leaves out ("N left out: see FILE").
  public var detailsFile: String
  public var started: Date
  public var finished: Date

  public init(
    command: Command, exitCode: Int32, subject: String, summary: String, badgeMessage: String,
    badgeColour: BadgeColour, detailsFile: String, started: Date, finished: Date = Date()
  ) {
    self.command = command
    self.exitCode = exitCode
    self.subject = subject
    self.summary = summary
    self.badgeMessage = badgeMessage
    self.badgeColour = badgeColour
    self.detailsFile = detailsFile
    self.started = started
    self.finished = finished
  }

  /// Whether the command passed (exit 0).
  public var passed: Bool { exitCode == 0 }

  /// The findings most severe first, each level in the order found.
  public var findingsBySeverity: [Finding] {
    Level.allCases.flatMap { level in findings.filter { $0.level == level } }
  }
}

extension CIReport.Rule {
  /// The rules of failures that are no warning: an output (or a `diff` family) not made.
  public static let failures: [CIReport.Rule] = [
    CIReport.Rule(
      id: "output-failed", summary: "An output could not be drawn or written.",
      help: "docs/exit-codes.md", level: .error),
    CIReport.Rule(
      id: "family-failed", summary: "A family could not be compared: a side could not be loaded.",
      help: "docs/diff.md", level: .error),
  ]
}
