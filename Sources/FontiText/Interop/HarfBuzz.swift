internal import CHarfBuzz
import Foundation

/// A font file's face as HarfBuzz reads it; owns one reference to its `hb_face_t`.
///
/// Read straight from the file (not through Pango) so that proofs and `diff` see exactly the
/// bytes of one file, whatever fontconfig has installed beside it. Not Sendable: HarfBuzz
/// objects are used on the thread that made them.
package final class HarfBuzzFace {
  let pointer: OpaquePointer
  /// fontconfig's face index with the named instance in its upper 16 bits (0: none).
  let namedInstance: Int?

  /// Loads face `index` of `file` (calls `hb_blob_create_from_file_or_fail`, `hb_face_create`;
  /// a web font's decoded copy, `WebFont`). fontconfig's index carries a variable font's named
  /// instance (1-based) in its upper 16 bits; it is kept for `HarfBuzzFont` to apply.
  package init(file: String, index: Int = 0) throws(FontReadError) {
    let loadable: String
    do { loadable = try WebFont.loadablePath(for: file) } catch {
      throw FontReadError(file: file, reason: error.description)
    }
    guard let blob = hb_blob_create_from_file_or_fail(loadable) else {
      throw FontReadError(file: file, reason: "cannot be read")
    }
    defer { hb_blob_destroy(blob) }
    let faceIndex = UInt32(truncatingIfNeeded: index & 0xFFFF)
    guard faceIndex < max(1, hb_face_count(blob)) else {
      throw FontReadError(file: file, reason: "has no face \(faceIndex)")
    }
    guard let face = hb_face_create(blob, faceIndex) else {
      preconditionFailure("harfbuzz: out of memory")
    }
    // HarfBuzz answers a file that is not a font with the empty face rather than NULL.
    guard hb_face_get_glyph_count(face) > 0 else {
      hb_face_destroy(face)
      throw FontReadError(file: file, reason: "is not an OpenType or TrueType font")
    }
    pointer = face
    let instance = index >> 16
    namedInstance = instance > 0 ? instance - 1 : nil
  }

  /// Another reference to a face HarfBuzz already has, such as the face of a font Pango
  /// loaded (calls `hb_face_reference`). It has no named instance of its own.
  init(referencing face: OpaquePointer) {
    pointer = hb_face_reference(face)
    namedInstance = nil
  }

  deinit { hb_face_destroy(pointer) }

  package var glyphCount: Int { Int(hb_face_get_glyph_count(pointer)) }
  package var unitsPerEm: Int { Int(hb_face_get_upem(pointer)) }

  /// Every Unicode scalar the face's cmap maps to a glyph (calls `hb_face_collect_unicodes`).
  /// Surrogates (U+D800–U+DFFF) are no scalars: a damaged or hostile cmap that maps them maps
  /// nothing a text can hold, and they are left out.
  package var unicodes: [UInt32] {
    guard let set = hb_set_create() else { preconditionFailure("harfbuzz: out of memory") }
    defer { hb_set_destroy(set) }
    hb_face_collect_unicodes(pointer, set)
    hb_set_del_range(set, 0xD800, 0xDFFF)
    return HarfBuzzSet.values(set)
  }
}

