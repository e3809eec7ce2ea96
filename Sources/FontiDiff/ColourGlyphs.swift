import FontiText

/// How a face's glyphs are paired with the other version's and named in words: by the lowest
/// character the cmap maps to them, else by glyph name, else by glyph ID (as glyph instructions
/// are paired), so that renumbered glyphs are the same glyphs.
struct GlyphKeys {
  /// Each glyph's key by glyph ID: "U+1F600", a glyph name, or "#12".
  let keys: [String]
  /// Each glyph's label for the review: the character (or "U+200D" where it shows nothing), the
  /// glyph name, or "glyph 12".
  let labels: [String]

  init(face: HarfBuzzFace) {
    let font = HarfBuzzFont(face: face)
    let characters = font.reverseCharacterMap()
    var keys: [String] = []
    var labels: [String] = []
    keys.reserveCapacity(characters.count)
    labels.reserveCapacity(characters.count)
    for (gid, scalar) in characters.enumerated() {
      if scalar != 0 {
        let codepoint = DiffNumber.codepoint(scalar)
        keys.append(codepoint)
        let character = FamilyComparison.character(codepoint)
        labels.append(
          character == codepoint ? codepoint : String(character.dropFirst(codepoint.count + 1)))
      } else if let name = font.glyphName(UInt32(gid)), !name.isEmpty {
        keys.append(name)
        labels.append(name)
      } else {
        keys.append("#\(gid)")
        labels.append("glyph \(gid)")
      }
    }
    self.keys = keys
    self.labels = labels
  }

  init(keys: [String], labels: [String]) {
    self.keys = keys
    self.labels = labels
  }

  func key(_ gid: Int) -> String { gid >= 0 && gid < keys.count ? keys[gid] : "#\(gid)" }
  func label(_ gid: Int) -> String { gid >= 0 && gid < labels.count ? labels[gid] : "glyph \(gid)" }
}

/// A 64-bit FNV-1a hash over the parts of a structure, the same in every process (the paint
/// graphs of COLR version 1 are compared by it).
struct StructuralHash: Equatable {
  private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

  mutating func add<S: Sequence>(bytes: S) where S.Element == UInt8 {
    for b in bytes {
      value ^= UInt64(b)
      value = value &* 0x100_0000_01B3
    }
  }

  mutating func add(_ n: UInt64) {
    withUnsafeBytes(of: n.bigEndian) { add(bytes: $0) }
  }

  mutating func add(_ text: String) {
    add(UInt64(text.utf8.count))
    add(bytes: text.utf8)
  }
}

/// A colour table that cannot be read as a whole, with what stopped its reading.
struct ColourTableDamage: Error {
  var reason: String
}

/// COLR's glyphs, each as what it paints: version 0's layer lists and version 1's paint graphs,
/// each glyph (and each glyph it names) by its key, so that a table re-packed, its layers or
/// paints stored in another order or shared otherwise, reads the same.
struct ColourGlyphPaints {
  /// One layer of a version-0 colour glyph.
  struct Layer: Hashable {
    var glyph: String
    var palette: Int
  }

  /// Version 0: each base glyph's layers, bottom first, by the base glyph's key.
  var layers: [String: [Layer]] = [:]
  /// Version 1: each base glyph's paint graph (its clip box with it), hashed.
  var paints: [String: UInt64] = [:]
  /// The hash of the variation data of version 1 (the delta-set index map and the item
  /// variation store), nil when there is none.
  var variations: UInt64?
  /// The glyph ID of each key, for naming.
  var glyphIDs: [String: Int] = [:]

  /// The most layer records, paints and clip glyphs one table is read for.
  static let readLimit = 1 << 22
  /// How deep a paint graph is followed; deeper paints hash as a marker. HarfBuzz stops at 64.
  static let depthLimit = 64

