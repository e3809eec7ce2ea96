import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// The hermetic fonts of `Fixtures/fonts.conf` and a catalogue input that uses all of them.
enum CatalogueFixture {
  static let testsDirectory = URL(fileURLWithPath: TestPaths.tests)
  static var fontsConf: String { testsDirectory.appendingPathComponent("Fixtures/fonts.conf").path }
  static var goldens: URL { testsDirectory.appendingPathComponent("Goldens") }

  /// 2024-03-01T12:00:00Z.
  static let date = Date(timeIntervalSince1970: 1_709_294_400)

  static func environment() throws -> FontEnvironment {
    try FontEnvironment(configFile: fontsConf)
  }

  static func family(_ name: String, in environment: FontEnvironment) throws -> FontFamily {
    try #require(environment.catalog.family(named: name), "fixture family \(name)")
  }

  static func input(
    _ environment: FontEnvironment, page: PageSize = .a4, saved savedNames: [String]? = nil,
    pairings: Bool = true
  ) throws -> CatalogueInput<FontFamily> {
    var spec = Job.CatalogueSpec(file: Located("catalogue.pdf"))
    spec.page = page
    let families = environment.catalog.families
    let serif = try family("DejaVu Serif", in: environment)
    let sans = try family("Cantarell", in: environment)
    let saved = try (savedNames ?? ["DejaVu Serif", "Noto Sans Hebrew"]).map {
      try family($0, in: environment)
    }
    return CatalogueInput(
      spec: spec, title: "Hermetic type review", author: "Fonti tests",
      texts: ["The quick brown fox jumps over the lazy dog", "0123456789 — “quotes”, & fi fl ffi"],
      families: families, partners: [serif.name: [sans], sans.name: [serif]],
      pairings: pairings
        ? [
          FamilyPairing<FontFamily>(
            heading: serif, body: sans, reason: "A bookish serif over a humanist sans.")
        ]
        : [],
      saved: saved, creationDate: date)
  }

  /// A fresh folder under the system's temporary directory.
  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "fonti-catalogue-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
