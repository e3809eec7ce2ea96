import FontiText
import Foundation

/// Colour glyphs compared glyph by glyph: COLR's layers (version 0) and paint graphs (version
/// 1), CBDT/CBLC's and sbix's bitmaps strike by strike, and SVG's documents. Each change names
/// the glyphs it touches ("COLR layers changed: 3 glyphs (A, B, C)"); a table whose bytes
/// differ while every glyph paints the same (re-packed, its parts in another order) is no
/// change.
extension DeclaredComparer {
  /// The kinds whose values are lists of glyphs: the review says them in words.
  static let colourGlyphKinds: Set<String> = [
    "colour.colr.layers", "colour.colr.paints", "colour.cbdt.glyphs", "colour.sbix.glyphs",
    "colour.svg.glyphs",
  ]

  /// The colour tables among `differing`, compared.
  mutating func colour(differing: Set<String>) {
    let tags: Set<String> = ["COLR", "CBDT", "CBLC", "sbix", "SVG "]
    guard !differing.isDisjoint(with: tags) else { return }
    let keys = (GlyphKeys(face: before), GlyphKeys(face: after))
    if differing.contains("COLR") { colourLayers(keys) }
    if differing.contains("CBDT") || differing.contains("CBLC") { colourBitmaps(keys, sbix: false) }
    if differing.contains("sbix") { colourBitmaps(keys, sbix: true) }
    if differing.contains("SVG ") { svgDocuments(keys) }
  }

  // MARK: COLR

  mutating func colourLayers(_ keys: (GlyphKeys, GlyphKeys)) {
    let (tb, ta) = tables("COLR")
    let b: ColourGlyphPaints
    let a: ColourGlyphPaints
    do {
      b = try ColourGlyphPaints.read(tb, keys: keys.0)
      a = try ColourGlyphPaints.read(ta, keys: keys.1)
    } catch {
      unreadable("COLR", "colour.colr", "colour layers (COLR)", error.reason)
      return
    }
    let sides = GlyphSides(keys: keys, ids: (b.glyphIDs, a.glyphIDs))
    if tb.isEmpty != ta.isEmpty {
      let present = tb.isEmpty ? a : b
      let glyphs = Set(present.layers.keys).union(present.paints.keys)
      tableAddedOrRemoved("COLR", "colour.colr", "colour layers (COLR)", glyphs, sides, tb.isEmpty)
      return
    }
    glyphChanges("colour.colr.layers", "COLR layers", b.layers, a.layers, sides)
    glyphChanges("colour.colr.paints", "COLR paint graphs", b.paints, a.paints, sides)
    if b.variations != a.variations {
      change(
        "colour.colr", subject: "variations", .text(b.variations == nil ? "none" : "before"),
        .text(a.variations == nil ? "none" : "after"), "COLR variation data changed")
    }
  }

  // MARK: Bitmaps

