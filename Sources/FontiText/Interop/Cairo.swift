internal import CCairo

#if canImport(Glibc)
  import Glibc
#endif

/// A failed Cairo call, with Cairo's reason. The renderer turns it into a family's failure.
package struct CairoError: Error, CustomStringConvertible {
  var status: cairo_status_t
  var operation: String

  static func check(_ status: cairo_status_t, _ operation: String) throws(CairoError) {
    if status != CAIRO_STATUS_SUCCESS { throw CairoError(status: status, operation: operation) }
  }

  package var description: String {
    "\(operation): \(String(cString: cairo_status_to_string(status)))"
  }
}

/// A Cairo surface (image or PDF); owns one reference to its `cairo_surface_t`.
/// Deliberately not Sendable: Cairo objects stay on the thread that made them.
package final class CairoSurface {
  let pointer: OpaquePointer

  /// Takes ownership of `pointer` (a new surface); destroys it and throws when its status is a
  /// failure.
  init(_ pointer: OpaquePointer, _ operation: String) throws(CairoError) {
    do {
      try CairoError.check(cairo_surface_status(pointer), operation)
    } catch {
      cairo_surface_destroy(pointer)
      throw error
    }
    self.pointer = pointer
  }

  /// An opaque RGB24 image, every pixel `background` (alpha ignored).
  ///
  /// `cairo_image_surface_create` zeroes its pixels (pixman `calloc`s them), and every image
  /// here is then painted over at once: its buffer is allocated unwritten instead
  /// (`cairo_image_surface_create_for_data`, freed with the surface) and written once, by the
  /// paint. For a 1080 px specimen that is 4.6 MB written once rather than twice.
  package static func image(width: Int, height: Int, background: Colour) throws(CairoError)
    -> CairoSurface
  {
    let operation = "create a \(width)×\(height) image"
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(clamping: width)))
    guard width > 0, height > 0, width <= 32767, height <= 32767, stride > 0,
      let data = malloc(stride * height)
    else { throw CairoError(status: CAIRO_STATUS_INVALID_SIZE, operation: operation) }
    let bytes = data.assumingMemoryBound(to: UInt8.self)
    guard
      let p = cairo_image_surface_create_for_data(
        bytes, CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))
    else { preconditionFailure("cairo never returns NULL") }
    // An error surface (a size Cairo refuses) takes no user data and answers with its status.
    let attached = cairo_surface_set_user_data(p, &CairoSurface.pixelsKey, data) { free($0) }
    guard attached == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(p)
      free(data)
      throw CairoError(status: attached, operation: operation)
    }
    let surface = try CairoSurface(p, operation)
    let cr = try CairoContext(surface)
    cairo_set_operator(cr.pointer, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_rgb(cr.pointer, background.red, background.green, background.blue)
    cr.paint()
    try cr.check(operation)
    return surface
  }

  /// The key under which an image made by `image(width:height:background:)` holds its pixels.
  nonisolated(unsafe) private static var pixelsKey = cairo_user_data_key_t()

  /// An 8-bit coverage (alpha only) image, zeroed: `diff` draws glyphs on it to count the
  /// pixels that differ (calls `cairo_image_surface_create` with `CAIRO_FORMAT_A8`).
  package static func coverage(width: Int, height: Int) throws(CairoError) -> CairoSurface {
    guard let p = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
    else { preconditionFailure("cairo never returns NULL") }
    return try CairoSurface(p, "create a \(width)×\(height) coverage image")
  }

  /// A PDF surface writing to `path` (calls `cairo_pdf_surface_create`).
  package static func pdf(path: String, width: Double, height: Double) throws(CairoError)
    -> CairoSurface
  {
    guard let p = cairo_pdf_surface_create(path, width, height)
    else { preconditionFailure("cairo never returns NULL") }
    return try CairoSurface(p, "create PDF \(path)")
  }

  deinit { cairo_surface_destroy(pointer) }

  package func finish() throws(CairoError) {
    cairo_surface_finish(pointer)
    try CairoError.check(cairo_surface_status(pointer), "finish surface")
  }

  /// Sets one entry of a PDF surface's document information (calls
  /// `cairo_pdf_surface_set_metadata`). Dates are ISO 8601, `YYYY-MM-DDThh:mm:ssZ`.
  package func setMetadata(_ key: PDFMetadata, _ value: String) throws(CairoError) {
    cairo_pdf_surface_set_metadata(pointer, key.cairoValue, value)
    try CairoError.check(cairo_surface_status(pointer), "set PDF metadata")
  }

  /// Adds a bookmark to a PDF surface's outline, pointing at the destination named
  /// `destination` (calls `cairo_pdf_surface_add_outline`). Returns the entry's id, which can
  /// be the parent of later entries; `parent` nil puts the entry at the top level.
  @discardableResult
  package func addOutline(
    _ title: String, destination: String, parent: Int32? = nil, open: Bool = false
  ) throws(CairoError) -> Int32 {
    let id = cairo_pdf_surface_add_outline(
      pointer, parent ?? Int32(CAIRO_PDF_OUTLINE_ROOT), title,
      "dest='\(CairoTag.escape(destination))'",
      open ? CAIRO_PDF_OUTLINE_FLAG_OPEN : cairo_pdf_outline_flags_t(rawValue: 0))
    try CairoError.check(cairo_surface_status(pointer), "add PDF outline entry")
    return id
  }

  package var width: Int { Int(cairo_image_surface_get_width(pointer)) }
  package var height: Int { Int(cairo_image_surface_get_height(pointer)) }
}

