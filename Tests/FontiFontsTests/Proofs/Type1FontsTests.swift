import FontTestSupport
import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel

/// Type 1 (and other non-sfnt) faces in proofs and face coverage. fonts-urw-base35 installs
/// each face three times (OpenType, `.t1`, `.pfb`); HarfBuzz reads only the OpenType copy. A
/// Type 1 face has no features, axes or cmap for HarfBuzz and Pango never draws it: that is the
/// format, not an error, and is never a warning. A file that really cannot be read still is,
/// once per family.
@Suite struct Type1FontsTests {
  static let configFile = TestFonts.fixtures + "/type1.conf"
  static let type1Folder = TestFonts.fixtures + "/Type1Fonts"
  static let everything = ProofOptions(axes: true, features: true, languages: true, glyphs: true)

  func family(_ name: String) throws -> FontFamily {
    let environment = try FontEnvironment(configFile: Self.configFile)
    return try #require(environment.catalog.family(named: name), "fixture \(name)")
  }

  /// A face as fontconfig lists it: `format` is its `fontformat`.
  func face(_ file: String, style: String = "Regular", weight: Int = 80, format: String)
    -> FontFace
  {
    FontFace(style: style, weight: weight, slant: 0, file: file, format: format)
  }

  /// A file of bytes that are no font, removed by the caller's `defer`.
  func garbage(in folder: String, _ name: String) throws -> String {
    let path = folder + "/" + name
    let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    return path
  }

  @Test func fontconfigTellsTheFormatOfEachCopy() throws {
    let d050 = try family("D050000L")
    #expect(Set(d050.faces.map(\.format)) == ["CFF", "Type 1"])
    #expect(d050.regularFace?.format == "CFF", "the regular face is the one Pango draws")
    #expect(d050.openTypeFaces.map(\.format) == ["CFF"])
    let symbols = try family("Standard Symbols PS")
    #expect(symbols.faces.map(\.format) == ["Type 1"])
    #expect(!symbols.isRenderable && symbols.openTypeFaces.isEmpty)
  }

