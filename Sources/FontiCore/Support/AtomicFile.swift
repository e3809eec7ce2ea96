import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// User files read whole and replaced whole: a new version is written to a hidden temporary file
/// in the destination's folder, flushed to disk, then renamed over (or linked into) the final
/// name, so that a crash, a kill or a full disk leaves the old file or the new one, never a mix.
///
/// Errors are `Diagnostic`s that name the file and say what the system said.
public enum AtomicFile {
  public static let temporaryPrefix = ".fonti-tmp-"

  /// A fresh temporary path beside `path`: `.fonti-tmp-PID-RANDOM-NAME`, hidden, and named by
  /// process so that an interrupted run can sweep what its workers left.
  public static func temporaryPath(for path: String) -> String {
    let url = URL(fileURLWithPath: path)
    let name = "\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))-"
      + url.lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent(name).path
  }

  /// The process and final name of a temporary file's name (`temporaryPath`, whose random
  /// part is decimal, or `createTemporary`, base 36), or nil when `name` is not one.
  public static func temporaryParts(_ name: String) -> (pid: Int32, name: String)? {
    guard name.hasPrefix(temporaryPrefix) else { return nil }
    let parts = name.dropFirst(temporaryPrefix.count).split(
      separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let pid = Int32(parts[0]), pid > 0, UInt64(parts[1], radix: 36) != nil,
      !parts[2].isEmpty
    else { return nil }
    return (pid, String(parts[2]))
  }

  /// Calls `write` with a temporary path, then renames it to `path`. On any error the
  /// temporary file is removed and `path` is untouched.
  public static func write(
    to path: String, _ write: (String) throws -> Void
  ) throws {
    let temporary = try stage(for: path, write)
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw FileError(path: path, operation: "rename into place", code: code)
    }
  }

  /// Calls `write` with a temporary path beside `path` and returns it, for the caller to put in
  /// place. On any error the temporary file is removed.
  public static func stage(for path: String, _ write: (String) throws -> Void) throws -> String {
    let temporary = temporaryPath(for: path)
    do {
      try write(temporary)
    } catch {
      unlink(temporary)
      throw error
    }
    return temporary
  }

