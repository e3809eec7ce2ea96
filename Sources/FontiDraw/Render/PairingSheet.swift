import FontiFonts
import FontiModel
import FontiSupport
import FontiText

/// A heading + body pairing sheet: a heading set large in one family over a paragraph of body
/// text in the other, both named. `Family`: see `SpecimenRequest`.
public struct PairingSheetRequest<Family: FamilyCarrier>: Sendable, Hashable {
  public var heading: Family
  public var body: Family
  public var reason: String
  public var theme: Theme
  public var edge: Int
  public var scale: Int
  public var compression: PNGCompression
  /// The job's sample settings, for the heading and the body text (never the captions); nil:
  /// none. Each family's coordinates are clamped to its own axes.
  public var sample: SampleSettings?

  public init(
    heading: Family, body: Family, reason: String, theme: Theme = .ink, edge: Int = 1080,
    scale: Int = 1, compression: PNGCompression = .fast, sample: SampleSettings? = nil
  ) {
    self.heading = heading
    self.body = body
    self.reason = reason
    self.theme = theme
    self.edge = edge
    self.scale = scale
    self.compression = compression
    self.sample = sample
  }

  /// The same sheet with its families carried another way; nil when either cannot be.
  public func mapFamilies<Other>(_ transform: (Family) -> Other?) -> PairingSheetRequest<Other>? {
    guard let heading = transform(heading), let body = transform(body) else { return nil }
    return PairingSheetRequest<Other>(
      heading: heading, body: body, reason: reason, theme: theme, edge: edge, scale: scale,
      compression: compression, sample: sample)
  }
}

extension PairingSheetRequest: Codable where Family: Codable {}

/// The texts every pairing sheet sets.
public enum PairingSheetText {
  /// The heading set on every sheet.
  public static let heading = "Quiet type, loud ideas"
  /// The body paragraph: long enough to show colour, rhythm and the shape of a paragraph.
  public static let body = """
    A good pairing lets each face do one job. The heading carries the voice: contrast, \
    character, a shape the eye remembers. The body carries the reading: an even texture, open \
    counters, spacing that holds up over many lines.
    """
  /// The second level, under the body when both families set the sheet's texts: a subheading
  /// in the heading's face and a paragraph at reading size, in a reading measure, where a
  /// pairing is judged as much as in its title. The essay goes on, figures and all.
  public static let subheading = "Set small, read long"
  public static let reading = """
    When the two share proportions and differ in structure, the page reads as one thing, made \
    with care: in 1970 as in 2048, the reader never notices the type at all.
    """

  /// The text a pairing sets in `family` (a sheet's or a catalogue page's): `text`, or, when
  /// the family cannot set a real share of it, its own-script sample in that sample's language
  /// (a Tibetan or an Arabic family: not a line of boxes), or a row of its own glyphs for a
  /// symbol font (which would show its pictographs or Greek as if they were the text, as
  /// Standard Symbols PS does; the specimens' rule, `SymbolFonts`).
  static func text(_ text: String, for family: FontFamily) -> (text: String, language: String?) {
    let symbols = SymbolFonts.drawsNoLetters(family)
    guard symbols || FallbackSample.lacksRealShare(of: text, coverage: family.coverage) else {
      return (text, nil)
    }
    switch FallbackSample.choose(for: family, preferGrid: symbols, text: text) {
    case .capitals(let capitals): return (capitals, nil)
    case .language(let code, _, let own): return (own, code)
    case .glyphGrid(let glyphs): return (FallbackSample.row(glyphs, count: 24), nil)
    }
  }
}

extension SpecimenRenderer {
  /// Renders a pairing sheet into a PNG for `path`, delivered as `delivery` says.
  public func renderPairing(_ request: PairingSheetRequest<FontFamily>, to path: String)
    throws(RenderError)
    -> SpecimenResult
  {
    try renderPNG(
      edge: request.edge, scale: request.scale, compression: request.compression,
      background: Palette(request.theme).background, to: path
    ) { cr throws(RenderError) in try drawPairing(request, on: cr) }
  }

