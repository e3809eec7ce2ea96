import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The parent side of a run: N worker processes started once, fed items from a queue, one at
/// a time each. A worker that dies (a font that crashes FreeType or HarfBuzz, an OOM kill) costs
/// only its current item, which is reported as failed; a fresh worker takes its place.
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

  final class Slot {
    let process: ChildProcess
    var output: Int32 { process.output }
    var buffer: [UInt8] = []
    var current: Int?
    /// Items sent to this worker; at the setup's budget it exits and a fresh one takes over.
    var served = 0
    /// Exited and not replaced (nothing left to give it): no longer polled.
    var finished = false

    init(process: ChildProcess) {
      self.process = process
    }
  }

  /// Set to `1` to let workers write to the run's stderr (their output is dropped otherwise).
  public static let stderrVariable = "FONTI_WORKER_STDERR"

  let launch: Launch
  let size: Int
  private var slots: [Slot] = []
  /// Process IDs of every worker ever started, for sweeping their temporary files.
  public private(set) var pids: [Int32] = []

  public init(launch: Launch, size: Int) {
    self.launch = launch
    self.size = max(1, size)
  }

  /// Runs every item; calls `completed` for each in completion order (callers index results
  /// by item, so the outcome does not depend on timing). `interrupted` is polled a few times a
  /// second: when it returns true, workers are stopped and `run` returns false.
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
    let encoder = JSONEncoder(.message)
    let decoder = JSONDecoder()
    defer { stopAll() }
    for _ in 0..<min(size, items.count) { slots.append(try spawn()) }

    func dispatch(_ slot: Slot) {
      guard slot.current == nil, slot.served < budget, let next = queue.next() else { return }
      undispatched -= 1
      slot.served += 1
      slot.current = next
      guard let line = try? encoder.encodeDocument(items[next]) else {
        slot.current = nil
        remaining -= 1
        completed(next, .failure("cannot encode work item"))
        return
      }
      // A dead worker: its EOF is noticed by the read side, which reports the item.
      _ = slot.process.send(line)
    }
    for slot in slots { dispatch(slot) }

    while remaining > 0 {
      if interrupted() { return false }
      var fds = slots.map {
        pollfd(fd: $0.finished ? -1 : $0.output, events: Int16(POLLIN), revents: 0)
      }
      let ready = poll(&fds, nfds_t(fds.count), 200)
      tick()
      if ready < 0 {
        if errno == EINTR { continue }
        throw FileError(path: "worker pipes", operation: "poll", code: errno)
      }
      for (i, fd) in fds.enumerated() {
        let slot = slots[i]
        if slot.finished { continue }
        // A worker that has exited is dead even when its pipe stays open (a helper process it
        // started may still hold the write end): once nothing is left to read, reap it.
        let exited = fd.revents == 0 && !slot.process.isRunning && !WorkerPool.readable(slot.output)
        if fd.revents == 0 && !exited { continue }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n =
          exited ? 0 : chunk.withUnsafeMutableBytes { read(slot.output, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n > 0 {
          slot.buffer.append(contentsOf: chunk[..<n])
          while let nl = slot.buffer.firstIndex(of: 0x0A) {
            let line = Data(slot.buffer[..<nl])
            slot.buffer.removeSubrange(...nl)
            guard let index = slot.current else { continue }
            slot.current = nil
            remaining -= 1
            let result =
              (try? decoder.decode(WorkResult.self, from: line))
              ?? .failure("worker sent an unreadable answer")
            completed(index, result)
            dispatch(slot)
          }
          continue
        }
        // End of file: the worker finished its budget, or died. A death costs only the item it
        // was drawing; either way a fresh worker takes over while items are left.
        let reason = reap(slot)
        if let index = slot.current {
          remaining -= 1
          completed(
            index,
            .failure(
              "worker process \(reason) while \(items[index].activity) '\(items[index].subject)'"
            ))
        }
        slot.finished = true
        if undispatched > 0 {
          let replacement = try spawn()
          slots[i] = replacement
          dispatch(replacement)
        }
      }
    }
    return true
  }

  /// Whether `fd` has data (or end of file) to read now. After a process has exited, everything
  /// it wrote is already in the pipe, so this tells whether an answer is still waiting.
  static func readable(_ fd: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, 0) > 0 && (p.revents & Int16(POLLIN)) != 0
  }

  func spawn() throws -> Slot {
    let process = try WorkerPool.start(launch)
    pids.append(process.pid)
    return Slot(process: process)
  }

  /// Starts one worker of `launch` and sends it its set-up.
  package static func start(_ launch: Launch) throws -> ChildProcess {
    // A worker that crashes (a font that breaks FreeType or HarfBuzz) costs one family, reported
    // by the parent in one sanitised line. Its own last words — the Swift runtime's backtrace,
    // GLib warnings quoting untrusted family names — must not reach the user's terminal, and
    // the backtracer would only slow the restart. FONTI_WORKER_STDERR=1 keeps them, to debug.
    var environment = ProcessInfo.processInfo.environment
    environment.merge(launch.environment) { _, new in new }
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let setup = try JSONEncoder(.message).encodeDocument(launch.setup)
    // With stderr closed, the worker's first file would become its fd 2 and catch its messages.
    let keepStderr = environment[Self.stderrVariable] == "1" && fcntl(2, F_GETFD) != -1
    let process = try ChildProcess(
      executable: launch.executable, arguments: launch.arguments, environment: environment,
      keepStderr: keepStderr)
    _ = process.send(setup)
    return process
  }

  /// Waits for a dead worker and says how it died.
  func reap(_ slot: Slot) -> String {
    slot.process.closeInput()
    defer { slot.process.closeOutput() }
    return slot.process.ending
  }

  /// Closes every worker's input (they exit at end of file) and waits; workers still busy are
  /// terminated.
  func stopAll() {
    for slot in slots where !slot.finished {
      if slot.current != nil { slot.process.terminate() }
      slot.process.closeInput()
    }
    for slot in slots where !slot.finished {
      slot.process.wait()
      slot.process.closeOutput()
    }
    slots.removeAll()
  }
}
