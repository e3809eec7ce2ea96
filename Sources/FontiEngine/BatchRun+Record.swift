import FontiDraw
import FontiModel
import FontiSupport
import Foundation

/// The run's record: the gallery made from the manifest, the manifest written, then the page
/// put in place, and what the report says of it all.
extension BatchRun {
  /// The gallery page of a run: made anew (its bytes), or kept as it is on disk.
  struct GalleryPageState {
    var page: Data?
    var kept = false
    var error: Diagnostic?
    /// The new page, flushed under a temporary name until the manifest is on disk.
    var prepared: AtomicFile.Prepared?
    /// The page on disk is the page (kept, or made again with the same bytes).
    var same = false
  }

  func record(_ assembled: Assembly, jobWarnings: [Diagnostic], events: Events) -> BatchReport {
    var report = assembled
    var gallery = makeGallery(&report)
    prepareGalleryPage(&gallery, &report)
    count(&report, jobWarnings: jobWarnings)
    let manifestError = writeManifest(report.manifest, gallery: gallery, events)
    if gallery.same && manifestError == nil && gallery.error == nil {
      events.written(.unchanged(OutputLayout.gallery))
    }
    commitGalleryPage(&gallery, manifestWritten: manifestError == nil, events)
    return outcome(report, gallery: gallery, manifestError: manifestError)
  }

  /// The web gallery is made from the manifest (the page depends on nothing the rest of the
  /// manifest adds below: counts, duration, its own record), and put in place after it.
  private func makeGallery(_ report: inout Assembly) -> GalleryPageState {
    var state = GalleryPageState()
    guard plan.gallery else { return state }
    let date = Timestamp.sourceDateEpoch()
    let inputs = GalleryModel.pageInputs(output: plan.output, date: date)
    if let previous = plan.galleryManifest, let record = previous.gallery,
      record.inputs == inputs, BatchRunner.sameGallerySource(previous, report.manifest)
    {
      // The page on disk was made from this very manifest and inputs: kept as it is.
      report.manifest.gallery = record
      report.manifest.gallery?.mtimeNs = plan.galleryFound?.mtimeNs
      state.kept = true
      state.same = true
      return state
    }
    do {
      var warned = false
      let model = GalleryModel(
        run: report.manifest, output: plan.output, date: date,
        warn: {
          warned = true
          diagnostics.append($0)
        })
      let bytes = try GalleryPage.html(model)
      report.manifest.gallery = RunManifest.Gallery(
        file: OutputLayout.gallery, sha256: SHA256.hex(bytes), size: Int64(bytes.count),
        inputs: warned ? nil : inputs)
      state.page = bytes
    } catch {
      state.error = error
    }
    return state
  }

  /// The page is written and flushed before the manifest, which records its size and time (a
  /// re-run that finds them does not read the page again), and put in place once the manifest
  /// it comes from is on disk. It is rewritten only when it changed.
  private func prepareGalleryPage(_ state: inout GalleryPageState, _ report: inout Assembly) {
    guard let page = state.page else { return }
    let pagePath = plan.output + "/" + OutputLayout.gallery
    do throws(Diagnostic) {
      if (try? AtomicFile.read(pagePath, limit: page.count + 1)) != page {
        // A page no manifest of this folder records as it is on disk is not ours to replace:
        // a site's own index.html, or our page edited since.
        if plan.galleryFound == nil, FileStamp.state(pagePath) != nil {
          report.manifest.gallery = nil
          throw Diagnostic.error(
            "'\(pagePath)' is not a page this folder's manifest.json records: fonti-batch did "
              + "not write it, or it was edited since; it is left as it is",
            hint: "move it away and run again to have the gallery written there, write "
              + "elsewhere with -o, or set 'gallery: false'")
        }
        let prepared = try AtomicFile.prepare(page, to: pagePath)
        state.prepared = prepared
        report.manifest.gallery?.mtimeNs = prepared.state.mtimeNs
      } else {
        report.manifest.gallery?.mtimeNs = FileStamp.state(pagePath)?.mtimeNs
        state.same = true
      }
    } catch {
      state.error = error
    }
  }

