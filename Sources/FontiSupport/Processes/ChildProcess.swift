import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started by `posix_spawn`, talking over two pipes (its stdin and stdout), and
/// waited for with `waitpid`. Foundation's `Process` notices an exit by polling every 50 ms,
/// which left a core idle that long each time a worker was replaced.
package final class ChildProcess {
  package let pid: pid_t
  /// The write end of the child's stdin; -1 once closed.
  private(set) var input: Int32
  /// The read end of the child's stdout; -1 once closed.
  package private(set) var output: Int32
  /// The wait status, once reaped.
  private var status: Int32?

  /// Starts `executable` with `arguments` and exactly `environment`. stderr is inherited when
  /// `keepStderr`, else /dev/null. Signal dispositions and the signal mask are reset to the
  /// defaults, whatever this process set for itself.
  package init(
    executable: String, arguments: [String], environment: [String: String], keepStderr: Bool
  ) throws(FileError) {
    let stdin = try ChildProcess.pipe(executable)
    let stdout: (read: Int32, write: Int32)
    do { stdout = try ChildProcess.pipe(executable) } catch {
      close(stdin.read)
      close(stdin.write)
      throw error
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // The pipes are close-on-exec; dup2 gives the child copies without that flag.
    posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
    if !keepStderr {
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    // Nothing else this process holds open (descriptors it inherited without close-on-exec,
    // such as a pipe of the shell that started it) reaches the child.
    if let closeFrom = ChildProcess.addCloseFrom { _ = closeFrom(&actions, 3) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var all = sigset_t()
    sigfillset(&all)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp =
      environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    close(stdin.read)
    close(stdout.write)
    guard code == 0 else {
      close(stdin.write)
      close(stdout.read)
      throw FileError(path: executable, operation: "start worker process", code: code)
    }
    self.pid = pid
    self.input = stdin.write
    self.output = stdout.read
  }

  deinit {
    closeInput()
    closeOutput()
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
  /// module hides behind _GNU_SOURCE; looked up at run time, nil on an older C library.
  private typealias AddCloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  private static let addCloseFrom: AddCloseFrom? = {
    let name = "posix_spawn_file_actions_addclosefrom_np"
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()

  /// A close-on-exec pipe whose ends are above the standard descriptors, so that dup2 onto 0
  /// or 1 in the child always makes a copy (a parent started with stdin closed would otherwise
  /// get 0 from pipe and the child would lose it at exec).
  private static func pipe(_ executable: String) throws(FileError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard Glibc.pipe(&fds) == 0 else {
      throw FileError(path: executable, operation: "make a pipe for", code: errno)
    }
    // This process starts children from one thread only, so no other fork sees the pipe
    // before it is marked close-on-exec.
    for i in 0..<2 {
      if fds[i] < 3 {
        let moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3)
        let code = errno
        close(fds[i])
        fds[i] = moved
        if moved < 0 {
          if fds[1 - i] >= 0 { close(fds[1 - i]) }
          throw FileError(path: executable, operation: "make a pipe for", code: code)
        }
      } else {
        _ = fcntl(fds[i], F_SETFD, FD_CLOEXEC)
      }
    }
    return (fds[0], fds[1])
  }

  /// Writes `message` to the child's stdin; false when the child has gone.
  package func send(_ message: WorkerMessage) -> Bool {
    input >= 0 && message.write(to: input) == 0
  }

  /// Closes the child's stdin: a worker exits when it reads end of file.
  package func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  package func closeOutput() {
    if output >= 0 { close(output) }
    output = -1
  }

  package var isRunning: Bool { reap(blocking: false) == nil }

  /// Waits for the child to exit (it must be ending: its stdin closed, or killed).
  @discardableResult
  package func wait() -> Int32 { reap(blocking: true) ?? 0 }

  package func terminate() {
    if status == nil { Glibc.kill(pid, SIGTERM) }
  }

  /// Kills the child at once (SIGKILL).
  package func kill() {
    if status == nil { Glibc.kill(pid, SIGKILL) }
  }

  private func reap(blocking: Bool) -> Int32? {
    if let status { return status }
    var raw: Int32 = 0
    while true {
      let r = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
      if r == pid {
        status = raw
        return raw
      }
      if r == 0 { return nil }
      if errno == EINTR { continue }
      status = -1  // ECHILD: reaped elsewhere; how it ended is unknown
      return -1
    }
  }

  /// The signal that ended the child (waiting for it), or nil when it exited or how it ended
  /// is unknown.
  package var terminatingSignal: Int32? {
    let raw = wait()
    let signal = raw & 0x7f
    return raw == -1 || signal == 0 ? nil : signal
  }

  /// How the child ended, in words ("crashed (SIGSEGV)", "exited with status 2").
  package var ending: String {
    let raw = wait()
    if raw == -1 { return "ended (how is unknown)" }
    guard let signal = terminatingSignal else { return "exited with status \((raw >> 8) & 0xff)" }
    let names = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL", SIGBUS: "SIGBUS"]
    return "crashed (\(names[signal] ?? "signal \(signal)"))"
  }
}
