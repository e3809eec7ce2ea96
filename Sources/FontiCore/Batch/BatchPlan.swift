import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Everything a run will write, decided before anything is drawn: each output with its path,
/// the work item that makes it, the fingerprint of its inputs, and whether the file on disk is
/// already up to date. Pure: a function of the job, the fonts and the previous manifest.
public struct BatchPlan: Sendable {
  public struct Specimen: Sendable {
    public var family: FontFamily
    public var slug: String
    /// Relative to the output folder.
    public var file: String
    public var item: WorkItem
    public var inputs: String
    public var saved: Bool
    public var upToDate: Bool
  }

  public struct Pairing: Sendable {
    public var heading: FontFamily
    public var body: FontFamily
    public var reason: String
    public var file: String
    public var item: WorkItem
    public var inputs: String
    public var upToDate: Bool
  }

  public struct Catalogue: Sendable {
    public var file: String
    public var item: WorkItem
    public var inputs: String
    public var upToDate: Bool
  }

  public var output: String
  public var specimens: [Specimen]
  public var pairings: [Pairing]
  public var catalogues: [Catalogue]

  /// Items that must be (re)drawn, catalogues first: the longest items start first so they
  /// overlap the many short ones.
  public var pendingItems: [WorkItem] {
    catalogues.filter { !$0.upToDate }.map(\.item) + specimens.filter { !$0.upToDate }.map(\.item)
      + pairings.filter { !$0.upToDate }.map(\.item)
  }

  public var totalOutputs: Int { specimens.count + pairings.count + catalogues.count }
}

/// What the plan needs besides the job: the outcome of selection, favourites and pairings.
public struct PlanInputs: Sendable {
  /// Selected families, sorted by name.
  public var families: [FontFamily]
  /// Favourites, most recent first (only families that exist).
  public var saved: [FontFamily]
  /// Installed partners per family name, for strips.
  public var partners: [String: [FontFamily]]
  /// Pairings to render: both available, at least one selected (or an extra pairing).
  public var pairings: [(heading: FontFamily, body: FontFamily, reason: String)]
  /// Families for each catalogue spec, in order (resolved from `.all`, `.saved`, patterns).
  public var catalogueFamilies: [[FontFamily]]
  /// The label face, which appears in every output and so is one of its inputs.
  public var labelFamily: FontFamily?
  /// From SOURCE_DATE_EPOCH.
  public var creationDate: Date?

  public init(
    families: [FontFamily], saved: [FontFamily] = [], partners: [String: [FontFamily]] = [:],
    pairings: [(heading: FontFamily, body: FontFamily, reason: String)] = [],
    catalogueFamilies: [[FontFamily]] = [], labelFamily: FontFamily? = nil,
    creationDate: Date? = nil
  ) {
    self.families = families
    self.saved = saved
    self.partners = partners
    self.pairings = pairings
    self.catalogueFamilies = catalogueFamilies
    self.labelFamily = labelFamily
    self.creationDate = creationDate
  }
}

extension BatchPlan {
  /// Bump when the look of an output changes, so that every file is drawn again.
  static let designVersion = "1"

