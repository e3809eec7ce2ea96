import Foundation

/// One piece of work done on a thread of its own while the caller does something else, its
/// result taken when it is wanted: a run reads its previous manifest while fontconfig loads
/// its configuration and lists the installed fonts.
package final class Background<Value: Sendable>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  /// Written once by the thread before it signals `done`; read only after waiting on it.
  private var result: Value?
  private var taken = false

  package init(_ work: @escaping @Sendable () -> Value) {
    Thread { [self] in
      result = work()
      done.signal()
    }.start()
  }

  /// The work's result, once it is done; nil after the first call (the result was read at one
  /// moment, and a second reader should look again). Call from one thread.
  package func take() -> Value? {
    guard !taken else { return nil }
    taken = true
    done.wait()
    defer { result = nil }
    return result
  }
}
