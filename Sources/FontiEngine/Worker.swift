import FontiDiff
import FontiDraw
import FontiModel
import FontiSupport
import FontiText
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The worker side of a run: a process (the tool re-executed as `__worker`) that loads
/// fontconfig's configuration once (its caches: no font is listed, sorted or scanned), then
/// draws items read from stdin, one JSON line each, and answers each with one JSON line on
/// stdout. Each item carries its families' faces; the worker makes each item a font map of
/// its own holding exactly those (`FontMaps`). Processes, not threads: Cairo 1.16 crashes
/// when two threads draw text, each with its own font map; processes never share that state,
/// and a font that crashes shaping takes down only its worker.
public enum Worker {
  /// The argument that makes the tool a worker (`fonti-batch __worker`).
  public static let command = "__worker"

  /// Environment variable naming a family whose specimen makes the worker abort, so tests can
  /// prove that a run survives a worker dying mid-family. Never set in normal use.
  public static let crashHook = "FONTI_WORKER_CRASH_ON"

  /// Why a worker could not do its job: it could not read what its parent sent first, or
  /// could not put an answer into words. Its exit status says so (the parent reports the item).
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Serves the parent until it closes stdin or the item budget is spent. Returns normally
  /// also when the parent has gone.
  public static func main() throws(Failure) {
    signal(SIGPIPE, SIG_IGN)
    // Ctrl-C reaches the whole process group; the parent decides what stops, and ends busy
    // workers with SIGTERM itself, so a worker never reports an interruption as a crash.
    signal(SIGINT, SIG_IGN)
    // Over a file-size limit a write fails with EFBIG and is reported like a full disk, rather
    // than the kernel killing the worker.
    signal(SIGXFSZ, SIG_IGN)
    var requests = MessageReader()
    guard let first = requests.receive(from: 0),
      let setup = try? JSONDecoder().decode(WorkerSetup.self, from: first.line)
    else { throw Failure(description: "the worker received no readable set-up") }
    // Held for the worker's life: what it writes into the output folder never follows a link
    // there. A worker that cannot open it writes nothing (its items fail, by name).
    var registration: OutputFolder.Registration?
    if let folder = setup.outputFolder {
      do { registration = try OutputFolder.register(folder) } catch {
        throw Failure(description: error.message)
      }
    }
    defer { withExtendedLifetime(registration) {} }
    // Fonts are set up on the first item that draws text: a worker that only finishes
    // catalogues never loads them, and stays small.
    var fonts: SpecimenRenderer?
    let crashOn = ProcessInfo.processInfo.environment[crashHook]
    let hangOn = ProcessInfo.processInfo.environment[ItemTimeout.hangHook]
    // Answers are read by the parent only, never kept or compared as bytes: keys unsorted.
    let encoder = JSONEncoder(.message)
    let decoder = JSONDecoder()
    let keptProofs = setup.keptFontMaps > 1 ? KeptProofs(capacity: setup.keptFontMaps) : nil
    var done = 0
    while done < max(1, setup.itemsPerWorker), let request = requests.receive(from: 0) {
      done += 1
      let started = DispatchTime.now().uptimeNanoseconds
      var result: WorkResult
      if let item = try? decoder.decode(WorkItem.self, from: request.line) {
        if let crashOn, item.subject == crashOn { abort() }
        if let hangOn, item.subject == hangOn { while true { sleep(60) } }
        result = answer(item, proofs: keptProofs) {
          if fonts == nil { fonts = renderer(for: setup) }
          return fonts
        }
      } else {
        result = .failure("worker received an unreadable request")
      }
      result.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
      guard let message = try? result.message(encoder: encoder) else {
        throw Failure(description: "the worker cannot encode its answer")
      }
      // The parent has gone.
      if message.write(to: 1) != 0 { return }
    }
  }

