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
    // A parent may have started us with these blocked (some process launchers do): unblock
    // them, or an interruption would go unnoticed until the run ends.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  static var interrupted: Bool { received != 0 }

  static var exitCode: ExitCode { received == SIGTERM ? .terminated : .interrupted }
}
