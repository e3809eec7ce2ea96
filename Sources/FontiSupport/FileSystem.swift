import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The file-system toolkit every other file operation is built from: folders, whole writes,
/// files created without ever replacing one, the system's words for an error, and the few path
/// helpers that touch the disk. `AtomicFile` replaces files whole with these, `FileLock` locks
/// them; nothing else in the tool calls `mkdir`, loops over `write` or asks `strerror`.
public enum FileSystem {
  /// The system's words for an `errno` value ("No space left on device").
  public static func describe(_ code: Int32) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    return String(cString: message)
  }

  // MARK: Folders

  /// Creates `path` and its missing parents (`mkdir -p`), saying which one failed and why. A
  /// file where a folder is needed is an error naming it, with `hint` (what to do about it). A
  /// folder another process creates meanwhile is fine.
  public static func createFolder(_ path: String, hint: String = "move the file away")
    throws(Diagnostic)
  {
    // Inside an output folder, made from descriptors, and no link is followed.
    if try OutputFolder.createFolder(path, hint: hint) { return }
    var info = stat()
    if stat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFDIR { return }
      throw .error("'\(path)' is a file where fonti-batch needs a folder", hint: hint)
    }
    let parent = folder(of: path)
    if parent != path && parent != "/" && parent != "." {
      try createFolder(parent, hint: hint)
    }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw .error("cannot create folder '\(path)': \(describe(errno))")
    }
  }

  /// The folder a path is in ("." for a bare name, "/" for a name at the root). From the
  /// string alone: Foundation's `deletingLastPathComponent` traps on a one-character path
  /// ("a"), which `init a` or `saved add --manifest f` gave it.
  public static func folder(of path: String) -> String {
    let slash = UInt8(ascii: "/")
    var file = path.utf8[...]
    while file.count > 1, file.last == slash { file = file.dropLast() }
    guard let last = file.lastIndex(of: slash) else { return "." }
    var head = file[..<last]
    while head.count > 1, head.last == slash { head = head.dropLast() }
    return head.isEmpty ? "/" : String(Substring(head))
  }

  /// The last component of `path`, trailing slashes aside (`NSString.lastPathComponent`'s
  /// answer, without its cost): `b` for `a/b` and `a/b/`, `/` for `/`.
  public static func name(of path: String) -> String {
    let slash = UInt8(ascii: "/")
    var file = path.utf8[...]
    while file.count > 1, file.last == slash { file = file.dropLast() }
    guard file.count > 1, let last = file.lastIndex(of: slash) else {
      return String(Substring(file))
    }
    return String(Substring(file[file.index(after: last)...]))
  }

  /// The names in folder `path` (a path as bytes), "." and ".." left out; nil when it cannot
  /// be opened (`errno` says why).
  package static func entries(of path: [UInt8]) -> [[UInt8]]? {
    guard let folder = withPath(path, { opendir($0) }) else { return nil }
    defer { closedir(folder) }
    var names: [[UInt8]] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      if name == [46] || name == [46, 46] { continue }
      names.append(name)
    }
    return names
  }

  /// Calls `body` with `path` as a NUL-terminated C string.
  package static func withPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
    (path + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { text in
        guard let start = text.baseAddress else { return body("") }  // never: it holds the NUL
        return body(start)
      }
    }
  }

  /// A path given as bytes, for a message: UTF-8 as it is, any other byte as `\xNN`.
  public static func display(_ path: [UInt8]) -> String {
    var shown = ""
    var index = 0
    scan: while index < path.count {
      for length in 1...4 where index + length <= path.count {
        if let piece = String(validating: path[index..<(index + length)], as: UTF8.self) {
          shown += piece
          index += length
          continue scan
        }
      }
      let hex = String(path[index], radix: 16, uppercase: true)
      shown += "\\x" + (hex.count < 2 ? "0" : "") + hex
      index += 1
    }
    return shown
  }

  /// `path`, or the file a symbolic link at `path` finally points to.
  package static func resolvingLink(_ path: String) -> String {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
    return realPath(path) ?? path
  }

  /// `path` with every link resolved (calls `realpath`), or nil when it does not exist.
  package static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The first symbolic link on the way from folder `root` (not itself checked: it may be a
  /// link the user chose) to `path`, `path` included; nil when there is none (or `path` is not
  /// below `root`). Looks at each name with `lstat`, for an early, clear refusal: the writes
  /// themselves go through `OutputFolder`, which never follows a link there.
  package static func firstLink(in path: String, below root: String) -> String? {
    guard path.hasPrefix(root + "/") else { return nil }
    var current = root
    for part in path.dropFirst(root.count + 1).split(separator: "/") where part != "." {
      current += "/" + part
      var info = stat()
      guard lstat(current, &info) == 0 else { return nil }
      if info.st_mode & S_IFMT == S_IFLNK { return current }
    }
    return nil
  }

  /// Whether anything, even a dangling symbolic link, has the name `path`.
  package static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  // MARK: Writing

  /// Writes every byte to `fd`, retrying short writes and interruptions. Returns 0, or the
  /// system's error (`errno`) of the write that failed.
  public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
      let n = write(fd, base + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += n
    }
    return 0
  }

  /// Fills the first `count` bytes of `buffer` (all of it by default) as far as the file
  /// goes: how many were read, fewer only at the end of the file; -1 on an error.
  package static func readFully(_ fd: Int32, _ buffer: inout [UInt8], count: Int? = nil) -> Int {
    let count = min(count ?? buffer.count, buffer.count)
    var total = 0
    while total < count {
      let n = buffer.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return -1 }
        return read(fd, base + total, count - total)
      }
      if n < 0 {
        if errno == EINTR { continue }
        return -1
      }
      if n == 0 { break }
      total += n
    }
    return total
  }

  /// `writeAll` for bytes in memory.
  public static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes) -> Int32 {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
  }

  /// `writeAll`, with a failure as an error naming `path`.
  package static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(Diagnostic) {
    let code = writeAll(fd, data)
    if code != 0 { throw .error("cannot be written: \(describe(code))", file: path) }
  }

  /// fsync, retried when interrupted: 0, or the error. Special files and read-only mounts,
  /// which cannot be synced, count as synced.
  package static func syncError(_ fd: Int32) -> Int32 {
    while fsync(fd) != 0 {
      if errno == EINTR { continue }
      return errno == EINVAL || errno == EROFS ? 0 : errno
    }
    return 0
  }

  /// fsync of the folder `path` is in, so that a rename or link there survives a power cut.
  /// Best effort.
  package static func syncFolder(of path: String) {
    let parent = folder(of: path)
    let system = (try? OutputFolder.systemFolder(parent)) ?? parent
    let fd = open(system, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  // MARK: Creating without replacing

  /// How `link(_:toNew:)` ended.
  package enum Placement: Equatable {
    /// The file has its new name (and keeps the old one: the caller removes it).
    case placed
    /// Something already has the name; nothing changed.
    case exists
    /// The system's error.
    case failed(Int32)
  }

  /// Gives the file at `source` the new name `destination`, never replacing anything that has
  /// that name: `link` fails when the name exists, even if a file appears there meanwhile. On a
  /// file system without hard links, a rename after checking the name is free (the caller's
  /// lock, if any, keeps other fonti-batch processes out meanwhile).
  package static func link(_ source: String, toNew destination: String) -> Placement {
    if Glibc.link(source, destination) == 0 {
      syncFolder(of: destination)
      return .placed
    }
    let code = errno
    if code == EEXIST { return .exists }
    guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV].contains(code) else { return .failed(code) }
    if exists(destination) { return .exists }
    guard rename(source, destination) == 0 else { return .failed(errno) }
    syncFolder(of: destination)
    return .placed
  }

  /// Why `createNew` did not create the file.
  public enum CreationFailure: Error, Equatable {
    /// Something already has the name; it was left as it is.
    case exists
    /// The system's error (`errno`).
    case failed(Int32)
  }

  /// Creates the file `path` holding `data`, never replacing anything of that name: the bytes
  /// go to a temporary file in the same folder, are flushed to disk, and the file is then
  /// linked to its name (`link`). A reader never sees a half-written file, and a file created
  /// meanwhile under the name is safe. `mode` is narrowed by the umask.
  public static func createNew(_ data: Data, at path: String, mode: mode_t = 0o644)
    throws(CreationFailure)
  {
    if exists(path) { throw .exists }
    let temporary: (fd: Int32, path: String)
    switch AtomicFile.openTemporary(beside: path, mode: mode) {
    case .success(let opened): temporary = opened
    case .failure(let error): throw .failed(error.code)
    }
    defer { unlink(temporary.path) }  // once linked, the file lives on under its name
    var code = writeAll(temporary.fd, data)
    if code == 0 { code = syncError(temporary.fd) }
    if close(temporary.fd) != 0 && code == 0 { code = errno }
    if code != 0 { throw .failed(code) }
    switch link(temporary.path, toNew: path) {
    case .placed: return
    case .exists: throw .exists
    case .failed(let code): throw .failed(code)
    }
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
    "cannot \(operation) '\(path)': \(FileSystem.describe(code))"
  }
}

/// An output file's size and modification time as found on disk.
public struct FileState: Sendable, Equatable {
  public var size: Int64
  public var mtimeNs: Int64

  public init(size: Int64, mtimeNs: Int64) {
    self.size = size
    self.mtimeNs = mtimeNs
  }

  /// What `stat` says of a file.
  init(_ info: stat) {
    self.init(
      size: Int64(info.st_size),
      mtimeNs: Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec))
  }
}
