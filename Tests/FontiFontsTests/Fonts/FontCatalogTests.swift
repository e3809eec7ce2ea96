import FontTestSupport
import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

@Suite struct FontCatalogTests {
  @Test func listsTheFixtureFamiliesWithRealTraits() throws {
    let catalog = try TestFonts.environment().catalog
    #expect(
      catalog.families.map(\.name) == [
        "Cantarell", "D050000L", "DejaVu Serif", "Noto Sans Bengali", "Noto Sans Hebrew",
      ])
    let cantarell = try #require(catalog.family(named: "cantarell"))
    #expect(cantarell.hasBold)
    #expect(!cantarell.hasItalic)
    #expect(cantarell.styles == ["Regular", "Bold"])
    let serif = try #require(catalog.family(named: "DejaVu Serif"))
    #expect(serif.hasBold && serif.hasItalic && serif.hasBoldItalic)
    #expect(serif.regularFace?.style == "Book")
    #expect(serif.face(bold: true, italic: true)?.style == "Bold Italic")
    #expect(!serif.isCustom)
    let bengali = try #require(catalog.family(named: "Noto Sans Bengali"))
    #expect(!bengali.hasBold && !bengali.hasItalic)
    #expect(bengali.languages.contains("bn"))
  }

  @Test func coverageCountsWhatTheRegularFaceHas() throws {
    let catalog = try TestFonts.environment().catalog
    let hebrew = try #require(catalog.family(named: "Noto Sans Hebrew"))
    #expect(hebrew.coverage.missing(in: "שלום").isEmpty)
    #expect(hebrew.coverage.missing(in: "שלום abc").count == 3)
    let serif = try #require(catalog.family(named: "DejaVu Serif"))
    #expect(serif.coverage.missing(in: "Sphinx of black quartz").isEmpty)
    #expect(serif.coverage.missing(in: "漢字 and 漢").map(String.init) == ["漢", "字"])
  }

  @Test func selectionMatchesExactNamesAndGlobsAndNeverSubstitutes() throws {
    let catalog = try TestFonts.environment().catalog
    let all = catalog.select(include: [Located("*")], exclude: [Located("noto*")], file: "j.yaml")
    #expect(all.families.map(\.name) == ["Cantarell", "D050000L", "DejaVu Serif"])
    #expect(all.diagnostics.isEmpty)

    let typo = catalog.select(
      include: [Located("DejaVu Serf", at: Mark(line: 4, column: 7)), Located("Zzz*")],
      exclude: [], file: "j.yaml")
    #expect(typo.families.isEmpty)
    let error = try #require(typo.diagnostics.first { $0.isError })
    #expect(
      error.locatedMessage
        == "j.yaml:4:7: family 'DejaVu Serf' is not installed (did you mean 'DejaVu Serif'?)")
    #expect(
      typo.diagnostics.contains {
        $0.severity == .warning && $0.message.contains("'Zzz*' matches no family")
      })

    let georgia = catalog.select(include: [Located("Georgia")], exclude: [], file: nil)
    #expect(georgia.diagnostics.map(\.message) == ["family 'Georgia' is not installed"])
  }

  /// A family installed in several optical sizes under one name (EB Garamond's 08 and 12
  /// cuts) is drawn from its text cut: regular, italic and bold alike, never the caption's.
  @Test func aFamilyInOpticalSizesIsDrawnFromItsTextCut() {
    func face(_ style: String, weight: Int = 80, slant: Int = 0) -> FontFace {
      FontFace(style: style, weight: weight, slant: slant, file: "/\(style).otf", format: "CFF")
    }
    let garamond = FontFamily(
      name: "EB Garamond",
      faces: [
        face("08 Regular"), face("08 Italic", slant: 100), face("12 Bold", weight: 200),
        face("12 Italic", slant: 100), face("12 Regular"),
      ])
    #expect(garamond.regularFace?.style == "12 Regular")
    #expect(garamond.face(bold: false, italic: true)?.style == "12 Italic")
    #expect(garamond.face(bold: true, italic: false)?.style == "12 Bold")
    // Named sizes: the text face before its caption and display cuts, whatever their order.
    let named = FontFamily(
      name: "Minion Like",
      faces: [face("Display"), face("Caption"), face("Regular"), face("Subhead")])
    #expect(named.regularFace?.style == "Regular")
    #expect(FontFamily.opticalDistance("6pt Regular") == 6)
    #expect(FontFamily.opticalDistance("Small Text Italic") == 3)
    #expect(FontFamily.opticalDistance("Bold") == 0)
    #expect(FontFamily.opticalDistance("") == 0)
    #expect(FontFamily.opticalDistance("99999999999999999999 Regular") >= 0)
    // Whatever the case, and only whole words: "Displaced" names no size.
    #expect(FontFamily.opticalDistance("SEMIBOLD CAPTION") == 4)
    #expect(FontFamily.opticalDistance("Poster Italic") == 60)
    #expect(FontFamily.opticalDistance("SmText") == 3)
    #expect(FontFamily.opticalDistance("Displaced") == 0)
    #expect(FontFamily.opticalDistance("Small Caps") == 0)
    #expect(FontFamily.opticalDistance("Légère Display") == 24)
  }

  @Test func type1OnlyFamiliesAreListedButNeverRendered() {
    let type1 = FontFamily(
      name: "Old Roman",
      faces: [FontFace(style: "Regular", weight: 80, slant: 0, file: "/x.pfb", format: "Type 1")])
    let mixed = FontFamily(
      name: "Nimbus Like",
      faces: [
        FontFace(style: "Regular", weight: 80, slant: 0, file: "/n.t1", format: "Type 1"),
        FontFace(style: "Regular", weight: 80, slant: 0, file: "/n.otf", format: "CFF"),
      ])
    #expect(!type1.isRenderable && mixed.isRenderable)
    #expect(mixed.regularFace?.file == "/n.otf", "the face Pango can draw")
    let catalog = FontCatalog(families: [type1, mixed])
    let selection = catalog.select(include: [Located("*")], exclude: [], file: nil)
    #expect(selection.families.map(\.name) == ["Nimbus Like"])
    #expect(
      selection.diagnostics.map(\.message) == [
        "family 'Old Roman' cannot be rendered: its fonts are Type 1, which Pango 1.44+ no longer draws"
      ])
  }

  @Test func patternsAreCaseInsensitiveGlobs() {
    #expect(FamilyPattern("dejavu*").matches("DejaVu Serif"))
    #expect(FamilyPattern("Noto Sans * UI").matches("Noto Sans Thai UI"))
    #expect(!FamilyPattern("Noto Sans * UI").matches("Noto Sans Thai"))
    #expect(FamilyPattern("DEJAVU SERIF").matches("DejaVu Serif"))
    #expect(!FamilyPattern("DejaVu").matches("DejaVu Serif"))
  }

  @Test func eachFamilyHasItsRegularFacesLanguagesAsFontconfigReadsItsFile() throws {
    // The listing turns each distinct language set into codes once (`LanguageSets`) and shares
    // them: EB Garamond and EB Garamond No Layout have one set, and every family must still
    // get its own face's codes.
    let environment = try TestFonts.proofsEnvironment()
    let families = environment.catalog.families
    #expect(families.count >= 9)
    for family in families {
      let regular = try #require(family.regularFace)
      let expected = try FontconfigQuery(file: regular.file).languages
      #expect(family.languages == expected, "\(family.name)")
    }
    let garamond = try #require(environment.catalog.family(named: "EB Garamond"))
    let noLayout = try #require(environment.catalog.family(named: "EB Garamond No Layout"))
    let hebrew = try #require(environment.catalog.family(named: "Noto Sans Hebrew"))
    #expect(garamond.languages.contains("sw"))
    #expect(noLayout.languages == garamond.languages)
    #expect(hebrew.languages.contains("he") && !hebrew.languages.contains("sw"))
  }

  @Test func customFontsLiveInTheirOwnConfigurationAndShadowInstalledNames() throws {
    let file = TestFonts.fontsFolder + "/Cantarell-Regular.otf"
    let environment = try TestFonts.environment(custom: [file])
    let cantarell = try #require(environment.catalog.family(named: "Cantarell"))
    #expect(cantarell.isCustom)
    #expect(cantarell.files == [file])
    #expect(environment.catalog.shadowed == ["cantarell"])
  }

  @Test func refusesFilesThatAreNotFonts() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let empty = folder + "/empty.ttf"
    let text = folder + "/text.ttf"
    let truncated = folder + "/truncated.otf"
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    _ = FileManager.default.createFile(
      atPath: text, contents: Data("hello, I am not a font\n".utf8))
    let whole = try #require(
      FileManager.default.contents(atPath: TestFonts.fontsFolder + "/Cantarell-Regular.otf"))
    _ = FileManager.default.createFile(atPath: truncated, contents: whole.prefix(whole.count / 2))
    func reason(_ path: String) -> String? {
      if case .failure(let refusal) = FontFiles.inspect(path) { return refusal.description }
      return nil
    }
    #expect(reason(empty) == "is empty (0 bytes)")
    #expect(reason(text) == "is not a TrueType or OpenType font")
    #expect(reason(truncated)?.hasPrefix("is truncated") == true)
    #expect(reason(folder + "/missing.ttf") == "cannot be read")
    let good = try FontFiles.inspect(TestFonts.fontsFolder + "/DejaVuSerif-Bold.ttf").get()
    #expect(good.families == ["DejaVu Serif"])
  }
}

