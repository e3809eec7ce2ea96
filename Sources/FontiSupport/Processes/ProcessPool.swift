import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a worker answers a request with: a message whose line is the answer in JSON and whose
/// attachment is `attachment`.
package protocol WorkerAnswer: Codable {
  /// What stands for a line that cannot be decoded.
  static var unreadable: Self { get }
  /// Bytes sent after the answer's line rather than in it; not part of its JSON.
  var attachment: [UInt8]? { get set }
}

extension WorkerAnswer {
  /// The answer `message` carries (`unreadable` when its line cannot be decoded).
  package init(_ message: WorkerMessage, decoder: JSONDecoder) {
    self = (try? decoder.decode(Self.self, from: message.line)) ?? .unreadable
    if !message.attachment.isEmpty { attachment = message.attachment }
  }

  /// The answer as a message, to send.
  package func message(encoder: JSONEncoder) throws -> WorkerMessage {
    WorkerMessage(line: try encoder.encode(self), attachment: attachment ?? [])
  }
}

/// How a worker process is started, and what it is told first.
package struct ProcessLaunch {
  package var executable: String
  package var arguments: [String]
  /// Variables set for the worker on top of this process's environment.
  package var environment: [String: String]
  /// The worker's first line, before any request.
  package var setup: any Encodable

  package init(
    executable: String, arguments: [String], environment: [String: String],
    setup: any Encodable
  ) {
    self.executable = executable
    self.arguments = arguments
    self.environment = environment
    self.setup = setup
  }

  /// Set to `1` to let workers write to this process's stderr (their output is dropped
  /// otherwise).
  package static let stderrVariable = "FONTI_WORKER_STDERR"
}

