import Foundation

extension FaceComparer {
  /// Threads that compare the faces of one family, at most: a family is one work item, and a
  /// family of many faces (18 static faces against their instances, #56) would otherwise keep
  /// one core busy while the others wait.
  static let faceThreads = 2

  /// Each pair compared, in order: a family of several faces on up to `faceThreads` threads,
  /// each with a comparer of its own (a comparer is one per thread) set to this one's sample.
  /// The first error thrown, in pair order, is thrown.
  func compare(all pairs: [FacePair]) throws -> [FaceDifference] {
    let threads = min(
      FaceComparer.faceThreads, ProcessInfo.processInfo.activeProcessorCount, pairs.count)
    guard threads > 1 else { return try pairs.map { try compare($0) } }
    let results = Results(count: pairs.count)
    let settings = settings
    let sample = sample
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      let comparer = FaceComparer(settings: settings)
      comparer.sample = sample
      for k in stride(from: thread, to: pairs.count, by: threads) {
        results.set(k, Result { try comparer.compare(pairs[k]) })
      }
    }
    return try results.all().map { try $0.get() }
  }

  /// Results filled in by several threads, one slot each.
  private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<FaceDifference, any Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ result: Result<FaceDifference, any Error>) {
      lock.lock()
      slots[k] = result
      lock.unlock()
    }

    func all() -> [Result<FaceDifference, any Error>] {
      lock.lock()
      defer { lock.unlock() }
      return slots.map { $0 ?? .failure(CancellationError()) }
    }
  }
}
