/// Big-endian reads of an OpenType table that return nil past its end: a hostile offset reads
/// nothing, never out of bounds. Shared by the readers of font tables above the text target
/// (`diff`'s kerning classes) and the layout reader (`LayoutRules`).
package struct TableBytes {
  package let bytes: UnsafeRawBufferPointer

  package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  package var count: Int { bytes.count }

  package func u8(_ offset: Int) -> Int? {
    guard offset >= 0, offset < bytes.count else { return nil }
    return Int(bytes[offset])
  }

  package func i8(_ offset: Int) -> Int? { u8(offset).map { Int(Int8(truncatingIfNeeded: $0)) } }

  package func i16(_ offset: Int) -> Int? {
    u16(offset).map { Int(Int16(truncatingIfNeeded: $0)) }
  }

  package func i32(_ offset: Int) -> Int? {
    u32(offset).map { Int(Int32(truncatingIfNeeded: $0)) }
  }

  package func u16(_ offset: Int) -> Int? {
    guard offset >= 0, offset <= bytes.count - 2 else { return nil }
    return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
  }

  package func u32(_ offset: Int) -> Int? {
    guard let high = u16(offset), let low = u16(offset + 2) else { return nil }
    return high << 16 | low
  }

  /// The glyphs of a Coverage table (formats 1 and 2), below `glyphCount`.
  package func coverage(at offset: Int, glyphCount: Int) -> [UInt32] {
    guard let format = u16(offset), let count = u16(offset + 2) else { return [] }
    var out: [UInt32] = []
    if format == 1 {
      for i in 0..<count {
        guard let g = u16(offset + 4 + 2 * i) else { break }
        if g < glyphCount { out.append(UInt32(g)) }
      }
    } else if format == 2 {
      for i in 0..<count {
        guard let start = u16(offset + 4 + 6 * i), let end = u16(offset + 6 + 6 * i) else {
          break
        }
        guard start <= end, start < glyphCount else { continue }
        for g in start...min(end, glyphCount - 1) { out.append(UInt32(g)) }
        if out.count > 4 * glyphCount { break }
      }
    }
    return out
  }

  /// The glyphs of a ClassDef table (formats 1 and 2) with a class other than 0.
  package func classDef(at offset: Int, glyphCount: Int) -> [(UInt32, Int)] {
    guard let format = u16(offset) else { return [] }
    var out: [(UInt32, Int)] = []
    if format == 1 {
      guard let start = u16(offset + 2), let count = u16(offset + 4) else { return [] }
      for i in 0..<count {
        guard let value = u16(offset + 6 + 2 * i) else { break }
        let g = start + i
        if g < glyphCount, value != 0 { out.append((UInt32(g), value)) }
      }
    } else if format == 2 {
      guard let count = u16(offset + 2) else { return [] }
      for i in 0..<count {
        guard let start = u16(offset + 4 + 6 * i), let end = u16(offset + 6 + 6 * i),
          let value = u16(offset + 8 + 6 * i)
        else { break }
        guard start <= end, start < glyphCount, value != 0 else { continue }
        for g in start...min(end, glyphCount - 1) { out.append((UInt32(g), value)) }
        if out.count > 4 * glyphCount { break }
      }
    }
    return out
  }
}
