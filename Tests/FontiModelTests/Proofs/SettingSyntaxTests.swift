import Foundation
import Testing

@testable import FontiModel

/// The syntax users write features and axis coordinates in: `smcp`, `-liga`, `cv01=2`;
/// `wght=650`; and the comma-separated lists the CLI takes.
@Suite struct SettingSyntaxTests {
  func message(_ body: () throws(SettingError) -> some Any) -> String? {
    do {
      _ = try body()
      return nil
    } catch {
      return error.message
    }
  }

  @Test func featureSettingsOnOffAndAlternates() throws {
    #expect(try FeatureSetting.parse("smcp") == FeatureSetting(tag: "smcp", value: 1))
    #expect(try FeatureSetting.parse("-liga") == FeatureSetting(tag: "liga", value: 0))
    #expect(try FeatureSetting.parse("+onum") == FeatureSetting(tag: "onum", value: 1))
    #expect(try FeatureSetting.parse("cv01=2") == FeatureSetting(tag: "cv01", value: 2))
    #expect(try FeatureSetting.parse(" ss03 = 0 ") == FeatureSetting(tag: "ss03", value: 0))
    #expect(try FeatureSetting.parse("salt=65535").value == 65535)
    // Tags are case-sensitive and kept as written (OpenType tags are byte strings).
    #expect(try FeatureSetting.parse("SMCP").tag == "SMCP")
    // The canonical spelling round-trips.
    for text in ["smcp", "-liga", "cv01=2"] {
      #expect(try FeatureSetting.parse(text).description == text)
    }
    #expect(FeatureSetting(tag: "kern", value: 1).isOn)
    #expect(!FeatureSetting(tag: "kern", value: 0).isOn)
  }

