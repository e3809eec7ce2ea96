import FontiSupport
import Foundation

/// `manifest.json`: everything a run produced, with what each output was made from, so an
/// unchanged re-run can skip it. Shape as `docs/outputs.md` gives it; among its fields: `inputs`
/// fingerprints, each file's `size` and `mtimeNs` (so a re-run notices a file that was emptied or
/// replaced), the warnings of pairing sheets and catalogues, and counts per kind of output.
public struct RunManifest: Codable, Sendable, Equatable {
  public struct File: Codable, Sendable, Equatable {
    public var path: String
    public var sha256: String
    /// SHA-256 of everything the file was made from (tool, settings, text, font files).
    public var inputs: String?
    /// The file's size in bytes and modification time in nanoseconds since 1970, when it was
    /// written (or last found intact): a re-run that finds either changed reads the file again.
    public var size: Int64?
    public var mtimeNs: Int64?

    public init(
      path: String, sha256: String, inputs: String?, size: Int64? = nil, mtimeNs: Int64? = nil
    ) {
      self.path = path
      self.sha256 = sha256
      self.inputs = inputs
      self.size = size
      self.mtimeNs = mtimeNs
    }
  }

  public struct Family: Codable, Sendable, Equatable {
    public var family: String
    public var slug: String
    public var custom: Bool
    public var saved: Bool
    public var styles: [String]
    public var bold: Bool
    public var italic: Bool
    public var missingGlyphs: Int
    /// The characters of the sample and the texts that the family lacks, as `U+XXXX`, sorted,
    /// each once (`docs/outputs.md`). Absent in manifests of earlier versions.
    public var missingCharacters: [String]?
    public var warnings: [String]
    /// The kind of each warning (docs/warnings.md), in the order of `warnings`; absent when
    /// there is no warning, and in manifests of earlier versions.
    public var warningKinds: [String]?
    public var files: [File]
    /// Why the family failed, when it did (no file is listed then).
    public var error: String?
    /// Seconds its worker took to draw the specimen (kept while it is up to date): what
    /// `run --shard` balances shards by. Absent in manifests of earlier versions.
    public var seconds: Double?
    /// The files the family's answers come from, for a family where that is a choice (several
    /// files for one style, or a variable file: `FontFamily.drawnFrom`); absent otherwise.
    public var drawnFrom: FontFamily.DrawnFrom?
    /// Every face of the family (`FontFamily.faceList`), ordered by width, weight and slope.
    /// Absent in manifests of earlier versions.
    public var faces: [FamilyFace]?
    /// The colour glyph formats of the family's fonts (`FontColour`); absent for a family
    /// without colour tables.
    public var colour: FontColour?

    /// The proofs (`docs/proofs.md`), each present when the job turns its proof on.
    public var axes: [FontProofs.Axis]?
    public var instances: [FontProofs.Instance]?
    public var features: [FontProofs.Feature]?
    public var languages: LanguageCoverage?
    public var codepoints: Int?

    /// The proof fields of this entry.
    public var proofs: FamilyProofReport {
      get {
        FamilyProofReport(
          axes: axes, instances: instances, features: features, languages: languages,
          codepoints: codepoints)
      }
      set {
        axes = newValue.axes
        instances = newValue.instances
        features = newValue.features
        languages = newValue.languages
        codepoints = newValue.codepoints
      }
    }

    public init(
      family: String, slug: String, custom: Bool, saved: Bool, styles: [String], bold: Bool,
      italic: Bool, missingGlyphs: Int, missingCharacters: [String]? = [], warnings: [String],
      files: [File], error: String?
    ) {
      self.family = family
      self.slug = slug
      self.custom = custom
      self.saved = saved
      self.styles = styles
      self.bold = bold
      self.italic = italic
      self.missingGlyphs = missingGlyphs
      self.missingCharacters = missingCharacters
      self.warnings = warnings
      self.files = files
      self.error = error
    }
  }

  public struct Pairing: Codable, Sendable, Equatable {
    public var heading: String
    public var body: String
    public var file: String
    public var sha256: String
    public var inputs: String?
    public var size: Int64?
    public var mtimeNs: Int64?
    /// What drawing the sheet warned about (kept while the sheet is up to date).
    public var warnings: [String]?
    /// The kind of each warning, in the order of `warnings`.
    public var warningKinds: [String]?
    /// Seconds its worker took to draw the sheet (counted with its heading family's weight
    /// when shards are balanced).
    public var seconds: Double?