  /// The renderer of a worker's items, over fontconfig's caches: the installed fonts of the
  /// folders drawn from (or all of them, when the folders cannot be had) and the custom files.
  /// nil when fontconfig cannot be set up.
  static func renderer(for setup: WorkerSetup) -> SpecimenRenderer? {
    let patterns: FacePatterns
    if let folders = setup.installedFolders,
      let byFolder = try? FacePatterns(installedFolders: folders, customFiles: setup.customFonts),
      FontconfigConfiguration.makeEmptyCurrent()
    {
      // Only the folders of the fonts drawn are loaded; Pango's start-up loads none.
      patterns = byFolder
    } else {
      guard let system = try? FontconfigConfiguration.current() else { return nil }
      patterns = FacePatterns(
        configurations: [(system, custom: false)], customFiles: setup.customFonts)
    }
    let maps = FontMaps(patterns: patterns, boxDigits: setup.boxDigitsFace)
    maps.kept = setup.keptFontMaps
    let label = setup.labelFamily.flatMap { maps.families(for: [$0]).found[$0] }
    let renderer = SpecimenRenderer(fontMaps: maps, labelFamily: label)
    // The parent flushes and renames what is drawn here, or takes the bytes over the pipe.
    renderer.delivery = setup.sendsPNGs ? .kept : .staged
    return renderer
  }

  /// The worker's answer to `item`; `fonts` gives the renderer of items that draw text.
  static func answer(
    _ item: WorkItem, proofs: KeptProofs? = nil, fonts: () -> SpecimenRenderer?
  ) -> WorkResult {
    switch item {
    case .finishCatalogue(let task):
      do { return try finishCatalogue(task) } catch { return .failure("\(error)") }
    case .diff(let task):
      return DiffWork.perform(task)
    case .thumbnail(let task):
      return thumbnail(task)
    case .specimen, .pairing, .catalogue:
      guard let renderer = fonts() else {
        return .failure("fontconfig could not be set up in the worker")
      }
      return perform(item, renderer: renderer, proofs: proofs)
    }
  }

  /// Draws one item. Its families are made from the faces it carries (`FontMaps.families`); a
  /// family whose faces cannot be had (a file removed since the parent listed the fonts) fails
  /// the item with the file named, or, as a partner or on a catalogue, is left out with a
  /// warning.
  static func perform(
    _ item: WorkItem, renderer: SpecimenRenderer, proofs kept: KeptProofs? = nil
  ) -> WorkResult {
    let maps = renderer.fontMaps
    // The label face too: the families are then made from the very configuration the drawing
    // uses (`FontMaps` reuses it), not from one more.
    let label = renderer.labelFamily.map { [FamilyRef($0)] } ?? []
    do {
      switch item {
      case .specimen(let request, let path):
        let made = maps.families(for: [request.family] + request.partners + label)
        guard let drawn = request.mapFamilies({ made.found[$0] }) else {
          return .failure(
            made.problems[request.family] ?? "family '\(request.family.name)' cannot be drawn")
        }
        // Read once, before drawing: the axes the specimen shows, the proofs the manifest lists.
        let proofs = kept?.proofs(of: request, drawn) ?? drawn.readProofs()
        var r = try renderer.render(drawn, proofs: proofs, to: path)
        r.warnings += request.partners.compactMap { made.problems[$0] }.map {
          "partner left out: \($0)"
        }
        var result = finished(path, drawn: r)
        if result.ok { result.proofs = r.proofs }
        switch r.thumbnail {
        case .success(let t)?:
          let file = t.staged ?? request.thumbnail ?? ""
          if let sha = SHA256.hex(file: OutputFolder.systemPathOrSame(file)) {
            result.thumbnail = StagedThumbnail(staged: t.staged, sha256: sha)
          } else {
            if let staged = t.staged { unlink(OutputFolder.systemPathOrSame(staged)) }
            result.thumbnail = StagedThumbnail(error: "cannot read back the thumbnail")
          }
        case .failure(let error)?:
          result.thumbnail = StagedThumbnail(error: error.message)
        case nil:
          break
        }
        if !result.ok, let staged = result.thumbnail?.staged {
          unlink(OutputFolder.systemPathOrSame(staged))
        }
        return result
      case .pairing(let request, let path):
        let made = maps.families(for: [request.heading, request.body] + label)
        guard let request = request.mapFamilies({ made.found[$0] }) else {
          let reasons = made.problems.values.sorted().joined(separator: "; ")
          return .failure(
            reasons.isEmpty ? "a family of pairing '\(item.subject)' cannot be drawn" : reasons)
        }
        return finished(path, drawn: try renderer.renderPairing(request, to: path))
      case .catalogue(let input, let path):
        return try renderCatalogue(input, to: path, renderer: renderer)
      case .finishCatalogue(let task):
        return try finishCatalogue(task)
      case .diff(let task):
        return DiffWork.perform(task)
      case .thumbnail(let task):
        return thumbnail(task)
      }
    } catch {
      let message = "\(error)"
      // A PNG's file errors are `FileError`s naming the file; a catalogue's are found by
      // `renderCatalogue` and `finishCatalogue` themselves.
      switch item {
      case .specimen, .pairing:
        return .failure(message, writeFailure: writeReason(message, path: item.path))
      case .catalogue, .finishCatalogue, .diff, .thumbnail:
        return .failure(message)
      }
    }
  }