  /// Makes the plan. `previous` is the last run's manifest; `exists` says whether a file is on
  /// disk (injected so that incremental decisions can be tested as data).
  public static func make(
    job: Job, output: String, inputs: PlanInputs, previous: RunManifest?, force: Bool,
    stamp: (String) -> String = FileStamp.stamp, exists: (String) -> Bool = FileStamp.exists
  ) -> BatchPlan {
    func abs(_ relative: String) -> String { output + "/" + relative }
    let savedNames = Set(inputs.saved.map { $0.name.lowercased() })
    let labelStamp = inputs.labelFamily.map { familyStamp($0, stamp: stamp) } ?? "none"
    var familyStamps: [String: String] = [:]
    func stampOf(_ f: FontFamily) -> String {
      if let s = familyStamps[f.name] { return s }
      let s = familyStamp(f, stamp: stamp)
      familyStamps[f.name] = s
      return s
    }
    let common = [
      FontiVersion.tool, designVersion, "\(job.png.edge)", "\(job.png.scale)",
      job.png.compression.rawValue, labelStamp,
    ]

    // Specimens.
    let slugs = Slug.unique(inputs.families.map(\.name))
    let previousFiles = Dictionary(
      (previous?.families ?? []).flatMap { f in f.files.map { ($0.path, $0) } },
      uniquingKeysWith: { a, _ in a })
    var specimens: [Specimen] = []
    for (family, slug) in zip(inputs.families, slugs) {
      let file = "specimens/\(slug).png"
      let saved = savedNames.contains(family.name.lowercased())
      let partners = inputs.partners[family.name] ?? []
      let fingerprint = SHA256.hex(
        Array(
          (common + [
            "specimen", family.name, "\(family.isCustom)", job.defaults.text,
            "\(job.defaults.size)", job.defaults.theme.rawValue, "\(saved)", stampOf(family),
          ] + partners.map { stampOf($0) }).joined(separator: "\u{1F}").utf8))
      let item = WorkItem.specimen(
        SpecimenTask(
          family: FamilyRef(family), text: job.defaults.text, size: job.defaults.size,
          theme: job.defaults.theme, edge: job.png.edge, scale: job.png.scale,
          compression: job.png.compression, saved: saved, partners: partners.map(FamilyRef.init),
          path: abs(file)))
      let upToDate = !force && previousFiles[file]?.inputs == fingerprint && exists(abs(file))
      specimens.append(
        Specimen(
          family: family, slug: slug, file: file, item: item, inputs: fingerprint, saved: saved,
          upToDate: upToDate))
    }

    // Pairing sheets.
    let previousPairings = Dictionary(
      (previous?.pairings ?? []).map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
    var pairings: [Pairing] = []
    var pairingNames = Set<String>()
    for p in inputs.pairings {
      var file = "pairings/\(Slug.make(p.heading.name))+\(Slug.make(p.body.name)).png"
      var n = 2
      while !pairingNames.insert(file).inserted {
        file = "pairings/\(Slug.make(p.heading.name))+\(Slug.make(p.body.name))-\(n).png"
        n += 1
      }
      let fingerprint = SHA256.hex(
        Array(
          (common + ["pairing", job.defaults.theme.rawValue, p.reason, stampOf(p.heading),
            stampOf(p.body)]).joined(separator: "\u{1F}").utf8))
      let item = WorkItem.pairing(
        PairingTask(
          heading: FamilyRef(p.heading), body: FamilyRef(p.body), reason: p.reason,
          theme: job.defaults.theme, edge: job.png.edge, scale: job.png.scale,
          compression: job.png.compression, path: abs(file)))
      let upToDate = !force && previousPairings[file]?.inputs == fingerprint && exists(abs(file))
      pairings.append(
        Pairing(
          heading: p.heading, body: p.body, reason: p.reason, file: file, item: item,
          inputs: fingerprint, upToDate: upToDate))
    }

    // Catalogues.
    let previousCatalogues = Dictionary(
      (previous?.catalogues ?? []).map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
    var catalogues: [Catalogue] = []
    for (i, spec) in job.catalogues.enumerated() {
      let families = i < inputs.catalogueFamilies.count ? inputs.catalogueFamilies[i] : []
      let file = spec.file.value
      let names = Set(families.map(\.name))
      let partners = inputs.partners.filter { names.contains($0.key) }
      let pairingRefs = inputs.pairings.filter {
        spec.families == .saved
          ? false : names.contains($0.heading.name) || names.contains($0.body.name)
      }.map {
        CatalogueTask.PairingRef(
          heading: FamilyRef($0.heading), body: FamilyRef($0.body), reason: $0.reason)
      }
      let task = CatalogueTask(
        path: abs(file), page: spec.page, theme: spec.theme, title: job.title, author: job.author,
        text: job.defaults.text, size: job.defaults.size, texts: job.texts, sizes: job.sizes,
        styles: job.styles, families: families.map(FamilyRef.init),
        partners: partners.mapValues { $0.map(FamilyRef.init) }, pairings: pairingRefs,
        saved: inputs.saved.map(FamilyRef.init), creationDate: inputs.creationDate)
      var parts = [FontiVersion.tool, designVersion, "catalogue", labelStamp]
      if let data = try? JSONEncoder.sorted.encode(task) { parts.append(SHA256.hex(data)) }
      parts += families.map { stampOf($0) }
      parts += inputs.saved.map { stampOf($0) }
      parts += pairingRefs.flatMap { [$0.heading.name, $0.body.name] }
      let fingerprint = SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8))
      let upToDate = !force && previousCatalogues[file]?.inputs == fingerprint && exists(abs(file))
      catalogues.append(
        Catalogue(file: file, item: .catalogue(task), inputs: fingerprint, upToDate: upToDate))
    }
    return BatchPlan(
      output: output, specimens: specimens, pairings: pairings, catalogues: catalogues)
  }

  /// A family's identity for fingerprints: its name and every file's path, size and mtime.
  static func familyStamp(_ family: FontFamily, stamp: (String) -> String) -> String {
    ([family.name, family.isCustom ? "custom" : "system"] + family.files.map(stamp))
      .joined(separator: "\u{1E}")
  }
}

/// File identity for incremental runs: path, size and modification time (nanoseconds). Reading
/// every font's bytes on each run would cost more than rendering a few families.
public enum FileStamp {
  public static func stamp(_ path: String) -> String {
    var st = stat()
    guard stat(path, &st) == 0 else { return path + "|missing" }
    return "\(path)|\(st.st_size)|\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
  }

  public static func exists(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }
}

extension JSONEncoder {
  /// Sorted keys: the same value always encodes to the same bytes.
  static var sorted: JSONEncoder {
    let e = JSONEncoder()
    e.outputFormatting = [.sortedKeys]
    return e
  }
}
