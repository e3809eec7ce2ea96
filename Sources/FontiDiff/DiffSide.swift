import FontiFonts
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One side of a comparison (BEFORE or AFTER): its font files, each read on its own with
/// fontconfig (`FontFileQuery`, never installed, never matched) and grouped into families by
/// their first family name, case-insensitively like the rest of the tool.
public struct DiffSide: Sendable {
  public enum Role: String, Sendable {
    case before = "BEFORE"
    case after = "AFTER"

    /// "before" / "after", as diff.json and messages say it.
    public var word: String { rawValue.lowercased() }
  }

  public var role: Role
  /// The path as given on the command line.
  public var path: String
  /// Families by lower-cased name.
  var families: [String: SideFamily]
  /// Files that are not fonts and whose family name FreeType could not read either.
  public var unreadable: [DiffReport.UnreadableFile]

  /// The family names, as the side's files spell them.
  public var familyNames: [String] { families.values.map(\.name) }
}

/// A family on one side: its faces and the files of it that could not be read.
package struct SideFamily: Sendable, Codable, Hashable {
  var name: String
  var faces: [SideFace] = []
  /// "font file 'x' is truncated", for each of the family's files that failed.
  var problems: [String] = []
  /// Every file the family comes from (failed ones too), as shown in diff.json.
  var files: [String] = []
}

/// A face of a side: what fontconfig says of it, and where it is.
struct SideFace: Sendable, Hashable, Codable {
  var query: FontFileQuery.Face
  /// The file as found under the side's path (relative when that was).
  var file: String
  /// The file's path inside the side's folder (its name, for a single file): files at the
  /// same relative path on both sides are compared byte for byte first.
  var relativePath: String
  /// The file is byte for byte the same as the other side's at `relativePath`.
  var sameBytesAsOtherSide = false

  var style: String { query.style }
}

/// One font file to read, and what reading it gave.
struct SideFile: Sendable {
  var file: String
  var relativePath: String
}

extension DiffSide {
  /// Lists the font files of `path` (a file or a folder searched recursively), or the usage
  /// error that names what is wrong with it.
  static func files(at path: String, role: Role) -> Result<[SideFile], Diagnostic> {
    var info = stat()
    guard !path.isEmpty, stat(path, &info) == 0 else {
      return .failure(.error("\(role.rawValue) '\(path)' does not exist"))
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      let root = URL(fileURLWithPath: path).standardizedFileURL.path
      let shown = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
      let search = FontFiles.search(path)
      if let problem = search.problems.first {
        let more = search.problems.count - 1
        return .failure(
          .error(
            "\(role.rawValue) folder '\(path)': \(problem)"
              + (more > 0 ? " (and \(more) more like it)" : "")))
      }
      let files = search.files.map { found -> SideFile in
        let absolute = URL(fileURLWithPath: found).standardizedFileURL.path
        let relative =
          absolute.hasPrefix(root + "/")
          ? String(absolute.dropFirst(root.count + 1)) : FileSystem.name(of: absolute)
        return SideFile(file: shown + "/" + relative, relativePath: relative)
      }
      if files.isEmpty {
        return .failure(
          .error(
            "\(role.rawValue) folder '\(path)' holds no font file (\(FontFiles.extensionList))"))
      }
      return .success(files)
    case S_IFREG:
      if info.st_size == 0 {
        return .failure(.error("\(role.rawValue) '\(path)' is empty (0 bytes)"))
      }
      return .success([SideFile(file: path, relativePath: FileSystem.name(of: path))])
    default:
      return .failure(.error("\(role.rawValue) '\(path)' is not a file or a folder"))
    }
  }

  /// Reads both sides, files in parallel on up to `jobs` threads. A file of AFTER with the
  /// same bytes as BEFORE's file at the same relative path is not read twice. Usage errors
  /// (a side missing, empty, or holding no font at all) are all reported at once.
  public static func load(before: String, after: String, jobs: Int) throws(DiagnosticError) -> (
    before: DiffSide, after: DiffSide
  ) {
    let lists: [Result<[SideFile], Diagnostic>] = [
      files(at: before, role: .before), files(at: after, role: .after),
    ]
    if lists.contains(where: { if case .failure = $0 { return true } else { return false } }) {
      // Every problem at once: a side that was found is still checked for fonts.
      var errors: [Diagnostic] = []
      for (list, (path, role)) in zip(lists, [(before, Role.before), (after, Role.after)]) {
        switch list {
        case .failure(let error): errors.append(error)
        case .success(let files):
          let readings = BoundedPool.map(files, width: jobs) {
            FileReading.read(FontFileQuery.faces(of: $0.file))
          }
          if let problem = noFont(side(role: role, path: path, files: files, readings: readings)) {
            errors.append(problem)
          }
        }
      }
      throw DiagnosticError(errors)
    }
    var errors: [Diagnostic] = []
    let beforeFiles = (try? lists[0].get()) ?? []
    let afterFiles = (try? lists[1].get()) ?? []
    let beforeByPath = Dictionary(
      beforeFiles.enumerated().map { ($1.relativePath, $0) }, uniquingKeysWith: { a, _ in a })
    // Work items: every BEFORE file, then every AFTER file (which first checks its twin).
    let items =
      beforeFiles.map { ($0, nil as SideFile?) }
      + afterFiles.map { file in (file, beforeByPath[file.relativePath].map { beforeFiles[$0] }) }
    let results = BoundedPool.map(items, width: jobs) { item -> FileReading in
      let (file, twin) = item
      if let twin, FileBytes.same(twin.file, file.file) { return .sameAsTwin }
      return .read(FontFileQuery.faces(of: file.file))
    }
    let beforeReadings = Array(results.prefix(beforeFiles.count))
    var afterReadings = Array(results.dropFirst(beforeFiles.count))
    for (i, reading) in afterReadings.enumerated() {
      guard case .sameAsTwin = reading, let twin = beforeByPath[afterFiles[i].relativePath]
      else { continue }
      afterReadings[i] = .twin(beforeReadings[twin])
    }

    let sides = [
      side(role: .before, path: before, files: beforeFiles, readings: beforeReadings),
      side(role: .after, path: after, files: afterFiles, readings: afterReadings),
    ]
    errors += sides.compactMap(noFont)
    if !errors.isEmpty { throw DiagnosticError(errors) }
    return (sides[0], sides[1])
  }

