import FontiSupport

/// The colour scheme of a specimen or a catalogue: the app's ink (dark) and cream (light).
public enum Theme: String, Sendable, Hashable, CaseIterable, Codable {
  case ink
  case cream
}

/// A face a catalogue page shows, as written in `styles:`.
public enum StyleName: String, Sendable, Hashable, CaseIterable, Codable {
  case regular
  case bold
  case italic
  case boldItalic = "bold-italic"
}

/// One item of `styles:`: one of the four style slots (`regular`, `bold`, `italic`,
/// `bold-italic`: the real face nearest to it), or a face by its name as fontconfig gives it
/// (`Light`, `Semibold Italic`), matched as `FaceName.key` compares names.
public enum StylePick: Sendable, Hashable {
  case slot(StyleName)
  case face(String)
}

/// A slot is its name (`"bold-italic"`), as `styles:` was encoded before face names; a face
/// is `{"face": name}`.
extension StylePick: Codable {
  private enum Key: String, CodingKey { case face }

  public init(from decoder: any Decoder) throws {
    if let slot = try? decoder.singleValueContainer().decode(StyleName.self) {
      self = .slot(slot)
      return
    }
    self = .face(try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .face))
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .slot(let style):
      var single = encoder.singleValueContainer()
      try single.encode(style)
    case .face(let name):
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(name, forKey: .face)
    }
  }
}

/// `styles:`: which faces get full sample rows on catalogue pages.
public enum StyleSelection: Sendable, Hashable {
  /// Every face of each family (`FontFamily.distinctFaces`).
  case all
  /// The items listed, in order.
  case picks([StylePick])

  /// The default: regular, bold, italic and bold italic.
  public static let standard = StyleSelection.picks(StyleName.allCases.map(StylePick.slot))

  /// Nothing asked for (`styles: []`).
  public var isEmpty: Bool { self == .picks([]) }

  /// What the job file says, as `Job.dump()` writes it.
  public var written: String {
    switch self {
    case .all: return "all"
    case .picks(let picks):
      return picks.map {
        switch $0 {
        case .slot(let style): return style.rawValue
        case .face(let name): return "'\(name)'"
        }
      }.joined(separator: ", ")
    }
  }
}

/// `all` is the string `"all"`; a list is its picks, so that the default encodes as it did
/// before face names (`["regular","bold","italic","bold-italic"]`).
extension StyleSelection: Codable {
  public init(from decoder: any Decoder) throws {
    if let word = try? decoder.singleValueContainer().decode(String.self), word == "all" {
      self = .all
      return
    }
    self = .picks(try decoder.singleValueContainer().decode([StylePick].self))
  }

  public func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    switch self {
    case .all: try single.encode("all")
    case .picks(let picks): try single.encode(picks)
    }
  }
}

/// A catalogue's page size.
public enum PageSize: String, Sendable, Hashable, CaseIterable, Codable {
  case a4
  case letter
  case square

  /// Width and height in PostScript points.
  public var points: (width: Double, height: Double) {
    switch self {
    case .a4: return (595.2756, 841.8898)
    case .letter: return (612, 792)
    case .square: return (720, 720)
    }
  }
}

/// `png.compression`: `fast` (zlib 1, no filter) or `small` (zlib 9, adaptive filters).
public enum PNGCompression: String, Sendable, Hashable, CaseIterable, Codable {
  case fast
  case small
}

/// The built-in sample text, also the default of `defaults.text`.
public let defaultSampleText = "Sphinx of black quartz, judge my vow."

/// A job file, decoded and validated: immutable, and everything render code needs.
///
/// Paths are resolved (relative to the job file's folder); names keep their `Mark` so that
/// checks against the font catalogue can point into the file.
public struct Job: Sendable, Hashable {
  /// `defaults:`: the sample text, its size in points (within `Limits.sampleSize`), the theme,
  /// and how the sample is set (`language`, `variations`, `features`).
  public struct Defaults: Sendable, Hashable {
    public var text: String = defaultSampleText
    public var size: Double = 48
    public var theme: Theme = .ink
    /// `defaults.language`, `.variations`, `.features`; `.none` when absent.
    public var sample = SampleSettings.none
    /// Where each of `sample.variations` is written (its key), in the same order, for the
    /// warnings found once the families are known ("no selected family has axis 'wgth'").
    public var variationMarks: [Mark] = []
    /// Where each of `sample.features` is written, in the same order.
    public var featureMarks: [Mark] = []
    public init() {}
  }

