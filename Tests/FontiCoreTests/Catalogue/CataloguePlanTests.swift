import Foundation
import Testing

@testable import FontiCore

/// The plan is pure: page layout as data, checked as text against goldens.
@Suite struct CataloguePlanTests {
  @Test func dumpMatchesGolden() throws {
    let environment = try CatalogueFixture.environment()
    let plan = CataloguePlan(try CatalogueFixture.input(environment))
    try Golden.check(plan.dump(), named: "catalogue-plan-a4.txt")
  }

  @Test func squarePagesFlowOntoContinuationPages() throws {
    let environment = try CatalogueFixture.environment()
    let plan = CataloguePlan(try CatalogueFixture.input(environment, page: .square))
    try Golden.check(plan.dump(), named: "catalogue-plan-square.txt")
    let continued = plan.pages.filter {
      if case .family(_, continued: true) = $0.kind { return true }
      return false
    }
    #expect(!continued.isEmpty)
  }

  @Test(arguments: PageSize.allCases)
  func everyBlockStaysInsideTheBody(page: PageSize) throws {
    let environment = try CatalogueFixture.environment()
    var input = try CatalogueFixture.input(environment, page: page)
    // The limits of the job file: 50 texts of 2,000 characters, 32 sizes up to 400 pt.
    input.texts = Array(repeating: String(repeating: "Wide words and ", count: 133), count: 50)
    input.sizes = (0..<32).map { 4 + Double($0) * 12.5 }
    input.size = 96
    input.saved = Array(repeating: input.families, count: 10).flatMap { $0 }
    let plan = CataloguePlan(input)
    let g = plan.geometry
    for page in plan.pages {
      for block in page.blocks {
        #expect(block.frame.y >= g.bodyTop - 0.001, "page \(page.number): \(block.content)")
        #expect(
          block.frame.y + block.frame.height <= g.bodyBottom + 0.001,
          "page \(page.number): \(block.content)")
        #expect(block.frame.height >= 0)
      }
    }
    #expect(plan.pages.map(\.number) == Array(1...plan.pages.count))
  }

  @Test func contentsEntriesPointAtTheirPages() throws {
    let environment = try CatalogueFixture.environment()
    let plan = CataloguePlan(try CatalogueFixture.input(environment))
    var seen = 0
    for page in plan.pages where page.kind == .contents {
      for block in page.blocks {
        guard case .contentsEntry(_, let destination, let target) = block.content else { continue }
        seen += 1
        let defining = plan.pages.first { $0.destinations.contains(destination) }
        #expect(defining?.number == target, "\(destination.name)")
      }
    }
    #expect(seen == plan.families.count + 2)
    #expect(plan.outline.map(\.title).first == "Contents")
    #expect(plan.outline.count == plan.families.count + 3)
  }

  @Test func emptySavedSectionShowsTheEmptyState() throws {
    let environment = try CatalogueFixture.environment()
    let plan = CataloguePlan(try CatalogueFixture.input(environment, saved: [], pairings: false))
    #expect(plan.pairingsPage == nil)
    let last = try #require(plan.pages.last)
    #expect(last.kind == .saved)
    #expect(last.blocks.contains { $0.content == .savedEmpty })
    #expect(!plan.outline.map(\.title).contains("Pairings"))
  }

  @Test func estimatesGrowWithTextAndSize() {
    let short = CataloguePlan.estimatedLines("Sphinx", size: 48, width: 400)
    let long = CataloguePlan.estimatedLines(
      String(repeating: "Sphinx of black quartz ", count: 10), size: 48, width: 400)
    #expect(short == 1)
    #expect(long > 5)
    #expect(CataloguePlan.estimatedLines("a\nb\nc", size: 12, width: 400) == 3)
    #expect(CataloguePlan.estimatedLines("", size: 12, width: 0) == 1)
    #expect(
      CataloguePlan.estimatedWidth("漢字", size: 10) > CataloguePlan.estimatedWidth("ab", size: 10))
  }
}
