import FontTestSupport
import Foundation
import Testing

@testable import FontiDiff
@testable import FontiDraw
@testable import FontiEngine
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// `families.languages` and the sample settings' warnings, once the job meets the fonts.
@Suite(.serialized) struct ProofsSelectionTests {
  func resolve(_ yaml: String, config: String) throws(DiagnosticError) -> ResolvedJob {
    let folder = NSTemporaryDirectory()
    let job = try JobDecoder.decode(
      text: yaml, path: "job.yaml", directory: folder, languages: Languages.table
    ).job
    return try ResolvedJob.resolve(job, library: nil, configFile: config)
  }

  static let languages = TestFonts.fixtures + "/languages.conf"

  @Test func theLanguageFilterKeepsFamiliesThatSetEveryLanguage() throws {
    let all = try resolve("version: 1\ncatalogues: []\n", config: Self.languages)
    let vi = try resolve(
      "version: 1\nfamilies:\n  languages: [vi]\ncatalogues: []\n", config: Self.languages)
    let expected = all.families.filter { $0.languages.contains("vi") }.map(\.name)
    #expect(!expected.isEmpty && expected.count < all.families.count, "the fixtures split on vi")
    #expect(vi.families.map(\.name) == expected)
  }

  @Test func aFilterThatRemovesEveryFamilyIsAnErrorAtInclude() {
    do {
      _ = try resolve(
        "version: 1\nfamilies:\n  include: [\"Fonti*\"]\n  languages: [zh-tw]\n",
        config: Self.languages)
      Issue.record("resolved")
    } catch {
      let d = error.diagnostics.first { $0.isError }
      #expect(d?.message.contains("the language filter") == true, "\(error.diagnostics)")
      #expect(d?.mark == Mark(line: 3, column: 13))
    }
  }

  @Test func settingsNoFamilyHasAndCoordinatesOutOfRangeWarn() throws {
    let r = try resolve(
      """
      version: 1
      defaults:
        variations: { wght: 1000, wdht: 80 }
        features: [smcp, smpc]
      families:
        include: [Inter, EB Garamond]
      catalogues: []
      """, config: TestFonts.proofsConfigFile)
    let warnings = r.warnings.map {
      "\($0.mark.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)"
    }
    #expect(
      warnings == [
        "3:17 family 'Inter' axis wght 1000 is outside 100–900; drawn at 900",
        "3:29 axis 'wdht' is in none of the selected families (did you mean 'wght'?)",
        "4:20 feature 'smpc' is in none of the selected families (did you mean 'smcp'?)",
      ])
  }
}
