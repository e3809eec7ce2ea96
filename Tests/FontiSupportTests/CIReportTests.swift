import Foundation
import FoundationXML
import Testing

@testable import FontiSupport

/// The CI reports' writers on synthetic reports (issue #59 item 1): JUnit's structure and
/// escaping, SARIF's locations, levels and cap, the Markdown cap, the badge's colours.
@Suite struct CIReportTests {
  static let hostile =
    "Evil\u{1}<Sans> & \"Co\" ]]> \u{FFFE}|*_`" + String(repeating: "x", count: 9_000)

  /// A run's report: `families` families with `warnings` warnings each (the first of each
  /// family's failing `--strict`), one family failed, a font fact per family.
  static func synthetic(families: Int, warnings: Int = 3) -> CIReport {
    var report = CIReport(
      command: .run, exitCode: 1, subject: "specimens.yaml",
      summary: "\(families) families: 1 failed", badgeMessage: "\(families) families",
      badgeColour: .red, detailsFile: "output/manifest.json",
      started: Date(timeIntervalSince1970: 1_700_000_000))
    report.rules = CIReport.Rule.warningKinds + CIReport.Rule.failures
    let job = CIReport.JobFile(path: "specimens.yaml", familiesMark: Mark(line: 4, column: 1))
    for n in 0..<families {
      let name = "Family \(n)"
      for w in 0..<warnings {
        let kind: WarningKind = w == 0 ? .missingGlyphs : w == 1 ? .axisRange : .ownScript
        report.findings.append(
          CIReport.warning(
            "family '\(name)' lacks 3 characters of the sample text (U+0041)", kind: kind,
            strict: StrictPolicy(kinds: [.missingGlyphs]),
            at: job.location(file: nil, line: nil, column: nil, message: "family '\(name)'")))
      }
      report.cases.append(
        CIReport.Case(
          group: "specimen", name: name, seconds: 0.25,
          outcome: n == 0
            ? .error(message: "not drawn: no such font", details: ["no such font"])
            : .failed(message: "[missing-glyphs] lacks", details: ["[missing-glyphs] lacks"]),
          notes: ["[own-script] shows its own script"]))
    }
    return report
  }

