/// The results of a run's outputs, by absolute path: what its manifest is assembled from.
///
/// A `[String: WorkResult]` keeps a whole `WorkResult` (a few hundred bytes, mostly optional
/// fields left empty) in every slot of its hash table, empty slots included, and doubles it in
/// one step as it grows: 5 MiB of the parent's memory at 4,000 families (8,000 outputs with
/// their thumbnails). Here the hash table holds positions, and the results sit once each in
/// an array.
struct ResultTable {
  private var positions: [String: Int] = [:]
  private var values: [WorkResult] = []

  init(capacity: Int = 0) {
    positions.reserveCapacity(capacity)
    values.reserveCapacity(capacity)
  }

  /// The result of the output at `path`; setting nil forgets it.
  subscript(path: String) -> WorkResult? {
    get { positions[path].map { values[$0] } }
    set {
      if let i = positions[path] {
        if let newValue { values[i] = newValue } else { positions[path] = nil }
      } else if let newValue {
        positions[path] = values.count
        values.append(newValue)
      }
    }
  }
}
