/// Checks a font's colour bitmaps (CBDT/CBLC, sbix) before Cairo sees them. A PNG whose header
/// gives a size the strike's metrics do not (a height of 0x31000080), an image past the end of
/// its table, or an index that points nowhere makes FreeType hand Cairo a bitmap pixman spins on
/// for minutes; such glyphs are drawn as labelled empty boxes instead.
///
/// Reads the tables' bytes only (pure Swift, no library), so every offset and count is checked
/// here and a hostile table costs at most `checkLimit` glyph images.
package struct ColourBitmapCheck: Sendable, Equatable {
  /// Glyphs whose bitmap is damaged, by glyph ID.
  package var glyphs: Set<UInt32> = []
  /// Tables too damaged to tell which glyphs are sound, with what is wrong: every colour
  /// glyph of the face is then treated as damaged.
  package var tables: [String: String] = [:]
  /// The first damaged glyph's problem, for the warning.
  package var firstProblem: String?

  package init() {}

  /// Nothing is damaged.
  package var isSound: Bool { glyphs.isEmpty && tables.isEmpty }

  /// Whether `glyph` must not be drawn.
  package func isDamaged(_ glyph: UInt32) -> Bool {
    !tables.isEmpty || glyphs.contains(glyph)
  }

  /// The largest edge, in pixels, a colour bitmap may have (Noto Color Emoji's are 136).
  package static let largestEdge: UInt32 = 2048
  /// The most glyph images one face's tables are checked for.
  package static let checkLimit = 1 << 20

  /// Checks the tables given (each empty when the face lacks it) for a face of `glyphCount`
  /// glyphs.
  package static func check(
    cblc: UnsafeRawBufferPointer, cbdt: UnsafeRawBufferPointer, sbix: UnsafeRawBufferPointer,
    glyphCount: Int
  ) -> ColourBitmapCheck {
    var result = ColourBitmapCheck()
    var budget = checkLimit
    if cblc.count > 0 || cbdt.count > 0 {
      do {
        try checkCBLC(
          Bytes(cblc), Bytes(cbdt), glyphCount: glyphCount, budget: &budget, into: &result)
      } catch {
        result.tables["CBLC"] = error.reason
      }
    }
    if sbix.count > 0 {
      do {
        try checkSbix(Bytes(sbix), glyphCount: glyphCount, budget: &budget, into: &result)
      } catch {
        result.tables["sbix"] = error.reason
      }
    }
    return result
  }

  struct Damage: Error {
    var reason: String
  }

  /// Big-endian reads over a table's bytes; reading past the end throws.
  struct Bytes {
    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    var count: Int { bytes.count }

    func u8(_ at: Int) throws(Damage) -> UInt32 {
      guard at >= 0, at < bytes.count else { throw Damage(reason: "an offset past its end") }
      return UInt32(bytes[at])
    }
    func u16(_ at: Int) throws(Damage) -> UInt32 { try u8(at) << 8 | u8(at + 1) }
    func u32(_ at: Int) throws(Damage) -> UInt32 { try u16(at) << 16 | u16(at + 2) }
    func int(_ at: Int, size: Int = 4) throws(Damage) -> Int {
      if size == 2 { return Int(try u16(at)) }
      return Int(try u32(at))
    }
  }

  /// A glyph image's place in CBDT, and the size the strike's index gives it (nil: the image's
  /// own metrics give it).
  struct Image {
    var glyph: UInt32
    /// CBDT's image format (17, 18, 19: PNG), from the index subtable.
    var format: UInt32
    var offset: Int
    var length: Int?
    var size: (width: UInt32, height: UInt32)?
  }

  private static func checkCBLC(
    _ cblc: Bytes, _ cbdt: Bytes, glyphCount: Int, budget: inout Int,
    into result: inout ColourBitmapCheck
  ) throws(Damage) {
    try walkCBLC(cblc, glyphCount: glyphCount, budget: &budget) { _, _, _, images in
      for image in images {
        if let problem = imageProblem(image, cbdt) {
          result.glyphs.insert(image.glyph)
          if result.firstProblem == nil { result.firstProblem = problem }
        }
      }
    }
  }

  /// Walks CBLC's strikes and their index subtables, every offset and count checked: `visit`
  /// gets each subtable's strike (its number and record's offset), the subtable's offset and
  /// the images it lists. Each glyph indexed costs one of `budget`; past it, the walk throws.
  static func walkCBLC(
    _ cblc: Bytes, glyphCount: Int, budget: inout Int,
    strike: (_ number: Int, _ record: Int) throws(Damage) -> Void = { _, _ in },
    visit: (_ number: Int, _ record: Int, _ subtable: Int, _ images: [Image]) throws(Damage)
      -> Void
  ) throws(Damage) {
    guard cblc.count > 0 else { throw Damage(reason: "CBDT without its index (CBLC)") }
    let sizes = try cblc.int(4)
    guard sizes <= (cblc.count - 8) / 48 else {
      throw Damage(reason: "\(sizes) strikes in a table of \(cblc.count) bytes")
    }
    for s in 0..<sizes {
      let record = 8 + s * 48
      let array = try cblc.int(record)
      let count = try cblc.int(record + 8)
      guard array < cblc.count, count <= (cblc.count - array) / 8 else {
        throw Damage(reason: "strike \(s + 1)'s index runs past the table's end")
      }
      try strike(s, record)
      for j in 0..<count {
        let entry = array + j * 8
        let first = try cblc.u16(entry)
        let last = try cblc.u16(entry + 2)
        let subtable = array + (try cblc.int(entry + 4))
        guard first <= last, Int(last) < glyphCount else {
          throw Damage(reason: "strike \(s + 1) indexes glyphs \(first)–\(last) of \(glyphCount)")
        }
        budget -= Int(last - first) + 1
        guard budget >= 0 else { throw Damage(reason: "more glyph images than can be checked") }
        try visit(s, record, subtable, try images(cblc, header: subtable, first: first, last: last))
      }
    }
  }

  /// The images one index subtable lists (`header`: its start in CBLC).
  static func images(_ cblc: Bytes, header: Int, first: UInt32, last: UInt32)
    throws(Damage) -> [Image]
  {
    let format = try cblc.u16(header)
    let imageFormat = try cblc.u16(header + 2)
    let data = try cblc.int(header + 4)
    let n = Int(last - first) + 1
    switch format {
    case 1, 3:
      let size = format == 1 ? 4 : 2
      let offsets = try (0...n).map { (i: Int) throws(Damage) in
        try cblc.int(header + 8 + i * size, size: size)
      }
      return (0..<n).map { i in
        Image(
          glyph: first + UInt32(i), format: imageFormat, offset: data + offsets[i],
          length: offsets[i + 1] - offsets[i])
      }
    case 2:
      let size = try cblc.int(header + 8)
      let metrics = (try cblc.u8(header + 13), try cblc.u8(header + 12))
      return (0..<n).map { i in
        Image(
          glyph: first + UInt32(i), format: imageFormat, offset: data + i * size, length: size,
          size: metrics)
      }
    case 4:
      let count = try cblc.int(header + 8)
      guard count <= n else { throw Damage(reason: "an index of \(count) glyphs for \(n)") }
      return try (0..<count).map { (i: Int) throws(Damage) in
        let pair = header + 12 + i * 4
        let offset = try cblc.int(pair + 2, size: 2)
        return Image(
          glyph: try cblc.u16(pair), format: imageFormat, offset: data + offset,
          length: try cblc.int(pair + 6, size: 2) - offset)
      }
    case 5:
      let size = try cblc.int(header + 8)
      let metrics = (try cblc.u8(header + 13), try cblc.u8(header + 12))
      let count = try cblc.int(header + 20)
      guard count <= n else { throw Damage(reason: "an index of \(count) glyphs for \(n)") }
      return try (0..<count).map { (i: Int) throws(Damage) in
        Image(
          glyph: try cblc.u16(header + 24 + i * 2), format: imageFormat, offset: data + i * size,
          length: size,
          size: metrics)
      }
    default:
      throw Damage(reason: "an index of unknown format \(format)")
    }
  }

  /// What is wrong with one CBDT image, or nil. PNG images (formats 17, 18, 19) are checked:
  /// they are what FreeType decodes to a size of the PNG's choosing. EBDT's uncompressed
  /// formats pass (their metrics are bytes); any other format is damage.
  private static func imageProblem(_ image: Image, _ cbdt: Bytes) -> String? {
    if let length = image.length, length <= 0 { return length == 0 ? nil : "a negative length" }
    do {
      var size = image.size
      let png: Int
      switch image.format {
      case 17:  // small metrics (height, width, …), the PNG's length, the PNG
        size = (try cbdt.u8(image.offset + 1), try cbdt.u8(image.offset))
        png = image.offset + 9
      case 18:  // big metrics, the PNG's length, the PNG
        size = (try cbdt.u8(image.offset + 1), try cbdt.u8(image.offset))
        png = image.offset + 12
      case 19:  // the PNG's length, the PNG; its metrics are in CBLC
        png = image.offset + 4
      case 1, 2, 5, 6, 7:  // EBDT's uncompressed bitmaps: at most 255 pixels a side
        return nil
      default:  // composites (8, 9) and formats no font has: FreeType's guess hangs Cairo
        return "its image is of format \(image.format), which colour bitmaps do not use"
      }
      let length = try cbdt.int(png - 4)
      guard length >= 24, length <= cbdt.count - png else {
        return "its PNG of \(length) bytes does not fit in CBDT"
      }
      // The index gives the image's length too: FreeType reads that much.
      if let whole = image.length, png + length > image.offset + whole {
        return "its PNG of \(length) bytes is longer than the \(whole) bytes its index gives"
      }
      return try pngProblem(cbdt, at: png, end: png + length, expected: size)
    } catch {
      return "its image lies past the end of CBDT"
    }
  }

  private static func isPNG(_ bytes: Bytes, at: Int) throws(Damage) -> Bool {
    let head = try bytes.u32(at)
    let tail = try bytes.u32(at + 4)
    return head == 0x8950_4E47 && tail == 0x0D0A_1A0A
  }

  /// What is wrong with the PNG at `at`, which ends before `end`: not a PNG, a size other
  /// than `expected` or beyond `largestEdge`, or a chunk that runs past its end or fails its
  /// CRC (`chunkProblem`).
  private static func pngProblem(
    _ bytes: Bytes, at: Int, end: Int, expected: (width: UInt32, height: UInt32)?
  ) throws(Damage) -> String? {
    let signed = try isPNG(bytes, at: at)
    guard signed, try bytes.u32(at + 12) == 0x4948_4452 else { return "its image is not a PNG" }
    let width = try bytes.u32(at + 16)
    let height = try bytes.u32(at + 20)
    if width == 0 || height == 0 || width > largestEdge || height > largestEdge {
      return "its PNG says \(width)×\(height) pixels"
    }
    if let expected, expected != (width, height) {
      return "its PNG says \(width)×\(height) pixels where the strike says "
        + "\(expected.width)×\(expected.height)"
    }
    return try chunkProblem(bytes, at: at + 8, end: end)
  }

  /// What is wrong with the chunks from `at` to `end`: each must lie inside, carry the CRC of
  /// its type and data (zlib's `crc32`), and the last be IEND. A damaged compressed stream
  /// fails its CRC; FreeType hands Cairo what libpng made of it, which pixman can spin on.
  private static func chunkProblem(_ bytes: Bytes, at start: Int, end: Int) throws(Damage)
    -> String?
  {
    guard let base = bytes.bytes.baseAddress, end <= bytes.count else {
      return "its PNG is cut short"
    }
    var at = start
    while at + 12 <= end {
      let length = Int(try bytes.u32(at))
      guard length <= end - at - 12 else { return "its PNG has a chunk past its end" }
      let type = try bytes.u32(at + 4)
      let computed = ZLib.crc32(base + at + 4, count: length + 4)
      guard computed == (try bytes.u32(at + 8 + length)) else {
        return "its PNG fails its checksum"
      }
      if type == 0x4945_4E44 { return nil }  // IEND
      at += length + 12
    }
    return "its PNG is cut short"
  }

  private static func checkSbix(
    _ sbix: Bytes, glyphCount: Int, budget: inout Int, into result: inout ColourBitmapCheck
  ) throws(Damage) {
    let strikes = try sbix.int(4)
    guard strikes <= (sbix.count - 8) / 4 else {
      throw Damage(reason: "\(strikes) strikes in a table of \(sbix.count) bytes")
    }
    for s in 0..<strikes {
      let strike = try sbix.int(8 + s * 4)
      budget -= glyphCount
      guard budget >= 0 else { throw Damage(reason: "more glyph images than can be checked") }
      guard strike + 4 + (glyphCount + 1) * 4 <= sbix.count else {
        throw Damage(reason: "strike \(s + 1) runs past the table's end")
      }
      for g in 0..<glyphCount {
        let start = strike + (try sbix.int(strike + 4 + g * 4))
        let end = strike + (try sbix.int(strike + 8 + g * 4))
        guard end > start else { continue }
        var problem: String?
        if end > sbix.count || end - start < 8 {
          problem = "its image lies past the end of sbix"
        } else if try sbix.u32(start + 4) == 0x706E_6720 {  // 'png '
          problem =
            (try? pngProblem(sbix, at: start + 8, end: end, expected: nil))
            ?? "its PNG is cut short"
        }
        if let problem {
          result.glyphs.insert(UInt32(g))
          if result.firstProblem == nil { result.firstProblem = problem }
        }
      }
    }
  }
}

