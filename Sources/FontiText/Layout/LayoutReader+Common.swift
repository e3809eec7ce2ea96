/// A class definition read once: each glyph's class (0 left out) and each class's glyphs.
final class LayoutClasses {
  let classOf: [UInt32: Int]
  let glyphs: [Int: Set<UInt32>]
  /// Class 0: the face's glyphs no class names, made when a rule first asks for it.
  var unclassed: Set<UInt32>?
  /// Each class's set number (`LayoutReader.intern`), once asked for.
  var numbers: [Int: Int] = [:]

  init(classOf: [UInt32: Int]) {
    self.classOf = classOf
    var glyphs: [Int: Set<UInt32>] = [:]
    for (glyph, value) in classOf { glyphs[value, default: []].insert(glyph) }
    self.glyphs = glyphs
  }

  func value(_ glyph: UInt32) -> Int { classOf[glyph] ?? 0 }
}

extension LayoutReader {
  // MARK: - Coverage and classes

  /// A Coverage table's glyphs (below the glyph count) with their coverage indices, in the
  /// table's order; a glyph listed twice keeps its first index.
  mutating func coverage(_ offset: Int) throws(LayoutDamage) -> [(glyph: UInt32, index: Int)] {
    let format = try bytes.read16(offset)
    let count = try bytes.read16(offset + 2)
    var out: [(glyph: UInt32, index: Int)] = []
    var seen = Set<UInt32>()
    switch format {
    case 1:
      try spend(count)
      for i in 0..<count {
        let glyph = try bytes.read16(offset + 4 + 2 * i)
        if glyph < glyphCount, seen.insert(UInt32(glyph)).inserted {
          out.append((UInt32(glyph), i))
        }
      }
    case 2:
      for i in 0..<count {
        let start = try bytes.read16(offset + 4 + 6 * i)
        let end = try bytes.read16(offset + 6 + 6 * i)
        let first = try bytes.read16(offset + 8 + 6 * i)
        guard start <= end, start < glyphCount else { continue }
        try spend(min(end, glyphCount - 1) - start + 1)
        for glyph in start...min(end, glyphCount - 1) where seen.insert(UInt32(glyph)).inserted {
          out.append((UInt32(glyph), first + glyph - start))
        }
      }
    default:
      throw LayoutDamage(reason: "a coverage table of format \(format)")
    }
    return out
  }

  /// A Coverage table's glyphs as a set, read once.
  mutating func coverageSet(_ offset: Int) throws(LayoutDamage) -> Set<UInt32> {
    if let known = coverageSets[offset] { return known }
    let set = Set(try coverage(offset).map(\.glyph))
    coverageSets[offset] = set
    return set
  }

  /// The class definition at `offset` of `table` (the layout table, or GDEF), read once.
  mutating func classes(_ offset: Int, in table: TableBytes? = nil) throws(LayoutDamage)
    -> LayoutClasses
  {
    let source = table ?? bytes
    if table == nil, let known = classDefinitions[offset] { return known }
    guard let format = source.u16(offset), format == 1 || format == 2 else {
      throw LayoutDamage(reason: "a class definition that cannot be read")
    }
    let pairs = source.classDef(at: offset, glyphCount: glyphCount)
    try spend(pairs.count + 1)
    var classOf: [UInt32: Int] = [:]
    for (glyph, value) in pairs where classOf[glyph] == nil { classOf[glyph] = value }
    let classes = LayoutClasses(classOf: classOf)
    if table == nil { classDefinitions[offset] = classes }
    return classes
  }

  /// The glyphs of class `value` (0: every glyph no class names).
  mutating func glyphs(ofClass value: Int, in classes: LayoutClasses) throws(LayoutDamage)
    -> Set<UInt32>
  {
    guard value == 0 else { return classes.glyphs[value] ?? [] }
    if let known = classes.unclassed { return known }
    if allGlyphs == nil {
      try spend(glyphCount)
      allGlyphs = Set((0..<glyphCount).map { UInt32($0) })
    }
    try spend(glyphCount)
    let unclassed = (allGlyphs ?? []).subtracting(classes.classOf.keys)
    classes.unclassed = unclassed
    return unclassed
  }

  // MARK: - GDEF

