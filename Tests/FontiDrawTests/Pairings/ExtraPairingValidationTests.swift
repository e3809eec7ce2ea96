import Testing

@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// `pairings.extra` is checked like any family name in a job: located errors, suggestions.
@Suite struct ExtraPairingValidationTests {
  let catalog = PairingFixtures.catalog(
    ["TeX Gyre Heros", "TeX Gyre Termes", "Lato"], type1: ["Nimbus Roman"], custom: ["My Serif"])

  func job(_ pairs: [(String, Mark, String, Mark)]) -> Job {
    var job = Job(path: "jobs/weekly.yaml", directory: "/tmp", output: "/tmp/out")
    job.extraPairings = pairs.map {
      Job.PairingSpec(heading: Located($0.0, at: $0.1), body: Located($0.2, at: $0.3))
    }
    return job
  }

  @Test func installedAndCustomFamiliesPass() {
    let j = job([
      ("TeX Gyre Termes", Mark(line: 3, column: 18), "tex gyre heros", Mark(line: 3, column: 41)),
      ("My Serif", Mark(line: 4, column: 18), "Lato", Mark(line: 4, column: 34)),
    ])
    #expect(PairingMap.validateExtraPairings(j, catalog: catalog).isEmpty)
  }

  @Test func aMissingFamilyIsALocatedErrorWithASuggestion() {
    let j = job([
      ("TeX Gyre Heroz", Mark(line: 12, column: 18), "Lato", Mark(line: 12, column: 40)),
      ("Lato", Mark(line: 13, column: 18), "Georgia", Mark(line: 13, column: 30)),
    ])
    let diagnostics = PairingMap.validateExtraPairings(j, catalog: catalog)
    #expect(diagnostics.count == 2)
    let first = diagnostics.first
    #expect(first?.isError == true)
    #expect(first?.file == "jobs/weekly.yaml")
    #expect(first?.mark == Mark(line: 12, column: 18))
    let expected = "family 'TeX Gyre Heroz' is not installed (did you mean 'TeX Gyre Heros'"
    #expect(first?.message.hasPrefix(expected) == true)
    #expect(first?.hint != nil)
    #expect(first?.locatedMessage.hasPrefix("jobs/weekly.yaml:12:18: ") == true)
    let second = diagnostics.last
    #expect(second?.mark == Mark(line: 13, column: 30))
    #expect(second?.message == "family 'Georgia' is not installed")
  }

  @Test func aSelfPairIsAnError() {
    let j = job([("Lato", Mark(line: 5, column: 18), "LATO", Mark(line: 5, column: 30))])
    let diagnostics = PairingMap.validateExtraPairings(j, catalog: catalog)
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.isError == true)
    #expect(diagnostics.first?.mark == Mark(line: 5, column: 30))
    #expect(diagnostics.first?.message.contains("with itself") == true)
  }

  @Test func aFamilyPangoCannotDrawIsAnError() {
    let j = job([("Nimbus Roman", Mark(line: 6, column: 18), "Lato", Mark(line: 6, column: 38))])
    let diagnostics = PairingMap.validateExtraPairings(j, catalog: catalog)
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.isError == true)
    #expect(diagnostics.first?.mark == Mark(line: 6, column: 18))
  }

  @Test func emptyNamesAndRepeatsAreReported() {
    let j = job([
      ("", Mark(line: 7, column: 18), "Lato", Mark(line: 7, column: 30)),
      ("Lato", Mark(line: 8, column: 18), "TeX Gyre Termes", Mark(line: 8, column: 30)),
      ("lato", Mark(line: 9, column: 18), "tex gyre termes", Mark(line: 9, column: 30)),
    ])
    let diagnostics = PairingMap.validateExtraPairings(j, catalog: catalog)
    #expect(diagnostics.map(\.severity) == [.error, .warning])
    #expect(diagnostics.first?.mark == Mark(line: 7, column: 18))
    #expect(diagnostics.last?.mark == Mark(line: 9, column: 18))
    #expect(diagnostics.last?.message.contains("first at line 8") == true)
  }
}
