/// Where drawing code gets its font maps: Render, Catalogue and Diff ask for "a font map for
/// these families" and receive a `FontMap`, never a fontconfig configuration or a C pointer.
/// The one place that decides which fonts a map can reach and how long it lives.
///
/// Today a map is bound to the fontconfig configuration of the families asked for (the
/// installed fonts, or the job's and library's custom fonts), so a family's map can reach every
/// font of that configuration. The next step (issue #15) changes only this type: each item's
/// map holds exactly the faces it draws (the family, its partners, the label face), built from
/// fontconfig's cached patterns for their (file, index) with no rescan.
///
/// Not Sendable: font maps belong to the thread (and process) that draws. Each renderer or
/// writer keeps its own `FontMaps`, so each map lives exactly as long as its owner needs it.
final class FontMaps {
  let environment: FontEnvironment
  private var shared: [ObjectIdentifier: FontMap] = [:]

  init(environment: FontEnvironment) {
    self.environment = environment
  }

  /// A map that draws `families`, made once and reused for the life of this object (Pango
  /// keeps what a map has loaded: shaping caches, coverage). The families must share one
  /// configuration (all installed, or all custom; callers ask family by family); no family
  /// is the installed fonts' map.
  func map(for families: [FontFamily]) -> FontMap {
    let configuration = self.configuration(for: families)
    let key = ObjectIdentifier(configuration)
    if let map = shared[key] { return map }
    let map = FontMap(configuration: configuration)
    shared[key] = map
    return map
  }

  /// A map of its own for `families`, not kept here: its owner drops it to free every font it
  /// loaded (a catalogue replaces its page maps every few dozen pages).
  func freshMap(for families: [FontFamily]) -> FontMap {
    FontMap(configuration: configuration(for: families))
  }

  /// The configuration holding the first family's fonts (see `map(for:)`), else the installed
  /// fonts'.
  private func configuration(for families: [FontFamily]) -> FontconfigConfiguration {
    families.first.map(environment.configuration(for:)) ?? environment.system
  }
}
