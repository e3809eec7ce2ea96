internal import CPango  // GLib, which Pango brings, has the digest; Foundation on Linux has none
import Foundation

/// SHA-256, for the checksums in manifest.json and the fingerprints of what each output was
/// made from: GLib's `GChecksum`.
public final class SHA256 {
  private let checksum: OpaquePointer

  public init() {
    guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else {
      preconditionFailure("GLib has no SHA-256")
    }
    self.checksum = checksum
  }

  deinit { g_checksum_free(checksum) }

  public func update<D: Sequence>(_ bytes: D) where D.Element == UInt8 {
    let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      g_checksum_update(checksum, buffer.baseAddress, buffer.count)
    }
    if done == nil {
      let copy = Array(bytes)
      copy.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, $0.count) }
    }
  }

  public func update(_ data: Data) {
    data.withUnsafeBytes { raw in
      g_checksum_update(checksum, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
    }
  }

  /// The 32-byte digest. No update may follow.
  public func finalize() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    var length = digest.count
    digest.withUnsafeMutableBufferPointer {
      g_checksum_get_digest(checksum, $0.baseAddress, &length)
    }
    return Array(digest.prefix(length))
  }

  /// The digest in lower-case hex. No update may follow.
  public func hex() -> String {
    String(cString: g_checksum_get_string(checksum))
  }

  /// Hex digest of bytes.
  public static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
    let h = SHA256()
    h.update(bytes)
    return h.hex()
  }

  /// Hex digest of a file, read in 1 MiB chunks; nil if it cannot be read.
  public static func hex(file path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let h = SHA256()
    do {
      // `read(upToCount:)` answers nil (not empty data) at the end of the file.
      while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        h.update(chunk)
      }
    } catch {
      return nil
    }
    return h.hex()
  }
}
