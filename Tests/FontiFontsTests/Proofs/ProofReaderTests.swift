import FontTestSupport
import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel

/// Axes, instances and features as `ProofReader` reads them from the fixture fonts, checked
/// against what other tools say the fonts hold; the manifest's JSON shape; hostile fonts.
@Suite struct ProofReaderTests {
  static let hostile = TestFonts.fixtures + "/HostileFonts"

  func family(_ name: String) throws -> FontFamily {
    try #require(try TestFonts.proofsEnvironment().catalog.family(named: name), "fixture \(name)")
  }

  func face(_ file: String, index: Int = 0, style: String = "Regular") -> FontFace {
    FontFace(style: style, weight: 80, slant: 0, file: file, index: index)
  }

  // MARK: - Axes and instances

  /// The truth, from `ttx -t fvar InterVariable-Subset.ttf` (fontTools 4.38):
  ///   Axis wght min 100.0 default 400.0 max 900.0, name ID 271 "Weight"
  ///   Axis slnt min -10.0 default 0.0 max 0.0, name ID 272 "Slant"
  ///   18 NamedInstances, name IDs 273…290: Thin (wght 100, slnt 0), Thin Italic (100, -10),
  ///   Extra Light (200, 0), … Regular (400, 0), Italic (400, -10), … Black Italic (900, -10).
  /// `fc-query` agrees: `variable: True`, `weight: [0 210]` (fontconfig's scale for
  /// 100–900), and the style names Thin … Black Italic; it lists 17 named instances plus the
  /// default "Regular" at index 0, because it folds the instance equal to the default into it.
  @Test func axesAndInstancesOfTheVariableFixtureAreTheFontsOwn() throws {
    let inter = try family("Inter")
    let proofs = try ProofReader.read(inter).proofs
    #expect(
      proofs.axes == [
        FontProofs.Axis(tag: "wght", name: "Weight", min: 100, defaultValue: 400, max: 900),
        FontProofs.Axis(tag: "slnt", name: "Slant", min: -10, defaultValue: 0, max: 0),
      ])
    let weights = [
      "Thin", "Extra Light", "Light", "Regular", "Medium", "Semi Bold", "Bold",
      "Extra Bold", "Black",
    ]
    var expected: [FontProofs.Instance] = []
    for (i, weight) in weights.enumerated() {
      let wght = Double(100 * (i + 1))
      expected.append(.init(name: weight, coordinates: ["wght": wght, "slnt": 0]))
      let italic = weight == "Regular" ? "Italic" : weight + " Italic"
      expected.append(.init(name: italic, coordinates: ["wght": wght, "slnt": -10]))
    }
    #expect(proofs.instances == expected)
    #expect(proofs.isVariable)
    #expect(proofs.variationSummary() == "VARIABLE · wght 100–900 · slnt -10–0")
    #expect(proofs.variationSummary(hiding: ["slnt"]) == "VARIABLE · wght 100–900")
    // fontconfig lists each named instance as a face of the family; they are one font file
    // and one face: read once (the reader keys faces by file and face index).
    #expect(inter.faces.count > 1)
    #expect(Set(inter.faces.map { ProofReader.FaceKey($0) }).count == 1)
  }

  @Test func staticFamiliesHaveNoAxesAndNoInstances() throws {
    for name in ["DejaVu Serif", "EB Garamond", "Cantarell", "EB Garamond No Layout"] {
      let proofs = try ProofReader.read(try family(name)).proofs
      #expect(proofs.axes == [], "\(name)")
      #expect(proofs.instances == [], "\(name)")
      #expect(!proofs.isVariable)
      #expect(proofs.variationSummary() == nil)
    }
  }

  @Test func axisSweepsRunFromMinToMaxThroughTheDefault() {
    let weight = FontProofs.Axis(tag: "wght", name: "Weight", min: 100, defaultValue: 400, max: 900)
    #expect(weight.sweep() == [100, 300, 400, 500, 700, 900])
    #expect(weight.sweep(steps: 9) == [100, 200, 300, 400, 500, 600, 700, 800, 900])
    let slant = FontProofs.Axis(tag: "slnt", name: "Slant", min: -10, defaultValue: 0, max: 0)
    #expect(slant.sweep() == [-10, -7.5, -5, -2.5, 0])
    let flat = FontProofs.Axis(tag: "XOPQ", name: "X", min: 5, defaultValue: 5, max: 5)
    #expect(flat.sweep() == [5])
  }

  // MARK: - Features

  /// The truth, from fontTools (`TTFont[...]['GSUB'/'GPOS'].table.FeatureList`, tags
  /// de-duplicated) on the two EB Garamond subsets:
  ///   roman  GSUB c2sc calt case cv01 cv03 cv11 cv21 cv27 cv80 cv81 dlig dnom frac hlig liga
  ///          lnum locl numr onum ordn pnum sinf smcp ss01 ss02 ss07 ss08 ss20 subs sups tnum
  ///          xtex; GPOS kern lfbd mark rtbd size xtex
  ///   italic GSUB c2sc calt case clig cv01 cv03 cv04 cv05 cv27 dlig dnom fina frac hlig init
  ///          liga lnum locl numr onum ordn pnum salt sinf smcp ss02 ss03 ss07 ss10 subs sups
  ///          swsh tnum; GPOS kern size
  /// ss01's FeatureParams name ID 257 reads "Cyrillic alternate de, el and elj".
  @Test func featuresAreTheUnionOverTheFamilysFacesEachTagOnce() throws {
    let proofs = try ProofReader.read(try family("EB Garamond"))
    let features = try #require(proofs.proofs.features)
    let roman = [
      "c2sc", "calt", "case", "cv01", "cv03", "cv11", "cv21", "cv27", "cv80", "cv81", "dlig",
      "dnom", "frac", "hlig", "liga", "lnum", "locl", "numr", "onum", "ordn", "pnum", "sinf",
      "smcp", "ss01", "ss02", "ss07", "ss08", "ss20", "subs", "sups", "tnum", "xtex", "kern",
      "lfbd", "mark", "rtbd", "size",
    ]
    let italicOnly = ["clig", "cv04", "cv05", "fina", "init", "salt", "ss03", "ss10", "swsh"]
    #expect(features.map(\.tag) == Set(roman + italicOnly).sorted())
    #expect(features.map(\.tag) == features.map(\.tag).sorted())
    func feature(_ tag: String) throws -> FontProofs.Feature {
      try #require(features.first { $0.tag == tag }, "\(tag)")
    }
    #expect(
      try feature("smcp")
        == .init(tag: "smcp", name: "Small Capitals", tables: ["GSUB"], visible: true))
    #expect(try feature("kern").tables == ["GPOS"])
    #expect(try feature("xtex").tables == ["GSUB", "GPOS"])
    #expect(try feature("xtex").name == "Unregistered feature")
    #expect(try feature("ss01").name == "Cyrillic alternate de, el and elj")
    #expect(try feature("ss02").name == "Stylistic Set 2")
    #expect(try feature("cv21").name == "Character Variant 21")
    #expect(try feature("onum").name == "Oldstyle Figures")
    // `size` has no lookups: nothing to show.
    #expect(try feature("size").visible == false)
    // A feature only the italic has is sampled in the italic.
    let swash = try #require(proofs.sample(for: "swsh"))
    #expect(swash.style == "12 Italic")
    #expect(swash.file.hasSuffix("EBGaramond12-Italic-Subset.otf"))
    #expect(try #require(proofs.sample(for: "smcp")).style == "12 Regular")
  }

  /// The truth, from fontTools on InterVariable-Subset.ttf: cvNN and ssNN carry their own
  /// names (name IDs 256–270).
  @Test func stylisticSetsAndCharacterVariantsUseTheFontsOwnNames() throws {
    let features = try #require(try ProofReader.read(try family("Inter")).proofs.features)
    let names = Dictionary(uniqueKeysWithValues: features.map { ($0.tag, $0.name) })
    #expect(names["ss01"] == "Open digits")
    #expect(names["ss02"] == "Disambiguation")
    #expect(names["cv01"] == "Alternate one")
    #expect(names["cv11"] == "Single-storey a")
    #expect(names["case"] == "Case-Sensitive Forms")
    #expect(names["cpsp"] == "Capital Spacing")
    #expect(
      features.map(\.tag) == [
        "aalt", "calt", "case", "cpsp", "cv01", "cv02", "cv03", "cv04", "cv05", "cv06", "cv07",
        "cv08", "cv09", "cv10", "cv11", "dnom", "frac", "kern", "numr", "ordn", "pnum", "salt",
        "sinf", "ss01", "ss02", "ss03", "ss04", "subs", "sups", "tnum", "zero",
      ])
  }

  @Test func aFontWithoutLayoutTablesHasNoFeatures() throws {
    let proofs = try ProofReader.read(try family("EB Garamond No Layout"))
    #expect(proofs.proofs.features == [])
    #expect(proofs.samples.isEmpty)
    let dingbats = try ProofReader.read(try family("D050000L"))
    #expect(dingbats.proofs == FontProofs(axes: [], instances: [], features: []))
  }

  @Test func registeredNamesCoverTheRegistryAndItsNumberedPatterns() {
    #expect(FeatureNames.name(for: "aalt") == "Access All Alternates")
    #expect(FeatureNames.name(for: "zero") == "Slashed Zero")
    #expect(FeatureNames.name(for: "ss03") == "Stylistic Set 3")
    #expect(FeatureNames.name(for: "ss20") == "Stylistic Set 20")
    #expect(FeatureNames.name(for: "cv12") == "Character Variant 12")
    #expect(FeatureNames.name(for: "cv99") == "Character Variant 99")
    for unregistered in ["ss21", "ss00", "cv00", "cvXX", "ss1 ", "xtex", "????", "SMCP"] {
      #expect(FeatureNames.name(for: unregistered) == "Unregistered feature", "\(unregistered)")
    }
    #expect(FeatureNames.name(for: "ss01", fontLabel: "Open digits") == "Open digits")
    #expect(FeatureNames.name(for: "ss01", fontLabel: " \u{0}\n ") == "Stylistic Set 1")
    #expect(FeatureNames.registry.count > 120)
    #expect(FeatureNames.registry.keys.allSatisfy { $0.utf8.count == 4 })
  }

  @Test func namesFromFontsAreCleanedAndCapped() {
    #expect(ProofText.clean("Open\tdigits\n") == "Open digits")
    #expect(ProofText.clean("\u{202E}Evil\u{1B}[31m\u{7}") == "Evil [31m")
    #expect(ProofText.clean("  \u{200B} ") == nil)
    let long = ProofText.clean(String(repeating: "x", count: 500))
    #expect(long == String(repeating: "x", count: 63) + "…")
    #expect(ProofText.clean("é" + String(repeating: "ab ", count: 40))?.count == 64)
  }

  // MARK: - The manifest's shape

  @Test func manifestJSONIsSpecShaped() throws {
    let proofs = FontProofs(
      axes: [FontProofs.Axis(tag: "wght", name: "Weight", min: 100, defaultValue: 400, max: 900)],
      instances: [FontProofs.Instance(name: "Bold", coordinates: ["wght": 700])],
      features: [
        FontProofs.Feature(tag: "smcp", name: "Small Capitals", tables: ["GSUB"], visible: true)
      ])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(proofs), as: UTF8.self)
    #expect(
      json
        == #"{"axes":[{"default":400,"max":900,"min":100,"name":"Weight","tag":"wght"}],"#
        + #""features":[{"name":"Small Capitals","tables":["GSUB"],"tag":"smcp","visible":true}],"#
        + #""instances":[{"coordinates":{"wght":700},"name":"Bold"}]}"#)
    #expect(try JSONDecoder().decode(FontProofs.self, from: Data(json.utf8)) == proofs)
    // A proof turned off leaves its fields out, absent rather than empty.
    let noAxes = String(
      decoding: try encoder.encode(proofs.selecting(axes: false, features: true)), as: UTF8.self)
    #expect(
      !noAxes.contains("axes") && !noAxes.contains("instances") && noAxes.contains("features"))
    let nothing = String(
      decoding: try encoder.encode(proofs.selecting(axes: false, features: false)), as: UTF8.self)
    #expect(nothing == "{}")
    // A static font: empty lists, present.
    let plain = String(decoding: try encoder.encode(FontProofs()), as: UTF8.self)
    #expect(plain == #"{"axes":[],"features":[],"instances":[]}"#)
  }

  @Test func readingIsRepeatable() throws {
    let family = try family("EB Garamond")
    #expect(try ProofReader.read(family) == ProofReader.read(family))
  }

  // MARK: - Hostile fonts

  func read(_ path: String) -> Result<FamilyProofs, ProofReadError> {
    let file = path.hasPrefix("/") ? path : ProofReaderTests.hostile + "/" + path
    return Result { () throws(ProofReadError) in
      try ProofReader.read(regular: face(file), faces: [face(file)])
    }
  }

  @Test func filesThatAreNotFontsAreErrorsNotCrashes() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let empty = folder + "/empty.ttf"
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    for path in ["random.ttf", empty, folder + "/missing.ttf", folder] {
      guard case .failure(let error) = read(path) else {
        Issue.record("\(path) was read")
        continue
      }
      #expect(error.description.hasPrefix("font file '"))
    }
    guard case .failure(let random) = read("random.ttf") else { return }
    #expect(random.reason == "is not an OpenType or TrueType font")
  }

  @Test func aTruncatedFontReadsWhatSurvivesOrFails() {
    // The first 6,000 bytes of the Inter subset: its table directory points past the end.
    // HarfBuzz sanitises each table; whatever it keeps, reading must not crash.
    switch read("truncated.ttf") {
    case .success(let proofs):
      #expect(proofs.proofs.features?.allSatisfy { !$0.visible } ?? true)
    case .failure(let error):
      #expect(error.description.contains("truncated.ttf"))
    }
  }

  @Test func hugeNamesWithControlCharactersAreCleanedAndCapped() throws {
    let proofs = try read("huge-names.ttf").get().proofs
    let names =
      (proofs.axes ?? []).map(\.name) + (proofs.instances ?? []).map(\.name)
      + (proofs.features ?? []).map(\.name)
    #expect(names.count > 20)
    for name in names {
      #expect(name.count <= ProofText.maximumLength)
      #expect(
        !name.unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) })
    }
    #expect(proofs.axes?.first?.name.hasPrefix("Evil [31m x") == true)
    #expect(proofs.axes?.first?.name.hasSuffix("…") == true)
    #expect(proofs.features?.first { $0.tag == "ss01" }?.name.hasPrefix("Evil") == true)
  }

  @Test func anEmptyGSUBListsOnlyGPOSFeatures() throws {
    let proofs = try read("empty-gsub.ttf").get().proofs
    #expect(proofs.features?.map(\.tag) == ["cpsp", "kern"])
    #expect(proofs.features?.allSatisfy { $0.tables == ["GPOS"] } == true)
  }

  @Test func aFontWithHundredsOfAxesIsReadUpToTheCap() throws {
    let proofs = try read("many-axes.ttf").get().proofs
    #expect(proofs.axes?.count == 64)
    #expect(
      proofs.axes?.first
        == FontProofs.Axis(tag: "A000", name: "Axis 0", min: 0, defaultValue: 0, max: 1000))
    #expect(proofs.instances?.map(\.name) == ["Instance 0", "Instance 1", "Instance 2"])
    #expect(proofs.instances?.allSatisfy { $0.coordinates.count == 64 } == true)
    #expect(proofs.instances?[2].coordinates["A063"] == 2)
  }

  /// GSUB features whose lookup indices (9999, 65535) do not exist; fvar's first axis with
  /// min 900, default 100, max 50; an instance named by a name ID the font lacks.
  @Test func brokenLayoutAndVariationDataAreReadSafely() throws {
    let proofs = try read("broken-layout.ttf").get()
    let axis = try #require(proofs.proofs.axes?.first)
    #expect(axis.min <= axis.defaultValue && axis.defaultValue <= axis.max)
    #expect(proofs.proofs.instances?[1].name == "Instance 2")
    let gsub = (proofs.proofs.features ?? []).filter { $0.tables == ["GSUB"] }
    #expect(!gsub.isEmpty)
    // Lookups that do not exist change nothing; built-in texts shape the same on and off.
    #expect(gsub.allSatisfy { !$0.visible })
  }
}
