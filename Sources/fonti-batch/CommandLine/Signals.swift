import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM during a run: recorded, not acted on at once, so the run can stop its
/// workers, sweep temporary files and write an honest manifest before exiting 130 / 143.
enum Signals {
  /// The signal received, or 0. Written only by the handler (an async-signal-safe store).
  nonisolated(unsafe) static var received: sig_atomic_t = 0

  static func install() {
    let handler: @convention(c) (Int32) -> Void = { signal in
      Signals.received = signal
    }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
    unblock()
  }

  /// A parent may start us with SIGINT and SIGTERM blocked (Foundation's `Process` passes on
  /// the mask of the thread that launches it): unblock them, or Ctrl-C and `kill` would go
  /// unnoticed while a command waits (for a FIFO's writer, a lock) or until a run ends.
  static func unblock() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGHUP)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  static var interrupted: Bool { received != 0 }

  /// How a command waits for a lock another process holds: it says so on stderr after a
  /// second, and SIGINT or SIGTERM (once `install`ed) end the wait with nothing changed.
  static func lockWaiting(_ console: Console) -> FileLock.Waiting {
    FileLock.Waiting(notice: { console.notice($0) }, interrupted: { Signals.interrupted })
  }

  static var exitCode: ExitCode { received == SIGTERM ? .terminated : .interrupted }
}
