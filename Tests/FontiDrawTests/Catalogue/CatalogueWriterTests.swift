import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport
@testable import FontiText

/// Writes real PDFs with the hermetic fonts and checks them structurally through qpdf's C API,
/// and, where they are installed, with `qpdf --check`, `pdffonts` and `pdftotext`.
/// Serialized: each test has its own fontconfig and Pango objects, but Cairo and Pango are
/// used from one thread at a time, as the tool itself does.
@Suite(.serialized) final class CatalogueWriterTests {
  let environment: FontEnvironment
  let folder: String

  init() throws {
    environment = try CatalogueFixture.environment()
    folder = try CatalogueFixture.temporaryDirectory()
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  func write(_ input: CatalogueInput<FontFamily>, _ name: String = "catalogue.pdf") throws -> (
    String, CatalogueResult
  ) {
    let path = folder + "/" + name
    let result = try CatalogueWriter(environment: environment).write(input, to: path)
    return (path, result)
  }

  @Test func structureMetadataAndOutline() throws {
    let input = try CatalogueFixture.input(environment)
    let (path, result) = try write(input)
    let plan = CataloguePlan(input)

    let pdf = try QPDFDocument(reading: path, recovery: false)
    #expect(pdf.drainWarnings().isEmpty)
    #expect(pdf.check().isEmpty)
    #expect(try pdf.pageCount() == plan.pages.count)
    #expect(result.pages == plan.pages.count)
    #expect(pdf.info("/Title") == "Hermetic type review")
    #expect(pdf.info("/Author") == "Fonti tests")
    #expect(pdf.info("/Creator") == "fonti-batch \(FontiVersion.number)")
    #expect(pdf.info("/CreationDate") == "D:20240301120000Z")
    #expect(pdf.info("/ModDate") == "D:20240301120000Z")
    let size = try #require(pdf.pageSize(0))
    #expect(abs(size.width - 595.2756) < 0.01 && abs(size.height - 841.8898) < 0.01)

    let names = input.families.map(\.name)
    #expect(pdf.outlineTitles() == ["Contents"] + names + ["Pairings", "Saved"])

    // The contents page links to every family, the pairings and the saved section.
    let links = pdf.linkDestinations()
    let contents = Set(links[1])
    let expected = Set(
      (0..<names.count).map { CataloguePlan.Destination.family($0).name } + ["pairings", "saved"])
    #expect(contents == expected)
  }

  /// The pages' greys are opaque colours, the text's laid over the paper: no page needs a
  /// translucent graphics state (ten a page, a fifth of a large catalogue's objects, each held
  /// in memory by qpdf while it finishes the file). Cairo sets one opaque state a page.
  @Test func pagesNeedNoTransparency() throws {
    var input = try CatalogueFixture.input(environment)
    input.proofs = ProofOptions(axes: true, features: true, languages: true, glyphs: true)
    let (path, _) = try write(input)
    let pdf = try QPDFDocument(reading: path, recovery: false)
    let pages = try pdf.pageCount()
    #expect(pages > 4)
    #expect((0..<pages).allSatisfy { pdf.pageFillOpacities($0).allSatisfy { $0 == 1 } })
    #expect((0..<pages).contains { !pdf.pageFillOpacities($0).isEmpty })
    #expect((0..<pages).allSatisfy { pdf.pageHasResource($0, "/Font") })
  }

  @Test func missingGlyphsAreCountedPerFamily() throws {
    let (_, result) = try write(try CatalogueFixture.input(environment))
    // Bengali and Hebrew cannot set the Latin sample: their boxes are counted.
    #expect((result.missingGlyphs["Noto Sans Bengali"] ?? 0) > 0)
    #expect((result.missingGlyphs["Noto Sans Hebrew"] ?? 0) > 0)
    #expect(result.missingGlyphs["DejaVu Serif"] == nil)
    #expect(result.warnings.isEmpty)
  }

  @Test func toolsFindItCleanEmbeddedAndSearchable() throws {
    let input = try CatalogueFixture.input(environment)
    let (path, _) = try write(input)
    if let check = Tool.run("qpdf", ["--check", path]) {
      #expect(check.status == 0, "\(check.output)")
      #expect(!check.output.contains("WARNING"), "\(check.output)")
    }
    if let fonts = Tool.run("pdffonts", [path]) {
      #expect(fonts.status == 0)
      let rows = fonts.output.split(separator: "\n").dropFirst(2)
      #expect(!rows.isEmpty)
      for row in rows {
        // name type encoding emb sub uni object ID: "emb" is the fourth column from the end.
        let columns = row.split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count >= 7 && columns[columns.count - 5] == "yes", "\(row)")
      }
    }
    if let text = Tool.run("pdftotext", [path, "-"]) {
      #expect(text.status == 0)
      for family in input.families {
        #expect(text.output.contains(family.name), "pdftotext lacks \(family.name)")
      }
      #expect(text.output.contains("Hermetic type review"))
      #expect(text.output.contains("Sphinx of black quartz, judge my vow."))
      #expect(text.output.contains("\(input.families.count) families, one page each"))
      #expect(!text.output.contains(CataloguePlan.emptySavedText))
      // The margin names the language of an own-script sample whole, on a line of its own
      // ("OWN SCRIPT: BENGALI" is wider than the column, and was cut before the language).
      let lines = Set(
        text.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
      #expect(lines.contains("OWN SCRIPT"), "\(text.output)")
      #expect(lines.contains("BENGALI") && lines.contains("HEBREW"), "\(text.output)")
    }
  }

  /// The page: one family, a long word at 96 pt. Its first page shows the sample
  /// whole, the word unbroken (shrunk to the measure, no hyphen added), and every waterfall
  /// line shows letters, 400 pt included.
  @Test func aLongWordAtTheLargestSizeFillsTheFamilyPage() throws {
    var input = try CatalogueFixture.input(environment, pairings: false)
    let serif = try CatalogueFixture.family("DejaVu Serif", in: environment)
    input.families = [serif]
    input.saved = []
    input.texts = ["Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz, Rindfleisch."]
    input.text = "Donaudampfschifffahrtsgesellschaft Hamburgefonstiv"
    input.size = 96
    input.sizes = [12, 96, 400]
    let (path, _) = try write(input)
    let plan = CataloguePlan(input)
    let first = plan.familyPages[0]
    guard let page = Tool.run("pdftotext", ["-f", "\(first)", "-l", "\(first)", path, "-"]),
      let all = Tool.run("pdftotext", [path, "-"])
    else { return }
    #expect(page.output.contains("Donaudampfschifffahrtsgesellschaft"), "\(page.output)")
    #expect(page.output.contains("Hamburgefonstiv"), "\(page.output)")
    #expect(all.output.contains("Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz"))
    #expect(!all.output.contains("-\n"), "a hyphen was added: \(all.output)")
    // The 400 pt line: at least its first letter, whole.
    let lines = all.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.contains("D") || lines.contains { $0.hasPrefix("Do") }, "\(lines)")
  }

