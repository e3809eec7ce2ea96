import FontTestSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

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
          if case .sample(family: i, _, _, _) = $0.content { return true }
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

/// Waterfall lines as tall as their ink: a script that reaches far above or below display
/// leading (Nastaliq, Tibetan, Myanmar, Arabic's deep tails) gets lines that never overlap;
/// every other family keeps display leading, to the point.
/// A flow whose last page would hold a line or two is set tighter when that saves the page,
/// and only then.
@Suite struct FlowTests {
  let g = CataloguePlan.Geometry(.a4)
  let header: (CataloguePlan.Content, Double) = (.proofHeader(family: 0, continued: false), 50)
  let continued: (CataloguePlan.Content, Double) = (.proofHeader(family: 0, continued: true), 30)

  /// `count` notes of `height` with `before` above each.
  func items(_ count: Int, height: Double, before: Double) -> [CataloguePlan.Item] {
    (0..<count).map {
      CataloguePlan.Item(.proofNote(family: 0, text: "\($0)"), height: height, before: before)
    }
  }

  func laidOut(_ items: [CataloguePlan.Item]) -> Flow {
    Flow.laidOut(items, geometry: g, first: 3, header: header, continued: continued)
  }

  @Test func aShortLastPageIsSavedByTighterSpaces() {
    let body = g.bodyBottom - g.bodyTop - 50
    // Twelve notes overflow by one at their full spaces, and fit at three quarters of them.
    let height = (body - 12 * 8 * 0.75) / 12
    let notes = items(12, height: height, before: 8)
    var plain = Flow(geometry: g, first: 3)
    plain.place(notes, header: header, continued: continued)
    #expect(plain.pages.count == 2 && plain.lastPageIsShort)
    let flow = laidOut(notes)
    #expect(flow.pages.count == 1)
    let tops = flow.pages[0].dropFirst().map(\.frame.y)
    #expect(zip(tops, tops.dropFirst()).allSatisfy { abs($1 - $0 - (height + 6)) < 0.001 })
  }

  /// A note of `height`, then a rule and a run of `lines` lines of `line` points, each kept
  /// with the next (a waterfall).
  func waterfall(after height: Double, lines: Int, line: Double) -> [CataloguePlan.Item] {
    items(1, height: height, before: 0) + [CataloguePlan.Item(.rule, height: 0, before: 12)]
      + (0..<lines).map {
        CataloguePlan.Item(
          .waterfall(family: 0, size: line, baseline: line), height: line, before: 0,
          keepWithNext: $0 + 1 < lines)
      }
  }

  func waterfallLines(_ page: [CataloguePlan.Block]) -> Int {
    page.filter { if case .waterfall = $0.content { true } else { false } }.count
  }

  @Test func aWaterfallThatFitsOnAPageMovesWholeFromAWellUsedPage() {
    let body = g.bodyBottom - g.bodyTop - 50
    // Three of the seven lines fit under the note, which uses more than 70 % of the page: all
    // seven start the next page, the rule with them.
    let flow = laidOut(waterfall(after: body - 12 - 3 * 60 - 1, lines: 7, line: 60))
    #expect(flow.pages.count == 2)
    #expect(waterfallLines(flow.pages[0]) == 0)
    #expect(!flow.pages[0].contains { $0.content == .rule })
    #expect(waterfallLines(flow.pages[1]) == 7)
    // All seven fit: one page.
    #expect(laidOut(waterfall(after: body - 12 - 7 * 60, lines: 7, line: 60)).pages.count == 1)
  }

  /// The share of the body a page's blocks use, down to the lowest.
  func used(_ page: [CataloguePlan.Block]) -> Double {
    ((page.map(\.frame.bottom).max() ?? g.bodyTop) - g.bodyTop) / (g.bodyBottom - g.bodyTop)
  }

