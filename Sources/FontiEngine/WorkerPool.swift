import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The parent side of a run: N worker processes started once, fed items from a queue, one at
/// a time each. A worker that dies (a font that crashes FreeType or HarfBuzz, an OOM kill) costs
/// only its current item, which is reported as failed; a fresh worker takes its place. So does a
/// worker that runs past its item's bound (`ItemTimeout`: a damaged font that keeps a library
/// spinning): it is killed and the item failed as timed out.
public final class WorkerPool {
  /// The program a worker runs.
  public struct Program: Sendable {
    public var executable: String
    public var arguments: [String]
    /// Variables set for workers on top of this process's environment.
    public var environment: [String: String]

    public init(executable: String, arguments: [String], environment: [String: String] = [:]) {
      self.executable = executable
      self.arguments = arguments
      self.environment = environment
    }

    /// This executable, as a worker (`Worker.command`): what `run` starts.
    public static var current: Program {
      Program(executable: executablePath, arguments: [Worker.command])
    }

    /// The running executable's path (`/proc/self/exe`), else how it was called.
    static var executablePath: String {
      var buffer = [CChar](repeating: 0, count: 4096)
      let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard n > 0 else { return CommandLine.arguments.first ?? "fonti-batch" }
      return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }

  /// How a worker process is started: its program, and what it is told first.
  public struct Launch: Sendable {
    public var executable: String
    public var arguments: [String]
    public var setup: WorkerSetup
    /// Variables set for workers on top of this process's environment.
    public var environment: [String: String]

    public init(
      executable: String, arguments: [String], setup: WorkerSetup,
      environment: [String: String] = [:]
    ) {
      self.executable = executable
      self.arguments = arguments
      self.setup = setup
      self.environment = environment
    }

    public init(_ program: Program, setup: WorkerSetup) {
      self.init(
        executable: program.executable, arguments: program.arguments, setup: setup,
        environment: program.environment)
    }
  }

  /// The processes of a pool, whose tasks are items' indexes.
  typealias Processes = ProcessPool<WorkItem, WorkResult, Int>

  let launch: Launch
  let size: Int
  /// How long an item may take (`FONTI_ITEM_TIMEOUT`, else a minute a family).
  let timeout: ItemTimeout
  /// Process IDs of every worker ever started, for sweeping their temporary files.
  public private(set) var pids: [Int32] = []

  public init(launch: Launch, size: Int) {
    self.launch = launch
    self.size = max(1, size)
    self.timeout = .current
  }

  /// Runs every item; calls `completed` for each in completion order (callers index results
  /// by item, so the outcome does not depend on timing). `interrupted` is polled a few times a
  /// second: when it returns true, workers are stopped and `run` returns false. A worker that
  /// dies of the signal `interrupted` records (sent to the whole process group) stops the run
  /// the same way, its item not reached; killed alone, it crashed, and its item failed.
  public func run(
    _ items: [WorkItem], completed: (Int, WorkResult) -> Void, tick: () -> Void = {},
    interrupted: () -> Bool = { false }
  ) throws -> Bool {
    signal(SIGPIPE, SIG_IGN)
    // Started with SIGCHLD ignored (`trap '' CHLD`), the kernel would reap workers itself and
    // how one died would be lost.
    signal(SIGCHLD, SIG_DFL)
    var queue = Array(items.indices).makeIterator()
    var undispatched = items.count
    var remaining = items.count
    let budget = max(1, launch.setup.itemsPerWorker)
    let pool = Processes(launch: launch.processLaunch)
    defer {
      pool.stop()
      pids += pool.pids
    }

    func dispatch(_ worker: Processes.Worker) {
      guard worker.task == nil, worker.served < budget, let next = queue.next() else { return }
      undispatched -= 1
      let bound = timeout.seconds(units: items[next].timeoutUnits)
      if !pool.send(items[next], for: next, to: worker, within: bound) {
        remaining -= 1
        completed(next, .failure("cannot encode work item"))
      }
    }
    for _ in 0..<min(size, items.count) { _ = try pool.start() }
    pool.workers.forEach(dispatch)

    while remaining > 0 {
      if interrupted() { return false }
      let ready = try pool.waitForAnswers(milliseconds: 200)
      tick()
      for (worker, seconds) in pool.overdue() where !ready.contains(where: { $0 === worker }) {
        // Its item failed; a fresh worker takes over while items are left.
        guard let index = worker.task else { continue }
        pool.kill(worker)
        remaining -= 1
        completed(index, .failure(items[index].timedOut(after: seconds)))
        if undispatched > 0 { dispatch(try pool.start()) }
      }
      for worker in ready {
        switch pool.read(worker) {
        case .interrupted:
          continue
        case .received:
          while let answered = pool.nextAnswer(from: worker) {
            remaining -= 1
            completed(answered.task, answered.answer)
            dispatch(worker)
          }
        case .ended:
          // The worker finished its budget, or died. A death costs only the item it was
          // drawing; either way a fresh worker takes over while items are left.
          let index = worker.task
          let reason = pool.end(worker)
          // A signal to the whole process group (`timeout`, a CI runner) kills the workers
          // too: their items are not reached, as when this process stops them itself.
          if index != nil && pool.diedOfInterruption(worker, interrupted: interrupted) {
            return false
          }
          if let index {
            remaining -= 1
            completed(
              index,
              .failure(
                "worker process \(reason) while \(items[index].activity) '\(items[index].subject)'"
              ))
          }
          if undispatched > 0 { dispatch(try pool.start()) }
        }
      }
    }
    return true
  }
}

extension WorkerPool.Launch {
  /// The launch as the process pool takes it: the set-up is each worker's first line.
  package var processLaunch: ProcessLaunch {
    ProcessLaunch(
      executable: executable, arguments: arguments, environment: environment, setup: setup)
  }
}

extension WorkItem {
  /// Why the item failed when its worker ran past `seconds`.
  package func timedOut(after seconds: Double) -> String {
    "timed out after \(ItemTimeout.describe(seconds)) \(activity) '\(subject)'"
  }
}

extension WorkResult: WorkerAnswer {
  package static var unreadable: WorkResult { .failure("worker sent an unreadable answer") }
}
