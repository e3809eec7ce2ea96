import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// The glyph chart's layout, as data and as a text golden.
@Suite struct GlyphChartPlanTests {
  func plan(_ file: String, page: PageSize = .a4) throws -> (GlyphChartPlan, [UInt32]) {
    let characters = try EncodedCharacters.of(file: TestFonts.fixtures + "/" + file)
    let groups = UnicodeBlocks.shared.group(characters)
    return (GlyphChartPlan(groups: groups, layout: .init(page: page)), characters)
  }

  @Test func dumpMatchesGolden() throws {
    let (chart, _) = try plan("LanguageFonts/FontiTestSerif-Regular.ttf")
    try Golden.check(chart.dump(), named: "glyph-chart-fonti-test-serif-a4.txt")
  }

  @Test(arguments: [
    "Fonts/DejaVuSerif.ttf", "Fonts/NotoSansBengali-Regular.ttf",
    "LanguageFonts/FontiTestSerif-Regular.ttf", "LanguageFonts/FontiTestSymbol.ttf",
    "Fonts/D050000L.otf",
  ])
  func oneCellPerEncodedCharacter(file: String) throws {
    for page in PageSize.allCases {
      let (chart, characters) = try plan(file, page: page)
      #expect(chart.cellCount == characters.count)
      #expect(chart.omitted == 0)
      // Every character once, in code point order (blocks are in code point order).
      #expect(chart.pages.flatMap(\.cells).map(\.codePoint) == characters)
      #expect(
        chart.pages.flatMap(\.cells).allSatisfy { $0.label == CodePointText.hex($0.codePoint) })
    }
  }

  @Test(arguments: PageSize.allCases)
  func everythingStaysInsideTheArea(page: PageSize) throws {
    let (chart, _) = try plan("Fonts/DejaVuSerif.ttf", page: page)
    let area = chart.layout.area
    #expect(chart.pages.count > 5)
    for (n, p) in chart.pages.enumerated() {
      #expect(!p.cells.isEmpty, "page \(n + 1) has cells")
      let frames = p.cells.map(\.frame) + p.headings.map(\.frame)
      for f in frames {
        #expect(f.x >= area.x - 0.001 && f.x + f.width <= area.x + area.width + 0.001)
        #expect(
          f.y >= area.y - 0.001 && f.y + f.height <= area.y + area.height + 0.001, "page \(n + 1)")
      }
      // Every page starts with a heading: a block's own, or the one it continues.
      let first = try #require(p.headings.first)
      #expect(first.frame.y == area.y)
      #expect(p.cells.allSatisfy { $0.frame.y >= first.frame.y + first.frame.height })
      // No heading at the foot of a page without a row under it.
      for heading in p.headings {
        #expect(p.cells.contains { $0.frame.y == heading.frame.y + heading.frame.height })
      }
    }
    #expect(chart.pages.dropFirst().contains { $0.headings.first?.continued == true })
    let outline = chart.outline
    #expect(outline.first?.block == "Basic Latin" && outline.first?.page == 0)
    #expect(outline.count == Set(outline.map(\.block)).count)
  }

  @Test func continuedHeadingsNameTheirBlock() {
    let groups = [UnicodeBlocks.Group(name: "Big", range: 0...0xFFF, codePoints: Array(0..<400))]
    var layout = GlyphChartPlan.Layout(
      area: CataloguePlan.Rect(x: 0, y: 0, width: 160, height: 22 + 40 * 10))
    layout.columns = 10
    let chart = GlyphChartPlan(groups: groups, layout: layout)
    #expect(chart.pages.count == 4)
    #expect(
      chart.pages.map { $0.headings.map(\.text) } == [
        ["Big"], ["Big (continued)"], ["Big (continued)"], ["Big (continued)"],
      ])
    #expect(chart.pages.map(\.cells.count) == [100, 100, 100, 100])
    #expect(chart.outline.map(\.page) == [0])
  }

  @Test func hostileSizesStillEnd() {
    let groups = UnicodeBlocks.shared.group(Array(0x20..<0x300))
    for (width, height, columns) in [
      (0.0, 0.0, 16), (500.0, 1.0, 0), (-50.0, -50.0, -3), (1e9, 1e9, 1),
    ] {
      var layout = GlyphChartPlan.Layout(
        area: CataloguePlan.Rect(x: 0, y: 0, width: width, height: height))
      layout.columns = columns
      let chart = GlyphChartPlan(groups: groups, layout: layout)
      #expect(chart.cellCount == 0x300 - 0x20)
    }
  }

  @Test func aFontThatMapsEveryCodePointIsCapped() {
    let everything = Array(UInt32(0)..<0x30000)
    let chart = GlyphChartPlan(
      groups: UnicodeBlocks.shared.group(everything), layout: .init(page: .a4))
    #expect(chart.cellCount == GlyphChartPlan.maximumCells)
    #expect(chart.omitted == everything.count - GlyphChartPlan.maximumCells)
    #expect(chart.dump().hasPrefix("Glyph chart: 65536 cells, "))
  }
}
