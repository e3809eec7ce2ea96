import CFontconfig
import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// The font-map factory: each drawing's map holds exactly the faces asked for, made from
/// fontconfig's patterns (its caches; custom files read once, lazily), so that no other font
/// can reach a drawing and a family costs the same whatever else is installed.
@Suite struct FontMapsTests {
  let environment: FontEnvironment

  init() throws {
    environment = try TestFonts.environment()
  }

  func family(_ name: String, in environment: FontEnvironment? = nil) throws -> FontFamily {
    try #require((environment ?? self.environment).catalog.family(named: name))
  }

  /// A worker's factory: the fixtures' configuration, and `custom` files to read on demand.
  func workerMaps(custom: [String] = []) throws -> FontMaps {
    let system = try FontconfigConfiguration.loaded(file: TestFonts.configFile)
    return FontMaps(
      patterns: FacePatterns(configurations: [(system, custom: false)], customFiles: custom))
  }

  static let customFiles = [
    TestFonts.fixtures + "/ExampleFonts/DejaVuSans-Subset.ttf",
    TestFonts.proofFontsFolder + "/EBGaramond12-Subset.otf",
    TestFonts.proofFontsFolder + "/InterVariable-Subset.ttf",
  ]

  @Test func aMapHoldsExactlyTheFacesAskedFor() throws {
    let serif = try family("DejaVu Serif")
    let cantarell = try family("Cantarell")
    let maps = FontMaps(environment: environment)

    let one = try maps.map(for: [serif])
    #expect(one.heldFamilies.map(\.name) == ["DejaVu Serif"])
    #expect(Set(one.heldFamilies.flatMap(\.faces)) == Set(serif.faces))
    // Asked again for the same family: the same map, not another configuration.
    #expect(try maps.map(for: [serif]) === one)

    let two = try maps.map(for: [serif, cantarell])
    #expect(two !== one)
    #expect(two.heldFamilies.map(\.name).sorted() == ["Cantarell", "DejaVu Serif"])
    #expect(Set(two.heldFamilies.flatMap(\.faces)) == Set(serif.faces + cantarell.faces))
    #expect(!two.heldFamilies.contains { $0.name == "Noto Sans Bengali" })
  }

  /// A run's worker keeps the last map only; `serve`'s keep a screenful: families drawn again
  /// get the map (and the fonts Pango loaded with it) they had, and the families a worker
  /// makes from their faces are the ones it made the first time.
  @Test func aWorkerKeepsTheMapsOfItsLastFamilies() throws {
    let serif = try family("DejaVu Serif")
    let cantarell = try family("Cantarell")
    let one = FontMaps(environment: environment)
    let first = try one.map(for: [serif])
    _ = try one.map(for: [cantarell])
    #expect(try one.map(for: [serif]) !== first)

    let kept = FontMaps(environment: environment)
    kept.kept = 2
    let serifMap = try kept.map(for: [serif])
    let cantarellMap = try kept.map(for: [cantarell])
    for _ in 0..<3 {
      #expect(try kept.map(for: [serif]) === serifMap)
      #expect(try kept.map(for: [cantarell]) === cantarellMap)
    }
    // A third family forgets the least recently drawn: Cantarell was drawn after the serif.
    _ = try kept.map(for: [serif, cantarell])
    #expect(try kept.map(for: [cantarell]) === cantarellMap)
    #expect(try kept.map(for: [serif]) !== serifMap)

    let maps = try workerMaps()
    maps.kept = 4
    let refs = [FamilyRef(serif), FamilyRef(cantarell)]
    let made = maps.families(for: refs)
    _ = maps.families(for: [FamilyRef(try family("Noto Sans Hebrew"))])
    let again = maps.families(for: refs)
    #expect(again.found == made.found)
    #expect(again.problems.isEmpty)
    #expect(made.found.count == 2)
  }

