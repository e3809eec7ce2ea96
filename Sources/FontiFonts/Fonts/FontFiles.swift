import FontiSupport
import FontiText
import Foundation

/// Custom font files: finding them in folders and checking that each really is a font before
/// fontconfig or Pango ever sees it.
public enum FontFiles {
  /// The extensions searched for in folders, compared case-insensitively. WOFF and WOFF2 web
  /// fonts are decoded into the cache before fontconfig sees them (`WebFont`).
  public static let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2"]

  /// The extensions as messages name them: ".ttf, .otf, .ttc, .otc, .woff or .woff2".
  public static let extensionList = ".ttf, .otf, .ttc, .otc, .woff or .woff2"

  /// What a checked font file holds.
  public struct Inspection: Sendable, Hashable {
    public var path: String
    /// The family names of its faces (first name of each), in face order, without repeats.
    public var families: [String]
    public var faceCount: Int
  }

  /// Expands files and folders (folders recursively, `search`) into font files, sorted within
  /// each folder, and checks every file (a file reached twice, through links, once). Missing
  /// paths, unreadable files and files that are not fonts are errors located at the entry
  /// that named them.
  public static func expand(_ entries: [Located<String>], file: String?) -> (
    files: [Inspection], diagnostics: [Diagnostic]
  ) {
    var out: [Inspection] = []
    var diagnostics: [Diagnostic] = []
    var seen = Set<String>()
    for entry in entries {
      var info = stat()
      guard stat(entry.value, &info) == 0 else {
        let reason =
          errno == ENOENT || errno == ENOTDIR
          ? "does not exist" : "cannot be read (\(FileSystem.describe(errno)))"
        diagnostics.append(
          .error("font path '\(entry.value)' \(reason)", file: file, at: entry.mark))
        continue
      }
      let isDirectory = info.st_mode & S_IFMT == S_IFDIR
      let candidates: [String]
      if isDirectory {
        let search = search(entry.value)
        candidates = search.files
        for line in search.problemLines() {
          diagnostics.append(
            .error("font folder '\(entry.value)': \(line)", file: file, at: entry.mark))
        }
        if candidates.isEmpty && search.problems.isEmpty {
          diagnostics.append(
            .warning(
              "font folder '\(entry.value)' holds no font file (\(extensionList))",
              file: file, at: entry.mark))
        }
      } else {
        candidates = [entry.value]
      }
      for path in candidates {
        let canonical = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
          .path
        guard seen.insert(canonical).inserted else { continue }
        switch inspect(path) {
        case .success(let inspection): out.append(inspection)
        case .failure(let reason):
          diagnostics.append(.error("font file '\(path)' \(reason)", file: file, at: entry.mark))
        }
      }
    }
    return (out, diagnostics)
  }

  /// The most problems of one folder named one by one.
  static let problemsShown = 10

  /// What a search of a folder found.
  public struct FolderSearch: Sendable, Equatable {
    /// The font files, sorted by path.
    public var files: [String] = []
    /// What the search could not follow, in the order met.
    public var problems: [Problem] = []

    /// The problems as lines to show: the first `FontFiles.problemsShown`, then how many more
    /// (a folder such as / can hold thousands).
    public func problemLines() -> [String] {
      let shown = problems.prefix(FontFiles.problemsShown).map(\.description)
      let more = problems.count - shown.count
      return shown + (more > 0 ? ["\(more) more entr\(more == 1 ? "y" : "ies") like these"] : [])
    }

