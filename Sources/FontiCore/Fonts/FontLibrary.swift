import Foundation

/// The user's imported fonts (the app's My Fonts): `$XDG_DATA_HOME/fonti/fonts`, by default
/// `~/.local/share/fonti/fonts`. Always registered as custom fonts; never installed system-wide.
public struct FontLibrary: Sendable {
  public var directory: String

  public init(directory: String) { self.directory = directory }

  /// The library of this user, from the environment.
  public static var standard: FontLibrary {
    let env = ProcessInfo.processInfo.environment
    if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return FontLibrary(directory: xdg + "/fonti/fonts")
    }
    let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return FontLibrary(directory: home + "/.local/share/fonti/fonts")
  }

  /// The font files in the library, sorted; none when the folder does not exist.
  public var files: [String] {
    FontFiles.fontFiles(under: directory)
  }
}

extension FontEnvironment {
  /// Sets fontconfig up with the user's library and the given custom font paths (files or
  /// folders), checking every custom file first. Errors in `paths` throw, located at their
  /// entries; a broken file in the library is skipped with a warning.
  public static func load(
    fonts paths: [Located<String>] = [], file: String? = nil,
    library: FontLibrary? = .standard, configFile: String? = nil
  ) throws(DiagnosticError) -> (FontEnvironment, warnings: [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    var files: [String] = []
    if let library {
      let (found, problems) = FontFiles.expand(
        library.files.map { Located($0) }, file: nil)
      files += found.map(\.path)
      diagnostics += problems.map {
        var d = $0
        d.severity = .warning
        d.message += " (in the font library \(library.directory); skipped)"
        return d
      }
    }
    let (found, problems) = FontFiles.expand(paths, file: file)
    files += found.map(\.path)
    diagnostics += problems
    if diagnostics.contains(where: \.isError) { throw DiagnosticError(diagnostics) }
    do {
      let environment = try FontEnvironment(configFile: configFile, customFonts: files)
      for name in environment.catalog.shadowed.sorted() {
        let shown = environment.catalog.family(named: name)?.name ?? name
        diagnostics.append(
          .warning(
            "custom family '\(shown)' has the name of an installed family; the custom fonts are used"
          ))
      }
      return (environment, diagnostics)
    } catch {
      throw DiagnosticError(diagnostics + [error])
    }
  }
}
