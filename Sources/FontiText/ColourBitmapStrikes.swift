/// The colour bitmaps of a face, strike by strike, for comparing two versions of it (`diff`):
/// where each glyph's image lies in its table, read with `ColourBitmapCheck`'s reader of the
/// index, so that the tables are parsed one way. An image is compared as its bytes (the image
/// format, its metrics and the PNG), never by where it lies: a table re-packed with its images
/// in another order holds the same strikes.
///
/// Reads the tables' bytes only; every offset and count is checked, and a face costs at most
/// `ColourBitmapCheck.checkLimit` glyph images. A table that cannot be read throws.
package struct ColourBitmapStrike: Sendable, Equatable {
  /// "109 ppem", or "109×120 ppem" where the two sizes differ; "… (2)" for a second strike of
  /// the same size in one table.
  package var name: String
  /// What the strike says of all its glyphs: CBLC's line metrics, bit depth and flags; sbix's
  /// pixels per inch.
  package var header: [UInt8]
  /// Each glyph's image by glyph ID: what says it, as bytes (the index subtable's image format
  /// and metrics, then the image's bytes in CBDT; in sbix, the glyph's record).
  package var images: [UInt32: Image]

  /// One glyph's image: bytes of the index (`index`) and the range of the data table holding
  /// the image (nil when it lies past the table's end).
  package struct Image: Sendable, Equatable {
    package var index: [UInt8]
    package var data: Range<Int>?
  }

  /// A table that cannot be read, with what is wrong with it.
  package struct Unreadable: Error, Sendable {
    package var reason: String
  }

  /// The strikes of CBLC (indexing `cbdt`), in the table's order. Empty when both are empty.
  package static func cblc(
    _ cblc: UnsafeRawBufferPointer, cbdt: UnsafeRawBufferPointer, glyphCount: Int
  ) throws(Unreadable) -> [ColourBitmapStrike] {
    guard cblc.count > 0 || cbdt.count > 0 else { return [] }
    do {
      return try readCBLC(ColourBitmapCheck.Bytes(cblc), cbdtCount: cbdt.count, glyphCount)
    } catch {
      throw Unreadable(reason: error.reason)
    }
  }

  /// The strikes of `sbix`, in the table's order.
  package static func sbix(_ sbix: UnsafeRawBufferPointer, glyphCount: Int) throws(Unreadable)
    -> [ColourBitmapStrike]
  {
    guard sbix.count > 0 else { return [] }
    do {
      return try readSbix(ColourBitmapCheck.Bytes(sbix), glyphCount)
    } catch {
      throw Unreadable(reason: error.reason)
    }
  }

  typealias Damage = ColourBitmapCheck.Damage

  private static func readCBLC(_ cblc: ColourBitmapCheck.Bytes, cbdtCount: Int, _ glyphCount: Int)
    throws(Damage) -> [ColourBitmapStrike]
  {
    var budget = ColourBitmapCheck.checkLimit
    var strikes: [ColourBitmapStrike] = []
    try ColourBitmapCheck.walkCBLC(
      cblc, glyphCount: glyphCount, budget: &budget,
      strike: { _, record throws(Damage) in
        // Line metrics (24 bytes), then the glyph range, ppem x and y, bit depth and flags.
        let header = try (16..<40).map { (i: Int) throws(Damage) in
          UInt8(try cblc.u8(record + i))
        }
        let tail = try (44..<48).map { (i: Int) throws(Damage) in UInt8(try cblc.u8(record + i)) }
        strikes.append(
          ColourBitmapStrike(
            name: name(x: Int(tail[0]), y: Int(tail[1]), taken: strikes.map(\.name)),
            header: header + tail[2...], images: [:]))
      },
      visit: { _, _, subtable, images throws(Damage) in
        let format = try cblc.u16(subtable)
        // Index formats 2 and 5 give every glyph's metrics (8 bytes after the image size).
        var metrics: [UInt8] = []
        if format == 2 || format == 5 {
          metrics = try (12..<20).map { (i: Int) throws(Damage) in
            UInt8(try cblc.u8(subtable + i))
          }
        }
        for image in images where strikes[strikes.count - 1].images[image.glyph] == nil {
          var data: Range<Int>?
          if let length = image.length, length >= 0, image.offset >= 0,
            length <= cbdtCount - image.offset
          {
            data = image.offset..<(image.offset + length)
          }
          let format = [UInt8(image.format >> 8 & 0xFF), UInt8(image.format & 0xFF)]
          strikes[strikes.count - 1].images[image.glyph] = Image(
            index: format + metrics, data: data)
        }
      })
    return strikes
  }

  private static func readSbix(_ sbix: ColourBitmapCheck.Bytes, _ glyphCount: Int)
    throws(Damage) -> [ColourBitmapStrike]
  {
    let count = try sbix.int(4)
    guard count <= (sbix.count - 8) / 4 else {
      throw Damage(reason: "\(count) strikes in a table of \(sbix.count) bytes")
    }
    var budget = ColourBitmapCheck.checkLimit
    var strikes: [ColourBitmapStrike] = []
    for s in 0..<count {
      let strike = try sbix.int(8 + s * 4)
      budget -= glyphCount
      guard budget >= 0 else { throw Damage(reason: "more glyph images than can be read") }
      guard strike >= 0, strike + 4 + (glyphCount + 1) * 4 <= sbix.count else {
        throw Damage(reason: "strike \(s + 1) runs past the table's end")
      }
      let ppem = Int(try sbix.u16(strike))
      let ppi = try sbix.u16(strike + 2)
      var out = ColourBitmapStrike(
        name: name(x: ppem, y: ppem, taken: strikes.map(\.name)),
        header: [UInt8(ppi >> 8), UInt8(ppi & 0xFF)], images: [:])
      for g in 0..<glyphCount {
        let start = strike + (try sbix.int(strike + 4 + g * 4))
        let end = strike + (try sbix.int(strike + 8 + g * 4))
        guard end > start else { continue }  // no image for this glyph
        // The record: origin offsets, graphic type ('png ', 'dupe'…), data.
        out.images[UInt32(g)] = Image(index: [], data: end <= sbix.count ? start..<end : nil)
      }
      strikes.append(out)
    }
    return strikes
  }

  /// "109 ppem" ("109×120 ppem"), numbered when `taken` has it already.
  private static func name(x: Int, y: Int, taken: [String]) -> String {
    let base = x == y ? "\(x) ppem" : "\(x)×\(y) ppem"
    guard taken.contains(base) else { return base }
    var n = 2
    while taken.contains("\(base) (\(n))") { n += 1 }
    return "\(base) (\(n))"
  }
}
