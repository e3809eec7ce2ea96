import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The proofs of a run's results, kept on disk from the moment each result arrives until the
/// manifest is assembled: at 4,000 families they were the largest part of what the parent
/// gathered while its workers drew (about 6 MiB).
///
/// One temporary file in the output folder, unlinked as soon as it is open, so that it goes
/// with the process whatever happens (it is named like a temporary manifest, so that one left
/// by a run killed in the instant between the two is swept by the next run). Each record is a
/// manifest family entry holding only the proof fields (`RunManifest+JSON`), written once and
/// read back once. Not Sendable: it belongs to the run's parent.
final class ProofSpool {
  /// Where one record is.
  struct Ticket {
    var offset: Int64
    var length: Int
  }

  /// A record could not be read back (the system's error, or damaged bytes).
  struct ReadError: Error {}

  private let folder: String
  /// The open file; -1 until the first record.
  private var fd: Int32 = -1
  /// Opening or writing failed: records stay in memory from then on.
  private var failed = false
  private var end: Int64 = 0

  init(folder: String) { self.folder = folder }

  deinit { if fd >= 0 { close(fd) } }

  /// Writes the manifest's proof fields of `proofs`; nil when they cannot be written (the
  /// caller keeps them in memory).
  func put(_ proofs: FamilyProofReport) -> Ticket? {
    guard open() else { return nil }
    var entry = RunManifest.Family.jsonBlank
    entry.proofs = proofs
    var writer = JSONWriter()
    entry.write(to: &writer)
    guard let bytes = try? writer.finished() else { return nil }
    // Appended at the file's own offset, which `pread` leaves where it is.
    guard FileSystem.writeAll(fd, bytes) == 0 else {
      // A short write leaves the offset unknown: no more records, the earlier ones still read.
      failed = true
      return nil
    }
    defer { end += Int64(bytes.count) }
    return Ticket(offset: end, length: bytes.count)
  }

  /// The proof fields a record holds (`FamilyProofReport`'s `axes`, `instances`, `features`,
  /// `languages` and `codepoints`).
  func get(_ ticket: Ticket) throws(ReadError) -> FamilyProofReport {
    guard fd >= 0, ticket.length > 0 else { throw ReadError() }
    var bytes = [UInt8](repeating: 0, count: ticket.length)
    let read = bytes.withUnsafeMutableBytes { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      var done = 0
      while done < buffer.count {
        let n = pread(fd, base + done, buffer.count - done, off_t(ticket.offset) + off_t(done))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        done += n
      }
      return true
    }
    var reader = JSONReader(bytes)
    guard read, let entry = try? RunManifest.Family(reading: &reader), (try? reader.end()) != nil
    else { throw ReadError() }
    return entry.proofs
  }

  private func open() -> Bool {
    if failed { return false }
    if fd >= 0 { return true }
    let beside = folder + "/" + OutputLayout.runManifest
    let opened = AtomicFile.openTemporary(beside: beside, mode: 0o600, readable: true)
    guard case .success(let file) = opened else {
      failed = true
      return false
    }
    unlink(file.path)
    fd = file.fd
    return true
  }
}
