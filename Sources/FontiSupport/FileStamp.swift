#if canImport(Glibc)
  import Glibc
#endif

/// File identity for incremental runs: path, size and modification time (nanoseconds). Reading
/// every font's bytes on each run would cost more than rendering a few families.
public enum FileStamp {
  public static func stamp(_ path: String) -> String {
    var st = stat()
    guard stat(path, &st) == 0 else { return path + "|missing" }
    return "\(path)|\(st.st_size)|\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
  }

  /// Size and time of the regular file at `path` (a link is not followed), or nil.
  public static func state(_ path: String) -> FileState? {
    var st = stat()
    guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    return FileState(st)
  }

  /// Size and time of the regular file at `path`, through a link, or nil.
  public static func state(following path: String) -> FileState? {
    var st = stat()
    guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    return FileState(st)
  }
}