    public init(
      heading: String, body: String, file: String, sha256: String, inputs: String?,
      size: Int64? = nil, mtimeNs: Int64? = nil, warnings: [String]? = nil
    ) {
      self.heading = heading
      self.body = body
      self.file = file
      self.sha256 = sha256
      self.inputs = inputs
      self.size = size
      self.mtimeNs = mtimeNs
      self.warnings = warnings
    }
  }

  public struct Catalogue: Codable, Sendable, Equatable {
    public var file: String
    public var pages: Int
    public var sha256: String
    public var inputs: String?
    public var size: Int64?
    public var mtimeNs: Int64?
    /// Glyphs drawn as boxes on each family's pages (sample, texts, waterfall, styles), by
    /// family name; families that lack none are absent.
    public var missingGlyphs: [String: Int]?
    /// What drawing the catalogue warned about (kept while the catalogue is up to date).
    public var warnings: [String]?
    /// The kind of each warning, in the order of `warnings`.
    public var warningKinds: [String]?
    /// Each family's first page (`catalogue.pdf#page=N`), in the catalogue's order; absent in
    /// manifests of earlier versions.
    public var families: [FamilyPage]?

    public init(
      file: String, pages: Int, sha256: String, inputs: String?, size: Int64? = nil,
      mtimeNs: Int64? = nil, missingGlyphs: [String: Int]? = nil, warnings: [String]? = nil,
      families: [FamilyPage]? = nil
    ) {
      self.file = file
      self.pages = pages
      self.sha256 = sha256
      self.inputs = inputs
      self.size = size
      self.mtimeNs = mtimeNs
      self.missingGlyphs = missingGlyphs
      self.warnings = warnings
      self.families = families
    }
  }

  /// A family's first page in a catalogue, and its weights page when it has one: `{ "family":
  /// "Lato", "page": 12, "facesPage": 13 }`.
  public struct FamilyPage: Codable, Sendable, Hashable {
    public var family: String
    /// 1-based, as PDF viewers count (`#page=12`).
    public var page: Int
    /// The page listing every face of a family of more than four, set in each.
    public var facesPage: Int?

    public init(family: String, page: Int, facesPage: Int? = nil) {
      self.family = family
      self.page = page
      self.facesPage = facesPage
    }
  }

  /// The web gallery's page: `{ "file": "index.html", "sha256": "…", "size": 1234 }`. The page
  /// is made from this manifest (without this entry) and written after it; the record says which
  /// file is ours, so that a run with `gallery: false` removes it only while it is unchanged.
  public struct Gallery: Codable, Sendable, Equatable {
    public var file: String
    public var sha256: String
    public var size: Int64?
    /// The page's modification time in nanoseconds since 1970, as for `File`: a re-run that
    /// finds the same size and time does not read the page again. Absent in manifests of
    /// earlier versions.
    public var mtimeNs: Int64?
    /// What the page depends on besides this manifest (`GalleryModel.pageInputs`), when it was
    /// made without a warning: a re-run whose manifest and inputs are the same keeps the page
    /// without making it again. Absent in manifests of earlier versions.
    public var inputs: String?

    public init(
      file: String, sha256: String, size: Int64? = nil, mtimeNs: Int64? = nil,
      inputs: String? = nil
    ) {
      self.file = file
      self.sha256 = sha256
      self.size = size
      self.mtimeNs = mtimeNs
      self.inputs = inputs
    }
  }

  /// The fields `docs/outputs.md` gives count families (`warnings` counts the run's warnings
  /// of the job's kinds, `notes` its facts about fonts); pairing
  /// sheets and catalogues are counted on their own, in the same flat shape: `pairings` (how
  /// many the job makes), `pairingsRendered`, `pairingsSkipped` (up to date, or kept as they
  /// were), `pairingsFailed`, and likewise for `catalogues`.
  public struct Counts: Codable, Sendable, Equatable {
    public var families: Int
    public var rendered: Int
    public var skipped: Int
    public var failed: Int
    /// The run's warnings that fail `--strict` (the job's kinds): what the gallery and
    /// `serve` mark ⚠.
    public var warnings: Int
    /// The facts about fonts the run recorded (own script, face coverage, face weight…): shown
    /// as neutral notes, failing `--strict` only when named. nil in a manifest written before.
    public var notes: Int?
    public var pairings: Int?
    public var pairingsRendered: Int?
    public var pairingsSkipped: Int?
    public var pairingsFailed: Int?
    public var catalogues: Int?
    public var cataloguesRendered: Int?
    public var cataloguesSkipped: Int?
    public var cataloguesFailed: Int?

