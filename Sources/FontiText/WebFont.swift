import FontiSupport
import Foundation
import Synchronization

/// WOFF and WOFF2 web fonts, read wherever fonts are read. fontconfig, Pango and HarfBuzz load
/// fonts by path, and Pango 1.50's HarfBuzz cannot read a web font, so each one is decoded once
/// (by FreeType, `FreeType.sfnt(ofWebFont:limit:)`) into a file of the user's cache,
/// `$XDG_CACHE_HOME/fonti-batch/fonts/<sha256 of the web font>.ttf`, and that file is what the
/// C libraries are handed (`loadablePath(for:)`). The user's file stays the one every report
/// names: the wrappers map a loaded path back (`userPath(of:)`).
///
/// The cache file is written whole and renamed into place (`AtomicFile`), so workers and
/// shards that decode one font at once each write a complete file and one of them wins. Named
/// by the web font's bytes, a cache file never goes stale; one that is damaged is decoded again.
package enum WebFont {
  /// The largest sfnt a web font may decode to (and the largest web font read): a font that
  /// says it is bigger, or turns out to be, is refused rather than decoded into memory.
  package static let sizeLimit = 64 << 20

  /// The two web font formats, by their signature.
  package enum Flavor: String, Sendable {
    case woff = "WOFF"
    case woff2 = "WOFF2"
  }

  /// Why a web font cannot be used: a sentence that follows the file's name ("font file
  /// 'x.woff2' is a damaged WOFF2 web font: …").
  package struct Failure: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
  }

  /// The web font format of a file starting with `head`, or nil.
  package static func flavor(ofHead head: some Collection<UInt8>) -> Flavor? {
    guard head.count >= 4 else { return nil }
    switch Array(head.prefix(4)) {
    case Array("wOFF".utf8): return .woff
    case Array("wOF2".utf8): return .woff2
    default: return nil
    }
  }

  // MARK: Decoding

  /// The sfnt of the web font `bytes`: its header checked (a size over `sizeLimit`, a length
  /// that is not the file's, tables outside the file), then decoded by FreeType, then the
  /// result checked (every table inside it, no bigger than `sizeLimit`).
  package static func decode(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
    guard let flavor = flavor(ofHead: bytes) else {
      throw Failure("is not a WOFF or WOFF2 web font")
    }
    func damaged(_ why: String) -> Failure {
      Failure("is a damaged \(flavor.rawValue) web font: \(why)")
    }
    if let problem = flavor == .woff ? checkWOFF(bytes) : checkWOFF2(bytes) {
      throw damaged(problem)
    }
    var sfnt: [UInt8]
    do { sfnt = try FreeType.sfnt(ofWebFont: bytes, limit: sizeLimit) } catch {
      throw damaged("FreeType cannot decode it (\(error.description))")
    }
    if flavor == .woff2 {
      repairLastLocaEntry(&sfnt)
      restoreChecksumAdjustment(&sfnt)
    }
    if let problem = checkSFNT(sfnt) { throw damaged("its decoded font \(problem)") }
    return sfnt
  }

  /// The WOFF header and table directory (WOFF 1.0, §3–4): nil when they hold together.
  static func checkWOFF(_ b: [UInt8]) -> String? {
    guard b.count >= 44, let length = u32(b, 8), let tables = u16(b, 12),
      let total = u32(b, 16)
    else { return "its header is cut short" }
    if Int(length) != b.count {
      return "its header says \(length) bytes, the file has \(b.count)"
    }
    if u32(b, 4) == 0x7474_6366 { return "a collection, which WOFF cannot hold" }
    guard tables > 0 else { return "it holds no table" }
    if Int(total) > sizeLimit { return tooLarge(Int(total)) }
    var decoded = 12 + 16 * tables
    for i in 0..<tables {
      let record = 44 + 20 * i
      guard let offset = u32(b, record + 4), let compressed = u32(b, record + 8),
        let original = u32(b, record + 12)
      else { return "its table directory is cut short" }
      if Int(offset) + Int(compressed) > b.count {
        return "a table runs past the end of the file"
      }
      if compressed > original { return "a table is bigger compressed than whole" }
      decoded += (Int(original) + 3) & ~3
      if decoded > sizeLimit { return tooLarge(decoded) }
    }
    if decoded != Int(total) {
      return "its header says the font is \(total) bytes, its tables make \(decoded)"
    }
    return nil
  }

  /// The WOFF2 header and table directory (WOFF2, §4–5): nil when they hold together and the
  /// tables say they decode to no more than `sizeLimit` bytes.
  static func checkWOFF2(_ b: [UInt8]) -> String? {
    guard b.count >= 48, let length = u32(b, 8), let tables = u16(b, 12),
      let total = u32(b, 16), let compressed = u32(b, 20)
    else { return "its header is cut short" }
    if Int(length) != b.count {
      return "its header says \(length) bytes, the file has \(b.count)"
    }
    if u32(b, 4) == 0x7474_6366 {
      return "a collection (several fonts in one file), which is not read; decode it to .ttc"
    }
    guard tables > 0 else { return "it holds no table" }
    if Int(total) > sizeLimit { return tooLarge(Int(total)) }
    var at = 48
    var decoded = 12 + 16 * tables
    var streamed = 0
    for _ in 0..<tables {
      guard at < b.count else { return "its table directory is cut short" }
      let flags = b[at]
      at += 1
      let known = Int(flags & 0x3F)
      if known == 63 {
        guard at + 4 <= b.count else { return "its table directory is cut short" }
        at += 4
      }
      guard let original = base128(b, &at) else { return "its table directory is damaged" }
      // glyf and loca (10, 11) are transformed at version 0; every other table at 1–3.
      let version = flags >> 6
      let transformed = known == 10 || known == 11 ? version == 0 : version != 0
      var stored = original
      if transformed {
        guard let length = base128(b, &at) else { return "its table directory is damaged" }
        stored = length
      }
      decoded += (original + 3) & ~3
      streamed += stored
      if decoded > sizeLimit || streamed > sizeLimit { return tooLarge(max(decoded, streamed)) }
    }
    if at + Int(compressed) > b.count {
      return "its compressed tables run past the end of the file"
    }
    return nil
  }

  static func tooLarge(_ size: Int) -> String {
    "it says it decodes to \(size) bytes, more than the limit of \(sizeLimit >> 20) MiB"
  }

  /// FreeType 2.12 writes the last entry of a rebuilt WOFF2 loca (the end of the last glyph)
  /// as an offset from the start of the whole font, not of glyf: HarfBuzz then reads the last
  /// glyph as running far past glyf. An entry past glyf's end is set to glyf's length, where
  /// the last glyph ends, and loca's checksum made again.
  static func repairLastLocaEntry(_ sfnt: inout [UInt8]) {
    guard let head = table(sfnt, "head"), let loca = table(sfnt, "loca"),
      let glyf = table(sfnt, "glyf"), head.length >= 54, let format = u16(sfnt, head.offset + 50)
    else { return }
    let unit = format == 0 ? 2 : 4
    let last = loca.offset + loca.length - unit
    guard loca.length >= unit, last + unit <= sfnt.count else { return }
    let end = format == 0 ? (u16(sfnt, last) ?? 0) * 2 : Int(u32(sfnt, last) ?? 0)
    guard end > glyf.length, format != 0 || glyf.length / 2 <= 0xFFFF else { return }
    let value = format == 0 ? glyf.length / 2 : glyf.length
    for i in 0..<unit { sfnt[last + i] = UInt8(truncatingIfNeeded: value >> (8 * (unit - 1 - i))) }
    let sum = checksum(sfnt[loca.offset..<loca.offset + loca.length])
    put(sum, into: &sfnt, at: loca.record + 4)
  }

  /// FreeType leaves a rebuilt WOFF2's `head.checkSumAdjustment` at 0; the font it came from
  /// had it set (WOFF2 keeps head as it was), so it is computed again as OpenType defines it:
  /// 0xB1B0AFBA less the sum of the whole font with the field at 0.
  static func restoreChecksumAdjustment(_ sfnt: inout [UInt8]) {
    guard let head = table(sfnt, "head"), head.length >= 12, u32(sfnt, head.offset + 8) == 0
    else { return }
    put(0xB1B0_AFBA &- checksum(sfnt[...]), into: &sfnt, at: head.offset + 8)
  }

  /// OpenType's table checksum: the sum of big-endian 32-bit words, the last padded with zeros.
  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var sum: UInt32 = 0
    var word: UInt32 = 0
    var n = 0
    for byte in bytes {
      word = word << 8 | UInt32(byte)
      n += 1
      if n == 4 {
        sum &+= word
        word = 0
        n = 0
      }
    }
    if n > 0 { sum &+= word << (8 * UInt32(4 - n)) }
    return sum
  }

  static func put(_ value: UInt32, into b: inout [UInt8], at o: Int) {
    for i in 0..<4 { b[o + i] = UInt8(truncatingIfNeeded: value >> (8 * (3 - i))) }
  }

  /// nil when `b` is an sfnt whose every table lies inside it; otherwise why not.
  static func checkSFNT(_ b: [UInt8]) -> String? {
    guard let tables = u16(b, 4), tables > 0, b.count >= 12 + 16 * tables else {
      return "has no table directory"
    }
    for i in 0..<tables {
      guard let offset = u32(b, 12 + 16 * i + 8), let length = u32(b, 12 + 16 * i + 12),
        Int(offset) + Int(length) <= b.count
      else { return "has a table past its end" }
    }
    return nil
  }

  /// The table `tag` of the sfnt `b`: where its record, its bytes and their end are.
  static func table(_ b: [UInt8], _ tag: String) -> (record: Int, offset: Int, length: Int)? {
    guard let tables = u16(b, 4) else { return nil }
    let wanted = Array(tag.utf8)
    for i in 0..<tables {
      let record = 12 + 16 * i
      guard record + 16 <= b.count else { return nil }
      guard Array(b[record..<record + 4]) == wanted, let offset = u32(b, record + 8),
        let length = u32(b, record + 12), Int(offset) + Int(length) <= b.count
      else { continue }
      return (record, Int(offset), Int(length))
    }
    return nil
  }

  static func u32(_ b: [UInt8], _ o: Int) -> UInt32? {
    guard o >= 0, o + 4 <= b.count else { return nil }
    return UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
  }

  static func u16(_ b: [UInt8], _ o: Int) -> Int? {
    guard o >= 0, o + 2 <= b.count else { return nil }
    return Int(b[o]) << 8 | Int(b[o + 1])
  }

  /// WOFF2's UIntBase128 at `at` (advanced past it): at most five bytes, no leading zero, no
  /// overflow of 32 bits; nil otherwise.
  static func base128(_ b: [UInt8], _ at: inout Int) -> Int? {
    var value: UInt32 = 0
    for i in 0..<5 {
      guard at < b.count else { return nil }
      let byte = b[at]
      at += 1
      if i == 0 && byte == 0x80 { return nil }
      if value & 0xFE00_0000 != 0 { return nil }
      value = value << 7 | UInt32(byte & 0x7F)
      if byte & 0x80 == 0 { return Int(value) }
    }
    return nil
  }
}
