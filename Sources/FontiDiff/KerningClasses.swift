import FontiText
import Foundation

/// Which glyphs kern alike, read from a face's own kerning: the class definitions of the GPOS
/// pair lookups of `kern` (PairPos format 2), the glyphs a pair lookup names one by one (format
/// 1), the glyphs of other `kern` lookups (contextual kerning) and the pairs of a legacy `kern`
/// table. Two glyphs with the same left key kern alike as the first glyph of a pair, two with
/// the same right key as the second; a glyph named one by one has a key of its own. GDEF's glyph
/// class is part of both keys (lookup flags skip marks). A table that cannot be read (a hostile
/// font) gives every glyph it touches a key of its own: more pairs shaped, never fewer.
struct KerningClasses {
  /// Per glyph ID.
  private(set) var left: [[Int32]]
  private(set) var right: [[Int32]]

  init(face: HarfBuzzFace) {
    var reading = Reading(glyphCount: face.glyphCount)
    face.withTable("GDEF") { reading.readGlyphClasses(TableBytes($0)) }
    reading.readPairLookups(face)
    face.withTable("kern") { reading.readLegacyKern(TableBytes($0)) }
    reading.giveOwnKeys()
    left = reading.left
    right = reading.right
  }

  /// Entries of GPOS pair lookups read per face, at most (a large CJK or Indic font's kerning
  /// reads a few hundred thousand).
  static let readLimit = 4_000_000

  func leftKey(_ glyph: UInt32) -> [Int32] {
    Int(glyph) < left.count ? left[Int(glyph)] : [Int32.max, Int32(bitPattern: glyph)]
  }

  func rightKey(_ glyph: UInt32) -> [Int32] {
    Int(glyph) < right.count ? right[Int(glyph)] : [Int32.max, Int32(bitPattern: glyph)]
  }
}

