import FontiFonts
import FontiModel
import FontiText
import Foundation

/// Everything one catalogue PDF shows, resolved by the batch engine: the families it selected
/// (in order), their partners, the pairings and the favourites. Plain data, Sendable.
/// `Family`: see `SpecimenRequest` (`FamilyRef` for a worker, `FontFamily` to draw).
public struct CatalogueInput<Family: FamilyCarrier>: Sendable, Hashable {
  /// The `catalogues:` entry's page size and theme.
  public var page: PageSize
  public var theme: Theme
  /// Cover and PDF metadata.
  public var title: String
  public var author: String?
  /// `defaults.text` and `defaults.size`: the sample on every family page.
  public var text: String
  public var size: Double
  /// `texts:`: extra lines on every family page.
  public var texts: [String]
  /// `sizes:`: the waterfall, in points.
  public var sizes: [Double]
  /// `styles:`: the faces each family page shows, when the family has them.
  public var styles: StyleSelection
  /// One page (or more) each, in this order.
  public var families: [Family]
  /// "Pairs well with" partners by family name (exact `name`); installed only.
  public var partners: [String: [Family]]
  /// The Pairings section; omitted when empty.
  public var pairings: [FamilyPairing<Family>]
  /// The Saved section's favourites, most recently saved first.
  public var saved: [Family]
  /// Shown on the cover and written as the PDF's creation and modification dates: nil means
  /// the time it is drawn (see `dated()`). The batch engine passes `SOURCE_DATE_EPOCH` when it
  /// is set (`Timestamp.sourceDateEpoch`), so that two runs with the same inputs write the same
  /// bytes; a run's fingerprint of the catalogue leaves it nil otherwise.
  public var creationDate: Date?
  /// The proof pages after each family's page (`proofs:`); nil: none (and the catalogue's
  /// recorded inputs are those of a catalogue without proofs).
  public var proofs: ProofOptions?
  /// `defaults.language`, `.variations`, `.features`, for the sample, the texts and the
  /// waterfall of each family page (never its labels); nil: none.
  public var sample: SampleSettings?

  public init(
    page: PageSize = .a4, theme: Theme = .cream, title: String, author: String? = nil,
    text: String = defaultSampleText, size: Double = 48, texts: [String] = [],
    sizes: [Double] = [12, 18, 24, 36, 48, 72, 96], styles: StyleSelection = .standard,
    families: [Family], partners: [String: [Family]] = [:],
    pairings: [FamilyPairing<Family>] = [], saved: [Family] = [], creationDate: Date?,
    proofs: ProofOptions? = nil, sample: SampleSettings? = nil
  ) {
    self.page = page
    self.theme = theme
    self.title = title
    self.author = author
    self.text = text
    self.size = size
    self.texts = texts
    self.sizes = sizes
    self.styles = styles
    self.families = families
    self.partners = partners
    self.pairings = pairings
    self.saved = saved
    self.creationDate = creationDate
    self.proofs = proofs
    self.sample = sample
  }

  /// The input for a `catalogues:` entry (its page and theme; its `file` and `families` were
  /// used by the caller to choose the path and `families`), with the given title and texts.
  public init(
    spec: Job.CatalogueSpec, title: String, author: String? = nil,
    text: String = defaultSampleText, size: Double = 48, texts: [String] = [],
    sizes: [Double] = [12, 18, 24, 36, 48, 72, 96], styles: StyleSelection = .standard,
    families: [Family], partners: [String: [Family]] = [:],
    pairings: [FamilyPairing<Family>] = [], saved: [Family] = [], creationDate: Date?
  ) {
    self.init(
      page: spec.page, theme: spec.theme, title: title, author: author, text: text, size: size,
      texts: texts, sizes: sizes, styles: styles, families: families, partners: partners,
      pairings: pairings, saved: saved, creationDate: creationDate)
  }

  /// The input for `spec` with the job's settings (title, author, sample, texts, sizes,
  /// styles).
  public init(
    spec: Job.CatalogueSpec, job: Job, families: [Family], partners: [String: [Family]] = [:],
    pairings: [FamilyPairing<Family>] = [], saved: [Family] = [], creationDate: Date?
  ) {
    self.init(
      spec: spec, title: job.title, author: job.author, text: job.defaults.text,
      size: job.defaults.size, texts: job.texts, sizes: job.sizes, styles: job.styles,
      families: families, partners: partners, pairings: pairings, saved: saved,
      creationDate: creationDate)
  }

  /// The same catalogue with its families carried another way; a family `transform` answers
  /// nil for is left out (of the pages, the partners, the saved ones; a pairing needs both).
  public func mapFamilies<Other>(_ transform: (Family) -> Other?) -> CatalogueInput<Other> {
    CatalogueInput<Other>(
      page: page, theme: theme, title: title, author: author, text: text, size: size,
      texts: texts, sizes: sizes, styles: styles, families: families.compactMap(transform),
      partners: partners.mapValues { $0.compactMap(transform) },
      pairings: pairings.compactMap { $0.mapFamilies(transform) },
      saved: saved.compactMap(transform), creationDate: creationDate, proofs: proofs,
      sample: sample)
  }

  /// With `creationDate` set: as it is, or now (in whole seconds) when it is nil. Drawing and
  /// finishing a catalogue must show one date.
  public func dated() -> CatalogueInput {
    var input = self
    if input.creationDate == nil {
      input.creationDate = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }
    return input
  }

  /// The date shown and written; `dated()` sets it before anything is drawn.
  package var date: Date { creationDate ?? Date(timeIntervalSince1970: 0) }

  /// The partners of `family`, looked up by exact name, then case-insensitively.
  func partners(of family: Family) -> [Family] {
    if let exact = partners[family.name] { return exact }
    let lower = family.name.lowercased()
    return partners.first { $0.key.lowercased() == lower }?.value ?? []
  }
}

extension CatalogueInput: Codable where Family: Codable {}

/// What writing a catalogue found out, for the manifest and the run summary.
public struct CatalogueResult: Sendable, Hashable {
  /// Pages in the written PDF.
  public var pages: Int
  /// Characters of the sample and extra texts drawn as boxes on each family's pages, by
  /// family name; families that lack none are absent.
  public var missingGlyphs: [String: Int]
  /// Problems worth telling the user; the PDF was still written.
  public var warnings: [String]
  /// Each family's first page (1-based, as `#page=N` counts), in the catalogue's order.
  public var familyPages: [RunManifest.FamilyPage] = []
  /// What the finishing step needs to complete the PDF's structure tree (languages).
  package var tagging: PDFTagging?

  public init(pages: Int, missingGlyphs: [String: Int], warnings: [String]) {
    self.pages = pages
    self.missingGlyphs = missingGlyphs
    self.warnings = warnings
  }
}
