import FontiModel
import FontiSupport
import Foundation

/// `favourites.json` on disk: user data that is never lost or corrupted.
///
/// Reads need no lock (the file is only ever replaced whole, by rename). Every change is a
/// read-modify-write under an exclusive `flock` on a hidden lock file beside the manifest
/// (`.favourites.json.lock`), written to a temporary file in the same folder, flushed and
/// renamed into place: concurrent `saved add` processes all land, and a killed process leaves
/// the old file or the new one. A file that cannot be read or is not a version-1 favourites
/// manifest makes every operation throw a `Diagnostic` naming it, and is never modified.
public struct FavouritesStore: Sendable {
  /// The manifest's path, as the user named it (used in messages).
  public var path: String
  /// How a change waits while another process holds the lock; nil blocks until it is free.
  public var waiting: FileLock.Waiting?
  /// The output folder the manifest lies in (a job's, when its `favourites.manifest` stays
  /// inside it), nil for a manifest elsewhere. A link inside the output folder on the way to
  /// the manifest, or under its name or its lock file's, is refused: the run would write
  /// through it. A manifest elsewhere is the user's own path, and links there are followed.
  public var outputFolder: String?

  /// A manifest larger than this is not one this tool wrote (about 100,000 entries).
  static let sizeLimit = 16 << 20

  public init(path: String, waiting: FileLock.Waiting? = nil) {
    self.path = path
    self.waiting = waiting
  }

  /// The manifest of a job: `favourites.manifest` inside the job's output folder.
  public init(job: Job, waiting: FileLock.Waiting? = nil) {
    let output = job.output.hasSuffix("/") ? String(job.output.dropLast()) : job.output
    self.init(path: output + "/" + job.manifest.value, waiting: waiting)
    var depth = 0
    for part in job.manifest.value.split(separator: "/") where part != "." {
      depth += part == ".." ? -1 : 1
      if depth < 0 { return }
    }
    outputFolder = output
  }

  /// The manifest the `saved` commands use without `--manifest` when there is no
  /// ./specimens.yaml, or when it cannot tell its own.
  public static let fallbackPath = "output/favourites.json"

  /// The favourites manifest the `saved` commands use without `--manifest`: the one of the job
  /// at `job` (its `output` + `favourites.manifest`), else `fallbackPath`. Only those two keys
  /// are read, tolerantly: a typo elsewhere in the job must not stop `saved`. When even they
  /// cannot be read, the warning says so and which manifest is used instead.
  public static func defaultPath(job: String = "specimens.yaml") -> (
    path: String, warning: Diagnostic?
  ) {
    guard FileManager.default.fileExists(atPath: job) else { return (fallbackPath, nil) }
    let (path, problem) = JobDecoder.favouritesManifest(ofJobAt: job)
    if let path { return (path, nil) }
    var warning = problem ?? .error("cannot be read", file: job)
    warning.severity = .warning
    warning.hint =
      "the saved commands cannot tell its favourites manifest, so they use "
      + "\(fallbackPath); pass --manifest FILE to choose"
    return (fallbackPath, warning)
  }

  /// The lock file beside the manifest: `.NAME.lock` in the same folder.
  public var lockPath: String {
    let target = outputFolder == nil ? FileSystem.resolvingLink(path) : path
    return FileSystem.folder(of: target) + "/." + FileSystem.name(of: target) + ".lock"
  }

  // MARK: Reading

  /// The manifest; an empty one when the file does not exist. Throws (and touches nothing) when
  /// it cannot be read, is empty, truncated, not JSON, not a favourites manifest, or newer.
  public func load() throws(Diagnostic) -> FavouritesManifest {
    try refuseLinks()
    guard let data = try AtomicFile.read(path, limit: FavouritesStore.sizeLimit) else {
      return FavouritesManifest()
    }
    return try FavouritesManifest.decode(data, file: path)
  }

  /// The favourites manifest of `job`'s run (`check`, `run`). A file that cannot be used is
  /// reported twice: where it is wrong (line and column in the JSON when they can be found),
  /// and at the job's `favourites.manifest` (the job file when the key is left out), so that the
  /// user sees which job points at it.
  public func load(for job: Job) throws(DiagnosticError) -> FavouritesManifest {
    do {
      return try load()
    } catch {
      let mark = job.manifest.mark
      let pointer = Diagnostic(
        .error,
        "this job's favourites manifest '\(path)' cannot be used (see above); a run would stop "
          + "before rendering anything", file: job.path, mark: mark,
        snippet: mark.flatMap { job.source?.line($0.line) })
      throw DiagnosticError([error, pointer])
    }
  }

