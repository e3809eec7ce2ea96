internal import CCairo
internal import CPNG
import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// How an image is resampled when it is scaled (a `cairo_filter_t`).
package enum ImageFilter: Sendable, Hashable {
  /// Cairo's `CAIRO_FILTER_BILINEAR`: at exactly half scale, the mean of each 2×2 block (a
  /// sample falls on the corner between four pixels); pixman has fast paths for it.
  case bilinear
  /// Cairo's `CAIRO_FILTER_GOOD`: when shrinking by more than 3/4, a box filter over the source
  /// pixels under each destination pixel (pixman's separable convolution, a generic and slower
  /// path); bilinear otherwise.
  case good

  var cairoValue: cairo_filter_t {
    switch self {
    case .bilinear: return CAIRO_FILTER_BILINEAR
    case .good: return CAIRO_FILTER_GOOD
    }
  }
}

extension CairoSurface {
  /// An image decoded from the bytes of a PNG file (calls
  /// `cairo_image_surface_create_from_png_stream`). Cairo's reader turns libpng's errors into a
  /// status: a damaged or foreign file throws, it never aborts the process.
  package static func image(png bytes: [UInt8]) throws(CairoError) -> CairoSurface {
    let reader = PNGByteReader(bytes)
    let closure = Unmanaged.passUnretained(reader).toOpaque()
    let surface = withExtendedLifetime(reader) {
      cairo_image_surface_create_from_png_stream(
        { closure, data, length in
          guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
          let reader = Unmanaged<PNGByteReader>.fromOpaque(closure).takeUnretainedValue()
          return reader.read(into: data, count: Int(length))
            ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
        }, closure)
    }
    guard let surface else { preconditionFailure("cairo never returns NULL") }
    return try CairoSurface(surface, "read a PNG image")
  }

  /// A copy of this image at `width` × `height` pixels, opaque (RGB24): transparent parts come
  /// out over `background`. Edges are padded (the outermost pixels repeat), so that a filter
  /// reaching past the border never mixes in the transparency outside the source.
  package func resized(width: Int, height: Int, filter: ImageFilter, background: Colour)
    throws(CairoError) -> CairoSurface
  {
    guard cairo_surface_get_type(pointer) == CAIRO_SURFACE_TYPE_IMAGE, self.width > 0,
      self.height > 0, width > 0, height > 0
    else { throw CairoError(status: CAIRO_STATUS_SURFACE_TYPE_MISMATCH, operation: "resize") }
    cairo_surface_flush(pointer)
    let out = try CairoSurface.image(width: width, height: height, background: background)
    let cr = try CairoContext(out)
    cairo_scale(
      cr.pointer, Double(width) / Double(self.width), Double(height) / Double(self.height))
    cairo_set_source_surface(cr.pointer, pointer, 0, 0)
    if let pattern = cairo_get_source(cr.pointer) {
      cairo_pattern_set_filter(pattern, filter.cairoValue)
      cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    }
    cr.paint()
    try cr.check("scale a \(self.width)×\(self.height) image to \(width)×\(height)")
    cairo_surface_flush(out.pointer)
    return out
  }
}

extension CairoSurface {
  /// Writes the image as an 8-bit RGB PNG through libpng with zlib `level` (0–9), filtering
  /// each row adaptively or not at all. No time stamp or other varying chunk: the same pixels
  /// give the same bytes. `sync`: flushed to disk before this returns. Specimens use the job's
  /// two settings (`PNGCompression`); thumbnails pick their own (see `Thumbnail`).
  package func writePNG(to path: String, level: Int, adaptiveFilters: Bool, sync: Bool)
    throws(FileError)
  {
    cairo_surface_flush(pointer)
    guard let data = cairo_image_surface_get_data(pointer) else {
      throw FileError(path: path, operation: "read pixels for", code: EINVAL)
    }
    let result = CPNG_write_bgrx(
      path, data, Int32(width), Int32(height), cairo_image_surface_get_stride(pointer),
      Int32(max(0, min(9, level))), adaptiveFilters ? 1 : 0, sync ? 1 : 0)
    if result != 0 { throw FileError(path: path, operation: "write PNG", code: currentErrno()) }
  }

  /// The bytes `writePNG(to:level:adaptiveFilters:sync:)` would write, in memory. `path`: the
  /// file they are for, named by the error.
  package func encodedPNG(level: Int, adaptiveFilters: Bool, for path: String) throws(FileError)
    -> [UInt8]
  {
    cairo_surface_flush(pointer)
    guard let data = cairo_image_surface_get_data(pointer) else {
      throw FileError(path: path, operation: "read pixels for", code: EINVAL)
    }
    var bytes: UnsafeMutablePointer<UInt8>?
    var length = 0
    let result = CPNG_encode_bgrx(
      data, Int32(width), Int32(height), cairo_image_surface_get_stride(pointer),
      Int32(max(0, min(9, level))), adaptiveFilters ? 1 : 0, &bytes, &length)
    guard result == 0, let bytes else {
      throw FileError(path: path, operation: "write PNG", code: currentErrno())
    }
    defer { free(bytes) }
    return [UInt8](UnsafeBufferPointer(start: bytes, count: length))
  }
}

/// The state of one PNG read from memory: Cairo pulls the bytes in pieces through a callback.
private final class PNGByteReader {
  let bytes: [UInt8]
  var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Copies the next `count` bytes to `destination`; false at the end of the data.
  func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
    guard count >= 0, count <= bytes.count - offset else { return false }
    bytes.withUnsafeBufferPointer { source in
      guard let base = source.baseAddress else { return }
      destination.update(from: base + offset, count: count)
    }
    offset += count
    return true
  }
}
