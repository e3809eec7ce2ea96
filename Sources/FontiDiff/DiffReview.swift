import FontiFonts
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a comparison's review into a folder: `changes/<slug>.png` for each changed family,
/// `diff.pdf`, `diff.md`, and `diff.json` last. Every file is written to a temporary name
/// beside its final one and renamed into place. Images a previous review listed in its
/// diff.json and this one does not are removed (no other file is touched).
///
/// Labels are set through Pango in the neutral label face of `environment` (the system's
/// fonts); glyphs and samples are drawn from the compared fonts' own outlines.
public final class DiffReview {
  public static let jsonName = "diff.json"
  public static let markdownName = "diff.md"
  public static let pdfName = "diff.pdf"
  public static let imagesFolder = "changes"

  package static func imagePath(_ slug: String) -> String { "\(imagesFolder)/\(slug).png" }

  let environment: FontEnvironment
  let creationDate: Date

  public init(environment: FontEnvironment, creationDate: Date) {
    self.environment = environment
    self.creationDate = creationDate
  }

  /// The review's files, the lock held: the PNGs, the PDF, diff.md, and diff.json last. Each
  /// is drawn under a temporary name and all are put in place together at the end, so that
  /// `interrupted` (asked between images and between the PDF's pages) leaves the folder as it
  /// was: false then, with nothing written.
  @discardableResult
  package func writeFiles(
    _ result: DiffResult, to folder: String, interrupted: () -> Bool = { false }
  ) throws(Diagnostic) -> Bool {
    let previous = DiffReview.previousImages(in: folder)
    let report = result.report
    let drawer = DiffDrawing(environment: environment)
    var staged: [(temporary: String, path: String)] = []
    var committed = false
    // A changes/ folder this review made is removed again when nothing was put in it.
    let images = folder + "/" + DiffReview.imagesFolder
    var madeImages = false
    defer {
      if !committed {
        for file in staged { unlink(OutputFolder.systemPathOrSame(file.temporary)) }
        if madeImages { rmdir(OutputFolder.systemPathOrSame(images)) }
      }
    }
    func stage(_ path: String, _ write: (String) throws -> Void) throws(Diagnostic) {
      do {
        staged.append((try AtomicFile.stage(for: path, write), path))
      } catch let error as Diagnostic {
        throw error
      } catch {
        throw .error("cannot write '\(path)': \(error)")
      }
    }

    let changed = result.outcomes.indices.filter { result.outcomes[$0].entry.status == .changed }
    try DiffReview.refuseFilesNotOurs(
      in: folder,
      writing: [DiffReview.jsonName, DiffReview.markdownName, DiffReview.pdfName]
        + changed.compactMap { result.outcomes[$0].entry.image })
    if !changed.isEmpty {
      var info = stat()
      madeImages = stat(images, &info) != 0
      try FileSystem.createFolder(images)
    }
    for index in changed {
      guard let image = result.outcomes[index].entry.image else { continue }
      if interrupted() { return false }
      try stage(folder + "/" + image) { temporary in
        try drawer.writeChangeImage(result.outcome(at: index), report: report, to: temporary)
      }
    }
    do {
      try stage(folder + "/" + DiffReview.pdfName) { temporary in
        try DiffDocument(drawing: drawer, result: result, creationDate: creationDate).write(
          to: temporary, interrupted: interrupted)
      }
    } catch  where interrupted() {
      return false
    }
    try stage(folder + "/" + DiffReview.markdownName) { temporary in
      try AtomicFile.write(Data(DiffMarkdown.render(report).utf8), to: temporary)
    }
    let json: Data
    do {
      json = try report.encoded()
    } catch {
      throw .error("cannot encode the review: \(error)")
    }
    try stage(folder + "/" + DiffReview.jsonName) { temporary in
      try AtomicFile.write(json, to: temporary)
    }
    if interrupted() { return false }

    // Everything drawn: into place, diff.json last.
    committed = true
    func put(_ file: (temporary: String, path: String)) -> Bool {
      rename(
        OutputFolder.systemPathOrSame(file.temporary), OutputFolder.systemPathOrSame(file.path))
        == 0
    }
    for (i, file) in staged.enumerated() where !put(file) {
      let code = errno
      for rest in staged[i...] { unlink(OutputFolder.systemPathOrSame(rest.temporary)) }
      throw .error("cannot write '\(file.path)': \(FileSystem.describe(code))")
    }
    let current = Set(report.families.compactMap(\.image))
    for stale in previous.subtracting(current) {
      unlink(OutputFolder.systemPathOrSame(folder + "/" + stale))
    }
    return true
  }

  /// Removes what a killed review left: temporary files (`.fonti-tmp-PID-…`) of a review's own
  /// file names, made by processes that have ended. Nothing else is touched.
  package static func sweepTemporaryFiles(in folder: String) {
    let own: [(String, (String) -> Bool)] = [
      (
        folder,
        {
          [jsonName, markdownName, pdfName].contains($0)
            || ($0.hasPrefix("review-") && $0.hasSuffix(".json"))
        }
      ),
      (folder + "/" + imagesFolder, { $0.hasSuffix(".png") }),
    ]
    for (place, ours) in own {
      guard let system = try? OutputFolder.systemFolder(place),
        let entries = try? FileManager.default.contentsOfDirectory(atPath: system)
      else { continue }
      for entry in entries {
        guard let (pid, name) = AtomicFile.temporaryParts(entry), ours(name),
          kill(pid, 0) != 0, errno == ESRCH
        else { continue }
        unlink(system + "/" + entry)
      }
    }
  }

  /// Stops a review before it writes when a file it would write into `folder` (`files`, relative
  /// to it) is not its own: its own are diff.json, diff.md, diff.pdf and the images a readable
  /// diff.json of the folder lists (`FilesNotOurs`).
  package static func refuseFilesNotOurs(in folder: String, writing files: [String])
    throws(Diagnostic)
  {
    let ours =
      readPrevious(in: folder).map { Set([jsonName, markdownName, pdfName]).union(images(of: $0)) }
      ?? []
    let theirs = FilesNotOurs.theirs(files.map { folder + "/" + $0 }) { path in
      ours.contains(String(path.dropFirst(folder.count + 1)))
    }
    guard theirs.isEmpty else { throw FilesNotOurs.refusal(theirs, record: jsonName) }
  }

  /// The folder's previous review, when its diff.json can be read as one.
  static func readPrevious(in folder: String) -> DiffReport? {
    guard let data = try? AtomicFile.read(folder + "/" + jsonName, limit: 256 << 20),
      let old = try? JSONDecoder().decode(DiffReport.self, from: data), old.version == 1
    else { return nil }
    return old
  }

  /// The images a review already in `folder` lists as its own (`changes/<slug>.png` with a
  /// slug's characters only, so nothing outside the folder can be named).
  static func previousImages(in folder: String) -> Set<String> {
    readPrevious(in: folder).map(images) ?? []
  }

  /// The images `old` lists, each a plain `changes/<slug>.png`.
  static func images(of old: DiffReport) -> Set<String> {
    Set(
      old.families.compactMap(\.image).filter { path in
        guard path.hasPrefix(imagesFolder + "/"), path.hasSuffix(".png") else { return false }
        let slug = path.dropFirst(imagesFolder.count + 1).dropLast(4)
        return !slug.isEmpty
          && slug.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
      })
  }
}
