import Foundation
import FoundationXML
import Testing

/// `--report FORMAT=FILE` on `run`, `check`, `merge` and `diff`, and the bounded GitHub
/// annotations and step summary (issue #59 items 1 and 2).
@Suite(.serialized) struct CIReportsCommandTests {
  static let job = WarningsCommandTests.job.replacingOccurrences(
    of: "include: [\"*\"]", with: "include: [\"*\", \"Zzz*\"]")
  static let formats = [
    "junit": "r.xml", "sarif": "r.sarif", "markdown": "r.md", "json": "r.json",
    "badge": "badge.json",
  ]

  func sandbox(_ job: String = CIReportsCommandTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-reports")
    box.environment["SOURCE_DATE_EPOCH"] = "1700000000"
    try box.write("specimens.yaml", job)
    try FileManager.default.createDirectory(
      atPath: box.path("reports"), withIntermediateDirectories: true)
    return box
  }

  /// `--report F=reports/<prefix>F-file` for every format.
  func reportArguments(_ prefix: String = "") -> [String] {
    CIReportsCommandTests.formats.sorted { $0.key < $1.key }.flatMap {
      ["--report", "\($0.key)=reports/\(prefix)\($0.value)"]
    }
  }

  func text(_ box: CLISandbox, _ path: String) throws -> String {
    String(decoding: try #require(box.read(path), "\(path) written"), as: UTF8.self)
  }

  func object(_ box: CLISandbox, _ path: String) throws -> [String: Any] {
    let data = try #require(box.read(path), "\(path) written")
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// The JUnit report's elements, by name, with their attributes.
  final class Elements: NSObject, XMLParserDelegate {
    var found: [(name: String, attributes: [String: String])] = []
    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String]
    ) {
      found.append((name, attributes))
    }
    func named(_ name: String) -> [[String: String]] {
      found.filter { $0.name == name }.map(\.attributes)
    }
  }

  func junit(_ box: CLISandbox, _ path: String) throws -> Elements {
    let parser = XMLParser(data: try #require(box.read(path)))
    let elements = Elements()
    parser.delegate = elements
    #expect(parser.parse(), "\(path): \(String(describing: parser.parserError))")
    return elements
  }

  /// The SARIF run, with every result checked for a physical location.
  func sarif(_ box: CLISandbox, _ path: String, id: String) throws -> [String: Any] {
    let root = try object(box, path)
    #expect(root["version"] as? String == "2.1.0")
    let run = try #require((root["runs"] as? [[String: Any]])?.first)
    #expect((run["automationDetails"] as? [String: Any])?["id"] as? String == id)
    for result in try #require(run["results"] as? [[String: Any]]) {
      let location = try #require((result["locations"] as? [[String: Any]])?.first)
      let physical = try #require(location["physicalLocation"] as? [String: Any], "\(result)")
      #expect((physical["artifactLocation"] as? [String: Any])?["uri"] is String)
    }
    return run
  }

  func results(_ run: [String: Any]) -> [[String: Any]] {
    run["results"] as? [[String: Any]] ?? []
  }

