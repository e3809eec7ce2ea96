import FontiModel

// A job's sample settings (language, axes, features) on Pango text: the one place a drawing
// turns `SampleSettings` into layouts, so that every sample a job draws obeys them alike.

extension FontSpec {
  /// This face at the coordinates `settings` asks for.
  func applying(_ settings: SampleSettings) -> FontSpec {
    var font = self
    // The face's own coordinates (an italic that is a `slnt` position) stay, unless the
    // settings name the same axis.
    let asked = Set(settings.variations.map(\.tag))
    font.variations = variations.filter { !asked.contains($0.tag) } + settings.variations
    return font
  }
}

extension TextLayout {
  /// Lays out a sample: `text` in `font` with `settings`' coordinates, features and language
  /// (its language when it has one, else `language`). Labels never go through here.
  package convenience init(
    sample text: String, font: FontSpec, settings: SampleSettings, in context: TextContext,
    width: Double? = nil, wrap: Wrap = .anywhere, alignment: Alignment = .left,
    language: String? = nil
  ) {
    self.init(
      text, font: font.applying(settings), in: context, width: width, wrap: wrap,
      alignment: alignment, language: settings.language ?? language, features: settings.features)
  }
}