  /// The system's reason when `message` says that the output file at `path` could not be
  /// written. File errors name the file they failed on (`FileError`: "cannot write PNG 'PATH':
  /// REASON"); a font's problem never names the output file.
  static func writeReason(_ message: String, path: String) -> String? {
    guard let range = message.range(of: "'\(path)': ", options: .backwards) else { return nil }
    let reason = message[range.upperBound...]
    return reason.isEmpty ? nil : String(reason)
  }

  /// Makes a thumbnail from a specimen PNG on disk, staged for the parent to put in place.
  static func thumbnail(_ task: ThumbnailTask) -> WorkResult {
    do {
      let r = try Thumbnail.write(fromPNG: task.source, to: task.path, staging: true)
      return finished(task.path, staged: r.staged, missing: 0, warnings: [])
    } catch {
      return .failure(error.message, writeFailure: writeReason(error.message, path: task.path))
    }
  }

  /// A drawn PNG's success: with its bytes when they were kept to be sent (no checksum: no
  /// file is made of them here), else as `finished(_:staged:missing:warnings:pages:)`.
  static func finished(_ path: String, drawn r: SpecimenResult) -> WorkResult {
    guard let png = r.png else {
      return finished(path, staged: r.staged, missing: r.missingGlyphs, warnings: r.warnings)
    }
    var result = WorkResult(ok: true, missingGlyphs: r.missingGlyphs, warnings: r.warnings)
    result.attachment = png
    return result
  }

  /// A success with the written file's checksum (read back, so it is what is on disk).
  /// `staged`: the file is still under this temporary name, for the parent to put in place.
  static func finished(
    _ path: String, staged: String? = nil, missing: Int, warnings: [String], pages: Int? = nil
  ) -> WorkResult {
    guard let sha = SHA256.hex(file: OutputFolder.systemPathOrSame(staged ?? path)) else {
      if let staged { unlink(OutputFolder.systemPathOrSame(staged)) }
      return .failure("cannot read back '\(path)' after writing it")
    }
    var result = WorkResult(
      ok: true, missingGlyphs: missing, warnings: warnings, sha256: sha, pages: pages)
    result.staged = staged
    return result
  }

}

/// The proofs a worker read for its last specimens, by what they were read from: `serve`'s
/// cards draw the same screenful of families at every keystroke, and reading a variable
/// family's named instances took most of such a card's time. The fonts do not change under
/// a worker: the server starts new ones when they do.
final class KeptProofs {
  private struct Key: Hashable {
    var family: FamilyRef
    var axes: [String]
    var asked: ProofOptions?
  }
  private var recent: RecentlyUsed<Key, FamilyProofReport>

  init(capacity: Int) { recent = RecentlyUsed(capacity: capacity) }

  /// `drawn`'s proofs, read once for the same family, axes and proofs asked.
  func proofs(
    of request: SpecimenRequest<FamilyRef>, _ drawn: SpecimenRequest<FontFamily>
  ) -> FamilyProofReport {
    let key = Key(
      family: request.family, axes: request.sample?.variations.map(\.tag) ?? [],
      asked: request.proofs)
    if let report = recent.value(for: key) { return report }
    let report = drawn.readProofs()
    recent.insert(report, for: key)
    return report
  }
}
