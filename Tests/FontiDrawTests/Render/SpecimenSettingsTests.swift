import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A job's sample settings on specimens: a feature, a coordinate and a language change the
/// sample's pixels and never the label; a variable family shows its quiet line; the proofs the
/// request asks for come back with the result.
@Suite(.serialized) struct SpecimenSettingsTests {
  let environment: FontEnvironment
  let renderer: SpecimenRenderer
  static let edge = 540

  init() throws {
    environment = try TestFonts.proofsEnvironment()
    renderer = SpecimenRenderer(environment: environment)
  }

  func draw(
    _ name: String, text: String = "Sphinx of black quartz, judge my vow 1/2",
    sample: SampleSettings? = nil, proofs: ProofOptions? = nil
  ) throws -> (image: RasterImage, result: SpecimenResult) {
    let family = try #require(environment.catalog.family(named: name))
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/s.png"
    let result = try renderer.render(
      SpecimenRequest(family: family, text: text, edge: Self.edge, sample: sample, proofs: proofs),
      to: path)
    return (try #require(RasterImage.load(png: path)), result)
  }

  /// Rows `range` (in 1080 units) of `image`.
  func rows(_ image: RasterImage, _ range: Range<Double>) -> ArraySlice<UInt32> {
    let k = Double(image.height) / 1080
    let from = Int(range.lowerBound * k) * image.width
    let to = Int(range.upperBound * k) * image.width
    return image.pixels[from..<to]
  }

  /// Whether rows `range` of two images are the same (a Bool, so that a failure does not
  /// print every pixel).
  func same(_ a: RasterImage, _ b: RasterImage, _ range: Range<Double>) -> Bool {
    rows(a, range) == rows(b, range)
  }

  /// Pixels of `range` that are not the ink background.
  func ink(_ image: RasterImage, _ range: Range<Double>) -> Int {
    let background = image.pixels[0]
    return rows(image, range).filter { $0 != background }.count
  }

  @Test func aFeatureChangesTheSampleNotTheLabel() throws {
    let plain = try draw("EB Garamond").image
    let smallCaps = try draw("EB Garamond", sample: SampleSettings(features: [.init(tag: "smcp")]))
      .image
    #expect(same(plain, smallCaps, 0..<140), "the label is never set with it")
    #expect(!same(plain, smallCaps, 180..<900), "the sample is")
  }

  @Test func aCoordinateChangesTheSampleNotTheLabel() throws {
    let plain = try draw("Inter").image
    let black = try draw(
      "Inter", sample: SampleSettings(variations: [.init(tag: "wght", value: 900)]))
    #expect(same(plain, black.image, 0..<175), "label and variable line")
    #expect(ink(black.image, 180..<900) > ink(plain, 180..<900) * 11 / 10, "heavier ink")
    // Out of range: clamped, so drawn as 900.
    let over = try draw(
      "Inter", sample: SampleSettings(variations: [.init(tag: "wght", value: 5000)]))
    #expect(over.image == black.image)
  }

  @Test func theLanguageShapesTheSample() throws {
    // EB Garamond's `locl` for Serbian and Macedonian draws other forms of б, г, д, п, т.
    let text = "бгдпт бгдпт"
    let plain = try draw("EB Garamond", text: text).image
    let serbian = try draw("EB Garamond", text: text, sample: SampleSettings(language: "sr")).image
    #expect(same(plain, serbian, 0..<140))
    #expect(!same(plain, serbian, 180..<900))
  }

  @Test func aVariableFamilyShowsOneQuietLineAndAStaticOneNone() throws {
    // Between the header rule and the sample: the variable line, nothing for a static family.
    let band = 142.0..<178.0
    #expect(ink(try draw("Inter").image, band) > 0)
    #expect(ink(try draw("EB Garamond").image, band) == 0)
  }

  @Test func pairingSheetsSetTheirTextsWithTheSettingsAndNotTheirCaptions() throws {
    let garamond = try #require(environment.catalog.family(named: "EB Garamond"))
    let inter = try #require(environment.catalog.family(named: "Inter"))
    func sheet(_ sample: SampleSettings?) throws -> RasterImage {
      let folder = try TestFonts.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let path = folder + "/p.png"
      _ = try renderer.renderPairing(
        PairingSheetRequest(
          heading: garamond, body: inter, reason: "r", edge: Self.edge, sample: sample),
        to: path)
      return try #require(RasterImage.load(png: path))
    }
    let plain = try sheet(nil)
    // Small capitals: only the heading (EB Garamond) has them, Inter has no `smcp`.
    let smallCaps = try sheet(SampleSettings(features: [.init(tag: "smcp")]))
    // Weight: only the body (Inter) is variable.
    let heavy = try sheet(SampleSettings(variations: [.init(tag: "wght", value: 900)]))
    for set in [smallCaps, heavy] {
      #expect(same(plain, set, 0..<110), "the PAIRING caption")
      #expect(same(plain, set, 940..<1080), "the footer captions")
    }
    #expect(!same(plain, smallCaps, 110..<940), "the heading")
    #expect(ink(heavy, 110..<940) > ink(plain, 110..<940) * 11 / 10, "the body")
  }

  @Test func theProofsAskedForComeBack() throws {
    let all = try draw("Inter", proofs: .standard).result.proofs
    #expect(all?.axes?.map(\.tag) == ["wght", "slnt"])
    #expect(all?.instances?.count == 18)
    #expect(all?.features?.contains { $0.tag == "cv01" } == true)
    #expect(all?.languages != nil)
    #expect(all?.codepoints ?? 0 > 0)
    let some = try draw(
      "Inter", proofs: ProofOptions(axes: false, features: false, languages: true)
    )
    .result.proofs
    #expect(some?.axes == nil && some?.instances == nil && some?.features == nil)
    #expect(some?.languages != nil && some?.codepoints != nil)
    #expect(try draw("Inter").result.proofs == nil, "none asked, none read")
  }
}
