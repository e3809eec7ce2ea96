import Foundation

/// A table's bytes, read big-endian with every offset checked: a read past the end is nil, never
/// a trap (font bytes are hostile input).
struct FontTable {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var count: Int { bytes.count }
  var isEmpty: Bool { bytes.isEmpty }

  func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }

  func u16(_ at: Int) -> Int? {
    guard at >= 0, at <= bytes.count - 2 else { return nil }
    return Int(bytes[at]) << 8 | Int(bytes[at + 1])
  }

  func i16(_ at: Int) -> Int? { u16(at).map { Int(Int16(truncatingIfNeeded: $0)) } }

  func u24(_ at: Int) -> Int? {
    guard at >= 0, at <= bytes.count - 3 else { return nil }
    return Int(bytes[at]) << 16 | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
  }

  func u32(_ at: Int) -> Int? {
    guard let high = u16(at), let low = u16(at + 2) else { return nil }
    return high << 16 | low
  }

  /// A 16.16 fixed-point number.
  func fixed(_ at: Int) -> Double? {
    u32(at).map { Double(Int32(truncatingIfNeeded: $0)) / 65536 }
  }

  /// `length` bytes from `at`, or nil when they run past the end.
  func slice(_ at: Int, _ length: Int) -> ArraySlice<UInt8>? {
    guard at >= 0, length >= 0, at <= bytes.count, length <= bytes.count - at else { return nil }
    return bytes[at..<(at + length)]
  }

  /// Four bytes as a tag, printable ASCII kept (anything else as "?").
  func tag(_ at: Int) -> String? {
    slice(at, 4).map { Self.tagText(Array($0)) }
  }

  static func tagText(_ bytes: [UInt8]) -> String {
    String(bytes.map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "?" })
  }
}

/// The records of a `name` table, each by platform, encoding, language and name ID.
enum NameTable {
  struct Key: Hashable, Comparable {
    var platform: Int
    var encoding: Int
    var language: Int
    var id: Int

    static func < (a: Key, b: Key) -> Bool {
      (a.id, a.platform, a.encoding, a.language) < (b.id, b.platform, b.encoding, b.language)
    }

    /// `3/1/0x0409`: platform, encoding, language.
    var record: String {
      let hex = String(language, radix: 16, uppercase: true)
      return "\(platform)/\(encoding)/0x" + String(repeating: "0", count: max(0, 4 - hex.count))
        + hex
    }
  }

  /// Every record whose string lies inside the table; a record repeated keeps its first string.
  static func read(_ t: FontTable) -> [Key: String] {
    guard let count = t.u16(2), let storage = t.u16(4) else { return [:] }
    var out: [Key: String] = [:]
    for i in 0..<count {
      let at = 6 + 12 * i
      guard let platform = t.u16(at), let encoding = t.u16(at + 2),
        let language = t.u16(at + 4), let id = t.u16(at + 6), let length = t.u16(at + 8),
        let offset = t.u16(at + 10)
      else { break }
      let key = Key(platform: platform, encoding: encoding, language: language, id: id)
      guard out[key] == nil, let bytes = t.slice(storage + offset, length) else { continue }
      out[key] = decode(Array(bytes), platform: platform, encoding: encoding)
    }
    return out
  }

  /// UTF-16BE for Unicode and Windows records, Mac Roman for Macintosh Roman, else the bytes in
  /// hex.
  static func decode(_ bytes: [UInt8], platform: Int, encoding: Int) -> String {
    switch (platform, encoding) {
    case (0, _), (3, 0), (3, 1), (3, 10):
      var units: [UInt16] = []
      var i = 0
      while i + 1 < bytes.count {
        units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
        i += 2
      }
      return String(decoding: units, as: UTF16.self)
    case (1, 0):
      return String(bytes: bytes, encoding: .macOSRoman)
        ?? String(bytes.map { Character(UnicodeScalar($0)) })
    default:
      return bytes.map { String(format: "%02X", $0) }.joined()
    }
  }
}