    public init(families: Int, rendered: Int, skipped: Int, failed: Int, warnings: Int) {
      self.families = families
      self.rendered = rendered
      self.skipped = skipped
      self.failed = failed
      self.warnings = warnings
    }
  }

  public var version: Int = 1
  public var tool: String = FontiVersion.tool
  public var title: String
  public var families: [Family]
  public var pairings: [Pairing]
  public var catalogues: [Catalogue]
  public var counts: Counts
  public var durationSeconds: Double
  /// The web gallery written after this manifest; absent when the job has `gallery: false`.
  public var gallery: Gallery?
  /// The warnings that belong to no output (the job's, the fonts', the run's own), each with
  /// its kind; absent when there is none.
  public var warnings: [Warning]?
  /// Every warning of the run counted by kind (docs/warnings.md); absent when there is none.
  public var warningsByKind: [String: Int]?

  /// A warning that belongs to no output, with its kind and where it points.
  public struct Warning: Codable, Sendable, Equatable {
    public var kind: String
    public var message: String
    public var file: String?
    public var line: Int?
    public var column: Int?
  }

  public init(
    title: String, families: [Family], pairings: [Pairing], catalogues: [Catalogue],
    counts: Counts, durationSeconds: Double
  ) {
    self.title = title
    self.families = families
    self.pairings = pairings
    self.catalogues = catalogues
    self.counts = counts
    self.durationSeconds = durationSeconds
  }

  /// Pretty, sorted keys: diffable and the same bytes for the same content (exactly
  /// `JSONEncoder`'s, `RunManifest+JSON.swift`).
  public func encoded() throws -> Data {
    var writer = JSONWriter(capacity: 1024 + families.count * 2048)
    write(to: &writer)
    writer.newline()
    return Data(try writer.finished())
  }

  /// `encoded()`, written to `path` atomically as it is made: a large library's manifest
  /// (14 MB for 4,000 families) never sits whole in memory.
  public func write(toFile path: String) throws(Diagnostic) {
    try AtomicFile.write(to: path) { (fd, _) throws(Diagnostic) in
      var writer = JSONWriter(streamingTo: fd)
      write(to: &writer)
      writer.newline()
      try writer.finish(path: path)
    }
  }

  /// Whether the file at `path` holds exactly what `write(toFile:)` would write there (through
  /// a symbolic link, as it is read and written). The file is read as the manifest is encoded
  /// and compared a chunk at a time, the first difference ending the comparison: a large
  /// library's manifest is never whole in memory. Anything but a regular file, or one that
  /// cannot be read to its end, holds something else.
  package func isWritten(at path: String) -> Bool {
    // O_NONBLOCK so that a FIFO under the name cannot hang the process; fstat then refuses it.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    let file = ComparedFile(fd)
    var writer = JSONWriter(streamingInto: file.compare)
    write(to: &writer)
    writer.newline()
    guard (try? writer.finish(path: path)) != nil else { return false }
    return file.same && file.atEnd()
  }

  /// The largest previous manifest read: far above what 10,000 families need.
  package static let readLimit = 256 << 20

  /// The previous run's manifest, or nil when there is none or it cannot be read (then
  /// everything is rendered again; the manifest is ours to rewrite, not user data). Its
  /// contents are not trusted: paths in it are checked before anything acts on them.
  public static func load(_ path: String) -> RunManifest? {
    readBytes(path).flatMap { decode($0) }
  }

  /// The bytes of the previous manifest at `path`, nil when there is none or it cannot be read.
  package static func readBytes(_ path: String) -> [UInt8]? {
    try? AtomicFile.readBytes(path, limit: readLimit)
  }

  /// A manifest's bytes as a manifest, or nil when they are not a version-1 run manifest.
  public static func decode(_ data: Data) -> RunManifest? {
    decode([UInt8](data))
  }

  /// `proofs: false`: without the families' proof fields (still checked as JSON), for a run
  /// that reads them only for the entries it keeps (`BatchPlan.readPreviousProofs`).
  package static func decode(_ bytes: [UInt8], proofs: Bool = true) -> RunManifest? {
    var reader = JSONReader(bytes)
    if !proofs { reader.omit(FamilyProofReport.manifestKeys, from: Family.self) }
    guard let manifest = try? RunManifest(reading: &reader),
      (try? reader.end()) != nil,
      manifest.version == 1
    else { return nil }
    return manifest
  }