  /// Reads `t` (empty: no table, no glyphs) with `keys` naming its glyphs.
  static func read(_ t: FontTable, keys: GlyphKeys) throws(ColourTableDamage) -> ColourGlyphPaints {
    var out = ColourGlyphPaints()
    guard !t.isEmpty else { return out }
    guard let version = t.u16(0), let bases = t.u16(2), let baseAt = t.u32(4),
      let layerAt = t.u32(8), let layerCount = t.u16(12)
    else { throw ColourTableDamage(reason: "a COLR header cut short") }
    var budget = readLimit
    for b in 0..<bases {
      let record = baseAt + 6 * b
      guard let glyph = t.u16(record), let first = t.u16(record + 2),
        let count = t.u16(record + 4)
      else { throw ColourTableDamage(reason: "a base glyph record past the table's end") }
      budget -= count + 1
      guard budget >= 0 else { throw ColourTableDamage(reason: "more layers than can be read") }
      var list: [Layer] = []
      for l in first..<(first + count) {
        guard l < layerCount, let layer = t.u16(layerAt + 4 * l),
          let palette = t.u16(layerAt + 4 * l + 2)
        else { throw ColourTableDamage(reason: "a layer record past the table's end") }
        list.append(Layer(glyph: keys.key(layer), palette: palette))
      }
      let key = keys.key(glyph)
      if out.layers[key] == nil {
        out.layers[key] = list
        out.glyphIDs[key] = glyph
      }
    }
    if version >= 1 {
      var graph = PaintGraph(t: t, keys: keys, budget: budget)
      try graph.read(into: &out)
    }
    return out
  }
}

/// COLR version 1's paint graph: every base glyph's paint hashed structurally (offsets followed,
/// never hashed), each paint once (shared paints are remembered by where they lie), with
/// cycles and depths past `ColourGlyphPaints.depthLimit` hashed as markers rather than
/// followed.
private struct PaintGraph {
  let t: FontTable
  let keys: GlyphKeys
  var budget: Int
  /// Base glyph → where its paint lies.
  var basePaints: [Int: Int] = [:]
  /// LayerList's paints, where each lies.
  var layerPaints: [Int] = []
  var memo: [Int: UInt64] = [:]
  var visiting: Set<Int> = []

  init(t: FontTable, keys: GlyphKeys, budget: Int) {
    self.t = t
    self.keys = keys
    self.budget = budget
  }

  mutating func spend(_ n: Int = 1) throws(ColourTableDamage) {
    budget -= n
    guard budget >= 0 else { throw ColourTableDamage(reason: "more paints than can be read") }
  }

  mutating func read(into out: inout ColourGlyphPaints) throws(ColourTableDamage) {
    guard let listAt = t.u32(14), let layersAt = t.u32(18), let clipsAt = t.u32(22),
      let mapAt = t.u32(26), let storeAt = t.u32(30)
    else { throw ColourTableDamage(reason: "a COLR version 1 header cut short") }
    if layersAt != 0 {
      guard let n = t.u32(layersAt) else { throw ColourTableDamage(reason: "a layer list cut") }
      for i in 0..<min(n, t.count / 4) {
        guard let offset = t.u32(layersAt + 4 + 4 * i) else {
          throw ColourTableDamage(reason: "a layer list past the table's end")
        }
        layerPaints.append(layersAt + offset)
      }
    }
    var order: [Int] = []
    if listAt != 0 {
      guard let n = t.u32(listAt) else { throw ColourTableDamage(reason: "a base list cut") }
      for i in 0..<min(n, t.count / 6) {
        guard let glyph = t.u16(listAt + 4 + 6 * i), let offset = t.u32(listAt + 6 + 6 * i)
        else { throw ColourTableDamage(reason: "a base glyph list past the table's end") }
        guard basePaints[glyph] == nil else { continue }
        basePaints[glyph] = listAt + offset
        order.append(glyph)
      }
    }
    let clips = try clipBoxes(clipsAt)
    for glyph in order {
      guard let at = basePaints[glyph] else { continue }
      var h = StructuralHash()
      h.add(try paint(at, depth: 0))
      if let clip = clips[glyph] { h.add(bytes: clip) } else { h.add(0) }
      let key = keys.key(glyph)
      if out.paints[key] == nil {
        out.paints[key] = h.value
        out.glyphIDs[key] = out.glyphIDs[key] ?? glyph
      }
    }
    if mapAt != 0 || storeAt != 0 { out.variations = try variations(map: mapAt, store: storeAt) }
  }

