import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

/// The run's last stages: the manifest assembled from what was drawn and what was kept, the
/// gallery made from it, and both written, the manifest first.
extension BatchRun {
  // MARK: Assembling the manifest

  /// The manifest: what this run made, and every other output of the job still on disk as the
  /// last manifest recorded it (up to date, left out by --only, or not reached before an
  /// interruption). A failed output is listed with its error and no file. Families drawn again
  /// but not reached (an interruption) are listed as before.
  func assemble() -> Assembly {
    previousEntries.restore(in: &plan, from: plan.output + "/" + OutputLayout.runManifest) {
      results[$0] != nil
    }
    var report = Assembly(plan: plan, title: job.title)
    let read = proofsToFill()
    for s in plan.specimens {
      guard var entry = familyEntry(s, read: read, report: &report) else { continue }
      entry.warningKinds = BatchRunner.kinds(entry.warnings)
      report.diagnostics += BatchRunner.warnings(entry.warnings, recorded: s.action != .render)
      report.manifest.families.append(entry)
    }
    for p in plan.pairings {
      guard var entry = pairingEntry(p, report: &report) else { continue }
      entry.warningKinds = BatchRunner.kinds(entry.warnings ?? [])
      report.diagnostics += BatchRunner.warnings(
        entry.warnings ?? [], recorded: p.action != .render)
      report.manifest.pairings.append(entry)
    }
    // Families whose specimens show their own script: their boxes on catalogue pages are a
    // fact about the font, as their specimens' are.
    let ownScript = Set(
      report.manifest.families.filter { $0.warnings.contains { WarningKind.of($0) == .ownScript } }
        .map(\.family))
    for c in plan.catalogues {
      guard case (var entry, let drawn)? = catalogueEntry(c, ownScript: ownScript, report: &report)
      else { continue }
      entry.warningKinds = BatchRunner.kinds(entry.warnings ?? [])
      report.diagnostics += BatchRunner.warnings(entry.warnings ?? [], recorded: !drawn)
      report.manifest.catalogues.append(entry)
    }
    report.manifest.families = FontCatalog.sorted(report.manifest.families, by: \.family)
    return report
  }

  /// Proof fields the job now asks for that a kept entry lacks (a proof just turned on), read
  /// here without drawing the specimen again, by family name; the rest come from the worker or
  /// the previous manifest.
  private func proofsToFill() -> [String: FamilyProofReport] {
    let lacking = plan.specimens.filter { s in
      guard let old = s.previous, !old.files.isEmpty else { return false }
      let drawn = s.action == .render && results[plan.output + "/" + s.file]?.ok == true
      return !drawn && !old.proofs.covers(job.proofs)
    }.map(\.family)
    let wanted = job.proofs
    return Dictionary(
      zip(
        lacking.map(\.name),
        ParallelMap.map(lacking, threads: 2) { FamilyProofReport.read($0, options: wanted) }),
      uniquingKeysWith: { a, _ in a })
  }

  /// A family's entry: drawn now, kept from the previous manifest, or nil when there is nothing
  /// on disk to list (not reached before an interruption, or left out).
  private func familyEntry(
    _ s: BatchPlan.Specimen, read: [String: FamilyProofReport], report: inout Assembly
  ) -> RunManifest.Family? {
    let path = plan.output + "/" + s.file
    var entry = RunManifest.Family(
      family: s.family.name, slug: s.slug, custom: s.family.isCustom, saved: s.saved,
      styles: s.family.styles, bold: s.family.hasBold, italic: s.family.hasItalic,
      missingGlyphs: 0, missingCharacters: MissingCharacters.codes(s.missingCharacters),
      warnings: [], files: [],
      error: nil)
    entry.drawnFrom = s.family.drawnFrom
    entry.faces = s.family.faceList
    entry.colour = s.family.colour
    if s.action == .render, let r = results[path] {
      if r.ok, let sha = r.sha256, let state = FileStamp.state(path) {
        entry.missingGlyphs = r.missingGlyphs
        entry.warnings = r.warnings
        let record = BatchRunner.file(s.file, sha: sha, inputs: s.inputs, state: state)
        entry.files =
          [record] + [thumbnailEntry(s, specimen: record, drawn: true)].compactMap { $0 }
        entry.seconds = r.seconds.map(BatchRunner.milliseconds)
        entry.proofs = drawnProofs(s, at: path)
        report.families.rendered += 1
        if copiedPaths.contains(path) { report.families.copied += 1 }
        if inPlace.contains(path) { report.families.alreadyInPlace += 1 }
      } else {
        let error = r.ok ? "'\(path)' is not on disk after writing it" : r.error ?? "failed"
        entry.error = error
        report.families.failed += 1
        if let reason = r.writeFailure {
          report.unwritten(reason, path: path, kind: .specimen(s.family.name), message: error)
        } else {
          // The family's own problem (a font that breaks shaping): its files are named.
          report.diagnostics.append(
            .error(
              "family '\(s.family.name)' failed: \(error)"
                + " (fonts: \(s.family.files.joined(separator: ", ")))"))
        }
      }
    } else if let old = s.previous, let file = old.files.first {
      entry.missingGlyphs = old.missingGlyphs
      entry.warnings = old.warnings
      entry.seconds = old.seconds  // what `run --shard auto` balances by, while up to date
      entry.files = [file] + [thumbnailEntry(s, specimen: file, drawn: false)].compactMap { $0 }
      entry.proofs = old.proofs.selecting(job.proofs)
      if let fresh = read[s.family.name] {
        entry.proofs = entry.proofs.filling(from: fresh).selecting(job.proofs)
        entry.warnings += fresh.warnings.filter { !entry.warnings.contains($0) }
      }
      report.families.carried(s.action)
    } else {
      if s.action == .keep { report.families.kept += 1 }
      return nil
    }
    return entry
  }

