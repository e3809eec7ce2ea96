import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Everything a run will write, decided before anything is drawn: each output with its path,
/// the work item that makes it, the fingerprint of its inputs, and what this run does with it.
/// A function of the job, the fonts, the previous manifest and the files that manifest lists
/// (each checked against what it recorded).
public struct BatchPlan: Sendable {
  /// What a run does with one output.
  public enum Action: Sendable, Equatable {
    /// Drawn in this run.
    case render
    /// Made from the same inputs, and the file on disk is the one recorded: skipped.
    case upToDate
    /// Left as it is although it is not up to date: `--only` leaves its families out, or (a
    /// catalogue) some of its families are not up to date and `--only` leaves them out.
    case keep
  }

  public struct Specimen: Sendable {
    public var family: FontFamily
    public var slug: String
    /// Relative to the output folder.
    public var file: String
    public var item: WorkItem
    public var inputs: String
    public var saved: Bool
    public var action: Action
    /// The previous run's entry for this family, when its file is still on disk as recorded
    /// (with the size and time found now): what the manifest keeps when nothing is drawn.
    @Indirect public var previous: RunManifest.Family?
    /// The characters of the sample and the texts the family lacks, in code point order (the
    /// manifest lists them as `U+XXXX`: `MissingCharacters.codes`). Scalars, not their codes:
    /// a plan of 4,000 families holds them all while it runs, and as codes they would be 1.7 MB.
    public var missingCharacters: [Unicode.Scalar]
    /// The file on disk was made from these inputs (whether or not `--force` redraws it).
    public var current: Bool
    /// The gallery's thumbnail of this specimen (nil with `gallery: false`).
    public var thumbnail: Thumb?

    public var upToDate: Bool { action == .upToDate }
  }

  /// A specimen's thumbnail, `thumbs/<slug>.png`, listed in the family's `files` after the
  /// specimen, with the specimen's `inputs`. Drawn specimens bring their thumbnail (the worker
  /// makes it from the drawn image); a specimen that stays gets one from its PNG on disk when
  /// its thumbnail is missing or is not the one of that specimen.
  public struct Thumb: Sendable {
    public enum Action: Sendable, Equatable {
      /// Made with the specimen, which is drawn in this run.
      case withSpecimen
      /// Made from the specimen PNG on disk (`item`).
      case fromSpecimen
      /// On disk as recorded, made from the same inputs as the specimen that stays.
      case upToDate
      /// None: the specimen is neither drawn nor on disk.
      case none
    }

    public var file: String
    public var action: Action
    /// The thumbnail task for `fromSpecimen` (a `WorkItem`'s case, held as the task alone: a
    /// work item has room for the largest of its cases, six times as much, in each of a
    /// plan's specimens).
    public var task: ThumbnailTask?
    /// The inputs it is made from: the specimen's (the file on disk's when it stays).
    public var inputs: String
    /// The previous run's record, when the file is still on disk as recorded.
    @Indirect public var previous: RunManifest.File?
  }

  public struct Pairing: Sendable {
    public var heading: FontFamily
    public var body: FontFamily
    public var reason: String
    public var file: String
    public var item: WorkItem
    public var inputs: String
    public var action: Action
    public var previous: RunManifest.Pairing?

    public var upToDate: Bool { action == .upToDate }
  }

  public struct Catalogue: Sendable {
    public var file: String
    public var item: WorkItem
    public var inputs: String
    public var action: Action
    public var previous: RunManifest.Catalogue?
    /// The families with pages in it.
    public var families: [String]
    /// The characters of the sample and the texts each of its families lacks, in code point
    /// order, for those that lack any.
    public var missingCharacters: [String: [Unicode.Scalar]]

    public var upToDate: Bool { action == .upToDate }
  }

  public var output: String
  public var specimens: [Specimen]
  public var pairings: [Pairing]
  public var catalogues: [Catalogue]
  /// Files the previous manifest lists that this run no longer makes (a family no longer
  /// selected, a catalogue no longer in the job), relative to the output folder: each checked
  /// to stay inside the output folder, to be a regular file, and to be the file recorded.
  public var obsolete: [String]
  /// What planning found worth a warning (catalogues `--only` leaves as they were).
  public var diagnostics: [Diagnostic]
  /// The job writes the web gallery (`index.html`, thumbnails).
  public var gallery = false
  /// With `gallery`: `index.html` as found on disk, when it is the page the previous manifest
  /// recorded (for `--dry-run`: the page is made after the run, from its manifest).
  public var galleryFound: FileState?
  public var galleryCurrent: Bool { galleryFound != nil }
  /// With `galleryCurrent`: the previous run's manifest, which the page on disk was made from.
  /// A run whose manifest comes out the same (but for its counts and duration) keeps the page.
  public var galleryManifest: RunManifest?
  /// The previous manifest's `durationSeconds` and `counts` (nil: there was none, or it could
  /// not be read). A run whose manifest would differ from it only by its duration leaves it as
  /// it is; one with other counts cannot.
  public var previousDuration: Double?
  public var previousCounts: RunManifest.Counts?

