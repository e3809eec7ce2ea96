import Foundation

/// One heading + body pairing as a catalogue's Pairings section shows it.
public struct CataloguePairing: Sendable, Hashable {
  /// Set large, over the body paragraph.
  public var heading: FontFamily
  /// Sets the paragraph.
  public var body: FontFamily
  /// Why the two work together, shown under the pair.
  public var reason: String

  public init(heading: FontFamily, body: FontFamily, reason: String) {
    self.heading = heading
    self.body = body
    self.reason = reason
  }
}

/// Everything one catalogue PDF shows, resolved by the batch engine: the families it selected
/// (in order), their partners, the pairings and the favourites. Plain data, Sendable.
public struct CatalogueInput: Sendable {
  /// The `catalogues:` entry: page size and theme (its `file` and `families` were used by the
  /// caller to choose the path and `families`).
  public var spec: Job.CatalogueSpec
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
  public var styles: [StyleName]
  /// One page (or more) each, in this order.
  public var families: [FontFamily]
  /// "Pairs well with" partners by family name (exact `FontFamily.name`); installed only.
  public var partners: [String: [FontFamily]]
  /// The Pairings section; omitted when empty.
  public var pairings: [CataloguePairing]
  /// The Saved section's favourites, most recently saved first.
  public var saved: [FontFamily]
  /// Shown on the cover and written as the PDF's creation and modification dates. The batch
  /// engine passes `SOURCE_DATE_EPOCH` when it is set (see `reproducibleDate`), so that two
  /// runs with the same inputs write the same bytes.
  public var creationDate: Date

  public init(
    spec: Job.CatalogueSpec, title: String, author: String? = nil,
    text: String = defaultSampleText, size: Double = 48, texts: [String] = [],
    sizes: [Double] = [12, 18, 24, 36, 48, 72, 96], styles: [StyleName] = StyleName.allCases,
    families: [FontFamily], partners: [String: [FontFamily]] = [:],
    pairings: [CataloguePairing] = [], saved: [FontFamily] = [], creationDate: Date
  ) {
    self.spec = spec
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
  }

  /// The input for `spec` with the job's settings (title, author, sample, texts, sizes,
  /// styles).
  public init(
    spec: Job.CatalogueSpec, job: Job, families: [FontFamily],
    partners: [String: [FontFamily]] = [:], pairings: [CataloguePairing] = [],
    saved: [FontFamily] = [], creationDate: Date
  ) {
    self.init(
      spec: spec, title: job.title, author: job.author, text: job.defaults.text,
      size: job.defaults.size, texts: job.texts, sizes: job.sizes, styles: job.styles,
      families: families, partners: partners, pairings: pairings, saved: saved,
      creationDate: creationDate)
  }

  /// `SOURCE_DATE_EPOCH` (whole seconds since 1970, UTC) when it is set and valid, else now.
  public static func reproducibleDate(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Date {
    if let text = environment["SOURCE_DATE_EPOCH"]?.trimmingCharacters(in: .whitespaces),
      let seconds = Int64(text), seconds >= 0, seconds < 253_402_300_800  // year 10000
    {
      return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
    return Date()
  }

  /// The partners of `family`, looked up by exact name, then case-insensitively.
  func partners(of family: FontFamily) -> [FontFamily] {
    if let exact = partners[family.name] { return exact }
    let lower = family.name.lowercased()
    return partners.first { $0.key.lowercased() == lower }?.value ?? []
  }
}

/// What writing a catalogue found out, for the manifest and the run summary.
public struct CatalogueResult: Sendable, Hashable {
  /// Pages in the written PDF.
  public var pages: Int
  /// Characters of the sample and extra texts drawn as boxes on each family's pages, by
  /// family name; families that lack none are absent.
  public var missingGlyphs: [String: Int]
  /// Problems worth telling the user; the PDF was still written.
  public var warnings: [String]

  public init(pages: Int, missingGlyphs: [String: Int], warnings: [String]) {
    self.pages = pages
    self.missingGlyphs = missingGlyphs
    self.warnings = warnings
  }
}
