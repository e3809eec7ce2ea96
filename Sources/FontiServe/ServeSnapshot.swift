import FontiDraw
import FontiEngine
import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// What `serve` serves, read once from the job file and the fonts: the job, its families (with
/// their slugs and versions), what a worker needs to draw them, and what to watch for changes.
/// Made on a thread of its own, then handed to the main loop whole; a job that no longer
/// validates leaves the previous snapshot served.
struct ServeSnapshot: Sendable {
  var job: Job
  /// Selected families, sorted by name, with their slugs (unique, as a run's).
  var families: [FontFamily]
  var slugs: [String]
  var bySlug: [String: FontFamily]
  /// Per slug: changes when the family's files (or its partners') change.
  var versions: [String: String]
  /// The curated partners drawn along the bottom of a card, as `render` draws them.
  var partners: [String: [FontFamily]]
  /// The job's warnings, per the family each names first.
  var warnings: [String: [String]]
  var setup: WorkerSetup
  /// Folders whose changes may change the fonts: installed fonts' folders and custom fonts'.
  var fontFolders: Set<String>
  /// The favourites manifest's path.
  var favourites: String
  /// SHA-256 of the job file's bytes: what proof pages are drawn from beyond the fonts.
  var jobHash: String

  /// A snapshot and the job's warnings.
  struct Loaded: Sendable {
    var snapshot: ServeSnapshot
    var warnings: [Diagnostic]
    /// fontconfig read its folders again (something in them changed).
    var fontsReloaded = false
  }

  /// Loads the job at `path` and its fonts (after fontconfig has looked at its folders again,
  /// with `reloadFonts`: it reads them again only when one changed). Throws every problem at
  /// once, located.
  static func load(
    path: String, library: FontLibrary?, configFile: String?, reloadFonts: Bool
  ) throws(DiagnosticError) -> Loaded {
    let reloaded = reloadFonts && FontconfigConfiguration.reloadCurrentIfChanged()
    let resolved = try ResolvedJob.load(path: path, library: library, configFile: configFile)
    let families = resolved.families.filter(\.isRenderable)
    let slugs = Slug.unique(families.map(\.name))
    let label = resolved.catalog.labelFamily
    let (partners, versions) = cardVersions(
      families, slugs: slugs, label: label, resolved: resolved)
    let environment = resolved.environment
    let snapshot = ServeSnapshot(
      job: resolved.job, families: families, slugs: slugs,
      bySlug: Dictionary(zip(slugs, families), uniquingKeysWith: { a, _ in a }),
      versions: versions, partners: partners, warnings: warningsByFamily(resolved.warnings),
      setup: WorkerSetup(
        customFonts: environment.customFiles,
        labelFamily: label.map(FamilyRef.init),
        boxDigitsFace: environment.boxDigitsFace,
        installedFolders: environment.workerFolders),
      fontFolders: fontFolders(resolved),
      favourites: FavouritesStore(job: resolved.job).path,
      jobHash: SHA256.hex(resolved.job.bytes ?? []))
    return Loaded(snapshot: snapshot, warnings: resolved.warnings, fontsReloaded: reloaded)
  }

  /// Each family's curated partners, and its version: a hash of what its card shows beyond
  /// the query (the job's defaults, the label face `label`), its files and its partners'
  /// (path, size, time) among it.
  private static func cardVersions(
    _ families: [FontFamily], slugs: [String], label: FontFamily?, resolved: ResolvedJob
  ) -> (partners: [String: [FontFamily]], versions: [String: String]) {
    let catalog = resolved.catalog
    var partners: [String: [FontFamily]] = [:]
    var versions: [String: String] = [:]
    // What a card shows beyond its family's files: the job's defaults (a query leaves them
    // out) and the label face, so a card's address changes whenever its picture may.
    let job = resolved.job
    // A family's files are stamped once, though it is also a partner of others.
    var stamps: [String: [String]] = [:]
    func stamp(_ f: FontFamily) -> [String] {
      if let known = stamps[f.name] { return known }
      let made = [f.name] + f.files.map(FileStamp.stamp)
      stamps[f.name] = made
      return made
    }
    let shared =
      [
        job.defaults.text, ProofNumber.format(job.defaults.size), job.defaults.theme.rawValue,
        job.defaults.sample.language ?? "",
        job.defaults.sample.variations.map(\.description).joined(separator: ","),
        job.defaults.sample.features.map(\.description).joined(separator: ","),
        "\(job.png.scale)",
      ] + (label.map(stamp) ?? [])
    for (family, slug) in zip(families, slugs) {
      let strip = PairingMap.curated.strip(for: family.name, catalog: catalog)
      partners[family.name] = strip
      let parts = shared + ([family] + strip).flatMap(stamp)
      versions[slug] = String(SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8)).prefix(12))
    }
    return (partners, versions)
  }

  /// The job's warnings, per the family each names first.
  private static func warningsByFamily(_ diagnostics: [Diagnostic]) -> [String: [String]] {
    var warnings: [String: [String]] = [:]
    for d in diagnostics where d.severity == .warning {
      if let name = d.namedFamily { warnings[name, default: []].append(d.message) }
    }
    return warnings
  }

  /// Folders whose changes may change the fonts: the installed fonts' folders, the custom
  /// fonts' and the folders the job's `fonts:` names.
  private static func fontFolders(_ resolved: ResolvedJob) -> Set<String> {
    let environment = resolved.environment
    var folders = Set(
      (environment.workerFolders ?? []) + environment.customFiles.map { FileSystem.folder(of: $0) })
    for entry in resolved.job.fonts {
      let absolute = JobPath.resolve(entry.value, against: resolved.job.directory)
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder),
        isFolder.boolValue
      {
        folders.insert(absolute)
      }
    }
    return folders
  }

  /// The slugs whose cards differ between `old` and this snapshot (new, gone or changed).
  func changed(since old: ServeSnapshot) -> [String] {
    var out: [String] = []
    for slug in slugs where old.versions[slug] != versions[slug] { out.append(slug) }
    for slug in old.slugs where versions[slug] == nil { out.append(slug) }
    return out
  }
}
