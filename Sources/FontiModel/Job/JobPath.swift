import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Lexical path arithmetic for job files: joining, normalising, and finding the folder a
/// relative path is relative to. Never touches the file system except for the current folder
/// and `$HOME`.
public enum JobPath {
  /// `p` with `.` components and repeated slashes removed and `..` applied where it can be;
  /// leading `..` stay in a relative path. An empty result is `.`.
  static func normalise(_ p: String) -> String {
    let absolute = p.hasPrefix("/")
    var parts: [Substring] = []
    for part in p.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..":
        if let last = parts.last, last != ".." {
          parts.removeLast()
        } else if !absolute {
          parts.append(part)
        }  // `/..` is `/`
      default: parts.append(part)
      }
    }
    let body = parts.joined(separator: "/")
    if absolute { return "/" + body }
    return body.isEmpty ? "." : body
  }

  /// `p` made absolute against `directory` (when relative) and normalised.
  package static func resolve(_ p: String, against directory: String) -> String {
    normalise(p.hasPrefix("/") ? p : directory + "/" + p)
  }

  /// `~` and `~/…` replaced by `$HOME`; anything else unchanged.
  static func expandingTilde(_ p: String) -> String {
    guard p == "~" || p.hasPrefix("~/"), let home = getenv("HOME").map({ String(cString: $0) }),
      !home.isEmpty
    else { return p }
    return home + p.dropFirst()
  }

  /// The folder part of `p` (`.` for a bare file name).
  static func directory(of p: String) -> String { FileSystem.folder(of: p) }

  /// The last component of `p`.
  package static func lastComponent(of p: String) -> String {
    guard let slash = p.lastIndex(of: "/") else { return p }
    return String(p[p.index(after: slash)...])
  }

  /// The process's current folder (`/` if it cannot be found, e.g. after it was deleted), or
  /// `.` when its path is not UTF-8 (a folder named in Latin-1): paths then stay relative to it
  /// and the system resolves them, where the path read as UTF-8, with U+FFFD for its bytes,
  /// would name another folder — which `run` would create and write into.
  static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(validating: bytes, as: UTF8.self) ?? "."
  }

  /// `p` as an absolute, normalised path (relative to the current folder).
  public static func absolute(_ p: String) -> String {
    resolve(p, against: currentDirectory())
  }

  /// Why `folder` cannot be the output folder, or nil when it can (it is a folder, or it and
  /// its missing parents can be created). A file at the path, or at any folder above it, is
  /// the problem: "exists and is not a folder" or "'/a/b' is a file, not a folder".
  public static func outputFolderProblem(_ folder: String) -> String? {
    var info = stat()
    if stat(folder, &info) == 0 {
      return info.st_mode & S_IFMT == S_IFDIR ? nil : "exists and is not a folder"
    }
    // Missing: the nearest ancestor that exists must be a folder, or mkdir -p fails.
    var ancestor = directory(of: absolute(folder))
    while ancestor != "/" {
      if stat(ancestor, &info) == 0 {
        return info.st_mode & S_IFMT == S_IFDIR ? nil : "cannot be created: '\(ancestor)' is a file"
      }
      ancestor = directory(of: ancestor)
    }
    return nil
  }

  /// `strerror(errno)` as a Swift string.
  static func describe(errno code: Int32) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    return String(cString: message)
  }
}
