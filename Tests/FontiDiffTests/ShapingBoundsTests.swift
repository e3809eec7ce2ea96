import Foundation
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiFonts
@testable import FontiText

/// Shaping's work on a hostile cmap stays bounded by counts (the font-diff fuzz target's
/// timeout in `kerningCharacters`, #56): a font whose cmap maps every code point
/// (`Tests/Fixtures/SlowFonts/every-codepoint.ttf`) has its best-ranked 65,536 characters classed
/// for kerning, not its million (6 s for this suite before the bound, in a debug build; far
/// more under the fuzzer's sanitizer and in the whole comparison).
struct ShapingBoundsTests {
  static let everyCodepoint = TestPaths.repository + "/Tests/Fixtures/SlowFonts/every-codepoint.ttf"

  @Test func kerningTriesAtMostItsLimitOfCharactersBestRankedFirst() throws {
    let face = try HarfBuzzFace(file: Self.everyCodepoint)
    #expect(face.unicodes.count > 1_000_000)
    let shaper = ShapingComparer(before: face, after: face)
    let characters = shaper.kerningCharacters()
    let font = HarfBuzzFont(face: face)
    let groups = shaper.kerningGroups(font, font)
    #expect(characters.count == ShapingComparer.kerningCharacterLimit)
    #expect(characters.first == "a" && characters.contains("z") && characters.contains("A"))
    #expect(groups.left.reduce(0) { $0 + $1.count } == ShapingComparer.kerningCharacterLimit)
  }
}
