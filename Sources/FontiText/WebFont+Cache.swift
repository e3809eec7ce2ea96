import FontiSupport
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension WebFont {
  /// What this process knows of a file it was asked to load: the file's state when asked
  /// (so that a file replaced meanwhile is looked at again) and the path to load it from.
  private struct Known {
    var state: FileState
    var loadable: String
  }

  /// Every file asked about, by the user's path, and every decoded file, by its path, with the
  /// user's path it was decoded from. Shared by the threads of a process (`diff` reads files
  /// in parallel).
  private static let known = Mutex<(byUser: [String: Known], byLoadable: [String: String])>(
    ([:], [:]))

  /// The cache folder of decoded web fonts: `$XDG_CACHE_HOME/fonti-batch/fonts` (by default
  /// `~/.cache/fonti-batch/fonts`).
  package static var cacheFolder: String { UserFolders.cache() + "/fonti-batch/fonts" }

  /// The path fontconfig, Pango and HarfBuzz are to load the font file `path` from: `path`
  /// itself, unless it is a WOFF or WOFF2 web font (by its signature, whatever its name); then
  /// its decoded copy in the cache, made now if it is not there yet. A path that cannot be
  /// looked at is answered with itself, for the caller to report as it does any unreadable
  /// font. Throws when the web font cannot be decoded or its copy cannot be written. `cache`:
  /// another cache folder than the user's (tests).
  package static func loadablePath(for path: String, cache: String? = nil) throws(Failure)
    -> String
  {
    let folder = cache ?? cacheFolder
    guard let state = FileStamp.state(following: path) else { return path }
    if let hit = known.withLock({ $0.byUser[path] }), hit.state == state { return hit.loadable }
    guard let head = try? read(path, count: 4), let flavor = flavor(ofHead: head) else {
      remember(path, state: state, loadable: path)
      return path
    }
    let bytes: [UInt8]
    do {
      guard let read = try AtomicFile.readBytes(path, limit: sizeLimit) else { return path }
      bytes = read
    } catch {
      throw Failure(
        "is a \(flavor.rawValue) web font that cannot be read: \(error.message)")
    }
    let loadable = folder + "/" + SHA256.hex(bytes) + ".ttf"
    if !isDecoded(loadable) {
      let sfnt = try decode(bytes)
      do {
        try FileSystem.createFolder(folder)
        try AtomicFile.write(Data(sfnt), to: loadable)
      } catch {
        throw Failure(
          "is a \(flavor.rawValue) web font that cannot be decoded into the cache: "
            + error.message)
      }
    }
    remember(path, state: state, loadable: loadable)
    return loadable
  }

  /// The user's file a path fontconfig or Pango loaded came from: the web font a cache file
  /// was decoded from in this process, else the path itself.
  package static func userPath(of loaded: String) -> String {
    known.withLock { $0.byLoadable[loaded] } ?? loaded
  }

  /// `loadablePath(for:)`, or the path itself when the web font cannot be decoded: for the
  /// readers that fail on an unreadable font in their own words (the file was checked before).
  package static func loadablePathOrSame(for path: String) -> String {
    (try? loadablePath(for: path)) ?? path
  }

  private static func remember(_ path: String, state: FileState, loadable: String) {
    known.withLock {
      $0.byUser[path] = Known(state: state, loadable: loadable)
      if loadable != path { $0.byLoadable[loadable] = path }
    }
  }

  /// Whether `path` is a decoded copy in place: a regular file no bigger than the limit that
  /// is a whole sfnt (its directory read, every table inside it). Written by rename, a copy is
  /// whole or absent; this catches one damaged since.
  static func isDecoded(_ path: String) -> Bool {
    guard let state = FileStamp.state(path), state.size > 12, state.size <= Int64(sizeLimit),
      let head = try? read(path, count: 12),
      let tables = u16(head, 4), tables > 0, tables < 4096,
      let directory = try? read(path, count: 12 + 16 * tables)
    else { return false }
    for i in 0..<tables {
      guard let offset = u32(directory, 12 + 16 * i + 8),
        let length = u32(directory, 12 + 16 * i + 12),
        Int64(offset) + Int64(length) <= state.size
      else { return false }
    }
    return true
  }

  /// The first `count` bytes of `path` (fewer when it is shorter).
  private static func read(_ path: String, count: Int) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw FileError(path: path, operation: "read", code: errno) }
    defer { close(fd) }
    var out = [UInt8](repeating: 0, count: count)
    var got = 0
    while got < count {
      let n = out.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { Glibc.read(fd, $0 + got, count - got) } ?? 0
      }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      got += n
    }
    return Array(out.prefix(got))
  }
}
