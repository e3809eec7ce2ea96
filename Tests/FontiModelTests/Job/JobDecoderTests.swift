import Foundation
import TestSupport
import Testing

@testable import FontiModel
@testable import FontiSupport

/// Valid job files decode to exactly the `Job` they describe.
struct JobDecoderTests {
  static let fixtures = URL(fileURLWithPath: TestPaths.fixtures)

  static func valid(_ name: String) -> String {
    fixtures.appendingPathComponent("Jobs/valid/\(name)").path
  }

  static func decode(_ text: String, directory: String = "/nonexistent-job-dir")
    throws(DiagnosticError)
    -> (job: Job, warnings: [Diagnostic])
  {
    try JobDecoder.decode(
      text: text, path: "job.yaml", directory: directory, languages: TestLanguages.table)
  }

  /// The error messages for `text` (empty when it decodes).
  static func errors(_ text: String) -> [String] {
    do {
      _ = try decode(text)
      return []
    } catch {
      return error.diagnostics.filter(\.isError).map(\.locatedMessage)
    }
  }

  @Test func fullJobDecodesToEveryValue() throws {
    let path = Self.valid("full.yaml")
    let (job, warnings) = try JobDecoder.load(path: path, languages: TestLanguages.table)
    #expect(warnings.isEmpty)
    let folder = Self.fixtures.appendingPathComponent("Jobs/valid").path
    let fonts = Self.fixtures.appendingPathComponent("Fonts").path
    func at(_ line: Int, _ column: Int) -> Mark { Mark(line: line, column: column) }  // 1-based

    var expected = Job(path: path, directory: folder, output: folder + "/build/out")
    expected.source = job.source
    expected.bytes = job.bytes
    expected.title = "Spring review"
    expected.author = "Studio North"
    expected.defaults.text = "Pack my box with five dozen liquor jugs."
    expected.defaults.size = 36.5
    expected.defaults.theme = .cream
    expected.texts = ["The quick brown fox", "Two lines,\none text.\n"]
    expected.include = [Located("DejaVu*", at: at(19, 13)), Located("Cantarell", at: at(19, 24))]
    expected.includeMark = at(19, 3)
    expected.familiesMark = at(18, 1)
    expected.exclude = [Located("*Mono*", at: at(20, 13))]
    expected.fonts = [
      Located(fonts, at: at(23, 5)), Located(fonts + "/DejaVuSerif.ttf", at: at(24, 5)),
    ]
    expected.sizes = [10, 20, 40.5]
    expected.styles = .picks([.slot(.boldItalic), .slot(.regular)])
    expected.curatedPairings = false
    expected.extraPairings = [
      Job.PairingSpec(
        heading: Located("DejaVu Serif", at: at(32, 18)),
        body: Located("DejaVu Sans", at: at(32, 38))),
      Job.PairingSpec(
        heading: Located("Cantarell", at: at(33, 16)),
        body: Located("DejaVu Serif", at: at(34, 13))),
    ]
    expected.save = [Located("DejaVu Serif", at: at(37, 10)), Located("Cantarell", at: at(37, 24))]
    expected.manifest = Located("saved/favs.json", at: at(38, 13))
    expected.png.edge = 2048
    expected.png.scale = 2
    expected.png.compression = .small
    var review = Job.CatalogueSpec(file: Located("review.pdf", at: at(46, 11)))
    review.page = .letter
    review.theme = .ink
    var saved = Job.CatalogueSpec(file: Located("pdf/saved.pdf", at: at(49, 11)))
    saved.page = .square
    saved.families = .saved
    var dejavu = Job.CatalogueSpec(file: Located("dejavu.pdf", at: at(52, 11)))
    dejavu.families = .patterns([Located("DejaVu Sans*", at: at(53, 16))])
    let all = Job.CatalogueSpec(file: Located("all.pdf", at: at(54, 11)))
    expected.catalogues = [review, saved, dejavu, all]
    #expect(job == expected)
    #expect(job.png.pixels == 4096)
  }

  @Test func minimalJobTakesEveryDefault() throws {
    let path = Self.valid("minimal.yaml")
    let (job, warnings) = try JobDecoder.load(path: path, languages: TestLanguages.table)
    #expect(warnings.isEmpty)
    let folder = Self.fixtures.appendingPathComponent("Jobs/valid").path
    var expected = Job(path: path, directory: folder, output: folder + "/output")
    expected.source = job.source
    expected.bytes = job.bytes
    #expect(job == expected)
    #expect(job.include.map(\.value) == ["*"])
    #expect(job.catalogues.map(\.file.value) == ["catalogue.pdf"])
    #expect(job.manifest.value == "favourites.json")
    #expect(job.defaults.text == defaultSampleText)
  }

  @Test func anchorsAndAliases() throws {
    let (job, _) = try JobDecoder.load(
      path: Self.valid("anchors.yaml"), languages: TestLanguages.table)
    #expect(job.title == "Type specimens")
    #expect(job.fonts.isEmpty)
    #expect(job.defaults.size == 24)
    #expect(job.defaults.theme == .cream)
    #expect(job.include.map(\.value) == ["DejaVu Serif", "Noto Serif*"])
    #expect(job.save.map(\.value) == ["DejaVu Serif", "Noto Serif*"])
    guard case .patterns(let names) = job.catalogues.first?.families else {
      Issue.record("catalogue families should be patterns")
      return
    }
    #expect(names.map(\.value) == ["DejaVu Serif", "Noto Serif*"])
  }

