import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive advisory lock (`flock`) on a lock file, held while this object lives: the one
/// lock type of the tool (an output folder's, the favourites manifest's, the font library's).
/// The kernel releases it if the process dies. The lock file is never deleted (deleting it
/// would let two processes lock two different files).
public final class FileLock {
  /// How to wait while another process holds the lock: say so after a moment, and give up
  /// (changing nothing) when the user interrupts.
  public struct Waiting: Sendable {
    /// Told once, when the lock has been busy for `noticeAfter` seconds.
    public var notice: @Sendable (String) -> Void
    /// Asked while waiting (and once the lock is taken): true ends the wait with an error.
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

  private let fd: Int32
  /// The lock file.
  public let path: String

  private init(fd: Int32, path: String) {
    self.fd = fd
    self.path = path
  }

  /// Closing the descriptor releases the lock.
  deinit { close(fd) }

  /// Opens (creating when missing) the lock file: its descriptor, or the system's error.
  /// Inside an output folder (`OutputFolder`) a link under the lock file's name is not
  /// followed: ELOOP.
  private static func open(_ path: String) -> Result<Int32, FileError> {
    let system: String
    do { system = try OutputFolder.systemPath(path) } catch { return .failure(error) }
    let noFollow = system == path ? 0 : O_NOFOLLOW
    let fd = Glibc.open(system, O_RDWR | O_CREAT | O_CLOEXEC | noFollow, 0o644)
    return fd >= 0 ? .success(fd) : .failure(FileError(path: path, operation: "open", code: errno))
  }

  /// Why the lock file at `path` could not be opened, for an error message.
  package static func openFailure(_ code: Int32) -> String {
    code == ELOOP
      ? "it is a symbolic link, and fonti-batch never writes through a link inside its output "
        + "folder"
      : FileSystem.describe(code)
  }

  /// Takes the lock on `path` without waiting: nil when another process holds it, or the
  /// system's error when the lock file cannot be opened or locked.
  package static func attempt(_ path: String) -> Result<FileLock?, FileError> {
    let fd: Int32
    switch open(path) {
    case .success(let opened): fd = opened
    case .failure(let error): return .failure(error)
    }
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      close(fd)
      return code == EWOULDBLOCK
        ? .success(nil) : .failure(FileError(path: path, operation: "lock", code: code))
    }
    return .success(FileLock(fd: fd, path: path))
  }

  /// Takes the lock on `path` (created when missing), waiting while another process holds it.
  /// Without `waiting`, blocks until the lock is free. With it, tries again every few
  /// milliseconds: after `noticeAfter` seconds `notice` hears "waiting for …" (`holder` says
  /// what the other process is doing), and once `interrupted` says so the wait ends with an
  /// error, the lock not taken.
  public init(
    _ path: String, waiting: Waiting? = nil, holder: @autoclosure () -> String = ""
  ) throws(Diagnostic) {
    let fd: Int32
    switch FileLock.open(path) {
    case .success(let opened): fd = opened
    case .failure(let error):
      throw .error(
        "cannot create the lock file: \(FileLock.openFailure(error.code))", file: path,
        hint: error.code == ELOOP ? "remove the link" : nil)
    }
    let interruption = Diagnostic.error(
      "interrupted while waiting for the lock on '\(path)'; nothing was changed")
    do throws(Diagnostic) {
      if let waiting {
        let start = FileLock.monotonicSeconds()
        var told = false
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
          let code = errno
          if code == EINTR { continue }
          guard code == EWOULDBLOCK else {
            throw .error("cannot be locked: \(FileSystem.describe(code))", file: path)
          }
          if waiting.interrupted() { throw interruption }
          if !told && FileLock.monotonicSeconds() - start >= waiting.noticeAfter {
            told = true
            let what = holder()
            waiting.notice(
              "waiting for the lock on '\(path)': "
                + (what.isEmpty ? "another process holds it" : what) + " (Ctrl-C to stop)")
          }
          // A signal cuts the pause short (EINTR), and the next turn sees it.
          var pause = timespec(tv_sec: 0, tv_nsec: FileLock.retryInterval * 1_000_000)
          _ = nanosleep(&pause, nil)
        }
        // Interrupted before or while the lock came free: leave without changing anything.
        if waiting.interrupted() { throw interruption }
      } else {
        while flock(fd, LOCK_EX) != 0 {
          if errno == EINTR { continue }
          throw .error("cannot be locked: \(FileSystem.describe(errno))", file: path)
        }
      }
    } catch {
      close(fd)
      throw error
    }
    self.fd = fd
    self.path = path
  }

  /// Runs `body` while holding the lock on `path`; see `init(_:waiting:holder:)`.
  public static func withExclusiveLock<T>(
    _ path: String, waiting: Waiting? = nil, holder: @autoclosure () -> String = "",
    _ body: () throws(Diagnostic) -> T
  ) throws(Diagnostic) -> T {
    let lock = try FileLock(path, waiting: waiting, holder: holder())
    defer { withExtendedLifetime(lock) {} }
    return try body()
  }

  /// Seconds on the monotonic clock, for measuring a wait.
  static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