@Suite struct FontFolderSearchTests {
  /// Creates a file at a path given as bytes (a name that is not UTF-8 has no `String`).
  func create(_ path: [UInt8], contents: [UInt8]) {
    let fd = FileSystem.withPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    #expect(fd >= 0)
    _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }

  @Test func findsFontFilesAndNamesWhatItCannotFollow() throws {
    let folder = try TestFonts.temporaryFolder()
    let outside = try TestFonts.temporaryFolder()
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: outside)
    }
    let font = try #require(
      FileManager.default.contents(atPath: TestFonts.fontsFolder + "/DejaVuSerif-Bold.ttf"))
    let manager = FileManager.default
    try manager.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
    _ = manager.createFile(atPath: folder + "/a.ttf", contents: font)
    _ = manager.createFile(atPath: folder + "/sub/B.OTF", contents: font)
    _ = manager.createFile(atPath: folder + "/.hidden.ttf", contents: font)
    _ = manager.createFile(atPath: folder + "/notes.txt", contents: Data("x".utf8))
    _ = manager.createFile(atPath: outside + "/elsewhere.ttf", contents: font)
    try manager.createSymbolicLink(
      atPath: folder + "/link.ttf", withDestinationPath: outside + "/elsewhere.ttf")
    try manager.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: outside)
    // "Hébrew.ttf" in Latin-1, and a text file so named, which is no concern of the search.
    create(
      Array((folder + "/sub/H").utf8) + [0xE9] + Array("brew.ttf".utf8), contents: [UInt8](font))
    create(Array((folder + "/caf").utf8) + [0xE9] + Array(".txt".utf8), contents: [0x78])

    // Links are followed, as fontconfig follows them; a loop of them is searched once.
    try manager.createSymbolicLink(atPath: folder + "/sub/loop", withDestinationPath: folder)
    try manager.createSymbolicLink(
      atPath: folder + "/gone.ttf", withDestinationPath: outside + "/never-there.ttf")
    try manager.createSymbolicLink(
      atPath: folder + "/gone.txt", withDestinationPath: outside + "/never-there.txt")

    let search = FontFiles.search(folder)
    #expect(
      search.files == [
        folder + "/a.ttf", folder + "/link.ttf", folder + "/linked/elsewhere.ttf",
        folder + "/sub/B.OTF",
      ])
    #expect(
      search.problems == [
        .init(
          path: folder + "/gone.ttf", reason: "is a link to nothing"),
        .init(
          path: folder + "/sub/H\\xE9brew.ttf", reason: "has a name that is not UTF-8: rename it"),
      ])

    // A job naming the folder is refused, at its entry, rather than run without the font.
    let (files, diagnostics) = FontFiles.expand([Located(folder)], file: "job.yaml")
    // The file reached through two links is read once.
    #expect(files.map(\.path) == [folder + "/a.ttf", folder + "/link.ttf", folder + "/sub/B.OTF"])
    #expect(
      diagnostics.filter(\.isError).map(\.message) == [
        "font folder '\(folder)': '\(folder)/gone.ttf' is a link to nothing",
        "font folder '\(folder)': '\(folder)/sub/H\\xE9brew.ttf' has a name that is not UTF-8: "
          + "rename it",
      ])
  }

  @Test func aLoopOfLinksAndManyProblemsAreSaidBriefly() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let manager = FileManager.default
    try manager.createSymbolicLink(atPath: folder + "/a", withDestinationPath: folder + "/b")
    try manager.createSymbolicLink(atPath: folder + "/b", withDestinationPath: folder + "/a")
    let (_, loop) = FontFiles.expand([Located(folder + "/a")], file: nil)
    #expect(
      loop.map(\.message) == [
        "font path '\(folder)/a' cannot be read (Too many levels of symbolic links)"
      ])
    // Twelve names that are not UTF-8: ten named, then a count.
    try manager.createDirectory(atPath: folder + "/many", withIntermediateDirectories: true)
    for n in 0..<12 {
      create(Array((folder + "/many/\(n)").utf8) + [0xFF] + Array(".ttf".utf8), contents: [0])
    }
    let (_, many) = FontFiles.expand([Located(folder + "/many")], file: nil)
    #expect(many.count == FontFiles.problemsShown + 1)
    #expect(many.last?.message == "font folder '\(folder)/many': 2 more entries like these")
  }

  @Test func aFolderThatCannotBeReadIsAProblem() throws {
    let search = FontFiles.search("/nonexistent-fonti-folder")
    #expect(search.files.isEmpty)
    #expect(
      search.problems == [
        .init(
          path: "/nonexistent-fonti-folder", reason: "cannot be read (No such file or directory)")
      ])
  }

  @Test func displaysBytesThatAreNotUTF8AsEscapes() {
    #expect(FileSystem.display(Array("é/ok".utf8)) == "é/ok")
    #expect(FileSystem.display([0x61, 0xE9, 0x0A, 0xFF]) == "a\\xE9\n\\xFF")
    #expect(FileSystem.display([0xE2, 0x82]) == "\\xE2\\x82")  // a cut sequence
  }
}
