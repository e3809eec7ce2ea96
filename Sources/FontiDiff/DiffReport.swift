import FontiFonts
import FontiSupport
import Foundation

/// `diff.json`: everything a comparison found, for scripts and CI (`docs/diff.md`,
/// "diff.json"). Families sorted by name; within a family, only what changed is listed.
public struct DiffReport: Codable, Sendable, Hashable {
  public var version = 1
  public var tool = FontiVersion.tool
  /// BEFORE and AFTER as given on the command line.
  public var before: String
  public var after: String
  /// A glyph is changed when more than this many pixels differ at `pixelsPerEm`.
  public var threshold: Int
  /// Grey levels by which a pixel must differ to count.
  public var greyLevels: Int
  public var pixelsPerEm: Int
  /// The compared sample text.
  public var text: String
  public var counts: Counts
  public var families: [Family]
  /// Files that are not fonts and whose family could not even be named; they fail the run
  /// like a failed family.
  public var unreadable: [UnreadableFile]

  public struct Counts: Codable, Sendable, Hashable {
    public var families = 0
    public var added = 0
    public var removed = 0
    public var changed = 0
    public var unchanged = 0
    public var failed = 0
  }

  public enum Status: String, Codable, Sendable, Hashable {
    case added, removed, changed, unchanged, failed
  }

  /// One family, on one side or both.
  public struct Family: Codable, Sendable, Hashable {
    public var family: String
    public var slug: String
    public var status: Status
    /// Why the family failed (status `failed`).
    public var error: String?
    public var files: Files
    /// `changes/<slug>.png`, for a changed family.
    public var image: String?
    /// The changes in words, as diff.md and the PDF say them.
    public var summary: [String]
    public var codepoints = AddedRemoved<String>()
    public var glyphs: [Glyph] = []
    /// Glyphs whose outline differs but by `threshold` pixels or fewer (those in `glyphsMoved`
    /// included).
    public var glyphsBelowThreshold = 0
    /// The glyphs below the threshold whose outline was edited (`OutlineShape`): points moved
    /// by a font unit or more (`moved`), or redrawn to another shape (no `moved`). A change of
    /// the family, however few pixels it paints.
    public var glyphsMoved: [Glyph] = []
    /// The regular face's vertical metrics that changed: `{ "xHeight": [400, 420] }`.
    public var metrics: [String: [Int?]] = [:]
    /// The same for the other faces, where theirs changed.
    public var faceMetrics: [FaceMetrics] = []
    public var faces = Faces()
    public var axes = Axes()
    public var instances = Instances()
    public var features = Features()
    public var languages = Languages()
    /// For a removed or added family: the family it was probably renamed to or from.
    public var likelyRename: LikelyRename?
    /// What shaping does differently, per face (`DiffReport+Shaping`).
    public var shaping: [FaceShaping] = []
    public var sample: [Sample] = []
    /// Every change, each with a stable `kind` (`DiffReport+Changes`, docs/diff.md): those the
    /// fields above hold, and what the faces declare, their hinting, colour and other tables.
    /// Always written; nil only when reading a diff.json of an older version.
    public var changes: [Change]? = []
    /// Differences that are information only (name IDs 3 and 5, `head.fontRevision`, the dates,
    /// `checkSumAdjustment`): never a change. Always written, as `changes`.
    public var info: [Change]? = []
  }

  public struct Files: Codable, Sendable, Hashable {
    public var before: [String] = []
    public var after: [String] = []
  }

  public struct AddedRemoved<Element: Codable & Sendable & Hashable>: Codable, Sendable,
    Hashable
  {
    public var added: [Element] = []
    public var removed: [Element] = []
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
  }

  /// What a version added and removed of a kind of thing, and the things both sides have that
  /// differ (`Axes`, `Instances`, `Features`).
  public struct Changes<
    Element: Codable & Sendable & Hashable, Change: Codable & Sendable & Hashable
  >: Codable, Sendable, Hashable {
    public var added: [Element] = []
    public var removed: [Element] = []
    public var changed: [Change] = []
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
  }

  /// A glyph that changed: its character, where, how many pixels differ and its advances.
  public struct Glyph: Codable, Sendable, Hashable {
    public var codepoint: String
    public var face: String
    /// The named instance of a variable font.
    public var instance: String?
    public var pixels: Int
    public var advance: [Int]
    /// How far the outline's points moved, at most, in font units (rounded), when both sides
    /// draw the glyph with the same points at the same units per em.
    public var moved: Int? = nil
  }

  public struct FaceMetrics: Codable, Sendable, Hashable {
    public var face: String
    public var metrics: [String: [Int?]]
  }