  /// Moving the waterfall whole would leave the note's page more than 30 % empty: it is split
  /// there instead, as many lines as fit staying under the note.
  @Test func aPageIsNeverContinuedMostlyEmptyForAWaterfallKeptWhole() {
    let body = g.bodyBottom - g.bodyTop - 50
    for note in stride(from: 20.0, to: body - 12 - 3 * 60, by: 37) {
      let flow = laidOut(waterfall(after: note, lines: 9, line: 60))
      #expect(flow.pages.map(waterfallLines).reduce(0, +) == 9)
      guard flow.pages.count > 1 else { continue }
      #expect(used(flow.pages[0]) >= Flow.wellUsed, "note \(note)")
    }
  }

  /// A line drawn up under the one above keeps ink below its frame: the page holds it when the
  /// line is the last on it.
  @Test func aLinesOverhangStaysOnItsPage() {
    let body = g.bodyBottom - g.bodyTop
    let lines = (0..<12).map { n in
      var item = CataloguePlan.Item(
        .waterfall(family: 0, size: 60, baseline: 50), height: 60, before: 0,
        keepWithNext: n < 11)
      item.overhang = n < 11 ? 40 : 0
      return item
    }
    let flow = laidOut(items(1, height: body - 50 - 12 - 5 * 60 - 20, before: 0) + lines)
    #expect(flow.pages.map(waterfallLines).reduce(0, +) == 12)
    for page in flow.pages.dropLast() {
      let last = page.last { if case .waterfall = $0.content { true } else { false } }
      #expect(last.map { $0.frame.bottom + 40 <= g.bodyBottom + 1e-9 } ?? true)
    }
    // Without the overhang, one more line would have fit on the first page.
    let plain = lines.map {
      var line = $0
      line.overhang = 0
      return line
    }
    let without = laidOut(items(1, height: body - 50 - 12 - 5 * 60 - 20, before: 0) + plain)
    #expect(waterfallLines(without.pages[0]) == waterfallLines(flow.pages[0]) + 1)
  }

  /// At the top of a page the waterfall loses its rule and the space above its first line: a
  /// waterfall that fits on a page only without them still moves whole.
  @Test func aWaterfallIsMeasuredAsTheNextPageWouldSetIt() {
    let body = g.bodyBottom - g.bodyTop
    let room = body - 30
    let lines = [(room - 5) / 2 - 1, (room - 5) / 2 + 1]
    let items =
      items(1, height: 480, before: 0) + [CataloguePlan.Item(.rule, height: 0, before: 12)]
      + lines.enumerated().map { n, line in
        CataloguePlan.Item(
          .waterfall(family: 0, size: 72, baseline: 60), height: line, before: n == 0 ? 10 : 0,
          keepWithNext: n == 0)
      }
    let flow = laidOut(items)
    #expect(flow.pages.map(waterfallLines) == [0, 2])
  }

  /// Kept whole, this waterfall would fill the next page and push the row after it onto a
  /// third; split, both pages hold it all.
  @Test func aWaterfallIsSplitWhenKeepingItWholeCostsAPage() {
    let body = g.bodyBottom - g.bodyTop
    let room = body - 30
    let line = (room - 20) / 7
    let items =
      waterfall(after: body - 50 - 22 - 2 * line - 1, lines: 7, line: line)
      + [CataloguePlan.Item(.rule, height: 0, before: 12)]
      + self.items(1, height: 34, before: 12)
    var kept = Flow(geometry: g, first: 3)
    kept.place(items, header: header, continued: continued)
    #expect(kept.pages.count == 3)
    let flow = laidOut(items)
    #expect(flow.pages.map(waterfallLines) == [2, 5])
  }

  @Test func aWaterfallTallerThanAPageFlowsLineByLine() {
    let body = g.bodyBottom - g.bodyTop - 50
    let lines = Int(body / 100) + 2
    let flow = laidOut(waterfall(after: 100, lines: lines, line: 100))
    // As many lines as fit under the note stay on its page; the rest follow.
    let first = waterfallLines(flow.pages[0])
    #expect(first == Int((body - 100 - 12) / 100))
    #expect(flow.pages.map(waterfallLines).reduce(0, +) == lines)
  }