  /// Items that must be (re)drawn, catalogues first: the longest items start first so they
  /// overlap the many short ones.
  public var pendingItems: [WorkItem] {
    catalogues.filter { $0.action == .render }.map(\.item)
      + specimens.filter { $0.action == .render }.map(\.item)
      + pairings.filter { $0.action == .render }.map(\.item)
      + specimens.compactMap { s in
        s.thumbnail?.action == .fromSpecimen ? s.thumbnail?.task.map(WorkItem.thumbnail) : nil
      }
  }

  public var totalOutputs: Int { specimens.count + pairings.count + catalogues.count }

  /// What `run --dry-run` lists: each output with what a run would do with it (`render`,
  /// `up to date`, `keep`, `remove`), catalogues first, and the tally.
  public struct Listing: Sendable {
    public var rows: [(action: String, file: String)]
    public var toRender: Int
    /// Outputs the job no longer makes.
    public var toRemove: Int
    /// Left as they are (`--only`).
    public var kept: Int
    public var pending: Int { toRender + toRemove }
    public var upToDate: Int { rows.count - pending - kept }
  }

  public var listing: Listing {
    func label(_ action: Action) -> String {
      switch action {
      case .render: return "render"
      case .upToDate: return "up to date"
      case .keep: return "keep"
      }
    }
    var rows: [(action: String, file: String)] = []
    for s in catalogues { rows.append((label(s.action), s.file)) }
    for s in specimens { rows.append((label(s.action), s.file)) }
    for s in pairings { rows.append((label(s.action), s.file)) }
    for s in specimens {
      guard let t = s.thumbnail else { continue }
      switch t.action {
      case .withSpecimen, .fromSpecimen: rows.append(("render", t.file))
      case .upToDate: rows.append(("up to date", t.file))
      case .none: break
      }
    }
    if gallery {
      // The page is made from the run's manifest: rewritten when anything else is, or when it
      // is not on disk as recorded (it may then still come out the same, and stay untouched).
      let changes = !obsolete.isEmpty || rows.contains { $0.action == "render" }
      rows.append((changes || !galleryCurrent ? "render" : "up to date", OutputLayout.gallery))
    }
    for file in obsolete { rows.append(("remove", file)) }
    return Listing(
      rows: rows, toRender: rows.filter { $0.action == "render" }.count, toRemove: obsolete.count,
      kept: rows.filter { $0.action == "keep" }.count)
  }
}

extension BatchPlan {
  /// The specimens drawn again that had a previous entry. A run holds none of those entries
  /// while it draws: each counts only if the run is interrupted before the family's result
  /// comes, and the previous manifest on disk, which the run replaces only at its end, still
  /// has it then (`restore`). At 4,000 families drawn again they would be 3 MB of the
  /// parent's memory for the whole run.
  struct PreviousEntries {
    /// Their indices in `specimens`.
    fileprivate let indices: [Int]
    /// Those whose thumbnail was recorded, intact, too.
    fileprivate let thumbnails: Set<Int>

    /// Whether specimen `index`'s file (or with `thumbnail`, its thumbnail's) was recorded by
    /// the previous manifest as it is on disk.
    func recorded(_ index: Int, thumbnail: Bool = false) -> Bool {
      thumbnail ? thumbnails.contains(index) : indices.contains(index)
    }

