import Testing

@testable import FontiModel
@testable import FontiText

/// A face's coverage as flat pages: what it answers must not depend on how it was built.
struct CharacterCoverageTests {
  static let scalars: [UInt32] = [0x41, 0x61, 0x7A, 0xE9, 0x5D0, 0x5EA, 0x1F600, 0x10FFFD]

  @Test func aCoverageAnswersForEveryCharacterItHoldsAndNoOther() {
    let coverage = CharacterCoverage(scalars: Self.scalars)
    for value in Self.scalars {
      #expect(coverage.contains(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
    for value: UInt32 in [0x40, 0x62, 0xFF, 0x100, 0x5CF, 0x1F601, 0x10FFFC, 0xE000] {
      #expect(!coverage.contains(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
    #expect(coverage.count == Self.scalars.count)
    #expect(coverage.pageNumbers == [0x0, 0x5, 0x1F6, 0x10FF])
    #expect(coverage.missing(in: "Az é ת!") == ["!"])
    #expect(CharacterCoverage().count == 0)
    #expect(!CharacterCoverage().contains("A"))
  }

  @Test func theSameCharactersMakeEqualCoveragesWhateverTheOrderAndEmptyPages() {
    let forward = CharacterCoverage(scalars: Self.scalars)
    let backward = CharacterCoverage(scalars: Self.scalars.reversed())
    #expect(forward == backward)
    #expect(forward.hashValue == backward.hashValue)
    var pages: [UInt32: [UInt32]] = [0x7: [0, 0, 0, 0, 0, 0, 0, 0]]
    for value in Self.scalars {
      let bit = value & 0xFF
      pages[value >> 8, default: [UInt32](repeating: 0, count: 8)][Int(bit >> 5)] |= 1 << (bit & 31)
    }
    let fromPages = CharacterCoverage(pages: pages)
    #expect(fromPages == forward)
    #expect(fromPages.page(0x7) == nil)
    #expect(fromPages.page(0x5).map(Array.init) == [0, 0, 0, 0, 0, 0, 1 << 16, 1 << 10])
  }

  /// Pages added out of order, or twice, end where they belong, their characters joined.
  @Test func pagesAddedInAnyOrderEndInPlace() {
    var coverage = CharacterCoverage()
    coverage.append(page: 0x5, [0, 0, 0, 0, 0, 0, 1 << 16, 0][...])
    coverage.append(page: 0x0, [0, 0, 2, 0][...])
    coverage.append(page: 0x10FF, [0, 0, 0, 0, 0, 0, 0, 1 << 29][...])
    coverage.append(page: 0x5, [0, 0, 0, 0, 0, 0, 0, 1 << 10][...])
    coverage.append(page: 0x1F6, [1][...])
    coverage.append(page: 0x0, [0, 0, 2, 0x0400_0002, 0, 0, 0, 1 << 9][...])
    #expect(coverage.pageNumbers == [0x0, 0x5, 0x1F6, 0x10FF])
    #expect(coverage == CharacterCoverage(scalars: Self.scalars))
    // Words past a page's eighth are not characters of it: such a page adds nothing.
    var long = CharacterCoverage()
    long.append(page: 0x3, [0, 0, 0, 0, 0, 0, 0, 0, 1][...])
    #expect(long == CharacterCoverage())
  }

  /// fontconfig's charset, read page by page, gives the same coverage as the characters
  /// fontconfig says it holds.
  @Test func anOrthographyReadFromFontconfigHoldsItsLetters() throws {
    let hebrew = try #require(Fontconfig.orthography("he"))
    #expect(hebrew.contains("א"))
    #expect(hebrew.contains("ת"))
    #expect(!hebrew.contains("A"))
    #expect(hebrew.count == 27)
  }
}
