internal import CCairo

/// Pixels of a PNG read back through Cairo, for comparing images (golden tests, the
/// reproducibility check). Opaque images only: each pixel is 0x00RRGGBB.
package struct RasterImage: Equatable {
  package var width: Int
  package var height: Int
  var pixels: [UInt32]

  /// Calls `cairo_image_surface_create_from_png`; nil when the file is not a readable PNG.
  package static func load(png path: String) -> RasterImage? {
    guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
    defer { cairo_surface_destroy(surface) }
    return RasterImage(surface)
  }

  /// A PNG made `factor` times smaller by Cairo (the GOOD filter averages the pixels each one
  /// covers), to compare a 2× or 3× image with the 1× one; nil when the file is not a
  /// readable PNG or its sides are not multiples of `factor`.
  static func load(png path: String, shrunkBy factor: Int) -> RasterImage? {
    guard factor >= 1, let source = cairo_image_surface_create_from_png(path) else { return nil }
    defer { cairo_surface_destroy(source) }
    guard cairo_surface_status(source) == CAIRO_STATUS_SUCCESS else { return nil }
    let w = Int(cairo_image_surface_get_width(source))
    let h = Int(cairo_image_surface_get_height(source))
    guard w % factor == 0, h % factor == 0,
      let target = cairo_image_surface_create(
        CAIRO_FORMAT_RGB24, Int32(w / factor), Int32(h / factor))
    else { return nil }
    defer { cairo_surface_destroy(target) }
    guard let cr = cairo_create(target) else { return nil }
    cairo_scale(cr, 1 / Double(factor), 1 / Double(factor))
    cairo_set_source_surface(cr, source, 0, 0)
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
    cairo_paint(cr)
    let status = cairo_status(cr)
    cairo_destroy(cr)
    guard status == CAIRO_STATUS_SUCCESS else { return nil }
    cairo_surface_flush(target)
    return RasterImage(target)
  }

  /// The pixels of an image surface; nil when it is in error.
  private init?(_ surface: OpaquePointer) {
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
      let data = cairo_image_surface_get_data(surface)
    else { return nil }
    let w = Int(cairo_image_surface_get_width(surface))
    let h = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    var pixels = [UInt32](repeating: 0, count: w * h)
    let raw = UnsafeRawPointer(data)
    for y in 0..<h {
      for x in 0..<w {
        pixels[y * w + x] =
          raw.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) & 0x00FF_FFFF
      }
    }
    self.init(width: w, height: h, pixels: pixels)
  }

  init(width: Int, height: Int, pixels: [UInt32]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The mean of the per-channel differences (0–255) over every pixel; nil when the sizes
  /// differ.
  func meanDifference(_ other: RasterImage) -> Double? {
    guard width == other.width, height == other.height, !pixels.isEmpty else { return nil }
    var total = 0
    for i in pixels.indices {
      let a = pixels[i]
      let b = other.pixels[i]
      for shift in [0, 8, 16] as [UInt32] {
        total += abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
      }
    }
    return Double(total) / Double(pixels.count * 3)
  }

  /// Writes the image as a PNG (for expected/actual/diff files).
  package func write(png path: String) {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
      let data = cairo_image_surface_get_data(surface)
    else { return }
    defer { cairo_surface_destroy(surface) }
    let stride = Int(cairo_image_surface_get_stride(surface))
    for y in 0..<height {
      for x in 0..<width {
        UnsafeMutableRawPointer(data).storeBytes(
          of: pixels[y * width + x], toByteOffset: y * stride + x * 4, as: UInt32.self)
      }
    }
    cairo_surface_mark_dirty(surface)
    cairo_surface_write_to_png(surface, path)
  }

  /// Largest per-channel difference, and an image that shows where they differ (red).
  package func difference(_ other: RasterImage) -> (maximum: Int, image: RasterImage)? {
    guard width == other.width, height == other.height else { return nil }
    var maximum = 0
    var diff = [UInt32](repeating: 0, count: pixels.count)
    for i in pixels.indices {
      let a = pixels[i]
      let b = other.pixels[i]
      var m = 0
      for shift in [0, 8, 16] as [UInt32] {
        m = max(m, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
      }
      maximum = max(maximum, m)
      // Faint copy of the expected image, red where the pixels differ.
      let grey = UInt32(((a >> 8) & 0xFF) / 4)
      diff[i] = m > 0 ? 0x00FF_0000 : (grey << 16 | grey << 8 | grey)
    }
    return (maximum, RasterImage(width: width, height: height, pixels: diff))
  }
}
