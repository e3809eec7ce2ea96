import FontTestSupport
import FontiSupport
import FontiText
import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel

/// The sampler's last stage (`FeatureSampler.sampleFromRules`): a feature no earlier try shows
/// is tried on texts built from its own rules, and one that still shows nothing says why
/// (`FontProofs.NoEffect`), on the proofs fixtures.
@Suite struct FeatureSamplerRulesTests {
  static func sampler(_ path: String) throws -> FeatureSampler {
    FeatureSampler(face: try HarfBuzzFace(file: path))
  }
  static let proofFonts = TestFonts.proofFontsFolder

  /// Noto Sans Arabic's `rlig` (lam-alef, made in contexts the built-in texts and the
  /// lookups' glyph sets do not reach) showed nothing before the rules were read.
  @Test func featureFoundThroughItsRules() throws {
    let sampler = try Self.sampler(Self.proofFonts + "/NotoSansArabic-Subset.ttf")
    let found = sampler.findings(tag: "rlig", tables: [.gsub])
    let sample = try #require(found.sample, "rlig: tried \(found.tried.map(\.text))")
    #expect(found.noEffect == nil)
    // The sample shapes otherwise with rlig off and on.
    let (off, on) = sampler.shapeBoth(
      Array(sample.text.unicodeScalars), tag: HarfBuzzTag.make("rlig"), value: 1,
      language: sample.language)
    #expect(sampler.looksDifferent(off, on))
    // Rules were read only because every earlier stage failed: a feature a built-in text
    // shows reads none.
    let other = try Self.sampler(Self.proofFonts + "/EBGaramond12-Subset.otf")
    #expect(other.findings(tag: "liga", tables: [.gsub]).sample != nil)
    #expect(other.ruleSources.isEmpty)
    // In a face after the first that has the feature, the rules are not read: rlig shows
    // nothing there, and says no reason.
    let later = try Self.sampler(Self.proofFonts + "/NotoSansArabic-Subset.ttf")
    let skipped = later.findings(tag: "rlig", tables: [.gsub], rules: false)
    #expect(skipped.sample == nil && skipped.noEffect == nil)
    #expect(later.ruleSources.isEmpty)
  }

  /// EB Garamond's figures are old-style and proportional by default: `onum` and `pnum` act
  /// only on the figures `lnum` and `tnum` make.
  @Test func figuresAlreadyInThatForm() throws {
    let sampler = try Self.sampler(Self.proofFonts + "/EBGaramond12-Subset.otf")
    for tag in ["onum", "pnum"] {
      let found = sampler.findings(tag: tag, tables: [.gsub])
      #expect(found.sample == nil, "\(tag)")
      #expect(found.noEffect == .alreadyDefault, "\(tag)")
    }
    #expect(
      FontProofs.NoEffect.alreadyDefault.phrase(tag: "pnum") == "figures already proportional")
    #expect(FontProofs.NoEffect.drawsAlike.phrase(tag: "tnum") == "figures already tabular")
    // Inter's pnum gives figures that draw as its defaults (outline and advance).
    let inter = try Self.sampler(Self.proofFonts + "/InterVariable-Subset.ttf")
    #expect(inter.findings(tag: "pnum", tables: [.gsub]).noEffect == .drawsAlike)
  }

  /// Noto Sans Devanagari's `haln` acts on a virama after a consonant cluster the subset's
  /// characters cannot make.
  @Test func contextThatCannotBeMade() throws {
    let sampler = try Self.sampler(Self.proofFonts + "/NotoSansDevanagari-Subset.ttf")
    let found = sampler.findings(tag: "haln", tables: [.gsub])
    #expect(found.sample == nil)
    #expect(found.noEffect == .contextUnreachable)
  }

  /// A feature listed with no lookups (`size`) has no rules; one whose text is made but that
  /// another feature pre-empts (LayoutChanged's calt: ccmp splits its backtrack `c` into
  /// `c d` first) is not said to be unreachable.
  @Test func noRulesAndOtherFeatures() throws {
    let garamond = try Self.sampler(Self.proofFonts + "/EBGaramond12-Subset.otf")
    #expect(garamond.findings(tag: "size", tables: [.gpos]).noEffect == .noRules)
    let changed = try Self.sampler(TestFonts.fixtures + "/Layout/LayoutChanged.ttf")
    let calt = changed.findings(tag: "calt", tables: [.gsub])
    #expect(calt.sample == nil)
    #expect(calt.noEffect != nil && calt.noEffect != .contextUnreachable)
  }

  /// `noEffect` is an optional member of manifest.json's features: written when known, left
  /// out otherwise, read back by both readers; an unknown reason is refused.
  @Test func reasonInTheManifest() throws {
    let feature = FontProofs.Feature(
      tag: "tnum", name: "Tabular Figures", tables: ["GSUB"], visible: false,
      noEffect: .alreadyDefault)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(feature), as: UTF8.self)
    #expect(
      json
        == #"{"name":"Tabular Figures","noEffect":"alreadyDefault","tables":["GSUB"],"#
        + #""tag":"tnum","visible":false}"#)
    #expect(try JSONDecoder().decode(FontProofs.Feature.self, from: Data(json.utf8)) == feature)
    var writer = JSONWriter()
    feature.write(to: &writer)
    let written = String(decoding: try writer.finished(), as: UTF8.self)
    #expect(
      written.contains(#""noEffect":"alreadyDefault""#)
        || written.contains(#""noEffect" : "alreadyDefault""#))
    let old = #"{"name":"Tabular Figures","tables":["GSUB"],"tag":"tnum","visible":false}"#
    var reader = JSONReader(Array(old.utf8))
    #expect(try FontProofs.Feature(reading: &reader).noEffect == nil)
    var unknown = JSONReader(Array(json.replacingOccurrences(of: "alreadyDefault", with: "x").utf8))
    #expect(throws: (any Error).self) { try FontProofs.Feature(reading: &unknown) }
  }
}
