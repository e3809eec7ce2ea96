import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Tells a worker killed by this process's own interruption from a worker that crashed.
///
/// `timeout`, a CI runner or Ctrl-C signal the whole process group: the workers die of the
/// signal while this process, which catches it, records it and stops in order. A worker's death
/// can be noticed before the handler has run — the signal may be pending still, or taken by
/// another thread that has not yet stored it. The kernel marks the signal pending in every
/// process of the group before any of them can be reaped, so by the time a worker's death by
/// the signal is known, this process has the signal pending, being handled or handled.
package enum GroupSignal {
  /// How long a handler that another thread has begun is waited for, in seconds: only a
  /// worker killed alone by a signal this process catches waits this long before it counts
  /// as a crash.
  package static let patience = 2.0

  /// Whether a child that died of `signal` died of this process's interruption: `signal` is
  /// one this process catches, and `interrupted` says so — at once, once a pending `signal`
  /// is delivered here, or within `patience` seconds.
  package static func interrupted(
    bySame signal: Int32, _ interrupted: () -> Bool, patience: Double = GroupSignal.patience
  ) -> Bool {
    guard catches(signal) else { return false }
    if interrupted() { return true }
    deliverPending(signal)
    let deadline = Date().addingTimeInterval(patience)
    while !interrupted() {
      guard Date() < deadline else { return false }
      usleep(2_000)
    }
    return true
  }

  /// Whether this process has a handler for `signal` (neither the default nor ignoring it).
  static func catches(_ signal: Int32) -> Bool {
    var action = sigaction()
    guard sigaction(signal, nil, &action) == 0 else { return false }
    let handler = unsafeBitCast(action.__sigaction_handler, to: Int.self)
    return handler != 0 && handler != 1  // SIG_DFL, SIG_IGN
  }

  /// Runs this process's handler for `signal` on this thread now if the signal is pending for
  /// the process and no thread has taken it yet: unblocking a pending signal delivers it
  /// before `pthread_sigmask` returns.
  private static func deliverPending(_ signal: Int32) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &set, &previous)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    if sigismember(&previous, signal) == 1 { pthread_sigmask(SIG_BLOCK, &set, nil) }
  }
}
