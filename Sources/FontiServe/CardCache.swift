/// Drawn cards by their inputs (`CardRequest.key`), the least recently used dropped first once
/// they hold more than `limit` bytes: memory stays bounded however many texts are typed.
struct CardCache {
  private struct Entry {
    var bytes: [UInt8]
    var used: Int
  }

  let limit: Int
  private var entries: [String: Entry] = [:]
  private var clock = 0
  private(set) var size = 0

  init(limit: Int) { self.limit = limit }

  var count: Int { entries.count }

  mutating func get(_ key: String) -> [UInt8]? {
    guard var entry = entries[key] else { return nil }
    clock += 1
    entry.used = clock
    entries[key] = entry
    return entry.bytes
  }

  mutating func put(_ key: String, _ bytes: [UInt8]) {
    guard bytes.count <= limit else { return }
    clock += 1
    if let old = entries.updateValue(Entry(bytes: bytes, used: clock), forKey: key) {
      size -= old.bytes.count
    }
    size += bytes.count
    guard size > limit else { return }
    // Drop the oldest quarter at once: one sort per many insertions, not one per insertion.
    let oldest = entries.sorted { $0.value.used < $1.value.used }
    var i = 0
    while size > limit * 3 / 4, i < oldest.count {
      size -= oldest[i].value.bytes.count
      entries[oldest[i].key] = nil
      i += 1
    }
  }

  /// Drops every card whose key starts with `prefix` (a family's slug and separator).
  mutating func removeAll(prefix: String) {
    for (key, entry) in entries where key.hasPrefix(prefix) {
      size -= entry.bytes.count
      entries[key] = nil
    }
  }
}