  /// CBDT/CBLC (`sbix` false) or sbix, strike by strike: strikes added or removed, a strike's
  /// metrics, and each glyph's image added, removed or changed (strikes whose glyphs changed
  /// alike said together).
  mutating func colourBitmaps(_ keys: (GlyphKeys, GlyphKeys), sbix: Bool) {
    let tag = sbix ? "sbix" : "CBDT"
    let kind = sbix ? "colour.sbix" : "colour.cbdt"
    let what = sbix ? "colour bitmaps (sbix)" : "colour bitmaps (CBDT)"
    let data = tables(tag)
    let index = sbix ? data : tables("CBLC")
    func strikes(_ face: HarfBuzzFace, _ index: FontTable, _ data: FontTable)
      -> Result<[ColourBitmapStrike], ColourBitmapStrike.Unreadable>
    {
      index.bytes.withUnsafeBytes { i in
        if sbix {
          return Result { () throws(ColourBitmapStrike.Unreadable) in
            try ColourBitmapStrike.sbix(i, glyphCount: face.glyphCount)
          }
        }
        return data.bytes.withUnsafeBytes { d in
          Result { () throws(ColourBitmapStrike.Unreadable) in
            try ColourBitmapStrike.cblc(i, cbdt: d, glyphCount: face.glyphCount)
          }
        }
      }
    }
    let b: [ColourBitmapStrike]
    let a: [ColourBitmapStrike]
    do {
      b = try strikes(before, index.0, data.0).get()
      a = try strikes(after, index.1, data.1).get()
    } catch {
      unreadable(tag, kind, what, error.reason)
      return
    }
    func ids(_ strikes: [ColourBitmapStrike], _ keys: GlyphKeys) -> [String: Int] {
      var out: [String: Int] = [:]
      for s in strikes { for g in s.images.keys { out[keys.key(Int(g))] = Int(g) } }
      return out
    }
    let sides = GlyphSides(keys: keys, ids: (ids(b, keys.0), ids(a, keys.1)))
    if b.isEmpty != a.isEmpty {
      let glyphs = Set((b.isEmpty ? sides.ids.1 : sides.ids.0).keys)
      tableAddedOrRemoved(tag, kind, what, glyphs, sides, b.isEmpty)
      return
    }
    /// Each glyph's image in one strike, by key, compared by its bytes.
    func images(_ s: ColourBitmapStrike, _ keys: GlyphKeys, _ table: FontTable)
      -> [String: BitmapImage]
    {
      var out: [String: BitmapImage] = [:]
      for (g, image) in s.images {
        out[keys.key(Int(g))] = BitmapImage(image: image, table: table)
      }
      return out
    }
    var groups: [(strikes: [String], verb: String, glyphs: [String])] = []
    for strike in b where !a.contains(where: { $0.name == strike.name }) {
      let n = strike.images.count
      change(
        kind, subject: "strike \(strike.name)", .int(n), .none,
        "\(what) strike \(strike.name) removed: \(FamilyComparison.count(n, "glyph"))")
    }
    for strike in a where !b.contains(where: { $0.name == strike.name }) {
      let n = strike.images.count
      change(
        kind, subject: "strike \(strike.name)", .none, .int(n),
        "\(what) strike \(strike.name) added: \(FamilyComparison.count(n, "glyph"))")
    }
    for sa in a {
      guard let sb = b.first(where: { $0.name == sa.name }) else { continue }
      if sb.header != sa.header {
        change(
          kind, subject: "strike \(sa.name)", .text("before"), .text("after"),
          "\(what) strike \(sa.name): its metrics changed")
      }
      let found = GlyphDifference(
        images(sb, keys.0, data.0), images(sa, keys.1, data.1), same: ==)
      for (verb, glyphs) in found.byVerb where !glyphs.isEmpty {
        if let i = groups.firstIndex(where: { $0.verb == verb && $0.glyphs == glyphs }) {
          groups[i].strikes.append(sa.name)
        } else {
          groups.append(([sa.name], verb, glyphs))
        }
      }
    }
    let short = sbix ? "sbix" : "CBDT"
    for group in groups {
      let at = group.strikes.map { $0.replacingOccurrences(of: " ppem", with: "") }
      let subject = at.joined(separator: ", ") + " ppem"
      glyphChange(
        kind + ".glyphs", subject: subject, "\(short) bitmaps \(group.verb) at \(subject)",
        verb: group.verb, group.glyphs, sides)
    }
  }

  // MARK: SVG

