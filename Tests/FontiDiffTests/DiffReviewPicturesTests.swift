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
}
