import FontiSupport
import Foundation

/// The user's imported fonts (the app's My Fonts): `$XDG_DATA_HOME/fonti/fonts`, by default
/// `~/.local/share/fonti/fonts`. Always registered as custom fonts; never installed system-wide.
public struct FontLibrary: Sendable {
  public var directory: String

  public init(directory: String) { self.directory = directory }

  /// The library of this user, from the environment.
  public static var standard: FontLibrary {
    let env = ProcessInfo.processInfo.environment
    if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return FontLibrary(directory: xdg + "/fonti/fonts")
    }
    let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return FontLibrary(directory: home + "/.local/share/fonti/fonts")
  }

  /// The font files in the library, sorted; none when the folder does not exist.
  public var files: [String] { search.files }

  /// The library's folder searched, without following links: `remove` deletes what this
  /// lists, and must never reach a file outside the library through one. Nothing found (and
  /// no problem) when the folder does not exist yet.
  var search: FontFiles.FolderSearch {
    FileSystem.exists(directory)
      ? FontFiles.search(directory, followingLinks: false) : FontFiles.FolderSearch()
  }

  /// A warning for each entry of the library that cannot be reached (a name that is not
  /// UTF-8, a folder that cannot be read): those fonts are left out everywhere.
  public var unreachable: [Diagnostic] { unreachable(in: search) }

  func unreachable(in search: FontFiles.FolderSearch) -> [Diagnostic] {
    search.problemLines().map { .warning("\($0) (in the font library; skipped)") }
  }
}

extension FontEnvironment {
  /// Sets fontconfig up with the user's library and the given custom font paths (files or
  /// folders), checking every custom file first. Errors in `paths` throw, located at their
  /// entries; a broken file in the library is skipped with a warning.
  public static func load(
    fonts paths: [Located<String>] = [], file: String? = nil,
    library: FontLibrary? = .standard, configFile: String? = nil
  ) throws(DiagnosticError) -> (FontEnvironment, warnings: [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    var files: [String] = []
    if let library {
      let search = library.search
      let (found, problems) = FontFiles.expand(search.files.map { Located($0) }, file: nil)
      files += found.map(\.path)
      let unsearched = search.problemLines().map { Diagnostic.error("font path \($0)") }
      diagnostics += (unsearched + problems).map {
        var d = $0
        d.severity = .warning
        d.message += " (in the font library \(library.directory); skipped)"
        return d
      }
    }
    let (found, problems) = FontFiles.expand(paths, file: file)
    files += found.map(\.path)
    diagnostics += problems
    if diagnostics.contains(where: \.isError) { throw DiagnosticError(diagnostics) }
    do {
      let environment = try FontEnvironment(configFile: configFile, customFonts: files)
      for name in environment.catalog.shadowed.sorted() {
        let shown = environment.catalog.family(named: name)?.name ?? name
        diagnostics.append(
          .warning(
            "custom family '\(shown)' has the name of an installed family; the custom fonts are used"
          ))
      }
      return (environment, diagnostics)
    } catch {
      throw DiagnosticError(diagnostics + [error])
    }
  }
}

// MARK: Managing the library (`fonts list`, `fonts import`, `fonts remove`)

extension FontLibrary {
  /// The installed (system) families among `names`, as the system spells them, each once: an
  /// imported family of such a name takes it over in every run. Empty when fontconfig cannot
  /// be set up.
  public static func installedFamilies(named names: [String]) -> [String] {
    guard !names.isEmpty, let system = try? FontEnvironment(configFile: nil) else { return [] }
    var seen = Set<String>()
    return names.compactMap { name in
      guard seen.insert(name.lowercased()).inserted else { return nil }
      return system.catalog.family(named: name)?.name
    }
  }

  /// A family in the library and the files its faces come from.
  public struct Family: Sendable, Hashable {
    /// The family name as the first file naming it spells it. Untrusted: it comes from a font.
    public var name: String
    /// Absolute paths, sorted.
    public var files: [String]

    public init(name: String, files: [String]) {
      self.name = name
      self.files = files
    }
  }

