internal import CHarfBuzz
import Foundation

/// A glyph's outline as HarfBuzz draws it: path commands and their points, in font units with
/// y up. Two outlines are equal exactly when HarfBuzz drew the same commands through the same
/// points: what `diff` checks before it rasterises anything, and how `FeatureSampler` tells a
/// real alternate from a copy of the same drawing. The one outline reader of the tool.
package struct GlyphOutline: Sendable, Hashable, Codable {
  package enum Verb: UInt8, Sendable, Codable {
    /// One point.
    case move, line
    /// One control point and the end point.
    case quadratic
    /// Two control points and the end point.
    case cubic
    /// No point.
    case close
  }

  package private(set) var verbs: [Verb] = []
  /// x, y pairs in drawing order.
  package private(set) var coordinates: [Float] = []

  package var isEmpty: Bool { verbs.isEmpty }

  package mutating func move(_ x: Float, _ y: Float) {
    verbs.append(.move)
    coordinates.append(x)
    coordinates.append(y)
  }

  package mutating func line(_ x: Float, _ y: Float) {
    verbs.append(.line)
    coordinates.append(x)
    coordinates.append(y)
  }

  mutating func quadratic(_ cx: Float, _ cy: Float, _ x: Float, _ y: Float) {
    verbs.append(.quadratic)
    coordinates.append(cx)
    coordinates.append(cy)
    coordinates.append(x)
    coordinates.append(y)
  }

  mutating func cubic(
    _ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, _ x: Float, _ y: Float
  ) {
    verbs.append(.cubic)
    coordinates.append(c1x)
    coordinates.append(c1y)
    coordinates.append(c2x)
    coordinates.append(c2y)
    coordinates.append(x)
    coordinates.append(y)
  }

  mutating func close() { verbs.append(.close) }

  /// The box around every point, control points included (so never smaller than the ink);
  /// nil for an empty outline or one with a coordinate that is not finite.
  package var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
    guard !coordinates.isEmpty else { return nil }
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    var i = 0
    while i + 1 < coordinates.count {
      let x = Double(coordinates[i])
      let y = Double(coordinates[i + 1])
      guard x.isFinite, y.isFinite else { return nil }
      minX = min(minX, x)
      maxX = max(maxX, x)
      minY = min(minY, y)
      maxY = max(maxY, y)
      i += 2
    }
    return (minX, minY, maxX, maxY)
  }

  /// A path segment as Cairo draws it (quadratic curves raised to cubic ones).
  enum Segment {
    case move(Double, Double)
    case line(Double, Double)
    case cubic(Double, Double, Double, Double, Double, Double)
    case close
  }

  /// Visits the outline as Cairo segments, each point mapped by `transform`.
  func forEachSegment(
    _ transform: (Double, Double) -> (Double, Double), _ body: (Segment) -> Void
  ) {
    var i = 0
    var current = (0.0, 0.0)
    var start = (0.0, 0.0)
    func point() -> (Double, Double) {
      guard i + 1 < coordinates.count else { return current }
      defer { i += 2 }
      return (Double(coordinates[i]), Double(coordinates[i + 1]))
    }
    for verb in verbs {
      switch verb {
      case .move:
        current = point()
        start = current
        let p = transform(current.0, current.1)
        body(.move(p.0, p.1))
      case .line:
        current = point()
        let p = transform(current.0, current.1)
        body(.line(p.0, p.1))
      case .quadratic:
        let q = point()
        let end = point()
        // The cubic through the same curve: controls two thirds of the way to q.
        let c1 = (current.0 + 2 / 3 * (q.0 - current.0), current.1 + 2 / 3 * (q.1 - current.1))
        let c2 = (end.0 + 2 / 3 * (q.0 - end.0), end.1 + 2 / 3 * (q.1 - end.1))
        let a = transform(c1.0, c1.1)
        let b = transform(c2.0, c2.1)
        let e = transform(end.0, end.1)
        body(.cubic(a.0, a.1, b.0, b.1, e.0, e.1))
        current = end
      case .cubic:
        let c1 = point()
        let c2 = point()
        let end = point()
        let a = transform(c1.0, c1.1)
        let b = transform(c2.0, c2.1)
        let e = transform(end.0, end.1)
        body(.cubic(a.0, a.1, b.0, b.1, e.0, e.1))
        current = end
      case .close:
        body(.close)
        current = start
      }
    }
  }
}

/// One glyph of a shaped run, in font units: which glyph, where its origin goes relative to the
/// pen, and how far it moves the pen.
package struct ShapedGlyph: Sendable, Hashable {
  package var glyph: UInt32
  /// Offset of the character (cluster) the glyph came from, in the units the text was added in
  /// (UTF-8 bytes for `HarfBuzzFont.shape`, scalars for `HarfBuzzBuffer.shape`).
  package var cluster: Int
  package var xAdvance: Int
  package var yAdvance: Int = 0
  package var xOffset: Int
  package var yOffset: Int
}