  @Test func aFlowTheSpacesCannotSaveIsLeftAsItIs() {
    let body = g.bodyBottom - g.bodyTop - 50
    // One note too many even with no space at all; and a last page that is not short.
    for notes in [items(13, height: body / 12, before: 8), items(20, height: body / 12, before: 8)]
    {
      var plain = Flow(geometry: g, first: 3)
      plain.place(notes, header: header, continued: continued)
      let flow = laidOut(notes)
      #expect(flow.pages.count == plain.pages.count)
      #expect(flow.pages.map { $0.map(\.frame) } == plain.pages.map { $0.map(\.frame) })
    }
  }
}

/// A feature row as tall as its sample's ink: Tibetan stacks and subjoined letters clear the
/// row's title and its off / on captions; Latin keeps the usual height.
@Suite struct FeatureRoomTests {
  let g = CataloguePlan.Geometry(.a4)

  func room(_ glyphs: [LineInk.Glyph]) -> [Double] {
    let r = CataloguePlan.featureRoom(LineInk(glyphs: glyphs), g)
    return [r.above, r.below]
  }

  @Test func stacksGetRoomLatinDoesNot() {
    let none = CataloguePlan.featureRoom(nil, g)
    #expect(none.above == 0 && none.below == 0)
    // Capitals, accents and descenders: within the row.
    #expect(room([.init(start: 0, above: 1.1, below: 0.33)]) == [0, 0])
    // A stack 1.4 em tall and a subjoined letter 0.9 em down, at 22 pt.
    #expect(
      room([.init(start: 0, above: 1.4, below: 0.2), .init(start: 1, above: 0.5, below: 0.9)]) == [
        6, 13,
      ])
    // Ink past the column's width is cut away with the text: it needs no room.
    #expect(
      room([.init(start: 0, above: 0.7, below: 0.2), .init(start: 40, above: 2.5, below: 2)]) == [
        0, 0,
      ])
  }
}

/// A styles-row sample whose ink would reach the style's title or leave the row is set smaller.
@Suite struct StyleSampleScaleTests {
  @Test func onlyInkBeyondTheRowShrinksTheSample() {
    // Latin at 15 pt: caps, accents, descenders.
    #expect(PageDrawer.styleSampleScale(above: 15, below: 4.5) == 1)
    // STIX's integrals: 30 pt above, 12 below → set at 0.65 of the size.
    #expect(abs(PageDrawer.styleSampleScale(above: 30, below: 12) - 0.65) < 1e-9)
    #expect(abs(PageDrawer.styleSampleScale(above: 10, below: 16) - 0.5) < 1e-9)
    // Never below half; nothing inked (or a broken extent) keeps the size.
    #expect(PageDrawer.styleSampleScale(above: 400, below: 0) == 0.5)
    #expect(PageDrawer.styleSampleScale(above: 0, below: 0) == 1)
    #expect(PageDrawer.styleSampleScale(above: .nan, below: 3) == 1)
  }
}

@Suite struct WaterfallInkTests {
  static let naskhFile = TestFonts.fixtures + "/JoiningScripts/NotoNaskhArabic-Sentence.ttf"
  static let sentence = "نص حكيم له سر قاطع وذو شأن عظيم"

  @Test func displayLeadingHoldsUsualInk() {
    let usual = LineInk(glyphs: [.init(start: 0, above: 0.9, below: 0.25)])
    for size in [4.0, 12, 48, 96, 400] {
      let plain = CataloguePlan.waterfallRow(size, ink: nil, width: 450, room: 700)
      #expect(plain.height == max(size * 1.16, 14).rounded(.up))
      #expect(plain.baseline == max(size * 0.93, 11))
      #expect(CataloguePlan.waterfallRow(size, ink: usual, width: 450, room: 700) == plain)
    }
  }