  /// Whether `path` has the shape of an output this tool writes: `specimens/NAME.png`,
  /// `pairings/NAME.png`, `thumbs/NAME.png`, `index.html` or `….pdf`, relative and plain.
  package static func isOwnOutputPath(_ path: String) -> Bool {
    guard !path.isEmpty, path.utf8.count <= 4096, !path.hasPrefix("/"),
      !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else { return false }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
      let name = parts.last, !name.hasPrefix(".")
    else { return false }
    if name.hasSuffix(".png") {
      return parts.count == 2
        && (parts[0] == OutputLayout.specimens || parts[0] == OutputLayout.pairings
          || parts[0] == OutputLayout.thumbs)
    }
    if parts.count == 1 && name == OutputLayout.gallery { return true }
    return name.hasSuffix(".pdf")
  }

  /// Every output file the manifest lists, with what it recorded about it, in manifest order;
  /// a path listed twice keeps its first record.
  package var outputs: [(path: String, record: OutputRecord)] {
    var seen = Set<String>()
    var out: [(path: String, record: OutputRecord)] = []
    func add(_ path: String, _ record: OutputRecord) {
      if seen.insert(path).inserted { out.append((path, record)) }
    }
    for f in families { for file in f.files { add(file.path, file.record) } }
    for p in pairings { add(p.file, p.record) }
    for c in catalogues { add(c.file, c.record) }
    if let gallery { add(gallery.file, gallery.record) }
    return out
  }
}

extension RunManifest.Warning {
  public init(_ d: Diagnostic) {
    self.init(
      kind: d.kind.rawValue, message: d.message, file: d.file, line: d.mark?.line,
      column: d.mark?.column)
  }
}

/// What a manifest recorded about an output file: its checksum, and (from this version on) its
/// size and modification time, which tell cheaply whether it is still the same file.
public struct OutputRecord: Sendable, Equatable {
  public var sha256: String
  public var size: Int64?
  public var mtimeNs: Int64?
}

/// A manifest entry of an output file: its checksum, the fingerprint of what it was made from,
/// and its size and time when written.
package protocol RecordedOutput: Sendable {
  var sha256: String { get set }
  var inputs: String? { get set }
  var size: Int64? { get set }
  var mtimeNs: Int64? { get set }
}

extension RecordedOutput {
  /// What this entry says the file on disk is.
  package var record: OutputRecord { OutputRecord(sha256: sha256, size: size, mtimeNs: mtimeNs) }
}

extension RunManifest.File: RecordedOutput {}
extension RunManifest.Pairing: RecordedOutput {}
extension RunManifest.Catalogue: RecordedOutput {}
extension RunManifest.Gallery: RecordedOutput {}

/// A file read in step with bytes that should equal its contents (`RunManifest.isWritten`).
private final class ComparedFile {
  private let fd: Int32
  /// No difference found yet.
  private(set) var same = true
  private var buffer: [UInt8] = []

  init(_ fd: Int32) { self.fd = fd }

  /// Compares the next `expected.count` bytes of the file with `expected` (a `JSONWriter`'s
  /// consumer: always 0, for a difference is an answer, not an error).
  func compare(_ expected: [UInt8]) -> Int32 {
    guard same, !expected.isEmpty else { return 0 }
    if buffer.count < expected.count { buffer = [UInt8](repeating: 0, count: expected.count) }
    // memcmp: Array's == compares element by element.
    same =
      FileSystem.readFully(fd, &buffer, count: expected.count) == expected.count
      && memcmp(buffer, expected, expected.count) == 0
    return 0
  }

  /// Whether the file has no more bytes (a read that fails is not its end).
  func atEnd() -> Bool {
    if buffer.isEmpty { buffer = [0] }
    return FileSystem.readFully(fd, &buffer, count: 1) == 0
  }
}

extension FileStamp {
  /// Whether the file at `path` is still the one `record` describes, and how it is now. Same
  /// size and time: yes, without reading it. A different size: no. Otherwise (touched, copied,
  /// checked out, or recorded by an older version without size and time): read and compared
  /// by checksum.
  public static func verify(_ path: String, _ record: OutputRecord) -> FileState? {
    verify(path, record, state: state(path))
  }

  /// `verify`, with the file's state already looked at (nil: no regular file there).
  package static func verify(_ path: String, _ record: OutputRecord, state: FileState?)
    -> FileState?
  {
    guard let state else { return nil }
    if let size = record.size, size != state.size { return nil }
    if record.size == state.size && record.mtimeNs == state.mtimeNs { return state }
    return SHA256.hex(file: path) == record.sha256 ? state : nil
  }
}
