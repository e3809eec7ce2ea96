import FontiSupport
import FontiText
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One family of a `diff`, compared by a worker process (`WorkItem.diff`): a crash in HarfBuzz
/// or Cairo on a hostile font costs that family only.
public struct DiffFamilyTask: Codable, Sendable, Hashable {
  package var before: SideFamily?
  package var after: SideFamily?
  package var slug: String
  package var settings: DiffSettings
  /// The review's folder: a changed family's glyph images and sample wait there, in a hidden
  /// temporary file, until the PNG and the PDF are drawn (`DiffResult.outcome(at:)`).
  package var folder: String

  /// The family's name, as the review shows it.
  package var name: String { after?.name ?? before?.name ?? slug }

  /// Every file of the family, both sides.
  package var files: [String] { (before?.files ?? []) + (after?.files ?? []) }

  package init(
    before: SideFamily? = nil,
    after: SideFamily? = nil,
    slug: String,
    settings: DiffSettings,
    folder: String
  ) {
    self.before = before
    self.after = after
    self.slug = slug
    self.settings = settings
    self.folder = folder
  }
}

/// What a worker found for one family: its diff.json entry, and the file where what its review
/// pages draw waits (for a changed family).
///
/// A class, so that a `WorkResult` holds it as one pointer: the entry is large, and a run keeps
/// a result per output, `diff` or not (held inline, the entry would make 10 MB of mostly empty
/// slots at 4,000 families).
public final class DiffFamilyResult: Codable, Sendable, Hashable {
  package let entry: DiffReport.Family
  package let stored: String?

  package init(entry: DiffReport.Family, stored: String?) {
    self.entry = entry
    self.stored = stored
  }

  public static func == (a: DiffFamilyResult, b: DiffFamilyResult) -> Bool {
    a.entry == b.entry && a.stored == b.stored
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(entry)
    hasher.combine(stored)
  }
}

/// What the review pages of a changed family draw, as a worker leaves it on disk.
struct FamilyDrawing: Codable {
  var glyphImages: [GlyphChange]
  var sample: SampleChange?
  var profile: FamilyProfile?
  var charactersAdded: [GlyphChange]
  var charactersRemoved: [GlyphChange]
  var shapingImages: [ShapingImage]
  var instanceImages: [SampleChange]

  /// The file name the temporary takes after `.fonti-tmp-PID-RANDOM-`.
  static func name(_ slug: String) -> String { "review-\(slug).json" }

  static let limit = 64 << 20

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder(.message)
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }

  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }
}

package enum DiffWork {
  package static func store(_ outcome: FamilyOutcome, in folder: String, slug: String) throws
    -> String
  {
    let data = try FamilyDrawing.encoder().encode(
      FamilyDrawing(
        glyphImages: outcome.glyphImages, sample: outcome.sample, profile: outcome.profile,
        charactersAdded: outcome.charactersAdded, charactersRemoved: outcome.charactersRemoved,
        shapingImages: outcome.shapingImages, instanceImages: outcome.instanceImages))
    let (fd, path) = try AtomicFile.createTemporary(
      beside: folder + "/" + FamilyDrawing.name(slug), mode: 0o600)
    defer { close(fd) }
    do {
      try FileSystem.writeAll(fd, data, path: path)
    } catch {
      unlink(path)
      throw error
    }
    return path
  }

  /// Reads back what `store` wrote; nil when it cannot.
  static func load(_ path: String) -> FamilyDrawing? {
    guard let data = try? AtomicFile.read(path, limit: FamilyDrawing.limit) else { return nil }
    return try? FamilyDrawing.decoder().decode(FamilyDrawing.self, from: data)
  }
}

// MARK: - Drawings on disk

extension GlyphChange: Codable {
  enum CodingKeys: String, CodingKey {
    case entry, before, after, unitsPerEm
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let units = try c.decode([Int].self, forKey: .unitsPerEm)
    guard units.count == 2 else {
      throw DecodingError.dataCorruptedError(
        forKey: .unitsPerEm, in: c, debugDescription: "two units per em expected")
    }
    self.init(
      entry: try c.decode(DiffReport.Glyph.self, forKey: .entry),
      before: try c.decode(GlyphOutline.self, forKey: .before),
      after: try c.decode(GlyphOutline.self, forKey: .after), unitsPerEm: (units[0], units[1]))
  }

  package func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(entry, forKey: .entry)
    try c.encode(before, forKey: .before)
    try c.encode(after, forKey: .after)
    try c.encode([unitsPerEm.before, unitsPerEm.after], forKey: .unitsPerEm)
  }
}

extension ShapedText.Word: Codable {
  enum CodingKeys: String, CodingKey {
    case glyphs, x, y, width
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let glyphs = try c.decode([UInt32].self, forKey: .glyphs)
    let xs = try c.decode([Int].self, forKey: .x)
    let ys = try c.decode([Int].self, forKey: .y)
    guard xs.count == glyphs.count, ys.count == glyphs.count else {
      throw DecodingError.dataCorruptedError(
        forKey: .glyphs, in: c, debugDescription: "one position per glyph expected")
    }
    self.init(
      glyphs: (0..<glyphs.count).map { (glyphs[$0], xs[$0], ys[$0]) },
      width: try c.decode(Int.self, forKey: .width))
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(glyphs.map(\.glyph), forKey: .glyphs)
    try c.encode(glyphs.map(\.x), forKey: .x)
    try c.encode(glyphs.map(\.y), forKey: .y)
    try c.encode(width, forKey: .width)
  }
}