  /// The margin names the size the job asked for, and, when the sample was made smaller to
  /// fit the page, the size it is shown at: never a size nobody asked for as if it were the
  /// job's ("47.6 PT" for a 48 pt sample).
  @Test func theSampleIsLabelledWithTheSizeAskedForAndWhereItShrank() throws {
    var input = try CatalogueFixture.input(environment, pairings: false)
    input.families = [try CatalogueFixture.family("DejaVu Serif", in: environment)]
    input.saved = []
    input.size = 48
    input.text = "Sphinx"
    let (short, _) = try write(input)
    let plan = CataloguePlan(input)
    let page = plan.familyPages[0]
    func text(_ path: String) throws -> String {
      try #require(Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", path, "-"])).output
        .uppercased()
    }
    let fits = try text(short)
    #expect(fits.contains("48 PT"), "\(fits)")
    #expect(!fits.contains("SHOWN AT"), "\(fits)")
    input.text = String(repeating: "Sphinx of black quartz, judge my vow. ", count: 40)
    let (long, _) = try write(input, "long.pdf")
    let shrunk = try text(long)
    #expect(shrunk.contains("48 PT"), "\(shrunk)")
    #expect(shrunk.contains("SHOWN AT"), "\(shrunk)")
  }

  /// A dingbat font's waterfall and styles row are rows of its glyphs: cut to whole glyphs
  /// that fit, with no ellipsis (one "…" at 96 pt reads as three more glyphs).
  @Test func aRowOfGlyphsIsCutWithoutAnEllipsis() throws {
    var input = try CatalogueFixture.input(environment, pairings: false)
    input.families = [try CatalogueFixture.family("D050000L", in: environment)]
    input.saved = []
    input.sizes = [12, 48, 96]
    let (path, _) = try write(input)
    let text = try #require(
      Tool.run("pdftotext", [path, "-"]),
      "pdftotext (poppler-utils, installed by make test) is needed")
    // Every line of glyphs was cut (24 of them do not fit at 48 pt), none with a mark.
    #expect(text.output.contains("48 pt"), "\(text.output)")
    #expect(!text.output.contains("…"), "\(text.output)")
  }

  /// A pairing's heading is set in its family's real bold, as on the pairing sheets: the
  /// Pairings page uses DejaVu Serif Bold for the heading and Cantarell's regular for the body.
  @Test func pairingHeadingsAreSetInTheirBold() throws {
    let input = try CatalogueFixture.input(environment)
    let (path, _) = try write(input)
    let page = try #require(CataloguePlan(input).pairingsPage)
    let fonts = try #require(
      Tool.run("pdffonts", ["-f", "\(page)", "-l", "\(page)", path]),
      "pdffonts (poppler-utils, installed by make test) is needed")
    #expect(fonts.output.contains("DejaVuSerif-Bold"), "\(fonts.output)")
    #expect(fonts.output.contains("Cantarell-Regular"), "\(fonts.output)")
  }

  @Test func twoWritesAreByteIdentical() throws {
    let input = try CatalogueFixture.input(environment)
    let (first, _) = try write(input, "first.pdf")
    let (second, _) = try write(input, "second.pdf")
    let a = try Data(contentsOf: URL(fileURLWithPath: first))
    let b = try Data(contentsOf: URL(fileURLWithPath: second))
    #expect(a.count > 10_000)
    #expect(a == b)
  }

  @Test func emptySavedSectionSaysSo() throws {
    let input = try CatalogueFixture.input(environment, saved: [], pairings: false)
    let (path, result) = try write(input)
    let pdf = try QPDFDocument(reading: path, recovery: false)
    #expect(try pdf.pageCount() == result.pages)
    #expect(!pdf.outlineTitles().contains("Pairings"))
    if let text = Tool.run("pdftotext", [path, "-"]) {
      #expect(text.output.contains(CataloguePlan.emptySavedText))
    }
  }

  @Test(arguments: [(PageSize.letter, Theme.ink), (PageSize.square, Theme.cream)])
  func otherPageSizesAndThemes(page: PageSize, theme: Theme) throws {
    var input = try CatalogueFixture.input(environment, page: page)
    input.theme = theme
    let (path, result) = try write(input)
    let pdf = try QPDFDocument(reading: path, recovery: false)
    #expect(pdf.check().isEmpty)
    #expect(try pdf.pageCount() == result.pages)
    let size = try #require(pdf.pageSize(0))
    #expect(abs(size.width - page.points.width) < 0.01)
    #expect(abs(size.height - page.points.height) < 0.01)
  }

  @Test func leavesNoTemporaryFiles() throws {
    _ = try write(try CatalogueFixture.input(environment))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(names == ["catalogue.pdf"])
  }

  @Test func unwritableFolderThrowsAndLeavesNothing() throws {
    let input = try CatalogueFixture.input(environment)
    let path = folder + "/missing/catalogue.pdf"
    #expect(throws: RenderError.self) {
      _ = try CatalogueWriter(environment: environment).write(input, to: path)
    }
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  @Test func hostileNamesAndTextsDoNotBreakTheFile() throws {
    var input = try CatalogueFixture.input(environment)
    input.title = "Q3 ') dest='x' \\ review\u{1B}[31m"
    input.author = "\u{202E}Studio ( North )"
    input.text = "\u{0}\u{1}Tabs\tand\nnewlines ') rect=[0 0 1 1]"
    input.texts = ["", "\u{FEFF}", String(repeating: "x", count: 2000)]
    input.sizes = [4, 400]
    var odd = try CatalogueFixture.family("Cantarell", in: environment)
    odd.name = "Can'tarell \\ ) ("
    input.pairings = [FamilyPairing<FontFamily>(heading: odd, body: odd, reason: "")]
    let (path, result) = try write(input)
    let pdf = try QPDFDocument(reading: path, recovery: false)
    #expect(pdf.check().isEmpty)
    #expect(try pdf.pageCount() == result.pages)
  }
}

