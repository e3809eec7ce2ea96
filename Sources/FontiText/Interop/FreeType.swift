internal import CFreeType
import Foundation

/// FreeType's WOFF and WOFF2 decoder: the one use of FreeType that does not go through Cairo or
/// fontconfig. FreeType rebuilds a web font's sfnt in memory when it opens it (zlib for WOFF,
/// brotli and the glyf/loca transform for WOFF2); the whole of it is the face's "table" 0.
enum FreeType {
  /// Why FreeType could not give the sfnt: its error's name, or its number.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The sfnt FreeType rebuilds from the web font `bytes` (calls `FT_Init_FreeType`,
  /// `FT_New_Memory_Face`, `FT_Load_Sfnt_Table` with tag 0, `FT_Done_Face`,
  /// `FT_Done_FreeType`). A library of its own per call: an `FT_Library` is not shared across
  /// threads, and making one costs microseconds. `limit`: a bigger sfnt is refused before it
  /// is copied out.
  static func sfnt(ofWebFont bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else {
      throw Failure(description: "FreeType cannot start (out of memory)")
    }
    defer { FT_Done_FreeType(library) }
    var face: FT_Face?
    // FreeType reads from the buffer while the face lives; `bytes` outlives it here.
    let opened = bytes.withUnsafeBufferPointer { buffer in
      FT_New_Memory_Face(library, buffer.baseAddress, FT_Long(buffer.count), 0, &face)
    }
    guard opened == 0, let face else { throw Failure(description: describe(opened)) }
    defer { FT_Done_Face(face) }
    var length: FT_ULong = 0
    let sized = FT_Load_Sfnt_Table(face, 0, 0, nil, &length)
    guard sized == 0 else { throw Failure(description: describe(sized)) }
    guard length > 0, length <= FT_ULong(limit) else {
      throw Failure(description: "its sfnt is \(length) bytes")
    }
    var out = [UInt8](repeating: 0, count: Int(length))
    let loaded = out.withUnsafeMutableBufferPointer { buffer in
      FT_Load_Sfnt_Table(face, 0, 0, buffer.baseAddress, &length)
    }
    guard loaded == 0, Int(length) == out.count else {
      throw Failure(description: describe(loaded))
    }
    return out
  }

  /// A FreeType error as words: FreeType's own where it was built with them
  /// (`FT_Error_String`; Debian's is not), else those of `fterrdef.h` for the errors a
  /// damaged web font gives, else its number.
  static func describe(_ error: FT_Error) -> String {
    if let text = FT_Error_String(error) { return String(cString: text) }
    return words[Int(error)].map { "\($0), FreeType error \(error)" } ?? "FreeType error \(error)"
  }

  /// `fterrdef.h`'s words for the errors met when a web font does not decode.
  static let words: [Int: String] = [
    0x01: "cannot open resource", 0x02: "unknown file format", 0x03: "broken file",
    0x08: "broken table", 0x09: "broken offset within table",
    0x0A: "array allocation size too large", 0x40: "out of memory",
    0x52: "invalid stream seek", 0x54: "invalid stream read",
    0x55: "invalid stream operation", 0x56: "invalid frame operation",
    0x58: "invalid frame read", 0x8E: "SFNT font table missing",
  ]
}
