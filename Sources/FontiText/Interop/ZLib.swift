internal import CPNG

/// zlib's checksum, for reading PNG chunks a font carries (`ColourBitmapCheck`).
package enum ZLib {
  /// The CRC-32 of `count` bytes at `start`, as PNG chunks carry it (calls `crc32`).
  static func crc32(_ start: UnsafeRawPointer, count: Int) -> UInt32 {
    UInt32(
      truncatingIfNeeded: CPNG.crc32(
        0, start.assumingMemoryBound(to: UInt8.self), UInt32(truncatingIfNeeded: count)))
  }
}

extension ZLib {
  /// The bytes a gzip stream holds (an SVG document a font stores compressed), or nil when
  /// `bytes` are not one whole gzip stream or hold more than `limit` bytes (a stream that
  /// inflates without end is refused, never followed). Calls `inflateInit2_` (gzip framing),
  /// `inflate` and `inflateEnd`.
  package static func gunzip(_ bytes: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
    guard bytes.count >= 18, bytes.count <= UInt32.max else { return nil }
    var input = Array(bytes)
    var stream = z_stream()
    // 15 + 16: a 32 KiB window, gzip's header and trailer.
    guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { inflateEnd(&stream) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    return input.withUnsafeMutableBufferPointer { (source) -> [UInt8]? in
      stream.next_in = source.baseAddress
      stream.avail_in = UInt32(source.count)
      while true {
        let (status, produced) = chunk.withUnsafeMutableBufferPointer { (buffer) -> (Int32, Int) in
          stream.next_out = buffer.baseAddress
          stream.avail_out = UInt32(buffer.count)
          let status = inflate(&stream, Z_NO_FLUSH)
          return (status, buffer.count - Int(stream.avail_out))
        }
        guard status == Z_OK || status == Z_STREAM_END, out.count + produced <= limit else {
          return nil
        }
        out += chunk[0..<produced]
        if status == Z_STREAM_END { return stream.avail_in == 0 ? out : nil }
        if produced == 0 && stream.avail_in == 0 { return nil }  // cut short
      }
    }
  }
}