  /// Each glyph's clip box, as its bytes (format, bounds, variation index).
  mutating func clipBoxes(_ at: Int) throws(ColourTableDamage) -> [Int: [UInt8]] {
    guard at != 0 else { return [:] }
    guard let n = t.u32(at + 1) else { throw ColourTableDamage(reason: "a clip list cut") }
    var out: [Int: [UInt8]] = [:]
    for i in 0..<min(n, t.count / 7) {
      let record = at + 5 + 7 * i
      guard let first = t.u16(record), let last = t.u16(record + 2),
        let offset = t.u24(record + 4), let format = t.u8(at + offset),
        let box = t.slice(at + offset, format == 2 ? 13 : 9)
      else { throw ColourTableDamage(reason: "a clip box past the table's end") }
      guard first <= last else { continue }
      try spend(last - first + 1)
      for glyph in first...last where out[glyph] == nil { out[glyph] = Array(box) }
    }
    return out
  }

  /// What each paint format holds after its format byte, in order.
  enum Field {
    /// An Offset24 to a child paint.
    case paint
    /// An Offset24 to a ColorLine (`variable`: a VarColorLine).
    case colorLine(variable: Bool)
    /// An Offset24 to `n` bytes of numbers (an Affine2x3 or VarAffine2x3).
    case numbersAt(Int)
    /// `n` bytes of numbers (coordinates, angles, palette indices, variation indices).
    case numbers(Int)
    /// A glyph ID (PaintGlyph's outline).
    case glyph
    /// A base glyph whose paint is drawn here (PaintColrGlyph).
    case colourGlyph
    /// PaintColrLayers: a count (u8) and the first index into LayerList (u32).
    case layers
  }

  static let formats: [Int: [Field]] = [
    1: [.layers], 2: [.numbers(4)], 3: [.numbers(8)],
    4: [.colorLine(variable: false), .numbers(12)], 5: [.colorLine(variable: true), .numbers(16)],
    6: [.colorLine(variable: false), .numbers(12)], 7: [.colorLine(variable: true), .numbers(16)],
    8: [.colorLine(variable: false), .numbers(8)], 9: [.colorLine(variable: true), .numbers(12)],
    10: [.paint, .glyph], 11: [.colourGlyph], 12: [.paint, .numbersAt(24)],
    13: [.paint, .numbersAt(28)], 14: [.paint, .numbers(4)], 15: [.paint, .numbers(8)],
    16: [.paint, .numbers(4)], 17: [.paint, .numbers(8)], 18: [.paint, .numbers(8)],
    19: [.paint, .numbers(12)], 20: [.paint, .numbers(2)], 21: [.paint, .numbers(6)],
    22: [.paint, .numbers(6)], 23: [.paint, .numbers(10)], 24: [.paint, .numbers(2)],
    25: [.paint, .numbers(6)], 26: [.paint, .numbers(6)], 27: [.paint, .numbers(10)],
    28: [.paint, .numbers(4)], 29: [.paint, .numbers(8)], 30: [.paint, .numbers(8)],
    31: [.paint, .numbers(12)], 32: [.paint, .numbers(1), .paint],
  ]