  /// GDEF's classes and mark sets, and where its ItemVariationStore is.
  mutating func readDefinitions() -> LayoutGlyphDefinitions {
    var out = LayoutGlyphDefinitions()
    guard gdef.count > 0 else { return out }
    guard let major = gdef.u16(0), let minor = gdef.u16(2), major == 1 else {
      out.problem = "its header cannot be read"
      return out
    }
    do {
      if let offset = gdef.u16(4), offset > 0 {
        out.glyphClasses = try classes(offset, in: gdef).classOf
      }
      if let offset = gdef.u16(10), offset > 0 {
        out.markAttachmentClasses = try classes(offset, in: gdef).classOf
      }
      if minor >= 2, let offset = gdef.u16(12), offset > 0 {
        out.markGlyphSets = try markGlyphSets(offset)
      }
      if minor >= 3, let offset = gdef.u32(14), offset > 0 {
        variationStore = offset
        out.hasVariationStore = true
      }
    } catch {
      out.problem = error.reason
    }
    return out
  }

  /// MarkGlyphSets: each set's glyphs, read from GDEF.
  mutating func markGlyphSets(_ offset: Int) throws(LayoutDamage) -> [Set<UInt32>] {
    let damage = LayoutDamage(reason: "its mark glyph sets cannot be read")
    guard gdef.u16(offset) == 1, let count = gdef.u16(offset + 2) else { throw damage }
    var sets: [Set<UInt32>] = []
    for i in 0..<count {
      guard let coverage = gdef.u32(offset + 4 + 4 * i) else { throw damage }
      let glyphs = gdef.coverage(at: offset + coverage, glyphCount: glyphCount)
      try spend(glyphs.count + 1)
      sets.append(Set(glyphs))
    }
    return sets
  }

  // MARK: - Values, anchors, devices, variations

  /// A ValueRecord of `format` at `offset`; its device offsets are from `base`.
  mutating func value(_ format: Int, at offset: Int, base: Int) throws(LayoutDamage)
    -> LayoutValue
  {
    var out = LayoutValue()
    var at = offset
    func next() throws(LayoutDamage) -> Int {
      defer { at += 2 }
      return try bytes.read16(at)
    }
    if format & 0x01 != 0 { out.xPlacement = Int(Int16(truncatingIfNeeded: try next())) }
    if format & 0x02 != 0 { out.yPlacement = Int(Int16(truncatingIfNeeded: try next())) }
    if format & 0x04 != 0 { out.xAdvance = Int(Int16(truncatingIfNeeded: try next())) }
    if format & 0x08 != 0 { out.yAdvance = Int(Int16(truncatingIfNeeded: try next())) }
    if format & 0x10 != 0 {
      (out.xPlacement, out.xPlacementDevice) = try device(base, try next(), out.xPlacement)
    }
    if format & 0x20 != 0 {
      (out.yPlacement, out.yPlacementDevice) = try device(base, try next(), out.yPlacement)
    }
    if format & 0x40 != 0 {
      (out.xAdvance, out.xAdvanceDevice) = try device(base, try next(), out.xAdvance)
    }
    if format & 0x80 != 0 {
      (out.yAdvance, out.yAdvanceDevice) = try device(base, try next(), out.yAdvance)
    }
    return out
  }

  /// The size of a ValueRecord of `format`, in bytes (every bit counts, as HarfBuzz counts it).
  static func valueSize(_ format: Int) -> Int { 2 * (format & 0xFFFF).nonzeroBitCount }

  /// An Anchor table (formats 1–3) at `offset`.
  mutating func anchor(_ offset: Int) throws(LayoutDamage) -> LayoutAnchor {
    let format = try bytes.read16(offset)
    var out = LayoutAnchor(
      x: try bytes.readSigned16(offset + 2), y: try bytes.readSigned16(offset + 4))
    switch format {
    case 1: break
    case 2: out.contourPoint = try bytes.read16(offset + 6)
    case 3:
      (out.x, out.xDevice) = try device(offset, try bytes.read16(offset + 6), out.x)
      (out.y, out.yDevice) = try device(offset, try bytes.read16(offset + 8), out.y)
    default: throw LayoutDamage(reason: "an anchor of format \(format)")
    }
    return out
  }

