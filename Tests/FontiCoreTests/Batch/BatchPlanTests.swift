import Foundation
import Testing

@testable import FontiCore

/// Incremental decisions as data: what changed → what is drawn again.
@Suite struct BatchPlanTests {
  let serif = FontFamily(
    name: "DejaVu Serif", faces: [FontFace(style: "Book", weight: 80, slant: 0, file: "/f/serif.ttf")])
  let sans = FontFamily(
    name: "Cantarell", faces: [FontFace(style: "Regular", weight: 80, slant: 0, file: "/f/cant.otf")])

  func job() -> Job {
    var job = Job(path: "job.yaml", directory: "/w", output: "/w/out")
    job.catalogues = [Job.CatalogueSpec(file: Located("catalogue.pdf"))]
    return job
  }

  func plan(
    _ job: Job, previous: RunManifest?, stamps: [String: String] = [:], force: Bool = false,
    saved: [FontFamily] = []
  ) -> BatchPlan {
    let families = [sans, serif]
    return BatchPlan.make(
      job: job, output: "/w/out",
      inputs: PlanInputs(
        families: families, saved: saved, catalogueFamilies: [families], labelFamily: sans),
      previous: previous, force: force, stamp: { stamps[$0] ?? "\($0)|1|1" }, exists: { _ in true })
  }

  /// The manifest a run of `plan` would write.
  func manifest(of plan: BatchPlan) -> RunManifest {
    RunManifest(
      title: "t",
      families: plan.specimens.map {
        RunManifest.Family(
          family: $0.family.name, slug: $0.slug, custom: false, saved: $0.saved, styles: [],
          bold: false, italic: false, missingGlyphs: 0, warnings: [],
          files: [RunManifest.File(path: $0.file, sha256: "x", inputs: $0.inputs)], error: nil)
      },
      pairings: [],
      catalogues: plan.catalogues.map {
        RunManifest.Catalogue(file: $0.file, pages: 3, sha256: "y", inputs: $0.inputs)
      },
      counts: RunManifest.Counts(families: 2, rendered: 2, skipped: 0, failed: 0, warnings: 0),
      durationSeconds: 1)
  }

  @Test func aFirstRunDrawsEverythingAndASecondNothing() {
    let first = plan(job(), previous: nil)
    #expect(first.pendingItems.count == 3)
    #expect(first.pendingItems.first?.path == "/w/out/catalogue.pdf", "the longest item starts first")
    let second = plan(job(), previous: manifest(of: first))
    #expect(second.pendingItems.isEmpty)
    #expect(plan(job(), previous: manifest(of: first), force: true).pendingItems.count == 3)
  }

  @Test func aChangedFontFileRedrawsItsFamilyAndTheCatalogue() {
    let previous = manifest(of: plan(job(), previous: nil))
    let next = plan(job(), previous: previous, stamps: ["/f/serif.ttf": "/f/serif.ttf|2|9"])
    #expect(next.specimens.map(\.upToDate) == [true, false])
    #expect(next.catalogues.map(\.upToDate) == [false])
  }

  @Test func settingsThatShowRedrawWhatShowsThem() {
    let previous = manifest(of: plan(job(), previous: nil))
    var bigger = job()
    bigger.defaults.size = 60
    #expect(plan(bigger, previous: previous).pendingItems.count == 3)
    var retitled = job()
    retitled.title = "Another title"
    let retitledPlan = plan(retitled, previous: previous)
    #expect(retitledPlan.specimens.allSatisfy { $0.upToDate }, "specimens do not show the title")
    #expect(retitledPlan.catalogues.allSatisfy { !$0.upToDate })
    // Hearting a family redraws its specimen (the heart) and the catalogue (the Saved section).
    let hearted = plan(job(), previous: previous, saved: [serif])
    #expect(hearted.specimens.map(\.upToDate) == [true, false])
    #expect(hearted.catalogues.map(\.upToDate) == [false])
  }

  @Test func slugsAreUniqueWithinARun() {
    let a = FontFamily(name: "Foo!", faces: [])
    let b = FontFamily(name: "foo?", faces: [])
    let p = BatchPlan.make(
      job: job(), output: "/o", inputs: PlanInputs(families: [a, b]), previous: nil, force: false,
      stamp: { $0 }, exists: { _ in false })
    #expect(p.specimens.map(\.file) == ["specimens/foo.png", "specimens/foo-2.png"])
  }
}
