import FontTestSupport
import FontiSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// Proof pages in catalogues (`docs/proofs.md`, "Proof pages in catalogues"): planned with the family pages (page numbers,
/// contents, bookmarks), drawn as the data says (sweeps that differ, features that differ off and
/// on, languages as fontconfig's coverage, a cell per encoded character), reproducible.
@Suite(.serialized) final class CatalogueProofsTests {
  let environment: FontEnvironment
  let folder: String

  init() throws {
    environment = try TestFonts.proofsEnvironment()
    folder = try CatalogueFixture.temporaryDirectory()
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  func family(_ name: String) throws -> FontFamily {
    try #require(environment.catalog.family(named: name), "fixture family \(name)")
  }

  /// A catalogue of `names` (default: every proofs fixture family) with `proofs`.
  func input(
    _ names: [String]? = nil, proofs: ProofOptions? = .init(glyphs: true),
    sample: SampleSettings? = nil
  ) throws -> CatalogueInput<FontFamily> {
    let families = try names.map { try $0.map(family) } ?? environment.catalog.families
    return CatalogueInput(
      title: "Proofs review", author: "Fonti tests",
      texts: ["The quick brown fox jumps over the lazy dog"], sizes: [12, 24, 48],
      families: families, creationDate: CatalogueFixture.date, proofs: proofs, sample: sample)
  }

  func proofData(_ input: CatalogueInput<FontFamily>) -> [CatalogueProofData?] {
    guard let options = input.proofs else { return [] }
    return input.families.map { CatalogueProofData.read($0, options: options) }
  }

  func write(_ input: CatalogueInput<FontFamily>, _ name: String = "catalogue.pdf") throws -> (
    String, CatalogueResult
  ) {
    let path = folder + "/" + name
    let result = try CatalogueWriter(environment: environment).write(input, to: path)
    return (path, result)
  }

  /// The page `number` (1-based) of the PDF at `path` as pixels, at 72 dpi: one pixel a point.
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

  /// The pixels of `rect` (points) of `image`, row by row.
  func crop(_ image: RasterImage, _ rect: CataloguePlan.Rect) -> [UInt32] {
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

  /// Pixels that differ by more than a few grey levels.
  func differing(_ a: [UInt32], _ b: [UInt32]) -> Int {
    zip(a, b).filter { pair in
      let (p, q) = pair
      return (0..<3).contains { shift in
        abs(Int((p >> (8 * UInt32(shift))) & 0xFF) - Int((q >> (8 * UInt32(shift))) & 0xFF)) > 24
      }
    }.count
  }

  /// How much ink `pixels` hold: the sum, over pixels, of how much darker than the lightest
  /// one each is (grey levels).
  func darkness(_ pixels: [UInt32]) -> Double {
    func grey(_ p: UInt32) -> Int { (Int(p >> 16 & 0xFF) + Int(p >> 8 & 0xFF) + Int(p & 0xFF)) / 3 }
    let lightest = pixels.map(grey).max() ?? 0
    return Double(pixels.reduce(0) { $0 + lightest - grey($1) })
  }

  /// Blocks of `plan` with their page number.
  func blocks(_ plan: CataloguePlan, where match: (CataloguePlan.Content) -> Bool) -> [(
    page: Int, block: CataloguePlan.Block
  )] {
    plan.pages.flatMap { page in
      page.blocks.filter { match($0.content) }.map { (page.number, $0) }
    }
  }

  // MARK: Plan

  @Test func planWithProofsMatchesGolden() throws {
    let input = try input(["D050000L", "EB Garamond", "Inter", "Noto Sans Bengali"])
    let plan = CataloguePlan(input, proofs: proofData(input))
    try Golden.check(plan.dump(), named: "catalogue-plan-proofs.txt")
  }

  /// Proofs off (nil) or data without an input asking for proofs: the plan of today.
  @Test func proofsOffPlanAsBefore() throws {
    var input = try input(proofs: .init(glyphs: true))
    let data = proofData(input)
    input.proofs = nil
    #expect(CataloguePlan(input, proofs: data) == CataloguePlan(input))
    #expect(CataloguePlan(input).proofPages.isEmpty)
  }

  /// A hostile font may declare thousands of axes, instances and features: the pages show a
  /// bounded number and say how many more there are; every block stays inside the body.
  @Test func hugeProofsAreBounded() throws {
    let input = try input(["Inter"])
    let axes = (0..<300).map {
      FontProofs.Axis(tag: "x\($0 % 100)", name: "Axis \($0)", min: 0, defaultValue: 0, max: 10)
    }
    let instances = (0..<2000).map {
      FontProofs.Instance(name: "Instance \($0)", coordinates: ["x0": Double($0 % 10)])
    }
    let features = (0..<3000).map {
      FontProofs.Feature(tag: "z\($0)", name: "Feature", tables: ["GSUB"], visible: false)
    }
    let data = CatalogueProofData(
      proofs: FamilyProofs(
        proofs: FontProofs(axes: axes, instances: instances, features: features)),
      showsAxes: true, showsFeatures: true)
    let plan = CataloguePlan(input, proofs: [data])
    let all = blocks(plan) { _ in true }.map(\.block)
    let steps = all.filter {
      if case .axisStep = $0.content { return true }
      return false
    }
    let rows = all.filter {
      if case .instances = $0.content { return true }
      return false
    }
    let listed = all.filter {
      if case .invisibleFeature = $0.content { return true }
      return false
    }
    #expect(steps.count == CataloguePlan.maximumAxes * 5, "the default is the minimum")
    #expect(rows.count == CataloguePlan.maximumInstances / CataloguePlan.instanceColumns)
    #expect(listed.count == CataloguePlan.maximumListedFeatures)
    let notes = all.compactMap { block -> String? in
      if case .proofNote(_, let text) = block.content { return text }
      return nil
    }
    #expect(
      notes == [
        "… and 284 more axes, not swept", "… and 1760 more named instances",
        "… and 2680 more features",
      ])
    let g = plan.geometry
    for page in plan.pages {
      for block in page.blocks {
        #expect(block.frame.y >= g.bodyTop - 0.001)
        #expect(block.frame.y + block.frame.height <= g.bodyBottom + 0.001)
      }
    }
  }

  @Test func everyEnabledProofHasItsPagesAndBookmarks() throws {
    let input = try input()
    let data = proofData(input)
    let plan = CataloguePlan(input, proofs: data)
    let (path, result) = try write(input)
    let pdf = try QPDFDocument(reading: path, recovery: false)
    #expect(pdf.check().isEmpty)
    #expect(try pdf.pageCount() == plan.pages.count)
    #expect(result.pages == plan.pages.count)
    #expect(plan.pages.map(\.number) == Array(1...plan.pages.count))

    // Every family gets proof pages and a glyph chart, right after it; one whose proofs find
    // nothing (D050000L: static, no features, no language) only says so in its header.
    for (i, family) in input.families.enumerated() {
      if let proofs = data[i], proofs.findsNothing {
        #expect(family.name == "D050000L")
        #expect(plan.proofPages[i] == nil)
        let page = plan.familyPages[i]
        let text = Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", path, "-"])
        #expect(
          text?.output.contains("proofs: static, no layout features, covers no language fontconfig")
            ?? false)
        continue
      }
      let proofPage = try #require(plan.proofPages[i], "\(family.name)")
      #expect(plan.pages[proofPage - 1].kind == .proofs(i, continued: false))
      #expect(plan.pages[proofPage - 2].kind.familyIndex == i)
      let chart = try #require(plan.glyphPages[i], "\(family.name)")
      #expect(plan.pages[chart - 1].kind == .glyphs(i, page: 0))
      // What the page shows is where the plan says.
      let text = Tool.run("pdftotext", ["-f", "\(proofPage)", "-l", "\(proofPage)", path, "-"])
      #expect(text?.output.contains("\(family.name) — proofs") ?? false, "\(family.name)")
    }

    // Bookmarks: each family, its proofs and glyph chart under it, the chart's blocks under that.
    let titles = pdf.outlineTitles()
    #expect(
      titles
        == plan.outline.map { entry in
          var depth = 0
          var parent = entry.parent
          while let p = parent {
            depth += 1
            parent = plan.outline[p].parent
          }
          return String(repeating: "  ", count: depth) + entry.title
        })
    #expect(titles.contains("  Proofs"))
    #expect(titles.contains("    Basic Latin"))
    #expect(titles.contains("    Bengali"))
    // The contents page counts the families' pages, proofs and charts with them.
    let familyPages = (plan.pairingsPage ?? plan.savedPage) - plan.familyPages[0]
    #expect(familyPages > 2 * input.families.count)
    let contentsText = Tool.run("pdftotext", ["-f", "2", "-l", "2", path, "-"])?.output ?? ""
    #expect(contentsText.contains("\(input.families.count) families on \(familyPages) pages"))
    // The contents page still links to every family's first page.
    let contents = Set(pdf.linkDestinations()[1])
    #expect(
      contents.isSuperset(
        of: (0..<input.families.count).map { CataloguePlan.Destination.family($0).name }))
    for entry in plan.pages[1].blocks {
      guard case .contentsEntry(_, .family(let i), let page) = entry.content else { continue }
      #expect(page == plan.familyPages[i])
    }
  }

  // MARK: Axes

  @Test func aSweepsStepsReallyDiffer() throws {
    // Every fixture family, every proof on: the catalogue in which Cairo embedded the swept
    // instances with the default's outlines (see `TextLayout.draw`), all six steps alike.
    let input = try input()
    let plan = CataloguePlan(input, proofs: proofData(input))
    let (path, _) = try write(input)
    let steps = blocks(plan) {
      if case .axisStep(_, "wght", _, _) = $0 { return true }
      return false
    }
    #expect(steps.count == 6, "min, three steps, the default, max")
    let first = try #require(steps.first)
    let last = try #require(steps.last)
    #expect(first.page == last.page)
    let image = try raster(path, page: first.page)
    func ink(_ rect: CataloguePlan.Rect) -> [UInt32] {
      var r = rect
      r.x = plan.geometry.contentX
      r.width = plan.geometry.right - r.x
      return crop(image, r)
    }
    // Ink, not pixel differences: steps drawn alike still differ by sub-pixel positions.
    let thin = darkness(ink(first.block.frame))
    let black = darkness(ink(last.block.frame))
    let regular = darkness(ink(steps[2].block.frame))
    #expect(black > thin * 3, "wght 100 and 900 are drawn alike")
    #expect(regular > thin * 1.5, "wght 100 and 400 are drawn alike")
    #expect(black > regular * 1.5, "wght 400 and 900 are drawn alike")
    // The instances are drawn at their coordinates too.
    let grid = blocks(plan) {
      if case .instances(_, [0, 1, 2]) = $0 { return true }
      return false
    }
    #expect(grid.count == 1)
    // Values are printed, the default marked.
    let text = Tool.run("pdftotext", ["-f", "\(first.page)", "-l", "\(first.page)", path, "-"])
    #expect(text.map { $0.output.contains("400 ◆") || $0.output.contains("400  ◆") } ?? false)
    #expect(text?.output.contains("Weight · wght 100–900") ?? false)
  }

  // MARK: Features

  @Test func visibleFeaturesDifferOffAndOnAndTheOthersAreOnlyListed() throws {
    let input = try input(
      ["EB Garamond", "Proof Copies"], proofs: ProofOptions(axes: false, languages: false))
    let data = proofData(input)
    let plan = CataloguePlan(input, proofs: data)
    let (path, _) = try write(input)
    let g = plan.geometry
    for (i, family) in input.families.enumerated() {
      let proofs = try #require(data[i]?.proofs)
      let visible = Set((proofs.proofs.features ?? []).filter(\.visible).map(\.tag))
      let pairs = blocks(plan) {
        if case .featurePair(i, _) = $0 { return true }
        return false
      }
      let listed = blocks(plan) {
        if case .invisibleFeature(i, _, _) = $0 { return true }
        return false
      }
      let pairTags = pairs.map { pair -> String in
        if case .featurePair(_, let tag) = pair.block.content { return tag }
        return ""
      }
      let listedTags = listed.map { item -> String in
        if case .invisibleFeature(_, let tag, _) = item.block.content { return tag }
        return ""
      }
      #expect(Set(pairTags) == visible, "\(family.name)")
      #expect(Set(listedTags).isDisjoint(with: visible), "\(family.name)")
      #expect(pairTags.count + listedTags.count == proofs.proofs.features?.count)
      // Each pair differs: the "on" column is not the "off" one.
      var images: [Int: RasterImage] = [:]
      for pair in pairs {
        let image = try images[pair.page] ?? raster(path, page: pair.page)
        images[pair.page] = image
        let columnWidth = (g.contentWidth - 2 * g.gutter) / 2
        let f = pair.block.frame
        let off = crop(image, .init(x: g.contentX, y: f.y + 12, width: columnWidth, height: 32))
        let on = crop(
          image,
          .init(
            x: (g.contentX + columnWidth + 2 * g.gutter).rounded(), y: f.y + 12,
            width: columnWidth, height: 32)
        )
        #expect(differing(off, on) > 3, "\(family.name) \(pair.block.content)")
      }
    }
    // Proof Copies' `salt` swaps glyphs for identical copies: listed, never drawn as a pair.
    let text = Tool.run("pdftotext", [path, "-"])?.output ?? ""
    #expect(text.contains("No visible effect on the tried text"))
    #expect(text.contains("salt"))
  }

  // MARK: Languages

  @Test func languagesAreTheCoverage() throws {
    let input = try input(
      ["Cantarell", "D050000L", "Noto Sans Bengali"],
      proofs: ProofOptions(axes: false, features: false))
    let data = proofData(input)
    let plan = CataloguePlan(input, proofs: data)
    let (path, _) = try write(input)
    for (i, family) in input.families.enumerated() {
      let coverage = try #require(data[i]?.languages)
      #expect(coverage == LanguageCoverage(family: family))
      var supported: [String] = []
      var nearly: [LanguageCoverage.Nearly] = []
      for (_, block) in blocks(plan, where: { _ in true }) {
        switch block.content {
        case .languageGroup(i, _, let codes): supported += codes
        case .nearlyLanguage(i, let code, let missing):
          nearly.append(.init(language: code, missing: missing))
        default: break
        }
      }
      #expect(supported.sorted() == coverage.supported, "\(family.name)")
      #expect(nearly == coverage.nearly, "\(family.name)")
    }
    let text = Tool.run("pdftotext", [path, "-"])?.output ?? ""
    // D050000L draws symbols: no proof page, a word in its header.
    #expect(!text.contains("This family covers no language"))
    #expect(text.contains("proofs: covers no language fontconfig knows"), "D050000L")
    #expect(text.contains("Bengali"))
    #expect(text.contains("U+"))
  }

  // MARK: Glyph chart

  @Test func theGlyphChartHasACellPerEncodedCharacter() throws {
    let input = try input(
      ["Noto Sans Bengali", "D050000L"],
      proofs: ProofOptions(axes: false, features: false, languages: false, glyphs: true))
    let data = proofData(input)
    let plan = CataloguePlan(input, proofs: data)
    for (i, family) in input.families.enumerated() {
      let characters = try EncodedCharacters.ofRegularFace(family)
      let chart = try #require(plan.glyphCharts[i])
      #expect(chart.pages.flatMap(\.cells).map(\.codePoint) == characters, "\(family.name)")
      // Only the chart: no proof pages without a proof to show.
      #expect(plan.proofPages[i] == nil)
    }
    let (path, _) = try write(input)
    let first = try #require(plan.glyphPages[0])
    let text = Tool.run("pdftotext", ["-f", "\(first)", "-l", "\(first)", path, "-"])?.output ?? ""
    let cells = plan.glyphCharts[0]?.pages.first?.cells ?? []
    #expect(!cells.isEmpty)
    #expect(cells.allSatisfy { text.contains($0.label) })
    // D050000L's chart: its dingbats sit on Latin code points, and the glyph it maps to
    // U+00AD (②), which shaping hides, is drawn in that cell (its text is the soft hyphen).
    let dingbats = try #require(plan.glyphPages[1])
    let chart = Tool.run("pdftotext", ["-f", "\(dingbats)", "-l", "\(dingbats)", path, "-"])
    let chartText = chart?.output ?? ""
    #expect(chartText.contains("SYMBOL ENCODING · PAGE 1 OF"), "\(chartText)")
    #expect(chartText.unicodeScalars.contains("\u{00AD}"), "\(chartText)")
    #expect(!text.contains("SYMBOL ENCODING"), "Bengali is no symbol font")
  }

  /// A font whose cmap maps noncharacters (U+FDD0, U+FFFE, U+1FFFE, U+10FFFF …) and surrogates
  /// (`Fixtures/Noncharacters`): Cairo refuses noncharacters as the text of what a PDF draws,
  /// which used to fail the whole catalogue ("input string not valid UTF-8"). Its chart is
  /// written, a cell per character (surrogates, no characters, left out), each glyph drawn.
  @Test func theGlyphChartOfNoncharactersIsWrittenWithTheirGlyphs() throws {
    let noncharacters: [UInt32] = [0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x1FFFF, 0x10FFFF]
    let font = TestPaths.fixtures + "/Noncharacters/Noncharacters.ttf"
    let environment = try TestFonts.environment(custom: [font])
    let family = try #require(environment.catalog.family(named: "Noncharacter Test"))
    let glyphs = ProofOptions(axes: false, features: false, languages: false, glyphs: true)
    let input = CatalogueInput(
      title: "Noncharacters", author: "Fonti tests", texts: ["ABCD"], sizes: [24],
      families: [family], creationDate: CatalogueFixture.date, proofs: glyphs)
    let plan = CataloguePlan(input, proofs: [CatalogueProofData.read(family, options: glyphs)])
    let cells = try #require(plan.glyphCharts[0]).pages.flatMap(\.cells)
    #expect(cells.map(\.codePoint) == [0x20, 0x41, 0x42, 0x43, 0x44] + noncharacters)

    let path = folder + "/noncharacters.pdf"
    _ = try CatalogueWriter(environment: environment).write(input, to: path)
    let page = try #require(plan.glyphPages[0])
    let image = try raster(path, page: page)
    for cell in cells where cell.codePoint != 0x20 {
      // The glyph's part of the cell: inside its outline, above its code point.
      let r = cell.frame
      let glyph = crop(
        image, .init(x: r.x + 2, y: r.y + 2, width: r.width - 4, height: r.height * 0.6))
      #expect(darkness(glyph) > 2000, "\(cell.label): no glyph drawn")
    }
    let text = Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", path, "-"])?.output ?? ""
    #expect(noncharacters.allSatisfy { text.contains(CodePointText.hex($0)) }, "\(text)")
  }

  /// A font whose colour bitmaps are damaged (`Fixtures/ColourBitmaps`: B's PNG says it is
  /// 0x31000080 pixels tall, C's is longer than its table): the chart is written without
  /// handing those bitmaps to Cairo, each such cell a labelled empty box, and one warning of
  /// kind `proofs-unreadable` names the characters.
  @Test func damagedColourBitmapsAreBoxedAndNamed() throws {
    let font = TestPaths.fixtures + "/ColourBitmaps/DamagedBitmaps.ttf"
    let environment = try TestFonts.environment(custom: [font])
    let family = try #require(environment.catalog.family(named: "Damaged Bitmap Test"))
    let glyphs = ProofOptions(axes: false, features: false, languages: false, glyphs: true)
    let input = CatalogueInput(
      title: "Damaged bitmaps", author: "Fonti tests", texts: ["AD"], sizes: [24],
      families: [family], creationDate: CatalogueFixture.date, proofs: glyphs)
    let path = folder + "/damaged.pdf"
    let result = try CatalogueWriter(environment: environment).write(input, to: path)
    let warnings = result.warnings.filter { $0.contains("damaged colour bitmap") }
    #expect(
      warnings == [
        "family 'Damaged Bitmap Test': 2 damaged colour bitmaps (U+0042, U+0043: its PNG says "
          + "16×822083712 pixels) drawn empty in the glyph chart"
      ], "\(result.warnings)")
    #expect(warnings.allSatisfy { WarningKind.of($0) == .proofsUnreadable })
    let plan = CataloguePlan(input, proofs: [CatalogueProofData.read(family, options: glyphs)])
    let page = try #require(plan.glyphPages[0])
    let text = Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", path, "-"])?.output ?? ""
    // Captions are set in capitals.
    #expect(text.components(separatedBy: "DAMAGED\n").count - 1 == 2, "\(text)")
  }

  // MARK: Reproducible, settings

  /// Two runs write the same bytes. Each run draws in a process of its own (as `run`'s workers
  /// do): within one process, Cairo 1.16's FreeType faces keep the coordinates a variable font
  /// was last used at, and whether it embeds the font as a subset or as a fallback font (the
  /// same pixels either way) follows them. So the catalogue is written by this test binary's
  /// `look` test, run twice.
  @Test func twoRunsWriteTheSameBytes() throws {
    let binary = try #require(
      CommandLine.arguments.first.flatMap { $0.hasSuffix(".xctest") ? $0 : nil },
      "runs under swift test")
    var paths: [String] = []
    for name in ["a.pdf", "b.pdf"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = [
        "--testing-library", "swift-testing", "--filter", "CatalogueProofsTests/look",
      ]
      var environment = ProcessInfo.processInfo.environment
      environment["FONTI_PROOF_PAGES"] = folder + "/" + name
      environment["FONTI_PROOF_FAMILIES"] = "EB Garamond,Inter,Noto Sans Bengali"
      process.environment = environment
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      paths.append(folder + "/" + name)
    }
    let a = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
    let b = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
    #expect(a.count > 10_000)
    #expect(a == b)
  }

  /// `sample` settings change the sample, the texts and the waterfall, not the family's name.
  @Test(arguments: [
    ("EB Garamond", SampleSettings(features: [FeatureSetting(tag: "smcp")])),
    ("Inter", SampleSettings(variations: [VariationSetting(tag: "wght", value: 900)])),
  ])
  func sampleSettingsApplyToTheSampleNotTheLabels(name: String, settings: SampleSettings) throws {
    let plain = try input([name], proofs: nil)
    var set = plain
    set.sample = settings
    let plan = CataloguePlan(plain)
    #expect(CataloguePlan(set) == plan)
    let (a, _) = try write(plain, "plain.pdf")
    let (b, _) = try write(set, "set.pdf")
    let page = plan.familyPages[0]
    let before = try raster(a, page: page)
    let after = try raster(b, page: page)
    for block in plan.pages[page - 1].blocks {
      var frame = block.frame
      frame.x = plan.geometry.contentX
      frame.width = plan.geometry.right - frame.x
      let changed = differing(crop(before, frame), crop(after, frame))
      switch block.content {
      case .sample, .text, .waterfall(_, 24, _), .waterfall(_, 48, _):
        #expect(changed > 20, "\(name) \(block.content)")
      case .familyHeader, .styles:
        #expect(changed == 0, "\(name) \(block.content)")
      default: break
      }
    }
  }

  /// By hand: `FONTI_PROOF_PAGES=/tmp/proofs.pdf swift test --filter CatalogueProofsTests/look`
  /// writes the fixtures' catalogue with every proof on, to look at.
  @Test func look() throws {
    guard let path = ProcessInfo.processInfo.environment["FONTI_PROOF_PAGES"] else { return }
    let names = ProcessInfo.processInfo.environment["FONTI_PROOF_FAMILIES"].map {
      $0.split(separator: ",").map(String.init)
    }
    _ = try CatalogueWriter(environment: environment).write(try input(names), to: path)
    if ProcessInfo.processInfo.environment["FONTI_PROOF_TWICE"] != nil {
      _ = try CatalogueWriter(environment: environment).write(try input(names), to: path + ".2.pdf")
    }
  }
}