  mutating func svgDocuments(_ keys: (GlyphKeys, GlyphKeys)) {
    let (tb, ta) = tables("SVG ")
    let b: SVGGlyphDocuments
    let a: SVGGlyphDocuments
    do {
      b = try SVGGlyphDocuments.read(tb)
      a = try SVGGlyphDocuments.read(ta)
    } catch {
      unreadable("SVG ", "colour.svg", "SVG glyphs", error.reason)
      return
    }
    func byKey(_ d: SVGGlyphDocuments, _ keys: GlyphKeys, _ t: FontTable)
      -> ([String: SVGDocument], [String: Int])
    {
      var documents: [String: SVGDocument] = [:]
      var ids: [String: Int] = [:]
      var read: [Range<Int>: ArraySlice<UInt8>] = [:]
      var budget = SVGDocument.inflateLimit
      for (glyph, range) in d.documents {
        let key = keys.key(glyph)
        let content =
          read[range] ?? SVGDocument.content(t.bytes[range], budget: &budget)
        read[range] = content
        documents[key] = SVGDocument(range: range, content: content)
        ids[key] = glyph
      }
      return (documents, ids)
    }
    let (db, ib) = byKey(b, keys.0, tb)
    let (da, ia) = byKey(a, keys.1, ta)
    let sides = GlyphSides(keys: keys, ids: (ib, ia))
    if tb.isEmpty != ta.isEmpty {
      let glyphs = Set((tb.isEmpty ? ia : ib).keys)
      tableAddedOrRemoved("SVG ", "colour.svg", "SVG glyphs", glyphs, sides, tb.isEmpty)
      return
    }
    // A document serves a range of glyphs: compare each pair of documents once.
    var compared: [Pair: Bool] = [:]
    glyphChanges("colour.svg.glyphs", "SVG documents", db, da, sides) { x, y in
      let pair = Pair(before: x.range, after: y.range)
      if let known = compared[pair] { return known }
      let same = x == y
      compared[pair] = same
      return same
    }
  }

  private struct Pair: Hashable {
    var before: Range<Int>
    var after: Range<Int>
  }

  // MARK: Saying it

  /// A colour table one side cannot read: changed, with the reason.
  mutating func unreadable(_ tag: String, _ kind: String, _ what: String, _ reason: String) {
    let (pb, pa) = (before.hasTable(tag), after.hasTable(tag))
    out.changes.append(
      DiffReport.Change(
        kind: kind, face: face, subject: tag, before: pb ? .text("before") : .none,
        after: pa ? .text("after") : .none, text: "\(what) changed (unreadable: \(reason))"))
    out.lines.append("\(what) changed (unreadable: \(reason))")
  }

  /// A colour table on one side only (`added`: after), with the glyphs it colours.
  mutating func tableAddedOrRemoved(
    _ tag: String, _ kind: String, _ what: String, _ glyphs: Set<String>, _ sides: GlyphSides,
    _ added: Bool
  ) {
    let names = sides.labels(glyphs.sorted(), after: added)
    let text =
      "\(what) \(added ? "added" : "removed"): \(FamilyComparison.count(names.count, "glyph"))"
      + (names.isEmpty ? "" : " (\(FamilyComparison.list(names)))")
    let list = DiffReport.DiffValue.list(names.map { .text($0) })
    out.changes.append(
      DiffReport.Change(
        kind: kind, face: face, subject: tag, before: added ? .none : list,
        after: added ? list : .none, text: text))
    out.lines.append(text)
  }

  /// The glyphs of `b` and `a` (by key) added, removed and changed, each verb a change of
  /// `kind` said "`what` changed: 3 glyphs (A, B, C)".
  mutating func glyphChanges<T: Equatable>(
    _ kind: String, _ what: String, _ b: [String: T], _ a: [String: T], _ sides: GlyphSides,
    same: (T, T) -> Bool = (==)
  ) {
    for (verb, glyphs) in GlyphDifference(b, a, same: same).byVerb where !glyphs.isEmpty {
      glyphChange(kind, subject: nil, "\(what) \(verb)", verb: verb, glyphs, sides)
    }
  }

  /// One change of glyphs, `glyphs` by key.
  mutating func glyphChange(
    _ kind: String, subject: String?, _ words: String, verb: String, _ glyphs: [String],
    _ sides: GlyphSides
  ) {
    let names = sides.labels(glyphs, after: verb != "removed")
    let text =
      "\(words): \(FamilyComparison.count(names.count, "glyph")) (\(FamilyComparison.list(names)))"
    let list = DiffReport.DiffValue.list(names.map { .text($0) })
    out.changes.append(
      DiffReport.Change(
        kind: kind, face: face, subject: subject, before: verb == "added" ? .none : list,
        after: verb == "removed" ? .none : list, text: text))
    out.lines.append(text)
  }
}

