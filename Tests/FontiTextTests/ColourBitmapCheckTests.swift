import FontTestSupport
import Foundation
import Testing

@testable import FontiText

/// Damaged colour bitmaps (`Fixtures/ColourBitmaps`) are found in the font's bytes before
/// Cairo sees them: a PNG header whose size the strike's metrics do not give, an image past the
/// end of its table; sound ones pass, and a table too damaged to read condemns them all.
@Suite struct ColourBitmapCheckTests {
  static let damaged = TestFonts.fixtures + "/ColourBitmaps/DamagedBitmaps.ttf"

  @Test func findsTheDamagedGlyphsAndPassesTheSoundOnes() throws {
    let check = ColourBitmapCheck(file: Self.damaged)
    // Glyphs 2–5 are A–D: B's PNG says 0x31000080 pixels tall, C's is longer than CBDT.
    #expect(check.glyphs == [3, 4], "\(check)")
    #expect(check.tables.isEmpty, "\(check)")
    #expect(check.firstProblem == "its PNG says 16×822083712 pixels", "\(check)")
    #expect(!check.isDamaged(2) && !check.isDamaged(5))
  }

  /// One byte changed inside a sound PNG's compressed image (random bytes over Noto Color
  /// Emoji's CBDT did this to its "0", and pixman spun on what libpng made of it): the chunk's
  /// CRC no longer holds, and the glyph is damaged.
  @Test func aPNGWhoseDataWasChangedFailsItsChecksum() throws {
    let face = try HarfBuzzFace(file: Self.damaged)
    let cblc = face.withTable("CBLC") { Array($0) }
    var cbdt = face.withTable("CBDT") { Array($0) }
    // A's image is the first in CBDT; its IDAT chunk's data follows the chunk's type.
    let idat = try #require(
      (0..<cbdt.count - 4).first { cbdt[$0..<$0 + 4].elementsEqual("IDAT".utf8) })
    cbdt[idat + 6] ^= 0x20
    let check = cblc.withUnsafeBytes { i in
      cbdt.withUnsafeBytes { d in
        ColourBitmapCheck.check(
          cblc: i, cbdt: d, sbix: UnsafeRawBufferPointer(start: nil, count: 0), glyphCount: 6)
      }
    }
    #expect(check.glyphs == [2, 3, 4], "\(check)")
    #expect(check.firstProblem == "its PNG fails its checksum", "\(check)")
  }

  /// An index whose image format was changed (random bytes over Noto Color Emoji's CBLC made
  /// one 164, and the glyph chart spun in FreeType): every image it lists is damaged.
  @Test func anImageFormatNoFontUsesIsDamage() throws {
    let face = try HarfBuzzFace(file: Self.damaged)
    var cblc = face.withTable("CBLC") { Array($0) }
    let cbdt = face.withTable("CBDT") { Array($0) }
    func int(_ at: Int) -> Int { cblc[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    // The first strike's index array, its first subtable's header: its image format's low byte.
    let array = int(8)
    cblc[array + int(array + 4) + 3] = 164
    let check = cblc.withUnsafeBytes { i in
      cbdt.withUnsafeBytes { d in
        ColourBitmapCheck.check(
          cblc: i, cbdt: d, sbix: UnsafeRawBufferPointer(start: nil, count: 0), glyphCount: 6)
      }
    }
    #expect(check.glyphs == [2, 3, 4, 5], "\(check)")
    #expect(
      check.firstProblem == "its image is of format 164, which colour bitmaps do not use",
      "\(check)")
  }

  @Test func fontsWithoutColourBitmapsAreSound() throws {
    let plain = try #require(
      FileManager.default.enumerator(atPath: TestFonts.fixtures + "/Fonts")?.allObjects
        .compactMap { $0 as? String }.first { $0.hasSuffix(".ttf") || $0.hasSuffix(".otf") })
    #expect(ColourBitmapCheck(file: TestFonts.fixtures + "/Fonts/" + plain).isSound)
  }

  /// Random bytes over CBLC or CBDT, and every truncation of them, never trap and never pass
  /// an image that points outside its table.
  @Test func damagedTablesNeverTrap() throws {
    let face = try HarfBuzzFace(file: Self.damaged)
    let cblc = face.withTable("CBLC") { Array($0) }
    let cbdt = face.withTable("CBDT") { Array($0) }
    var generator = SystemRandomNumberGenerator()
    var condemned = 0
    for round in 0..<2000 {
      var index = cblc
      var images = cbdt
      if round % 2 == 0 {
        for _ in 0..<4 {
          index[Int.random(in: 0..<index.count, using: &generator)] = .random(
            in: 0...255, using: &generator)
        }
      } else {
        for _ in 0..<4 {
          images[Int.random(in: 0..<images.count, using: &generator)] = .random(
            in: 0...255, using: &generator)
        }
      }
      index = Array(index.prefix(round % 7 == 0 ? round % index.count : index.count))
      let check = index.withUnsafeBytes { i in
        images.withUnsafeBytes { d in
          ColourBitmapCheck.check(
            cblc: i, cbdt: d, sbix: UnsafeRawBufferPointer(start: nil, count: 0), glyphCount: 6)
        }
      }
      if !check.tables.isEmpty { condemned += 1 }
    }
    #expect(condemned > 0, "no damaged index was refused")
  }
}
