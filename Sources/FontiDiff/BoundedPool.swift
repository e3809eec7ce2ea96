import Dispatch
import Foundation

/// A fixed number of threads working through a list, for `diff`'s in-process comparison:
/// each thread takes the next item until none is left. Results come back in the items'
/// order, whatever order they finished in.
///
/// The work must not touch Pango or Cairo fonts (Cairo 1.16 is not safe for text on several
/// threads); HarfBuzz objects and Cairo image surfaces made by the thread itself are fine.
enum BoundedPool {
  static func map<Item: Sendable, Result: Sendable>(
    _ items: [Item], width: Int, _ work: @Sendable (Item) -> Result
  ) -> [Result] {
    let slots = Slots<Result>(count: items.count)
    let threads = max(1, min(width, items.count))
    if threads == 1 {
      return items.map(work)
    }
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while let index = slots.claim() {
        slots.store(work(items[index]), at: index)
      }
    }
    return slots.results()
  }

  /// The next unclaimed index and the finished results, behind one lock.
  private final class Slots<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var values: [Result?]

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func claim() -> Int? {
      lock.lock()
      defer { lock.unlock() }
      guard next < values.count else { return nil }
      next += 1
      return next - 1
    }

    func store(_ value: Result, at index: Int) {
      lock.lock()
      values[index] = value
      lock.unlock()
    }

    func results() -> [Result] {
      lock.lock()
      defer { lock.unlock() }
      return values.compactMap { $0 }
    }
  }
}