/// Collects what HarfBuzz draws (the `draw_data` of `hb_font_get_glyph_shape`).
private final class OutlineSink {
  var outline = GlyphOutline()
}

/// One set of drawing callbacks for the process; immutable, so every thread can use it.
nonisolated(unsafe) private let outlineDrawFuncs: OpaquePointer = {
  guard let funcs = hb_draw_funcs_create() else { preconditionFailure("harfbuzz: out of memory") }
  func sink(_ data: UnsafeMutableRawPointer?) -> OutlineSink? {
    data.map { Unmanaged<OutlineSink>.fromOpaque($0).takeUnretainedValue() }
  }
  hb_draw_funcs_set_move_to_func(
    funcs, { _, data, _, x, y, _ in sink(data)?.outline.move(x, y) }, nil, nil)
  hb_draw_funcs_set_line_to_func(
    funcs, { _, data, _, x, y, _ in sink(data)?.outline.line(x, y) }, nil, nil)
  hb_draw_funcs_set_quadratic_to_func(
    funcs, { _, data, _, cx, cy, x, y, _ in sink(data)?.outline.quadratic(cx, cy, x, y) },
    nil, nil)
  hb_draw_funcs_set_cubic_to_func(
    funcs,
    { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
      sink(data)?.outline.cubic(c1x, c1y, c2x, c2y, x, y)
    }, nil, nil)
  hb_draw_funcs_set_close_path_func(
    funcs, { _, data, _, _ in sink(data)?.outline.close() }, nil, nil)
  hb_draw_funcs_make_immutable(funcs)
  return funcs
}()

extension HarfBuzzFont {
  /// The glyph the cmap gives `scalar`, or nil (calls `hb_font_get_nominal_glyph`).
  package func glyph(for scalar: UInt32) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(pointer, scalar, &glyph) != 0 ? glyph : nil
  }

  /// Horizontal advance in font units at the font's variation (calls
  /// `hb_font_get_glyph_h_advance`).
  package func advance(of glyph: UInt32) -> Int {
    Int(hb_font_get_glyph_h_advance(pointer, glyph))
  }

  /// The glyph's ink box in font units at the font's variation: where its left edge stands
  /// from the origin and its width, how far its top stands above the origin and its height
  /// (negative: it runs downwards), or nil when the font gives no extents for it (calls
  /// `hb_font_get_glyph_extents`).
  package func inkExtents(of glyph: UInt32) -> (
    xBearing: Int, width: Int, yBearing: Int, height: Int
  )? {
    var extents = hb_glyph_extents_t()
    guard hb_font_get_glyph_extents(pointer, glyph, &extents) != 0 else { return nil }
    return (
      Int(extents.x_bearing), Int(extents.width), Int(extents.y_bearing), Int(extents.height)
    )
  }

  /// The glyph's outline in font units at the font's variation (calls
  /// `hb_font_get_glyph_shape`); empty for a glyph without one (a space, a bitmap glyph).
  package func outline(of glyph: UInt32) -> GlyphOutline {
    let sink = OutlineSink()
    withExtendedLifetime(sink) {
      hb_font_get_glyph_shape(
        pointer, glyph, outlineDrawFuncs, Unmanaged.passUnretained(sink).toOpaque())
    }
    return sink.outline
  }

  /// Applies named instance `index` (0-based) of a variable font (calls
  /// `hb_font_set_var_named_instance`).
  package func setNamedInstance(_ index: Int) {
    hb_font_set_var_named_instance(pointer, UInt32(truncatingIfNeeded: index))
  }

  /// Shapes `text` as one run with the font's default features (kerning, ligatures…) and
  /// no fallback of any kind: a character the font lacks becomes its .notdef glyph. Direction
  /// and script are guessed from the text; the language is `language` (`HarfBuzzBuffer`;
  /// clusters count scalars).
  package func shape(_ text: String, language: String = "en") -> [ShapedGlyph] {
    HarfBuzzBuffer().shape(Array(text.unicodeScalars), font: self, language: language, features: [])
  }

  /// Whether HarfBuzz sets `text` right to left (its script's direction, as `shape` guesses
  /// it; calls `hb_buffer_guess_segment_properties`).
  package static func isRightToLeft(_ text: String) -> Bool {
    guard let buffer = hb_buffer_create() else { preconditionFailure("harfbuzz: out of memory") }
    defer { hb_buffer_destroy(buffer) }
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { utf8 in
      utf8.withMemoryRebound(to: CChar.self) {
        hb_buffer_add_utf8(buffer, $0.baseAddress, Int32(utf8.count), 0, Int32(utf8.count))
      }
    }
    hb_buffer_guess_segment_properties(buffer)
    return hb_buffer_get_direction(buffer) == HB_DIRECTION_RTL
  }

  /// A metric at the font's variation, through HarfBuzz's own reading of hhea, OS/2 and MVAR
  /// (calls `hb_ot_metrics_get_position`); nil when the font does not define it.
  package func metric(_ tag: String) -> Int? {
    var position: hb_position_t = 0
    let found = hb_ot_metrics_get_position(
      pointer, hb_ot_metrics_tag_t(rawValue: HarfBuzzTag.make(tag)), &position)
    return found != 0 ? Int(position) : nil
  }
}