    /// After an interruption: the previous entries (and their thumbnails' records) of the
    /// specimens without a result (`reached` false), read again from the previous manifest at
    /// `path` and checked against the files on disk as planning checked them.
    func restore(in plan: inout BatchPlan, from path: String, reached: (String) -> Bool) {
      let output = plan.output
      let absolute = { (file: String) in output + "/" + file }
      let waiting = indices.filter { !reached(absolute(plan.specimens[$0].file)) }
      guard !waiting.isEmpty, let manifest = RunManifest.load(path) else { return }
      var byFile: [String: Int] = [:]
      for (i, f) in manifest.families.enumerated() {
        if let file = f.files.first, byFile[file.path] == nil { byFile[file.path] = i }
      }
      for i in waiting {
        let s = plan.specimens[i]
        guard let j = byFile[s.file] else { continue }
        let old = manifest.families[j]
        plan.specimens[i].previous = BatchPlan.entry(
          old, of: s.family.name, file: s.file, absolute: absolute, verify: FileStamp.verify)
        if let thumb = s.thumbnail, plan.specimens[i].previous != nil {
          plan.specimens[i].thumbnail?.previous = BatchPlan.thumbnailRecord(
            old, of: s.family.name, file: thumb.file, absolute: absolute,
            verify: FileStamp.verify)
        }
      }
    }
  }

  /// `old`, the previous manifest's entry at a specimen's `file`, when it is `family`'s and
  /// its file is still on disk as recorded (`verify`): with the size and time found now, and
  /// the specimen's record alone in its files (a thumbnail's is `thumbnailRecord`).
  static func entry(
    _ old: RunManifest.Family, of family: String, file: String,
    absolute: (String) -> String, verify: (String, OutputRecord) -> FileState?
  ) -> RunManifest.Family? {
    guard old.family == family, var record = old.files.first,
      let state = verify(absolute(file), record.record)
    else { return nil }
    (record.size, record.mtimeNs) = (state.size, state.mtimeNs)
    var kept = old
    kept.files = [record]
    return kept
  }

  /// The record of thumbnail `file` in `old`, the previous manifest's entry of `family`, when
  /// the thumbnail is still on disk as recorded (`verify`), with the size and time found now.
  static func thumbnailRecord(
    _ old: RunManifest.Family, of family: String, file: String,
    absolute: (String) -> String, verify: (String, OutputRecord) -> FileState?
  ) -> RunManifest.File? {
    guard old.family == family,
      var record = old.files.dropFirst().first(where: { $0.path == file }),
      let state = verify(absolute(file), record.record)
    else { return nil }
    (record.size, record.mtimeNs) = (state.size, state.mtimeNs)
    return record
  }

  /// A plan with anything to draw lets go of `galleryManifest`: the page is then made again
  /// from the new manifest, and written only when its bytes changed, as `listing()` already
  /// says; keeping the whole previous manifest for the comparison would keep every entry alive.
  private mutating func keepGalleryManifestOnlyWhenNothingIsDrawn() {
    if galleryManifest != nil && !pendingItems.isEmpty { galleryManifest = nil }
  }

  /// For a run about to carry out this plan: lets go of the previous entries (and their
  /// thumbnails' records) of the specimens it draws again, and returns where they were, for
  /// `PreviousEntries.restore` (see also `keepGalleryManifestOnlyWhenNothingIsDrawn`).
  mutating func releasingPrevious() -> PreviousEntries {
    keepGalleryManifestOnlyWhenNothingIsDrawn()
    var indices: [Int] = []
    var thumbnails: Set<Int> = []
    for i in specimens.indices where specimens[i].action == .render {
      guard specimens[i].previous != nil else { continue }
      specimens[i].previous = nil
      if specimens[i].thumbnail?.previous != nil { thumbnails.insert(i) }
      specimens[i].thumbnail?.previous = nil
      indices.append(i)
    }
    return PreviousEntries(indices: indices, thumbnails: thumbnails)
  }

  /// A plan made from the previous manifest read without its proofs
  /// (`RunManifest.decode(_:proofs: false)`) gets them here from the same `bytes`, for the
  /// entries it keeps (and whole for `galleryManifest`, which it keeps only when nothing is to
  /// be drawn). A plan that draws every family again, `--force` say, reads them not at all.
  mutating func readPreviousProofs(from bytes: [UInt8]) {
    keepGalleryManifestOnlyWhenNothingIsDrawn()
    let kept = keptPreviousEntries
    guard !kept.isEmpty || galleryManifest != nil else { return }
    guard let full = RunManifest.decode(bytes) else {
      // Proof fields that cannot be read (a wrong type): the entries still count for their
      // files, their proofs come from the fonts, and the gallery page is made again rather
      // than compared with a manifest that lacks what the page shows.
      galleryManifest = nil
      return
    }
    takePreviousProofs(kept, from: full)
  }

