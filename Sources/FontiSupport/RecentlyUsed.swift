/// The values of the last `capacity` keys used, the most recent first: a cache for what a
/// long-lived process asks for again and again (a `serve` worker's font maps and proofs, the
/// cards of a screen at every keystroke), and forgets the rest.
package struct RecentlyUsed<Key: Hashable, Value> {
  private var entries: [(key: Key, value: Value)] = []
  /// How many values are kept, at least one.
  package var capacity: Int {
    didSet {
      capacity = max(1, capacity)
      if entries.count > capacity { entries.removeLast(entries.count - capacity) }
    }
  }

  package init(capacity: Int) { self.capacity = max(1, capacity) }

  /// The value of `key`, which becomes the most recent; nil when none is kept.
  package mutating func value(for key: Key) -> Value? {
    guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
    let found = entries.remove(at: i)
    entries.insert(found, at: 0)
    return found.value
  }

  /// Keeps `value` for `key` as the most recent, forgetting the least recent beyond capacity.
  package mutating func insert(_ value: Value, for key: Key) {
    entries.removeAll { $0.key == key }
    entries.insert((key, value), at: 0)
    if entries.count > capacity { entries.removeLast() }
  }

  /// The most recent value.
  package var first: Value? { entries.first?.value }
}
