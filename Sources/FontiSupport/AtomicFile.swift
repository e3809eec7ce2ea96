import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// User files read whole and replaced whole (part of the file-system toolkit, `FileSystem`): a
/// new version is written to a hidden temporary file in the destination's folder, flushed to
/// disk, then renamed over the final name, so that a crash, a kill or a full disk leaves the old
/// file or the new one, never a mix.
///
/// Errors are `Diagnostic`s that name the file and say what the system said.
public enum AtomicFile {
  public static let temporaryPrefix = ".fonti-tmp-"

  /// A fresh temporary path beside `path`: `.fonti-tmp-PID-RANDOM-NAME`, hidden, and named by
  /// process so that an interrupted run can sweep what its workers left. Made from the string
  /// alone: `URL(fileURLWithPath:)` asks the file system whether the path is a folder, 40 µs a
  /// call, and a run makes a few of these per family.
  public static func temporaryPath(for path: String) -> String {
    var file = Substring(path)
    while file.count > 1, file.hasSuffix("/") { file = file.dropLast() }
    let prefix = "\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))-"
    guard let slash = file.lastIndex(of: "/") else { return prefix + file }
    return file[...slash] + prefix + file[file.index(after: slash)...]
  }

  /// Removes this process's temporary files for `path` (`temporaryPath`), in its folder: what a
  /// write cut short leaves.
  package static func removeOwnTemporaries(for path: String) {
    let folder = FileSystem.folder(of: path)
    let name = FileSystem.name(of: path)
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return
    }
    for entry in entries {
      guard let parts = temporaryParts(entry), parts.pid == getpid(), parts.name == name
      else { continue }
      unlink(folder + "/" + entry)
    }
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
    let system = OutputFolder.systemPathOrSame(temporary)
    guard rename(system, OutputFolder.systemPathOrSame(path)) == 0 else {
      let code = errno
      unlink(system)
      throw FileError(path: path, operation: "rename into place", code: code)
    }
  }

  /// Calls `write` with a temporary path beside `path` (inside an output folder, the path to
  /// hand the system: `OutputFolder.systemPath`) and returns the temporary's name beside
  /// `path`, for the caller to put in place. On any error the temporary file is removed.
  public static func stage(for path: String, _ write: (String) throws -> Void) throws -> String {
    let temporary = temporaryPath(for: path)
    let system = try OutputFolder.systemPath(temporary)
    do {
      try write(system)
    } catch {
      unlink(system)
      throw error
    }
    return temporary
  }

  /// `stage(for:_:)` for bytes held in memory, unless `path` is a regular file that already
  /// holds exactly them: then nothing is written and nil is returned. A forced run that draws
  /// again what is already there leaves the file as it is (its inode, times and links) rather
  /// than writing, flushing and renaming the same bytes over it.
  public static func stage(_ bytes: [UInt8], for path: String) throws(FileError) -> String? {
    if holds(path, exactly: bytes) { return nil }
    let temporary = temporaryPath(for: path)
    let system: String
    do { system = try OutputFolder.systemPath(temporary) } catch {
      throw FileError(path: temporary, operation: "write PNG", code: error.code)
    }
    // As `fopen(…, "wbxe")`: a new file only (never through a planted link), close-on-exec.
    let fd = open(system, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw FileError(path: temporary, operation: "write PNG", code: errno) }
    var code = FileSystem.writeAll(fd, bytes)
    if close(fd) != 0, code == 0 { code = errno }
    guard code == 0 else {
      unlink(system)
      throw FileError(path: temporary, operation: "write PNG", code: code)
    }
    return temporary
  }

  /// Whether `path` is a regular file (not a link: nothing is read through one) whose contents
  /// are exactly `bytes`. Any failure to tell (no file, no permission) answers no.
  static func holds(_ path: String, exactly bytes: [UInt8]) -> Bool {
    let path = OutputFolder.systemPathOrSame(path)
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      Int(info.st_size) == bytes.count,
      let held = try? readBytes(path, limit: bytes.count), held.count == bytes.count
    else { return false }
    // memcmp: Array's == compares element by element, 0.6 % of a forced run's CPU.
    return held.withUnsafeBytes { a in
      bytes.withUnsafeBytes { b in
        guard let a = a.baseAddress, let b = b.baseAddress else { return bytes.isEmpty }
        return memcmp(a, b, bytes.count) == 0
      }
    }
  }

  /// Reads a regular file whole. Returns nil when nothing exists at `path`; throws when it
  /// exists but cannot be read, is not a regular file (a folder, a FIFO) or exceeds `limit`.
  public static func read(_ path: String, limit: Int) throws(Diagnostic) -> Data? {
    try readBytes(path, limit: limit).map { Data($0) }
  }

  /// `read(_:limit:)` as bytes, in one buffer of the file's size: a large file (a library's
  /// run manifest) is held once, not once per doubling of a growing buffer.
  package static func readBytes(_ path: String, limit: Int) throws(Diagnostic) -> [UInt8]? {
    // O_NONBLOCK so that a FIFO under the name cannot hang the process; fstat then refuses it.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      throw .error("cannot be read: \(FileSystem.describe(code))", file: path)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw .error("cannot be read: \(FileSystem.describe(errno))", file: path)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw .error("is a folder, not a file", file: path)
    default: throw .error("is not a regular file", file: path)
    }
    if Int(info.st_size) > limit {
      throw .error("is too large (\(info.st_size) bytes; the limit is \(limit))", file: path)
    }
    // The size fstat gave, and one byte more to see the end (a file may grow meanwhile).
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var count = 0
    while true {
      if count == bytes.count {
        if count > limit { throw .error("is too large (more than \(limit) bytes)", file: path) }
        bytes.append(contentsOf: repeatElement(0, count: max(65536, count / 2)))
      }
      let n = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { Glibc.read(fd, $0 + count, buffer.count - count) } ?? 0
      }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .error("cannot be read: \(FileSystem.describe(errno))", file: path)
      }
      if n == 0 { break }
      count += n
    }
    if count > limit { throw .error("is too large (more than \(limit) bytes)", file: path) }
    bytes.removeLast(bytes.count - count)
    return bytes
  }

  /// Replaces (or creates) `path` with `data`, atomically. An existing file keeps its
  /// permissions; a new one gets `mode` less the umask. A symbolic link at `path` is followed,
  /// so the file it points to is replaced and the link stays a link — except inside an output
  /// folder (`OutputFolder`), where the link itself is replaced and what it points to is left
  /// alone.
  public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws(Diagnostic) {
    try prepare(data, to: path, mode: mode).commit()
  }

  /// `prepare(to:mode:filling:)` for bytes held in memory.
  public static func prepare(_ data: Data, to path: String, mode: mode_t = 0o644)
    throws(Diagnostic) -> Prepared
  {
    try prepare(to: path, mode: mode) { (fd, temporary) throws(Diagnostic) in
      try FileSystem.writeAll(fd, data, path: temporary)
    }
  }

  /// `write(_:to:mode:)` for a file written piece by piece, never whole in memory: `fill`
  /// writes the new version to the open descriptor it is given (the temporary file's path is
  /// for its errors). When `fill` throws, `path` is untouched.
  public static func write(
    to path: String, mode: mode_t = 0o644, filling fill: (Int32, String) throws(Diagnostic) -> Void
  ) throws(Diagnostic) {
    try prepare(to: path, mode: mode, filling: fill).commit()
  }

  /// A new version of a file, written and flushed beside it under a temporary name: `commit()`
  /// puts it in place, `discard()` removes it. Its size and time are known before it is in
  /// place (a rename keeps them), so a manifest written first can record them.
  public struct Prepared {
    let temporary: String
    let target: String
    /// The new version's size and modification time.
    public let state: FileState

    public func commit() throws(Diagnostic) {
      let system = OutputFolder.systemPathOrSame(temporary)
      guard rename(system, OutputFolder.systemPathOrSame(target)) == 0 else {
        let code = errno
        unlink(system)
        throw .error("cannot be replaced: \(FileSystem.describe(code))", file: target)
      }
      FileSystem.syncFolder(of: target)
    }

    public func discard() { unlink(OutputFolder.systemPathOrSame(temporary)) }
  }

  /// The first half of `write(to:mode:filling:)`: the new version written and flushed, not yet
  /// in place. When `fill` throws, nothing is left behind.
  public static func prepare(
    to path: String, mode: mode_t = 0o644, filling fill: (Int32, String) throws(Diagnostic) -> Void
  ) throws(Diagnostic) -> Prepared {
    let target = OutputFolder.contains(path) ? path : FileSystem.resolvingLink(path)
    let keepMode = existingMode(target)
    let (fd, temporary) = try createTemporary(beside: target, mode: keepMode ?? mode)
    var closed = false
    do throws(Diagnostic) {
      try fill(fd, temporary)
      // open() applies the umask, which would narrow an existing file's mode: set it exactly.
      if let keepMode { _ = fchmod(fd, keepMode) }
      try sync(fd, path: temporary)
      var info = stat()
      let stated = fstat(fd, &info) == 0
      closed = true
      if close(fd) != 0 || !stated {
        throw .error("cannot be written: \(FileSystem.describe(errno))", file: target)
      }
      return Prepared(temporary: temporary, target: target, state: FileState(info))
    } catch {
      if !closed { close(fd) }
      unlink(OutputFolder.systemPathOrSame(temporary))
      throw error
    }
  }

  /// The permissions of the file at `path`, nil when there is none. Inside an output folder a
  /// link is not followed (it is replaced, not what it points to), and only a regular file
  /// counts.
  static func existingMode(_ path: String) -> mode_t? {
    var info = stat()
    guard OutputFolder.contains(path) else {
      return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }
    let system = OutputFolder.systemPathOrSame(path)
    guard lstat(system, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return info.st_mode & 0o7777
  }

  /// Creates a hidden temporary file in the folder of `path` (`.fonti-tmp-PID-RANDOM-NAME`, a
  /// name no font scan or job picks up, and that an interrupted run can sweep by PID), open for
  /// writing. The caller renames or removes it.
  public static func createTemporary(beside path: String, mode: mode_t = 0o644) throws(Diagnostic)
    -> (fd: Int32, path: String)
  {
    switch openTemporary(beside: path, mode: mode) {
    case .success(let temporary):
      return temporary
    case .failure(let error) where error.code == EEXIST:
      throw .error(
        "cannot find a free temporary name in folder '\(FileSystem.folder(of: path))'", file: path)
    case .failure(let error):
      throw .error(
        "cannot write in folder '\(FileSystem.folder(of: path))': "
          + FileSystem.describe(error.code), file: path)
    }
  }

  /// `createTemporary`, with the system's error (`EEXIST` when no free name was found);
  /// `readable`: open for reading too.
  package static func openTemporary(beside path: String, mode: mode_t, readable: Bool = false)
    -> Result<
      (fd: Int32, path: String), FileError
    >
  {
    let folder = FileSystem.folder(of: path)
    let name = FileSystem.name(of: path)
    let into: String
    do { into = try OutputFolder.systemFolder(folder) } catch {
      return .failure(FileError(path: folder, operation: "write in", code: error.code))
    }
    for _ in 0..<100 {
      let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      let file = temporaryPrefix + "\(getpid())-" + random + "-" + name
      let candidate = folder + "/" + file
      let access = readable ? O_RDWR : O_WRONLY
      let fd = open(into + "/" + file, access | O_CREAT | O_EXCL | O_CLOEXEC, mode)
      if fd >= 0 { return .success((fd, candidate)) }
      if errno != EEXIST {
        return .failure(FileError(path: folder, operation: "write in", code: errno))
      }
    }
    return .failure(FileError(path: folder, operation: "write in", code: EEXIST))
  }

  /// fsync: the bytes are on disk before the rename makes them visible.
  package static func sync(_ fd: Int32, path: String) throws(Diagnostic) {
    let code = FileSystem.syncError(fd)
    if code != 0 { throw .error("cannot be written: \(FileSystem.describe(code))", file: path) }
  }
}
