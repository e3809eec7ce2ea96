import FontiModel

extension FontCatalog {
  /// Families tried, in order, for labels: common, wide-coverage, neutral sans faces.
  static let labelPreference = [
    "DejaVu Sans", "Noto Sans", "Liberation Sans", "Cantarell", "Nimbus Sans", "DejaVu Serif",
  ]

  /// The neutral label face of a catalogue: the first installed of `labelPreference`, else
  /// the first system family Pango can draw.
  public var labelFamily: FontFamily? {
    let system = families.filter { !$0.isCustom && $0.isRenderable }
    return FontCatalog.labelPreference.lazy.compactMap { name in
      system.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }.first ?? system.first
  }
}