  /// The proof fields of a specimen drawn in this run, as its worker reported them.
  private func drawnProofs(_ s: BatchPlan.Specimen, at path: String) -> FamilyProofReport {
    var proofs: FamilyProofReport?
    do {
      proofs = try results.proofs(at: path)
    } catch {
      // Spooled, and not to be read back: read from the fonts again.
      proofs = FamilyProofReport.read(s.family, options: job.proofs)
    }
    return (proofs ?? FamilyProofReport()).selecting(job.proofs)
  }

  /// The thumbnail's entry of a family whose specimen `kept` is listed (nil: it has none);
  /// `drawn`: the specimen was drawn in this run.
  private func thumbnailEntry(
    _ s: BatchPlan.Specimen, specimen kept: RunManifest.File, drawn: Bool
  ) -> RunManifest.File? {
    guard let t = s.thumbnail else { return nil }
    let path = plan.output + "/" + t.file
    let made = drawn ? t.action == .withSpecimen : t.action == .fromSpecimen
    if made, let r = results[path] {
      if r.ok, let sha = r.sha256, let state = FileStamp.state(path) {
        return BatchRunner.file(t.file, sha: sha, inputs: drawn ? s.inputs : t.inputs, state: state)
      }
      diagnostics.append(
        .warning(
          "cannot make the thumbnail '\(t.file)' of '\(s.family.name)': "
            + (r.error ?? "it is not on disk after writing it"),
          hint: "the gallery shows the specimen instead; the next run tries again"))
      return nil
    }
    // Not made in this run: the one on disk counts while it is of the specimen listed.
    guard let old = t.previous, old.inputs != nil, old.inputs == kept.inputs else { return nil }
    return old
  }

  /// A pairing sheet's entry, as `familyEntry`.
  private func pairingEntry(_ p: BatchPlan.Pairing, report: inout Assembly)
    -> RunManifest.Pairing?
  {
    let path = plan.output + "/" + p.file
    var entry = RunManifest.Pairing(
      heading: p.heading.name, body: p.body.name, file: p.file, sha256: "", inputs: p.inputs,
      warnings: [])
    if p.action == .render, let r = results[path] {
      guard r.ok, let sha = r.sha256, let state = FileStamp.state(path) else {
        report.pairings.failed += 1
        let name = "\(p.heading.name) + \(p.body.name)"
        let error = r.error ?? "'\(path)' is not on disk after writing it"
        if let reason = r.writeFailure {
          report.unwritten(reason, path: path, kind: .pairing(name), message: error)
        } else {
          report.diagnostics.append(.error("pairing '\(name)' failed: \(error)"))
        }
        return nil
      }
      entry.sha256 = sha
      (entry.size, entry.mtimeNs) = (state.size, state.mtimeNs)
      entry.warnings = r.warnings
      entry.seconds = r.seconds.map(BatchRunner.milliseconds)
      report.pairings.rendered += 1
    } else if let old = p.previous {
      entry = old
      entry.warnings = old.warnings ?? []
      report.pairings.carried(p.action)
    } else {
      if p.action == .keep { report.pairings.kept += 1 }
      return nil
    }
    return entry
  }

  /// A catalogue's entry and whether this run drew it, as `familyEntry`; its outcome goes in
  /// the report either way.
  private func catalogueEntry(
    _ c: BatchPlan.Catalogue, ownScript: Set<String>, report: inout Assembly
  ) -> (RunManifest.Catalogue, drawn: Bool)? {
    let path = plan.output + "/" + c.file
    guard c.action == .render, let r = results[path] else {
      if let old = c.previous {
        report.catalogues.append(
          .init(file: c.file, state: c.action == .upToDate ? .upToDate : .kept, pages: old.pages))
        return (old, false)
      }
      report.catalogues.append(.init(file: c.file, state: .notWritten, pages: nil))
      return nil
    }
    if r.ok && r.sha256 == nil {
      // Drawn, not finished: interrupted. The file is as it was.
      guard let old = c.previous else { return nil }
      report.catalogues.append(.init(file: c.file, state: .kept, pages: old.pages))
      return (old, false)
    }
    guard r.ok, let sha = r.sha256, let state = FileStamp.state(path) else {
      report.catalogues.append(.init(file: c.file, state: .failed, pages: nil))
      let error = r.error ?? "'\(path)' is not on disk after writing it"
      if let reason = r.writeFailure {
        report.unwritten(reason, path: path, kind: .catalogue(c.file), message: error)
      } else {
        report.diagnostics.append(.error("catalogue '\(c.file)' failed: \(error)"))
      }
      return nil
    }
    let missing = r.missingByFamily ?? [:]
    let entry = RunManifest.Catalogue(
      file: c.file, pages: r.pages ?? 0, sha256: sha, inputs: c.inputs, size: state.size,
      mtimeNs: state.mtimeNs, missingGlyphs: missing,
      warnings: r.warnings
        + BatchRunner.missingGlyphWarnings(c, missing, ownScript: ownScript),
      families: r.familyPages)
    report.catalogues.append(.init(file: c.file, state: .rendered, pages: entry.pages))
    return (entry, true)
  }
}