  /// The usage error of a side in which no file is a font (not even a damaged one that names
  /// its family), or nil.
  static func noFont(_ side: DiffSide) -> Diagnostic? {
    guard side.families.isEmpty else { return nil }
    let what: String
    if side.unreadable.count == 1 {
      let only = side.unreadable[0]
      // The reading's error follows a file's name: "'x.ttf' is not a TrueType or OpenType font".
      what =
        only.file == side.path
        ? "'\(side.path)' \(only.error)"
        : "'\(side.path)' holds no font: '\(only.file)' \(only.error)"
    } else {
      what = "'\(side.path)' holds no font FreeType can read (\(side.unreadable.count) files tried)"
    }
    return .error("\(side.role.rawValue) \(what)")
  }

  /// What reading one file gave.
  indirect enum FileReading: Sendable {
    case read(Result<[FontFileQuery.Face], FontFileQuery.Failure>)
    /// The same bytes as the other side's file at the same relative path (not read again).
    case sameAsTwin
    /// As `sameAsTwin`, with the twin's reading.
    case twin(FileReading)
  }

  static func side(role: Role, path: String, files: [SideFile], readings: [FileReading])
    -> DiffSide
  {
    var families: [String: SideFamily] = [:]
    var unreadable: [DiffReport.UnreadableFile] = []
    func add(_ name: String, _ update: (inout SideFamily) -> Void) {
      var family = families[name.lowercased()] ?? SideFamily(name: name)
      update(&family)
      families[name.lowercased()] = family
    }
    for (file, reading) in zip(files, readings) {
      var result: Result<[FontFileQuery.Face], FontFileQuery.Failure>?
      var same = false
      switch reading {
      case .read(let r): result = r
      case .twin(.read(let r)):
        result = r
        same = true
      case .sameAsTwin, .twin: result = nil
      }
      guard let result else { continue }
      switch result {
      case .success(let faces):
        for face in faces {
          add(face.family) { family in
            family.faces.append(
              SideFace(
                query: face, file: file.file, relativePath: file.relativePath,
                sameBytesAsOtherSide: same))
            if !family.files.contains(file.file) { family.files.append(file.file) }
          }
        }
      case .failure(let failure):
        let message = "\(role.word): font file '\(file.file)' \(failure.reason)"
        if failure.families.isEmpty {
          unreadable.append(
            DiffReport.UnreadableFile(side: role.word, file: file.file, error: failure.reason))
        }
        for name in failure.families {
          add(name) { family in
            family.problems.append(message)
            if !family.files.contains(file.file) { family.files.append(file.file) }
          }
        }
      }
    }
    for key in families.keys {
      families[key]?.faces.sort { SideFace.order($0, $1) }
      families[key]?.files.sort()
    }
    return DiffSide(role: role, path: path, families: families, unreadable: unreadable)
  }
}

extension SideFace {
  /// Regular first (roman, weight nearest regular, normal width), then by file and index, so
  /// that the order never depends on the file system.
  static func order(_ a: SideFace, _ b: SideFace) -> Bool {
    func key(_ f: SideFace) -> (Int, Int, Int, String, Int) {
      let q = f.query
      return (
        q.slant == 0 ? 0 : 1, abs(q.weight - 80) <= 5 ? 0 : abs(q.weight - 80),
        abs(q.width - 100), f.relativePath, q.index
      )
    }
    return key(a) < key(b)
  }
}

/// Byte-for-byte comparison of two files, read in blocks.
enum FileBytes {
  static func same(_ a: String, _ b: String) -> Bool {
    var infoA = stat()
    var infoB = stat()
    guard stat(a, &infoA) == 0, stat(b, &infoB) == 0, infoA.st_size == infoB.st_size,
      infoA.st_mode & S_IFMT == S_IFREG, infoB.st_mode & S_IFMT == S_IFREG
    else { return false }
    let fa = open(a, O_RDONLY | O_CLOEXEC)
    guard fa >= 0 else { return false }
    defer { close(fa) }
    let fb = open(b, O_RDONLY | O_CLOEXEC)
    guard fb >= 0 else { return false }
    defer { close(fb) }
    let size = 1 << 16
    var bufferA = [UInt8](repeating: 0, count: size)
    var bufferB = [UInt8](repeating: 0, count: size)
    while true {
      let n = FileSystem.readFully(fa, &bufferA)
      let m = FileSystem.readFully(fb, &bufferB)
      guard n == m, n >= 0 else { return false }
      if n == 0 { return true }
      if memcmp(bufferA, bufferB, n) != 0 { return false }
    }
  }
}