  /// The hash of the paint at `at` and everything it paints.
  mutating func paint(_ at: Int, depth: Int) throws(ColourTableDamage) -> UInt64 {
    if let known = memo[at] { return known }
    if visiting.contains(at) { return 0xC1C1E }  // a cycle: drawn by nobody, hashed as a mark
    guard depth < ColourGlyphPaints.depthLimit else { return 0xDEE9 }
    try spend()
    guard let format = t.u8(at), let fields = Self.formats[format] else {
      throw ColourTableDamage(reason: "a paint of unknown format at \(at)")
    }
    visiting.insert(at)
    defer { visiting.remove(at) }
    var h = StructuralHash()
    h.add(UInt64(format))
    var cursor = at + 1
    for field in fields {
      switch field {
      case .paint:
        h.add(try paint(at + (try u24(cursor)), depth: depth + 1))
        cursor += 3
      case .colorLine(let variable):
        try colorLine(at + (try u24(cursor)), variable: variable, into: &h)
        cursor += 3
      case .numbersAt(let n):
        h.add(bytes: try bytes(at + (try u24(cursor)), n))
        cursor += 3
      case .numbers(let n):
        h.add(bytes: try bytes(cursor, n))
        cursor += n
      case .glyph:
        h.add(keys.key(try u16(cursor)))
        cursor += 2
      case .colourGlyph:
        let glyph = try u16(cursor)
        h.add(keys.key(glyph))
        // The glyph's own paint, when it has one: what it draws here changes with it.
        if let base = basePaints[glyph] { h.add(try paint(base, depth: depth + 1)) }
        cursor += 2
      case .layers:
        // Layers of layers are one list: drawing each over the last is associative, and a
        // compiler shares a run of layers between glyphs as a nested PaintColrLayers.
        var hashes: [UInt64] = []
        try layers(at, depth: depth, into: &hashes)
        h.add(UInt64(hashes.count))
        for layer in hashes { h.add(layer) }
        cursor += 5
      }
    }
    memo[at] = h.value
    return h.value
  }

  /// The hashes of the layers the PaintColrLayers at `at` draws, bottom first, the layers of
  /// a layer that is itself a PaintColrLayers in its place.
  mutating func layers(_ at: Int, depth: Int, into hashes: inout [UInt64])
    throws(ColourTableDamage)
  {
    guard let count = t.u8(at + 1), let first = t.u32(at + 2) else {
      throw ColourTableDamage(reason: "a layers paint past the table's end")
    }
    for i in first..<(first + count) {
      guard i < layerPaints.count else {
        throw ColourTableDamage(reason: "a layer index past the layer list")
      }
      let layer = layerPaints[i]
      try spend()
      if t.u8(layer) == 1, !visiting.contains(layer), depth < ColourGlyphPaints.depthLimit {
        visiting.insert(layer)
        defer { visiting.remove(layer) }
        try layers(layer, depth: depth + 1, into: &hashes)
      } else {
        hashes.append(try paint(layer, depth: depth + 1))
      }
    }
  }

  func u16(_ at: Int) throws(ColourTableDamage) -> Int {
    guard let v = t.u16(at) else { throw ColourTableDamage(reason: "a paint past the table's end") }
    return v
  }

  func u24(_ at: Int) throws(ColourTableDamage) -> Int {
    guard let v = t.u24(at) else { throw ColourTableDamage(reason: "a paint past the table's end") }
    return v
  }

  func bytes(_ at: Int, _ n: Int) throws(ColourTableDamage) -> ArraySlice<UInt8> {
    guard let v = t.slice(at, n) else {
      throw ColourTableDamage(reason: "a paint past the table's end")
    }
    return v
  }

  /// A ColorLine: its extend mode and stops (offset, palette index, alpha; a variation index).
  mutating func colorLine(_ at: Int, variable: Bool, into h: inout StructuralHash)
    throws(ColourTableDamage)
  {
    guard let extend = t.u8(at), let count = t.u16(at + 1) else {
      throw ColourTableDamage(reason: "a colour line past the table's end")
    }
    try spend(count)
    h.add(UInt64(extend))
    h.add(bytes: try bytes(at + 3, count * (variable ? 10 : 6)))
  }

