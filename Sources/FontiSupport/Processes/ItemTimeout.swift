import Foundation

/// How long a worker may spend on one item before it is killed and the item failed: a bound
/// proportional to the item's work, so that a font that makes a library spin (a damaged colour
/// bitmap that keeps pixman busy for minutes) costs its item, not the run.
package struct ItemTimeout: Sendable, Equatable {
  /// Seconds allowed for one unit of work (a family's drawing).
  package var secondsPerUnit: Double

  package init(secondsPerUnit: Double) {
    self.secondsPerUnit = secondsPerUnit
  }

  /// The bound when nothing else is said: a minute a family.
  package static let defaultSecondsPerUnit = 60.0

  /// Environment variable giving the seconds allowed a unit of work (a positive number),
  /// instead of the default; tests shorten it.
  package static let variable = "FONTI_ITEM_TIMEOUT"

  /// The bound this process's environment sets: `variable` when it holds a positive number of
  /// seconds (at most a day), else the default.
  package static var current: ItemTimeout {
    let text = ProcessInfo.processInfo.environment[variable] ?? ""
    guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
      return ItemTimeout(secondsPerUnit: defaultSecondsPerUnit)
    }
    return ItemTimeout(secondsPerUnit: seconds)
  }

  /// Environment variable naming a family whose specimen hangs (sleeps until killed) in a
  /// worker or in `render`, so tests can prove that the bound fails it and the rest goes on.
  /// Never set in normal use.
  package static let hangHook = "FONTI_WORKER_HANG_ON"

  /// Seconds allowed for an item worth `units` of work (at least one unit).
  package func seconds(units: Double) -> Double {
    secondsPerUnit * max(1, units.isFinite ? units : 1)
  }

  /// A bound in words: "60 s", "2.5 s".
  package static func describe(_ seconds: Double) -> String {
    seconds == seconds.rounded() && seconds < 1e9
      ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
  }
}

extension ItemTimeout {
  /// Runs `body`; if it is still running after `seconds`, calls `expired` from a thread of its
  /// own. For a drawing done in this process (`render`), where there is no worker to kill:
  /// `expired` ends the process (a library spinning in a loop cannot be stopped otherwise).
  package static func guarding<T>(
    seconds: Double, expired: @escaping @Sendable () -> Void, _ body: () throws -> T
  ) rethrows -> T {
    let finished = DispatchSemaphore(value: 0)
    let watcher = Thread {
      if finished.wait(timeout: .now() + seconds) == .timedOut { expired() }
    }
    watcher.start()
    defer { finished.signal() }
    return try body()
  }
}