  /// Each element's name and attributes, in order.
  final class Elements: NSObject, XMLParserDelegate {
    var found: [(name: String, attributes: [String: String])] = []
    var text = ""
    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String]
    ) {
      found.append((name, attributes))
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
  }

  func parse(_ xml: String) throws -> Elements {
    let parser = XMLParser(data: Data(xml.utf8))
    let elements = Elements()
    parser.delegate = elements
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    return elements
  }

  @Test func junitHasASuiteCasesFailuresErrorsAndNotes() throws {
    var report = CIReportTests.synthetic(families: 3)
    report.cases.append(CIReport.Case(group: "specimen", name: CIReportTests.hostile))
    report.cases.append(
      CIReport.Case(group: "catalogue", name: "saved.pdf", outcome: .skipped(message: "--only")))
    let elements = try parse(report.junit())
    let names = elements.found.map(\.name)
    #expect(names.first == "testsuites")
    #expect(names.count { $0 == "testsuite" } == 1)
    #expect(names.count { $0 == "testcase" } == 5)
    #expect(names.count { $0 == "failure" } == 2)
    #expect(names.count { $0 == "error" } == 1)
    #expect(names.count { $0 == "skipped" } == 1)
    #expect(names.count { $0 == "system-out" } == 3)
    let suite = try #require(elements.found.first { $0.name == "testsuite" }?.attributes)
    #expect(suite["name"] == "fonti-batch run")
    #expect(suite["tests"] == "5" && suite["failures"] == "2" && suite["errors"] == "1")
    #expect(suite["timestamp"] == "2023-11-14T22:13:20Z")
    let hostile = try #require(
      elements.found.last { $0.name == "testcase" && $0.attributes["classname"] == "run.specimen" })
    let name = try #require(hostile.attributes["name"])
    #expect(name.hasPrefix("Evil\u{FFFD}<Sans> & \"Co\" ]]> \u{FFFD}|*_`"), "\(name.prefix(40))")
    #expect(name.count <= XMLText.limit + 1)
  }

  @Test func sarifLocatesEveryResultAndKeepsTheLevels() throws {
    let report = CIReportTests.synthetic(families: 2)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.sarif())) as? [String: Any])
    #expect(object["version"] as? String == "2.1.0")
    let run = try #require((object["runs"] as? [[String: Any]])?.first)
    #expect((run["automationDetails"] as? [String: Any])?["id"] as? String == "fonti-batch/run/")
    let driver = try #require(
      ((run["tool"] as? [String: Any])?["driver"] as? [String: Any]))
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(rules.contains { $0["id"] as? String == "missing-glyphs" })
    #expect(
      rules.allSatisfy {
        (($0["help"] as? [String: Any])?["text"] as? String)?.contains("docs/") == true
      })
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.count == 6)
    #expect(
      results.map { $0["level"] as? String } == [
        "error", "error", "warning", "warning", "note", "note",
      ])
    for result in results {
      let location = try #require((result["locations"] as? [[String: Any]])?.first)
      let physical = try #require(location["physicalLocation"] as? [String: Any])
      let artifact = try #require(physical["artifactLocation"] as? [String: Any])
      #expect(artifact["uri"] as? String == "specimens.yaml")
      #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
      #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 4)
      let logical = try #require(location["logicalLocations"] as? [[String: Any]])
      #expect(logical.first?["kind"] as? String == "family")
      let index = try #require(result["ruleIndex"] as? Int)
      #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
    }
  }

  @Test func sarifKeepsFiveThousandResultsMostSevereFirstAndCountsTheRest() throws {
    let report = CIReportTests.synthetic(families: 2_000)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(report.sarif())) as? [String: Any])
    let run = try #require((object["runs"] as? [[String: Any]])?.first)
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.count == 5_000)
    #expect(results.prefix(2_000).allSatisfy { $0["level"] as? String == "error" })
    #expect(results.last?["level"] as? String == "note")
    let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
    let notes = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
    let text = try #require((notes.first?["message"] as? [String: Any])?["text"] as? String)
    #expect(text.hasPrefix("1000 more results left out"), "\(text)")
    #expect(text.hasSuffix("see output/manifest.json"), "\(text)")
  }

  @Test func markdownOfFiveThousandFamiliesIsCutWithItsCount() throws {
    let report = CIReportTests.synthetic(families: 5_000)
    let text = report.markdownText()
    #expect(text.utf16.count <= 60_000, "\(text.utf16.count)")
    #expect(text.hasPrefix("## fonti-batch run: failed (exit 1)\n"))
    let last = try #require(text.split(separator: "\n").last)
    #expect(last.hasSuffix(" left out: see `output/manifest.json`"), "\(last)")
    let leftOut = try #require(Int(last.prefix { $0.isNumber }))
    let items = text.split(separator: "\n").count { $0.hasPrefix("- ") || $0.hasPrefix("| ") }
    // Every failure, warning and note count is either shown or counted as left out: 1 failed
    // family, 10,000 warnings, 1 note count line; less the table's two header rows.
    #expect(items - 2 + leftOut == 1 + 10_000 + 1, "\(items) shown, \(leftOut) left out")
    #expect(text.contains("### Failures (1)") && text.contains("### Warnings failing --strict"))
    #expect(!text.contains("### Notes"), "the least important is what is left out")
    // A small report is whole, with no count line.
    let small = CIReportTests.synthetic(families: 2).markdownText()
    #expect(!small.contains("left out"))
    #expect(small.contains("### Notes (2)") && small.contains("- own-script: 2"))
  }

  @Test func badgeColoursFollowTheVerdict() throws {
    func badge(_ exit: Int32, _ colour: CIReport.BadgeColour) throws -> [String: Any] {
      var report = CIReportTests.synthetic(families: 1)
      report.exitCode = exit
      report.badgeColour = colour
      return try #require(
        try JSONSerialization.jsonObject(with: Data(report.badge())) as? [String: Any])
    }
    let red = try badge(1, .red)
    #expect(red["schemaVersion"] as? Int == 1 && red["label"] as? String == "fonti-batch")
    #expect(red["color"] as? String == "red" && red["message"] as? String == "1 families")
    #expect(try badge(0, .orange)["color"] as? String == "orange")
  }

  @Test func reportArgumentsAreCheckedBeforeAnything() throws {
    let folder = FileManager.default.temporaryDirectory.path + "/fonti-report-\(UUID())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    guard case .failure(let unknown) = ReportTarget.parse("junt=x.xml") else {
      Issue.record("junt is no format")
      return
    }
    #expect(unknown.message.contains("did you mean 'junit'?"), "\(unknown.message)")
    guard case .failure = ReportTarget.parse("sarif") else {
      Issue.record("no FILE")
      return
    }
    guard case .success(let target) = ReportTarget.parse("SARIF=\(folder)/a.sarif") else {
      Issue.record("a good one")
      return
    }
    #expect(target.format == .sarif && target.problem() == nil)
    #expect(ReportTarget(format: .junit, path: folder).problem() != nil, "a folder")
    #expect(ReportTarget(format: .junit, path: folder + "/none/x.xml").problem() != nil)
    #expect(ReportTarget.problems([target, target]).count == 1, "two reports to one file")
  }
}