  /// The library's families, sorted like the catalogue (names grouped case-insensitively), and
  /// a warning for every file in it that is not a usable font or cannot be reached (those are
  /// skipped everywhere).
  public func contents() -> (families: [Family], problems: [Diagnostic]) {
    var byKey: [String: Family] = [:]
    let search = search
    var problems = unreachable(in: search)
    for file in search.files {
      switch FontFiles.inspect(file) {
      case .success(let inspection):
        for name in inspection.families {
          let key = name.lowercased()
          if byKey[key] == nil { byKey[key] = Family(name: name, files: []) }
          if byKey[key]?.files.contains(file) == false { byKey[key]?.files.append(file) }
        }
      case .failure(let reason):
        problems.append(
          .warning("font file '\(file)' \(reason) (in the font library; skipped)"))
      }
    }
    let families = FontCatalog.sorted(
      byKey.values.map { Family(name: $0.name, files: $0.files.sorted()) }, by: \.name)
    return (families, problems)
  }

  /// The library family with this name, compared case-insensitively.
  public func family(named name: String, in families: [Family]) -> Family? {
    families.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
  }

  /// What happened to one file given to `importFiles`.
  public enum ImportOutcome: Sendable, Hashable {
    /// Copied in as `destination` (an absolute path in the library); `families` are the family
    /// names its faces have. `renamed` when a different file already had the name.
    case imported(source: String, destination: String, families: [String], renamed: Bool)
    /// The library already has a file with exactly these bytes; nothing was copied.
    case duplicate(source: String, existing: String, families: [String])
    /// Not imported, and why ("is empty (0 bytes)", "does not exist", …).
    case refused(source: String, reason: String)

    public var source: String {
      switch self {
      case .imported(let source, _, _, _), .duplicate(let source, _, _),
        .refused(let source, _):
        return source
      }
    }
  }

  /// Copies font files into the library (folders are searched recursively for font files). Each
  /// file is checked first (`FontFiles.inspect`: a real OpenType/TrueType font or collection, or
  /// a WOFF/WOFF2 web font of one, that FreeType reads) and checked again once copied; an exact duplicate of a library file is not
  /// copied; a different file with the same name is kept under a new name (`Name-2.ttf`), never
  /// overwritten. Copies appear atomically (temporary file, fsync, link), under the library's
  /// lock so that concurrent imports do not race. One bad file never stops the others.
  public func importFiles(_ sources: [String]) -> [ImportOutcome] {
    // Check everything before touching the library: refusals create nothing.
    var checked: [Result<FontFiles.Inspection, ImportFailure>] = []
    for source in sources {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
        checked.append(.failure(ImportFailure(source: source, reason: "does not exist")))
        continue
      }
      if isFolder.boolValue {
        let search = FontFiles.search(source)
        let found = search.files
        for problem in search.problems {
          checked.append(.failure(ImportFailure(source: problem.path, reason: problem.reason)))
        }
        if found.isEmpty && search.problems.isEmpty {
          checked.append(
            .failure(
              ImportFailure(
                source: source, reason: "holds no font file (\(FontFiles.extensionList))")))
        }
        for file in found { checked.append(FontLibrary.check(file)) }
      } else {
        checked.append(FontLibrary.check(source))
      }
    }
    guard checked.contains(where: { if case .success = $0 { true } else { false } }) else {
      return checked.map { result in
        switch result {
        case .success(let i): return .refused(source: i.path, reason: "was not checked")
        case .failure(let f): return .refused(source: f.source, reason: f.reason)
        }
      }
    }
    do {
      try FileSystem.createFolder(directory)
      return try FileLock.withExclusiveLock(lockPath) { () throws(Diagnostic) -> [ImportOutcome] in
        checked.map { result in
          switch result {
          case .success(let inspection): return copyIn(inspection)
          case .failure(let f): return .refused(source: f.source, reason: f.reason)
          }
        }
      }
    } catch {
      return checked.map { result in
        switch result {
        case .success(let i):
          return .refused(
            source: i.path, reason: "cannot be copied into the library: \(error.locatedMessage)")
        case .failure(let f): return .refused(source: f.source, reason: f.reason)
        }
      }
    }
  }

  /// A file that will not be imported, and why.
  struct ImportFailure: Error, Hashable {
    var source: String
    var reason: String
  }

  static func check(_ file: String) -> Result<FontFiles.Inspection, ImportFailure> {
    FontFiles.inspect(file).mapError { ImportFailure(source: file, reason: $0.description) }
  }

