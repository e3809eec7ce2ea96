import FontiSupport

/// The names a run gives its own files and folders inside the output folder, which no path of
/// the job may take. The batch engine and `OutputLock` write under these very names.
public enum OutputLayout {
  /// The folder of the specimen PNGs, `specimens/<slug>.png`.
  public static let specimens = "specimens"
  /// The folder of the pairing sheets, `pairings/<heading>+<body>.png`.
  public static let pairings = "pairings"
  /// The run's manifest, written last.
  public static let runManifest = "manifest.json"
  /// The lock file that keeps two runs out of one output folder.
  public static let runLock = ".fonti-batch.lock"
  /// The web gallery's page (job `gallery`), written after the run's manifest.
  public static let gallery = "index.html"
  /// The folder of the gallery's thumbnails, `thumbs/<slug>.png`.
  public static let thumbs = "thumbs"
}

extension JobDecoder {
  /// One path the job writes inside the output folder, for the collision check.
  struct OutputPath {
    /// Normalised, relative to the output folder.
    var path: String
    /// How a message names it: "the catalogue 'a.pdf' (line 12)".
    var name: String
    /// A folder the run creates and fills (its files have names that depend on the fonts).
    var isFolder = false
    var mark: Mark?
  }

  /// Refuses any two outputs with one path, located at the later one: the favourites manifest
  /// against the catalogues and the run's own files and folders, catalogues against each other.
  ///
  /// Specimen and pairing-sheet names depend on the fonts installed when the job runs (a font
  /// installed later can take any slug), so the favourites manifest may not live in their
  /// folders at all: checking today's slugs would pass a job that loses the favourites tomorrow.
  mutating func checkOutputCollisions(_ job: Job) {
    var taken: [OutputPath] = [
      OutputPath(
        path: OutputLayout.runManifest, name: "the run's own manifest '\(OutputLayout.runManifest)'"
      ),
      OutputPath(path: OutputLayout.runLock, name: "the run's lock file '\(OutputLayout.runLock)'"),
      OutputPath(
        path: OutputLayout.specimens, name: "'\(OutputLayout.specimens)/', the specimens' folder",
        isFolder: true),
      OutputPath(
        path: OutputLayout.pairings,
        name: "'\(OutputLayout.pairings)/', the pairing sheets' folder",
        isFolder: true),
      OutputPath(path: OutputLayout.gallery, name: "the web gallery '\(OutputLayout.gallery)'"),
      OutputPath(
        path: OutputLayout.thumbs, name: "'\(OutputLayout.thumbs)/', the gallery's thumbnails",
        isFolder: true),
    ]
    for spec in job.catalogues where !spec.file.value.isEmpty {
      let mine = OutputPath(
        path: spec.file.value, name: "the catalogue '\(spec.file.value)'\(line(spec.file.mark))",
        mark: spec.file.mark)
      if let problem = collision(mine, with: taken) {
        error("catalogue file '\(spec.file.value)' \(problem)", at: spec.file.mark)
      }
      taken.append(mine)
    }
    // The default manifest (favourites.json) takes no catalogue's name: a catalogue ends in .pdf.
    let favourites = OutputPath(
      path: job.manifest.value, name: "the favourites manifest", mark: job.manifest.mark)
    if let problem = collision(favourites, with: taken) {
      error(
        "favourites manifest '\(job.manifest.value)' \(problem): the run would write one over "
          + "the other and the saved favourites would be lost", at: job.manifest.mark,
        hint: "give the favourites manifest a name of its own, e.g. 'favourites.json'")
    }
  }

  /// Why `path` cannot be written beside `taken`, or nil.
  func collision(_ mine: OutputPath, with taken: [OutputPath]) -> String? {
    for other in taken {
      if mine.path == other.path {
        return other.isFolder ? "is \(other.name)" : "is also \(other.name)"
      }
      if mine.path.hasPrefix(other.path + "/") {
        return other.isFolder
          ? "is inside \(other.name), where the run names files after the families"
          : "would need \(other.name) to be a folder"
      }
      if other.path.hasPrefix(mine.path + "/") {
        return "is a folder of \(other.name)"
      }
    }
    return nil
  }

  /// " (line 12)" for a catalogue written in the job; the one a job without `catalogues:` gets
  /// is " (the default catalogue)".
  func line(_ mark: Mark?) -> String {
    mark.map { " (line \($0.line))" } ?? " (the default catalogue)"
  }
}
