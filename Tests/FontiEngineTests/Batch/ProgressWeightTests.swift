import Foundation
import Testing

@testable import FontiDraw
@testable import FontiEngine
@testable import FontiModel

/// The progress line's estimate of the time left weighs a catalogue by its pages (issue 13,
/// item 12): a long catalogue drawing after the specimens is not "0.1 s" away.
struct ProgressWeightTests {
  func catalogue(families: Int, texts: [String] = [], sizes: [Double] = [12, 24, 48])
    -> CatalogueInput<FamilyRef>
  {
    CatalogueInput(
      page: .a4, theme: .cream, title: "T", author: nil,
      text: defaultSampleText, size: 48, texts: texts, sizes: sizes, styles: .standard,
      families: (0..<families).map {
        FamilyRef(FontFamily(name: "Family \($0)", faces: []))
      }, partners: [:], pairings: [], saved: [], creationDate: nil)
  }

  @Test func aCatalogueWeighsItsPages() {
    let small = catalogue(families: 10)
    #expect(small.estimatedPages >= 10 + 2)  // cover, contents, a page per family, saved
    let long = catalogue(
      families: 10,
      texts: Array(repeating: String(repeating: "Hamburgefonstiv ", count: 60), count: 50),
      sizes: [4, 12, 48, 96, 200, 400])
    // Fifty long texts and a big waterfall take many pages per family.
    #expect(long.estimatedPages > 5 * small.estimatedPages)
    let item = WorkItem.catalogue(long, path: "/out/catalogue.pdf")
    let weights = ProgressWeights([item])
    let pages = Double(long.estimatedPages)
    #expect(weights.weight(of: item) == pages * WorkItem.drawnPageWeight)
    #expect(weights.total == pages * (WorkItem.drawnPageWeight + WorkItem.finishedPageWeight))
  }

  @Test func theTimeLeftWeighsWhatIsStillToDraw() {
    // 254 specimens done in 10 s; a 4,675-page catalogue still drawing.
    let pages = 4675.0
    var p = BatchProgress(
      done: 254, total: 256, elapsed: 10, finished: "Zilla Slab", failed: false)
    #expect((p.secondsLeft ?? 0) < 0.2)  // counting items: the old "0.1 s"
    p.workDone = 254
    p.workTotal = 254 + pages * (WorkItem.drawnPageWeight + WorkItem.finishedPageWeight)
    let left = p.secondsLeft ?? 0
    #expect(left > 100 && left < 200, "\(left)")
    p.done = 256
    #expect(p.secondsLeft == nil)
  }
}
