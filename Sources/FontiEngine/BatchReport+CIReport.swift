import FontiModel
import FontiSupport
import Foundation

extension BatchReport {
  /// What `run` or `merge` tells a CI (`--report`): a JUnit case per specimen, pairing sheet
  /// and catalogue and one for the job; every warning and failure as a finding, located in
  /// the job file; the verdict and counts. `exitCode` is the command's; `json` what `--json`
  /// prints; `folder` the working folder, paths under it shown relative.
  public func ciReport(
    command: CIReport.Command, exitCode: Int32, job: CIReport.JobFile,
    catalogueMarks: [String: Mark],
    json: [UInt8], started: Date, folder: String
  ) -> CIReport {
    let output = CIReport.shown(self.output, relativeTo: folder)
    let failing = exitCode != 0
    let familyCount = "\(families.total) famil\(families.total == 1 ? "y" : "ies")"
    var report = CIReport(
      command: command, exitCode: exitCode, subject: job.path, summary: summary,
      badgeMessage: "\(familyCount) · \(warnings) warning\(warnings == 1 ? "" : "s")",
      badgeColour: failing ? .red : warnings > 0 ? .orange : .brightgreen,
      detailsFile: output + "/" + OutputLayout.runManifest, started: started)
    report.rules = CIReport.Rule.warningKinds + Array(CIReport.Rule.failures.prefix(1))
    report.json = json
    let errors = diagnostics.filter(\.isError)
    addFamilies(to: &report, job: job)
    addPairings(to: &report, job: job, errors: errors)
    addCatalogues(to: &report, job: job, marks: catalogueMarks, errors: errors)
    addJob(to: &report, job: job, errors: errors)
    report.outputs = outputLines
    return report
  }

  private func kinds(_ messages: [String], _ kinds: [String]?) -> [(
    message: String, kind: WarningKind
  )] {
    messages.enumerated().map { index, message in
      let named = kinds.flatMap { index < $0.count ? WarningKind(rawValue: $0[index]) : nil }
      return (message, named ?? WarningKind.of(message))
    }
  }

  private func addFamilies(to report: inout CIReport, job: CIReport.JobFile) {
    for family in manifest.families {
      let warnings = kinds(family.warnings, family.warningKinds)
      let location = job.location(
        file: nil, line: nil, column: nil, message: "", family: family.family)
      for w in warnings {
        report.findings.append(
          CIReport.warning(w.message, kind: w.kind, strict: strict, at: location))
      }
      var (outcome, notes) = CIReport.outcome(warnings: warnings, strict: strict)
      if let error = family.error {
        outcome = .error(message: "not drawn: \(error)", details: [error])
        report.findings.append(
          CIReport.Finding(
            rule: "output-failed", level: .error,
            message: "family '\(family.family)' failed: \(error)", location: location))
      }
      report.cases.append(
        CIReport.Case(
          group: "specimen", name: family.family, seconds: family.seconds, outcome: outcome,
          notes: notes))
    }
  }

  private func addPairings(
    to report: inout CIReport, job: CIReport.JobFile, errors: [Diagnostic]
  ) {
    for pairing in manifest.pairings {
      let name = "\(pairing.heading) + \(pairing.body)"
      let warnings = kinds(pairing.warnings ?? [], pairing.warningKinds)
      for w in warnings {
        let location = job.location(
          file: nil, line: nil, column: nil, message: w.message, family: pairing.heading)
        report.findings.append(
          CIReport.warning(w.message, kind: w.kind, strict: strict, at: location))
      }
      let (outcome, notes) = CIReport.outcome(warnings: warnings, strict: strict)
      report.cases.append(
        CIReport.Case(
          group: "pairing", name: name, seconds: pairing.seconds, outcome: outcome, notes: notes))
    }
    for error in errors where error.message.hasPrefix("pairing '") {
      let name = Self.quoted(after: "pairing '", in: error.message) ?? error.message
      report.cases.append(
        CIReport.Case(
          group: "pairing", name: name,
          outcome: .error(message: "not drawn: \(error.message)", details: [error.message])))
    }
  }

  private func addCatalogues(
    to report: inout CIReport, job: CIReport.JobFile, marks: [String: Mark],
    errors: [Diagnostic]
  ) {
    for catalogue in catalogues {
      let mark = marks[catalogue.file] ?? job.familiesMark
      let recorded = manifest.catalogues.first { $0.file == catalogue.file }
      let warnings = kinds(recorded?.warnings ?? [], recorded?.warningKinds)
      for w in warnings {
        let location = CIReport.Location(
          file: job.path, line: mark?.line ?? 1, column: mark?.column ?? 1,
          family: Diagnostic.family(in: w.message))
        report.findings.append(
          CIReport.warning(w.message, kind: w.kind, strict: strict, at: location))
      }
      var (outcome, notes) = CIReport.outcome(warnings: warnings, strict: strict)
      switch catalogue.state {
      case .failed:
        let reason =
          errors.first { $0.message.hasPrefix("catalogue '\(catalogue.file)'") }?.message
          ?? "catalogue '\(catalogue.file)' failed"
        outcome = .error(message: "not drawn: \(reason)", details: [reason])
      case .notWritten:
        outcome = .skipped(message: "not written: --only left out some of its families")
      case .rendered, .upToDate, .kept: break
      }
      report.cases.append(
        CIReport.Case(group: "catalogue", name: catalogue.file, outcome: outcome, notes: notes))
    }
  }

