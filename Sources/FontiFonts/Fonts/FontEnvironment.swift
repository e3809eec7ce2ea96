import FontiModel
import FontiSupport
import FontiText
import Foundation

/// The fonts of one process: the system's fontconfig configuration and, when there are custom
/// fonts, a second configuration holding only them, so that a custom family never mixes with
/// (or loses to) an installed family of the same name. fontconfig itself is behind
/// `FontconfigConfiguration` (`Fonts/Interop/`).
///
/// Not Sendable: it owns the configurations. Make one per process (or per test) and hand the
/// Sendable `catalog` to whoever needs it; drawing code asks `FontMaps` for font maps.
public final class FontEnvironment {
  /// The installed fonts.
  let system: FontconfigConfiguration
  /// The custom fonts only, or nil when there are none.
  let custom: FontconfigConfiguration?
  public let catalog: FontCatalog
  /// Custom font files that were registered, in order.
  public let customFiles: [String]
  /// Whether `system` is the process's configuration (`FONTCONFIG_FILE` or the default), the
  /// one workers load too.
  private let isProcessConfiguration: Bool

  /// The installed fonts' folders in fontconfig's order, for workers to find faces folder by
  /// folder (`WorkerSetup.installedFolders`); nil when the installed fonts came from a
  /// configuration file of the caller's, which workers do not load.
  public private(set) lazy var workerFolders: [String]? =
    isProcessConfiguration ? system.installedFolders() : nil

  /// Loads fontconfig's configuration (`configFile`, else the process's current one, which
  /// honours `FONTCONFIG_FILE` and which Pango's own start-up then finds loaded) and registers `customFonts` (files already checked with
  /// `FontFiles.inspect`) as application fonts of a separate configuration.
  public init(configFile: String? = nil, customFonts: [String] = []) throws(Diagnostic) {
    if let configFile {
      system = try .loaded(file: configFile)
    } else {
      system = try .current()
    }
    isProcessConfiguration = configFile == nil
    custom = customFonts.isEmpty ? nil : try .customFonts(customFonts)
    customFiles = custom?.registered ?? []

    let systemFamilies = system.families(custom: false)
    let customFamilies = custom?.families(custom: true) ?? []
    let customNames = Set(customFamilies.map { $0.name.lowercased() })
    let systemNames = Set(systemFamilies.map { $0.name.lowercased() })
    catalog = FontCatalog(
      families: systemFamilies.filter { !customNames.contains($0.name.lowercased()) }
        + customFamilies,
      shadowed: customNames.intersection(systemNames))
  }

  /// The installed face whose digits Pango draws in the boxes of missing characters: the face
  /// fontconfig gives for `monospace` (Pango asks for that family). Every font map holds it
  /// under that name only (`FontMaps`), so boxes look as they did with every font installed in
  /// one map, and no family can be matched to it. Chosen once, by the run's parent.
  public private(set) lazy var boxDigitsFace: FamilyRef? = {
    guard let face = system.monospaceFace() else { return nil }
    return FamilyRef(
      name: face.family, custom: false,
      faces: [FontFace(style: "", weight: 80, slant: 0, file: face.file, index: face.index)])
  }()

  /// The configuration that holds `family`'s fonts.
  func configuration(for family: FontFamily) -> FontconfigConfiguration {
    family.isCustom ? (custom ?? system) : system
  }
}

extension FontMaps {
  /// Maps over the fonts of `environment`: its installed fonts' configuration (patterns from
  /// fontconfig's caches) and its custom fonts' (already registered there).
  package convenience init(environment: FontEnvironment) {
    var sources: [(FontconfigConfiguration, custom: Bool)] = [(environment.system, false)]
    if let custom = environment.custom { sources.append((custom, true)) }
    self.init(
      patterns: FacePatterns(configurations: sources), boxDigits: environment.boxDigitsFace)
  }
}