  /// (a) The same face as OpenType and as Type 1: the proofs are the OpenType face's, and
  /// the Type 1 copy says nothing.
  @Test func aFamilyWithOpenTypeAndType1CopiesHasNoWarning() throws {
    let both = try family("D050000L")
    let report = FamilyProofReport.read(both, options: Self.everything)
    #expect(report.warnings == [], "\(report.warnings)")
    let openTypeOnly = try #require(
      try TestFonts.environment().catalog.family(named: "D050000L"), "fixture D050000L")
    #expect(report == FamilyProofReport.read(openTypeOnly, options: Self.everything))
    #expect(FaceCoverage.warnings(for: both) == [])
    #expect(ProofReader.layout(both).features == ProofReader.layout(openTypeOnly).features)
  }

  /// (a) with a feature-rich font: a Type 1 copy of the regular style beside the OpenType
  /// face leaves every feature listed, and no warning.
  @Test func featuresStillComeFromTheOpenTypeFaceBesideAType1Copy() throws {
    let otf = TestFonts.proofFontsFolder + "/EBGaramond12-Subset.otf"
    let pfb = Self.type1Folder + "/D050000L.pfb"
    let alone = FontFamily(name: "EB Garamond", faces: [face(otf, format: "CFF")])
    let mixed = FontFamily(
      name: "EB Garamond",
      faces: [face(pfb, format: "Type 1"), face(otf, format: "CFF"), face(pfb, format: "Type 1")])
    let proofs = try ProofReader.read(mixed)
    #expect(proofs.warnings == [])
    #expect(proofs.proofs.features?.contains { $0.tag == "smcp" && $0.visible } == true)
    #expect(proofs == (try ProofReader.read(alone)))
    let report = FamilyProofReport.read(mixed, options: Self.everything)
    #expect(report.warnings == [], "\(report.warnings)")
  }

  /// (b) A family of Type 1 faces only: no proof warning at all (its format has no
  /// features or axes), empty features, and its characters counted from fontconfig's charset.
  @Test func aType1OnlyFamilyHasEmptyProofsAndNoWarning() throws {
    let symbols = try family("Standard Symbols PS")
    let report = FamilyProofReport.read(symbols, options: Self.everything)
    #expect(report.warnings == [], "\(report.warnings)")
    #expect(report.features == [] && report.axes == [] && report.instances == [])
    #expect(report.codepoints == symbols.coverage.count)
    #expect((report.codepoints ?? 0) > 100, "fontconfig reads the Type 1 font's encoding")
    #expect(try ProofReader.read(symbols).proofs == FontProofs())
    #expect(FaceCoverage.warnings(for: symbols) == [])
  }

  /// A style that exists only as Type 1 beside an OpenType regular: Pango never draws it (the
  /// family has no bold), so it has neither features to list nor characters to compare.
  @Test func aStyleOnlyInType1IsNotDrawnAndNotWarnedAbout() throws {
    let otf = TestFonts.fontsFolder + "/D050000L.otf"
    let pfb = Self.type1Folder + "/StandardSymbolsPS.pfb"
    let family = FontFamily(
      name: "D050000L",
      faces: [face(otf, format: "CFF"), face(pfb, style: "Bold", weight: 200, format: "Type 1")])
    #expect(!family.hasBold && family.face(bold: true, italic: false) == nil)
    let report = FamilyProofReport.read(family, options: Self.everything)
    #expect(report.warnings == [], "\(report.warnings)")
  }

  /// (c) Files that are no font at all, listed as OpenType faces (a damaged install): one
  /// warning for the family, naming each file once, and never the readable Type 1 copy.
  @Test func brokenFilesAreNamedOncePerFamily() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let bold = try garbage(in: folder, "Broken-Bold.otf")
    let italic = try garbage(in: folder, "Broken-Italic.ttf")
    let regular = TestFonts.fontsFolder + "/DejaVuSerif.ttf"
    let pfb = Self.type1Folder + "/D050000L.pfb"
    let family = FontFamily(
      name: "Broken",
      faces: [
        face(regular, style: "Book", format: "TrueType"),
        face(pfb, style: "Book", format: "Type 1"),
        face(bold, style: "Bold", weight: 200, format: "CFF"),
        FontFace(style: "Italic", weight: 80, slant: 100, file: italic, format: "TrueType"),
      ])

    for options in [
      Self.everything,
      ProofOptions(axes: false, features: true, languages: false, glyphs: false),
      ProofOptions(axes: false, features: false, languages: true, glyphs: false),
    ] {
      let warnings = FamilyProofReport.read(family, options: options).warnings
      #expect(warnings.count == 1, "\(options): \(warnings)")
      let text = warnings.joined()
      #expect(text.hasPrefix("family 'Broken': "))
      #expect(text.components(separatedBy: "Broken-Bold.otf").count == 2, "\(text)")
      #expect(text.components(separatedBy: "Broken-Italic.ttf").count == 2, "\(text)")
      #expect(text.contains("is not an OpenType or TrueType font"))
      #expect(!text.contains(".pfb"), "the Type 1 copy is readable, its format no error")
    }
  }

  /// A broken regular face: the proofs say so once; the coverage check has nothing to compare.
  @Test func aBrokenRegularFaceIsOneWarning() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let broken = try garbage(in: folder, "Broken-Regular.otf")
    let family = FontFamily(
      name: "Broken",
      faces: [
        face(broken, format: "CFF"),
        face(
          TestFonts.fontsFolder + "/DejaVuSerif-Bold.ttf", style: "Bold", weight: 200,
          format: "TrueType"),
      ])
    let warnings = FamilyProofReport.read(family, options: Self.everything).warnings
    #expect(warnings.count == 1, "\(warnings)")
    #expect(warnings.first?.contains("Broken-Regular.otf") == true)
  }
}
