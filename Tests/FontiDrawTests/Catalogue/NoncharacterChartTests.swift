import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A font whose cmap maps noncharacters (U+FDD0, U+FFFE, U+1FFFE, U+10FFFF …) and surrogates
/// (`Fixtures/Noncharacters`): Cairo refuses noncharacters as the text of what a PDF draws, which
/// used to fail the whole catalogue ("input string not valid UTF-8"). Its glyph chart is written
/// with a cell per character, each noncharacter's glyph drawn in it.
@Suite(.serialized) final class NoncharacterChartTests {
  static let font = TestPaths.fixtures + "/Noncharacters/Noncharacters.ttf"
  static let noncharacters: [UInt32] = [
    0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x1FFFF, 0x10FFFF,
  ]
  let folder: String

  init() throws { folder = try CatalogueFixture.temporaryDirectory() }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  @Test func theGlyphChartOfNoncharactersIsWrittenWithTheirGlyphs() throws {
    let environment = try TestFonts.environment(custom: [Self.font])
    let family = try #require(environment.catalog.family(named: "Noncharacter Test"))
    let input = CatalogueInput(
      title: "Noncharacters", author: "Fonti tests", texts: ["ABCD"], sizes: [24],
      families: [family], creationDate: CatalogueFixture.date,
      proofs: ProofOptions(axes: false, features: false, languages: false, glyphs: true))
    let data = input.families.map {
      CatalogueProofData.read($0, options: ProofOptions(glyphs: true))
    }
    let plan = CataloguePlan(input, proofs: data)
    let chart = try #require(plan.glyphCharts[0])
    let cells = chart.pages.flatMap(\.cells)
    // Surrogates are no characters: the cmap's U+D800 and U+DFFF are left out.
    #expect(cells.map(\.codePoint) == [0x20, 0x41, 0x42, 0x43, 0x44] + Self.noncharacters)

    let path = folder + "/catalogue.pdf"
    _ = try CatalogueWriter(environment: environment).write(input, to: path)
    let page = try #require(plan.glyphPages[0])
    let image = try raster(path, page: page)
    for cell in cells where cell.codePoint != 0x20 {
      // The glyph's part of the cell: inside its outline, above its code point label.
      let r = cell.frame
      let glyph = crop(image, (r.x + 2, r.y + 2, r.width - 4, r.height * 0.6))
      #expect(inked(glyph) > 20, "\(cell.label): no glyph drawn")
    }
    // Every noncharacter's label is in the text of the page; the noncharacters themselves
    // are not (their glyphs go without text).
    let text = Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", path, "-"])?.output ?? ""
    for value in Self.noncharacters {
      #expect(text.contains(CodePointText.hex(value)), "\(text)")
    }
  }

  /// Page `number` (1-based) of the PDF at `path` as pixels, one a point.
  func raster(_ path: String, page number: Int) throws -> RasterImage {
    let prefix = folder + "/page-\(number)"
    let run = try #require(
      Tool.run(
        "pdftoppm",
        ["-png", "-r", "72", "-singlefile", "-f", "\(number)", "-l", "\(number)", path, prefix]),
      "pdftoppm (poppler-utils) is needed to look at the drawn pages")
    #expect(run.status == 0, "\(run.output)")
    return try #require(RasterImage.load(png: prefix + ".png"))
  }

  /// The pixels of `rect` (points) of `image`.
  func crop(_ image: RasterImage, _ rect: (x: Double, y: Double, width: Double, height: Double))
    -> [UInt32]
  {
    var out: [UInt32] = []
    let x0 = max(0, Int(rect.x.rounded()))
    let x1 = min(image.width, Int((rect.x + rect.width).rounded()))
    let y0 = max(0, Int(rect.y.rounded()))
    let y1 = min(image.height, Int((rect.y + rect.height).rounded()))
    for y in y0..<max(y0, y1) {
      for x in x0..<max(x0, x1) { out.append(image.pixels[y * image.width + x]) }
    }
    return out
  }

  /// Pixels much darker than the lightest of `pixels` (the page's paper).
  func inked(_ pixels: [UInt32]) -> Int {
    func grey(_ p: UInt32) -> Int { (Int(p >> 16 & 0xFF) + Int(p >> 8 & 0xFF) + Int(p & 0xFF)) / 3 }
    let lightest = pixels.map(grey).max() ?? 0
    return pixels.filter { lightest - grey($0) > 80 }.count
  }
}