    /// A subfolder that cannot be read, a font file whose name is not UTF-8, or a link named
    /// as a font file that leads nowhere.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
      /// The path, with `\xNN` for each byte that is not UTF-8.
      public var path: String
      public var reason: String
      public var description: String { "'\(path)' \(reason)" }
    }
  }

  /// Searches `folder` recursively for files with one of `extensions` (compared without
  /// case), walking names as bytes (`opendir`/`readdir`). Hidden entries (a leading ".") are
  /// left out; symbolic links are followed, as fontconfig follows them (a folder reached twice,
  /// through a loop of links, is searched once). A font file whose path is not UTF-8, a link
  /// named as a font file that leads nowhere, or a subfolder that cannot be read, is a problem
  /// rather than a file silently missing from the run. Without `followingLinks`, links are
  /// left out: the user's font library, whose files `fonts remove` deletes, is searched so.
  public static func search(
    _ folder: String, extensions: Set<String> = FontFiles.extensions, followingLinks: Bool = true
  ) -> FolderSearch {
    var result = FolderSearch()
    var found: [String] = []
    var entered = Set<[UInt64]>()
    var pending: [[UInt8]] = [Array(folder.utf8)]
    func problem(_ path: [UInt8], _ reason: String) {
      result.problems.append(.init(path: FileSystem.display(path), reason: reason))
    }
    while let current = pending.popLast() {
      var here = stat()
      if FileSystem.withPath(current, { stat($0, &here) }) == 0 {
        guard entered.insert([UInt64(here.st_dev), UInt64(here.st_ino)]).inserted else {
          continue
        }
      }
      guard let listing = FileSystem.entries(of: current) else {
        problem(current, "cannot be read (\(FileSystem.describe(errno)))")
        continue
      }
      var below: [[UInt8]] = []
      for name in listing where name.first != UInt8(ascii: ".") {
        let path = current + (current.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]) + name
        let isFont =
          name.lastIndex(of: UInt8(ascii: ".")).flatMap {
            String(validating: name[($0 + 1)...], as: UTF8.self)
          }.map { extensions.contains($0.lowercased()) } ?? false
        var info = stat()
        guard FileSystem.withPath(path, { lstat($0, &info) }) == 0 else {
          // Gone meanwhile is no problem; a folder listed but not searchable (read without
          // execute permission) is, named once for all it holds.
          switch errno {
          case ENOENT: continue
          case EACCES, EPERM:
            problem(current, "cannot be searched (\(FileSystem.describe(errno)))")
            below = []
          default:
            problem(path, "cannot be read (\(FileSystem.describe(errno)))")
            continue
          }
          break
        }
        if info.st_mode & S_IFMT == S_IFLNK {
          guard followingLinks else { continue }
          guard FileSystem.withPath(path, { stat($0, &info) }) == 0 else {
            if isFont {
              problem(
                path,
                errno == ENOENT
                  ? "is a link to nothing"
                  : "is a link that cannot be followed (\(FileSystem.describe(errno)))")
            }
            continue
          }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: below.append(path)
        case S_IFREG where isFont:
          if let text = String(validating: path, as: UTF8.self) {
            found.append(text)
          } else {
            problem(path, "has a name that is not UTF-8: rename it")
          }
        default: continue
        }
      }
      // Depth first in name order, so problems are met in the order of the sorted files.
      pending += below.sorted { $0.lexicographicallyPrecedes($1) }.reversed()
    }
    result.files = found.sorted()
    return result
  }

  /// Why a file is not accepted as a font.
  public struct Refusal: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
  }

  /// Checks one file: readable, not empty, an OpenType/TrueType file or collection whose table
  /// directory lies inside the file (a WOFF or WOFF2 web font: its decoded copy, `WebFont`),
  /// and that FreeType (through fontconfig) reads at least one face from it. Nothing is
  /// registered.
  public static func inspect(_ path: String) -> Result<Inspection, Refusal> {
    if let refusal = checkContainer(path) { return .failure(refusal) }
    guard let query = Fontconfig.query(file: path, details: false) else {
      return .failure(Refusal("cannot be checked"))
    }
    if query.added == 0 || query.faces.isEmpty {
      return .failure(Refusal("is not a font FreeType can read"))
    }
    var families: [String] = []
    for face in query.faces {
      guard let name = face.family, !families.contains(name) else { continue }
      families.append(name)
    }
    if families.isEmpty { return .failure(Refusal("has no family name")) }
    return .success(Inspection(path: path, families: families, faceCount: query.faceCount))
  }
}

