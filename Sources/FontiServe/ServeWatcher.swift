import FontiFonts
import FontiSupport
import Foundation

/// Follows the files `serve`'s snapshot was read from (GIO's monitors on their folders): the
/// job file, the favourites manifest, the folders of fonts. A change is read once it has
/// settled, on a thread of its own, and the reading comes back on the main loop (`reloaded`);
/// a change of the favourites only is `savedChanged`. Confined to the main loop but for that
/// thread, which only reads and posts back (hence `@unchecked Sendable`).
final class ServeWatcher: @unchecked Sendable {
  /// What a snapshot was read from.
  private struct Files {
    var job: String
    var favourites: String
    var fontFolders: Set<String>
  }

  private let options: LiveServer.Options
  private var files: Files
  private var monitors: FolderMonitors?
  private var debounce: UInt32 = 0
  private var savedDebounce: UInt32 = 0
  private var reloading = false
  private var reloadAgain = false
  private var fontsChanged = false
  /// A reading of the job and fonts, and whether a font file changed since the last one.
  private let reloaded: (Result<ServeSnapshot.Loaded, DiagnosticError>, Bool) -> Void
  private let savedChanged: () -> Void

  init(
    options: LiveServer.Options, jobPath: String,
    reloaded: @escaping (Result<ServeSnapshot.Loaded, DiagnosticError>, Bool) -> Void,
    savedChanged: @escaping () -> Void
  ) {
    self.options = options
    files = Files(job: jobPath, favourites: "", fontFolders: [])
    self.reloaded = reloaded
    self.savedChanged = savedChanged
  }

  /// Watches what `snapshot` was read from (folders made since included).
  func watch(_ snapshot: ServeSnapshot) {
    MainLoop.assertOnLoop()
    files.favourites = snapshot.favourites
    files.fontFolders = snapshot.fontFolders
    if monitors == nil { monitors = FolderMonitors { [unowned self] path in self.changed(path) } }
    watchFolders()
  }

  private func watchFolders() {
    var folders = files.fontFolders
    folders.insert(FileSystem.folder(of: files.job))
    folders.insert(FileSystem.folder(of: files.favourites))
    monitors?.watch(folders.filter { FileManager.default.fileExists(atPath: $0) })
  }

  static let fontExtensions: Set<String> = [
    "ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa", "afm", "pcf", "dfont",
  ]

  private func changed(_ path: String) {
    MainLoop.assertOnLoop()
    let favouritesFolder = FileSystem.folder(of: files.favourites)
    if path == favouritesFolder {
      // The output folder made (by a heart, a run, `saved add`): its manifest is watched from
      // now on, and read now, in case it was written before the watch began.
      watchFolders()
    }
    if path == files.favourites || path == favouritesFolder {
      MainLoop.remove(savedDebounce)
      savedDebounce = MainLoop.after(80) { [unowned self] in
        savedDebounce = 0
        savedChanged()
        return false
      }
      return
    }
    if path != files.job {
      // A font file, or a folder, in a folder of fonts: installed, removed, rebuilt.
      guard isFontChange(path) else { return }
      fontsChanged = true
    }
    MainLoop.remove(debounce)
    // A font builder writes its file in several steps: read it once it has settled.
    debounce = MainLoop.after(150) { [unowned self] in
      debounce = 0
      reload()
      return false
    }
  }

  /// A font file, or a folder, in a folder of fonts.
  private func isFontChange(_ path: String) -> Bool {
    guard files.fontFolders.contains(FileSystem.folder(of: path)) else { return false }
    let ext = (path as NSString).pathExtension.lowercased()
    var isFolder: ObjCBool = false
    return Self.fontExtensions.contains(ext)
      || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        && isFolder.boolValue)
  }

  private func reload() {
    guard !reloading else {
      reloadAgain = true
      return
    }
    reloading = true
    let fonts = fontsChanged
    fontsChanged = false
    let path = files.job
    let options = options
    Thread.detachNewThread { [weak self] in
      let result = Result { () throws(DiagnosticError) in
        try ServeSnapshot.load(
          path: path, library: options.library, configFile: options.configFile,
          reloadFonts: true)
      }
      let box = UncheckedBox(result)
      MainLoop.post { [weak self] in self?.finished(box.value, fonts: fonts) }
    }
  }

  private func finished(_ result: Result<ServeSnapshot.Loaded, DiagnosticError>, fonts: Bool) {
    MainLoop.assertOnLoop()
    reloading = false
    reloaded(result, fonts)
    if reloadAgain {
      reloadAgain = false
      reload()
    }
  }
}

/// A value handed from the loading thread to the main loop, which alone uses it from then on.
private struct UncheckedBox<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}