/// Worker processes speaking the worker protocol: each is told its set-up, then sent one
/// request at a time, and answers each (`WorkerMessage`, `WorkerAnswer`). The one pool under
/// both a run (`WorkerPool`, which polls) and `serve` (`CardWorkers`, on GLib's loop): they
/// decide what goes to which worker and when to start and end one; this starts, feeds, reads
/// and ends the processes. `Task` is what a caller knows a request by.
package final class ProcessPool<Request: Encodable, Answer: WorkerAnswer, Task> {
  /// One worker process, the task it is working on and what it has said so far.
  package final class Worker {
    package let process: ChildProcess
    /// The task of the request it is answering; nil when idle.
    package fileprivate(set) var task: Task?
    /// Requests sent to it.
    package fileprivate(set) var served = 0
    /// It ends once its current request is answered: its owner sends it nothing more.
    package var retiring = false
    /// When its current request is overdue (`DispatchTime`'s nanoseconds), and the bound it
    /// was given in seconds; nil when idle or unbounded.
    fileprivate var deadline: (nanoseconds: UInt64, seconds: Double)?
    fileprivate var answers = MessageReader()
    /// It has exited with nothing left to read, while its pipe stays open (a process it
    /// started may still hold the write end).
    fileprivate var exited = false

    fileprivate init(process: ChildProcess) {
      self.process = process
    }
  }

  /// An answer and the task it answers.
  package struct Answered {
    package var task: Task
    package var answer: Answer
  }

  /// How workers started from now on are started.
  package var launch: ProcessLaunch
  /// The workers running, oldest first.
  package private(set) var workers: [Worker] = []
  /// Process IDs of every worker ever started, for sweeping their temporary files.
  package private(set) var pids: [Int32] = []
  private let encoder = JSONEncoder(.message)
  private let decoder = JSONDecoder()

  package init(launch: ProcessLaunch) {
    self.launch = launch
  }

  /// Starts a worker of `launch` and sends it its set-up.
  package func start() throws -> Worker {
    // A worker that crashes (a font that breaks FreeType or HarfBuzz) costs one item, reported
    // by the parent in one sanitised line. Its own last words — the Swift runtime's backtrace,
    // GLib warnings quoting untrusted family names — must not reach the user's terminal, and
    // the backtracer would only slow the restart. FONTI_WORKER_STDERR=1 keeps them, to debug.
    var environment = ProcessInfo.processInfo.environment
    environment.merge(launch.environment) { _, new in new }
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let setup = WorkerMessage(line: try encoder.encode(launch.setup))
    // With stderr closed, the worker's first file would become its fd 2 and catch its messages.
    let keepStderr =
      environment[ProcessLaunch.stderrVariable] == "1" && fcntl(2, F_GETFD) != -1
    let process = try ChildProcess(
      executable: launch.executable, arguments: launch.arguments, environment: environment,
      keepStderr: keepStderr)
    _ = process.send(setup)
    let worker = Worker(process: process)
    workers.append(worker)
    pids.append(process.pid)
    return worker
  }

  /// Sends `request` to an idle `worker`, which then works on `task`, for at most `seconds`
  /// (`overdue` names it after that). False when the request cannot be encoded: nothing is sent
  /// and the worker stays idle.
  package func send(
    _ request: Request, for task: Task, to worker: Worker, within seconds: Double? = nil
  ) -> Bool {
    guard let line = try? encoder.encode(request) else { return false }
    worker.task = task
    worker.served += 1
    worker.deadline = seconds.map {
      (DispatchTime.now().uptimeNanoseconds + UInt64(min($0, 1e9) * 1e9), $0)
    }
    // A dead worker: its end is noticed when its pipe is read, and its task reported then.
    _ = worker.process.send(WorkerMessage(line: line))
    return true
  }

  /// Waits up to `milliseconds` for workers' pipes: the workers with something to read (or
  /// whose end has come). None when a signal came first.
  package func waitForAnswers(milliseconds: Int32) throws(FileError) -> [Worker] {
    var fds = workers.map { pollfd(fd: $0.process.output, events: Int16(POLLIN), revents: 0) }
    guard poll(&fds, nfds_t(fds.count), milliseconds) >= 0 else {
      if errno == EINTR { return [] }
      throw FileError(path: "worker pipes", operation: "poll", code: errno)
    }
    return zip(workers, fds).compactMap { worker, fd in
      if fd.revents != 0 { return worker }
      // A worker that has exited is dead even when its pipe stays open: once nothing is left
      // to read, its end has come.
      guard !worker.process.isRunning, !Self.readable(worker.process.output) else { return nil }
      worker.exited = true
      return worker
    }
  }

  /// Whether `fd` has data (or end of file) to read now. After a process has exited, everything
  /// it wrote is already in the pipe, so this tells whether an answer is still waiting.
  private static func readable(_ fd: Int32) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, 0) > 0 && (p.revents & Int16(POLLIN)) != 0
  }

  /// Reads what `worker`'s pipe has (it must have something, or have ended: reading blocks);
  /// `nextAnswer` then gives the answers it completed.
  package func read(_ worker: Worker) -> MessageReader.Progress {
    worker.exited ? .ended : worker.answers.fill(from: worker.process.output)
  }

  /// The next answer `worker` has sent in full, which makes it idle. A line that answers no
  /// request is dropped.
  package func nextAnswer(from worker: Worker) -> Answered? {
    while let message = worker.answers.next() {
      guard let task = worker.task else { continue }
      worker.task = nil
      worker.deadline = nil
      return Answered(task: task, answer: Answer(message, decoder: decoder))
    }
    return nil
  }

  /// Busy workers whose request has run past its bound, with the bound in seconds.
  package func overdue() -> [(worker: Worker, seconds: Double)] {
    let now = DispatchTime.now().uptimeNanoseconds
    return workers.compactMap { worker in
      guard worker.task != nil, let deadline = worker.deadline, now >= deadline.nanoseconds
      else { return nil }
      return (worker, deadline.seconds)
    }
  }

  /// Kills an overdue `worker` (SIGKILL: a library spinning in a loop may never look at
  /// SIGTERM) and ends it. Its task, and the temporary files it leaves (`pids`), are the
  /// caller's to report and sweep.
  package func kill(_ worker: Worker) {
    worker.process.kill()
    end(worker)
  }

  /// Ends `worker` (its pipe has ended, or it is idle and to go): closes its input (a worker
  /// exits at end of file), waits for it, and says how it ended ("exited with status 0",
  /// "crashed (SIGSEGV)"). Its task, if any, is the caller's to report.
  @discardableResult
  package func end(_ worker: Worker) -> String {
    workers.removeAll { $0 === worker }
    worker.process.closeInput()
    defer { worker.process.closeOutput() }
    return worker.process.ending
  }

  /// Whether `worker`, once ended, died of the signal that interrupted this process (a signal
  /// to the whole process group, as `GroupSignal` tells): its task was not reached, not failed.
  /// `interrupted` is this process's own record of the interruption.
  package func diedOfInterruption(_ worker: Worker, interrupted: () -> Bool) -> Bool {
    guard let signal = worker.process.terminatingSignal else { return false }
    return GroupSignal.interrupted(bySame: signal, interrupted)
  }

  /// Ends every worker: closes their inputs and waits for them all; busy ones are terminated.
  package func stop() {
    for worker in workers {
      if worker.task != nil { worker.process.terminate() }
      worker.process.closeInput()
    }
    for worker in workers {
      worker.process.wait()
      worker.process.closeOutput()
    }
    workers.removeAll()
  }
}