/// Runs an installed tool from /usr/bin; nil when it is not installed.
extension CatalogueWriterTests {
  /// A pairing's heading and body are led by their type size, as on pairing sheets, whatever
  /// the family: Cantarell's lines and DejaVu Serif's lie the same distance apart (Pango's own
  /// factor multiplied each font's line height, and set them half a point apart).
  @Test func pairingBodiesAreLedByTheirTypeSize() throws {
    var input = try CatalogueFixture.input(environment, saved: [])
    input.text = "Sphinx of black quartz, judge my vow: five boxing wizards jump quickly"
    let serif = try CatalogueFixture.family("DejaVu Serif", in: environment)
    let sans = try CatalogueFixture.family("Cantarell", in: environment)
    input.pairings = [
      FamilyPairing<FontFamily>(heading: serif, body: sans, reason: ""),
      FamilyPairing<FontFamily>(heading: sans, body: serif, reason: ""),
    ]
    let (path, _) = try write(input)
    let page = try #require(CataloguePlan(input).pairingsPage)
    let layout = try #require(
      Tool.run("pdftotext", ["-bbox-layout", "-f", "\(page)", "-l", "\(page)", path, "-"]),
      "pdftotext (poppler-utils, installed by make test) is needed")
    // Each line's top and first word, in page order.
    var lines: [(top: Double, first: String)] = []
    for chunk in layout.output.components(separatedBy: "<line ").dropFirst() {
      guard let top = chunk.firstMatchingNumber(after: "yMin=\""),
        let word = chunk.components(separatedBy: "<word ").dropFirst().first,
        let text = word.split(separator: ">").dropFirst().first?.split(separator: "<").first
      else { continue }
      lines.append((top, String(text)))
    }
    let words = Set(CataloguePlan.pairingParagraph.split(separator: " ").map(String.init))
    // The bodies: from each line starting the paragraph, the lines that follow it.
    let starts = lines.indices.filter { lines[$0].first == "A" && lines[$0 + 1].first != "A" }
    #expect(starts.count == 2)
    let expected = 1.45 * CataloguePlan.pairingBodySize
    for start in starts {
      let body = lines[start...].prefix { words.contains($0.first) }
      #expect(body.count >= 3)
      for (a, b) in zip(body, body.dropFirst()) {
        #expect(abs(b.top - a.top - expected) < 0.25, "lines \(b.top - a.top) pt apart")
      }
      // The heading above it: the sample, led at 1.15 times its size in either family.
      let sample = Set(input.text.split(separator: " ").map(String.init))
      let heading = lines[..<start].reversed().prefix { sample.contains($0.first) }.reversed()
      #expect(heading.count >= 2)
      for (a, b) in zip(heading, heading.dropFirst()) {
        let apart = b.top - a.top
        #expect(abs(apart - 1.15 * CataloguePlan.pairingHeadingSize) < 0.3, "heading \(apart) pt")
      }
    }
  }
}