  /// `value` with the Device or VariationIndex table at `base + offset` (0: none) applied: a
  /// variation delta is added at the coordinates; hinting deltas are returned.
  mutating func device(_ base: Int, _ offset: Int, _ value: Int) throws(LayoutDamage)
    -> (Int, LayoutDeviceDeltas?)
  {
    guard offset > 0 else { return (value, nil) }
    let table = base + offset
    let first = try bytes.read16(table)
    let second = try bytes.read16(table + 2)
    let format = try bytes.read16(table + 4)
    switch format {
    case 0x8000:
      let delta = try variationDelta(outer: first, inner: second).rounded()
      return (value + Int(max(-1e9, min(1e9, delta))), nil)
    case 1, 2, 3:
      guard first <= second else { return (value, nil) }
      let bits = 1 << format
      let count = second - first + 1
      try spend(count)
      var deltas: [Int] = []
      for i in 0..<count {
        let bit = i * bits
        let word = try bytes.read16(table + 6 + 2 * (bit / 16))
        let raw = word >> (16 - bits - bit % 16) & (1 << bits - 1)
        deltas.append(raw >= 1 << (bits - 1) ? raw - (1 << bits) : raw)
      }
      return (value, LayoutDeviceDeltas(startSize: first, deltas: deltas))
    default:
      return (value, nil)
    }
  }

  /// The delta of item (`outer`, `inner`) of GDEF's ItemVariationStore at the coordinates; 0
  /// when GDEF has no store or the item is past it (as HarfBuzz reads it).
  mutating func variationDelta(outer: Int, inner: Int) throws(LayoutDamage) -> Double {
    guard let store = variationStore, !coordinates.allSatisfy({ $0 == 0 }),
      gdef.u16(store) == 1, let regions = gdef.u32(store + 2),
      let dataCount = gdef.u16(store + 6), outer < dataCount,
      let dataOffset = gdef.u32(store + 8 + 4 * outer)
    else { return 0 }
    let data = store + dataOffset
    guard let itemCount = gdef.u16(data), let wordField = gdef.u16(data + 2),
      let regionCount = gdef.u16(data + 4), inner < itemCount
    else { return 0 }
    let long = wordField & 0x8000 != 0
    let words = wordField & 0x7FFF
    guard words <= regionCount else { return 0 }
    let wordSize = long ? 4 : 2
    let rowSize = words * wordSize + (regionCount - words) * wordSize / 2
    var at = data + 6 + 2 * regionCount + inner * rowSize
    try spend(regionCount)
    var sum = 0.0
    for r in 0..<regionCount {
      let delta: Int?
      if r < words {
        delta = long ? gdef.i32(at) : gdef.i16(at)
        at += wordSize
      } else {
        delta = long ? gdef.i16(at) : gdef.i8(at)
        at += wordSize / 2
      }
      guard let delta, let region = gdef.u16(data + 6 + 2 * r) else { return 0 }
      guard delta != 0 else { continue }
      sum += Double(delta) * (try regionScalar(store + regions, region))
    }
    return sum
  }

  /// The scalar of region `index` of the VariationRegionList at `list` (in GDEF) at the
  /// coordinates, as HarfBuzz evaluates it; 0 for a region past the list.
  mutating func regionScalar(_ list: Int, _ index: Int) throws(LayoutDamage) -> Double {
    if let known = regionScalars[index] { return known }
    guard let axes = gdef.u16(list), let count = gdef.u16(list + 2), index < count else {
      return 0
    }
    try spend(axes)
    var scalar = 1.0
    for axis in 0..<axes {
      let record = list + 4 + (index * axes + axis) * 6
      guard let start = gdef.i16(record), let peak = gdef.i16(record + 2),
        let end = gdef.i16(record + 4)
      else { return 0 }
      let coordinate = axis < coordinates.count ? coordinates[axis] : 0
      scalar *= Self.axisScalar(coordinate, start: start, peak: peak, end: end)
      if scalar == 0 { break }
    }
    regionScalars[index] = scalar
    return scalar
  }

  static func axisScalar(_ coordinate: Int, start: Int, peak: Int, end: Int) -> Double {
    if peak == 0 || coordinate == peak { return 1 }
    if coordinate == 0 { return 0 }
    if start > peak || peak > end { return 1 }
    if start < 0 && end > 0 { return 1 }
    if coordinate <= start || end <= coordinate { return 0 }
    if coordinate < peak { return Double(coordinate - start) / Double(peak - start) }
    return Double(end - coordinate) / Double(end - peak)
  }
}