  /// The variation data as numbers: the delta-set index map's entries and the item variation
  /// store's regions and deltas, each read where its offset says.
  mutating func variations(map: Int, store: Int) throws(ColourTableDamage) -> UInt64 {
    var h = StructuralHash()
    func cut() -> ColourTableDamage { ColourTableDamage(reason: "variation data cut short") }
    if map != 0 {
      guard let format = t.u8(map), let entry = t.u8(map + 1) else { throw cut() }
      let count = format == 0 ? t.u16(map + 2) : t.u32(map + 2)
      guard let count else { throw cut() }
      let data = map + (format == 0 ? 4 : 6)
      guard let entries = t.slice(data, count * ((entry >> 4 & 3) + 1)) else { throw cut() }
      h.add(UInt64(format == 0 ? 0 : 1) << 8 | UInt64(entry))
      h.add(bytes: entries)
    }
    if store != 0 {
      guard let format = t.u16(store), let regionsAt = t.u32(store + 2),
        let dataCount = t.u16(store + 6),
        let axes = t.u16(store + regionsAt), let regionCount = t.u16(store + regionsAt + 2),
        let regions = t.slice(store + regionsAt + 4, axes * regionCount * 6)
      else { throw cut() }
      h.add(UInt64(format))
      h.add(UInt64(axes) << 16 | UInt64(regionCount))
      h.add(bytes: regions)
      for i in 0..<dataCount {
        guard let offset = t.u32(store + 8 + 4 * i) else { throw cut() }
        let at = store + offset
        guard let items = t.u16(at), let words = t.u16(at + 2), let regionIndexes = t.u16(at + 4)
        else { throw cut() }
        let long = words & 0x8000 != 0
        let wordCount = min(words & 0x7FFF, regionIndexes)
        let row = wordCount * (long ? 4 : 2) + (regionIndexes - wordCount) * (long ? 2 : 1)
        guard let indexes = t.slice(at + 6, 2 * regionIndexes),
          let deltas = t.slice(at + 6 + 2 * regionIndexes, items * row)
        else { throw cut() }
        h.add(UInt64(items) << 32 | UInt64(words) << 16 | UInt64(regionIndexes))
        h.add(bytes: indexes)
        h.add(bytes: deltas)
      }
    }
    return h.value
  }
}

/// The SVG table's glyphs: each glyph's document, where it lies in the table (the same
/// document may serve a range of glyphs).
struct SVGGlyphDocuments {
  /// Each glyph's document, by glyph ID.
  var documents: [Int: Range<Int>] = [:]

  /// The most glyphs one table is read for.
  static let readLimit = 1 << 20

  static func read(_ t: FontTable) throws(ColourTableDamage) -> SVGGlyphDocuments {
    var out = SVGGlyphDocuments()
    guard !t.isEmpty else { return out }
    guard let listAt = t.u32(2), let count = t.u16(listAt) else {
      throw ColourTableDamage(reason: "an SVG header cut short")
    }
    var budget = readLimit
    for i in 0..<count {
      let record = listAt + 2 + 12 * i
      guard let first = t.u16(record), let last = t.u16(record + 2),
        let offset = t.u32(record + 4), let length = t.u32(record + 8)
      else { throw ColourTableDamage(reason: "a document record past the table's end") }
      guard t.slice(listAt + offset, length) != nil else {
        throw ColourTableDamage(reason: "a document past the table's end")
      }
      guard first <= last else { continue }
      budget -= last - first + 1
      guard budget >= 0 else { throw ColourTableDamage(reason: "more glyphs than can be read") }
      let range = (listAt + offset)..<(listAt + offset + length)
      for glyph in first...last where out.documents[glyph] == nil {
        out.documents[glyph] = range
      }
    }
    return out
  }
}
