import FontiModel

/// Reads which colour glyph formats a face has, from its table directory and two headers (COLR's
/// version and v1 glyph list, CPAL's palette count). Pure reads over the tables' bytes, each
/// bounds-checked: a table too short for its header counts as absent.
extension FontColour {
  /// The colour of face `index` of `file`; nil when it has no colour table or cannot be read
  /// (what cannot be read is reported where it is read).
  package init?(file: String, index: Int = 0) {
    guard let face = try? HarfBuzzFace(file: file, index: index) else { return nil }
    self.init(face: face)
  }

  /// The colour of `face`; nil when it has none.
  package init?(face: HarfBuzzFace) {
    let colr = face.withTable("COLR") { Self.colrFormats($0) }
    let palettes = face.withTable("CPAL") { Self.paletteCount($0) }
    var formats: Set<Format> = Set(colr)
    if face.withTable("CBDT", { $0.count > 0 }) && face.withTable("CBLC", { $0.count > 0 }) {
      formats.insert(.cbdt)
    }
    if face.withTable("sbix", { $0.count >= 8 }) { formats.insert(.sbix) }
    if face.withTable("SVG ", { $0.count >= 10 }) { formats.insert(.svg) }
    guard !formats.isEmpty else { return nil }
    self.init(
      formats: Format.allCases.filter(formats.contains).map(\.rawValue), palettes: palettes)
  }

  /// COLR's formats: version 0 has base glyph records; version 1 may have them too, and has
  /// paint graphs when its BaseGlyphList (an offset at byte 14) lists a glyph.
  static func colrFormats(_ table: UnsafeRawBufferPointer) -> [Format] {
    guard let version = u16(table, 0), let records = u16(table, 2) else { return [] }
    var formats: [Format] = records > 0 ? [.colr0] : []
    if version >= 1, let list = u32(table, 14), list > 0, list <= table.count - 4,
      let count = u32(table, Int(list)), count > 0
    {
      formats.append(.colr1)
    }
    return formats
  }

  /// CPAL's numPalettes (at byte 4); 0 for an absent or short table.
  static func paletteCount(_ table: UnsafeRawBufferPointer) -> Int {
    u16(table, 4).map(Int.init) ?? 0
  }

  private static func u16(_ t: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
    guard at >= 0, at + 2 <= t.count else { return nil }
    return UInt32(t[at]) << 8 | UInt32(t[at + 1])
  }

  private static func u32(_ t: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
    guard let high = u16(t, at), let low = u16(t, at + 2) else { return nil }
    return high << 16 | low
  }
}