  /// The job's own case: the warnings that belong to no output, and the errors that no
  /// output's case holds (the manifest, the favourites, the gallery, a folder not writable).
  private func addJob(to report: inout CIReport, job: CIReport.JobFile, errors: [Diagnostic]) {
    var warnings: [(message: String, kind: WarningKind)] = []
    for w in manifest.warnings ?? [] {
      let kind = WarningKind(rawValue: w.kind) ?? WarningKind.of(w.message)
      warnings.append((w.message, kind))
      let location = job.location(file: w.file, line: w.line, column: w.column, message: w.message)
      report.findings.append(
        CIReport.warning(w.message, kind: kind, strict: strict, at: location))
    }
    var (outcome, notes) = CIReport.outcome(warnings: warnings, strict: strict)
    let others =
      errors.filter {
        !$0.message.hasPrefix("pairing '") && !$0.message.hasPrefix("catalogue '")
          && !$0.message.hasPrefix("family '")
      } + [manifestError, favouritesError, galleryError].compactMap { $0 }
    for error in others {
      report.findings.append(
        CIReport.Finding(
          rule: "output-failed", level: .error, message: error.message,
          location: job.location(
            file: error.file, line: error.mark?.line, column: error.mark?.column,
            message: error.message)))
    }
    for error in errors
    where error.message.hasPrefix("pairing '") || error.message.hasPrefix("catalogue '") {
      report.findings.append(
        CIReport.Finding(
          rule: "output-failed", level: .error, message: error.message,
          location: job.location(file: nil, line: nil, column: nil, message: error.message)))
    }
    if let first = others.first {
      outcome = .error(message: first.message, details: others.map(\.message))
    }
    report.cases.append(
      CIReport.Case(group: "job", name: job.path, outcome: outcome, notes: notes))
  }

  /// The outputs written and skipped, a line each, for the Markdown summary.
  var outputLines: [String] {
    var lines: [String] = []
    func add(_ what: String, _ t: Tally) {
      guard t.total > 0 else { return }
      var parts = ["\(t.rendered) drawn", "\(t.upToDate) up to date"]
      if t.kept > 0 { parts.append("\(t.kept) left out by --only") }
      if t.failed > 0 { parts.append("\(t.failed) failed") }
      lines.append("\(t.total) \(what): " + parts.joined(separator: ", "))
    }
    add(families.total == 1 ? "specimen" : "specimens", families)
    add(pairings.total == 1 ? "pairing sheet" : "pairing sheets", pairings)
    for c in catalogues {
      let state: String
      switch c.state {
      case .rendered: state = "drawn"
      case .upToDate: state = "up to date"
      case .kept: state = "left as it was"
      case .failed: state = "failed"
      case .notWritten: state = "not written"
      }
      lines.append("\(c.file): \(state)" + (c.pages.map { " (\($0) pages)" } ?? ""))
    }
    if !removed.isEmpty { lines.append("\(removed.count) old outputs removed") }
    return lines
  }

  /// The name in `prefix…'` of a message ("pairing 'A + B' failed: …" → "A + B").
  static func quoted(after prefix: String, in message: String) -> String? {
    guard let start = message.range(of: prefix) else { return nil }
    let rest = message[start.upperBound...]
    guard let end = rest.range(of: "' ") else { return nil }
    return String(rest[..<end.lowerBound])
  }
}

extension CIReport {
  /// What `check` tells a CI: the job's warnings and errors as findings and one JUnit case,
  /// the verdict. `families` is nil when the job is not valid.
  public static func check(
    job: JobFile, exitCode: Int32, families: Int?, diagnostics: [Diagnostic],
    strict: StrictPolicy?, failing: String?, json: [UInt8], started: Date,
    command: Command = .check
  ) -> CIReport {
    let warnings = diagnostics.filter { $0.severity == .warning }
    let errors = diagnostics.filter(\.isError)
    let count = warnings.count { $0.kind.group == .job }
    let summary: String
    if let families {
      summary =
        "OK, \(families) famil\(families == 1 ? "y" : "ies") selected, \(count) "
        + "warning\(count == 1 ? "" : "s")" + (failing.map { "; \($0)" } ?? "")
    } else {
      summary = "not valid: \(errors.count) error\(errors.count == 1 ? "" : "s")"
    }
    let familyCount = families.map { "\($0) famil\($0 == 1 ? "y" : "ies")" } ?? "invalid job"
    var report = CIReport(
      command: command, exitCode: exitCode, subject: job.path, summary: summary,
      badgeMessage: "\(familyCount) · \(count) warning\(count == 1 ? "" : "s")",
      badgeColour: exitCode != 0 ? .red : count > 0 ? .orange : .brightgreen,
      detailsFile: "fonti-batch check --json", started: started)
    report.rules =
      Rule.warningKinds + [
        Rule(
          id: "job-invalid", summary: "The job file is not valid: nothing would be rendered.",
          help: "docs/job-file.md", level: .error)
      ]
    report.json = json
    for d in diagnostics {
      let location = job.location(
        file: d.file, line: d.mark?.line, column: d.mark?.column, message: d.message)
      if d.isError {
        report.findings.append(
          Finding(rule: "job-invalid", level: .error, message: d.message, location: location))
      } else {
        report.findings.append(warning(d.message, kind: d.kind, strict: strict, at: location))
      }
    }
    var (outcome, notes) = CIReport.outcome(
      warnings: warnings.map { ($0.message, $0.kind) }, strict: strict)
    if !errors.isEmpty {
      outcome = .error(
        message: "the job is not valid: \(errors[0].locatedMessage)",
        details: errors.map(\.locatedMessage))
    }
    report.cases = [Case(group: "job", name: job.path, outcome: outcome, notes: notes)]
    return report
  }
}