/// The instructions of each glyph of a `glyf` table (empty for a glyph without any).
enum GlyphInstructions {
  /// Instruction bytes by glyph ID; nil when the table cannot be walked (no `loca`, a format
  /// it does not know). At most `limit` glyphs.
  static func read(glyf: FontTable, loca: FontTable, longOffsets: Bool, glyphCount: Int)
    -> [[UInt8]]?
  {
    guard !glyf.isEmpty, !loca.isEmpty else { return nil }
    var out: [[UInt8]] = []
    out.reserveCapacity(min(glyphCount, 65536))
    for gid in 0..<min(glyphCount, 65536) {
      let start = longOffsets ? loca.u32(4 * gid) : loca.u16(2 * gid).map { $0 * 2 }
      let end = longOffsets ? loca.u32(4 * gid + 4) : loca.u16(2 * gid + 2).map { $0 * 2 }
      guard let start, let end else { return out }
      guard end > start, let glyph = glyf.slice(start, end - start) else {
        out.append([])
        continue
      }
      out.append(instructions(FontTable(Array(glyph))))
    }
    return out
  }

  /// One glyph's instructions: after a simple glyph's contour ends, or after a composite's
  /// last component when it says it has some.
  static func instructions(_ g: FontTable) -> [UInt8] {
    guard let contours = g.i16(0) else { return [] }
    if contours >= 0 {
      let at = 10 + 2 * contours
      guard let length = g.u16(at), let bytes = g.slice(at + 2, length) else { return [] }
      return Array(bytes)
    }
    var at = 10
    var hasInstructions = false
    for _ in 0..<65536 {
      guard let flags = g.u16(at) else { return [] }
      at += 4 + (flags & 0x0001 != 0 ? 4 : 2)
      if flags & 0x0008 != 0 {
        at += 2
      } else if flags & 0x0040 != 0 {
        at += 4
      } else if flags & 0x0080 != 0 {
        at += 8
      }
      if flags & 0x0100 != 0 { hasInstructions = true }
      if flags & 0x0020 == 0 { break }
    }
    guard hasInstructions, let length = g.u16(at), let bytes = g.slice(at + 2, length) else {
      return []
    }
    return Array(bytes)
  }
}

/// Colour palettes of a `CPAL` table: each palette's colours as `#RRGGBB` (`#RRGGBBAA` when
/// not opaque).
/// COLR's version-0 layers: for each palette entry, the colour glyphs with a layer painted in
/// it. Version-1 paints (gradients, the paint graph) are not read: a table that has them
/// gives nil, and no count is claimed.
enum ColourLayers {
  static func glyphsByPaletteEntry(_ t: FontTable) -> [Int: Set<Int>]? {
    guard let version = t.u16(0), let bases = t.u16(2), let baseOffset = t.u32(4),
      let layerOffset = t.u32(8), let layers = t.u16(12)
    else { return nil }
    // Version 1 adds a BaseGlyphList (its offset at 14): with one, glyphs paint beyond layers.
    if version >= 1, let list = t.u32(14), list != 0 { return nil }
    var out: [Int: Set<Int>] = [:]
    // 65,535 base glyphs of 65,535 layers each would be 4 billion reads: a hostile table is
    // read for as many layers as `ColourGlyphPaints` reads, then not counted.
    var budget = ColourGlyphPaints.readLimit
    for b in 0..<bases {
      let record = baseOffset + 6 * b
      guard let glyph = t.u16(record), let first = t.u16(record + 2), let count = t.u16(record + 4)
      else { return nil }
      budget -= count + 1
      guard budget >= 0 else { return nil }
      for l in first..<min(first + count, layers) {
        guard let entry = t.u16(layerOffset + 4 * l + 2) else { return nil }
        out[entry, default: []].insert(glyph)
      }
    }
    return out
  }
}

