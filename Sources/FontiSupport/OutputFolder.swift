import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The output folders this process writes into, where no write ever goes through a link.
///
/// The output folder itself may be a link the user chose; it is opened as it is named. Every
/// folder inside it is opened from its parent's descriptor without following a link
/// (`openat` with `O_NOFOLLOW | O_DIRECTORY`), once, and kept open while the folder is
/// registered. A file inside is then handed to the system (and to Cairo, libpng and qpdf) as
/// `/proc/self/fd/N/NAME`: the kernel starts from the folder already opened, so nothing
/// renamed or planted on the way since (a folder swapped for a link) can send the write
/// elsewhere, and the last component is never followed by the calls that write (`O_EXCL`
/// creation, `rename`, `unlink`). A path outside every registered folder is used as it is.
///
/// Registered by whatever writes an output folder (`run`, `merge`, `diff -o`, their
/// workers), for the life of the returned `Registration`.
package enum OutputFolder {
  /// Keeps a folder registered while it lives.
  package final class Registration: Sendable {
    let root: String

    init(root: String) { self.root = root }

    deinit { OutputFolder.unregister(root) }
  }

  /// A registered folder: its descriptor, how many registrations hold it, and the folders
  /// inside it opened so far, by path relative to it.
  private struct Root {
    var fd: Int32
    var count: Int
    var folders: [String: Int32] = [:]
  }

  // Guarded by `lock`.
  nonisolated(unsafe) private static var roots: [String: Root] = [:]
  private static let lock = NSLock()

  /// Registers `root` (an existing folder; a link to one is followed, as the user chose it).
  package static func register(_ root: String) throws(Diagnostic) -> Registration {
    let key = normalized(root)
    let failure: Int32? = lock.withLock {
      if roots[key] != nil {
        roots[key]?.count += 1
        return nil
      }
      let fd = open(key, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard fd >= 0 else { return errno }
      roots[key] = Root(fd: fd, count: 1)
      return nil
    }
    if let failure {
      throw .error("cannot open output folder '\(root)': \(FileSystem.describe(failure))")
    }
    return Registration(root: key)
  }

  private static func unregister(_ key: String) {
    lock.withLock {
      guard var root = roots[key] else { return }
      root.count -= 1
      if root.count > 0 {
        roots[key] = root
        return
      }
      close(root.fd)
      for fd in root.folders.values { close(fd) }
      roots[key] = nil
    }
  }

  /// `path` without trailing slashes, repeated slashes or `.` components, each `..` taking
  /// away the component before it (as written: `out/../shared/f.json` is not in `out`).
  private static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else {
        parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
  }

  /// The registered folder `path` lies in (the innermost, when they nest) and the components
  /// of `path` below it; nil when it lies in none. Called with `lock` held.
  private static func locate(_ path: String) -> (root: String, parts: [Substring])? {
    guard !roots.isEmpty else { return nil }
    let path = normalized(path)
    var best: String?
    for key in roots.keys where path == key || path.hasPrefix(key == "/" ? "/" : key + "/") {
      if best.map({ key.count > $0.count }) ?? true { best = key }
    }
    guard let best else { return nil }
    let rest = path.dropFirst(best.count)
    return (best, rest.split(separator: "/", omittingEmptySubsequences: true))
  }

  /// Whether `path` lies inside a registered output folder (or is one).
  package static func contains(_ path: String) -> Bool {
    lock.withLock { locate(path) != nil }
  }

  /// The path to hand the system for `path`: `/proc/self/fd/N/NAME` when `path` lies inside a
  /// registered output folder (N: its folder, opened without following links), else `path`.
  /// Throws when a folder on the way is a link (ELOOP), missing or not a folder, or the path
  /// climbs out with `..`.
  package static func systemPath(_ path: String) throws(FileError) -> String {
    let result: Result<String, FileError>? = lock.withLock {
      guard let (key, parts) = locate(path) else { return nil }
      guard let name = parts.last else {
        return .failure(FileError(path: path, operation: "write", code: EISDIR))
      }
      switch folder(Array(parts.dropLast()), in: key, create: false) {
      case .success(let fd): return .success("/proc/self/fd/\(fd)/\(name)")
      case .failure(let error): return .failure(error)
      }
    }
    switch result {
    case nil: return path
    case .success(let system)?: return system
    case .failure(let error)?: throw error
    }
  }

  /// The path to hand the system for the folder `path` itself: `/proc/self/fd/N` when it is a
  /// registered output folder or lies inside one, else `path`. Throws as `systemPath`.
  package static func systemFolder(_ path: String) throws(FileError) -> String {
    let result: Result<Int32, FileError>? = lock.withLock {
      guard let (key, parts) = locate(path) else { return nil }
      return folder(parts, in: key, create: false)
    }
    switch result {
    case nil: return path
    case .success(let fd)?: return "/proc/self/fd/\(fd)"
    case .failure(let error)?: throw error
    }
  }

  /// `systemPath`, or `path` itself when it cannot be formed (the call made with it then
  /// fails on its own, or reads what is there): for reading and removing our own files.
  package static func systemPathOrSame(_ path: String) -> String {
    (try? systemPath(path)) ?? path
  }

  /// Creates the folder `path` inside a registered output folder and the folders on its way
  /// (`mkdir -p`), each made and opened from its parent's descriptor; true when `path` is
  /// inside one (false: the caller makes it as any other folder). A link on the way is
  /// refused, naming it, with `hint`.
  package static func createFolder(_ path: String, hint: String) throws(Diagnostic) -> Bool {
    let result: Result<Int32, FileError>? = lock.withLock {
      guard let (key, parts) = locate(path) else { return nil }
      return folder(parts, in: key, create: true)
    }
    switch result {
    case nil, .success?: return result != nil
    case .failure(let error)?:
      switch error.code {
      case ELOOP:
        throw .error(
          "'\(error.path)' is a symbolic link: fonti-batch never writes through a link inside "
            + "its output folder",
          hint: "replace the link with a real folder, or write elsewhere with -o")
      case ENOTDIR:
        throw .error("'\(error.path)' is a file where fonti-batch needs a folder", hint: hint)
      default:
        throw .error("cannot create folder '\(error.path)': \(FileSystem.describe(error.code))")
      }
    }
  }

  /// The descriptor of the folder `parts` below registered folder `key`, opened from each
  /// parent without following links (and made first when `create`). Called with `lock` held.
  private static func folder(_ parts: [Substring], in key: String, create: Bool)
    -> Result<Int32, FileError>
  {
    guard var root = roots[key] else {
      return .failure(FileError(path: key, operation: "open", code: ENOENT))
    }
    defer { roots[key] = root }
    var fd = root.fd
    var relative = ""
    for part in parts {
      relative += relative.isEmpty ? String(part) : "/" + part
      if let open = root.folders[relative] {
        fd = open
        continue
      }
      let shown = key + "/" + relative
      guard part != ".." else {
        return .failure(FileError(path: shown, operation: "write outside", code: EPERM))
      }
      if create && mkdirat(fd, String(part), 0o755) != 0 && errno != EEXIST {
        return .failure(FileError(path: shown, operation: "create folder", code: errno))
      }
      let opened = openat(fd, String(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard opened >= 0 else {
        var code = errno
        var info = stat()
        if fstatat(fd, String(part), &info, AT_SYMLINK_NOFOLLOW) == 0 {
          code = info.st_mode & S_IFMT == S_IFLNK ? ELOOP : ENOTDIR
        }
        return .failure(FileError(path: shown, operation: "open folder", code: code))
      }
      root.folders[relative] = opened
      fd = opened
    }
    return .success(fd)
  }
}
