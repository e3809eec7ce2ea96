import Foundation
import TestSupport
import Testing

@testable import FontiModel
@testable import FontiSupport

/// The invalid job fixtures: each file says which errors it must produce, as comments.
///
/// `# expect-error: LINE:COLUMN message` (or `# expect-error: message` for an error that points
/// at no line) expects an error at that position whose message contains `message`;
/// `# expect-warning:` likewise. The message is matched against the diagnostic's message and its
/// hint. A file must produce exactly its expected diagnostics.
struct JobFixtureTests {
  /// One expected diagnostic.
  struct Expectation: CustomStringConvertible {
    var severity: Diagnostic.Severity
    var mark: Mark?
    var message: String

    var description: String {
      "\(severity.rawValue) \(mark.map { "\($0) " } ?? "")\(message)"
    }

    func matches(_ d: Diagnostic) -> Bool {
      d.severity == severity && d.mark == mark
        && (d.message.contains(message) || (d.hint ?? "").contains(message))
    }
  }

  static let folder = URL(fileURLWithPath: TestPaths.fixtures + "/Jobs/invalid")

  static func expectations(in text: String) -> [Expectation] {
    var result: [Expectation] = []
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let severity: Diagnostic.Severity
      var rest: Substring
      if line.hasPrefix("# expect-error: ") {
        severity = .error
        rest = line.dropFirst("# expect-error: ".count)
      } else if line.hasPrefix("# expect-warning: ") {
        severity = .warning
        rest = line.dropFirst("# expect-warning: ".count)
      } else {
        continue
      }
      var mark: Mark?
      if let space = rest.firstIndex(of: " ") {
        let parts = rest[..<space].split(separator: ":")
        if parts.count == 2, let l = Int(parts[0]), let c = Int(parts[1]) {
          mark = Mark(line: l, column: c)
          rest = rest[rest.index(after: space)...]
        }
      }
      result.append(Expectation(severity: severity, mark: mark, message: String(rest)))
    }
    return result
  }

  @Test func everyInvalidFixtureProducesExactlyItsExpectedDiagnostics() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".yaml") }.sorted()
    #expect(names.count >= 25, "too few invalid fixtures: \(names.count)")
    for name in names {
      let path = Self.folder.appendingPathComponent(name).path
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let expected = Self.expectations(in: text)
      #expect(!expected.isEmpty, "\(name) declares no expect-error")
      var actual: [Diagnostic]
      do {
        actual = try JobDecoder.load(path: path, languages: TestLanguages.table).warnings
        Issue.record("\(name) decoded without errors")
      } catch {
        actual = error.diagnostics
      }
      let shown = actual.map { d in
        "  \(d.severity.rawValue) \(d.mark.map { "\($0) " } ?? "")\(d.message)"
      }.joined(separator: "\n")
      #expect(
        actual.count == expected.count,
        "\(name): expected \(expected.count) diagnostics, got \(actual.count):\n\(shown)")
      for (e, a) in zip(expected, actual) {
        #expect(e.matches(a), "\(name): expected \(e), got:\n\(shown)")
      }
      for d in actual {
        #expect(d.file == path, "\(name): diagnostic without the file: \(d)")
        if let mark = d.mark {
          #expect(d.snippet != nil, "\(name): located diagnostic without a snippet at \(mark)")
        }
      }
    }
  }
}