  @Test func goldenDumps() throws {
    let root = URL(fileURLWithPath: TestPaths.repository)
    let example = try JobDecoder.decode(
      text: ExampleJob.text, path: "specimens.yaml", directory: root.path,
      languages: TestLanguages.table
    ).job
    try Golden.check(example.dump(), named: "Jobs/example.txt")
    let full = try JobDecoder.load(path: Self.valid("full.yaml"), languages: TestLanguages.table)
      .job
    try Golden.check(full.dump(), named: "Jobs/full.txt")
  }

  @Test func emptyCataloguesListMeansNone() throws {
    #expect(try Self.decode("version: 1\ncatalogues: []\n").job.catalogues.isEmpty)
    #expect(try Self.decode("version: 1\n").job.catalogues.count == 1)
    // A null is not an absent key: `catalogues:` with nothing after it is an error, not the
    // default catalogue.
    #expect(
      Self.errors("version: 1\ncatalogues:\n") == [
        "job.yaml:2:12: catalogues must be a list of catalogues such as { file: catalogue.pdf }, "
          + "not null"
      ])
  }

  @Test func theFavouritesManifestCannotTakeAnotherOutputsPath() throws {
    // The default catalogue (no `catalogues:` key) counts too.
    #expect(
      Self.errors("version: 1\nfavourites: { save: [Lato], manifest: catalogue.pdf }\n") == [
        "job.yaml:2:39: favourites manifest 'catalogue.pdf' is also the catalogue "
          + "'catalogue.pdf' (the default catalogue): the run would write one over the other and "
          + "the saved favourites would be lost"
      ])
    for path in ["specimens/lato.png", "pairings/a+b.png", "specimens", "./pairings/x.json"] {
      #expect(
        Self.errors("version: 1\nfavourites: { manifest: \(path) }\n").count == 1, "\(path)")
    }
    // Beside the run's folders and files is fine.
    for path in ["favourites.json", "specimens.json", "saved/favourites.json", "catalogue.json"] {
      #expect(Self.errors("version: 1\nfavourites: { manifest: \(path) }\n").isEmpty, "\(path)")
    }
  }

  @Test func aNullIsNotAnAbsentKey() throws {
    #expect(
      try Self.decode("version: 1\ndefaults: { size: 24 }\n").job.defaults.text == defaultSampleText
    )
    for text in ["", " ~", " null", " Null", " NULL"] {
      let errors = Self.errors("version: 1\ndefaults:\n  text:\(text)\n")
      let column = text.isEmpty ? 8 : 9  // an empty value is marked where it would start
      #expect(
        errors == ["job.yaml:3:\(column): defaults.text must be text, not null"], "text:\(text)")
    }
    // Quoted, it is the word itself.
    #expect(
      try Self.decode("version: 1\ndefaults: { text: \"null\" }\n").job.defaults.text == "null")
  }

  @Test func quotedWordsAreStringsAndPlainWordsAreTyped() throws {
    let job = try Self.decode("version: 1\ntitle: \"true\"\nauthor: 1984\n").job
    #expect(job.title == "true")
    #expect(job.author == "1984")
    #expect(try !Self.decode("version: 1\npairings: {curated: false}\n").job.curatedPairings)
    #expect(Self.errors("version: 1\npairings: {curated: 'false'}\n").count == 1)
    #expect(Self.errors("version: 1\ndefaults: {size: \"48\"}\n").count == 1)
    #expect(try Self.decode("version: 1\ndefaults: {size: 4.8e1}\n").job.defaults.size == 48)
    #expect(try Self.decode("version: !!int 1\n").job.title == "Type specimens")
    #expect(Self.errors("version: !!str 1\n").count == 1)
  }

  @Test func enumsAreCaseInsensitive() throws {
    let job = try Self.decode(
      "version: 1\ndefaults: {theme: Cream}\ncatalogues: [{file: a.pdf, page: A4}]\n"
    ).job
    #expect(job.defaults.theme == .cream)
    #expect(job.catalogues.first?.page == .a4)
  }

  @Test func repeatsAreWarningsAndDropped() throws {
    let (job, warnings) = try Self.decode(
      "version: 1\nstyles: [bold, bold]\nsizes: [12, 12.0, 24]\n")
    #expect(job.styles == .picks([.slot(.bold)]))
    #expect(job.sizes == [12, 24])
    #expect(
      warnings.map(\.locatedMessage) == [
        "job.yaml:2:16: style 'bold' is listed twice", "job.yaml:3:13: size 12 is listed twice",
      ])
    #expect(warnings.allSatisfy { $0.severity == .warning && $0.snippet != nil })
  }

  @Test func errorsComeInFileOrderWithWarnings() throws {
    do {
      _ = try Self.decode("version: 1\nstyles: [bold, bold]\nsizez: 1\ndefaults: {size: 1}\n")
      Issue.record("expected errors")
    } catch {
      #expect(
        error.diagnostics.map(\.locatedMessage) == [
          "job.yaml:2:16: style 'bold' is listed twice",
          "job.yaml:3:1: unknown key 'sizez' (did you mean 'sizes'?)",
          "job.yaml:4:18: defaults.size 1 pt is outside 12–96 pt",
        ])
    }
  }

  @Test func pathsResolveAgainstTheJobFolder() throws {
    let job = try Self.decode("version: 1\noutput: ../out/./x\n", directory: "/a/b").job
    #expect(job.output == "/a/out/x")
    #expect(try Self.decode("version: 1\noutput: /srv/out/\n").job.output == "/srv/out")
    if let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") {
      let job = try Self.decode("version: 1\noutput: ~/specimens\n")
      #expect(job.job.output == JobPath.normalise(home + "/specimens"))
    }
    let relative = try JobDecoder.decode(
      text: "version: 1\n", path: "jobs/x.yaml", languages: TestLanguages.table
    ).job
    #expect(relative.directory == JobPath.absolute("jobs"))
  }

  @Test func everyProblemIsReportedNotJustTheFirst() throws {
    let errors = Self.errors(
      """
      version: 1
      title: [a]
      defaults: {size: 0, theme: pink, text: ""}
      sizes: [1, 2, 3]
      png: {edge: 1, scale: 9, compression: tiny}
      catalogues: [{file: /x.pdf}, {file: y.txt}]
      """)
    #expect(errors.count == 12, "\(errors)")
  }

  @Test func textLimitsCountCharactersNotBytes() throws {
    // 2,000 characters of 2-byte UTF-8 are within the limit.
    let text = String(repeating: "é", count: 2_000)
    #expect(try Self.decode("version: 1\ndefaults: {text: \(text)}\n").job.defaults.text == text)
    #expect(Self.errors("version: 1\ndefaults: {text: \(text)é}\n").count == 1)
  }

  @Test func unreadableFontIsReported() throws {
    guard getuid() != 0 else { return }  // root reads everything
    let folder = try TemporaryDirectory()
    let font = folder.path + "/locked.ttf"
    #expect(FileManager.default.createFile(atPath: font, contents: Data([0])))
    #expect(chmod(font, 0) == 0)
    let errors = Self.errors("version: 1\nfonts: [\(font)]\n")
    #expect(errors.count == 1 && errors[0].contains("cannot read the font file"), "\(errors)")
  }
}

