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
/// smaller `seq`) is dropped before it reaches a worker. A worker that dies costs its item one
/// more try, then the item fails; a fresh worker takes its place. A worker that runs past its
/// card's bound (`ItemTimeout`, as a run's) is killed and the card fails at once. New fonts: `restart` ends idle
/// workers at once and busy ones after their item, so no drawing uses a font file's old
/// outlines from a cache. The processes themselves are a `ProcessPool`, as a run's are.
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
    /// A worker has it.
    var drawing = false
    init(key: String, item: WorkItem, order: Int) {
      self.key = key
      self.item = item
      self.order = order
    }
  }

  /// The worker processes, whose tasks are the drawings they were sent.
  private typealias Processes = ProcessPool<WorkItem, WorkResult, Job>
  private typealias Worker = Processes.Worker

  /// Workers live as long as the server; what they keep is bounded (`keptFontMaps`, Cairo's
  /// 256 scaled fonts), and a worker is still replaced after this many items, which loses
  /// what it kept: a page zoomed out to see 250 families draws them all at each keystroke.
  private static let budget = 2000
  /// Font configurations each worker keeps: two a card (its families made from the faces
  /// sent, the map of the faces it draws, which differ for a variable or optical-size family)
  /// for 300 families: every family of a page zoomed out to see them all on a machine with
  /// 260, whose cards then take a third of the time (1.9 → 1.0 CPU-seconds for 255 cards).
  /// With 255 families kept, a worker holds about 70 MiB more of its own memory, and maps the
  /// font files it read (shared, and the system's to reclaim).
  private static let keptFontMaps = 600
  /// Of the cards next in turn (of one page's newest settings), how many an idle worker looks
  /// through for one whose family it drew lately, and so has kept the fonts of.
  private static let lookAhead = 8

  private let processes: Processes
  /// Each worker's watch on its pipe in the main loop.
  private var watches: [ObjectIdentifier: UInt32] = [:]
  private let size: Int
  private let folder: String
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
  /// How long a card may take (`FONTI_ITEM_TIMEOUT`, else a minute).
  private let timeout = ItemTimeout.current
  /// The timer that looks for overdue workers while any is busy.
  private var watchdog: UInt32?

  /// The families each worker was sent lately, as many as it keeps the fonts of.
  private var sentLately: [ObjectIdentifier: RecentlyUsed<String, Bool>] = [:]

  /// Cards drawn, and drawn again after a worker died, since the start (for the benchmark).
  private(set) var drawn = 0

  init(launch: WorkerPool.Launch, size: Int, folder: String) {
    processes = Processes(launch: Self.processLaunch(launch))
    self.size = max(1, size)
    self.folder = folder
  }

  /// How card workers are started: with `launch`'s set-up and the server's budget, sending
  /// each card's PNG back over their pipe rather than writing a file for the server to read.
  private static func processLaunch(_ launch: WorkerPool.Launch) -> ProcessLaunch {
    var launch = launch
    launch.setup.itemsPerWorker = budget
    launch.setup.sendsPNGs = true
    launch.setup.keptFontMaps = keptFontMaps
    return launch.processLaunch
  }

  /// Process IDs of the workers now running.
  var pids: [Int32] { processes.workers.map(\.process.pid) }

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
      if job.waiters.isEmpty && !job.drawing { forget(job) }
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
    processes.launch = Self.processLaunch(launch)
    for worker in processes.workers {
      if worker.task == nil {
        end(worker, watched: false)
      } else {
        worker.retiring = true
      }
    }
    dispatch()
  }

  func stop() {
    stopped = true
    MainLoop.remove(watchdog ?? 0)
    watchdog = nil
    for watch in watches.values { MainLoop.remove(watch) }
    watches.removeAll()
    processes.stop()
    for job in Array(running.values) {
      forget(job)
      for w in job.waiters { w.answer(.failed("the server is stopping")) }
    }
  }

  /// Ends `worker` and its watch (`watched`: from inside the watch, which then returns false).
  @discardableResult
  private func end(_ worker: Worker, watched: Bool) -> String {
    sentLately[ObjectIdentifier(worker)] = nil
    let watch = watches.removeValue(forKey: ObjectIdentifier(worker))
    if !watched { MainLoop.remove(watch ?? 0) }
    return processes.end(worker)
  }

  private func dispatch() {
    guard !stopped else { return }
    while !pending.isEmpty {
      let worker: Worker
      if let idle = processes.workers.first(where: { $0.task == nil && !$0.retiring }) {
        worker = idle
      } else if processes.workers.count < size {
        guard let fresh = spawn() else {
          let failing = pending
          pending.removeAll()
          for job in failing {
            forget(job)
            for w in job.waiters { w.answer(.failed("cannot start a worker process")) }
          }
          return
        }
        worker = fresh
      } else {
        return
      }
      guard let i = next(for: worker) else { return }
      let job = pending.remove(at: i)
      sentLately[ObjectIdentifier(worker), default: RecentlyUsed(capacity: Self.keptFontMaps / 2)]
        .insert(true, for: job.item.subject)
      turns += 1
      lastTurn[Self.page(of: job)] = turns
      let bound = timeout.seconds(units: job.item.timeoutUnits)
      guard processes.send(job.item, for: job, to: worker, within: bound) else {
        forget(job)
        for w in job.waiters { w.answer(.failed("cannot encode the card")) }
        continue
      }
      job.drawing = true
      job.attempts += 1
      watchOverdue()
    }
  }

  /// Starts the timer that fails cards whose worker runs past their bound; it stops itself
  /// once no worker is busy.
  private func watchOverdue() {
    guard watchdog == nil else { return }
    watchdog = MainLoop.after(250) { [weak self] in
      guard let self else { return false }
      for (worker, seconds) in self.processes.overdue() {
        guard let job = worker.task else { continue }
        // A hang comes back on a second try: the card fails at once.
        MainLoop.remove(self.watches.removeValue(forKey: ObjectIdentifier(worker)) ?? 0)
        self.processes.kill(worker)
        job.drawing = false
        self.forget(job)
        let message = job.item.timedOut(after: seconds)
        for w in job.waiters { w.answer(.failed(message)) }
      }
      self.dispatch()
      guard self.processes.workers.contains(where: { $0.task != nil }) else {
        self.watchdog = nil
        return false
      }
      return true
    }
  }

  /// The page a drawing is for: its newest waiter's (empty: none said).
  private static func page(of job: Job) -> String {
    job.waiters.last?.origin?.client ?? ""
  }

  /// The card `worker` draws next: the next in turn, or one of the few after it with the same
  /// turn (the same page and settings) whose family `worker` drew lately. A card whose fonts
  /// a worker has kept costs it a third of one it must load them for.
  private func next(for worker: Worker) -> Int? {
    guard let first = next() else { return nil }
    guard let lately = sentLately[ObjectIdentifier(worker)] else { return first }
    let page = Self.page(of: pending[first])
    let seq = pending[first].waiters.last?.origin?.seq
    var turn = [first]
    for i in pending.indices where i != first {
      let job = pending[i]
      guard Self.page(of: job) == page, job.waiters.last?.origin?.seq == seq else { continue }
      turn.append(i)
      if turn.count > Self.lookAhead { break }
    }
    return turn[Self.preferred(turn.map { pending[$0].item.subject }, drew: lately.contains)]
  }

  /// Of the families of the cards next in turn (the first is next), the index of the card an
  /// idle worker takes: the first whose family it `drew` lately, else the first.
  static func preferred(_ families: [String], drew: (String) -> Bool) -> Int {
    families.prefix(lookAhead + 1).firstIndex(where: drew) ?? 0
  }

  /// Which pending drawing goes next: pages take turns (the one served longest ago first), so
  /// a page whose user stopped typing is not kept waiting behind another's keystrokes; within a
  /// page, its newest keystroke's cards first, and those in the order asked (a page asks for
  /// the cards at the top of the screen first).
  private func next() -> Int? {
    pending.indices.min { a, b in
      let (pa, pb) = (Self.page(of: pending[a]), Self.page(of: pending[b]))
      let x = lastTurn[pa] ?? 0
      let y = lastTurn[pb] ?? 0
      if x != y { return x < y }
      if pa == pb {
        let sa = pending[a].waiters.last?.origin?.seq ?? Int.min
        let sb = pending[b].waiters.last?.origin?.seq ?? Int.min
        if sa != sb { return sa > sb }
      }
      return pending[a].order < pending[b].order
    }
  }

  private func spawn() -> Worker? {
    guard let worker = try? processes.start() else { return nil }
    watches[ObjectIdentifier(worker)] = MainLoop.watch(worker.process.output) {
      [weak self, weak worker] in
      guard let self, let worker else { return false }
      return self.readable(worker)
    }
    return worker
  }

  /// The worker's pipe has something (or is closed): an answer, or its end.
  private func readable(_ worker: Worker) -> Bool {
    switch processes.read(worker) {
    case .interrupted:
      return true
    case .received:
      while let answered = processes.nextAnswer(from: worker) {
        answered.task.drawing = false
        finish(answered.task, answered.answer)
        if worker.retiring || worker.served >= Self.budget {
          end(worker, watched: true)
          dispatch()
          return false
        }
      }
      dispatch()
      return true
    case .ended:
      // The worker died (or spent its budget).
      let job = worker.task
      let reason = end(worker, watched: true)
      if let job {
        job.drawing = false
        if job.attempts < 2 && !job.waiters.isEmpty {
          pending.append(job)
        } else {
          forget(job)
          let message = "worker process \(reason) while drawing '\(job.item.subject)'"
          for w in job.waiters { w.answer(.failed(message)) }
        }
      }
      dispatch()
      return false
    }
  }

  private func finish(_ job: Job, _ result: WorkResult) {
    forget(job)
    drawn += 1
    var outcome = Outcome.failed(result.error ?? "the card was not drawn")
    if result.error == nil, let png = result.attachment {
      outcome = .png(png)
    } else if result.error == nil, let staged = result.staged ?? result.raw {
      // A proof PDF, drawn to a file.
      if let bytes = try? AtomicFile.read(staged, limit: 256 << 20) {
        outcome = .png(Array(bytes))
      }
      unlink(staged)
    }
    for w in job.waiters { w.answer(outcome) }
  }
}
