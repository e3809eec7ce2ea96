import Foundation
import Testing

/// Warnings worth reading (issue #46): kinds on the terminal, font facts as one counted line,
/// recorded warnings not repeated, `check --strict` / `--json` agreeing with `run`, `-q` still
/// saying why it fails, and GitHub Actions annotations.
@Suite(.serialized) struct WarningsCommandTests {
  /// Every fixture family: Noto Sans Bengali and Hebrew cannot set the Latin sample (their
  /// specimens show their own script), D050000L is a symbol font.
  static let job = """
    version: 1
    defaults:
      text: Sphinx of black quartz, judge my vow.
    families:
      include: ["*"]
    png:
      edge: 256
    catalogues: []
    pairings:
      curated: false
    proofs:
      languages: true

    """

  func sandbox(_ job: String = WarningsCommandTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-warnings")
    try box.write("specimens.yaml", job)
    return box
  }

  static func warningLines(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").map(String.init).filter { $0.contains("warning:") }
  }

  @Test func fontFactsAreOneCountedLineAndAnUnchangedReRunDoesNotRepeatThem() throws {
    let box = try sandbox()
    let first = try box.run(["run"])
    #expect(first.status == 0, "\(first)")
    let lines = WarningsCommandTests.warningLines(first.stderr)
    let own = lines.filter { $0.hasSuffix("[own-script]") }
    #expect(own.count == 1, "\(lines)")
    #expect(
      own.first?.contains(
        "2 families cannot set the sample text; each specimen shows its own "
          + "script (each is in manifest.json; -v prints them)") == true, "\(lines)")
    #expect(lines.allSatisfy { $0.hasSuffix("]") }, "every warning names its kind: \(lines)")

    let verbose = try box.run(["run", "--force", "-v"])
    let each = WarningsCommandTests.warningLines(verbose.stderr).filter {
      $0.hasSuffix("[own-script]")
    }
    #expect(each.count == 2, "-v prints each: \(each)")
    #expect(each.allSatisfy { $0.contains("lacks") && $0.contains("its own script") }, "\(each)")

    let again = try box.run(["run"])
    #expect(again.status == 0, "\(again)")
    #expect(WarningsCommandTests.warningLines(again.stderr).isEmpty, "\(again)")
    #expect(
      again.stderr.contains("of outputs left as they were are recorded in manifest.json"),
      "\(again)")
    // The manifest still holds every detail.
    let data = try #require(box.read("output/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let byKind = try #require(manifest["warningsByKind"] as? [String: Int])
    #expect(byKind["own-script"] == 2, "\(byKind)")
    let families = try #require(manifest["families"] as? [[String: Any]])
    let bengali = try #require(families.first { $0["family"] as? String == "Noto Sans Bengali" })
    #expect(bengali["warningKinds"] as? [String] == ["own-script"], "\(bengali)")
  }

  /// A family warns of its own script twice when a catalogue shows it too: the counted line
  /// counts families, not lines.
  @Test func aFactLineCountsFamiliesNotWarnings() throws {
    let box = try sandbox(
      WarningsCommandTests.job.replacingOccurrences(
        of: "catalogues: []", with: "catalogues:\n  - file: catalogue.pdf"))
    let run = try box.run(["run"])
    #expect(run.status == 0, "\(run)")
    let own = WarningsCommandTests.warningLines(run.stderr).filter { $0.hasSuffix("[own-script]") }
    #expect(own.count == 1, "\(own)")
    #expect(own.first?.contains("2 families cannot set the sample text") == true, "\(own)")
    let verbose = try box.run(["run", "--force", "-v"])
    let each = WarningsCommandTests.warningLines(verbose.stderr).filter {
      $0.hasSuffix("[own-script]")
    }
    #expect(each.count == 4, "a specimen's and a catalogue's warning each: \(each)")
  }

  /// `check` sees what the run will: a pattern that matches nothing, a character of the sample
  /// a family lacks; both fail `check --strict` and `run --strict` alike.
  @Test func checkStrictAndRunStrictAgree() throws {
    let job = WarningsCommandTests.job.replacingOccurrences(
      of: "include: [\"*\"]", with: "include: [DejaVu Serif, Cantarell, \"Zzz*\"]"
    ).replacingOccurrences(of: "judge my vow.", with: "judge my vow 東.")
    let box = try sandbox(job)
    let check = try box.run(["check", "--strict"])
    #expect(check.status == 1, "\(check)")
    #expect(check.stderr.contains("matches no family [unmatched-pattern]"), "\(check)")
    #expect(
      check.stderr.contains(
        "family 'Cantarell' lacks 1 character of the sample text (U+6771) [missing-glyphs]"),
      "\(check)")
    let line =
      "fonti-batch: failing under --strict: missing-glyphs in 2 families (Cantarell, "
      + "DejaVu Serif), unmatched-pattern ×1\n"
    #expect(check.stderr.hasSuffix(line), "\(check)")
    let run = try box.run(["run", "--strict", "-q"])
    #expect(run.status == 1, "\(run)")
    #expect(run.stderr == line, "-q keeps only the reason: \(run)")
    #expect(try box.run(["check", "--strict=own-script"]).status == 0)

    let json = try box.run(["check", "--json", "--strict"])
    #expect(json.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["ok"] as? Bool == false)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(
      Set(warnings.compactMap { $0["kind"] as? String }) == [
        "missing-glyphs", "unmatched-pattern",
      ],
      "\(warnings)")
    let pattern = try #require(warnings.first { $0["kind"] as? String == "unmatched-pattern" })
    #expect(pattern["line"] as? Int == 5 && pattern["file"] as? String != nil, "\(pattern)")
  }

  @Test func githubActionsGetsWorkflowCommands() throws {
    let box = try sandbox(
      WarningsCommandTests.job.replacingOccurrences(
        of: "include: [\"*\"]", with: "include: [DejaVu Serif, \"Zzz*\"]"))
    let result = try box.run(["check", "--strict"], environment: ["GITHUB_ACTIONS": "true"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "::warning file=specimens.yaml,line=5,col=27,title=fonti-batch unmatched-pattern::"
          + "family pattern 'Zzz*' matches no family\n"), "\(result)")
    #expect(
      result.stderr.contains(
        "::error::failing under --strict: unmatched-pattern ×1"), "\(result)")
    let plain = try box.run(["check", "--strict"])
    #expect(!plain.stderr.contains("::warning"), "only under GitHub Actions: \(plain)")
  }

  /// The job's warnings are printed one by one, up to ten of a kind; the rest of that kind is
  /// one line with a count, and `-v` prints every one.
  @Test func aFloodOfOneJobKindIsCutAfterTen() throws {
    let patterns = (1...12).map { "\"Zz\($0)*\"" }.joined(separator: ", ")
    let box = try sandbox(
      WarningsCommandTests.job.replacingOccurrences(
        of: "include: [\"*\"]", with: "include: [DejaVu Serif, \(patterns)]"))
    let check = try box.run(["check"])
    let lines = WarningsCommandTests.warningLines(check.stderr)
    #expect(lines.filter { $0.contains("matches no family [unmatched-pattern]") }.count == 10)
    #expect(
      lines.contains {
        $0.contains("2 more unmatched-pattern warnings (-v prints them) [unmatched-pattern]")
      }, "\(lines)")
    #expect(lines.count == 11, "\(lines)")
    let verbose = try box.run(["check", "-v"])
    #expect(WarningsCommandTests.warningLines(verbose.stderr).count == 12, "\(verbose)")
  }
}