extension FontFiles {
  /// The first half of `inspect`: the file is readable, not empty, and an OpenType/TrueType
  /// file or collection whose table directory lies inside the file, or a WOFF or WOFF2 web
  /// font that decodes to one (into the cache, `WebFont.loadablePath(for:)`). nil when it is;
  /// fontconfig has not seen the file yet.
  static func checkContainer(_ path: String) -> Refusal? {
    // Opened without waiting (a pipe would wait for a writer for ever), then only a regular
    // file goes on: a pipe or a device is no font file, whatever it would give.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return Refusal("cannot be read") }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    var info = stat()
    guard fstat(fd, &info) == 0 else { return Refusal("cannot be read") }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: return Refusal("is a folder")
    default: return Refusal("is not a regular file (a pipe, a socket or a device)")
    }
    let size = (try? handle.seekToEnd()).map(Int.init) ?? 0
    if size == 0 { return Refusal("is empty (0 bytes)") }
    try? handle.seek(toOffset: 0)
    // The table directory of a collection can be large; 64 KiB covers any real one.
    let head = (try? handle.read(upToCount: 65536)) ?? Data()
    if WebFont.flavor(ofHead: head) != nil {
      do {
        let decoded = try WebFont.loadablePath(for: path)
        return decoded == path ? Refusal("cannot be read") : checkContainer(decoded)
      } catch {
        return Refusal(error.description)
      }
    }
    return SFNT.checkDirectory(Array(head), fileSize: size).map(Refusal.init)
  }
}

/// The few bytes of the OpenType container checked before FreeType sees a file, so that a
/// truncated download is refused at the door rather than failing later mid-render.
enum SFNT {
  static func u32(_ b: [UInt8], _ o: Int) -> UInt32? {
    guard o >= 0, o + 4 <= b.count else { return nil }
    return UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
  }

  static func u16(_ b: [UInt8], _ o: Int) -> Int? {
    guard o >= 0, o + 2 <= b.count else { return nil }
    return Int(b[o]) << 8 | Int(b[o + 1])
  }

  /// nil when the header and every table record fit in the file; otherwise why not.
  static func checkDirectory(_ b: [UInt8], fileSize: Int) -> String? {
    guard let tag = u32(b, 0) else { return "is too short to be a font" }
    switch tag {
    case 0x7474_6366:  // 'ttcf': a collection
      guard let n = u32(b, 8), n > 0, n < 10_000 else { return "is a damaged font collection" }
      for i in 0..<Int(n) {
        guard let offset = u32(b, 12 + 4 * i) else { return "is a damaged font collection" }
        if let problem = checkOffsetTable(b, at: Int(offset), fileSize: fileSize) {
          return problem
        }
      }
      return nil
    case 0x0001_0000, 0x4F54_544F, 0x7472_7565:  // TrueType, 'OTTO' (CFF), 'true'
      return checkOffsetTable(b, at: 0, fileSize: fileSize)
    case 0x774F_4646, 0x774F_4632:  // 'wOFF', 'wOF2': decoded first (`FontFiles.checkContainer`)
      return "is a web font, whose decoded copy is checked instead"
    default:
      return "is not a TrueType or OpenType font"
    }
  }

  static func checkOffsetTable(_ b: [UInt8], at base: Int, fileSize: Int) -> String? {
    guard base < fileSize else { return "is truncated (a face starts past the end of the file)" }
    guard base + 12 <= b.count, let n = u16(b, base + 4) else {
      // A directory beyond 64 KiB: let FreeType judge.
      return base + 12 > fileSize ? "is truncated" : nil
    }
    if n == 0 || n > 512 { return "has a damaged table directory" }
    for i in 0..<n {
      let record = base + 12 + 16 * i
      guard let offset = u32(b, record + 8), let length = u32(b, record + 12) else {
        return record + 16 > fileSize ? "is truncated" : nil
      }
      if UInt64(offset) + UInt64(length) > UInt64(fileSize) {
        return "is truncated (its tables run past the end of the file)"
      }
    }
    return nil
  }
}
