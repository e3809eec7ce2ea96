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

  static func imagePath(_ slug: String) -> String { "\(imagesFolder)/\(slug).png" }

  let environment: FontEnvironment
  let creationDate: Date

  public init(environment: FontEnvironment, creationDate: Date) {
    self.environment = environment
    self.creationDate = creationDate
  }

  /// Writes every file of the review into `folder` (created when missing).
  public func write(_ result: DiffResult, to folder: String) throws(Diagnostic) {
    var info = stat()
    if stat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
      throw .error("output '\(folder)' exists and is not a folder")
    }
    try FileSystem.createFolder(folder)
    // Two reviews never write one folder at once (the lock `run` takes on its output).
    let lock = try OutputLock(folder: folder)
    defer { withExtendedLifetime(lock) {} }
    DiffReview.sweepTemporaryFiles(in: folder)
    let previous = DiffReview.previousImages(in: folder)
    let report = result.report
    let drawer = DiffDrawing(environment: environment)

    let changed = result.outcomes.filter { $0.entry.status == .changed }
    if !changed.isEmpty { try FileSystem.createFolder(folder + "/" + DiffReview.imagesFolder) }
    for outcome in changed {
      guard let image = outcome.entry.image else { continue }
      let path = folder + "/" + image
      do {
        try drawer.writeChangeImage(outcome, report: report, to: path)
      } catch {
        throw .error("cannot write '\(path)': \(error)")
      }
    }
    let pdf = folder + "/" + DiffReview.pdfName
    do {
      try DiffDocument(drawing: drawer, result: result, creationDate: creationDate).write(to: pdf)
    } catch {
      throw .error("cannot write '\(pdf)': \(error)")
    }
    try AtomicFile.write(
      Data(DiffMarkdown.render(report).utf8), to: folder + "/" + DiffReview.markdownName)
    let json: Data
    do {
      json = try report.encoded()
    } catch {
      throw .error("cannot encode the review: \(error)")
    }
    try AtomicFile.write(json, to: folder + "/" + DiffReview.jsonName)

    let current = Set(report.families.compactMap(\.image))
    for stale in previous.subtracting(current) { unlink(folder + "/" + stale) }
  }

  /// Removes what a killed review left: temporary files (`.fonti-tmp-PID-…`) of a review's own
  /// file names, made by processes that have ended. Nothing else is touched.
  static func sweepTemporaryFiles(in folder: String) {
    let own: [(String, (String) -> Bool)] = [
      (folder, { [jsonName, markdownName, pdfName].contains($0) }),
      (folder + "/" + imagesFolder, { $0.hasSuffix(".png") }),
    ]
    for (place, ours) in own {
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: place) else {
        continue
      }
      for entry in entries {
        guard let (pid, name) = AtomicFile.temporaryParts(entry), ours(name),
          kill(pid, 0) != 0, errno == ESRCH
        else { continue }
        unlink(place + "/" + entry)
      }
    }
  }

  /// The images a review already in `folder` lists as its own (`changes/<slug>.png` with a
  /// slug's characters only, so nothing outside the folder can be named).
  static func previousImages(in folder: String) -> Set<String> {
    guard let data = try? AtomicFile.read(folder + "/" + jsonName, limit: 256 << 20),
      let old = try? JSONDecoder().decode(DiffReport.self, from: data), old.version == 1
    else { return [] }
    return Set(
      old.families.compactMap(\.image).filter { path in
        guard path.hasPrefix(imagesFolder + "/"), path.hasSuffix(".png") else { return false }
        let slug = path.dropFirst(imagesFolder.count + 1).dropLast(4)
        return !slug.isEmpty
          && slug.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
      })
  }
}