/// A sized, optionally varied instance of a face; owns one reference to its `hb_font_t`.
package final class HarfBuzzFont {
  let pointer: OpaquePointer
  package let face: HarfBuzzFace

  /// A font of `face` in font units (scale = units per em), at the face's named instance if it
  /// has one, else at the default coordinates (calls `hb_font_create`).
  package init(face: HarfBuzzFace) {
    guard let font = hb_font_create(face.pointer) else {
      preconditionFailure("harfbuzz: out of memory")
    }
    pointer = font
    self.face = face
    if let instance = face.namedInstance {
      hb_font_set_var_named_instance(font, UInt32(truncatingIfNeeded: instance))
    }
  }

  /// Another reference to a font HarfBuzz already has, as it is (size, variations): the font
  /// Pango shapes a `PangoFont` with, for one (calls `hb_font_reference`, `hb_font_get_face`).
  init(referencing font: OpaquePointer) {
    pointer = hb_font_reference(font)
    face = HarfBuzzFace(referencing: hb_font_get_face(font))
  }

  deinit { hb_font_destroy(pointer) }

  /// The font's slant angle in degrees, from its `post` table's italic angle (calls
  /// `hb_style_get_value`); 0 for an upright face.
  package var slantAngle: Double {
    Double(hb_style_get_value(pointer, HB_STYLE_TAG_SLANT_ANGLE))
  }

  /// The glyph's name from the `post` or `CFF` table, or nil when the font has none (calls
  /// `hb_font_get_glyph_name`). Untrusted text: a font can name a glyph anything.
  package func glyphName(_ glyph: UInt32) -> String? {
    var buffer = [CChar](repeating: 0, count: 64)
    let found = buffer.withUnsafeMutableBufferPointer {
      hb_font_get_glyph_name(pointer, glyph, $0.baseAddress, UInt32($0.count))
    }
    guard found != 0 else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let name = String(decoding: bytes, as: UTF8.self)
    return name.isEmpty ? nil : name
  }

  /// Sets design coordinates by axis tag (calls `hb_font_set_variations`); axes the face lacks
  /// are ignored by HarfBuzz.
  package func setVariations(_ coordinates: [(tag: String, value: Double)]) {
    var variations = coordinates.map {
      hb_variation_t(tag: HarfBuzzTag.make($0.tag), value: Float($0.value))
    }
    hb_font_set_variations(pointer, &variations, UInt32(variations.count))
  }
}

/// Four-character OpenType tags ↔ HarfBuzz's 32-bit `hb_tag_t`.
package enum HarfBuzzTag {
  /// `"wght"` → its tag; shorter strings are padded with spaces, as OpenType does.
  package static func make(_ text: String) -> UInt32 {
    var bytes = Array(text.utf8.prefix(4))
    while bytes.count < 4 { bytes.append(0x20) }
    return bytes.reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// A tag as text; bytes outside printable ASCII (a hostile font) become `?`.
  /// Four bytes, held in the string itself: nothing is allocated (a worker names the script
  /// of every character of every language's orthography, 50,000 of them, when it starts).
  package static func string(_ tag: UInt32) -> String {
    String(unsafeUninitializedCapacity: 4) { out in
      for i in 0..<4 {
        let byte = UInt8(truncatingIfNeeded: tag >> (24 - 8 * i))
        out[i] = (0x20...0x7E).contains(byte) ? byte : 0x3F
      }
      return 4
    }
  }
}

/// HarfBuzz's Unicode character database (its default Unicode functions).
package enum HarfBuzzUnicode {
  /// The ISO 15924 code of `scalar`'s script property: "Latn", "Beng", "Zyyy" (Common),
  /// "Zinh" (Inherited), "Zzzz" (Unknown) (calls `hb_unicode_script`).
  package static func script(_ scalar: UInt32) -> String {
    HarfBuzzTag.string(hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue)
  }

  /// The script of `scalar` as an ISO 15924 tag value (`Latn`, `Beng`, `Zyyy`), from
  /// `hb_unicode_script`.
  package static func script(of scalar: Unicode.Scalar) -> UInt32 {
    hb_unicode_script(hb_unicode_funcs_get_default(), scalar.value).rawValue
  }

  /// Common, Inherited or Unknown: characters every script uses.
  package static func isShared(_ script: UInt32) -> Bool {
    script == common || script == inherited || script == unknown
  }

  private static let common = HarfBuzzTag.make("Zyyy")
  private static let inherited = HarfBuzzTag.make("Zinh")
  private static let unknown = HarfBuzzTag.make("Zzzz")
}

/// Copies an `hb_set_t` out into Swift.
enum HarfBuzzSet {
  /// The first `limit` values of `set` (all by default), ascending.
  static func values(_ set: OpaquePointer, limit: Int = .max) -> [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(min(limit, Int(hb_set_get_population(set))))
    var value = UInt32.max  // HB_SET_VALUE_INVALID: start before the first element
    while out.count < limit, hb_set_next(set, &value) != 0 { out.append(value) }
    return out
  }
}

/// A font file HarfBuzz could not read, with the reason.
public struct FontReadError: Error, CustomStringConvertible {
  public var file: String
  public var reason: String
  public var description: String { "font file '\(file)' \(reason)" }

  package init(file: String, reason: String) {
    self.file = file
    self.reason = reason
  }
}
