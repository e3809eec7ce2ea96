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

  @Test func aWaterfallThatFitsOnAPageIsNeverBroken() {
    let body = g.bodyBottom - g.bodyTop - 50
    // Five of the seven lines fit under the note: all seven start the next page, the rule
    // with them.
    let flow = laidOut(waterfall(after: body - 12 - 5 * 60 - 1, lines: 7, line: 60))
    #expect(flow.pages.count == 2)
    #expect(waterfallLines(flow.pages[0]) == 0)
    #expect(!flow.pages[0].contains { $0.content == .rule })
    #expect(waterfallLines(flow.pages[1]) == 7)
    // All seven fit: one page.
    #expect(laidOut(waterfall(after: body - 12 - 7 * 60, lines: 7, line: 60)).pages.count == 1)
  }

  /// At the top of a page the waterfall loses its rule and the space above its first line: a
  /// waterfall that fits on a page only without them still moves whole.
  @Test func aWaterfallIsMeasuredAsTheNextPageWouldSetIt() {
    let body = g.bodyBottom - g.bodyTop
    let room = body - 30
    let lines = [(room - 5) / 2 - 1, (room - 5) / 2 + 1]
    let items =
      items(1, height: 200, before: 0) + [CataloguePlan.Item(.rule, height: 0, before: 12)]
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

  @Test func aCatalogueGivesAnArabicWaterfallLinesThatHoldItsInk() throws {
    let (_, input, ink) = try Self.arabicCatalogue()
    let plain = CataloguePlan(input)
    let inked = CataloguePlan(input, lineInk: [ink])
    func rows(_ plan: CataloguePlan) -> [(size: Double, height: Double, baseline: Double)] {
      plan.pages.flatMap(\.blocks).compactMap { block in
        guard case .waterfall(_, let size, let baseline) = block.content else { return nil }
        return (size, block.frame.height, baseline)
      }
    }
    #expect(rows(plain).count == input.sizes.count)
    for (row, plainRow) in zip(rows(inked), rows(plain)) {
      let reach = try #require(ink.extent(within: plain.geometry.contentWidth / row.size))
      #expect(row.baseline >= reach.above * row.size)
      #expect(row.height - row.baseline >= reach.below * row.size)
      #expect(row.height > plainRow.height)
    }
  }

  @Test func theWrittenCatalogueIsPlannedWithTheInk() throws {
    let (environment, arabic, ink) = try Self.arabicCatalogue()
    var input = arabic
    input.sizes = Array(stride(from: 12.0, through: 43, by: 1))
    let inked = CataloguePlan(input, lineInk: [ink]).pages.count
    #expect(inked > CataloguePlan(input).pages.count)
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