/// The proofs' keys (`proofs:`, `defaults.language/variations/features`, `families.languages`).
struct JobDecoderProofsTests {
  @Test func everyProofKeyDecodes() throws {
    let (job, warnings) = try JobDecoder.load(
      path: JobDecoderTests.valid("proofs.yaml"), languages: TestLanguages.table)
    #expect(warnings.isEmpty)
    #expect(job.defaults.sample.language == "sr-Latn")
    #expect(
      job.defaults.sample.variations == [
        VariationSetting(tag: "wght", value: 650), VariationSetting(tag: "wdth", value: 87.5),
        VariationSetting(tag: "slnt", value: -10),
      ])
    #expect(
      job.defaults.variationMarks == [
        Mark(line: 6, column: 17), Mark(line: 6, column: 28), Mark(line: 6, column: 40),
      ])
    #expect(
      job.defaults.sample.features == [
        FeatureSetting(tag: "smcp"), FeatureSetting(tag: "liga", value: 0),
        FeatureSetting(tag: "cv01", value: 2), FeatureSetting(tag: "onum"),
      ])
    #expect(job.defaults.featureMarks.map(\.column) == [14, 20, 27, 35])
    #expect(job.languages.map(\.value) == ["vi", "PL", "zh_TW"])
    #expect(job.proofs == ProofOptions(axes: false, features: true, languages: false, glyphs: true))
  }

  @Test func absentKeysKeepTheDefaults() throws {
    let job = try JobDecoderTests.decode("version: 1\n").job
    #expect(job.proofs == ProofOptions(axes: true, features: true, languages: true, glyphs: false))
    #expect(job.defaults.sample == .none)
    #expect(job.languages.isEmpty)
    let some = try JobDecoderTests.decode("version: 1\nproofs: { glyphs: true }\n").job
    #expect(some.proofs == ProofOptions(glyphs: true))
  }

  @Test func languageTagsAreCheckedForShapeOnly() {
    for good in ["en", "sr", "zh-TW", "zh-Hant-TW", "sr-Latn", "gsw", "de-CH-1996", "tlh"] {
      #expect(JobDecoder.languageTagProblem(good) == nil, "\(good)")
    }
    for bad in ["", "e", "en_GB", "en--GB", "-en", "en-", "1en", "en-toolongsubtag", "e n", "ça"] {
      #expect(JobDecoder.languageTagProblem(bad) != nil, "\(bad)")
    }
    #expect(
      JobDecoderTests.errors("version: 1\ndefaults: { language: en_GB }\n").first?.contains(
        "'en_GB' is not a language tag") == true)
  }
}
