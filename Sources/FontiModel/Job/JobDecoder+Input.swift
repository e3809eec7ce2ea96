import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Where a job file comes from: a file, standard input (`-`), or a pipe or device (`/dev/stdin`,
/// `/proc/self/fd/N`, a FIFO, `<(…)`).
extension JobDecoder {
  /// The name that stands for standard input in diagnostics.
  public static let standardInputName = "<stdin>"

  /// How diagnostics name the job file at `path`: as given, or `<stdin>` for `-`.
  public static func displayName(_ path: String) -> String {
    path == "-" ? standardInputName : path
  }

  /// The absolute folder that relative paths in the job at `path` are relative to: the job
  /// file's folder, except for standard input and the files of /dev and /proc (a pipe such as
  /// `/dev/stdin` or `/proc/self/fd/0`), whose paths are relative to the current folder. Outputs
  /// are never resolved against /dev or /proc.
  public static func directory(of path: String) -> String {
    if path == "-" { return JobPath.currentDirectory() }
    let folder = JobPath.absolute(JobPath.directory(of: path))
    for system in ["/dev", "/proc"] where folder == system || folder.hasPrefix(system + "/") {
      return JobPath.currentDirectory()
    }
    return folder
  }

  /// How long a job may keep the reader waiting before `waiting` is told, in milliseconds.
  static let waitingNoticeAfter: Int32 = 1000

  /// The bytes of the job file at `path` (`-`: standard input), refusing folders and files over
  /// the size limit. A FIFO is opened without waiting for its writer; when nothing has arrived
  /// after a second, `waiting` gets one line saying what the reader waits for.
  static func read(path: String, waiting: ((String) -> Void)? = nil) throws(DiagnosticError)
    -> [UInt8]
  {
    func fail(_ message: String, file: String? = nil, hint: String? = nil) -> DiagnosticError {
      DiagnosticError(.error(message, file: file, hint: hint))
    }
    let name = displayName(path)
    let fd: Int32
    if path == "-" {
      fd = 0
    } else {
      // O_NONBLOCK: opening a FIFO must not wait for a writer, or the notice could never come.
      fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      if fd < 0 {
        let code = errno
        if code == ENOENT {
          throw fail(
            "job file '\(path)' not found",
            hint: "'fonti-batch init' writes a commented example job file; "
              + "'-' reads the job from standard input")
        }
        throw fail("cannot read job file '\(path)': \(FileSystem.describe(code))")
      }
      // Reads block again from here on; the wait for the first byte is `poll`'s.
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }
    defer { if fd != 0 { close(fd) } }
    var info = stat()
    var kind = "file"
    if fstat(fd, &info) == 0 {
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        throw fail(
          "'\(path)' is a folder, not a job file",
          hint: "name the job file, e.g. '\(path)/specimens.yaml'")
      case S_IFREG:
        if Int(info.st_size) > YAMLDocument.sizeLimit {
          throw fail(
            "job file is larger than the 1 MiB limit (\(grouped(Int(info.st_size))) bytes)",
            file: name)
        }
      case S_IFIFO: kind = "pipe"
      default: kind = isatty(fd) == 1 ? "terminal" : "device"
      }
    }
    // A pipe that no writer has opened yet reads as empty at once: wait for its first byte (or
    // its end), telling `waiting` after a second.
    if kind != "file", !readable(fd, within: waiting == nil ? -1 : waitingNoticeAfter),
      let waiting
    {
      switch (path == "-", kind) {
      case (true, "terminal"):
        waiting("waiting for the job on standard input (type it, then Ctrl-D; or Ctrl-C to stop)")
      case (true, _):
        waiting("waiting for the job on standard input: nothing has arrived yet")
      default:
        waiting(
          "waiting for the job on '\(Sanitize.terminal(path))': nothing has been written to "
            + "this \(kind) yet")
      }
      _ = readable(fd, within: -1)
    }
    // Read at most one byte past the limit: a pipe or device has no size to check up front.
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count <= YAMLDocument.sizeLimit {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN {  // a non-blocking standard input handed down by the parent
          _ = readable(fd, within: -1)
          continue
        }
        throw fail("cannot read job file '\(name)': \(FileSystem.describe(code))")
      }
      if n == 0 { break }
      bytes += chunk[0..<n]
    }
    if bytes.count > YAMLDocument.sizeLimit {
      throw fail("job file is larger than the 1 MiB limit", file: name)
    }
    return bytes
  }

  /// Whether `fd` has something to read (or its end) within `milliseconds` (-1: no limit).
  static func readable(_ fd: Int32, within milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let n = poll(&entry, 1, milliseconds)
      if n < 0 && errno == EINTR { continue }
      return n != 0
    }
  }
}

extension JobDecoder {
  /// The favourites manifest of the job at `path` — `output` joined with
  /// `favourites.manifest` — read tolerantly: the rest of the job may hold any mistake (the
  /// `saved` commands need nothing else from it). Nil with the reason when the job cannot even
  /// give those two: unreadable, not YAML, or one of them invalid.
  public static func favouritesManifest(ofJobAt path: String) -> (
    path: String?, problem: Diagnostic?
  ) {
    let document: YAMLDocument
    do {
      document = try YAMLDocument.parse(bytes: try read(path: path), file: displayName(path))
    } catch {
      return (nil, error.diagnostics.first(where: \.isError))
    }
    // Only `output` and `favourites` are read: no language code is checked.
    var decoder = JobDecoder(
      source: document.source, directory: directory(of: path),
      languages: LanguageCodes(codes: [], name: { $0 }), diagnostics: [])
    guard case .mapping(let entries, _) = document.root else {
      return (nil, document.source.error("a job file is a mapping of keys", at: document.root.mark))
    }
    func value(_ key: String, in entries: [(key: String, keyMark: Mark, value: YAMLNode)])
      -> YAMLNode?
    {
      entries.last { $0.key == key }?.value
    }
    var output = "output"
    if let node = value("output", in: entries) {
      guard let text = decoder.string(node, "output"), !text.isEmpty else {
        return (
          nil, decoder.diagnostics.first ?? document.source.error("output is empty", at: node.mark)
        )
      }
      output = text
    }
    var manifest = Job(path: nil, directory: "", output: "").manifest.value
    if let favourites = value("favourites", in: entries) {
      guard case .mapping(let inner, _) = favourites else {
        return (
          nil,
          document.source.error(
            "favourites must be a mapping of keys (save, manifest)", at: favourites.mark)
        )
      }
      if let node = value("manifest", in: inner) {
        guard
          let relative = decoder.outputRelativePath(
            node, "favourites.manifest", what: "favourites manifest")
        else { return (nil, decoder.diagnostics.first) }
        manifest = relative.value
      }
    }
    let folder = JobPath.resolve(JobPath.expandingTilde(output), against: decoder.directory)
    return (folder + "/" + manifest, nil)
  }
}
