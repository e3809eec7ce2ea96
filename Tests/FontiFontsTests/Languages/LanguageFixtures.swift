import FontTestSupport
import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel

/// The language tests' fonts: the shared fixtures plus `Fixtures/LanguageFonts` (Fonti Test
/// Serif, a DejaVu Serif subset that lacks three Vietnamese letters; Fonti Test Symbol, a true
/// symbol font), through `Fixtures/languages.conf`.
enum LanguageFixtures {
  static let configFile = TestFonts.fixtures + "/languages.conf"
  static let fonts = TestFonts.fixtures + "/LanguageFonts"

  static func environment() throws -> FontEnvironment {
    try FontEnvironment(configFile: configFile)
  }

  static func family(_ name: String, in environment: FontEnvironment) throws -> FontFamily {
    try #require(environment.catalog.family(named: name), "fixture family \(name)")
  }
}
