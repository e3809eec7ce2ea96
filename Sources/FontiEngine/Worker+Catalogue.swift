import FontiDraw
import FontiModel
import FontiSupport
import FontiText
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Worker {
  /// Draws one PDF catalogue into a temporary file beside its final name; `finishCatalogue`
  /// (in a fresh worker, after the drawing is done) makes the final file from it. Families are
  /// made from the faces the item carries; one whose faces cannot be had (a file removed since
  /// the plan was made) is left out with a warning naming the file.
  static func renderCatalogue(
    _ request: CatalogueInput<FamilyRef>, to path: String, renderer: SpecimenRenderer
  ) throws -> WorkResult {
    var refs = request.families + request.saved + request.partners.values.joined()
    for pairing in request.pairings { refs += [pairing.heading, pairing.body] }
    let made = renderer.fontMaps.families(for: refs)
    let warnings = made.problems.sorted { $0.key.name < $1.key.name }.map {
      "family '\($0.key.name)' is left out of the catalogue: \($0.value)"
    }
    let input = request.mapFamilies { made.found[$0] }.dated()
    let raw = AtomicFile.temporaryPath(for: path)
    func writeFailed(_ code: Int32) -> WorkResult {
      let reason = FileSystem.describe(code)
      return .failure("cannot write catalogue '\(path)': \(reason)", writeFailure: reason)
    }
    let sink: PDFSink
    let system: String
    do {
      system = try OutputFolder.systemPath(raw)
      sink = try PDFSink(path: system)
    } catch {
      return writeFailed(error.code)
    }
    let result: CatalogueResult
    do {
      result = try CatalogueWriter(fontMaps: renderer.fontMaps, labelFamily: renderer.labelFamily)
        .drawRaw(
          input, to: sink.cairoPath, for: path)
    } catch {
      let code = sink.finish()
      unlink(system)
      if code != 0 { return writeFailed(code) }
      throw error
    }
    let code = sink.finish()
    if code != 0 {
      unlink(system)
      return writeFailed(code)
    }
    var answer = WorkResult(
      ok: true, missingGlyphs: result.missingGlyphs.values.reduce(0, +),
      warnings: warnings + result.warnings, pages: result.pages)
    answer.missingByFamily = result.missingGlyphs
    answer.familyPages = result.familyPages
    answer.raw = raw
    answer.creationDate = input.date
    answer.tagging = result.tagging
    return answer
  }

  /// Makes the final catalogue from the drawn file, and removes the drawn file.
  ///
  /// qpdf does not report a failed write of the file it makes (its stdio writer ignores a
  /// failed flush): on a full disk it "succeeds", and only reading the file back finds it
  /// truncated ("can't find startxref"). So room for a file the size of the drawn one is
  /// checked before qpdf writes, and again after a failure, to name the real cause.
  static func finishCatalogue(_ task: FinishCatalogueTask) throws -> WorkResult {
    defer { unlink(OutputFolder.systemPathOrSame(task.raw)) }
    func writeFailed(_ code: Int32) -> WorkResult {
      let reason = FileSystem.describe(code)
      return .failure("cannot write catalogue '\(task.path)': \(reason)", writeFailure: reason)
    }
    let bytes = FileStamp.state(task.raw)?.size ?? 0
    if let code = room(beside: task.path, bytes: bytes) { return writeFailed(code) }
    do {
      try PDFFile.finish(
        raw: task.raw, to: task.path, creationDate: task.creationDate, pages: task.pages,
        tagging: task.tagging)
    } catch {
      if let code = room(beside: task.path, bytes: bytes) { return writeFailed(code) }
      throw error
    }
    return finished(task.path, missing: 0, warnings: [], pages: task.pages)
  }

  /// Whether a file of `bytes` can be written beside `path` now: nil, or the system's error
  /// (a full disk, a quota, a file-size limit, a folder that cannot be written). Allocates a
  /// temporary file of that size and removes it.
  static func room(beside path: String, bytes: Int64) -> Int32? {
    let probe: String
    do { probe = try OutputFolder.systemPath(AtomicFile.temporaryPath(for: path)) } catch {
      return error.code
    }
    let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return errno }
    defer {
      close(fd)
      unlink(probe)
    }
    guard bytes > 0 else { return nil }
    let code = posix_fallocate(fd, 0, off_t(bytes))
    return code == 0 ? nil : code
  }
}

/// The file a catalogue is drawn into. Cairo 1.16 writes a PDF through stdio and loses the
/// system's error on the way: on a full disk a page fails as "error while writing to output
/// stream", or nothing fails at all (the last buffer is flushed at close, unchecked) and qpdf
/// later finds a truncated file ("can't find startxref"). So Cairo writes into a pipe
/// (`cairoPath`, this process's descriptor of it), and a thread of this worker copies the bytes
/// into the file with write(2), keeping the error the system gave. Without /proc, Cairo
/// writes the file itself and only Cairo's own error is known.
final class PDFSink: @unchecked Sendable {
  /// The path Cairo is to write the PDF to.
  let cairoPath: String
  private let file: Int32
  private let readEnd: Int32
  private let writeEnd: Int32
  private let copied = DispatchSemaphore(value: 0)
  /// Set by the copying thread only, read after `copied` is signalled.
  private var failure: Int32 = 0

  /// Creates the file at `path` (which must not exist) and starts copying into it.
  init(path: String) throws(FileError) {
    let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard file >= 0 else { throw FileError(path: path, operation: "write", code: errno) }
    var ends: [Int32] = [-1, -1]
    let piped = pipe(&ends) == 0
    if piped { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
    let through = "/proc/self/fd/\(ends[1])"
    guard piped, access(through, W_OK) == 0 else {
      if piped {
        close(ends[0])
        close(ends[1])
      }
      self.file = file
      readEnd = -1
      writeEnd = -1
      cairoPath = path
      return
    }
    self.file = file
    readEnd = ends[0]
    writeEnd = ends[1]
    cairoPath = through
    Thread { [self] in copy() }.start()
  }

  private func copy() {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      // After a failure, keep reading (and dropping) so that Cairo never blocks on the pipe.
      guard failure == 0 else { continue }
      failure = buffer.withUnsafeBytes { raw in
        FileSystem.writeAll(file, UnsafeRawBufferPointer(rebasing: raw[..<n]))
      }
    }
    copied.signal()
  }

  /// Call once Cairo has finished the surface: ends the copy and closes the file. Returns the
  /// system's error (errno) if a write or the close failed, else 0.
  func finish() -> Int32 {
    guard writeEnd >= 0 else { return close(file) == 0 ? 0 : errno }
    close(writeEnd)
    copied.wait()
    close(readEnd)
    let closed = close(file) == 0 ? 0 : errno
    return failure != 0 ? failure : closed
  }
}
