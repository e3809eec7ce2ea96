import Dispatch
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The files a run's workers leave under temporary names (`WorkResult.staged`), each flushed to
/// disk and then renamed over its final name by the parent, on threads of its own while the
/// workers draw on. A worker never waits for the disk, and a file takes its final name only once
/// its bytes are on disk, as with `AtomicFile`: a crash or a power cut leaves the old file or the
/// new one, never a mix.
final class StagedFiles: @unchecked Sendable {
  /// Serial queues taking commits in turn: as many fsyncs in flight as there are workers, so a
  /// slow disk costs what it did when each worker flushed its own files, not a queue behind one.
  private let lanes: [DispatchQueue]
  private var next = 0
  private let lock = NSLock()
  private var failures: [String: WorkResult] = [:]  // final path → why it is not in place
  private var folders: Set<String> = []
  /// Final paths put in place since the last `drainCommitted`.
  private var committed: [String] = []

  init(lanes: Int) {
    self.lanes = (0..<max(1, lanes)).map { DispatchQueue(label: "fonti-batch.staged-files.\($0)") }
  }

  /// Puts `temporary` in place at `path`, in the background. A temporary that is not a staged
  /// file beside `path` is refused rather than moved.
  func commit(_ temporary: String, to path: String) {
    let folder = FileSystem.folder(of: path)
    guard FileSystem.folder(of: temporary) == folder,
      FileSystem.name(of: temporary).hasPrefix(AtomicFile.temporaryPrefix)
    else {
      lock.withLock {
        failures[path] = .failure("the worker staged '\(temporary)', not a file beside it")
      }
      return
    }
    let lane = lock.withLock {
      defer { next += 1 }
      return lanes[next % lanes.count]
    }
    lane.async { [self] in
      let failure = StagedFiles.put(temporary, at: path)
      lock.withLock {
        if let failure {
          failures[path] = .failure(
            failure.description, writeFailure: FileSystem.describe(failure.code))
        } else {
          folders.insert(folder)
          committed.append(path)
        }
      }
    }
  }

  /// The final paths put in place since the last call, in the order they were.
  func drainCommitted() -> [String] {
    lock.withLock {
      defer { committed = [] }
      return committed
    }
  }

  /// Waits for every commit, flushes the folders that received files (so the renames too are
  /// on disk), and returns why each file not in place failed, by final path, once.
  func finish() -> [String: WorkResult] {
    for lane in lanes { lane.sync {} }
    let (failures, folders) = lock.withLock {
      defer {
        self.failures = [:]
        self.folders = []
      }
      return (self.failures, self.folders)
    }
    for folder in folders.sorted() { FileSystem.syncFolder(of: folder + "/.") }
    return failures
  }

  /// fsync, then rename; the temporary is removed when either fails.
  static func put(_ temporary: String, at path: String) -> FileError? {
    let final: String
    do { final = try OutputFolder.systemPath(path) } catch {
      unlink(OutputFolder.systemPathOrSame(temporary))
      return FileError(path: path, operation: "write", code: error.code)
    }
    let temporary = OutputFolder.systemPathOrSame(temporary)
    let fd = open(temporary, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return FileError(path: path, operation: "write", code: errno) }
    let synced = FileSystem.syncError(fd)
    close(fd)
    var failure = synced == 0 ? nil : FileError(path: path, operation: "write", code: synced)
    if failure == nil && rename(temporary, final) != 0 {
      failure = FileError(path: path, operation: "rename into place", code: errno)
    }
    guard let failure else { return nil }
    unlink(temporary)
    return failure
  }
}