extension HarfBuzzFace {
  /// The family names of face `index` of a file that may be damaged (truncated, tables that
  /// FreeType refuses): WWS, typographic, then legacy family, the order fontconfig prefers,
  /// as far as HarfBuzz can read them. Only for naming a font that failed.
  package static func familyNames(file: String, index: Int = 0) -> [String] {
    guard let blob = hb_blob_create_from_file_or_fail(WebFont.loadablePathOrSame(for: file))
    else { return [] }
    defer { hb_blob_destroy(blob) }
    guard let created = hb_face_create(blob, UInt32(truncatingIfNeeded: index & 0xFFFF)) else {
      return []
    }
    let face = HarfBuzzFace(referencing: created)
    hb_face_destroy(created)
    var names: [String] = []
    for id: UInt32 in [21, 16, 1] {
      guard let name = face.name(id, maxBytes: 256), !name.isEmpty, !names.contains(name) else {
        continue
      }
      names.append(name)
    }
    return names
  }

  /// The table's bytes as HarfBuzz holds them (calls `hb_face_reference_table`); empty when the
  /// face has no such table.
  package func withTable<T>(_ tag: String, _ body: (UnsafeRawBufferPointer) -> T) -> T {
    guard let blob = hb_face_reference_table(pointer, HarfBuzzTag.make(tag)) else {
      return body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    defer { hb_blob_destroy(blob) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(blob, &length), length > 0 else {
      return body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return body(UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: Int(length)))
  }

  /// Whether both faces hold the same bytes for table `tag` (both lacking it counts as same).
  package func hasSameTable(_ tag: String, as other: HarfBuzzFace) -> Bool {
    withTable(tag) { mine in
      other.withTable(tag) { theirs in
        guard mine.count == theirs.count else { return false }
        guard let a = mine.baseAddress, let b = theirs.baseAddress else { return true }
        return memcmp(a, b, mine.count) == 0
      }
    }
  }

  /// A big-endian field of a table, or nil when the table is too short (a hostile or old
  /// font). Signed when `signed`. For values HarfBuzz 6 has no call for (hhea and OS/2 typo
  /// metrics apart: `hb_ot_metrics` returns whichever the font asks layout to use).
  package func field(_ tag: String, at offset: Int, signed: Bool = true) -> Int? {
    withTable(tag) { bytes in
      guard offset >= 0, offset + 2 <= bytes.count else { return nil }
      let value = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
      return signed ? Int(Int16(bitPattern: value)) : Int(value)
    }
  }
}

extension HarfBuzzFace {
  /// The tags of the face's tables, in the order of its table directory (calls
  /// `hb_face_get_table_tags`); at most `limit` (a table directory counts them in 16 bits).
  package func tableTags(limit: Int = 0xFFFF) -> [String] {
    // Asked for none first: the total, so the buffer is as long as the directory.
    var none: UInt32 = 0
    let listed = hb_face_get_table_tags(pointer, 0, &none, nil)
    var count = UInt32(max(0, min(limit, 0xFFFF, Int(listed))))
    guard count > 0 else { return [] }
    var tags = [hb_tag_t](repeating: 0, count: Int(count))
    let total = tags.withUnsafeMutableBufferPointer {
      hb_face_get_table_tags(pointer, 0, &count, $0.baseAddress)
    }
    return tags.prefix(Int(min(count, total))).map { tag in
      String(
        decoding: (0..<4).map { UInt8(truncatingIfNeeded: tag >> (24 - 8 * $0)) }, as: UTF8.self)
    }
  }

  /// A copy of table `tag`'s bytes (`withTable`); empty when the face has no such table.
  package func tableBytes(_ tag: String) -> [UInt8] { withTable(tag) { Array($0) } }

  /// Whether the face has table `tag` (present with at least one byte).
  package func hasTable(_ tag: String) -> Bool { withTable(tag) { $0.count > 0 } }
}