/// A drawing context on a surface; owns one reference to its `cairo_t`.
package final class CairoContext {
  let pointer: OpaquePointer
  /// The structure elements begun so far, while the document is tagged (`beginDocument`).
  package internal(set) var tagging: PDFTagging?
  /// The structure elements open now, innermost last.
  var openElements: [PDFTagging.Role] = []
  /// The Document element is begun with the first element inside it (`beginDocument`).
  var documentPending = false

  package init(_ surface: CairoSurface) throws(CairoError) {
    guard let p = cairo_create(surface.pointer) else {
      preconditionFailure("cairo never returns NULL")
    }
    do {
      try CairoError.check(cairo_status(p), "cairo_create")
    } catch {
      cairo_destroy(p)
      throw error
    }
    pointer = p
  }

  deinit { cairo_destroy(pointer) }

  package func save() { cairo_save(pointer) }
  package func restore() { cairo_restore(pointer) }
  package func scale(_ s: Double) { cairo_scale(pointer, s, s) }
  func translate(_ x: Double, _ y: Double) { cairo_translate(pointer, x, y) }
  package func move(to x: Double, _ y: Double) { cairo_move_to(pointer, x, y) }
  package func line(to x: Double, _ y: Double) { cairo_line_to(pointer, x, y) }
  package func close() { cairo_close_path(pointer) }
  package func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
    cairo_rectangle(pointer, x, y, w, h)
  }
  package func circle(_ x: Double, _ y: Double, radius: Double) {
    cairo_new_sub_path(pointer)
    cairo_arc(pointer, x, y, radius, 0, 2 * Double.pi)
  }
  package func curve(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double
  ) {
    cairo_curve_to(pointer, x1, y1, x2, y2, x3, y3)
  }
  package func setColour(_ c: Colour, alpha: Double = 1) {
    cairo_set_source_rgba(pointer, c.red, c.green, c.blue, alpha * c.alpha)
  }
  package func fill() { cairo_fill(pointer) }
  package func stroke(width: Double) {
    cairo_set_line_width(pointer, width)
    cairo_stroke(pointer)
  }
  package func paint() { cairo_paint(pointer) }
  package func newPath() { cairo_new_path(pointer) }
  package func showPage() { cairo_show_page(pointer) }

  /// Marks everything drawn by `body` as a link to the named destination, clickable over
  /// `rect` (x, y, width, height in user space). Calls `cairo_tag_begin` and `cairo_tag_end`
  /// with `CAIRO_TAG_LINK`. Cairo 1.16 writes a damaged cross-reference table as soon as one
  /// link exists; `PDFRewriter` repairs the file afterwards.
  package func link(
    to destination: String, rect: (x: Double, y: Double, width: Double, height: Double),
    _ body: () -> Void
  ) {
    let attributes =
      "dest='\(CairoTag.escape(destination))' rect=[\(CairoTag.number(rect.x)) "
      + "\(CairoTag.number(rect.y)) \(CairoTag.number(rect.width)) "
      + "\(CairoTag.number(rect.height))]"
    // A link is a structure element too: Cairo 1.16 writes it in the tree, with its
    // annotation, tagged or not.
    begin(.link, attributes: attributes)
    body()
    end(.link)
  }

  /// Defines a named destination on the current page at (x, y), the target of links and
  /// bookmarks. Calls `cairo_tag_begin` and `cairo_tag_end` with `CAIRO_TAG_DEST`.
  package func destination(_ name: String, x: Double = 0, y: Double = 0) {
    let attributes =
      "name='\(CairoTag.escape(name))' x=\(CairoTag.number(x)) y=\(CairoTag.number(y))"
    cairo_tag_begin(pointer, CAIRO_TAG_DEST, attributes)
    cairo_tag_end(pointer, CAIRO_TAG_DEST)
  }

  /// Cairo records failures in the context; this surfaces the first one.
  package func check(_ operation: String) throws(CairoError) {
    try CairoError.check(cairo_status(pointer), operation)
  }
}