  @Test func aLineInkingBeyondDisplayLeadingGetsAFrameHoldingIt() {
    let tall = LineInk(glyphs: [
      .init(start: 0, above: 0.8, below: 0.2), .init(start: 1, above: 2.1, below: 0.6),
    ])
    let row = CataloguePlan.waterfallRow(48, ink: tall, width: 450, room: 700)
    #expect(row.baseline >= 2.1 * 48)
    #expect(row.height >= row.baseline + 0.6 * 48)
    // At 400 pt only the first glyph fits the line's width: its ink is usual.
    #expect(
      CataloguePlan.waterfallRow(400, ink: tall, width: 300, room: 700)
        == CataloguePlan.waterfallRow(400, ink: nil, width: 300, room: 700))
    // Never taller than the page's room.
    #expect(CataloguePlan.waterfallRow(96, ink: tall, width: 450, room: 100).height == 100)
  }

  /// A cut line keeps whole glyphs: a tall glyph that starts within the width but ends beyond
  /// it is not drawn, and does not count; a first glyph wider than the width is drawn.
  @Test func onlyTheGlyphsALineShowsCount() throws {
    let ink = LineInk(glyphs: [
      .init(start: 0, end: 3, above: 0.7, below: 0.2),
      .init(start: 3, end: 4.5, above: 2.5, below: 1.5),
    ])
    let cut = try #require(ink.extent(within: 4))
    #expect(cut.above == 0.7 && cut.below == 0.2)
    let whole = try #require(ink.extent(within: 4.5))
    #expect(whole.above == 2.5 && whole.below == 1.5)
    #expect(try #require(ink.extent(within: 1)).above == 0.7)
  }

  /// Random lines of tall and deep glyphs: the lines drawn up never bring two glyphs that stand
  /// over one another closer than their ink, never closer than display leading, and each line's
  /// frame plus its overhang holds its ink.
  @Test func linesDrawnUpNeverBringInkTogether() throws {
    var random = SeededGenerator(seed: 57)
    let sizes: [Double] = [12, 18, 24, 36, 48, 72, 96]
    let width = 450.0
    var drawnUp = 0
    for _ in 0..<200 {
      var start = 0.0
      let glyphs = (0..<30).map { _ in
        let advance = 0.2 + random.unit() * 1.2
        defer { start += advance }
        return LineInk.Glyph(
          start: start, end: start + advance, left: start + random.unit() * 0.1,
          right: start + advance - random.unit() * 0.1, above: random.unit() * 2.5,
          below: random.unit() * 1.5 - 0.3)
      }
      let ink = LineInk(glyphs: glyphs)
      let rows = CataloguePlan.waterfallRows(sizes, ink: ink, width: width, room: 700)
      for n in rows.indices {
        let alone = CataloguePlan.waterfallRow(sizes[n], ink: ink, width: width, room: 700)
        #expect(rows[n].baseline == alone.baseline)
        #expect(abs(rows[n].height + rows[n].overhang - alone.height) < 1e-9)
        if rows[n].overhang > 0 { drawnUp += 1 }
      }
      for n in rows.indices.dropLast() {
        let (a, b) = (sizes[n], sizes[n + 1])
        let distance = rows[n].height - rows[n].baseline + rows[n + 1].baseline
        let usual = CataloguePlan.waterfallRows([a, b], ink: nil, width: width, room: 700)
        #expect(distance >= usual[0].height - usual[0].baseline + usual[1].baseline - 1e-9)
        for g in ink.shown(within: width / a) {
          for h in ink.shown(within: width / b)
          where g.left * a < h.right * b && h.left * b < g.right * a {
            #expect(distance >= g.below * a + h.above * b - 1e-9)
          }
        }
      }
    }
    #expect(drawnUp > 0)
  }

  /// A hostile font's glyphs of no advance are all shown: past a bound on the pairs compared,
  /// each line keeps the frame that holds its own ink.
  @Test func tooManyGlyphsKeepTheirFrames() {
    let ink = LineInk(
      glyphs: (0..<1000).map { .init(start: 0, end: 0, above: $0 % 2 == 0 ? 2 : 0, below: 1) })
    let rows = CataloguePlan.waterfallRows([24, 36], ink: ink, width: 450, room: 700)
    #expect(rows.allSatisfy { $0.overhang == 0 })
  }

  @Test func glyphsAreMeasuredInReadingOrder() throws {
    let face = FontFace(style: "Regular", weight: 80, slant: 0, file: Self.naskhFile)
    let ink = try #require(LineInk.read(face, text: Self.sentence, language: "ar"))
    let whole = try #require(ink.extent(within: 1000))
    // Arabic tails hang deeper than Latin descenders: beyond what display leading holds.
    #expect(whole.below > LineInk.usualBelow)
    #expect(whole.above > 0.5 && whole.above < 2)
    // The first word read, at the line's right end, starts at 0.
    #expect(ink.glyphs.first?.start == 0)
    #expect(ink.glyphs.map(\.start) == ink.glyphs.map(\.start).sorted())
    let firstWord = try #require(
      LineInk.read(face, text: "نص", language: "ar")?.extent(within: 1000))
    let start = try #require(ink.extent(within: 0.3))
    #expect(start.above <= firstWord.above && start.below <= firstWord.below)
  }

  @Test func aFaceThatCannotBeReadHasNoInk() {
    let missing = FontFace(style: "Regular", weight: 80, slant: 0, file: "/nonexistent/x.ttf")
    #expect(LineInk.read(missing, text: "Hamburgefonts", language: "en") == nil)
    let type1 = FontFace(
      style: "Regular", weight: 80, slant: 0, file: Self.naskhFile, format: "Type 1")
    #expect(LineInk.read(type1, text: "Hamburgefonts", language: "en") == nil)
  }

  /// A catalogue of the Arabic fixture family alone, its sample the Arabic sentence, and the
  /// ink of its waterfall line.
  static func arabicCatalogue() throws -> (
    environment: FontEnvironment, input: CatalogueInput<FontFamily>, ink: LineInk
  ) {
    let environment = try TestFonts.environment(custom: [naskhFile])
    let naskh = try CatalogueFixture.family("Noto Naskh Arabic", in: environment)
    var input = try CatalogueFixture.input(environment)
    input.families = [naskh]
    input.text = sentence
    return (environment, input, try #require(CatalogueWriter.lineInk(of: naskh, input)))
  }

  /// Each line stands as high as its ink climbs; two lines on a page keep the ink of glyphs
  /// that stand over one another apart; the last line on a page keeps its ink on it.
  @Test func aCatalogueGivesAnArabicWaterfallLinesThatHoldItsInk() throws {
    let (_, input, ink) = try Self.arabicCatalogue()
    let plain = CataloguePlan(input)
    let inked = CataloguePlan(input, lineInk: [ink])
    let g = plain.geometry
    func rows(_ page: CataloguePlan.Page) -> [(
      size: Double, frame: CataloguePlan.Rect, baseline: Double
    )] {
      page.blocks.compactMap { block in
        guard case .waterfall(_, let size, let baseline) = block.content else { return nil }
        return (size, block.frame, baseline)
      }
    }
    #expect(plain.pages.map(rows).joined().count == input.sizes.count)
    #expect(inked.pages.map(rows).joined().count == input.sizes.count)
    var higher = 0
    for (row, plainRow) in zip(inked.pages.flatMap(rows), plain.pages.flatMap(rows)) {
      let reach = try #require(ink.extent(within: g.contentWidth / row.size))
      #expect(row.baseline >= reach.above * row.size)
      if row.baseline > plainRow.baseline { higher += 1 }
    }
    #expect(higher > 0)
    for page in inked.pages {
      let lines = rows(page)
      for (a, b) in zip(lines, lines.dropFirst()) {
        let distance = (b.frame.y + b.baseline) - (a.frame.y + a.baseline)
        for upper in ink.shown(within: g.contentWidth / a.size) {
          for lower in ink.shown(within: g.contentWidth / b.size)
          where upper.left * a.size < lower.right * b.size
            && lower.left * b.size < upper.right * a.size
          {
            #expect(distance >= upper.below * a.size + lower.above * b.size)
          }
        }
      }
      if let last = lines.last, let reach = ink.extent(within: g.contentWidth / last.size) {
        #expect(last.frame.y + last.baseline + reach.below * last.size <= g.bodyBottom)
      }
    }
  }

  @Test func theWrittenCatalogueIsPlannedWithTheInk() throws {
    let (environment, arabic, ink) = try Self.arabicCatalogue()
    var input = arabic
    input.sizes = Array(stride(from: 12.0, through: 43, by: 1))
    let plan = CataloguePlan(input, lineInk: [ink])
    let inked = plan.pages.count
    #expect(plan.dump() != CataloguePlan(input).dump())
    let folder = try CatalogueFixture.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CatalogueWriter(environment: environment).write(
      input, to: folder + "/catalogue.pdf")
    #expect(result.pages == inked)
  }
}

