import Foundation
import Testing

@testable import FontiDiff

/// The review PDF pictures changed vertical metrics and named instances added or removed, as
/// the change image does: rows of the family's pages.
struct DiffReviewPicturesTests {
  let engine = DiffEngineTests()

  func blocks(_ result: DiffResult) -> [DiffDocumentPlan.Block] {
    DiffDocumentPlan(result).pages.flatMap { page -> [DiffDocumentPlan.Block] in
      guard case .family(_, _, let placed) = page.kind else { return [] }
      return placed.map(\.block)
    }
  }

  @Test func changedVerticalMetricsGetTheirRow() throws {
    let result = try engine.compare("base", "changed")
    #expect(result.report.families[0].metrics == ["xHeight": [400, 420]])
    #expect(blocks(result).filter { $0 == .metrics }.count == 1)
    // Only where a metric changed.
    let kerning = try engine.compare("shaping-before", "shaping-after")
    #expect(!blocks(kerning).contains(.metrics))
  }

  @Test(arguments: [
    ("variable", "variable-added-instance"), ("variable-added-instance", "variable"),
  ])
  func anInstanceAddedOrRemovedIsSetAtItInTheReview(before: String, after: String) throws {
    let result = try engine.compare(before, after)
    let image = try #require(result.outcomes[0].instanceImages.first)
    #expect(image.instance == "Heavy")
    #expect(image.only == (before == "variable" ? "after" : "before"))
    let rows = blocks(result).filter {
      if case .instance = $0 { return true }
      return false
    }
    #expect(rows.count == 1)
    guard case .instance(let index, let em, let band) = rows.first else { return }
    #expect(index == 0 && em > 0 && band > em)
  }

  /// Changes with nothing to draw — names, hinting programs, a feature removed — are rows of a
  /// table on the family's page and in its image, never "no glyph or shaping changed".
  @Test(arguments: [
    ("declared/before", "declared/licence", ["name.13"]),
    (
      "declared/before", "declared/dehinted",
      ["hinting.fpgm", "hinting.prep", "hinting.cvt", "hinting.gasp", "hinting.glyphs"]
    ),
    ("base", "changed", ["feature.removed", "shaping.featureRemoved", "glyphs.count"]),
  ])
  func changesWithNothingToDrawAreRowsOfATable(before: String, after: String, kinds: [String])
    throws
  {
    let result = try engine.compare(before, after)
    let entry = result.report.families[0]
    let undrawn = DiffDrawing.undrawnChanges(entry)
    #expect(undrawn.map(\.kind) == kinds)
    let all = blocks(result)
    #expect(all.contains(.changeTableHeading(kinds.count)))
    let rows = all.compactMap { block -> Int? in
      if case .changeRow(let index, _) = block { return index }
      return nil
    }
    #expect(rows == Array(kinds.indices))
  }

  @Test func aLongValueIsCutAfterAWholeWordInItsRow() {
    let licence = DiffReport.Change(
      kind: "name.13", face: "Regular", subject: "3/1/0x0409",
      before: .text(
        "Fonts are (c) Bitstream (see below).\nDejaVu changes are in public domain. "
          + String(repeating: "Bitstream Vera Fonts Copyright ", count: 5)),
      after: .text("This Font Software is licensed under the SIL Open Font License, Version 1.1."),
      text: "licence")
    let cells = DiffDrawing.changeCells(licence)
    #expect(cells.kind == "name.13 3/1/0x0409")
    #expect(cells.what.hasPrefix("“Fonts are (c) Bitstream (see below). ↵ DejaVu changes"))
    #expect(cells.what.contains("public domain. Bitstream…” → “This Font Software"))
    #expect(cells.what.hasSuffix("Version 1.1.”"))
  }
}