  /// Every warning counts: the job's and the fonts' (before the run), the plan's, removals that
  /// failed, and each output's; those of the job's kinds as `warnings`, facts about fonts as
  /// `notes`.
  private func count(_ report: inout Assembly, jobWarnings: [Diagnostic]) {
    let runWarnings = diagnostics.filter { $0.severity == .warning }
    let loose = jobWarnings + runWarnings
    report.manifest.warnings = loose.isEmpty ? nil : loose.map(RunManifest.Warning.init)
    let messages =
      loose.map(\.message) + report.manifest.families.flatMap(\.warnings)
      + report.manifest.pairings.flatMap { $0.warnings ?? [] }
      + report.manifest.catalogues.flatMap { $0.warnings ?? [] }
    let notes = messages.count { WarningKind.of($0).group == .font }
    report.manifest.counts = report.counts(warnings: messages.count - notes, notes: notes)
    report.manifest.warningsByKind = BatchRunner.byKind(messages)
    report.manifest.durationSeconds = (Date().timeIntervalSince(start) * 100).rounded() / 100
  }

  /// Writes the manifest; the error that stopped it, if any.
  ///
  /// A run that drew, copied and removed nothing (an unchanged re-run) leaves the manifest on
  /// disk as it is when it would say the same but for its duration (after another such run):
  /// nothing is written, no time changes, and a watcher or a CI cache sees the folder
  /// unchanged. The run's summary and `--json` still give this run's duration. A run that drew
  /// anything records new times, and one with other counts (the first re-run after a run that
  /// drew) says something else: neither is compared, for the writer cannot stop midway.
  private func writeManifest(
    _ manifest: RunManifest, gallery: GalleryPageState, _ events: Events
  ) -> Diagnostic? {
    let manifestPath = plan.output + "/" + OutputLayout.runManifest
    if pending.isEmpty && removed.isEmpty && gallery.prepared == nil,
      manifest.counts == plan.previousCounts, let duration = plan.previousDuration
    {
      var onDisk = manifest
      onDisk.durationSeconds = duration
      if onDisk.isWritten(at: manifestPath) {
        events.written(.unchanged(OutputLayout.runManifest))
        return nil
      }
    }
    do throws(Diagnostic) {
      try manifest.write(toFile: manifestPath)
      announce(manifestPath, events)
      return nil
    } catch {
      return error
    }
  }

  /// The new page takes its name once the manifest it comes from is on disk; otherwise it goes.
  private func commitGalleryPage(
    _ state: inout GalleryPageState, manifestWritten: Bool, _ events: Events
  ) {
    guard let prepared = state.prepared else { return }
    guard manifestWritten else {
      prepared.discard()
      return
    }
    do throws(Diagnostic) {
      try prepared.commit()
      announce(plan.output + "/" + OutputLayout.gallery, events)
    } catch {
      state.error = error
    }
  }

  /// What the run did, for the front end.
  private func outcome(_ report: Assembly, gallery: GalleryPageState, manifestError: Diagnostic?)
    -> BatchReport
  {
    var manifestError = manifestError
    // Rendering went through: the error names what was written (and what no manifest lists).
    manifestError?.hint =
      writtenFiles.isEmpty
      ? "no other file was written"
      : "\(writtenFiles.count) file\(writtenFiles.count == 1 ? " was" : "s were") written that "
        + "no manifest lists: " + writtenFiles.map(Sanitize.terminal).joined(separator: ", ")
    var outcome = BatchReport(
      manifest: report.manifest,
      diagnostics: report.writeFailures() + diagnostics + report.diagnostics,
      interrupted: !finished, output: plan.output, families: report.families,
      pairings: report.pairings, catalogues: report.catalogues, written: writtenFiles,
      removed: removed, manifestError: manifestError)
    outcome.strict = options.strict
    // The page counts once it is on disk, made from the manifest that is.
    outcome.gallery =
      (gallery.page != nil || gallery.kept) && manifestError == nil && gallery.error == nil
      ? OutputLayout.gallery : nil
    outcome.galleryError = gallery.error
    return outcome
  }
}
