import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A family with none of the user's text shows its own glyphs in place of a line of boxes,
/// and its grid spreads across the column to keep the family on one page: STIX's size fonts,
/// whose radicals and brackets are 2 to 2.4 em tall, set the job's default waterfall.
@Suite(.serialized) struct GlyphGridPageTests {
  static let folder = TestFonts.fixtures + "/SizeFonts/"
  static let names = ["STIXSizeThreeSym", "STIXSizeTwoSym"]

  static func catalogue() throws -> (
    environment: FontEnvironment, input: CatalogueInput<FontFamily>, plan: CataloguePlan
  ) {
    let files = ["Three", "Two"].flatMap { size in
      ["Regular", "Bold"].map { folder + "STIXSize\(size)Sym-\($0).otf" }
    }
    let environment = try TestFonts.environment(custom: files)
    var input = try CatalogueFixture.input(environment)
    input.families = try names.map { try CatalogueFixture.family($0, in: environment) }
    input.text = "Sphinx of black quartz, judge my vow."
    input.texts = []
    input.sizes = [12, 18, 24, 36, 48, 72, 96]
    let ink = input.families.map { CatalogueWriter.lineInk(of: $0, input) }
    return (environment, input, CataloguePlan(input, lineInk: ink))
  }

  @Test func aSizeFontTakesOnePage() throws {
    let (_, input, plan) = try Self.catalogue()
    for (i, name) in Self.names.enumerated() {
      let pages = plan.pages.filter {
        if case .family(i, _) = $0.kind { return true }
        return false
      }
      #expect(pages.count == 1, "\(name): \(pages.count) pages")
      let family = input.families[i]
      let count = try #require(CataloguePlan.gridInPlaceOfText(family, input))
      let sample = try #require(
        pages.first?.blocks.first {
          if case .sample = $0.content { return true }
          return false
        })
      // Cells of at least the smallest size fit the frame the page gives the grid.
      let g = plan.geometry
      let fitted = GlyphCell.fitted(count, width: g.contentWidth, height: sample.frame.height)
      #expect(fitted.cell >= CataloguePlan.smallestCell, "\(name): \(fitted)")
      #expect(fitted.columns > 10)
    }
  }

  @Test func onlyAFamilyWithNoneOfTheTextShowsAGridInItsPlace() throws {
    let (environment, input, _) = try Self.catalogue()
    let three = input.families[0]
    #expect(CataloguePlan.gridInPlaceOfText(three, input) != nil)
    var some = input
    some.text = "(√x)"
    #expect(CataloguePlan.gridInPlaceOfText(three, some) == nil)
    let serif = try CatalogueFixture.family("DejaVu Serif", in: environment)
    #expect(CataloguePlan.gridInPlaceOfText(serif, input) == nil)
    #expect(FallbackSample.hasNone(of: "  ", coverage: three.coverage) == false)
  }

  @Test func theWrittenPagesAreThePlannedOnesAndSayWhatIsMissing() throws {
    let (environment, input, plan) = try Self.catalogue()
    let folder = try CatalogueFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/catalogue.pdf"
    let result = try CatalogueWriter(environment: environment).write(input, to: path)
    #expect(result.pages == plan.pages.count)
    let first = plan.familyPages[0]
    let page = try #require(Tool.run("pdftotext", ["-f", "\(first)", "-l", "\(first)", path, "-"]))
    let words = page.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("ITS GLYPHS NONE OF YOUR TEXT"), "\(page.output)")
    // No box of the user's text: its first letter, U+0053, is not drawn as a hex box.
    #expect(!page.output.contains("53"), "\(page.output)")
  }

  @Test func aShortFrameSpreadsTheGridATallOneKeepsTenColumns() {
    let tall = GlyphCell.fitted(38, width: 430, height: 200)
    #expect(tall.columns == 10)
    #expect(tall.cell == 43)
    let short = GlyphCell.fitted(38, width: 430, height: 50)
    #expect(short.columns == 19)
    #expect(abs(short.cell - 430.0 / 19) < 1e-9)
    #expect(GlyphCell.rows(38, columns: short.columns) == 2)
    #expect(GlyphCell.fitted(3, width: 430, height: 10).columns == 10)
  }
}
