import FontiSupport
import FontiText
import Foundation

/// The web gallery's small copy of a specimen, `thumbs/<slug>.png`, written atomically as an
/// 8-bit RGB PNG (zlib level 1, no row filters). The same pixels give the same bytes (no time
/// stamp; Cairo's filters are deterministic).
///
/// Size and filter: the image is halved with Cairo's bilinear filter (at exactly half scale,
/// the mean of each 2×2 block) while the half keeps its longest side at least `minimumEdge`;
/// when it is still longer than `maximumEdge`, one pass of Cairo's `GOOD` filter (a box filter)
/// brings it to `maximumEdge`. A 1080 px specimen becomes 270 px (each pixel the mean of a 4×4
/// block) for about a sixth of the CPU of one `GOOD` pass straight to 256 or 320 px, which runs
/// on pixman's generic convolution path whatever the target size (docs/gallery.md,
/// Thumbnails).
///
/// Two ways in: from the Cairo image a worker has just drawn (no second decode), and from a PNG
/// file (tests, `merge`).
public enum Thumbnail {
  /// A thumbnail's longest side stays between these (unless the source is smaller): cards show
  /// thumbnails about 240 CSS pixels wide.
  public static let minimumEdge = 256
  public static let maximumEdge = 320

  /// zlib level of thumbnails. Without row filters, which make these images (flat backgrounds,
  /// antialiased text) about a fifth larger. Level 1: about 13 KB and 0.6 ms per 270 px
  /// thumbnail; level 6 would save 1.4 KB a card for three times the time, a twentieth of a
  /// whole run's CPU.
  static let zlibLevel = 1

  /// Largest side of a source image read from a file: the largest specimen a job can ask for
  /// (`edge × scale` ≤ 8192). A bigger image is refused before it is decoded.
  public static let maximumSourceSide = 8192

  /// Largest PNG file read: an 8192² specimen at zlib level 1 is well below this.
  static let maximumFileBytes = 256 << 20

  /// A thumbnail's size in pixels.
  public struct Size: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int
  }

  /// What writing a thumbnail produced.
  public struct Result: Sendable, Hashable {
    public var size: Size
    /// With `staging`: the temporary file holding the thumbnail, complete but neither flushed
    /// nor renamed into place (the run's parent does that, as for specimens); nil when the file
    /// at the destination already held exactly these bytes and was left as it is.
    public var staged: String?
  }

  /// How a `width` × `height` image becomes its thumbnail: the number of halvings, and the final
  /// size (reached by one `GOOD` pass when it differs from the last half).
  static func plan(width: Int, height: Int) -> (halvings: Int, size: Size) {
    var w = max(width, 1)
    var h = max(height, 1)
    var halvings = 0
    while max(w / 2, h / 2) >= minimumEdge, min(w / 2, h / 2) >= 1 {
      w /= 2
      h /= 2
      halvings += 1
    }
    let longest = max(w, h)
    if longest > maximumEdge {
      func side(_ v: Int) -> Int {
        max(1, Int((Double(v) * Double(maximumEdge) / Double(longest)).rounded()))
      }
      return (halvings, Size(width: side(w), height: side(h)))
    }
    return (halvings, Size(width: w, height: h))
  }

  /// The size of the thumbnail of a `width` × `height` image (a 1080 px specimen: 270 px).
  public static func size(ofSource width: Int, _ height: Int) -> Size {
    plan(width: width, height: height).size
  }

  /// The thumbnail's pixels: halvings, then a `GOOD` pass if needed. Transparency (a PNG read
  /// from a file may have some) is flattened over ink.
  static func image(of source: CairoSurface) throws(CairoError) -> CairoSurface {
    let (halvings, size) = plan(width: source.width, height: source.height)
    let background = Palette(.ink).background
    var image = source
    for _ in 0..<halvings {
      image = try image.resized(
        width: image.width / 2, height: image.height / 2, filter: .bilinear,
        background: background)
    }
    if image.width != size.width || image.height != size.height || image === source {
      image = try image.resized(
        width: size.width, height: size.height, filter: .good, background: background)
    }
    return image
  }

  /// Writes the thumbnail of `image` (a drawn specimen, still in memory) to `path`. With
  /// `staging` it is left under a temporary name (`Result.staged`) for the caller to commit.
  static func write(_ image: CairoSurface, to path: String, staging: Bool = false)
    throws(RenderError) -> Result
  {
    let small: CairoSurface
    do {
      small = try Thumbnail.image(of: image)
    } catch {
      throw RenderError("cannot make the thumbnail '\(path)': \(error)")
    }
    let size = Size(width: small.width, height: small.height)
    do {
      if staging {
        let bytes = try small.encodedPNG(level: zlibLevel, adaptiveFilters: false, for: path)
        return Result(size: size, staged: try AtomicFile.stage(bytes, for: path))
      }
      try AtomicFile.write(to: path) { temporary in
        try small.writePNG(to: temporary, level: zlibLevel, adaptiveFilters: false, sync: true)
      }
      return Result(size: size, staged: nil)
    } catch var error as FileError {
      error.path = path  // the file the user will look for, not its temporary name
      throw RenderError("\(error)")
    } catch {
      throw RenderError("\(error)")
    }
  }

  /// Writes the thumbnail of the PNG file `source` to `path`, atomically (with `staging`, left
  /// under a temporary name: `Result.staged`). The file is checked before it is decoded: at
  /// most `maximumFileBytes`, a PNG signature and header, each side at most `maximumSourceSide`.
  @discardableResult
  public static func write(fromPNG source: String, to path: String) throws(RenderError) -> Size {
    try write(fromPNG: source, to: path, staging: false).size
  }

  /// See `write(fromPNG:to:)`.
  public static func write(fromPNG source: String, to path: String, staging: Bool)
    throws(RenderError) -> Result
  {
    func failure(_ why: String) -> RenderError {
      RenderError("cannot make a thumbnail of '\(source)': \(why)")
    }
    let data: Data?
    do {
      data = try AtomicFile.read(source, limit: maximumFileBytes)
    } catch {
      throw failure(error.message)
    }
    guard let data else { throw failure("no such file") }
    let bytes = [UInt8](data)
    guard let (width, height) = pngDimensions(bytes) else { throw failure("not a PNG image") }
    guard width <= maximumSourceSide, height <= maximumSourceSide else {
      throw failure(
        "\(width)×\(height) pixels is larger than \(maximumSourceSide)×\(maximumSourceSide)")
    }
    let image: CairoSurface
    do {
      image = try CairoSurface.image(png: bytes)
    } catch {
      throw failure("\(error)")
    }
    return try write(image, to: path, staging: staging)
  }

  /// Width and height from a PNG's signature and IHDR chunk, or nil when `bytes` do not start
  /// like a PNG file (or a side is zero or above 2³¹ − 1, which the format forbids).
  static func pngDimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count >= 24, Array(bytes[0..<8]) == signature,
      Array(bytes[12..<16]) == Array("IHDR".utf8)
    else { return nil }
    func number(at i: Int) -> Int {
      bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
    let width = number(at: 16)
    let height = number(at: 20)
    guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
      return nil
    }
    return (width, height)
  }
}
