import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// Selection by language over the fixture families.
@Suite struct LanguageFilterTests {
  @Test func vietnameseKeepsTheFamiliesThatSetItCompletely() throws {
    let environment = try LanguageFixtures.environment()
    #expect(
      environment.catalog.families.map(\.name) == [
        "Cantarell", "D050000L", "DejaVu Serif", "Fonti Test Serif", "Fonti Test Symbol",
        "Noto Sans Bengali", "Noto Sans Hebrew",
      ])
    let vi = LanguageFilter(known: ["vi"])
    // Fonti Test Serif lacks three Vietnamese letters; D050000L has dingbats where fontconfig
    // sees Latin; Fonti Test Symbol is a symbol font; the others are other scripts.
    #expect(vi.select(environment.catalog.families).map(\.name) == ["Cantarell", "DejaVu Serif"])
    let viPl = LanguageFilter(known: ["vi", "pl"])
    #expect(viPl.select(environment.catalog.families).map(\.name) == ["Cantarell", "DejaVu Serif"])
    let bn = LanguageFilter(known: ["bn"])
    #expect(bn.select(environment.catalog.families).map(\.name) == ["Noto Sans Bengali"])
    let en = LanguageFilter(known: ["en"])
    #expect(
      en.select(environment.catalog.families).map(\.name) == [
        "Cantarell", "DejaVu Serif", "Fonti Test Serif",
      ])
    let bnVi = LanguageFilter(known: ["bn", "vi"])
    #expect(bnVi.select(environment.catalog.families).isEmpty)
  }

  @Test func agreesWithTheCoverage() throws {
    let environment = try LanguageFixtures.environment()
    for code in ["vi", "en", "bn", "he", "ru"] {
      let filter = LanguageFilter(known: [code])
      for family in environment.catalog.families {
        #expect(
          filter.accepts(family) == filter.accepts(LanguageCoverage(family: family)),
          "\(code) \(family.name)")
      }
    }
  }

  @Test func unknownCodesAreLocatedErrorsWithSuggestions() throws {
    let (filter, diagnostics) = LanguageFilter.validate(
      [
        Located("vi", at: Mark(line: 3, column: 16)), Located("vn", at: Mark(line: 3, column: 20)),
        Located("Vietnamese", at: Mark(line: 3, column: 24)),
        Located("pt-BR", at: Mark(line: 3, column: 36)),
        Located("qqqqqq", at: Mark(line: 4, column: 3)),
        Located("", at: Mark(line: 4, column: 10)),
      ], file: "job.yaml", languages: Languages.table)
    #expect(filter == nil)
    #expect(
      diagnostics.map(\.locatedMessage) == [
        "job.yaml:3:20: unknown language 'vn' (did you mean 've', 'vi', 'vo'?)",
        "job.yaml:3:24: unknown language 'Vietnamese' (did you mean 'vi'?)",
        "job.yaml:3:36: unknown language 'pt-BR' (did you mean 'pt'?)",
        "job.yaml:4:3: unknown language 'qqqqqq'",
        "job.yaml:4:10: empty language code",
      ])
    #expect(diagnostics.allSatisfy { $0.isError })
    #expect(diagnostics[0].hint == "ve is Venda, vi is Vietnamese, vo is Volapük")
    #expect(diagnostics[3].hint?.contains("fontconfig") == true)
  }

  @Test func codesAreNormalised() throws {
    let (filter, diagnostics) = LanguageFilter.validate(
      [Located("zh_TW"), Located(" PL "), Located("pl")], languages: Languages.table)
    #expect(diagnostics.isEmpty)
    #expect(filter?.codes == ["zh-tw", "pl"])
    #expect(LanguageFilter.problem(with: "ZH-tw", in: Languages.table) == nil)
    let hostile = LanguageFilter.problem(
      with: "x\u{1B}[2J" + String(repeating: "y", count: 500), in: Languages.table)
    #expect(hostile?.message.contains("\u{1B}") == false)
    #expect((hostile?.message.count ?? 0) < 120)
  }

  @Test func anEmptyFilterKeepsEverything() throws {
    let environment = try LanguageFixtures.environment()
    let families = environment.catalog.families
    #expect(LanguageFilter(known: []).select(families) == families)
  }
}
