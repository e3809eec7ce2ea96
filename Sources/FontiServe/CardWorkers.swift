import FontiEngine
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The worker processes that draw `serve`'s cards: the same workers, protocol and renderer as a
/// run's (`Worker`), kept running between requests and fed from the main loop. A card asked for
/// while the same card is being drawn waits for that drawing; open pages take turns, and each
/// page's newest request is drawn first; a request its page has made stale (same `client`,
/// smaller `seq`) is dropped before it reaches a worker. A worker that dies costs its item one more try, then the item fails;
/// a fresh worker takes its place. New fonts: `restart` ends idle workers at once and busy ones
/// after their item, so no drawing uses a font file's old outlines from a cache.
final class CardWorkers: @unchecked Sendable {
  enum Outcome {
    case png([UInt8])
    case failed(String)
    /// Dropped: a newer request of the same page came first.
    case stale
  }

  /// Whose request it is: one open page (`client`) and its change counter (`seq`).
  struct Origin: Hashable {
    var client: String
    var seq: Int
  }

  private struct Waiter {
    var id: Int
    var origin: Origin?
    var answer: (Outcome) -> Void
  }

  private final class Job {
    let key: String
    let item: WorkItem
    var waiters: [Waiter] = []
    /// Larger: asked for more recently.
    var order: Int
    var attempts = 0
    var slot: Slot?
    init(key: String, item: WorkItem, order: Int) {
      self.key = key
      self.item = item
      self.order = order
    }
  }

  private final class Slot {
    let process: ChildProcess
    var buffer: [UInt8] = []
    var job: Job?
    var served = 0
    /// Ends after its current item (fonts changed while it drew).
    var retiring = false
    var source: UInt32 = 0
    init(process: ChildProcess) { self.process = process }

    /// Closes its input (a worker exits at end of file) and waits for it.
    func reap() {
      process.closeInput()
      _ = process.wait()
      process.closeOutput()
    }
  }

  private var launch: WorkerPool.Launch
  private let size: Int
  private let folder: String
  private var slots: [Slot] = []
  private var pending: [Job] = []
  private var running: [String: Job] = [:]
  private var nextOrder = 0
  private var nextWaiter = 0
  private var nextFile = 0
  /// The newest `seq` seen of each page.
  private var newest: [String: Int] = [:]
  /// When each page last had a drawing dispatched (`turns` counts dispatches).
  private var lastTurn: [String: Int] = [:]
  private var turns = 0
  private var stopped = false

  /// Cards drawn, and drawn again after a worker died, since the start (for the benchmark).
  private(set) var drawn = 0

  init(launch: WorkerPool.Launch, size: Int, folder: String) {
    self.launch = launch
    self.size = max(1, size)
    self.folder = folder
  }

  /// Process IDs of the workers now running.
  var pids: [Int32] { slots.map(\.process.pid) }

  /// Draws `item` (a specimen; its path is set here), or joins the drawing of the same `key`
  /// under way. Returns a handle for `cancel`.
  @discardableResult
  func draw(
    key: String, item: (String) -> WorkItem, origin: Origin?,
    answer: @escaping (Outcome) -> Void
  ) -> Int {
    nextWaiter += 1
    let waiter = Waiter(id: nextWaiter, origin: origin, answer: answer)
    if let origin { dropStale(newer: origin) }
    nextOrder += 1
    if let job = running[key] {
      job.waiters.append(waiter)
      job.order = nextOrder
    } else {
      nextFile += 1
      let job = Job(key: key, item: item(folder + "/card-\(nextFile).png"), order: nextOrder)
      job.waiters.append(waiter)
      running[key] = job
      pending.append(job)
    }
    dispatch()
    return waiter.id
  }

  /// The client has gone: its request no longer waits; a drawing nobody waits for that has
  /// not started is dropped.
  func cancel(_ id: Int) {
    for job in running.values {
      guard let i = job.waiters.firstIndex(where: { $0.id == id }) else { continue }
      job.waiters.remove(at: i)
      if job.waiters.isEmpty && job.slot == nil { forget(job) }
      return
    }
  }

  private func forget(_ job: Job) {
    running[job.key] = nil
    pending.removeAll { $0 === job }
  }

  /// A page's newer request makes its older ones that have not started stale.
  private func dropStale(newer origin: Origin) {
    guard origin.seq >= newest[origin.client] ?? Int.min else { return }
    // Pages come and go; a bound keeps made-up client names from growing the table.
    if newest.count >= 4096 {
      newest.removeAll()
      lastTurn.removeAll()
    }
    newest[origin.client] = origin.seq
    for job in pending {
      let stale = job.waiters.filter {
        $0.origin.map { $0.client == origin.client && $0.seq < origin.seq } ?? false
      }
      guard !stale.isEmpty else { continue }
      job.waiters.removeAll { w in stale.contains { $0.id == w.id } }
      if job.waiters.isEmpty { forget(job) }
      for w in stale { w.answer(.stale) }
    }
  }