  /// A plan made from the whole previous manifest, proofs and all (the run read it once, not
  /// expecting to draw much again): the entries it keeps hold their proofs where `manifest`
  /// records the same file (as `readPreviousProofs` would have given them), the others none.
  mutating func keepPreviousProofs(from manifest: RunManifest) {
    keepGalleryManifestOnlyWhenNothingIsDrawn()
    let kept = keptPreviousEntries
    for i in kept { specimens[i].previous?.proofs = FamilyProofReport() }
    takePreviousProofs(kept, from: manifest)
  }

  /// The specimens with a previous entry that this plan does not draw again.
  private var keptPreviousEntries: [Int] {
    specimens.indices.filter { specimens[$0].previous != nil && specimens[$0].action != .render }
  }

  private mutating func takePreviousProofs(_ kept: [Int], from full: RunManifest) {
    fillPreviousProofs(kept, from: full)
    if galleryManifest != nil { galleryManifest = full }
  }

  /// The proofs of the previous entries of `specimens[indices]`, from `manifest` where it
  /// records the same file (path, checksum and inputs; the plan may have found a new time for
  /// it, not new contents). An entry it does not record so keeps none, and the run reads that
  /// family's proofs from its fonts, as it does for a proof just turned on.
  mutating func fillPreviousProofs(_ indices: [Int], from manifest: RunManifest) {
    var byFile: [String: Int] = [:]
    for (i, f) in manifest.families.enumerated() {
      if let file = f.files.first, byFile[file.path] == nil { byFile[file.path] = i }
    }
    for i in indices {
      guard let old = specimens[i].previous, let file = old.files.first,
        let j = byFile[file.path]
      else { continue }
      let entry = manifest.families[j]
      if entry.family == old.family, let recorded = entry.files.first,
        recorded.sha256 == file.sha256, recorded.inputs == file.inputs
      {
        specimens[i].previous?.proofs = entry.proofs
      }
    }
  }
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
  public var pairings: [FamilyPairing<FontFamily>]
  /// Families for each catalogue spec, in order (resolved from `.all`, `.saved`, patterns).
  public var catalogueFamilies: [[FontFamily]]
  /// The label face, which appears in every output and so is one of its inputs.
  public var labelFamily: FontFamily?
  /// From SOURCE_DATE_EPOCH.
  public var creationDate: Date?

