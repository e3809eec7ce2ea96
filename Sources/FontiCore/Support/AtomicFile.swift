import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes files the way every output of this tool is written: to a temporary name in the same
/// folder, then renamed into place, so a killed run never leaves a partial file under a final
/// name. Temporary names start with `.fonti-tmp-` so an interrupted run's leftovers can be
/// recognised and swept.
public enum AtomicFile {
  public static let temporaryPrefix = ".fonti-tmp-"

  /// Temporary files this process has open, removed by the signal handler on interruption.
  nonisolated(unsafe) static var pending = Set<String>()
  static let lock = NSLock()

  /// A fresh temporary path beside `path`.
  public static func temporaryPath(for path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let name = "\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))-"
      + url.lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent(name).path
  }

  /// Calls `write` with a temporary path, then renames it to `path`. On any error the
  /// temporary file is removed and `path` is untouched.
  public static func write(
    to path: String, _ write: (String) throws -> Void
  ) throws {
    let temporary = temporaryPath(for: path)
    track(temporary)
    defer { untrack(temporary) }
    do {
      try write(temporary)
      guard rename(temporary, path) == 0 else {
        throw FileError(path: path, operation: "rename into place", code: errno)
      }
    } catch {
      unlink(temporary)
      throw error
    }
  }

  /// Writes `data` atomically, fsynced.
  public static func write(_ data: Data, to path: String) throws {
    try write(to: path) { temporary in
      let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw FileError(path: path, operation: "create", code: errno) }
      defer { close(fd) }
      var offset = 0
      try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        while offset < buffer.count {
          let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
          if n < 0 {
            if errno == EINTR { continue }
            throw FileError(path: path, operation: "write", code: errno)
          }
          offset += n
        }
      }
      guard fsync(fd) == 0 else { throw FileError(path: path, operation: "write", code: errno) }
    }
  }

  static func track(_ path: String) {
    lock.lock()
    pending.insert(path)
    lock.unlock()
  }

  static func untrack(_ path: String) {
    lock.lock()
    pending.remove(path)
    lock.unlock()
  }

  /// Removes every temporary file this process has in flight. Called on SIGINT/SIGTERM.
  public static func removePending() {
    lock.lock()
    let paths = pending
    lock.unlock()
    for p in paths { unlink(p) }
  }
}

/// A file system error with the path and the system's reason.
public struct FileError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var operation: String
  public var code: Int32

  public init(path: String, operation: String, code: Int32) {
    self.path = path
    self.operation = operation
    self.code = code
  }

  public var description: String {
    "cannot \(operation) '\(path)': \(String(cString: strerror(code)))"
  }
}
