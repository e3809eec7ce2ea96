/// The values of the last `capacity` keys used: a cache for what a long-lived process asks
/// for again and again (a `serve` worker's font maps and proofs, the cards of a screen at
/// every keystroke), and forgets the rest: past the capacity, the least recently used.
package struct RecentlyUsed<Key: Hashable, Value> {
  private var entries: [Key: (value: Value, used: Int)] = [:]
  private var clock = 0
  /// How many values are kept, at least one.
  package var capacity: Int {
    didSet {
      capacity = max(1, capacity)
      while entries.count > capacity { forgetLeastRecent() }
    }
  }

  package init(capacity: Int) { self.capacity = max(1, capacity) }

  /// The value of `key`, which becomes the most recent; nil when none is kept.
  package mutating func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key] = (entry.value, clock)
    return entry.value
  }

  /// Whether a value is kept for `key`, which stays where it was among the recent.
  package func contains(_ key: Key) -> Bool { entries[key] != nil }

  /// Keeps `value` for `key` as the most recent, forgetting the least recent beyond capacity.
  package mutating func insert(_ value: Value, for key: Key) {
    clock += 1
    entries[key] = (value, clock)
    while entries.count > capacity { forgetLeastRecent() }
  }

  /// The most recent value.
  package var first: Value? { entries.values.max { $0.used < $1.used }?.value }

  private mutating func forgetLeastRecent() {
    guard let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key else { return }
    entries[oldest] = nil
  }
}