  /// The hidden lock file inside the library folder (no font scan picks it up).
  var lockPath: String { directory + "/.lock" }

  /// One checked file into the library; the lock is held.
  func copyIn(_ inspection: FontFiles.Inspection) -> ImportOutcome {
    let source = inspection.path
    let size = FontLibrary.size(of: source)
    for existing in files where FontLibrary.size(of: existing) == size {
      if FontLibrary.sameContents(source, existing) {
        return .duplicate(source: source, existing: existing, families: inspection.families)
      }
    }
    let name = FontLibrary.libraryName(for: source)
    let temporary: (fd: Int32, path: String)
    do {
      temporary = try AtomicFile.createTemporary(beside: directory + "/" + name)
    } catch {
      return .refused(source: source, reason: "cannot be copied: \(error.message)")
    }
    var closed = false
    defer {
      if !closed { close(temporary.fd) }
      unlink(temporary.path)  // after a link, the copy lives on under its final name
    }
    if let problem = FontLibrary.copy(source, to: temporary.fd) {
      return .refused(source: source, reason: "cannot be copied: \(problem)")
    }
    do {
      try AtomicFile.sync(temporary.fd, path: temporary.path)
    } catch {
      return .refused(source: source, reason: "cannot be copied: \(error.message)")
    }
    closed = true
    close(temporary.fd)
    // Check the copy too: the source may have changed since it was checked.
    if case .failure(let reason) = FontFiles.inspect(temporary.path) {
      return .refused(source: source, reason: reason.description)
    }
    let (stem, ext) = FontLibrary.split(name)
    for attempt in 1...1000 {
      let candidate = attempt == 1 ? name : "\(stem)-\(attempt).\(ext)"
      let destination = directory + "/" + candidate
      // Never over an existing name, even one another program writes meanwhile.
      switch FileSystem.link(temporary.path, toNew: destination) {
      case .placed:
        return .imported(
          source: source, destination: destination, families: inspection.families,
          renamed: attempt > 1)
      case .exists:
        continue
      case .failed(let code):
        return .refused(
          source: source,
          reason: "cannot be copied into the library: \(FileSystem.describe(code))")
      }
    }
    return .refused(source: source, reason: "cannot be copied: no free file name in the library")
  }