/// What the page drawer sets in the label column (a long script name wraps where the room
/// down to the next block holds it, else each line stays one line, cut), in the header and on
/// proof pages.
@Suite struct PageDrawerTests {
  static func drawer() throws -> PageDrawer {
    let environment = try CatalogueFixture.environment()
    let input = try CatalogueFixture.input(environment)
    let surface = try CairoSurface.image(width: 600, height: 800)
    return PageDrawer(
      writer: CatalogueWriter(environment: environment), plan: CataloguePlan(input),
      input: input, cr: try CairoContext(surface))
  }

  @Test func aLongNameWrapsWhereThereIsRoomAndIsCutWhereThereIsNone() throws {
    let drawer = try Self.drawer()
    let name = ["Own script", "Unified Canadian Aboriginal Syllabics"]
    let roomy = drawer.marginLabel(name, room: 200)
    #expect(roomy.map(\.lineCount) == [1, 4])
    #expect(roomy[1].text == name[1].uppercased())
    let unbounded = drawer.marginLabel(name, room: nil)
    #expect(unbounded.map(\.lineCount) == [1, 4])
    let tight = drawer.marginLabel(name, room: 20)
    #expect(tight.map(\.lineCount) == [1, 1])
    #expect(tight[1].text.hasPrefix("UNIFIED"), "\(tight[1].text)")
    #expect(tight[1].widestLine <= drawer.g.labelWidth + 0.5)
    // What fits on one line is never wrapped.
    #expect(drawer.marginLabel(["Styles"], room: 5).map(\.lineCount) == [1])
  }

