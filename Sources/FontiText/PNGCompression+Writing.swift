import FontiModel
import FontiSupport

/// The job's `png.compression` as libpng settings.
extension PNGCompression {
  /// zlib's level: 1 for `fast`, 9 for `small`.
  var zlibLevel: Int { self == .fast ? 1 : 9 }
  /// Rows filtered adaptively (`small`) or not at all (`fast`: with zlib 1 and run-length
  /// coding, about three times quicker than Cairo's own writer).
  var adaptiveFilters: Bool { self == .small }
}

extension CairoSurface {
  /// Writes the image as a PNG with the job's compression setting (see
  /// `writePNG(to:level:adaptiveFilters:sync:)`).
  package func writePNG(to path: String, compression: PNGCompression, sync: Bool) throws(FileError)
  {
    try writePNG(
      to: path, level: compression.zlibLevel, adaptiveFilters: compression.adaptiveFilters,
      sync: sync)
  }

  /// The PNG's bytes with the job's compression setting, in memory (see
  /// `encodedPNG(level:adaptiveFilters:for:)`).
  package func encodedPNG(compression: PNGCompression, for path: String) throws(FileError)
    -> [UInt8]
  {
    try encodedPNG(
      level: compression.zlibLevel, adaptiveFilters: compression.adaptiveFilters, for: path)
  }
}