extension String {
  /// The decimal number right after the first `marker`, if any.
  fileprivate func firstMatchingNumber(after marker: String) -> Double? {
    guard let range = range(of: marker) else { return nil }
    return Double(self[range.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
  }
}

enum Tool {
  static func run(_ name: String, _ arguments: [String]) -> (status: Int32, output: String)? {
    let path = "/usr/bin/" + name
    guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

@Test func tagAttributesAreEscapedAndLocaleFree() {
  #expect(CairoTag.escape("a'b\\c") == "a\\'b\\\\c")
  #expect(CairoTag.number(12.5) == "12.5")
  #expect(CairoTag.number(-0.0004) == "0")
  #expect(CairoTag.number(3) == "3")
  #expect(CairoTag.number(1.23456) == "1.235")
  #expect(CairoTag.number(.nan) == "0")
}

@Test func datesComeFromSourceDateEpoch() {
  let date = Timestamp.now(environment: ["SOURCE_DATE_EPOCH": "1709294400"])
  #expect(date == CatalogueFixture.date)
  #expect(PDFFile.isoDate(date) == "2024-03-01T12:00:00Z")
  #expect(PDFFile.pdfDate(date) == "D:20240301120000Z")
  #expect(PDFFile.displayDate(date) == "1 March 2024")
  for bad in ["", "soon", "-5", "99999999999999999999"] {
    let now = Date()
    let d = Timestamp.now(environment: ["SOURCE_DATE_EPOCH": bad])
    #expect(abs(d.timeIntervalSince(now)) < 60, "\(bad)")
  }
}
