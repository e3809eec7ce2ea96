import Foundation

/// Font files made in the tests from the fixture fonts: renamed families (for more families, or
/// hostile names) and collections (.ttc). Checksums are not updated: FreeType ignores them.
enum FontBytes {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  static func u16(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
  static func u32(_ b: [UInt8], _ o: Int) -> Int {
    Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3])
  }
  static func put32(_ b: inout [UInt8], _ o: Int, _ v: Int) {
    b[o] = UInt8((v >> 24) & 0xFF)
    b[o + 1] = UInt8((v >> 16) & 0xFF)
    b[o + 2] = UInt8((v >> 8) & 0xFF)
    b[o + 3] = UInt8(v & 0xFF)
  }

  /// The table records of a single font: (tag, offset, length) and where the record is.
  static func tables(_ b: [UInt8], at base: Int = 0) -> [(
    tag: String, offset: Int, length: Int,
    record: Int
  )] {
    let count = u16(b, base + 4)
    return (0..<count).map { i in
      let r = base + 12 + 16 * i
      let tag = String(decoding: b[r..<(r + 4)], as: UTF8.self)
      return (tag, u32(b, r + 8), u32(b, r + 12), r)
    }
  }

  /// The font with every occurrence of `old` in its `name` table (Mac Roman and UTF-16BE
  /// strings) replaced by `new`, which must have as many UTF-16 units and UTF-8 bytes.
  static func renamingFamily(_ data: Data, from old: String, to new: String) throws -> Data {
    guard old.utf8.count == new.utf8.count, old.utf16.count == new.utf16.count,
      new.utf8.count == new.utf16.count
    else { throw Problem(description: "'\(new)' must be as long as '\(old)' (and ASCII)") }
    var b = [UInt8](data)
    guard let name = tables(b).first(where: { $0.tag == "name" }) else {
      throw Problem(description: "no name table")
    }
    let range = name.offset..<(name.offset + name.length)
    var replaced = 0
    let pairs: [([UInt8], [UInt8])] = [
      (Array(old.utf8), Array(new.utf8)),
      (
        old.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
        new.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
      ),
    ]
    for (from, to) in pairs {
      var i = range.lowerBound
      while i + from.count <= range.upperBound {
        if Array(b[i..<(i + from.count)]) == from {
          b.replaceSubrange(i..<(i + from.count), with: to)
          replaced += 1
          i += from.count
        } else {
          i += 1
        }
      }
    }
    if replaced == 0 { throw Problem(description: "'\(old)' is not in the name table") }
    return Data(b)
  }

  /// A TrueType collection (`ttcf`) holding the given single fonts.
  static func collection(_ fonts: [Data]) -> Data {
    let parsed = fonts.map { [UInt8]($0) }
    let headerSize = 12 + 4 * parsed.count
    var directorySizes = parsed.map { 12 + 16 * tables($0).count }
    var out = [UInt8](repeating: 0, count: headerSize + directorySizes.reduce(0, +))
    out[0...3] = [0x74, 0x74, 0x63, 0x66]  // 'ttcf'
    put32(&out, 4, 0x0001_0000)
    put32(&out, 8, parsed.count)
    var directory = headerSize
    for (i, font) in parsed.enumerated() {
      put32(&out, 12 + 4 * i, directory)
      out.replaceSubrange(directory..<(directory + 12), with: font[0..<12])
      for (j, table) in tables(font).enumerated() {
        while out.count % 4 != 0 { out.append(0) }
        let record = directory + 12 + 16 * j
        out.replaceSubrange(record..<(record + 16), with: font[table.record..<(table.record + 16)])
        put32(&out, record + 8, out.count)
        out += font[table.offset..<(table.offset + table.length)]
      }
      directory += directorySizes[i]
    }
    directorySizes.removeAll()
    return Data(out)
  }
}