  /// A proof page quotes the texts a feature was tried on in the family itself: the label
  /// face has no Bengali, and drew them as boxes.
  @Test func textsTriedOnAFeatureAreSetInTheFamily() throws {
    let drawer = try Self.drawer()
    let environment = try CatalogueFixture.environment()
    let bengali = try CatalogueFixture.family("Noto Sans Bengali", in: environment)
    let texts = ["কখগঘ", "ক্ষ জ্ঞ"]
    let tried = drawer.triedTexts(texts, of: bengali, face: bengali.regularFace, width: 400)
    #expect(tried.unknownGlyphs == 0)
    #expect(drawer.label(texts[0], size: 6.5).unknownGlyphs > 0)
    #expect(tried.text.hasPrefix("\u{200E}“\u{2068}কখগঘ\u{2069}”, “"))
  }

  /// A family's name on its own page is set smaller to fit, down to 60 %, before it is cut.
  @Test func aLongFamilyNameIsSetSmallerToFit() {
    #expect(PageDrawer.fittedSize(24, width: 300, room: 400) == 24)
    #expect(PageDrawer.fittedSize(24, width: 480, room: 400) == 20)
    #expect(PageDrawer.fittedSize(24, width: 481, room: 400) == 19.9)
    #expect(PageDrawer.fittedSize(24, width: 2000, room: 400) == 24 * 0.6)
  }
}
