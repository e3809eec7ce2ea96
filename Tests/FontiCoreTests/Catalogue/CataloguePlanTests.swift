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

  /// Whatever the text and size, a family's first page shows its sample: a text that cannot
  /// fit under the header is fitted to the room there, never moved to the next page.
  @Test(arguments: PageSize.allCases)
  func aFamilysFirstPageAlwaysShowsItsSample(page: PageSize) throws {
    let environment = try CatalogueFixture.environment()
    var input = try CatalogueFixture.input(environment, page: page)
    input.size = 96
    input.sizes = [4, 12, 96, 400]
    for text in [
      "Donaudampfschifffahrtsgesellschaft Hamburgefonstiv",
      String(repeating: "Sphinx of black quartz, judge my vow. ", count: 52),
      String(repeating: "W", count: 2000),
    ] {
      input.text = text
      let plan = CataloguePlan(input)
      for (i, number) in plan.familyPages.enumerated() {
        let sample = plan.pages[number - 1].blocks.first {
          if case .sample(family: i, _, _) = $0.content { return true }
          return false
        }
        #expect(sample != nil, "\(page) \(plan.families[i].name), \(text.prefix(20))")
        #expect((sample?.frame.height ?? 0) >= 40, "\(page) \(plan.families[i].name)")
      }
    }
  }

  /// The long word of the issue: the plan expects the sample set small enough for the word to
  /// fit the measure, on two lines, not seven lines of 96 pt.
  @Test func aLongWordIsPlannedAtTheSizeItWillBeSetAt() throws {
    let environment = try CatalogueFixture.environment()
    var input = try CatalogueFixture.input(environment)
    input.text = "Donaudampfschifffahrtsgesellschaft Hamburgefonstiv"
    input.size = 96
    let plan = CataloguePlan(input)
    let first = plan.pages[plan.familyPages[0] - 1]
    let sample = try #require(
      first.blocks.first {
        if case .sample = $0.content { return true }
        return false
      })
    #expect(sample.frame.height < 96)
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