/// The document information entries a PDF surface can set.
package enum PDFMetadata {
  case title, author, subject, keywords, creator, createDate, modDate

  var cairoValue: cairo_pdf_metadata_t {
    switch self {
    case .title: return CAIRO_PDF_METADATA_TITLE
    case .author: return CAIRO_PDF_METADATA_AUTHOR
    case .subject: return CAIRO_PDF_METADATA_SUBJECT
    case .keywords: return CAIRO_PDF_METADATA_KEYWORDS
    case .creator: return CAIRO_PDF_METADATA_CREATOR
    case .createDate: return CAIRO_PDF_METADATA_CREATE_DATE
    case .modDate: return CAIRO_PDF_METADATA_MOD_DATE
    }
  }
}

/// Formatting of Cairo tag attribute strings (`name='value' rect=[x y w h]`).
enum CairoTag {
  /// A string attribute's value with `\` and `'` escaped, as Cairo's attribute parser expects.
  static func escape(_ value: String) -> String {
    var out = ""
    for c in value {
      if c == "\\" || c == "'" { out.append("\\") }
      out.append(c)
    }
    return out
  }

  /// A number in the C locale with at most three decimals (no exponent), so attributes parse
  /// the same everywhere and files are reproducible.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let thousandths = (value * 1000).rounded()
    let negative = thousandths < 0
    let magnitude = Int64(min(abs(thousandths), 1e15))
    let whole = magnitude / 1000
    let fraction = magnitude % 1000
    var text = "\(negative ? "-" : "")\(whole)"
    if fraction != 0 {
      var digits = String(fraction)
      digits = String(repeating: "0", count: 3 - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text
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

  /// This colour at `opacity` laid over `base`: the opaque colour a viewer shows there.
  func laid(_ opacity: Double, over base: Colour) -> Colour {
    func mix(_ a: Double, _ b: Double) -> Double { a * opacity + b * (1 - opacity) }
    var out = base
    out.red = mix(red, base.red)
    out.green = mix(green, base.green)
    out.blue = mix(blue, base.blue)
    out.alpha = 1
    return out
  }
}

/// `errno` after a failed C call.
func currentErrno() -> Int32 {
  #if canImport(Glibc)
    return Glibc.errno
  #else
    return 0
  #endif
}
