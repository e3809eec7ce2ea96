import FontiModel
import FontiSupport
import Foundation

/// Everything the web gallery (`index.html`) shows, as plain data: what a run knows once its
/// manifest is written. `GalleryPage.html(_:)` turns it into the page; nothing else goes in (no
/// clock, no file system), so the same model always gives the same bytes.
///
/// Paths are relative to the output folder, where `index.html` lies, with `/` between folders
/// (`specimens/inter.png`, `catalogue.pdf`). Families are shown in the order given (a run's
/// manifest order: by name).
public struct GalleryModel: Sendable, Codable, Equatable {
  /// The job's `title`.
  public var title: String
  /// `fonti-batch 1.0.0`.
  public var tool: String = FontiVersion.tool
  /// When the outputs were made (`SOURCE_DATE_EPOCH` when set), shown as a day; nil shows none.
  /// An unchanged re-run should pass the same date, so that the page stays byte for byte the
  /// same and is not rewritten.
  public var date: Date?
  public var families: [Family]
  /// Every catalogue the run wrote, in the job's order.
  public var catalogues: [Catalogue] = []
  /// The `diff` review in the output folder, when there is one.
  public var diff: DiffReview?

  /// One family's card, and what its dialog links to.
  public struct Family: Sendable, Codable, Equatable {
    public var name: String
    public var slug: String
    /// `specimens/<slug>.png`; nil when the family failed.
    public var specimen: String?
    /// `thumbs/<slug>.png` and its size in pixels; nil when there is none (the card then shows
    /// the specimen itself, scaled down by the browser).
    public var thumbnail: Image?
    /// What the card shows on a screen of twice the density or more (a designer's laptop),
    /// where the thumbnail alone would be enlarged and soft: the specimen, when it is at least
    /// twice the thumbnail's width (`srcset`'s `2x`); nil otherwise.
    public var highDensity: String?
    /// The family's faces as fontconfig names them (`Regular`, `Bold Italic`, …): the
    /// manifest's `faces`, or its `styles` in a manifest written before faces were listed.
    public var styles: [String] = []
    public var bold: Bool = false
    public var italic: Bool = false
    public var custom: Bool = false
    public var saved: Bool = false
    public var missingGlyphs: Int = 0
    public var warnings: [String] = []
    /// Why the family could not be drawn, when it could not (`specimen` is nil then).
    public var error: String?
    /// Variation axes; empty for a static font.
    public var axes: [Axis] = []
    /// Languages the family can set completely; empty until the proofs report them.
    public var languages: [Language] = []
    /// The family's page in each catalogue that has it.
    public var cataloguePages: [CataloguePage] = []
    /// Pairing sheets the family is on, heading or body.
    public var pairings: [Pairing] = []

    /// A variable font, or one with warnings of the job's kinds (docs/warnings.md: a sample
    /// it cannot fully set, a coordinate out of range) or a failure: what the gallery's filters
    /// select on. Facts about the fonts (a family shown in its own script, a face covering less
    /// than the regular) are no such warning: on a machine with many script fonts they would
    /// put most families under the filter.
    public var isVariable: Bool { !axes.isEmpty }
    public var hasWarnings: Bool { error != nil || !jobWarnings.isEmpty }
    /// The family's warnings of the job's kinds: what fails `--strict`, marked ⚠.
    public var jobWarnings: [String] { warnings.filter { WarningKind.of($0).group == .job } }
    /// The family's facts about its fonts: a neutral note, never ⚠.
    public var notes: [String] { warnings.filter { WarningKind.of($0).group == .font } }
  }

  /// An image file and its size in pixels (the `<img>`'s `width` and `height`, so the grid
  /// never moves while thumbnails load).
  public struct Image: Sendable, Codable, Equatable {
    public var path: String
    public var width: Int
    public var height: Int
  }

  /// A variation axis and its range (`wght` 100–900).
  public struct Axis: Sendable, Codable, Equatable {
    public var tag: String
    public var min: Double
    public var max: Double
  }

  /// A language: its code (`fr`, `sr-latn`) and English name (`French`).
  public struct Language: Sendable, Codable, Equatable, Hashable {
    public var code: String
    public var name: String
  }

  /// A family's page in a catalogue: `catalogue.pdf#page=12`, and its weights page when it has
  /// one.
  public struct CataloguePage: Sendable, Codable, Equatable {
    public var file: String
    public var page: Int
    public var facesPage: Int?

    public init(file: String, page: Int, facesPage: Int? = nil) {
      self.file = file
      self.page = page
      self.facesPage = facesPage
    }
  }

  /// A pairing sheet a family is on, and the other family of the pair.
  public struct Pairing: Sendable, Codable, Equatable {
    public enum Role: String, Sendable, Codable {
      case heading, body
    }

    public var file: String
    public var partner: String
    /// This family's part on the sheet.
    public var role: Role
  }

  /// A PDF catalogue and its page count.
  public struct Catalogue: Sendable, Codable, Equatable {
    public var file: String
    public var pages: Int
  }

  /// A `diff` review lying in the output folder (`diff … -o output/diff`).
  public struct DiffReview: Sendable, Codable, Equatable {
    /// `diff/diff.pdf`.
    public var report: String?
    /// `diff/diff.md`.
    public var summary: String?
    public var counts: Counts?

    /// Families by status, from `diff.json`.
    public struct Counts: Sendable, Codable, Equatable {
      public var added: Int
      public var removed: Int
      public var changed: Int
      public var unchanged: Int
      public var failed: Int = 0
    }
  }
}