extension KerningClasses {
  /// The keys as the tables are read: GDEF's classes, GPOS's pair lookups, a legacy `kern`
  /// table, then the glyphs that kern one by one given keys of their own.
  fileprivate struct Reading {
    let count: Int
    var left: [[Int32]]
    var right: [[Int32]]
    /// Glyphs that get a key of their own, as the first and as the second of a pair.
    var ownLeft = Set<UInt32>()
    var ownRight = Set<UInt32>()
    /// Entries read from GPOS, at most: a hostile table's sets and classes, pointing at the
    /// same bytes many times over, cost no more than this; past it, every glyph is its own class.
    var budget = KerningClasses.readLimit
    /// The pair subtables of class kerning read so far: the first part of a class key.
    var subtableNumber: Int32 = 0

    init(glyphCount: Int) {
      count = glyphCount
      left = Array(repeating: [], count: glyphCount)
      right = Array(repeating: [], count: glyphCount)
    }

    /// GDEF's glyph classes, part of both keys.
    mutating func readGlyphClasses(_ bytes: TableBytes) {
      guard let offset = bytes.u16(4), offset > 0 else { return }
      for (glyph, value) in bytes.classDef(at: offset, glyphCount: count) {
        left[Int(glyph)].append(-Int32(value) - 1)
        right[Int(glyph)].append(-Int32(value) - 1)
      }
    }

    /// GPOS's `kern` and `dist` lookups. A lookup with a subtable that is not pair kerning
    /// (contextual kerning, a single adjustment) or that cannot be read makes each glyph it
    /// reads its own class.
    mutating func readPairLookups(_ face: HarfBuzzFace) {
      var lookups = Set<UInt32>()
      for tag in ["kern", "dist"] {
        lookups.formUnion(face.lookups(.gpos, feature: HarfBuzzTag.make(tag)))
      }
      face.withTable("GPOS") { gpos in
        let bytes = TableBytes(gpos)
        guard let list = bytes.u16(8), let lookupCount = bytes.u16(list) else { return }
        for index in lookups.sorted() where Int(index) < lookupCount {
          guard let lookupOffset = bytes.u16(list + 2 + 2 * Int(index)).map({ list + $0 }),
            let lookupType = bytes.u16(lookupOffset), let subtables = bytes.u16(lookupOffset + 4)
          else { continue }
          var readAll = true
          for s in 0..<min(subtables, 4096) where budget > 0 {
            let offset = bytes.u16(lookupOffset + 6 + 2 * s).map { lookupOffset + $0 }
            if !readPairSubtable(bytes, at: offset, lookupType: lookupType) { readAll = false }
          }
          guard !readAll else { continue }
          let glyphs = face.lookupGlyphs(.gpos, lookup: index, limit: count)
          for g in glyphs.before + glyphs.input + glyphs.after {
            ownLeft.insert(g)
            ownRight.insert(g)
          }
        }
      }
    }

    /// One subtable of a pair lookup (through an extension subtable); false when it is not
    /// pair kerning of format 1 or 2, or cannot be read.
    mutating func readPairSubtable(_ bytes: TableBytes, at offset: Int?, lookupType: Int)
      -> Bool
    {
      guard var sub = offset else { return false }
      var type = lookupType
      if type == 9 {
        guard let extensionType = bytes.u16(sub + 2), let offset = bytes.u32(sub + 4) else {
          return false
        }
        type = extensionType
        sub += offset
      }
      guard type == 2, let format = bytes.u16(sub) else { return false }
      subtableNumber += 1
      guard let coverage = bytes.u16(sub + 2).map({ sub + $0 }) else { return true }
      let covered = bytes.coverage(at: coverage, glyphCount: count)
      budget -= covered.count + 1
      switch format {
      case 1: readGlyphPairs(bytes, subtable: sub, covered: covered)
      case 2: readClassPairs(bytes, subtable: sub, covered: covered)
      default: return false
      }
      return true
    }

    /// PairPos format 1: the glyphs it names one by one, first and second, each their own class.
    mutating func readGlyphPairs(_ bytes: TableBytes, subtable sub: Int, covered: [UInt32]) {
      guard let setCount = bytes.u16(sub + 8), let vf1 = bytes.u16(sub + 4),
        let vf2 = bytes.u16(sub + 6)
      else { return }
      let recordSize = 2 + 2 * (vf1.nonzeroBitCount + vf2.nonzeroBitCount)
      for glyph in covered { ownLeft.insert(glyph) }
      for p in 0..<min(setCount, count) {
        guard let set = bytes.u16(sub + 10 + 2 * p).map({ sub + $0 }),
          let pairs = bytes.u16(set)
        else { continue }
        budget -= pairs
        guard budget > 0 else { return }
        for r in 0..<pairs {
          guard let second = bytes.u16(set + 2 + r * recordSize) else { break }
          ownRight.insert(UInt32(second))
        }
      }
    }

    /// PairPos format 2: the subtable's number and the glyph's class, on each side.
    mutating func readClassPairs(_ bytes: TableBytes, subtable sub: Int, covered: [UInt32]) {
      guard let def1 = bytes.u16(sub + 8), let def2 = bytes.u16(sub + 10) else { return }
      let coveredSet = Set(covered)
      budget -= 2 * count + covered.count
      guard budget > 0 else { return }
      var class1: [UInt32: Int] = [:]
      for (glyph, value) in bytes.classDef(at: sub + def1, glyphCount: count) {
        class1[glyph] = value
      }
      for glyph in coveredSet {
        left[Int(glyph)] += [subtableNumber, Int32(class1[glyph] ?? 0)]
      }
      var class2: [UInt32: Int] = [:]
      for (glyph, value) in bytes.classDef(at: sub + def2, glyphCount: count) {
        class2[glyph] = value
      }
      for (glyph, value) in class2 { right[Int(glyph)] += [subtableNumber, Int32(value)] }
    }

    /// A legacy kern table (version 0, OpenType; version 1, Apple): format 0 pairs.
    mutating func readLegacyKern(_ bytes: TableBytes) {
      guard let version = bytes.u16(0) else { return }
      let apple = version == 1
      guard let tables = apple ? bytes.u32(4) : bytes.u16(2) else { return }
      var offset = apple ? 8 : 4
      for _ in 0..<min(tables, 64) {
        let length = apple ? bytes.u32(offset) : bytes.u16(offset + 2)
        let coverage = apple ? bytes.u16(offset + 4) : bytes.u16(offset + 4)
        guard let length, let coverage, length > 0 else { return }
        let format = apple ? coverage & 0xFF : coverage >> 8
        let body = offset + (apple ? 8 : 6)
        if format == 0, let pairs = bytes.u16(body) {
          for p in 0..<pairs {
            guard let l = bytes.u16(body + 8 + 6 * p), let r = bytes.u16(body + 10 + 6 * p)
            else { break }
            ownLeft.insert(UInt32(l))
            ownRight.insert(UInt32(r))
          }
        } else {
          // Class kerning of another format: every glyph its own class on both sides.
          ownLeft.formUnion((0..<UInt32(count)))
          ownRight.formUnion((0..<UInt32(count)))
        }
        offset += length
      }
    }

    /// The glyphs named one by one (every glyph, past the budget) get keys of their own.
    mutating func giveOwnKeys() {
      if budget <= 0 {
        ownLeft.formUnion(0..<UInt32(count))
        ownRight.formUnion(0..<UInt32(count))
      }
      for g in ownLeft where Int(g) < count { left[Int(g)] = [Int32.max, Int32(g)] }
      for g in ownRight where Int(g) < count { right[Int(g)] = [Int32.max, Int32(g)] }
    }
  }
}
