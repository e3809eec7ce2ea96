import FontiModel

/// The results of a run's outputs, by absolute path: what its manifest is assembled from.
///
/// A `[String: WorkResult]` keeps a whole `WorkResult` (a few hundred bytes, mostly optional
/// fields left empty) in every slot of its hash table, empty slots included, and doubles it in
/// one step as it grows: 5 MiB of the parent's memory at 4,000 families (8,000 outputs with
/// their thumbnails). Here the hash table holds positions, and the results sit once each in
/// an array, most of them (`Plain`) in a quarter of a `WorkResult`'s room. With a `ProofSpool`,
/// a result's proofs wait on disk: the table gives results without them, and `proofs(at:)`
/// reads them back.
struct ResultTable {
  private var positions: [String: Int] = [:]
  private var values: [Stored] = []
  private var tickets: [ProofSpool.Ticket?] = []
  private let spool: ProofSpool?

  init(spool: ProofSpool? = nil) {
    self.spool = spool
  }

  /// The result of the output at `path`, without its proofs when they were spooled; setting
  /// nil forgets it.
  subscript(path: String) -> WorkResult? {
    get { positions[path].map { values[$0].result } }
    set {
      guard var result = newValue else {
        positions[path] = nil
        return
      }
      var ticket: ProofSpool.Ticket?
      if let spool, let proofs = result.proofs, let spooled = spool.put(proofs) {
        ticket = spooled
        result.proofs = nil
      }
      let stored = Stored(result)
      if let i = positions[path] {
        values[i] = stored
        tickets[i] = ticket
      } else {
        positions[path] = values.count
        values.append(stored)
        tickets.append(ticket)
      }
    }
  }

  /// The proofs of the result at `path` (`FamilyProofReport`'s manifest fields when they were
  /// spooled); nil when it has none. Throws when spooled proofs cannot be read back.
  func proofs(at path: String) throws(ProofSpool.ReadError) -> FamilyProofReport? {
    guard let i = positions[path] else { return nil }
    if let ticket = tickets[i], let spool { return try spool.get(ticket) }
    return values[i].result.proofs
  }

  /// A result as the table keeps it. Nearly all of a run's results are a specimen's or a
  /// thumbnail's: whether it was made, its checksum, boxes, warnings and time. Those are kept
  /// as just that (`plain`, under 90 bytes); any other (a catalogue's pages, a diff, proofs not
  /// spooled) whole, behind a reference. A `WorkResult` inline would have room for every field
  /// in every slot: 296 bytes, 2.4 MB of the parent's memory at 4,000 families.
  private enum Stored {
    case plain(Plain)
    case whole(Whole)

    init(_ result: WorkResult) {
      let plain = Plain(result)
      // Kept plain only when nothing is lost: a field added to `WorkResult` later is kept whole
      // until `Plain` learns it.
      self = plain.result == result ? .plain(plain) : .whole(Whole(result))
    }

    var result: WorkResult {
      switch self {
      case .plain(let plain): plain.result
      case .whole(let whole): whole.result
      }
    }
  }

  private struct Plain {
    var ok: Bool
    var error: String?
    var missingGlyphs: Int
    var warnings: [String]
    var sha256: String?
    var writeFailure: String?
    var seconds: Double?

    init(_ r: WorkResult) {
      (ok, error, missingGlyphs, warnings) = (r.ok, r.error, r.missingGlyphs, r.warnings)
      (sha256, writeFailure, seconds) = (r.sha256, r.writeFailure, r.seconds)
    }

    var result: WorkResult {
      var r = WorkResult(ok: ok, error: error, missingGlyphs: missingGlyphs, warnings: warnings)
      (r.sha256, r.writeFailure, r.seconds) = (sha256, writeFailure, seconds)
      return r
    }
  }

  private final class Whole: Sendable {
    let result: WorkResult
    init(_ result: WorkResult) { self.result = result }
  }
}
