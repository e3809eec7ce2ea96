internal import CGio
import Foundation

/// GLib's default main loop, which libsoup's server, GIO's file monitors, the workers' pipes
/// and `serve`'s timers all run on: one thread, so what they share needs no lock. `post` is the
/// one way in from another thread.
enum MainLoop {
  /// A closure kept alive for GLib until its source is removed.
  private final class Box {
    let body: () -> Bool
    init(_ body: @escaping () -> Bool) { self.body = body }
  }

  private static let call: GSourceFunc = { data in
    guard let data else { return 0 }
    return Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().body() ? 1 : 0
  }
  private static let release: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<Box>.fromOpaque(data).release()
  }

  private static func retained(_ body: @escaping () -> Bool) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(Box(body)).toOpaque()
  }

  nonisolated(unsafe) private static var loop: OpaquePointer?

  /// Runs until `quit`.
  static func run() {
    let loop = g_main_loop_new(nil, 0)
    self.loop = loop
    g_main_loop_run(loop)
    self.loop = nil
    g_main_loop_unref(loop)
  }

  static func quit() {
    if let loop { g_main_loop_quit(loop) }
  }

  /// Runs `body` on the loop's thread, soon.
  static func post(_ body: @escaping @Sendable () -> Void) {
    g_idle_add_full(
      G_PRIORITY_DEFAULT, call,
      retained {
        body()
        return false
      }, release)
  }

  /// Runs `body` after `milliseconds`, and again each time it returns true.
  @discardableResult
  static func after(_ milliseconds: Int, _ body: @escaping () -> Bool) -> UInt32 {
    g_timeout_add_full(G_PRIORITY_DEFAULT, guint(milliseconds), call, retained(body), release)
  }

  /// Calls `body` whenever `fd` is readable (or closed); it returns false to stop watching.
  @discardableResult
  static func watch(_ fd: Int32, _ body: @escaping () -> Bool) -> UInt32 {
    let unix: GUnixFDSourceFunc = { _, _, data in
      guard let data else { return 0 }
      return Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().body() ? 1 : 0
    }
    let conditions = GIOCondition(
      rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
    return g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, conditions, unix, retained(body), release)
  }

  /// Calls `body` on the loop's thread when the process receives `signal` (SIGINT, SIGTERM,
  /// SIGHUP).
  static func onSignal(_ signal: Int32, _ body: @escaping () -> Void) {
    g_unix_signal_add_full(
      G_PRIORITY_HIGH, signal, call,
      retained {
        body()
        return true
      }, release)
  }

  static func remove(_ source: UInt32) {
    if source != 0 { g_source_remove(source) }
  }

  /// Traps unless called on the loop's thread. `serve` sets the loop up and runs it on the
  /// process's main thread (`LiveServer.run`), so what is confined to the loop checks for it.
  static func assertOnLoop() {
    dispatchPrecondition(condition: .onQueue(.main))
  }
}

/// GIO's monitors (inotify) on folders: `changed` hears the path of each file created,
/// changed, moved or deleted in them. Folders, not files: editors and font builders often
/// write a new file and rename it over the old one, which a monitor on the file would lose.
final class FolderMonitors: @unchecked Sendable {
  private var monitors: [String: UnsafeMutablePointer<GFileMonitor>] = [:]
  private let changed: (String) -> Void

  init(changed: @escaping (String) -> Void) {
    self.changed = changed
  }

  deinit {
    for monitor in monitors.values { stop(monitor) }
  }

  private func stop(_ monitor: UnsafeMutablePointer<GFileMonitor>) {
    g_file_monitor_cancel(monitor)
    g_signal_handlers_disconnect_matched(
      UnsafeMutableRawPointer(monitor), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
      Unmanaged.passUnretained(self).toOpaque())
    g_object_unref(UnsafeMutableRawPointer(monitor))
  }

  /// Watches exactly `folders` (existing ones); stops watching the others.
  func watch(_ folders: Set<String>) {
    for (folder, monitor) in monitors where !folders.contains(folder) {
      stop(monitor)
      monitors[folder] = nil
    }
    for folder in folders where monitors[folder] == nil {
      let file = g_file_new_for_path(folder)
      defer { g_object_unref(UnsafeMutableRawPointer(file)) }
      guard
        let monitor = g_file_monitor_directory(
          file, G_FILE_MONITOR_WATCH_MOVES, nil, nil)
      else { continue }
      g_file_monitor_set_rate_limit(monitor, 50)
      _ = CGio_on_changed(
        monitor,
        { _, file, other, _, data in
          guard let data else { return }
          let me = Unmanaged<FolderMonitors>.fromOpaque(data).takeUnretainedValue()
          for f in [file, other] {
            guard let f, let path = g_file_get_path(f) else { continue }
            me.changed(String(cString: path))
            g_free(path)
          }
        }, Unmanaged.passUnretained(self).toOpaque())
      monitors[folder] = monitor
    }
  }

  var count: Int { monitors.count }
}