  /// The saved entries, most recent first.
  public func entries() throws(Diagnostic) -> [FavouritesManifest.Entry] {
    try load().saved
  }

  /// Whether `family` is saved, compared case-insensitively.
  public func isSaved(_ family: String) throws(Diagnostic) -> Bool {
    try load().isSaved(family)
  }

  // MARK: Changing

  /// Read-modify-write under the lock. `body` changes the manifest; the file is replaced only
  /// when the manifest changed. `body` first runs on a snapshot read without the lock: when it
  /// changes nothing (re-adding a saved family, removing one that is not saved), nothing is
  /// locked, created or written, so no-ops also work where the folder is read-only. Otherwise it
  /// runs again under the lock; keep it free of side effects.
  public func update<T>(
    _ body: (inout FavouritesManifest) throws(Diagnostic) -> T
  ) throws(Diagnostic) -> T {
    let quick = try onSnapshot(body)
    if !quick.changes { return quick.result }
    return try locked { () throws(Diagnostic) -> T in try change(body) }
  }

  /// `update`, only if no other process holds the lock at this moment: nil (and nothing
  /// changed) when one does. Never waits, and an interruption does not stop it: a run that was
  /// interrupted still hearts the job's favourites, unless that would mean waiting.
  public func updateIfFree<T>(
    _ body: (inout FavouritesManifest) throws(Diagnostic) -> T
  ) throws(Diagnostic) -> T? {
    let quick = try onSnapshot(body)
    if !quick.changes { return quick.result }
    try prepareFolder()
    switch FileLock.attempt(lockPath) {
    case .success(let lock?):
      defer { withExtendedLifetime(lock) {} }
      return try change(body)
    case .success(nil):
      return nil
    case .failure(let error):
      throw .error("cannot be locked: \(FileSystem.describe(error.code))", file: lockPath)
    }
  }

  /// The manifest once no other process is changing it: waits for the lock as a change would
  /// (saying so, and ending at once on an interruption), reads, and lets the lock go. A run
  /// that will heart families draws its hearts from this before it renders anything, and
  /// writes the manifest once, after its own manifest.
  public func settled(for job: Job) throws(DiagnosticError) -> FavouritesManifest {
    do {
      return try locked { () throws(Diagnostic) -> FavouritesManifest in try load() }
    } catch {
      throw DiagnosticError(error)
    }
  }

  /// `body` run on a snapshot read without the lock: its result, and whether it changes the
  /// manifest (when it does not, nothing needs the lock).
  private func onSnapshot<T>(
    _ body: (inout FavouritesManifest) throws(Diagnostic) -> T
  ) throws(Diagnostic) -> (changes: Bool, result: T) {
    var snapshot = try load()
    let unchanged = snapshot
    let result = try body(&snapshot)
    return (snapshot != unchanged, result)
  }

  /// Read, change, write when changed; the caller holds the lock.
  private func change<T>(
    _ body: (inout FavouritesManifest) throws(Diagnostic) -> T
  ) throws(Diagnostic) -> T {
    var manifest = try load()
    let before = manifest
    let result = try body(&manifest)
    if manifest != before {
      try AtomicFile.write(manifest.encoded(), to: path)
    }
    return result
  }

  /// Runs `body` holding the manifest's lock, waiting for it as `waiting` says.
  private func locked<T>(_ body: () throws(Diagnostic) -> T) throws(Diagnostic) -> T {
    try prepareFolder()
    return try FileLock.withExclusiveLock(
      lockPath, waiting: waiting,
      holder: "another fonti-batch process is changing the favourites manifest '\(path)'",
      body)
  }

  /// Refuses a manifest inside the output folder that a link leads to (see `outputFolder`).
  private func refuseLinks() throws(Diagnostic) {
    guard let outputFolder else { return }
    let manifest = FileSystem.firstLink(in: path, below: outputFolder)
    guard let link = manifest ?? FileSystem.firstLink(in: lockPath, below: outputFolder) else {
      return
    }
    throw .error(
      "'\(link)' is a symbolic link: fonti-batch never reads or writes the favourites manifest "
        + "through a link inside the output folder", file: path,
      hint: "set favourites.manifest to the file the link points to (a manifest outside the "
        + "output folder is the user's own path, and links there are followed), or remove it")
  }

