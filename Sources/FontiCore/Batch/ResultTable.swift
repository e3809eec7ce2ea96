/// The results of a run's outputs, by absolute path: what its manifest is assembled from.
///
/// A `[String: WorkResult]` keeps a whole `WorkResult` (a few hundred bytes, mostly optional
/// fields left empty) in every slot of its hash table, empty slots included, and doubles it in
/// one step as it grows: 5 MiB of the parent's memory at 4,000 families (8,000 outputs with
/// their thumbnails). Here the hash table holds positions, and the results sit once each in
/// an array. With a `ProofSpool`, a result's proofs wait on disk: the table gives results
/// without them, and `proofs(at:)` reads them back.
struct ResultTable {
  private var positions: [String: Int] = [:]
  private var values: [WorkResult] = []
  private var tickets: [ProofSpool.Ticket?] = []
  private let spool: ProofSpool?

  init(spool: ProofSpool? = nil) {
    self.spool = spool
  }

  /// The result of the output at `path`, without its proofs when they were spooled; setting
  /// nil forgets it.
  subscript(path: String) -> WorkResult? {
    get { positions[path].map { values[$0] } }
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
      if let i = positions[path] {
        values[i] = result
        tickets[i] = ticket
      } else {
        positions[path] = values.count
        values.append(result)
        tickets.append(ticket)
      }
    }
  }

  /// The proofs of the result at `path` (`FamilyProofReport`'s manifest fields when they were
  /// spooled); nil when it has none. Throws when spooled proofs cannot be read back.
  func proofs(at path: String) throws(ProofSpool.ReadError) -> FamilyProofReport? {
    guard let i = positions[path] else { return nil }
    if let ticket = tickets[i], let spool { return try spool.get(ticket) }
    return values[i].proofs
  }
}
