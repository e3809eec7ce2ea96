import FontiFonts
import FontiText
import Foundation
import TestSupport

/// The tests' own fonts, through their own fontconfig configuration, so results never depend on
/// what the machine has installed.
package enum TestFonts {
  package static let fixtures = TestPaths.fixtures
  package static let configFile = fixtures + "/fonts.conf"
  package static let fontsFolder = fixtures + "/Fonts"
  package static let repository = TestPaths.repository

  /// A fresh environment over the fixture fonts, plus `custom` files.
  package static func environment(custom: [String] = []) throws -> FontEnvironment {
    try FontEnvironment(configFile: configFile, customFonts: custom)
  }

  /// The proofs fixtures (a variable font, feature-rich and layout-free fonts), kept out of
  /// `fonts.conf` so that tests listing every fixture family keep theirs.
  package static let proofFontsFolder = fixtures + "/ProofFonts"
  package static let proofsConfigFile = fixtures + "/fonts-proofs.conf"

  /// A fresh environment over the fixture fonts and the proofs fixtures.
  package static func proofsEnvironment() throws -> FontEnvironment {
    try FontEnvironment(configFile: proofsConfigFile)
  }

  /// A temporary folder, removed by the caller's `defer`.
  package static func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "fonti-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

extension CairoSurface {
  /// A black opaque image for tests to draw on (what `cairo_image_surface_create` gave).
  package static func image(width: Int, height: Int) throws(CairoError) -> CairoSurface {
    try image(width: width, height: height, background: Colour(hex: 0x000000))
  }
}