  /// A font Pango has not loaded before is matched on the thread that asks for it, not on two
  /// threads Pango starts and waits for (CPangoMatch overrides GLib's `g_thread_new` for them):
  /// each drawing's map is new, so each of its patterns would cost two threads. The font is
  /// the one fontconfig's own threads would have found.
  @Test func pangoMatchesFontsOnTheCallingThread() throws {
    let serif = try family("DejaVu Serif")
    let cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
    let before = FontMap.matchesRunInline
    let context = try FontMaps(environment: environment).map(for: [serif]).makeContext(for: cr)
    let loaded = context.loadedFile(for: FontSpec(family: serif.name, size: 37, face: nil))
    #expect(loaded?.file == serif.regularFace?.file)
    // One match and one sort for the new pattern (other suites may load fonts meanwhile).
    #expect(FontMap.matchesRunInline >= before + 2)
  }

  /// Pango 1.50 keeps a reference to a font map's configuration after the map is gone: the
  /// configuration made for a drawing lets its fonts go when the last map that used it does,
  /// so a catalogue of 1,000 families does not keep every family's patterns to its end.
  @Test func aDrawingsConfigurationLetsItsFontsGoWithIt() throws {
    let serif = try family("DejaVu Serif")
    let patterns = FacePatterns(configurations: [(environment.system, custom: false)])
    var found: [FacePatterns.Pattern] = []
    for face in serif.faces {
      found += try patterns.patterns(of: face, family: serif.name, custom: false)
    }
    #expect(found.count == serif.faces.count)
    var configuration: FontconfigConfiguration? = try .holding(found, files: serif.files)
    let pointer = try #require(configuration?.pointer)
    _ = FcConfigReference(pointer)  // what Pango keeps
    func held() -> Int32 { FcConfigGetFonts(pointer, FcSetApplication)?.pointee.nfont ?? 0 }
    #expect(held() == Int32(found.count))
    configuration = nil
    #expect(held() == 0)
    FcConfigDestroy(pointer)
  }

