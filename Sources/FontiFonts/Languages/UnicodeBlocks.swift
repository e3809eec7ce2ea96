import FontiSupport
import Foundation

/// A named range of the Unicode code space ("Basic Latin", U+0000–U+007F).
public struct UnicodeBlock: Sendable, Hashable {
  public var name: String
  public var range: ClosedRange<UInt32>

  public init(name: String, range: ClosedRange<UInt32>) {
    self.name = name
    self.range = range
  }
}

/// Unicode's blocks, from Debian's `unicode-data` (`/usr/share/unicode/Blocks.txt`): no library
/// here names them. Read once per process, on first use. Without the file every code point is
/// in one "Unknown block" group; lines that are not `XXXX..YYYY; Name` are skipped.
public struct UnicodeBlocks: Sendable {
  /// A run of code points of one block, for a glyph chart.
  public struct Group: Sendable, Hashable {
    /// The block's name, `noBlockName` for code points outside every block, or
    /// `unknownBlockName` when there is no block data at all.
    public var name: String
    /// The block's range; nil for the two stand-in groups.
    public var range: ClosedRange<UInt32>?
    /// Ascending.
    public var codePoints: [UInt32]

    public init(name: String, range: ClosedRange<UInt32>?, codePoints: [UInt32]) {
      self.name = name
      self.range = range
      self.codePoints = codePoints
    }
  }

  /// From `/usr/share/unicode/Blocks.txt`, on first use.
  public static let shared = UnicodeBlocks(file: "/usr/share/unicode/Blocks.txt")

  /// The one group of a machine without Blocks.txt.
  public static let unknownBlockName = "Unknown block"
  /// Code points in no block (Unicode's `No_Block`: unassigned, or newer than the file).
  public static let noBlockName = "No block"
  /// The largest file read; Blocks.txt is about 11 KB.
  static let maximumFileSize = 1 << 20

  /// Sorted by first code point, not overlapping.
  public let blocks: [UnicodeBlock]

  public init(blocks: [UnicodeBlock]) {
    var kept: [UnicodeBlock] = []
    for block in blocks.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      // Overlaps only come from a damaged file: the first block keeps the range.
      if let last = kept.last, block.range.lowerBound <= last.range.upperBound { continue }
      kept.append(block)
    }
    self.blocks = kept
  }

  /// Parses `Blocks.txt`'s format: `0000..007F; Basic Latin`, `#` comments.
  public init(text: String) {
    var blocks: [UnicodeBlock] = []
    for line in text.split(whereSeparator: \.isNewline) {
      let content = line.prefix { $0 != "#" }
      guard let semicolon = content.firstIndex(of: ";") else { continue }
      let bounds = content[..<semicolon].trimmingCharacters(in: .whitespaces)
      let name = Sanitize.terminal(
        content[content.index(after: semicolon)...].trimmingCharacters(in: .whitespaces))
      let ends = bounds.components(separatedBy: "..")
      guard ends.count == 2, !name.isEmpty, name.count <= 200,
        let low = UnicodeBlocks.hex(ends[0]), let high = UnicodeBlocks.hex(ends[1]), low <= high
      else { continue }
      blocks.append(UnicodeBlock(name: name, range: low...high))
    }
    self.init(blocks: blocks)
  }

  /// Reads `file`; a missing, unreadable or oversized file gives no blocks.
  public init(file: String) {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
      let size = attributes[.size] as? NSNumber, size.intValue <= UnicodeBlocks.maximumFileSize,
      let data = FileManager.default.contents(atPath: file)
    else {
      self.init(blocks: [])
      return
    }
    self.init(text: String(decoding: data, as: UTF8.self))
  }

  /// The block of `scalar`, or nil when it is in none (or there is no data).
  public func block(of scalar: UInt32) -> UnicodeBlock? {
    var low = 0
    var high = blocks.count
    while low < high {
      let mid = (low + high) / 2
      if blocks[mid].range.upperBound < scalar { low = mid + 1 } else { high = mid }
    }
    return low < blocks.count && blocks[low].range.contains(scalar) ? blocks[low] : nil
  }

  /// `codePoints` (any order, repeats dropped) grouped by block, in block (code point) order.
  /// Code points between blocks form `noBlockName` groups where they fall; with no block data,
  /// everything is one `unknownBlockName` group.
  public func group(_ codePoints: [UInt32]) -> [Group] {
    let sorted = Array(Set(codePoints)).sorted()
    guard !sorted.isEmpty else { return [] }
    guard !blocks.isEmpty else {
      return [Group(name: UnicodeBlocks.unknownBlockName, range: nil, codePoints: sorted)]
    }
    var groups: [Group] = []
    var current: UnicodeBlock?
    for c in sorted {
      let block = (current?.range.contains(c) ?? false) ? current : block(of: c)
      let name = block?.name ?? UnicodeBlocks.noBlockName
      if let last = groups.last, last.range == block?.range, last.name == name {
        groups[groups.count - 1].codePoints.append(c)
      } else {
        groups.append(Group(name: name, range: block?.range, codePoints: [c]))
      }
      current = block
    }
    return groups
  }

  /// 1–6 hex digits, at most U+10FFFF.
  static func hex(_ text: String) -> UInt32? {
    guard (1...6).contains(text.utf8.count), text.utf8.allSatisfy(\.isHexDigit),
      let value = UInt32(text, radix: 16), value <= 0x10FFFF
    else { return nil }
    return value
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
