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
  /// Per slug: the stamps of the family's files and its partners', for its cards' keys.
  var cardStamps: [String: [String]]
  /// The label face's stamp, for the cards' keys.
  var labelStamp: String
  /// The job's warnings and the sample's coverage warnings, per the family each names first.
  var warnings: [String: [String]]
  var setup: WorkerSetup
  /// Folders whose changes may change the fonts: installed fonts' folders and custom fonts'.
  var fontFolders: Set<String>
  /// The favourites manifest's path.
  var favourites: String
  /// SHA-256 of the job file's bytes: what proof pages are drawn from beyond the fonts.
  var jobHash: String

  /// What identifies the families' cards (`cardVersions`).
  struct CardIdentities {
    var label: String
    var partners: [String: [FontFamily]] = [:]
    var stamps: [String: [String]] = [:]
    var versions: [String: String] = [:]
  }

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
    let cards = cardVersions(families, slugs: slugs, label: label, resolved: resolved)
    let environment = resolved.environment
    let snapshot = ServeSnapshot(
      job: resolved.job, families: families, slugs: slugs,
      bySlug: Dictionary(zip(slugs, families), uniquingKeysWith: { a, _ in a }),
      versions: cards.versions, partners: cards.partners, cardStamps: cards.stamps,
      labelStamp: cards.label,
      warnings: warningsByFamily(
        resolved.warnings
          + SampleCoverageCheck.warnings(
            text: resolved.job.defaults.text, language: resolved.job.defaults.sample.language,
            families: families) + faceCoverage(families, job: resolved.job)),
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

  /// Each family's curated partners, and what identifies its cards: the stamps of its files
  /// and its partners' (path, size, time), and its version, the fingerprint of the card the
  /// job's defaults draw (`SpecimenFingerprint`), which changes whenever that picture may.
  private static func cardVersions(
    _ families: [FontFamily], slugs: [String], label: FontFamily?, resolved: ResolvedJob
  ) -> CardIdentities {
    let job = resolved.job
    var cards = CardIdentities(
      label: label.map { BatchPlan.familyStamp($0, stamp: FileStamp.stamp) } ?? "none")
    // A family's files are stamped once, though it is also a partner of others.
    var stamps: [String: String] = [:]
    func stamp(_ f: FontFamily) -> String {
      if let known = stamps[f.name] { return known }
      let made = BatchPlan.familyStamp(f, stamp: FileStamp.stamp)
      stamps[f.name] = made
      return made
    }
    let sample = job.defaults.sample.isEmpty ? nil : job.defaults.sample
    for (family, slug) in zip(families, slugs) {
      let strip = PairingMap.curated.strip(for: family.name, catalog: resolved.catalog)
      cards.partners[family.name] = strip
      let familyStamps = ([family] + strip).map(stamp)
      cards.stamps[slug] = familyStamps
      var card = SpecimenRequest(
        family: FamilyRef(family), text: job.defaults.text, size: job.defaults.size,
        theme: job.defaults.theme, scale: job.png.scale, sample: sample)
      card.partners = strip.map(FamilyRef.init)
      let fingerprint = SpecimenFingerprint.of(
        card, family: family, label: cards.label, stamps: familyStamps)
      cards.versions[slug] = String(fingerprint.prefix(12))
    }
    return cards
  }

  /// What a run's languages proof says of each family's faces that cover less than its regular
  /// face (`face-coverage` notes), when the job asks for that proof, as the run does.
  private static func faceCoverage(_ families: [FontFamily], job: Job) -> [Diagnostic] {
    guard job.proofs.languages else { return [] }
    return families.flatMap { family in
      FaceCoverage.warnings(for: family).map {
        Diagnostic.warning("family '\(Sanitize.terminal(family.name))': \($0)")
      }
    }
  }

  /// The job's warnings, and what the sample's coverage says of each family (the boxes its
  /// specimen draws, its own script: as `run` warns), per the family each names first.
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

extension ServeSnapshot {
  /// The path, relative to the output folder, of `family`'s specimen when a run has written
  /// it (`specimens/<slug>.png`): what a heart records, as `run` and `saved` do.
  func writtenSpecimen(of family: FontFamily) -> String? {
    guard let slug = bySlug.first(where: { $0.value.name == family.name })?.key else {
      return nil
    }
    let relative = "specimens/\(slug).png"
    return FileManager.default.fileExists(atPath: job.output + "/" + relative) ? relative : nil
  }
}