  /// `png:`.
  public struct PNGOptions: Sendable, Hashable {
    public var edge: Int = 1080
    public var scale: Int = 1
    public var compression: PNGCompression = .fast
    public init() {}
    /// The side of the square in pixels.
    public var pixels: Int { edge * scale }
  }

  /// One heading + body pair from `pairings.extra`.
  public struct PairingSpec: Sendable, Hashable {
    public var heading: Located<String>
    public var body: Located<String>
    public init(heading: Located<String>, body: Located<String>) {
      self.heading = heading
      self.body = body
    }
  }

  /// Which families a catalogue shows.
  public enum CatalogueSelection: Sendable, Hashable {
    /// Every family the job selects.
    case all
    /// Only the favourites.
    case saved
    /// Names or globs, matched like `families.include`, among every family that can be drawn
    /// (not only the job's selection, like `saved`).
    case patterns([Located<String>])
  }

  /// One entry of `catalogues:`.
  public struct CatalogueSpec: Sendable, Hashable {
    /// Relative to the output folder.
    public var file: Located<String>
    public var page: PageSize = .a4
    /// Cream by default: catalogues are printed, and ink pages waste toner and print muddy.
    public var theme: Theme = .cream
    public var families: CatalogueSelection = .all
    public init(file: Located<String>) { self.file = file }
  }

  /// The job file as the user named it (used in diagnostics); nil for a built-in job.
  public var path: String?
  /// Absolute folder that relative paths in the job are relative to.
  public var directory: String
  public var title: String = "Type specimens"
  public var author: String?
  /// The output folder, resolved against `directory` (or absolute).
  public var output: String
  public var defaults = Defaults()
  /// `texts:`: extra lines on catalogue pages.
  public var texts: [String] = []
  /// `families.include`; `["*"]` when absent.
  public var include: [Located<String>] = [Located("*")]
  /// Where `include` is written (its key), for "the selection is empty" errors; nil if absent.
  public var includeMark: Mark?
  /// Where the `families:` key is written; nil if absent. CI reports locate a warning about a
  /// family (which has no line of its own) here.
  public var familiesMark: Mark?
  /// `families.exclude`.
  public var exclude: [Located<String>] = []
  /// `families.languages`: fontconfig codes, each checked; only families that set every one
  /// are selected.
  public var languages: [Located<String>] = []
  /// `fonts:`: files and folders, resolved; folders are searched recursively.
  public var fonts: [Located<String>] = []
  /// `sizes:`: the waterfall on catalogue pages, in points (4–400).
  public var sizes: [Double] = [12, 18, 24, 36, 48, 72, 96]
  /// `styles:`: the faces with full sample rows on catalogue pages.
  public var styles = StyleSelection.standard
  /// The face names of `styles:` as written, with their positions: each must be a face of a
  /// selected family (`ResolvedJob`).
  public var styleNames: [Located<String>] = []
  public var curatedPairings = true
  public var extraPairings: [PairingSpec] = []
  /// `favourites.save`: families hearted by this run.
  public var save: [Located<String>] = []
  /// `favourites.manifest`, relative to the output folder.
  public var manifest: Located<String> = Located("favourites.json")
  public var png = PNGOptions()
  /// `proofs:`: what is read from each family (manifest fields) and the catalogues' proof
  /// pages. The defaults `docs/job-file.md` gives when absent.
  public var proofs = ProofOptions.standard
  /// `catalogues:`; absent means one `catalogue.pdf`, `[]` means none.
  public var catalogues: [CatalogueSpec] = [CatalogueSpec(file: Located("catalogue.pdf"))]
  /// `gallery:`: write the web gallery (`index.html` and `thumbs/<slug>.png`); on by default.
  /// Off, a previous run's gallery files are removed.
  public var gallery = true
  /// The job file's text, so later checks (family names against installed fonts) can make
  /// diagnostics with snippets: `job.source?.error("…", at: name.mark)`. Nil for a built-in job.
  public var source: SourceText?
  /// The job file's bytes as read (nil for a built-in job): what `run --shard` records for
  /// `merge` to decode again, and what the job's fingerprint hashes.
  public var bytes: [UInt8]?

  public init(path: String?, directory: String, output: String) {
    self.path = path
    self.directory = directory
    self.output = output
  }
}
