import Foundation

@testable import FontiCore

/// The tests' own fonts, through their own fontconfig configuration, so results never depend on
/// what the machine has installed.
enum TestFonts {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures").path
  static let configFile = fixtures + "/fonts.conf"
  static let fontsFolder = fixtures + "/Fonts"
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// A fresh environment over the fixture fonts, plus `custom` files.
  static func environment(custom: [String] = []) throws -> FontEnvironment {
    try FontEnvironment(configFile: configFile, customFonts: custom)
  }

  /// The proofs fixtures (a variable font, feature-rich and layout-free fonts), kept out of
  /// `fonts.conf` so that tests listing every fixture family keep theirs.
  static let proofFontsFolder = fixtures + "/ProofFonts"
  static let proofsConfigFile = fixtures + "/fonts-proofs.conf"

  /// A fresh environment over the fixture fonts and the proofs fixtures.
  static func proofsEnvironment() throws -> FontEnvironment {
    try FontEnvironment(configFile: proofsConfigFile)
  }

  /// A temporary folder, removed by the caller's `defer`.
  static func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "fonti-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

extension CairoSurface {
  /// A black opaque image for tests to draw on (what `cairo_image_surface_create` gave).
  static func image(width: Int, height: Int) throws(CairoError) -> CairoSurface {
    try image(width: width, height: height, background: Colour(hex: 0x000000))
  }
}