  /// The name a file gets in the library: its own, made safe (no leading dot, which would hide
  /// it from font scans; no control characters), ending in a font extension (one is added from
  /// the file's signature when missing).
  static func libraryName(for source: String) -> String {
    var name = String(
      FileSystem.name(of: source).unicodeScalars.map { scalar -> Character in
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2F, 0x202A...0x202E, 0x2066...0x2069: return "_"
        default: return Character(scalar)
        }
      })
    while name.hasPrefix(".") { name.removeFirst() }
    if name.isEmpty { name = "font" }
    let ext = (name as NSString).pathExtension.lowercased()
    if !FontFiles.extensions.contains(ext) {
      name += "." + signatureExtension(source)
    }
    return name
  }

  /// `ttc` for a collection, `otf` for CFF outlines, `woff` or `woff2` for a web font, else
  /// `ttf`.
  static func signatureExtension(_ path: String) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "ttf" }
    defer { try? handle.close() }
    let head = Array((try? handle.read(upToCount: 4)) ?? Data())
    switch SFNT.u32(head, 0) {
    case 0x7474_6366: return "ttc"
    case 0x4F54_544F: return "otf"
    case 0x774F_4646: return "woff"
    case 0x774F_4632: return "woff2"
    default: return "ttf"
    }
  }

  /// `Name-Bold.ttf` → (`Name-Bold`, `ttf`).
  static func split(_ name: String) -> (stem: String, ext: String) {
    let ns = name as NSString
    return (ns.deletingPathExtension, ns.pathExtension)
  }

  static func size(of path: String) -> Int64? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int64(info.st_size)
  }

  /// Byte-for-byte comparison, a megabyte at a time.
  static func sameContents(_ a: String, _ b: String) -> Bool {
    guard let ha = FileHandle(forReadingAtPath: a), let hb = FileHandle(forReadingAtPath: b) else {
      return false
    }
    defer {
      try? ha.close()
      try? hb.close()
    }
    while true {
      // read(upToCount:) gives nil (or empty data) at the end of the file.
      do {
        let da = try ha.read(upToCount: 1 << 20) ?? Data()
        let db = try hb.read(upToCount: 1 << 20) ?? Data()
        if da != db { return false }
        if da.isEmpty { return true }
      } catch {
        return false
      }
    }
  }

  /// Streams `source` into `fd`; nil on success, else what went wrong.
  static func copy(_ source: String, to fd: Int32) -> String? {
    guard let handle = FileHandle(forReadingAtPath: source) else { return "cannot be read" }
    defer { try? handle.close() }
    while true {
      let chunk: Data
      do {
        guard let next = try handle.read(upToCount: 1 << 20) else { return nil }
        chunk = next
      } catch {
        return "cannot be read"
      }
      if chunk.isEmpty { return nil }
      do {
        try FileSystem.writeAll(fd, chunk, path: source)
      } catch {
        return "the library cannot be written: \(error.message)"
      }
    }
  }

  /// Deletes the library files of these families (case-insensitively). Every name must be a
  /// library family (otherwise an error with close names), and a file that also holds another
  /// family (a collection) is only deleted when that family goes too. Any such error deletes
  /// nothing. Returns the families removed, with the files deleted.
  @discardableResult
  public func remove(families names: [String]) throws(DiagnosticError) -> [Family] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      throw DiagnosticError(
        names.map {
          .error(
            "family '\($0)' is not in the font library (it is empty)",
            hint: "'fonti-batch fonts import FILE' adds fonts to \(directory)")
        })
    }
    let outcome: Result<[Family], DiagnosticError>
    do {
      outcome = try FileLock.withExclusiveLock(lockPath) { removeLocked(names) }
    } catch {
      throw DiagnosticError(error)
    }
    return try outcome.get()
  }

  /// `remove(families:)` with the lock held.
  func removeLocked(_ names: [String]) -> Result<[Family], DiagnosticError> {
    let families = contents().families
    var errors: [Diagnostic] = []
    var chosen: [Family] = []
    for name in names {
      guard let family = family(named: name, in: families) else {
        var near = Suggest.closest(name, among: families.map(\.name))
        if near.isEmpty {
          let lower = name.lowercased()
          near = families.map(\.name).filter { $0.lowercased().hasPrefix(lower) }
            .prefix(3).map { $0 }
        }
        let tail =
          near.isEmpty
          ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: ", "))?)"
        errors.append(
          .error(
            "family '\(name)' is not in the font library\(tail)",
            hint: "'fonti-batch fonts list' shows the library's families; installed system "
              + "fonts are never removed"))
        continue
      }
      if !chosen.contains(family) { chosen.append(family) }
    }
    let going = Set(chosen.map { $0.name.lowercased() })
    for family in chosen {
      for file in family.files {
        let others = families.filter {
          $0.files.contains(file) && !going.contains($0.name.lowercased())
        }
        if !others.isEmpty {
          let sharing = others.map { "'\($0.name)'" }.joined(separator: ", ")
          errors.append(
            .error(
              "family '\(family.name)' cannot be removed alone: its file '\(file)' also holds "
                + sharing,
              hint: "remove them together: fonti-batch fonts remove '\(family.name)' "
                + others.map { "'\($0.name)'" }.joined(separator: " ")))
        }
      }
    }
    if !errors.isEmpty { return .failure(DiagnosticError(errors)) }
    var failures: [Diagnostic] = []
    var deleted = Set<String>()
    let root = FileSystem.realPath(directory) ?? directory
    for family in chosen {
      for file in family.files where !deleted.contains(file) {
        // Only a file in the library: never one reached through a link out of it.
        guard let folder = FileSystem.realPath(FileSystem.folder(of: file)),
          folder == root || folder.hasPrefix(root + "/")
        else {
          failures.append(.error("font file '\(file)' is outside the font library: not deleted"))
          continue
        }
        if unlink(file) == 0 || errno == ENOENT {
          deleted.insert(file)
        } else {
          failures.append(
            .error("font file '\(file)' cannot be deleted: \(FileSystem.describe(errno))"))
        }
      }
    }
    if !failures.isEmpty { return .failure(DiagnosticError(failures)) }
    return .success(chosen)
  }
}