/// Both faces' glyph keys, and the glyph ID of each key the compared table names.
struct GlyphSides {
  var keys: (GlyphKeys, GlyphKeys)
  var ids: ([String: Int], [String: Int])

  /// The labels of `glyphs` (keys), in glyph order of the side that has them (`after` first).
  func labels(_ glyphs: [String], after: Bool) -> [String] {
    func place(_ key: String) -> (Int, String) {
      let side: (GlyphKeys, Int)? =
        if after, let id = ids.1[key] { (keys.1, id) } else if let id = ids.0[key] {
          (keys.0, id)
        } else if let id = ids.1[key] { (keys.1, id) } else { nil }
      guard let (keys, id) = side else { return (Int.max, key) }
      return (id, keys.label(id))
    }
    return glyphs.map(place).sorted { $0 < $1 }.map(\.1)
  }
}

/// The keys only `after` has (added), only `before` has (removed), and both have with values
/// not `same` (changed), each sorted.
struct GlyphDifference {
  var added: [String] = []
  var removed: [String] = []
  var changed: [String] = []

  init<T>(_ b: [String: T], _ a: [String: T], same: (T, T) -> Bool) {
    for (key, value) in a {
      if let old = b[key] {
        if !same(old, value) { changed.append(key) }
      } else {
        added.append(key)
      }
    }
    removed = b.keys.filter { a[$0] == nil }
    added.sort()
    removed.sort()
    changed.sort()
  }

  var byVerb: [(String, [String])] {
    [("changed", changed), ("added", added), ("removed", removed)]
  }
}

/// A colour bitmap's image compared by its bytes: the index's and the image's own.
struct BitmapImage: Equatable {
  var image: ColourBitmapStrike.Image
  var table: FontTable

  static func == (x: BitmapImage, y: BitmapImage) -> Bool {
    guard x.image.index == y.image.index else { return false }
    switch (x.image.data, y.image.data) {
    case (nil, nil): return true
    case (let rx?, let ry?): return sameBytes(x.table.bytes[rx], y.table.bytes[ry])
    default: return false
    }
  }
}

/// Whether two runs of bytes are the same (`memcmp`: Noto Color Emoji's 10 MB of images
/// compare in milliseconds, where comparing them byte by byte in a debug build takes a second).
func sameBytes(_ x: ArraySlice<UInt8>, _ y: ArraySlice<UInt8>) -> Bool {
  guard x.count == y.count else { return false }
  return x.withUnsafeBytes { bx in
    y.withUnsafeBytes { by in
      guard let px = bx.baseAddress, let py = by.baseAddress else { return true }
      return memcmp(px, py, bx.count) == 0
    }
  }
}

/// An SVG document compared by its bytes, inflated when the font stores it gzip-compressed (the
/// same document compressed otherwise is the same document).
struct SVGDocument: Equatable {
  var range: Range<Int>
  var content: ArraySlice<UInt8>

  /// The most bytes one table's documents are inflated to; past it, documents are compared as
  /// stored.
  static let inflateLimit = 64 << 20

  /// The document stored as `bytes`: inflated when it is gzip's (and fits in `budget`).
  static func content(_ bytes: ArraySlice<UInt8>, budget: inout Int) -> ArraySlice<UInt8> {
    guard bytes.count > 2, bytes[bytes.startIndex] == 0x1F, bytes[bytes.startIndex + 1] == 0x8B,
      budget > 0, let inflated = ZLib.gunzip(bytes, limit: budget)
    else { return bytes }
    budget -= inflated.count
    return inflated[...]
  }

  static func == (x: SVGDocument, y: SVGDocument) -> Bool { sameBytes(x.content, y.content) }
}
