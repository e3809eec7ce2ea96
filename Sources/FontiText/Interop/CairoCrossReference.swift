import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Cairo 1.16's cross-reference table, mended in place before qpdf reads the file.
///
/// Cairo reserves an object number for the structure element of every link and never writes
/// that object, yet its table lists the number as in use, at the offset the file had reached
/// when the number was reserved. A strict reader fails on the first such number; qpdf's
/// recovery rebuilds the whole table by reading the file a token at a time, which is only fast
/// with the whole file held in memory (17 MB more at the peak of a 1,000-page catalogue's
/// finishing step). Once those entries are marked free, qpdf reads the file from disk with
/// nothing to rebuild.
enum CairoCrossReference {
  /// A free entry, as the head of Cairo's table has it: never to be used again.
  private static let freeEntry = Array("0000000000 65535 f \n".utf8)
  /// The width of every entry of a classic cross-reference table.
  private static let entryWidth = 20

  /// Mends the table of the PDF at `path`: marks free every in-use entry whose object is
  /// written nowhere in the file. True when the table then points at every object it lists as
  /// in use; false, with the file untouched, when the file is laid out otherwise than Cairo
  /// lays it out (one classic table of fixed-width entries, each object written once) or an
  /// entry is wrong for an object the file does hold: that is damage for qpdf's recovery.
  static func mend(_ path: String) -> Bool {
    guard let bytes = try? AtomicFile.readBytes(path, limit: Int.max),
      let table = Table(bytes), let written = headers(in: bytes, count: table.count)
    else { return false }
    var freed: [Int] = []
    for number in 1..<table.count {
      guard let entry = table.entry(number, in: bytes) else { return false }
      guard entry.inUse else { continue }
      if written[number] == entry.offset { continue }
      // Written elsewhere: not the damage this mends.
      guard written[number] < 0 else { return false }
      freed.append(table.start + number * entryWidth)
    }
    guard !freed.isEmpty else { return true }
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    for position in freed {
      let count = freeEntry.withUnsafeBytes {
        pwrite(fd, $0.baseAddress, $0.count, off_t(position))
      }
      guard count == entryWidth else { return false }
    }
    return true
  }

  /// The file's one cross-reference table, found through `startxref` at its end.
  private struct Table {
    /// Where the first entry (object 0) begins.
    var start: Int
    /// How many entries: objects 0 to count − 1.
    var count: Int

    /// Reads "xref", then one subsection "0 count", its entries and "trailer".
    init?(_ bytes: [UInt8]) {
      let tail = Array(bytes.suffix(1024))
      guard let mark = tail.lastRange(of: Array("startxref".utf8)) else { return nil }
      var reader = Reader(tail, at: mark.upperBound)
      guard let offset = reader.number(), offset < bytes.count else { return nil }
      reader = Reader(bytes, at: offset)
      guard reader.word("xref"), reader.number() == 0, let count = reader.number(), count > 0,
        reader.endOfLine()
      else { return nil }
      start = reader.position
      self.count = count
      let (size, overflow) = count.multipliedReportingOverflow(by: CairoCrossReference.entryWidth)
      guard !overflow, size <= bytes.count - start else { return nil }
      reader = Reader(bytes, at: start + size)
      guard reader.word("trailer") else { return nil }
    }

    /// Entry `number`: its offset and whether it is in use; nil when it is not a well-formed
    /// fixed-width entry.
    func entry(_ number: Int, in bytes: [UInt8]) -> (offset: Int, inUse: Bool)? {
      let at = start + number * CairoCrossReference.entryWidth
      func digits(_ range: Range<Int>) -> Int? {
        var value = 0
        for byte in bytes[at + range.lowerBound..<at + range.upperBound] {
          guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
          value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
      }
      let space = UInt8(ascii: " ")
      let end = (bytes[at + 18], bytes[at + 19])
      guard let offset = digits(0..<10), digits(11..<16) != nil, bytes[at + 10] == space,
        bytes[at + 16] == space, end == (space, 0x0A) || end == (0x0D, 0x0A) || end == (space, 0x0D)
      else { return nil }
      switch bytes[at + 17] {
      case UInt8(ascii: "n"): return (offset, true)
      case UInt8(ascii: "f"): return (offset, false)
      default: return nil
      }
    }
  }

  /// For each object number below `count`, the offset of the line that begins "number
  /// generation obj", or −1 when no line does. Nil when one number begins two lines (an
  /// updated file, or stream data that looks like a header: not a layout to mend).
  private static func headers(in bytes: [UInt8], count: Int) -> [Int]? {
    var found = [Int](repeating: -1, count: count)
    var lineStart = true
    for position in bytes.indices {
      let byte = bytes[position]
      defer { lineStart = byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
      guard lineStart, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") else { continue }
      var reader = Reader(bytes, at: position)
      guard let number = reader.number(), reader.number() != nil, reader.word("obj"),
        number < count
      else { continue }
      guard found[number] < 0 else { return nil }
      found[number] = position
    }
    return found
  }
}

/// A cursor over PDF bytes that reads the few tokens a cross-reference table is made of.
private struct Reader {
  let bytes: [UInt8]
  var position: Int

  init(_ bytes: [UInt8], at position: Int) {
    self.bytes = bytes
    self.position = position
  }

  /// Skips spaces and ends of line.
  private mutating func skipSpace() {
    while position < bytes.count, [0x20, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
  }

  /// A whole number of at most 18 digits after optional space; nil (position unchanged past
  /// the space) when there is none.
  mutating func number() -> Int? {
    skipSpace()
    var value = 0
    var digits = 0
    while position < bytes.count, digits < 18, bytes[position] >= UInt8(ascii: "0"),
      bytes[position] <= UInt8(ascii: "9")
    {
      value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
      position += 1
      digits += 1
    }
    return digits > 0 ? value : nil
  }

  /// Whether `word` follows, after optional space (consumed when it does).
  mutating func word(_ word: String) -> Bool {
    skipSpace()
    let expected = Array(word.utf8)
    guard bytes.count - position >= expected.count,
      bytes[position..<position + expected.count].elementsEqual(expected)
    else { return false }
    position += expected.count
    return true
  }

  /// Whether an end of line ("\n" or "\r\n") follows directly (consumed when it does).
  mutating func endOfLine() -> Bool {
    if position < bytes.count, bytes[position] == 0x0A {
      position += 1
      return true
    }
    if position + 1 < bytes.count, bytes[position] == 0x0D, bytes[position + 1] == 0x0A {
      position += 2
      return true
    }
    return false
  }
}

extension Array where Element == UInt8 {
  /// The range of the last occurrence of `needle`.
  fileprivate func lastRange(of needle: [UInt8]) -> Range<Int>? {
    guard !needle.isEmpty, count >= needle.count else { return nil }
    for start in stride(from: count - needle.count, through: 0, by: -1)
    where self[start..<start + needle.count].elementsEqual(needle) {
      return start..<start + needle.count
    }
    return nil
  }
}
