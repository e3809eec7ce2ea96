#if canImport(Glibc)
  import Glibc
#endif

internal import CCairo
internal import CPNG

/// A failed Cairo call, with Cairo's reason. FontiCore turns it into a family's failure.
struct CairoError: Error, CustomStringConvertible {
  var status: cairo_status_t
  var operation: String

  static func check(_ status: cairo_status_t, _ operation: String) throws(CairoError) {
    if status != CAIRO_STATUS_SUCCESS { throw CairoError(status: status, operation: operation) }
  }

  var description: String {
    "\(operation): \(String(cString: cairo_status_to_string(status)))"
  }
}

/// A Cairo surface (image or PDF); owns one reference to its `cairo_surface_t`.
/// Deliberately not Sendable: Cairo objects stay on the thread that made them.
final class CairoSurface {
  let pointer: OpaquePointer

  private init(_ pointer: OpaquePointer, _ operation: String) throws(CairoError) {
    do {
      try CairoError.check(cairo_surface_status(pointer), operation)
    } catch {
      cairo_surface_destroy(pointer)
      throw error
    }
    self.pointer = pointer
  }

  /// An opaque RGB24 image (calls `cairo_image_surface_create`).
  static func image(width: Int, height: Int) throws(CairoError) -> CairoSurface {
    guard let p = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
    else { preconditionFailure("cairo never returns NULL") }
    return try CairoSurface(p, "create a \(width)×\(height) image")
  }

  /// A PDF surface writing to `path` (calls `cairo_pdf_surface_create`).
  static func pdf(path: String, width: Double, height: Double) throws(CairoError) -> CairoSurface {
    guard let p = cairo_pdf_surface_create(path, width, height)
    else { preconditionFailure("cairo never returns NULL") }
    return try CairoSurface(p, "create PDF \(path)")
  }

  deinit { cairo_surface_destroy(pointer) }

  func finish() throws(CairoError) {
    cairo_surface_finish(pointer)
    try CairoError.check(cairo_surface_status(pointer), "finish surface")
  }

  var width: Int { Int(cairo_image_surface_get_width(pointer)) }
  var height: Int { Int(cairo_image_surface_get_height(pointer)) }

  /// Writes the image as an 8-bit RGB PNG through libpng (the default `fast`: zlib level 1 and
  /// no filtering, about three times quicker than Cairo's own writer; `small`: level 9 with
  /// adaptive filters). No time stamp or other varying chunk: the same pixels give the same
  /// bytes.
  func writePNG(to path: String, compression: PNGCompression) throws(FileError) {
    cairo_surface_flush(pointer)
    guard let data = cairo_image_surface_get_data(pointer) else {
      throw FileError(path: path, operation: "read pixels for", code: EINVAL_)
    }
    let level: Int32 = compression == .fast ? 1 : 9
    let result = CPNG_write_bgrx(
      path, data, Int32(width), Int32(height), cairo_image_surface_get_stride(pointer), level,
      compression == .fast ? 0 : 1)
    if result != 0 { throw FileError(path: path, operation: "write PNG", code: currentErrno()) }
  }
}

/// A drawing context on a surface; owns one reference to its `cairo_t`.
final class CairoContext {
  let pointer: OpaquePointer

  init(_ surface: CairoSurface) throws(CairoError) {
    guard let p = cairo_create(surface.pointer) else { preconditionFailure("cairo never returns NULL") }
    do {
      try CairoError.check(cairo_status(p), "cairo_create")
    } catch {
      cairo_destroy(p)
      throw error
    }
    pointer = p
  }

  deinit { cairo_destroy(pointer) }

  func save() { cairo_save(pointer) }
  func restore() { cairo_restore(pointer) }
  func scale(_ s: Double) { cairo_scale(pointer, s, s) }
  func translate(_ x: Double, _ y: Double) { cairo_translate(pointer, x, y) }
  func move(to x: Double, _ y: Double) { cairo_move_to(pointer, x, y) }
  func line(to x: Double, _ y: Double) { cairo_line_to(pointer, x, y) }
  func close() { cairo_close_path(pointer) }
  func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
    cairo_rectangle(pointer, x, y, w, h)
  }
  func circle(_ x: Double, _ y: Double, radius: Double) {
    cairo_new_sub_path(pointer)
    cairo_arc(pointer, x, y, radius, 0, 2 * Double.pi)
  }
  func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
    cairo_curve_to(pointer, x1, y1, x2, y2, x3, y3)
  }
  func setColour(_ c: Colour, alpha: Double = 1) {
    cairo_set_source_rgba(pointer, c.red, c.green, c.blue, alpha * c.alpha)
  }
  func fill() { cairo_fill(pointer) }
  func stroke(width: Double) {
    cairo_set_line_width(pointer, width)
    cairo_stroke(pointer)
  }
  func paint() { cairo_paint(pointer) }
  func newPath() { cairo_new_path(pointer) }
  func showPage() { cairo_show_page(pointer) }

  /// Cairo records failures in the context; this surfaces the first one.
  func check(_ operation: String) throws(CairoError) {
    try CairoError.check(cairo_status(pointer), operation)
  }
}

/// An sRGB colour with alpha, components 0…1.
public struct Colour: Sendable, Hashable {
  public var red, green, blue, alpha: Double

  public init(hex: UInt32, alpha: Double = 1) {
    red = Double((hex >> 16) & 0xFF) / 255
    green = Double((hex >> 8) & 0xFF) / 255
    blue = Double(hex & 0xFF) / 255
    self.alpha = alpha
  }
}

let EINVAL_: Int32 = 22

func currentErrno() -> Int32 {
  #if canImport(Glibc)
    return Glibc.errno
  #else
    return 0
  #endif
}