  public struct Faces: Codable, Sendable, Hashable {
    public var added: [String] = []
    public var removed: [String] = []
    /// Faces paired by weight, slant and width whose style names differ.
    public var renamed: [Renamed] = []
    /// A face removed on one side compared with a named instance (or a face) added on the
    /// other, across a move between static fonts and a variable font: no change in itself,
    /// what the pair differs in is. Written only when there are some.
    public var migrated: [Migration]? = nil
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && renamed.isEmpty }
  }

  /// A face of a migration: a static face, or a variable font's named instance (or the
  /// variable font at its default, when it names no instance).
  public struct PairedFace: Codable, Sendable, Hashable {
    /// The file, as `files` lists it.
    public var file: String
    /// The face's label on its side, or the instance's name.
    public var style: String
    /// The named instance compared, for a variable font's.
    public var instance: String?
  }

  /// The two sides of a migrated pair, as `changes` say it of each of its changes.
  public struct PairedWith: Codable, Sendable, Hashable {
    public var before: PairedFace
    public var after: PairedFace
  }

  /// A migrated pair: `face` is its label, as its changes name it ("Bold (static) → Bold
  /// (instance of Inter)").
  public struct Migration: Codable, Sendable, Hashable {
    public var face: String
    public var before: PairedFace
    public var after: PairedFace
  }

  public struct Renamed: Codable, Sendable, Hashable {
    public var before: String
    public var after: String
  }

  public struct Axis: Codable, Sendable, Hashable {
    public var tag: String
    public var name: String
    public var min: Double
    public var `default`: Double
    public var max: Double
  }

  public struct AxisChange: Codable, Sendable, Hashable {
    public var face: String
    public var before: Axis
    public var after: Axis
  }

  public typealias Axes = Changes<Axis, AxisChange>

  public struct Instance: Codable, Sendable, Hashable {
    public var face: String
    public var name: String
    public var coordinates: [String: Double]
  }

  public struct InstanceChange: Codable, Sendable, Hashable {
    public var face: String
    public var name: String
    public var before: [String: Double]
    public var after: [String: Double]
  }

  public typealias Instances = Changes<Instance, InstanceChange>

  /// The sample text where its width or its image changed.
  public struct Sample: Codable, Sendable, Hashable {
    public var face: String
    public var instance: String?
    /// The text compared, when the family could not set the review's (a sample in its own
    /// script, as specimens show).
    public var text: String?
    public var width: [Int]
    public var pixels: Int
  }

  /// Layout features (GSUB, GPOS) of the family, as proofs read them: tags added and removed,
  /// and features whose visible effect or sample changed.
  public typealias Features = Changes<String, FeatureChange>

  /// A feature both sides have whose `visible` flag or sample text changed.
  public struct FeatureChange: Codable, Sendable, Hashable {
    public var tag: String
    public var name: String
    /// `[before, after]`.
    public var visible: [Bool]
    /// The text that shows the feature, `[before, after]`; null where it has no visible effect.
    public var sample: [String?]
  }

  /// Languages (fontconfig's orthographies) by the regular face's characters, as
  /// `LanguageCoverage` says them: supported languages gained and lost, and nearly supported
  /// ones whose missing characters changed.
  public struct Languages: Codable, Sendable, Hashable {
    public var added: [String] = []
    public var removed: [String] = []
    public var nearly: [NearlyChange] = []
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && nearly.isEmpty }
  }

  /// A language nearly supported on one side or both, supported on neither, whose missing
  /// characters changed: `before`/`after` are the characters missing (`U+XXXX`), null where
  /// it lacks more than `LanguageCoverage.nearlyLimit`.
  public struct NearlyChange: Codable, Sendable, Hashable {
    public var language: String
    public var before: [String]?
    public var after: [String]?
  }

  public struct UnreadableFile: Codable, Sendable, Hashable {
    public var side: String
    public var file: String
    public var error: String
  }

  /// Pretty, sorted keys, no escaped slashes: the same report gives the same bytes.
  public func encoded() throws -> Data {
    try JSONEncoder(.pretty).encodeDocument(self)
  }

  /// Whether the review should fail a CI step: some family failed, or a file was unreadable.
  public var hasFailures: Bool { counts.failed > 0 || !unreadable.isEmpty }

  /// Whether anything changed, was added or removed (`--exit-code`).
  public var hasDifferences: Bool { counts.added + counts.removed + counts.changed > 0 }
}

/// Numbers as reviews print them: integers without a decimal point, others with at most two
/// decimals, in the C locale.
enum DiffNumber {
  static func text(_ value: Double) -> String {
    guard value.isFinite else { return "?" }
    let rounded = (value * 100).rounded() / 100
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(format: "%.2f", rounded).replacingOccurrences(
      of: "0+$", with: "", options: .regularExpression)
  }

  /// "U+0041"; at least four hex digits.
  static func codepoint(_ scalar: UInt32) -> String {
    let hex = String(scalar, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// The scalar value of "U+0041"; nil when it is not one.
  static func scalar(_ codepoint: String) -> UInt32? { UInt32(codepoint.dropFirst(2), radix: 16) }

  /// "+40", "−12", "0".
  static func signed(_ value: Int) -> String {
    value > 0 ? "+\(value)" : value < 0 ? "−\(-value)" : "0"
  }
}