  /// Reads a regular file whole. Returns nil when nothing exists at `path`; throws when it
  /// exists but cannot be read, is not a regular file (a folder, a FIFO) or exceeds `limit`.
  public static func read(_ path: String, limit: Int) throws(Diagnostic) -> Data? {
    // O_NONBLOCK so that a FIFO under the name cannot hang the process; fstat then refuses it.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      throw .error("cannot be read: \(describe(code))", file: path)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw .error("cannot be read: \(describe(errno))", file: path)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw .error("is a folder, not a file", file: path)
    default: throw .error("is not a regular file", file: path)
    }
    if Int(info.st_size) > limit {
      throw .error("is too large (\(info.st_size) bytes; the limit is \(limit))", file: path)
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .error("cannot be read: \(describe(errno))", file: path)
      }
      if n == 0 { break }
      data.append(contentsOf: buffer[0..<n])
      if data.count > limit {
        throw .error("is too large (more than \(limit) bytes)", file: path)
      }
    }
    return data
  }

  /// Replaces (or creates) `path` with `data`, atomically. An existing file keeps its
  /// permissions; a new one gets `mode` less the umask. A symbolic link at `path` is followed,
  /// so the file it points to is replaced and the link stays a link.
  public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws(Diagnostic) {
    let target = resolvingLink(path)
    var existing = stat()
    let keepMode = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : nil
    let (fd, temporary) = try createTemporary(beside: target, mode: keepMode ?? mode)
    var closed = false
    do throws(Diagnostic) {
      try writeAll(fd, data, path: temporary)
      // open() applies the umask, which would narrow an existing file's mode: set it exactly.
      if let keepMode { _ = fchmod(fd, keepMode) }
      try sync(fd, path: temporary)
      closed = true
      if close(fd) != 0 { throw .error("cannot be written: \(describe(errno))", file: target) }
      guard rename(temporary, target) == 0 else {
        throw .error("cannot be replaced: \(describe(errno))", file: target)
      }
    } catch {
      if !closed { close(fd) }
      unlink(temporary)
      throw error
    }
    syncFolder(of: target)
  }

  /// Creates a hidden temporary file in the folder of `path` (`.fonti-tmp-PID-RANDOM-NAME`, a
  /// name no font scan or job picks up, and that an interrupted run can sweep by PID), open for
  /// writing. The caller renames or removes it.
  public static func createTemporary(beside path: String, mode: mode_t = 0o644) throws(Diagnostic)
    -> (fd: Int32, path: String)
  {
    let folder = folder(of: path)
    let name = (path as NSString).lastPathComponent
    for _ in 0..<100 {
      let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      let candidate = folder + "/" + temporaryPrefix + "\(getpid())-" + random + "-" + name
      let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      if fd >= 0 { return (fd, candidate) }
      if errno != EEXIST {
        throw .error("cannot write in folder '\(folder)': \(describe(errno))", file: path)
      }
    }
    throw .error("cannot find a free temporary name in folder '\(folder)'", file: path)
  }

  /// Writes every byte, retrying short writes and interruptions.
  static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(Diagnostic) {
    var offset = 0
    let result: Diagnostic? = data.withUnsafeBytes { raw -> Diagnostic? in
      guard let base = raw.baseAddress else { return nil }
      while offset < raw.count {
        let n = Glibc.write(fd, base + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return .error("cannot be written: \(describe(errno))", file: path)
        }
        offset += n
      }
      return nil
    }
    if let result { throw result }
  }

  /// fsync: the bytes are on disk before the rename makes them visible.
  static func sync(_ fd: Int32, path: String) throws(Diagnostic) {
    let code = syncError(fd)
    if code != 0 { throw .error("cannot be written: \(describe(code))", file: path) }
  }

  /// fsync, retried when interrupted: 0, or the error. Special files and read-only mounts,
  /// which cannot be synced, count as synced.
  static func syncError(_ fd: Int32) -> Int32 {
    while fsync(fd) != 0 {
      if errno == EINTR { continue }
      return errno == EINVAL || errno == EROFS ? 0 : errno
    }
    return 0
  }

  /// fsync of the folder, so the rename itself survives a power cut. Best effort.
  static func syncFolder(of path: String) {
    let fd = open(folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  /// Creates `folder` and its parents when missing.
  public static func createFolder(_ folder: String) throws(Diagnostic) {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
        isFolder.boolValue
      {
        return  // created meanwhile by another process
      }
      throw .error("cannot create folder '\(folder)'")
    }
  }

  /// The folder a path is in ("." for a bare name).
  public static func folder(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  /// `path`, or the file a symbolic link at `path` finally points to.
  static func resolvingLink(_ path: String) -> String {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
      let resolved = realpath(path, nil)
    else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The system's words for an errno value.
  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// An exclusive advisory lock (`flock`) on a lock file, held for the length of a closure, so that
/// read-modify-write cycles of several processes happen one after the other. The lock file is
/// never deleted (deleting it would let two processes lock two different files).
public enum FileLock {
  /// How to wait while another process holds the lock: say so after a moment, and give up
  /// (changing nothing) when the user interrupts.
  public struct Waiting: Sendable {
    /// Told once, when the lock has been busy for `noticeAfter` seconds.
    public var notice: @Sendable (String) -> Void
    /// Asked while waiting (and once before `body` runs): true ends the wait with an error.
    public var interrupted: @Sendable () -> Bool
    public var noticeAfter: Double

    public init(
      noticeAfter: Double = 1, notice: @escaping @Sendable (String) -> Void,
      interrupted: @escaping @Sendable () -> Bool
    ) {
      self.noticeAfter = noticeAfter
      self.notice = notice
      self.interrupted = interrupted
    }
  }

  /// How often a waiting process tries the lock again, in milliseconds.
  static let retryInterval = 20

  /// Runs `body` while holding an exclusive lock on `path` (created when missing); the kernel
  /// releases it if the process dies. Without `waiting`, blocks until the lock is free. With
  /// it, tries again every few milliseconds: after `noticeAfter` seconds `notice` hears
  /// "waiting for …" (`holder` says what the other process is doing), and once `interrupted`
  /// says so the wait ends with an error and `body` never runs.
  public static func withExclusiveLock<T>(
    _ path: String, waiting: Waiting? = nil, holder: @autoclosure () -> String = "",
    _ body: () throws(Diagnostic) -> T
  ) throws(Diagnostic) -> T {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .error("cannot create the lock file: \(AtomicFile.describe(errno))", file: path)
    }
    defer { close(fd) }  // closing the descriptor releases the lock
    let interruption = Diagnostic.error(
      "interrupted while waiting for the lock on '\(path)'; nothing was changed")
    if let waiting {
      let start = monotonicSeconds()
      var told = false
      while flock(fd, LOCK_EX | LOCK_NB) != 0 {
        let code = errno
        if code == EINTR { continue }
        guard code == EWOULDBLOCK else {
          throw .error("cannot be locked: \(AtomicFile.describe(code))", file: path)
        }
        if waiting.interrupted() { throw interruption }
        if !told && monotonicSeconds() - start >= waiting.noticeAfter {
          told = true
          let what = holder()
          waiting.notice(
            "waiting for the lock on '\(path)': "
              + (what.isEmpty ? "another process holds it" : what) + " (Ctrl-C to stop)")
        }
        // A signal cuts the pause short (EINTR), and the next turn sees it.
        var pause = timespec(tv_sec: 0, tv_nsec: retryInterval * 1_000_000)
        _ = nanosleep(&pause, nil)
      }
      // Interrupted before or while the lock came free: leave without changing anything.
      if waiting.interrupted() { throw interruption }
    } else {
      while flock(fd, LOCK_EX) != 0 {
        if errno == EINTR { continue }
        throw .error("cannot be locked: \(AtomicFile.describe(errno))", file: path)
      }
    }
    return try body()
  }

  /// Seconds on the monotonic clock, for measuring a wait.
  static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
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
