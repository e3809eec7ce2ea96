internal import CFontconfig
import FontiModel
import FontiSupport
import Foundation

/// fontconfig's patterns of font faces, found by file and face index: the configurations'
/// (read from fontconfig's caches when they were loaded) and, for custom fonts, which are in no
/// cache, what FreeType reads from each file the first time a face of it is asked for (at most
/// once per file and per `FacePatterns`, never all of them up front). `FontMaps` builds each
/// item's configuration from these, so that nothing is scanned again and no other font is in
/// it.
///
/// Not Sendable: it owns C objects. One per process (a worker's lives as long as the worker).
package final class FacePatterns {
  /// One face's pattern (an `FcPattern*` owned by a configuration or by a scan of this
  /// object), for `FontconfigConfiguration.holding`.
  struct Pattern {
    let pointer: OpaquePointer

    /// The pattern as fontconfig prints it (`FcNameUnparse`): a test hook.
    var text: String { FontconfigPattern.text(pointer) }

    /// Its place among every pattern this object knows (the configurations' fonts in their
    /// order, then scans): fontconfig breaks ties between equally good faces by that order, so
    /// a configuration made of some of them keeps it (`FontMaps`).
    let order: Int
  }

  private struct Key: Hashable {
    var file: String
    /// The face in the file (a collection's member), without the named instance.
    var face: Int
    var custom: Bool
  }

  /// Installed fonts (`custom` false) and custom fonts already registered (`custom` true), as
  /// configurations; kept alive as long as the patterns taken from them.
  private var configurations: [(FontconfigConfiguration, custom: Bool)]
  /// Custom font files this object may scan when asked, and has not yet.
  private var scannable: Set<String>
  /// The font sets of the scans made (`FcFreeTypeQueryAll`), freed with this object.
  private var scannedSets: [UnsafeMutablePointer<FcFontSet>] = []
  private var index: [Key: [Pattern]] = [:]
  private var indexed = false
  /// Patterns indexed so far.
  private var count = 0
  /// Custom files FreeType could not read, with the reason, so that asking again says so again.
  private var failedScans: [String: String] = [:]
  /// How many files FreeType has read for this object: a test hook.
  private(set) var scans = 0
  /// Installed fonts taken folder by folder (`init(installedFolders:)`); nil once every
  /// installed font is in `configurations`.
  private var folders: Folders?
  /// Configurations whose patterns were handed out and must outlive this object.
  private var retired: [FontconfigConfiguration] = []
  /// Loading every installed font failed once: not tried again.
  private var everyFolderFailed = false
  /// Raised each time every installed font is loaded and indexed again: patterns found before
  /// are not in one order with those found after (`FontMaps` then finds them again).
  private(set) var generation = 0

  /// A worker's installed fonts: a configuration with the system's rules and no font, to which
  /// each folder is added the first time a face of it is asked for, and each folder's place in
  /// fontconfig's order (the parent's `installedFolders()`).
  private struct Folders {
    let configuration: FontconfigConfiguration
    /// The configuration file it was parsed from (nil: the process's), loaded whole if a face
    /// is not where the parent saw it.
    let file: String?
    let rank: [String: Int]
    var added: Set<String> = []
  }

  /// `configurations`: where patterns are found; `customFiles`: custom font files that are in
  /// none of them, scanned lazily.
  package init(
    configurations: [(FontconfigConfiguration, custom: Bool)], customFiles: [String] = []
  ) {
    self.configurations = configurations
    self.scannable = Set(customFiles)
  }

  /// Installed fonts found folder by folder, from fontconfig's cache of each folder the first
  /// time one of its faces is asked for, with the rules of the configuration file `file` (nil:
  /// the process's; `FontconfigConfiguration.rulesOnly(file:)`); `installedFolders`: the
  /// parent's `installedFolders()`, in fontconfig's order, which the patterns keep. So a worker
  /// maps and reads the caches of the fonts it draws, not of every installed font. Should a
  /// face not be where the parent saw it, every installed font is loaded, as
  /// `init(configurations:)` has them.
  package init(
    configurationFile file: String? = nil, installedFolders folders: [String],
    customFiles: [String]
  ) throws(Diagnostic) {
    self.configurations = []
    self.scannable = Set(customFiles)
    self.folders = Folders(
      configuration: try .rulesOnly(file: file), file: file,
      rank: Dictionary(folders.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }))
  }

  /// The folder of a font file, as fontconfig names it: everything before the last slash.
  static func folder(of file: String) -> String {
    guard let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return slash == file.utf8.startIndex ? "/" : String(file[..<slash])
  }

  /// Whether patterns are still taken folder by folder: a test hook.
  var byFolder: Bool { folders != nil }

  deinit { for set in scannedSets { FcFontSetDestroy(set) } }

  /// Why a face's pattern cannot be had.
  struct Missing: Error, CustomStringConvertible {
    var description: String
  }

  /// The patterns of `face` of `family` (`custom`: a custom font): the face itself, and for a
  /// named instance of a variable font the variable font's own pattern too (Pango matches
  /// among them as it does among the installed fonts). Only patterns whose family is `family`:
  /// a collection's other families stay out.
  func patterns(of face: FontFace, family: String, custom: Bool) throws(Missing) -> [Pattern] {
    let key = Key(file: face.file, face: face.index & 0xFFFF, custom: custom)
    buildIndex()
    if custom && scannable.contains(face.file) { scan(face.file, family: family) }
    if !custom { addFolder(of: face.file) }
    if custom, let failure = failedScans[face.file] { throw Missing(description: failure) }
    let name = family.lowercased()
    let found = (index[key] ?? []).filter {
      FontconfigPattern.familyName($0.pointer)?.lowercased() == name
    }
    guard !found.isEmpty else {
      // Not where the parent saw it: look among every installed font before giving up.
      if !custom && folders != nil && loadEveryFolder() {
        return try patterns(of: face, family: family, custom: custom)
      }
      let exists = access(face.file, F_OK) == 0
      throw Missing(
        description: exists
          ? "font file '\(face.file)' of family '\(family)' no longer holds that family "
            + "(face \(face.index)); was it replaced since the fonts were listed?"
          : "font file '\(face.file)' of family '\(family)' is gone (removed since the fonts "
            + "were listed)")
    }
    guard access(face.file, R_OK) == 0 else {
      let reason = String(cString: strerror(errno))
      throw Missing(
        description: "font file '\(face.file)' of family '\(family)' cannot be read: \(reason)")
    }
    return found
  }

  private func buildIndex() {
    guard !indexed else { return }
    indexed = true
    for (configuration, custom) in configurations {
      for p in configuration.patterns { add(p, custom: custom) }
    }
  }

  /// Indexes `p`. `rank`: its folder's place in fontconfig's order, when installed fonts are
  /// taken folder by folder; the patterns of a folder keep the order they were added in.
  private func add(_ p: OpaquePointer, custom: Bool, rank: Int? = nil) {
    guard let file = FontconfigPattern.file(p) else { return }
    let face = (FontconfigPattern.int(p, FC_INDEX) ?? 0) & 0xFFFF
    // Custom fonts after the installed ones, as when every installed font is indexed first.
    let order =
      rank.map { $0 << 32 + count } ?? (custom && folders != nil ? 1 << 62 + count : count)
    index[Key(file: file, face: face, custom: custom), default: []].append(
      Pattern(pointer: p, order: order))
    count += 1
  }

  /// Adds the installed fonts of `file`'s folder, once (see `init(installedFolders:)`). A folder
  /// the parent did not see, or that fontconfig cannot add, means the fonts changed since: every
  /// installed font is loaded instead.
  private func addFolder(of file: String) {
    guard var f = folders else { return }
    let folder = FacePatterns.folder(of: file)
    guard !f.added.contains(folder) else { return }
    guard f.rank[folder] != nil, let added = f.configuration.addFolder(folder) else {
      _ = loadEveryFolder()
      return
    }
    // Subfolders come along; a subfolder added before is not indexed twice.
    let before = f.added
    var found: [(OpaquePointer, rank: Int)] = []
    for p in added {
      let own = FontconfigPattern.string(p, FC_FILE).map(FacePatterns.folder(of:)) ?? folder
      guard !before.contains(own) else { continue }
      guard let rank = f.rank[own] else {
        _ = loadEveryFolder()
        return
      }
      found.append((p, rank))
      f.added.insert(own)
    }
    f.added.insert(folder)
    folders = f
    for (p, rank) in found { add(p, custom: false, rank: rank) }
  }

  /// Leaves the folder-by-folder way: loads every installed font (as `init(configurations:)`
  /// would have them) and indexes everything again. The folder configuration lives on: its
  /// patterns may be held. False when fontconfig cannot load its configuration.
  private func loadEveryFolder() -> Bool {
    guard let f = folders, !everyFolderFailed else { return false }
    guard let all = try? FontconfigConfiguration.loaded(file: f.file) else {
      everyFolderFailed = true  // folder by folder it stays, for the faces that are in place
      return false
    }
    folders = nil
    generation += 1
    retired.append(f.configuration)
    configurations.insert((all, custom: false), at: 0)
    index = [:]
    count = 0
    indexed = false
    buildIndex()
    for set in scannedSets {
      for i in 0..<Int(set.pointee.nfont) {
        if let p = set.pointee.fonts[i] { add(p, custom: true) }
      }
    }
    return true
  }

  /// Reads `file` through FreeType once (`FcFreeTypeQueryAll`) and indexes its patterns; a
  /// file FreeType cannot read is remembered in `failedScans`.
  private func scan(_ file: String, family: String) {
    scannable.remove(file)
    scans += 1
    var count: Int32 = 0
    guard let set = FcFontSetCreate() else {
      failedScans[file] = "fontconfig: out of memory"
      return
    }
    let loadable: String
    do { loadable = try WebFont.loadablePath(for: file) } catch {
      FcFontSetDestroy(set)
      failedScans[file] = "font file '\(file)' of family '\(family)' \(error.description)"
      return
    }
    guard FcFreeTypeQueryAll(loadable, UInt32.max, nil, &count, set) > 0 else {
      FcFontSetDestroy(set)
      failedScans[file] =
        access(file, F_OK) == 0
        ? "font file '\(file)' of family '\(family)' cannot be read by FreeType"
        : "font file '\(file)' of family '\(family)' is gone (removed since the fonts were "
          + "listed)"
      return
    }
    scannedSets.append(set)
    for i in 0..<Int(set.pointee.nfont) {
      if let p = set.pointee.fonts[i] { add(p, custom: true) }
    }
  }
}
