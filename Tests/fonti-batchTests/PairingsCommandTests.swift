import Foundation
import Testing

/// `fonti-batch pairings`, run as a user runs it, against the test fontconfig (Cantarell,
/// D050000L, DejaVu Serif, Noto Sans Bengali, Noto Sans Hebrew) and an empty font library.
@Suite struct PairingsCommandTests {
  /// Runs the tool in a fresh sandbox: the test fonts and an empty font library.
  static func run(_ arguments: [String]) throws -> CLIResult {
    try CLISandbox("fonti-pairings").run(arguments)
  }

  static func objects(_ json: String) throws -> [[String: Any]] {
    let value = try JSONSerialization.jsonObject(with: Data(json.utf8))
    return try #require(value as? [[String: Any]])
  }

  @Test func jsonListsTheWholeMapWithInstalledFlags() throws {
    let result = try Self.run(["pairings", "--json"])
    #expect(result.status == 0)
    let entries = try Self.objects(result.stdout)
    #expect(entries.count >= 25)
    for entry in entries {
      #expect(entry["heading"] is String)
      #expect(entry["body"] is String)
      #expect(!((entry["reason"] as? String) ?? "").isEmpty)
      #expect(entry["headingInstalled"] is Bool)
      #expect(entry["bodyInstalled"] is Bool)
    }
    let dejavu = entries.first {
      $0["heading"] as? String == "DejaVu Sans" && $0["body"] as? String == "DejaVu Serif"
    }
    #expect(dejavu?["headingInstalled"] as? Bool == false)
    #expect(dejavu?["bodyInstalled"] as? Bool == true)
    let cantarell = entries.first {
      $0["heading"] as? String == "Cantarell" && $0["body"] as? String == "DejaVu Serif"
    }
    #expect(cantarell?["headingInstalled"] as? Bool == true)
    // Sorted keys, pretty-printed.
    #expect(result.stdout.hasPrefix("[\n  {\n    \"body\" : "))
  }

  @Test func aFamilyListsItsPartnersWithRoleReasonAndInstalled() throws {
    let result = try Self.run(["pairings", "DejaVu Serif"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("DejaVu Serif pairs well with:\n"))
    #expect(result.stdout.contains("  DejaVu Sans (not installed), as heading\n"))
    #expect(result.stdout.contains("  Cantarell, as heading\n"))
    #expect(result.stdout.contains("Bitstream Vera"))  // the reason
  }

  @Test func aFamilysJsonHasOnlyItsPairings() throws {
    let result = try Self.run(["pairings", "dejavu serif", "--json"])
    #expect(result.status == 0)
    let entries = try Self.objects(result.stdout)
    #expect(entries.count >= 2)
    #expect(entries.allSatisfy { $0["body"] as? String == "DejaVu Serif" })
  }

  @Test func anInstalledFamilyOutsideTheMapHasNoPartners() throws {
    let result = try Self.run(["pairings", "Noto Sans Hebrew"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("has no curated partners"))
  }

  @Test func anUnknownFamilyExits2WithDidYouMean() throws {
    let result = try Self.run(["pairings", "DejaVu Serf"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("fonti-batch: error: family 'DejaVu Serf'"))
    #expect(result.stderr.contains("did you mean 'DejaVu Serif'"))
  }

  @Test func anAppleFamilyNamesItsOpenStandIns() throws {
    let result = try Self.run(["pairings", "Georgia"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("open stand-ins for Georgia: Gelasio (not installed)"))
  }

  @Test func controlCharactersNeverReachTheTerminal() throws {
    let result = try Self.run(["pairings", "Cantarell\u{1B}[2J"])
    #expect(result.status == 2)
    #expect(!result.stderr.contains("\u{1B}"))
  }
}
