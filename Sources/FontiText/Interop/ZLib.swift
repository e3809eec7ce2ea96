internal import CPNG

/// zlib's checksum, for reading PNG chunks a font carries (`ColourBitmapCheck`).
enum ZLib {
  /// The CRC-32 of `count` bytes at `start`, as PNG chunks carry it (calls `crc32`).
  static func crc32(_ start: UnsafeRawPointer, count: Int) -> UInt32 {
    UInt32(
      truncatingIfNeeded: CPNG.crc32(
        0, start.assumingMemoryBound(to: UInt8.self), UInt32(truncatingIfNeeded: count)))
  }
}