  /// New fonts or a new set-up: workers started from now on get `launch`; running ones end
  /// (idle: now; busy: after their item).
  func restart(_ launch: WorkerPool.Launch) {
    self.launch = launch
    for slot in slots {
      if slot.job == nil {
        end(slot)
      } else {
        slot.retiring = true
      }
    }
    dispatch()
  }

  func stop() {
    stopped = true
    for slot in slots {
      MainLoop.remove(slot.source)
      if slot.job != nil { slot.process.terminate() }
      slot.reap()
    }
    slots.removeAll()
    for job in Array(running.values) {
      forget(job)
      for w in job.waiters { w.answer(.failed("the server is stopping")) }
    }
  }

  private func end(_ slot: Slot) {
    MainLoop.remove(slot.source)
    slot.source = 0
    slot.reap()
    slots.removeAll { $0 === slot }
  }

  private func dispatch() {
    guard !stopped else { return }
    while !pending.isEmpty {
      let slot: Slot
      if let idle = slots.first(where: { $0.job == nil && !$0.retiring }) {
        slot = idle
      } else if slots.count < size {
        guard let fresh = spawn() else {
          let failing = pending
          pending.removeAll()
          for job in failing {
            forget(job)
            for w in job.waiters { w.answer(.failed("cannot start a worker process")) }
          }
          return
        }
        slot = fresh
      } else {
        return
      }
      guard let i = next() else { return }
      let job = pending.remove(at: i)
      turns += 1
      lastTurn[Self.page(of: job)] = turns
      guard let line = try? JSONEncoder(.message).encodeDocument(job.item) else {
        forget(job)
        for w in job.waiters { w.answer(.failed("cannot encode the card")) }
        continue
      }
      job.slot = slot
      job.attempts += 1
      slot.job = job
      slot.served += 1
      _ = slot.process.send(line)
    }
  }

  /// The page a drawing is for: its newest waiter's (empty: none said).
  private static func page(of job: Job) -> String {
    job.waiters.last?.origin?.client ?? ""
  }

  /// Which pending drawing goes next: pages take turns (the one served longest ago first), so
  /// a page whose user stopped typing is not kept waiting behind another's keystrokes; within a
  /// page, the newest request first.
  private func next() -> Int? {
    pending.indices.min { a, b in
      let x = lastTurn[Self.page(of: pending[a])] ?? 0
      let y = lastTurn[Self.page(of: pending[b])] ?? 0
      return x != y ? x < y : pending[a].order > pending[b].order
    }
  }

  private func spawn() -> Slot? {
    var setup = launch
    // Workers live as long as the server; Cairo's caches grow with the families drawn, so a
    // worker is still replaced after its budget.
    setup.setup.itemsPerWorker = 400
    guard let process = try? WorkerPool.start(setup) else { return nil }
    let slot = Slot(process: process)
    slot.source = MainLoop.watch(process.output) { [weak self, weak slot] in
      guard let self, let slot else { return false }
      return self.readable(slot)
    }
    slots.append(slot)
    return slot
  }

  /// The worker's pipe has something (or is closed): an answer, or its end.
  private func readable(_ slot: Slot) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16384)
    let n = chunk.withUnsafeMutableBytes { read(slot.process.output, $0.baseAddress, $0.count) }
    if n < 0 && errno == EINTR { return true }
    if n > 0 {
      slot.buffer.append(contentsOf: chunk[..<n])
      while let nl = slot.buffer.firstIndex(of: 0x0A) {
        let line = Data(slot.buffer[..<nl])
        slot.buffer.removeSubrange(...nl)
        guard let job = slot.job else { continue }
        slot.job = nil
        job.slot = nil
        let result =
          (try? JSONDecoder().decode(WorkResult.self, from: line))
          ?? .failure("worker sent an unreadable answer")
        finish(job, result)
        if slot.retiring || slot.served >= 400 {
          slot.source = 0
          end(slot)
          dispatch()
          return false
        }
      }
      dispatch()
      return true
    }
    // End of file: the worker died (or spent its budget).
    let job = slot.job
    let reason = slot.process.ending
    slot.source = 0
    slot.job = nil
    let ended = UncheckedSlot(slot: slot)
    MainLoop.post { ended.slot.reap() }
    if let job {
      job.slot = nil
      if job.attempts < 2 && !job.waiters.isEmpty {
        pending.append(job)
      } else {
        forget(job)
        let message = "worker process \(reason) while drawing '\(job.item.subject)'"
        for w in job.waiters { w.answer(.failed(message)) }
      }
    }
    slots.removeAll { $0 === slot }
    dispatch()
    return false
  }

  /// A dead worker, waited for on the next turn of the loop (not inside its own fd's watch).
  private struct UncheckedSlot: @unchecked Sendable {
    let slot: Slot
  }

  private func finish(_ job: Job, _ result: WorkResult) {
    forget(job)
    drawn += 1
    var outcome = Outcome.failed(result.error ?? "the card was not drawn")
    if result.error == nil, let staged = result.staged ?? result.raw {
      if let bytes = try? AtomicFile.read(staged, limit: 256 << 20) {
        outcome = .png(Array(bytes))
      }
      unlink(staged)
    }
    for w in job.waiters { w.answer(outcome) }
  }
}