  public init(
    families: [FontFamily], saved: [FontFamily] = [], partners: [String: [FontFamily]] = [:],
    pairings: [FamilyPairing<FontFamily>] = [],
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
  /// Bump when the look of an output changes, so that every file is drawn again (the commit
  /// that bumps it says what changed).
  static let designVersion = "6"

  /// Bump when only the layout of catalogue pages changes, so that catalogues are drawn again
  /// and specimens are not.
  static let catalogueLayoutVersion = "2"

  /// What a specimen's fingerprint adds for the proofs: the sample's settings (when there are
  /// any) and, for a variable family (fontconfig lists its named instances), the variable
  /// line the specimen shows. A static family's specimen keeps the fingerprint it had. The
  /// proof flags are not among them: the manifest fields they add are read again without
  /// drawing the specimen (`BatchRunner`), and the specimen shows none of them.
  static func specimenExtras(_ family: FontFamily, sample: SampleSettings?) -> [String] {
    var parts = settingsParts(sample)
    if family.faces.contains(where: { $0.index > 0xFFFF }) { parts.append("variable-line-1") }
    return parts
  }

  /// A sample's settings as fingerprint parts; none without settings.
  static func settingsParts(_ sample: SampleSettings?) -> [String] {
    guard let sample, !sample.isEmpty,
      let data = try? JSONEncoder(.fingerprint).encode(sample)
    else { return [] }
    return ["sample", String(decoding: data, as: UTF8.self)]
  }

  /// What becomes of a specimen's thumbnail `file`, whose previous record (on disk as recorded)
  /// is `previous`; see `Thumb`. A specimen drawn in this run has its thumbnail made with it.
  static func thumbnail(
    for specimen: Specimen, file: String, previous: RunManifest.File?,
    absolute: (String) -> String
  ) -> Thumb {
    var thumb = Thumb(
      file: file, action: .none, task: nil, inputs: specimen.inputs, previous: previous)
    if specimen.action == .render {
      thumb.action = .withSpecimen
      return thumb
    }
    // The specimen stays as it is on disk (up to date, or left out by --only): its thumbnail
    // must be of that file.
    guard let kept = specimen.previous?.files.first else { return thumb }
    thumb.inputs = kept.inputs ?? ""
    if let previous, previous.inputs == kept.inputs, kept.inputs != nil {
      thumb.action = .upToDate
    } else {
      thumb.action = .fromSpecimen
      thumb.task = ThumbnailTask(source: absolute(specimen.file), path: absolute(file))
    }
    return thumb
  }

  /// `--force` redraws what `--only` lets be drawn; what it leaves out and is current stays
  /// up to date.
  static func action(current: Bool, force: Bool, rerenders: Bool) -> Action {
    if current && !(force && rerenders) { return .upToDate }
    return rerenders ? .render : .keep
  }

  /// The files `previous` lists that `plan` does not make and that may be removed: see
  /// `obsolete`. The previous manifest is not trusted: a path must be relative, plain (no `.`,
  /// `..` or empty parts, no control characters), an image in `specimens/` or `pairings/` or a
  /// PDF, not the favourites manifest, inside the output folder once links are resolved, and a
  /// regular file that is still the one recorded (size and time, else its checksum).
  static func obsoleteOutputs(
    of plan: BatchPlan, previous: RunManifest?, job: Job,
    verify: (String, OutputRecord) -> FileState?
  ) -> [String] {
    guard let previous else { return [] }
    var made = Set(
      plan.specimens.map(\.file) + plan.pairings.map(\.file) + plan.catalogues.map(\.file)
        + [OutputLayout.runManifest, job.manifest.value])
    if plan.gallery {
      made.insert(OutputLayout.gallery)
      for s in plan.specimens { if let t = s.thumbnail { made.insert(t.file) } }
    }
    let root = FileSystem.realPath(plan.output)
    var out: [String] = []
    for (path, record) in previous.outputs where !made.contains(path) {
      guard RunManifest.isOwnOutputPath(path), let root,
        let folder = FileSystem.realPath(FileSystem.folder(of: plan.output + "/" + path)),
        folder == root || folder.hasPrefix(root + "/"),
        verify(plan.output + "/" + path, record) != nil
      else { continue }
      out.append(path)
    }
    return out
  }

  /// A family's identity for fingerprints: its name and every file's path, size and mtime.
  package static func familyStamp(_ family: FontFamily, stamp: (String) -> String) -> String {
    ([family.name, family.isCustom ? "custom" : "system"] + family.files.map(stamp))
      .joined(separator: "\u{1E}")
  }
}

/// What a catalogue's fingerprint hashes: everything it shows and where it goes in the output
/// folder (`path`, relative to it), encoded as a single JSON object (its input's fields and
/// `path`), the shape manifests have recorded since the first version: the same catalogue keeps
/// the same `inputs`, and stays up to date.
struct CatalogueFingerprint: Encodable {
  var input: CatalogueInput<FamilyRef>
  var path: String

  init(_ input: CatalogueInput<FamilyRef>, path: String) {
    self.input = input.mapFamilies { $0.named }
    self.path = path
  }

  private enum Key: String, CodingKey { case path }

  func encode(to encoder: Encoder) throws {
    try input.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(path, forKey: .path)
  }
}

/// The characters of the sample and the texts (distinct, in code point order), to find those a
/// family lacks without walking every text once per family.
struct MissingCharacters {
  let scalars: [Unicode.Scalar]

  init(texts: [String]) {
    var seen = Set<Unicode.Scalar>()
    for text in texts {
      for s in text.unicodeScalars where !CharacterCoverage.needsNoGlyph(s) { seen.insert(s) }
    }
    scalars = seen.sorted { $0.value < $1.value }
  }

  /// The characters `family`'s regular face does not cover.
  func lacking(in family: FontFamily) -> [Unicode.Scalar] {
    scalars.filter { !family.coverage.contains($0) }
  }

  /// `U+XXXX` for each of `scalars`, as manifests and warnings name them.
  static func codes(_ scalars: [Unicode.Scalar]) -> [String] { scalars.map(code) }

  /// `U+` and at least four upper-case hex digits (`U+0041`, `U+1F600`).
  static func code(_ s: Unicode.Scalar) -> String {
    var digits = 4
    while digits < 8, s.value >> (4 * UInt32(digits)) != 0 { digits += 1 }
    return String(unsafeUninitializedCapacity: 2 + digits) { out in
      out[0] = UInt8(ascii: "U")
      out[1] = UInt8(ascii: "+")
      for i in 0..<digits {
        let nibble = UInt8((s.value >> (4 * UInt32(digits - 1 - i))) & 0xF)
        out[2 + i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
      }
      return 2 + digits
    }
  }
}