  /// The manifest's folder, created when missing: the lock file goes there.
  private func prepareFolder() throws(Diagnostic) {
    let folder = FileSystem.folder(
      of: outputFolder == nil ? FileSystem.resolvingLink(path) : path)
    var isFolder: ObjCBool = false
    if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
      try FileSystem.createFolder(folder)
    } else if !isFolder.boolValue {
      throw .error("cannot be written: '\(folder)' is not a folder", file: path)
    }
  }

  /// What `add` did.
  public struct AddResult: Sendable, Hashable {
    /// Entries saved by this call, in the order given.
    public var added: [FavouritesManifest.Entry]
    /// Entries that were saved already (after the update), in the order given.
    public var alreadySaved: [FavouritesManifest.Entry]
    /// The manifest as written.
    public var manifest: FavouritesManifest
  }

  /// Saves families (idempotent: one already saved keeps its first `savedAt` and its place).
  /// Names should be the catalogue's spelling: the caller checks they exist.
  @discardableResult
  public func add(
    _ additions: [FavouritesManifest.Addition], now: Date = Timestamp.now()
  ) throws(Diagnostic) -> AddResult {
    try update { manifest in
      let fresh = manifest.add(additions, at: now)
      let freshKeys = Set(fresh.map { FavouritesManifest.key($0.family) })
      var seen = Set<String>()
      var already: [FavouritesManifest.Entry] = []
      for addition in additions {
        let key = FavouritesManifest.key(addition.family)
        guard !freshKeys.contains(key), seen.insert(key).inserted,
          let entry = manifest.entry(for: addition.family)
        else { continue }
        already.append(entry)
      }
      return AddResult(added: fresh, alreadySaved: already, manifest: manifest)
    }
  }

  /// Saves catalogue families with their own spelling and custom flag; `specimen` is the same
  /// for each family and is meant for a single one.
  @discardableResult
  public func add(
    families: [FontFamily], specimen: String? = nil, now: Date = Timestamp.now()
  ) throws(Diagnostic) -> AddResult {
    try add(families.map { FavouritesManifest.Addition($0, specimen: specimen) }, now: now)
  }

  /// Saves families by name, all with the same `custom` flag (and `specimen`, meant for a single
  /// family). Names should be spelled as the font catalogue spells them.
  @discardableResult
  public func add(
    families: [String], custom: Bool = false, specimen: String? = nil,
    now: Date = Timestamp.now()
  ) throws(Diagnostic) -> AddResult {
    try add(
      families.map {
        FavouritesManifest.Addition(family: $0, custom: custom, specimen: specimen)
      }, now: now)
  }

  /// Removes families (case-insensitively); returns the entries removed. Names that are not
  /// saved are skipped: the caller may warn about them.
  @discardableResult
  public func remove(_ families: [String]) throws(Diagnostic) -> [FavouritesManifest.Entry] {
    try update { manifest in manifest.remove(families) }
  }

  /// Empties the list (the file stays, with no entries); returns how many were removed.
  @discardableResult
  public func clear() throws(Diagnostic) -> Int {
    try update { manifest in manifest.removeAll() }
  }

  /// For `run`: hearts the job's `favourites.save` families (resolved in the font catalogue)
  /// and records the specimen paths of this run (family name → path relative to the output
  /// folder) on every saved family that has one. Returns the manifest to draw hearts and the
  /// Saved section from. For `--dry-run`, apply the same change to `load()` in memory instead.
  @discardableResult
  public func heart(
    _ families: [FontFamily], specimens: [String: String] = [:], now: Date = Timestamp.now()
  ) throws(Diagnostic) -> FavouritesManifest {
    try update { manifest in
      FavouritesStore.heart(&manifest, families, specimens: specimens, now: now)
      return manifest
    }
  }

  /// The change `heart` makes, on a manifest in memory.
  public static func heart(
    _ manifest: inout FavouritesManifest, _ families: [FontFamily], specimens: [String: String],
    now: Date
  ) {
    if !families.isEmpty {
      let lowered = Dictionary(
        specimens.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
      manifest.add(
        families.map { FavouritesManifest.Addition($0, specimen: lowered[$0.name.lowercased()]) },
        at: now)
    }
    manifest.setSpecimens(specimens)
  }
}
