/// Which colour glyph formats a family's fonts carry, as `manifest.json` and `families --json`
/// give them (`colour: {formats: [colr0, colr1, cbdt, sbix, svg], palettes: N}`): absent for a
/// family without colour tables.
public struct FontColour: Codable, Sendable, Hashable {
  /// The formats, in the order of `Format.allCases`.
  public var formats: [String]
  /// The most CPAL palettes a face of the family has (0 without CPAL).
  public var palettes: Int

  public init(formats: [String], palettes: Int) {
    self.formats = formats
    self.palettes = palettes
  }

  /// A colour glyph format: COLR version 0 (layers) and 1 (paint graphs), colour bitmaps
  /// (CBDT/CBLC, sbix) and SVG documents.
  public enum Format: String, Sendable, CaseIterable {
    case colr0, colr1, cbdt, sbix, svg

    /// The name a page shows ("COLRv1", "SVG").
    public var label: String {
      switch self {
      case .colr0: return "COLRv0"
      case .colr1: return "COLRv1"
      case .cbdt: return "CBDT"
      case .sbix: return "sbix"
      case .svg: return "SVG"
      }
    }
  }

  /// The formats known by name, in order (a name from another version is left out).
  public var known: [Format] { Format.allCases.filter { formats.contains($0.rawValue) } }

  /// The formats this tool draws in one colour (Cairo 1.16 paints COLRv0 and colour bitmaps,
  /// nothing else): COLRv1, and SVG glyphs where no format it draws stands in for them.
  public var notDrawn: [Format] {
    var formats = known.filter { $0 == .colr1 }
    let drawn = known.contains { $0 == .colr0 || $0 == .cbdt || $0 == .sbix }
    if known.contains(.svg) && !drawn { formats.append(.svg) }
    return formats
  }

  /// The page's and the warning's words for `notDrawn`: "colour glyphs (COLRv1) drawn in one
  /// colour"; nil when every colour format is drawn.
  public var notDrawnNote: String? {
    let formats = notDrawn
    guard !formats.isEmpty else { return nil }
    return "colour glyphs (\(formats.map(\.label).joined(separator: ", "))) drawn in one colour"
  }

  /// The formats and palettes of several faces together; nil when none has any.
  public static func union(_ faces: [FontColour?]) -> FontColour? {
    let present = faces.compactMap { $0 }
    guard !present.isEmpty else { return nil }
    let names = Set(present.flatMap(\.formats))
    return FontColour(
      formats: Format.allCases.map(\.rawValue).filter(names.contains),
      palettes: present.map(\.palettes).max() ?? 0)
  }
}