  /// Draws a pairing sheet on `cr`, already painted with the theme's background (`renderPNG`).
  func drawPairing(_ request: PairingSheetRequest<FontFamily>, on cr: CairoContext)
    throws(RenderError)
    -> SpecimenResult
  {
    for family in [request.heading, request.body] {
      guard family.isRenderable, family.regularFace != nil else {
        throw RenderError("family '\(family.name)' has no font Pango can draw")
      }
    }
    let itemMap = try self.itemMap([request.heading, request.body])
    for family in [request.heading, request.body] {
      try checkNotSubstituted(
        family, face: family.regularFace, context: itemMap.makeContext(for: cr))
    }
    let palette = Palette(request.theme)
    let edge = Double(request.edge)
    let k = edge / 1080
    let margin = 80 * k
    let width = edge - 2 * margin

    let headingContext = itemMap.makeContext(for: cr)
    let bodyContext = itemMap.makeContext(for: cr)
    let labels = labelFamily.map { ($0, itemMap.makeContext(for: cr)) }

    func caption(
      _ text: String, at y: Double, colour: Colour, size: Double = 16, spacing: Double = 2
    ) -> Double {
      guard let (family, context) = labels else { return 0 }
      let layout = TextLayout(
        text, font: FontSpec(family: family.name, size: size * k, face: family.regularFace),
        in: context, width: width, letterSpacing: spacing * k, fallback: true)
      cr.setColour(colour)
      layout.draw(at: margin, y)
      return layout.size.height
    }

    var y = margin
    y += caption("PAIRING", at: y, colour: palette.accent) + 40 * k

    /// The settings for `family`'s text: its own axes clamp the coordinates.
    func settings(for family: FontFamily) -> SampleSettings {
      guard var settings = request.sample else { return .none }
      if !settings.variations.isEmpty {
        settings.variations =
          VariationSetting.resolve(
            settings.variations, axes: FamilyProofReport.axesAndInstances(family).axes,
            family: family.name
          ).coordinates
      }
      return settings
    }

    // Heading: large, in the heading family's boldest real upright face up to bold, from a
    // map holding only that face when it is not the regular: the face named is the face drawn
    // (over the whole family, fontconfig may answer a bold request with the regular, as it does
    // for EB Garamond, whose "12 Bold" it credits with no English).
    let headingFace = request.heading.face(bold: true, italic: false) ?? request.heading.regularFace
    var boldContext = headingContext
    if let face = headingFace, face != request.heading.regularFace {
      boldContext = try fontMaps.map(for: request.heading, only: face).makeContext(for: cr)
    }
    // Each family sets the sheet's texts, or its own-script sample when it cannot.
    let headingText = PairingSheetText.text(PairingSheetText.heading, for: request.heading)
    let bodyText = PairingSheetText.text(PairingSheetText.body, for: request.body)
    let setsSheetText = (
      heading: headingText.text == PairingSheetText.heading,
      body: bodyText.text == PairingSheetText.body
    )
    // The sheet's own texts are led by their size (1.1 and 1.45 times it), the same for every
    // pair whatever each font's line height; an own-script sample or a row of glyphs keeps its
    // font's spacing (emoji stand taller than their em).
    let heading = fitted(
      headingText.text,
      font: FontSpec(family: request.heading.name, size: 92 * k, face: headingFace),
      context: boldContext, width: width, height: 260 * k, minimum: 24 * k, alignment: .left,
      leading: setsSheetText.heading ? TextLayout.Leading(multiple: 1.1) : nil,
      language: headingText.language, mark: ellipsis(labels: labels?.1),
      settings: settings(for: request.heading))
    cr.setColour(palette.text)
    heading.draw(at: margin, y)
    y += heading.size.height + 44 * k

    let body = fitted(
      bodyText.text,
      font: FontSpec(family: request.body.name, size: 29 * k, face: request.body.regularFace),
      context: bodyContext, width: width, height: 420 * k, minimum: 12 * k, alignment: .left,
      lineSpacing: 1.35, leading: setsSheetText.body ? TextLayout.Leading(multiple: 1.45) : nil,
      language: bodyText.language, mark: ellipsis(labels: labels?.1),
      settings: settings(for: request.body))
    cr.setColour(palette.text, alpha: 0.88)
    body.draw(at: margin, y)
    let bodyTop = y

    // Footer: who is who, and why they work together.
    let footerTop = edge - margin - 120 * k
    let ruleTop = footerTop - 24 * k

    // The second level, in the space above the footer, when both families set the sheet's
    // texts and it fits whole: a subheading, then a paragraph at reading size in a reading
    // measure (about 65 characters a line). Placed by baselines, so that no font's line height
    // moves them: the subheading's 92 px under the body's last, the paragraph's first 44 px
    // under the subheading's last.
    var second: (subheading: TextLayout, reading: TextLayout)?
    if setsSheetText.heading, setsSheetText.body {
      // At their sizes (never shrunk), a last word alone pulled back as everywhere.
      let subheading = fitted(
        PairingSheetText.subheading,
        font: FontSpec(family: request.heading.name, size: 44 * k, face: headingFace),
        context: boldContext, width: width, height: .infinity, minimum: 44 * k, alignment: .left,
        leading: TextLayout.Leading(multiple: 1.1), settings: settings(for: request.heading))
      let reading = fitted(
        PairingSheetText.reading,
        font: FontSpec(family: request.body.name, size: 22 * k, face: request.body.regularFace),
        context: bodyContext, width: min(width, 640 * k), height: .infinity, minimum: 22 * k,
        alignment: .left, leading: TextLayout.Leading(multiple: 1.45),
        settings: settings(for: request.body))
      let subheadingTop = bodyTop + body.lastBaseline + 92 * k - subheading.baseline
      let readingTop =
        subheadingTop + subheading.lastBaseline + 44 * k - reading.baseline
      let bottom = max(
        subheadingTop + subheading.inkRect.y + subheading.inkRect.height,
        readingTop + reading.inkRect.y + reading.inkRect.height)
      if bottom <= ruleTop - 40 * k {
        cr.setColour(palette.text)
        subheading.draw(at: margin, subheadingTop)
        cr.setColour(palette.text, alpha: 0.88)
        reading.draw(at: margin, readingTop)
        second = (subheading, reading)
      }
    }

    cr.setColour(palette.text, alpha: 0.16)
    cr.rectangle(margin, ruleTop, width, max(1, k))
    cr.fill()
    var fy = footerTop
    fy +=
      caption(
        "HEADING · \(Sanitize.terminal(request.heading.name).uppercased())", at: fy,
        colour: palette.accent) + 8 * k
    fy +=
      caption(
        "BODY · \(Sanitize.terminal(request.body.name).uppercased())", at: fy,
        colour: palette.accent) + 14 * k
    var reasonColour = palette.text
    reasonColour.alpha = 0.75
    _ = caption(request.reason, at: fy, colour: reasonColour, size: 20, spacing: 0)

    let headingMissing = heading.unknownGlyphs + (second?.subheading.unknownGlyphs ?? 0)
    let bodyMissing = body.unknownGlyphs + (second?.reading.unknownGlyphs ?? 0)
    var warnings: [String] = []
    if headingMissing > 0 {
      warnings.append(
        "family '\(request.heading.name)' lacks \(headingMissing) glyphs of the pairing heading")
    }
    if bodyMissing > 0 {
      warnings.append(
        "family '\(request.body.name)' lacks \(bodyMissing) glyphs of the pairing body")
    }
    let missing = headingMissing + bodyMissing
    return SpecimenResult(missingGlyphs: missing, warnings: warnings, fallback: nil)
  }
}