  /// A worker that takes installed fonts folder by folder finds, for every face of every
  /// installed family, the patterns a worker with every installed font finds, in the same order
  /// (fontconfig's tie-break), and never loads them all (the fixtures: one folder; the proofs'
  /// fixtures: two).
  @Test(arguments: [TestFonts.configFile, TestFonts.proofsConfigFile])
  func folderByFolderFindsWhatEveryFontFinds(file: String) throws {
    let system = try FontconfigConfiguration.loaded(file: file)
    let folders = system.installedFolders()
    #expect(!folders.isEmpty)
    #expect(folders.allSatisfy { $0.hasPrefix("/") && !$0.hasSuffix("/") })
    #expect(Set(folders).count == folders.count)
    let all = FacePatterns(configurations: [(system, custom: false)])
    let byFolder = try FacePatterns(
      configurationFile: file, installedFolders: folders, customFiles: [])
    let families = try FontEnvironment(configFile: file).catalog.families
    #expect(families.count >= 5)
    var everyFont: [FacePatterns.Pattern] = []
    var folderwise: [FacePatterns.Pattern] = []
    // Asked for in the opposite order, so that folders are added in another order than
    // fontconfig's: the patterns must keep fontconfig's all the same.
    for family in families.reversed() {
      for face in family.faces.reversed() {
        folderwise += try byFolder.patterns(of: face, family: family.name, custom: false)
      }
    }
    for family in families {
      for face in family.faces {
        let a = try all.patterns(of: face, family: family.name, custom: false)
        let b = try byFolder.patterns(of: face, family: family.name, custom: false)
        #expect(!a.isEmpty)
        #expect(a.map(\.text) == b.map(\.text), "\(family.name) \(face.style)")
        everyFont += a
      }
    }
    // Every face of every family in one list: the same order both ways (each pattern named
    // by its place in the first list, so that a failure prints numbers).
    let place = Dictionary(
      everyFont.enumerated().map { ($1.text, $0) }, uniquingKeysWith: { a, _ in a })
    #expect(
      everyFont.sorted { $0.order < $1.order }.map { place[$0.text] ?? -1 }
        == folderwise.sorted { $0.order < $1.order }.map { place[$0.text] ?? -1 })
    #expect(byFolder.byFolder)
  }

  /// A face whose folder the parent did not list (installed since): every installed font is
  /// loaded, and the face is found all the same.
  @Test func aFolderTheParentDidNotSeeLoadsEveryFont() throws {
    let serif = try family("DejaVu Serif")
    let patterns = try FacePatterns(
      configurationFile: TestFonts.configFile, installedFolders: [], customFiles: [])
    let found = try patterns.patterns(of: serif.faces[0], family: serif.name, custom: false)
    #expect(!found.isEmpty)
    #expect(!patterns.byFolder)
    let maps = FontMaps(patterns: patterns)
    #expect(try maps.map(for: [serif]).heldFamilies.map(\.name) == ["DejaVu Serif"])
  }

  /// One family found folder by folder, the next one not where the parent saw it: the map of
  /// both holds their patterns in the order of a worker that loaded every font, not in an order
  /// half from each way.
  @Test func aMapMadeAcrossTheFallBackKeepsOneOrder() throws {
    let file = TestFonts.proofsConfigFile
    let proofs = try FontEnvironment(configFile: file)
    let system = try FontconfigConfiguration.loaded(file: file)
    let folders = system.installedFolders()
    try #require(folders.count == 2)
    let first = try #require(
      proofs.catalog.families.first { FacePatterns.folder(of: $0.faces[0].file) == folders[0] })
    let second = try #require(
      proofs.catalog.families.first { FacePatterns.folder(of: $0.faces[0].file) == folders[1] })
    // The first family's folder last among three, the second's unknown.
    let patterns = try FacePatterns(
      configurationFile: file, installedFolders: ["/nowhere/a", "/nowhere/b", folders[0]],
      customFiles: [])
    let held = try FontMaps(patterns: patterns).map(for: [first, second]).heldPatterns
    #expect(!patterns.byFolder)
    let everyFont = FacePatterns(configurations: [(system, custom: false)])
    #expect(held == (try FontMaps(patterns: everyFont).map(for: [first, second]).heldPatterns))
  }

  @Test func aFontFilesFolderIsWhatPrecedesItsLastSlash() {
    #expect(FacePatterns.folder(of: "/usr/share/fonts/a/b.ttf") == "/usr/share/fonts/a")
    #expect(FacePatterns.folder(of: "/b.ttf") == "/")
    #expect(FacePatterns.folder(of: "b.ttf") == ".")
    #expect(FacePatterns.folder(of: "/fonts/ü é/b.ttf") == "/fonts/ü é")
  }

  @Test func aWorkerMakesTheSameFamiliesAsTheParentFromTheirFaces() throws {
    let maps = try workerMaps()
    let names = ["DejaVu Serif", "Cantarell", "Noto Sans Hebrew", "D050000L"]
    let refs = try names.map { FamilyRef(try family($0)) }
    let made = maps.families(for: refs)
    #expect(made.problems.isEmpty)
    for (name, ref) in zip(names, refs) {
      // Languages, coverage, symbol flag, faces in order: what the parent listed.
      #expect(made.found[ref] == (try family(name)), "\(name)")
    }
  }

  /// The test: DejaVu Serif lacks Bengali, and Noto Sans Bengali, which has it, is
  /// installed beside it. Even with Pango's font fallback ON, a specimen's map cannot give
  /// DejaVu Serif's text a Bengali glyph: no other font is in it.
  @Test func aFamilysDrawingNeverGetsAnotherFontsGlyph() throws {
    let serif = try family("DejaVu Serif")
    let bengali = "বাংলা"
    #expect(try family("Noto Sans Bengali").coverage.missing(in: bengali).isEmpty)
    #expect(serif.coverage.missing(in: bengali).count == 4)

    let renderer = SpecimenRenderer(environment: environment)
    let surface = try CairoSurface.image(width: 200, height: 200)
    let cr = try CairoContext(surface)
    let context = try renderer.itemMap([serif]).makeContext(for: cr)
    let spec = FontSpec(family: serif.name, size: 40, face: serif.regularFace)
    let layout = TextLayout(bengali, font: spec, in: context, fallback: true)
    #expect(layout.unknownGlyphs == bengali.unicodeScalars.count)
    // What the same layout gets from a map of every installed font (the design before #15):
    // the Bengali font's glyphs. So the count above is the per-drawing map's doing.
    let shared = FontMap(configuration: environment.system).makeContext(for: cr)
    #expect(TextLayout(bengali, font: spec, in: shared, fallback: true).unknownGlyphs == 0)
    // Asked for by name, the Bengali font is simply not there.
    let asked = context.loadedFile(for: FontSpec(family: "Noto Sans Bengali", size: 12))
    #expect(asked.map { serif.files.contains($0.file) } ?? true)

    // And a whole specimen counts the characters as missing.
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try renderer.render(
      SpecimenRequest(family: serif, text: "Hello \(bengali)"), to: folder + "/s.png")
    #expect(result.missingGlyphs == bengali.unicodeScalars.count)
  }

  @Test func customFontsAreReadLazilyAndOncePerWorker() throws {
    let parent = try TestFonts.environment(custom: Self.customFiles)
    let custom = parent.catalog.families.filter(\.isCustom)
    #expect(custom.map(\.name).sorted() == ["DejaVu Sans", "EB Garamond", "Inter"])
    let maps = try workerMaps(custom: Self.customFiles)
    #expect(maps.patterns.scans == 0)

    let garamond = FamilyRef(try family("EB Garamond", in: parent))
    let made = maps.families(for: [garamond])
    #expect(made.found[garamond] == (try family("EB Garamond", in: parent)))
    #expect(maps.patterns.scans == 1)
    _ = maps.families(for: [garamond])
    _ = try maps.map(for: [try family("EB Garamond", in: parent)])
    #expect(maps.patterns.scans == 1)

    // A variable font: its named instances and the font as a whole, as the parent listed them.
    let inter = try family("Inter", in: parent)
    #expect(inter.faces.count > 1)
    let made2 = maps.families(for: [FamilyRef(inter)])
    #expect(made2.found[FamilyRef(inter)] == inter)
    #expect(maps.patterns.scans == 2)
  }

  @Test func aFaceFileRemovedAfterListingFailsItsFamilyByName() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let copy = folder + "/Garamond.otf"
    try FileManager.default.copyItem(
      atPath: TestFonts.proofFontsFolder + "/EBGaramond12-Subset.otf", toPath: copy)
    let parent = try TestFonts.environment(custom: [copy])
    let garamond = try family("EB Garamond", in: parent)
    try FileManager.default.removeItem(atPath: copy)

    // A worker, which reads the file only now.
    let maps = try workerMaps(custom: [copy])
    let made = maps.families(for: [FamilyRef(garamond)])
    #expect(made.found.isEmpty)
    let problem = try #require(made.problems[FamilyRef(garamond)])
    #expect(problem.contains(copy) && problem.contains("gone"))

    // In process (`render`): the pattern is known, the file is not there to draw.
    let renderer = SpecimenRenderer(environment: parent)
    #expect {
      try renderer.render(SpecimenRequest(family: garamond), to: folder + "/s.png")
    } throws: { "\($0)".contains(copy) }
    #expect(!FileManager.default.fileExists(atPath: folder + "/s.png"))
  }

  @Test func aCustomFontFreeTypeCannotReadFailsOnceAndSaysSo() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bad = folder + "/Bad.ttf"
    try Data("not a font at all".utf8).write(to: URL(fileURLWithPath: bad))
    let maps = try workerMaps(custom: [bad])
    let ref = FamilyRef(
      name: "Bad", custom: true,
      faces: [FontFace(style: "Regular", weight: 80, slant: 0, file: bad)]
    )
    for _ in 0..<2 {
      let made = maps.families(for: [ref])
      let problem = try #require(made.problems[ref])
      #expect(problem.contains(bad) && problem.contains("FreeType"))
    }
    #expect(maps.patterns.scans == 1)
  }

  @Test func aFaceThatIsNoCustomFileOfTheRunIsNeverRead() throws {
    // A custom family whose file the worker was not told about: not scanned, not found.
    let maps = try workerMaps(custom: [])
    let file = TestFonts.proofFontsFolder + "/EBGaramond12-Subset.otf"
    let ref = FamilyRef(
      name: "EB Garamond", custom: true,
      faces: [FontFace(style: "Regular", weight: 80, slant: 0, file: file)])
    let made = maps.families(for: [ref])
    #expect(made.problems[ref]?.contains(file) == true)
    #expect(maps.patterns.scans == 0)
  }
}
