import FontiSupport
import Foundation

extension DiffReport {
  /// The review's Markdown summary: exactly `diff.md`'s text.
  public var markdown: String { DiffMarkdown.render(self) }

  /// What `diff` tells a CI (`--report`): a JUnit case per family (a change a `failure` with
  /// `--exit-code`, a note without; a family that could not be compared an `error`); every
  /// change as a SARIF note of its kind, at the font file it is in, with the family, face and
  /// glyph beside it; the Markdown is `diff.md`'s. `output` is the review's folder as given;
  /// font files under `folder` (the working folder) are named relative to it.
  public func ciReport(
    exitCode: Int32, failOnDifferences: Bool, output: String, started: Date,
    folder: String = FileManager.default.currentDirectoryPath
  ) -> CIReport {
    let c = counts
    var message = "\(c.changed) changed"
    if c.added > 0 { message += " · \(c.added) added" }
    if c.removed > 0 { message += " · \(c.removed) removed" }
    if c.failed > 0 { message += " · \(c.failed) failed" }
    var parts = [
      "\(c.changed) changed", "\(c.added) added", "\(c.removed) removed",
      "\(c.unchanged) unchanged",
    ]
    if c.failed > 0 { parts.append("\(c.failed) failed") }
    let summary =
      "\(c.families) famil\(c.families == 1 ? "y" : "ies"): " + parts.joined(separator: ", ")
    var report = CIReport(
      command: .diff, exitCode: exitCode, subject: "\(before) → \(after)", summary: summary,
      badgeMessage: message,
      badgeColour: exitCode != 0 ? .red : hasDifferences ? .orange : .brightgreen,
      detailsFile: output + "/" + DiffReview.jsonName, started: started)
    report.markdown = markdown
    report.json = (try? encoded()).map { Array($0) } ?? []
    var rules =
      Array(CIReport.Rule.failures.suffix(1)) + [
        CIReport.Rule(
          id: "family-added", summary: "A family is only in AFTER.", help: "docs/diff.md",
          level: .note),
        CIReport.Rule(
          id: "family-removed", summary: "A family is only in BEFORE.", help: "docs/diff.md",
          level: .note),
        CIReport.Rule(
          id: "file-unreadable", summary: "A font file could not be read.", help: "docs/diff.md",
          level: .error),
      ]
    var kinds: Set<String> = []
    for family in families {
      for change in family.changes ?? [] where kinds.insert(change.kind).inserted {
        rules.append(
          CIReport.Rule(
            id: change.kind, summary: "A change of kind \(change.kind).",
            help: "docs/diff.md (Changes and their kinds)", level: .note))
      }
    }
    report.rules = rules
    for family in families {
      add(family, to: &report, failOnDifferences: failOnDifferences, folder: folder)
    }
    for file in unreadable {
      report.findings.append(
        CIReport.Finding(
          rule: "file-unreadable", level: .error,
          message: "\(file.side): font file '\(file.file)' \(file.error)",
          location: CIReport.Location(file: CIReport.shown(file.file, relativeTo: folder))))
    }
    return report
  }

  private func add(
    _ family: Family, to report: inout CIReport, failOnDifferences: Bool, folder: String
  ) {
    let file = CIReport.shown(
      family.files.after.first ?? family.files.before.first ?? after, relativeTo: folder)
    let at = { (face: String?, glyph: String?) in
      CIReport.Location(file: file, family: family.family, face: face, glyph: glyph)
    }
    var notes: [String] = []
    switch family.status {
    case .failed:
      let error = family.error ?? "could not be compared"
      report.findings.append(
        CIReport.Finding(
          rule: "family-failed", level: .error,
          message: "family '\(family.family)' could not be compared: \(error)",
          location: at(nil, nil)))
      report.cases.append(
        CIReport.Case(
          group: "family", name: family.family,
          outcome: .error(message: "not compared: \(error)", details: [error])))
      return
    case .added, .removed:
      let rule = family.status == .added ? "family-added" : "family-removed"
      let text = "family '\(family.family)' \(family.status == .added ? "added" : "removed")"
      report.findings.append(
        CIReport.Finding(rule: rule, level: .note, message: text, location: at(nil, nil)))
      notes.append(text)
    case .changed, .unchanged:
      for change in family.changes ?? [] {
        let glyph = change.subject.flatMap { $0.hasPrefix("U+") ? $0 : nil }
        let face = change.face + (change.instance.map { " (\($0))" } ?? "")
        let text = "family '\(family.family)', \(face): \(change.text)"
        report.findings.append(
          CIReport.Finding(
            rule: change.kind, level: .note, message: text, location: at(face, glyph)))
        notes.append("[\(change.kind)] \(face): \(change.text)")
      }
    }
    let differs = family.status != .unchanged
    let outcome: CIReport.Case.Outcome =
      failOnDifferences && differs
      ? .failed(message: "\(family.status.rawValue) (--exit-code)", details: notes) : .passed
    report.cases.append(
      CIReport.Case(
        group: "family", name: family.family, outcome: outcome,
        notes: failOnDifferences && differs ? [] : notes))
  }
}