enum ColourPalettes {
  static func read(_ t: FontTable) -> [[String]] {
    guard let entries = t.u16(2), let palettes = t.u16(4), let records = t.u16(6),
      let array = t.u32(8)
    else { return [] }
    var out: [[String]] = []
    for p in 0..<palettes {
      guard let first = t.u16(12 + 2 * p) else { break }
      var colours: [String] = []
      for e in 0..<entries {
        let index = first + e
        guard index < records, let bgra = t.slice(array + 4 * index, 4) else { break }
        let c = Array(bgra)
        var text = String(format: "#%02X%02X%02X", c[2], c[1], c[0])
        if c[3] != 0xFF { text += String(format: "%02X", c[3]) }
        colours.append(text)
      }
      out.append(colours)
    }
    return out
  }
}

/// What a `STAT` table says, each design axis and axis value a line of words.
enum StyleAttributes {
  /// "axis wght (Weight), ordering 0", "value wght 300 Light", "value wght 400 Regular
  /// (elidable)", "elided fallback name Regular"; `name` resolves name IDs.
  static func read(_ t: FontTable, name: (Int) -> String) -> [String] {
    guard let axisSize = t.u16(4), let axisCount = t.u16(6), let axesAt = t.u32(8),
      let valueCount = t.u16(12), let valuesAt = t.u32(14)
    else { return [] }
    var lines: [String] = []
    var tags: [String] = []
    for i in 0..<min(axisCount, 1024) {
      let at = axesAt + i * axisSize
      guard let tag = t.tag(at), let nameID = t.u16(at + 4), let ordering = t.u16(at + 6)
      else { break }
      tags.append(tag)
      lines.append("axis \(tag) (\(name(nameID))), ordering \(ordering)")
    }
    func axis(_ index: Int) -> String { index < tags.count ? tags[index] : "axis \(index)" }
    func number(_ v: Double) -> String { DiffNumber.text(v) }
    for i in 0..<min(valueCount, 4096) {
      guard let offset = t.u16(valuesAt + 2 * i) else { break }
      let at = valuesAt + offset
      guard let format = t.u16(at) else { continue }
      var text: String?
      var flagsAt = at + 4
      switch format {
      case 1, 2, 3:
        guard let index = t.u16(at + 2), let nameID = t.u16(at + 6), let value = t.fixed(at + 8)
        else { continue }
        var what = "\(axis(index)) \(number(value))"
        if format == 2, let low = t.fixed(at + 12), let high = t.fixed(at + 16) {
          what += " (\(number(low))–\(number(high)))"
        } else if format == 3, let linked = t.fixed(at + 12) {
          what += " (linked to \(number(linked)))"
        }
        text = "\(what) \(name(nameID))"
      case 4:
        guard let count = t.u16(at + 2), let nameID = t.u16(at + 6) else { continue }
        flagsAt = at + 4
        var parts: [String] = []
        for k in 0..<min(count, 64) {
          guard let index = t.u16(at + 8 + 6 * k), let value = t.fixed(at + 10 + 6 * k)
          else { break }
          parts.append("\(axis(index)) \(number(value))")
        }
        text = "\(parts.joined(separator: ", ")) \(name(nameID))"
      default:
        continue
      }
      guard var line = text else { continue }
      if let flags = t.u16(flagsAt) {
        if flags & 0x2 != 0 { line += " (elidable)" }
        if flags & 0x1 != 0 { line += " (older sibling)" }
      }
      lines.append("value " + line)
    }
    if let elided = t.u16(18), (t.u16(2) ?? 0) >= 1 {
      lines.append("elided fallback name \(name(elided))")
    }
    return lines
  }
}

/// The Unicode variation sequences of a `cmap` table's format 14 subtable, as
/// "U+845B U+E0100" (a default one) or "U+845B U+E0101 → glyph 12".
enum VariationSequences {
  static let limit = 200_000