  @Test func runWritesEveryReport() throws {
    let box = try sandbox()
    let result = try box.run(["run", "--strict"] + reportArguments())
    #expect(result.status == 1, "the pattern fails --strict: \(result)")
    let elements = try junit(box, "reports/r.xml")
    let suite = try #require(elements.named("testsuite").first)
    #expect(suite["name"] == "fonti-batch run")
    let cases = elements.named("testcase")
    #expect(cases.count { $0["classname"] == "run.specimen" } == 5, "\(cases)")
    #expect(cases.contains { $0["classname"] == "run.job" && $0["name"] == "specimens.yaml" })
    #expect(elements.named("failure").count == 1, "the pattern, in the job's case")
    #expect(!elements.named("system-out").isEmpty, "font facts as notes")
    #expect(cases.allSatisfy { $0["classname"] == "run.job" || $0["time"] != nil })

    let run = try sarif(box, "reports/r.sarif", id: "fonti-batch/run/")
    let levels = results(run).compactMap { $0["level"] as? String }
    #expect(levels.first == "error" && levels.dropFirst().allSatisfy { $0 == "note" }, "\(levels)")
    let pattern = try #require(results(run).first)
    let region = try #require(
      ((pattern["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
        "region"] as? [String: Any])
    #expect(region["startLine"] as? Int == 5 && region["startColumn"] as? Int == 18, "\(region)")

    let markdown = try text(box, "reports/r.md")
    #expect(markdown.hasPrefix("## fonti-batch run: failed (exit 1)\n"), "\(markdown)")
    #expect(markdown.contains("### Warnings failing --strict (1)"), "\(markdown)")
    #expect(markdown.contains("`specimens.yaml:5:18`"), "\(markdown)")
    #expect(markdown.contains("- own-script: 2"), "\(markdown)")
    let badge = try object(box, "reports/badge.json")
    #expect(badge["color"] as? String == "red", "\(badge)")
    #expect(badge["message"] as? String == "5 families · 1 warning", "\(badge)")
    #expect(box.read("reports/r.json") == box.read("output/manifest.json"), "as --json prints")

    // Without --strict the same run passes: orange, and the pattern is a warning.
    let again = try box.run(["run", "--force"] + reportArguments())
    #expect(again.status == 0, "\(again)")
    #expect(try object(box, "reports/badge.json")["color"] as? String == "orange")
    let levels2 = results(try sarif(box, "reports/r.sarif", id: "fonti-batch/run/")).compactMap {
      $0["level"] as? String
    }
    #expect(levels2.first == "warning", "\(levels2)")

    // A job that is not valid: exit 2, nothing drawn, and the reports say why.
    try box.write("specimens.yaml", "version: 1\nsizez: [1]\n")
    let invalid = try box.run(["run", "-o", "never"] + reportArguments())
    #expect(invalid.status == 2 && box.read("never/manifest.json") == nil, "\(invalid)")
    let errors = try junit(box, "reports/r.xml")
    #expect(errors.named("testcase").map { $0["classname"] } == ["run.job"])
    #expect(errors.named("error").count == 1)
    #expect(try text(box, "reports/r.md").hasPrefix("## fonti-batch run: failed (exit 2)"))
  }

  @Test func checkReportsAndGitHubAnnotationsAreBounded() throws {
    let patterns = (1...12).map { "\"Zz\($0)*\"" }.joined(separator: ", ")
    let box = try sandbox(
      WarningsCommandTests.job.replacingOccurrences(
        of: "include: [\"*\"]", with: "include: [DejaVu Serif, \(patterns)]"))
    let summary = try box.write("summary.md", "earlier step\n")
    let result = try box.run(
      ["check", "--strict"] + reportArguments(),
      environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
    #expect(result.status == 1, "\(result)")
    let lines = result.stderr.split(separator: "\n")
    let warnings = lines.filter { $0.hasPrefix("::warning") }
    #expect(warnings.count == 10, "\(warnings)")
    #expect(warnings.last == "::warning title=fonti-batch::2 more warnings: see reports/r.sarif")
    #expect(lines.filter { $0.hasPrefix("::error") }.count == 1, "\(result)")
    // Most severe first: the error before the warnings.
    let first = try #require(lines.firstIndex { $0.hasPrefix("::") })
    #expect(lines[first].hasPrefix("::error"), "\(result)")
    let step = try text(box, "summary.md")
    #expect(step.hasPrefix("earlier step\n## fonti-batch check: failed (exit 1)"), "\(step)")
    #expect(step.hasSuffix(try text(box, "reports/r.md") + "\n"))

    let cases = try junit(box, "reports/r.xml")
    #expect(cases.named("testcase").map { $0["classname"] } == ["check.job"])
    #expect(cases.named("failure").count == 1)
    let run = try sarif(box, "reports/r.sarif", id: "fonti-batch/check/")
    #expect(
      results(run).count == 12 && results(run).allSatisfy { $0["level"] as? String == "error" })
    let json = try object(box, "reports/r.json")
    #expect(json["ok"] as? Bool == false && (json["warnings"] as? [Any])?.count == 12)

    // An invalid job: exit 2, and the reports say why.
    try box.write("specimens.yaml", "version: 1\nsizez: [1]\n")
    let invalid = try box.run(["check"] + reportArguments())
    #expect(invalid.status == 2, "\(invalid)")
    let errors = results(try sarif(box, "reports/r.sarif", id: "fonti-batch/check/"))
    #expect(errors.first?["ruleId"] as? String == "job-invalid", "\(errors)")
    #expect(try junit(box, "reports/r.xml").named("error").count == 1)
    #expect(try object(box, "reports/badge.json")["color"] as? String == "red")
  }

  @Test func mergeWritesReports() throws {
    let box = try sandbox()
    for k in 1...2 {
      #expect(try box.run(["run", "-q", "-o", "shard-\(k)", "--shard", "\(k)/2"]).status == 0)
    }
    let merged = try box.run(
      ["merge", "-q", "shard-1", "shard-2", "-o", "merged"] + reportArguments())
    #expect(merged.status == 0, "\(merged)")
    let cases = try junit(box, "reports/r.xml").named("testcase")
    #expect(cases.count { $0["classname"] == "merge.specimen" } == 5, "\(cases)")
    _ = try sarif(box, "reports/r.sarif", id: "fonti-batch/merge/")
    #expect(try text(box, "reports/r.md").hasPrefix("## fonti-batch merge: passed\n"))
    #expect(box.read("reports/r.json") == box.read("merged/manifest.json"))
  }

  @Test func diffWritesReportsAndItsMarkdownIsDiffMD() throws {
    let box = try sandbox()
    let base = DiffCommandTests.fixtures + "/base"
    let changed = DiffCommandTests.fixtures + "/changed"
    let result = try box.run(["diff", base, changed, "--exit-code"] + reportArguments())
    #expect(result.status == 1, "\(result)")
    #expect(box.read("reports/r.md") == box.read("diff/diff.md"))
    #expect(box.read("reports/r.json") == box.read("diff/diff.json"))
    let elements = try junit(box, "reports/r.xml")
    let cases = elements.named("testcase")
    #expect(!cases.isEmpty && cases.allSatisfy { $0["classname"] == "diff.family" })
    #expect(!elements.named("failure").isEmpty, "a change fails --exit-code")
    let run = try sarif(box, "reports/r.sarif", id: "fonti-batch/diff/")
    #expect(!results(run).isEmpty && results(run).allSatisfy { $0["level"] as? String == "note" })
    let uri = try #require(
      (((results(run).first?["locations"] as? [[String: Any]])?.first?["physicalLocation"]
        as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String)
    #expect(uri.hasPrefix("file://") && uri.contains("/Diff/"), "a font file: \(uri)")
    let badge = try object(box, "reports/badge.json")
    #expect((badge["message"] as? String)?.contains("changed") == true, "\(badge)")
    #expect(badge["color"] as? String == "red")
    // Given relative, a font file is relative to %SRCROOT%, as code scanning maps it.
    try FileManager.default.createSymbolicLink(
      atPath: box.path("before"), withDestinationPath: base)
    try FileManager.default.createSymbolicLink(
      atPath: box.path("after"), withDestinationPath: changed)
    #expect(try box.run(["diff", "before", "after", "-o", "d2"] + reportArguments()).status == 0)
    let artifact = try #require(
      ((results(try sarif(box, "reports/r.sarif", id: "fonti-batch/diff/")).first?["locations"]
        as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]
        as? [String: Any])
    #expect((artifact["uri"] as? String)?.hasPrefix("after/") == true, "\(artifact)")
    #expect(artifact["uriBaseId"] as? String == "%SRCROOT%", "\(artifact)")
  }

  @Test func aBadReportPathStopsBeforeAnythingRuns() throws {
    let box = try sandbox()
    for bad in ["junit=nowhere/r.xml", "junit=reports", "jnit=r.xml", "sarif="] {
      let result = try box.run(["run", "--report", bad])
      #expect(result.status == 2, "\(bad): \(result)")
      #expect(result.stderr.contains("--report"), "\(bad): \(result)")
      #expect(box.read("output/manifest.json") == nil, "nothing ran: \(bad)")
    }
    let same = try box.run(["check", "--report", "junit=r.xml", "--report", "sarif=r.xml"])
    #expect(same.status == 2 && same.stderr.contains("two reports to 'r.xml'"), "\(same)")
    let diff = try box.run([
      "diff", DiffCommandTests.fixtures + "/base", DiffCommandTests.fixtures + "/changed",
      "--report", "badge=nowhere/b.json",
    ])
    #expect(diff.status == 2 && box.list(box.path("diff")).isEmpty, "\(diff)")
    let dry = try box.run(["run", "--dry-run", "--report", "junit=reports/r.xml"])
    #expect(dry.status == 2, "\(dry)")
  }

  @Test func aReportThatCannotBeWrittenAtTheEndMakesTheExitOne() throws {
    let box = try sandbox(
      CIReportsCommandTests.job.replacingOccurrences(of: ", \"Zzz*\"", with: ""))
    try FileManager.default.createDirectory(
      atPath: box.path("output"), withIntermediateDirectories: true)
    // The path is free when checked, and the run makes it a folder.
    let result = try box.run([
      "run", "--report", "junit=output/specimens", "--report", "badge=reports/badge.json",
    ])
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("junit report not written"), "\(result)")
    #expect(box.read("reports/badge.json") != nil, "the other reports are written")
  }

  /// Two runs with SOURCE_DATE_EPOCH write the same reports, but for JUnit's times, SARIF's
  /// invocation times, and the timings that `--json` (the manifest) carries.
  @Test func reportsAreReproducible() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "--strict"] + reportArguments("1-")).status == 1)
    #expect(try box.run(["run", "--strict", "--force"] + reportArguments("2-")).status == 1)
    for (format, name) in CIReportsCommandTests.formats {
      var first = try text(box, "reports/1-" + name)
      var second = try text(box, "reports/2-" + name)
      let times: [String]
      switch format {
      case "junit": times = [#" time="[0-9.]+""#, #" timestamp="[^"]+""#]
      case "sarif": times = [#""(start|end)TimeUtc" : "[^"]+""#]
      case "json": times = [#""(durationSeconds|seconds|mtimeNs)" : [0-9.e+-]+"#]
      default: times = []
      }
      for pattern in times {
        first = first.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        second = second.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
      }
      #expect(first == second, "\(format) differs")
    }
  }
}