extension ColourBitmapCheck {
  /// Checks the colour bitmaps of `face`.
  package init(face: HarfBuzzFace) {
    self = face.withTable("CBLC") { cblc in
      face.withTable("CBDT") { cbdt in
        face.withTable("sbix") { sbix in
          Self.check(cblc: cblc, cbdt: cbdt, sbix: sbix, glyphCount: face.glyphCount)
        }
      }
    }
  }

  /// Checks the colour bitmaps of face `index` of `file`; sound when the file cannot be read
  /// (what cannot be read is reported where it is read).
  package init(file: String, index: Int = 0) {
    guard let face = try? HarfBuzzFace(file: file, index: index) else {
      self.init()
      return
    }
    self.init(face: face)
  }
}

extension ColourBitmapCheck {
  /// The characters of face `index` of `file` whose colour bitmap is damaged, ascending, and
  /// the first problem; nil when every bitmap is sound (or the face has none).
  package static func damagedCharacters(file: String, index: Int = 0)
    -> (characters: [UInt32], problem: String)?
  {
    guard let face = try? HarfBuzzFace(file: file, index: index) else { return nil }
    let check = ColourBitmapCheck(face: face)
    guard !check.isSound else { return nil }
    let font = HarfBuzzFont(face: face)
    let characters = face.unicodes.filter { font.glyph(for: $0).map(check.isDamaged) ?? false }
    let problem =
      check.tables.sorted { $0.key < $1.key }.first.map { "its \($0.key) table has \($0.value)" }
      ?? check.firstProblem ?? "damaged"
    return (characters, problem)
  }
}