  static func read(_ t: FontTable, glyphName: (Int) -> String) -> Set<String> {
    guard let count = t.u16(2) else { return [] }
    var subtable: Int?
    for i in 0..<count {
      guard let platform = t.u16(4 + 8 * i), let encoding = t.u16(6 + 8 * i),
        let offset = t.u32(8 + 8 * i)
      else { break }
      if platform == 0, encoding == 5, t.u16(offset) == 14 { subtable = offset }
    }
    guard let at = subtable, let records = t.u32(at + 6) else { return [] }
    var out: Set<String> = []
    for r in 0..<min(records, 256) {
      let record = at + 10 + 11 * r
      guard out.count < limit, let selector = t.u24(record), let defaults = t.u32(record + 3),
        let mappings = t.u32(record + 7)
      else { break }
      let vs = DiffNumber.codepoint(UInt32(selector))
      if defaults != 0, let ranges = t.u32(at + defaults) {
        for k in 0..<min(ranges, limit) {
          let range = at + defaults + 4 + 4 * k
          guard out.count < limit, let start = t.u24(range), let more = t.u8(range + 3)
          else { break }
          for c in start...(start + more) {
            out.insert("\(DiffNumber.codepoint(UInt32(c))) \(vs)")
          }
        }
      }
      if mappings != 0, let n = t.u32(at + mappings) {
        for k in 0..<min(n, limit) {
          let mapping = at + mappings + 4 + 5 * k
          guard out.count < limit, let c = t.u24(mapping), let glyph = t.u16(mapping + 3) else {
            break
          }
          out.insert("\(DiffNumber.codepoint(UInt32(c))) \(vs) → \(glyphName(glyph))")
        }
      }
    }
    return out
  }
}

/// The constants of a `MATH` table, by name.
enum MathConstants {
  static let names = [
    "ScriptPercentScaleDown", "ScriptScriptPercentScaleDown", "DelimitedSubFormulaMinHeight",
    "DisplayOperatorMinHeight", "MathLeading", "AxisHeight", "AccentBaseHeight",
    "FlattenedAccentBaseHeight", "SubscriptShiftDown", "SubscriptTopMax",
    "SubscriptBaselineDropMin", "SuperscriptShiftUp", "SuperscriptShiftUpCramped",
    "SuperscriptBottomMin", "SuperscriptBaselineDropMax", "SubSuperscriptGapMin",
    "SuperscriptBottomMaxWithSubscript", "SpaceAfterScript", "UpperLimitGapMin",
    "UpperLimitBaselineRiseMin", "LowerLimitGapMin", "LowerLimitBaselineDropMin",
    "StackTopShiftUp", "StackTopDisplayStyleShiftUp", "StackBottomShiftDown",
    "StackBottomDisplayStyleShiftDown", "StackGapMin", "StackDisplayStyleGapMin",
    "StretchStackTopShiftUp", "StretchStackBottomShiftDown", "StretchStackGapAboveMin",
    "StretchStackGapBelowMin", "FractionNumeratorShiftUp", "FractionNumeratorDisplayStyleShiftUp",
    "FractionDenominatorShiftDown", "FractionDenominatorDisplayStyleShiftDown",
    "FractionNumeratorGapMin", "FractionNumDisplayStyleGapMin", "FractionRuleThickness",
    "FractionDenominatorGapMin", "FractionDenomDisplayStyleGapMin", "SkewedFractionHorizontalGap",
    "SkewedFractionVerticalGap", "OverbarVerticalGap", "OverbarRuleThickness",
    "OverbarExtraAscender", "UnderbarVerticalGap", "UnderbarRuleThickness",
    "UnderbarExtraDescender", "RadicalVerticalGap", "RadicalDisplayStyleVerticalGap",
    "RadicalRuleThickness", "RadicalExtraAscender", "RadicalKernBeforeDegree",
    "RadicalKernAfterDegree", "RadicalDegreeBottomRaisePercent",
  ]

  /// Name → value; empty when the table has no constants.
  static func read(_ t: FontTable) -> [String: Int] {
    guard let offset = t.u16(4), offset > 0 else { return [:] }
    var out: [String: Int] = [:]
    for (i, name) in names.enumerated() {
      // Two percentages, two heights, then value records (value and device offset), then a
      // last percentage.
      let at: Int
      switch i {
      case 0..<4: at = offset + 2 * i
      case names.count - 1: at = offset + 8 + 4 * (names.count - 5)
      default: at = offset + 8 + 4 * (i - 4)
      }
      if let value = t.i16(at) { out[name] = value }
    }
    return out
  }
}