  @Test func badFeatureSettingsSayWhatIsWrong() {
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("cv1") }
        == "'cv1': feature tag 'cv1' must be exactly 4 characters, not 3 (did you mean 'cv01'?)")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("smallcaps") }
        == "'smallcaps': feature tag 'smallcaps' must be exactly 4 characters, not 9")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("cv01=two") }
        == "'cv01=two': the value of feature 'cv01' must be a whole number 0 or more (e.g. cv01=2)")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("cv01=-1") }
        == "'cv01=-1': the value of feature 'cv01' must be a whole number 0 or more (e.g. cv01=2)")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("cv01=1.5") }
        == "'cv01=1.5': the value of feature 'cv01' must be a whole number 0 or more (e.g. cv01=2)")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("salt=70000") }
        == "'salt=70000': the value of feature 'salt' must be at most 65535")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("salt=99999999999999999999") }
        == "'salt=99999999999999999999': the value of feature 'salt' must be at most 65535")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("-liga=1") }
        == "'-liga=1': a feature turned off with '-' takes no value (write -liga or liga=0)")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("ab c") }
        == "'ab c': feature tag 'ab c' may hold only printable ASCII letters, digits and "
        + "punctuation, without spaces")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("smcé") }
        == "'smcé': feature tag 'smcé' may hold only printable ASCII letters, digits and "
        + "punctuation, without spaces")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("=2") }
        == "'=2': a feature tag is missing (e.g. smcp)")
    #expect(
      message { () throws(SettingError) in try FeatureSetting.parse("  ") }
        == "an empty feature setting (expected e.g. smcp, -liga or cv01=2)")
    // A control character in a tag is not echoed raw to a terminal.
    let hostile = message { () throws(SettingError) in try FeatureSetting.parse("sm\u{1B}p") }
    #expect(hostile?.contains("\u{1B}") == false)
  }

  @Test func featureListsReportEveryBadItemWhereItIs() {
    let good = FeatureSetting.parseList("smcp,onum,-liga, cv01=2")
    #expect(good.errors.isEmpty)
    #expect(good.settings.map(\.description) == ["smcp", "onum", "-liga", "cv01=2"])
    #expect(FeatureSetting.parseList("").settings.isEmpty)
    #expect(FeatureSetting.parseList("  ").errors.isEmpty)
    #expect(FeatureSetting.parseList("smcp,").settings.map(\.tag) == ["smcp"])

    let bad = FeatureSetting.parseList("smcp,cv1, onum=x,,-smcp")
    #expect(bad.settings.map(\.tag) == ["smcp"])
    #expect(
      bad.errors == [
        SettingError(
          "'cv1': feature tag 'cv1' must be exactly 4 characters, not 3 (did you mean 'cv01'?)",
          offset: 5),
        SettingError(
          "'onum=x': the value of feature 'onum' must be a whole number 0 or more (e.g. onum=2)",
          offset: 10),
        SettingError("an empty feature setting (expected e.g. smcp, -liga or cv01=2)", offset: 17),
        SettingError("'-smcp': feature 'smcp' is already set by 'smcp'", offset: 18),
      ])
  }

  @Test func variationSettings() throws {
    #expect(try VariationSetting.parse("wght=650") == VariationSetting(tag: "wght", value: 650))
    #expect(try VariationSetting.parse("wdth=87.5") == VariationSetting(tag: "wdth", value: 87.5))
    #expect(try VariationSetting.parse(" slnt = -10 ").value == -10)
    #expect(try VariationSetting.parse("opsz=.5").value == 0.5)
    #expect(try VariationSetting.parse("wght=650").description == "wght=650")
    #expect(try VariationSetting.parse("wdth=87.50").description == "wdth=87.5")
    #expect(
      try VariationSetting.parse(tag: "wght", value: "650")
        == VariationSetting(tag: "wght", value: 650))
  }

  @Test func badVariationSettingsSayWhatIsWrong() {
    func bad(_ text: String) -> String? {
      message { () throws(SettingError) in try VariationSetting.parse(text) }
    }
    #expect(bad("wght=heavy") == "'wght=heavy': the value of axis 'wght' must be a number")
    #expect(bad("wght=") == "'wght=': the value of axis 'wght' must be a number")
    // Swift's Double(_:) takes all of these; a coordinate must be a plain finite decimal.
    for value in ["inf", "nan", "1e3", "0x10", "1.2.3", "--5", "5-", "+", "."] {
      #expect(bad("wght=\(value)") == "'wght=\(value)': the value of axis 'wght' must be a number")
    }
    #expect(bad("wght") == "'wght': an axis setting needs a value (e.g. wght=650)")
    #expect(bad("weight") == "'weight': an axis setting needs a value (e.g. wght=650)")
    #expect(
      bad("weight=650") == "'weight=650': axis tag 'weight' must be exactly 4 characters, not 6")
    #expect(bad("=650") == "'=650': an axis tag is missing (e.g. wght)")
    #expect(
      message { () throws(SettingError) in try VariationSetting.parse(tag: "wght", value: "heavy") }
        == "the value of axis 'wght' must be a number")
  }

  @Test func variationListsReportEveryBadItemWhereItIs() {
    let good = VariationSetting.parseList("wght=650,wdth=80")
    #expect(good.errors.isEmpty)
    #expect(
      good.settings == [
        VariationSetting(tag: "wght", value: 650), VariationSetting(tag: "wdth", value: 80),
      ])
    let bad = VariationSetting.parseList("wght=650, wdth=wide,wght=700")
    #expect(bad.settings == [VariationSetting(tag: "wght", value: 650)])
    #expect(
      bad.errors == [
        SettingError("'wdth=wide': the value of axis 'wdth' must be a number", offset: 10),
        SettingError("'wght=700': axis 'wght' is set twice", offset: 20),
      ])
  }

  @Test func coordinatesOutsideTheRangeAreClampedWithAWarning() {
    let axes = [
      FontProofs.Axis(tag: "wght", name: "Weight", min: 100, defaultValue: 400, max: 900),
      FontProofs.Axis(tag: "wdth", name: "Width", min: 75, defaultValue: 100, max: 100),
    ]
    let settings = [
      VariationSetting(tag: "wght", value: 1200), VariationSetting(tag: "wdth", value: 87.5),
      VariationSetting(tag: "opsz", value: 12),
    ]
    let resolved = VariationSetting.resolve(settings, axes: axes, family: "Inter")
    // The axis the family lacks (opsz) is dropped without a word.
    #expect(
      resolved.coordinates == [
        VariationSetting(tag: "wght", value: 900), VariationSetting(tag: "wdth", value: 87.5),
      ])
    #expect(
      resolved.warnings == ["family 'Inter' axis wght 1200 is outside 100–900; drawn at 900"])
    let low = VariationSetting.resolve(
      [VariationSetting(tag: "wdth", value: 50.25)], axes: axes, family: "Inter")
    #expect(low.warnings == ["family 'Inter' axis wdth 50.25 is outside 75–100; drawn at 75"])
    #expect(VariationSetting.resolve(settings, axes: [], family: "DejaVu Serif") == ([], []))
  }

  @Test func settingsAsPangoTakesThem() throws {
    let features = FeatureSetting.parseList("smcp,-liga,cv01=2").settings
    #expect(FeatureSetting.pangoString(features) == "smcp=1,liga=0,cv01=2")
    let axes = VariationSetting.parseList("wght=650,wdth=87.5").settings
    #expect(VariationSetting.pangoString(axes) == "wght=650,wdth=87.5")
    #expect(FeatureSetting.pangoString([]) == "")
  }

  @Test func proofNumbers() {
    #expect(ProofNumber.format(100) == "100")
    #expect(ProofNumber.format(-10) == "-10")
    #expect(ProofNumber.format(87.5) == "87.5")
    #expect(ProofNumber.format(1 / 3) == "0.333")
    #expect(ProofNumber.format(-0.0) == "0")
    #expect(ProofNumber.format(0.0004) == "0")
    #expect(ProofNumber.format(.infinity) == "0")
    #expect(ProofNumber.format(0.05) == "0.05")
    #expect(ProofNumber.format(-2.0005) == "-2.001")
    // Numbers a job may hold (up to 30 digits) but no axis reaches: never a trap (the fuzzer
    // found `wght: 10000000000000000`), and no dangling point.
    #expect(ProofNumber.format(1e15) == "1000000000000000")
    #expect(ProofNumber.format(1e16) == "10000000000000000")
    #expect(ProofNumber.format(-1e29) == "-1e+29")
    #expect(ProofNumber.format(0.9996) == "1")
    #expect(ProofNumber.format(4e15 + 0.5) == "4000000000000000.5")
    #expect(ProofNumber.parse("650") == 650)
    #expect(ProofNumber.parse("-10.25") == -10.25)
    #expect(ProofNumber.parse("1" + String(repeating: "0", count: 40)) == nil)
  }
}
