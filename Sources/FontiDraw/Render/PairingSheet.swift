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
  /// the family does not write its script (`FallbackSample.showsOwnScript`; `language` is
  /// the text's), its own-script sample in that sample's language
  /// (a Tibetan or an Arabic family: not a line of boxes), or a row of its own glyphs for a
  /// symbol font (which would show its pictographs or Greek as if they were the text, as
  /// Standard Symbols PS does; the specimens' rule, `SymbolFonts`).
  static func text(_ text: String, for family: FontFamily, language: String? = nil)
    -> (text: String, language: String?)
  {
    let symbols = SymbolFonts.drawsNoLetters(family)
    guard symbols || FallbackSample.showsOwnScript(text, language: language, family: family)
    else { return (text, nil) }
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

  /// Draws a pairing sheet on `cr`, already painted with the theme's background (`renderPNG`):
  /// lays it out, then paints it from the top down (the heading, the body, the second level
  /// when it fits) and the footer, and counts what either family lacks.
  func drawPairing(_ request: PairingSheetRequest<FontFamily>, on cr: CairoContext)
    throws(RenderError)
    -> SpecimenResult
  {
    let sheet = try layOutPairing(request, on: cr)
    var y = sheet.margin
    y += sheet.caption("PAIRING", at: y, colour: sheet.palette.accent) + 40 * sheet.k
    let heading = try drawPairingHeading(sheet, top: y)
    y += heading.layout.size.height + 44 * sheet.k
    let body = drawPairingBody(sheet, top: y)
    // Footer: who is who, and why they work together.
    let footerTop = sheet.edge - sheet.margin - 120 * sheet.k
    let ruleTop = footerTop - 24 * sheet.k
    let second = drawSecondLevel(
      sheet, heading: heading, under: (body, top: y), above: ruleTop - 40 * sheet.k)
    drawPairingFooter(sheet, top: footerTop, rule: ruleTop)
    return PairingSheetLayout.result(
      request,
      heading: heading.layout.unknownGlyphs + (second?.subheading.unknownGlyphs ?? 0),
      body: body.unknownGlyphs + (second?.reading.unknownGlyphs ?? 0))
  }

  /// Lays out a pairing sheet on `cr`: both families checked (drawable, loaded as
  /// themselves), the contexts of the drawing's map, the texts each family sets.
  func layOutPairing(_ request: PairingSheetRequest<FontFamily>, on cr: CairoContext)
    throws(RenderError) -> PairingSheetLayout
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
    let edge = Double(request.edge)
    let k = edge / 1080
    let margin = 80 * k
    let headingContext = itemMap.makeContext(for: cr)
    let bodyContext = itemMap.makeContext(for: cr)
    let labels = labelFamily.map { ($0, itemMap.makeContext(for: cr)) }
    return PairingSheetLayout(
      cr: cr, request: request, palette: Palette(request.theme), edge: edge, k: k,
      margin: margin, width: edge - 2 * margin, headingContext: headingContext,
      bodyContext: bodyContext, labels: labels,
      // Each family sets the sheet's texts, or its own-script sample when it cannot.
      headingText: PairingSheetText.text(PairingSheetText.heading, for: request.heading),
      bodyText: PairingSheetText.text(PairingSheetText.body, for: request.body))
  }

  /// The heading: large, in the heading family's boldest real upright face up to bold, from a
  /// map holding only that face when it is not the regular: the face named is the face drawn
  /// (over the whole family, fontconfig may answer a bold request with the regular, as it does
  /// for EB Garamond, whose "12 Bold" it credits with no English). Returns its layout, and the
  /// face and context the second level's subheading is set in.
  func drawPairingHeading(_ sheet: PairingSheetLayout, top y: Double) throws(RenderError) -> (
    layout: TextLayout, face: FontFace?, context: TextContext
  ) {
    let request = sheet.request
    let k = sheet.k
    let headingFace = request.heading.face(bold: true, italic: false) ?? request.heading.regularFace
    var boldContext = sheet.headingContext
    if let face = headingFace, face != request.heading.regularFace {
      boldContext = try fontMaps.map(for: request.heading, only: face).makeContext(for: sheet.cr)
    }
    // The sheet's own texts are led by their size (1.1 and 1.45 times it), the same for every
    // pair whatever each font's line height; an own-script sample or a row of glyphs keeps its
    // font's spacing (emoji stand taller than their em).
    let heading = fitted(
      sheet.headingText.text,
      font: FontSpec(family: request.heading.name, size: 92 * k, face: headingFace),
      context: boldContext, width: sheet.width, height: 260 * k, minimum: 24 * k,
      alignment: .left,
      leading: sheet.setsSheetText.heading ? TextLayout.Leading(multiple: 1.1) : nil,
      language: sheet.headingText.language, mark: ellipsis(labels: sheet.labels?.1),
      settings: sheet.settings(for: request.heading))
    sheet.cr.setColour(sheet.palette.text)
    heading.draw(at: sheet.margin, y)
    return (heading, headingFace, boldContext)
  }

  /// The body paragraph under the heading, from `top`.
  func drawPairingBody(_ sheet: PairingSheetLayout, top y: Double) -> TextLayout {
    let request = sheet.request
    let k = sheet.k
    let body = fitted(
      sheet.bodyText.text,
      font: FontSpec(family: request.body.name, size: 29 * k, face: request.body.regularFace),
      context: sheet.bodyContext, width: sheet.width, height: 420 * k, minimum: 12 * k,
      alignment: .left, lineSpacing: 1.35,
      leading: sheet.setsSheetText.body ? TextLayout.Leading(multiple: 1.45) : nil,
      language: sheet.bodyText.language, mark: ellipsis(labels: sheet.labels?.1),
      settings: sheet.settings(for: request.body))
    sheet.cr.setColour(sheet.palette.text, alpha: 0.88)
    body.draw(at: sheet.margin, y)
    return body
  }

  /// The second level, in the space above the footer, when both families set the sheet's
  /// texts and it fits whole (its ink above `limit`): a subheading, then a paragraph at
  /// reading size in a reading measure (about 65 characters a line). Placed by baselines, so
  /// that no font's line height moves them: the subheading's 92 px under the body's last, the
  /// paragraph's first 44 px under the subheading's last. Nil when it is not drawn.
  func drawSecondLevel(
    _ sheet: PairingSheetLayout,
    heading: (layout: TextLayout, face: FontFace?, context: TextContext),
    under body: (layout: TextLayout, top: Double), above limit: Double
  ) -> (subheading: TextLayout, reading: TextLayout)? {
    guard sheet.setsSheetText.heading, sheet.setsSheetText.body else { return nil }
    let request = sheet.request
    let k = sheet.k
    // At their sizes (never shrunk), a last word alone pulled back as everywhere.
    let subheading = fitted(
      PairingSheetText.subheading,
      font: FontSpec(family: request.heading.name, size: 44 * k, face: heading.face),
      context: heading.context, width: sheet.width, height: .infinity, minimum: 44 * k,
      alignment: .left, leading: TextLayout.Leading(multiple: 1.1),
      settings: sheet.settings(for: request.heading))
    let reading = fitted(
      PairingSheetText.reading,
      font: FontSpec(family: request.body.name, size: 22 * k, face: request.body.regularFace),
      context: sheet.bodyContext, width: min(sheet.width, 640 * k), height: .infinity,
      minimum: 22 * k, alignment: .left, leading: TextLayout.Leading(multiple: 1.45),
      settings: sheet.settings(for: request.body))
    let subheadingTop = body.top + body.layout.lastBaseline + 92 * k - subheading.baseline
    let readingTop =
      subheadingTop + subheading.lastBaseline + 44 * k - reading.baseline
    let bottom = max(
      subheadingTop + subheading.inkRect.y + subheading.inkRect.height,
      readingTop + reading.inkRect.y + reading.inkRect.height)
    guard bottom <= limit else { return nil }
    sheet.cr.setColour(sheet.palette.text)
    subheading.draw(at: sheet.margin, subheadingTop)
    sheet.cr.setColour(sheet.palette.text, alpha: 0.88)
    reading.draw(at: sheet.margin, readingTop)
    return (subheading, reading)
  }

  /// The footer under its rule: which family sets the heading and which the body, and why
  /// they work together.
  func drawPairingFooter(_ sheet: PairingSheetLayout, top footerTop: Double, rule ruleTop: Double) {
    let (cr, palette, k, request) = (sheet.cr, sheet.palette, sheet.k, sheet.request)
    cr.setColour(palette.text, alpha: 0.16)
    cr.rectangle(sheet.margin, ruleTop, sheet.width, max(1, k))
    cr.fill()
    var fy = footerTop
    fy +=
      sheet.caption(
        "HEADING · \(Sanitize.terminal(request.heading.name).uppercased())", at: fy,
        colour: palette.accent) + 8 * k
    fy +=
      sheet.caption(
        "BODY · \(Sanitize.terminal(request.body.name).uppercased())", at: fy,
        colour: palette.accent) + 14 * k
    var reasonColour = palette.text
    reasonColour.alpha = 0.75
    _ = sheet.caption(request.reason, at: fy, colour: reasonColour, size: 20, spacing: 0)
  }
}

/// A pairing sheet laid out, before anything is painted: its measures, the contexts its
/// families' text is set from, the label face's, and the texts each family sets. What every
/// stage of painting shares.
struct PairingSheetLayout {
  let cr: CairoContext
  let request: PairingSheetRequest<FontFamily>
  let palette: Palette
  let edge: Double
  /// The square's units against the 1080 it is designed in.
  let k: Double
  let margin: Double
  /// The width between the margins.
  let width: Double
  let headingContext: TextContext
  let bodyContext: TextContext
  /// The label family and a context on the drawing's map for it; nil without a label face.
  let labels: (FontFamily, TextContext)?
  /// What each family sets (`PairingSheetText.text`): the sheet's text or its own sample.
  let headingText: (text: String, language: String?)
  let bodyText: (text: String, language: String?)

  /// Whether each family sets the sheet's own text (not its own-script sample).
  var setsSheetText: (heading: Bool, body: Bool) {
    (headingText.text == PairingSheetText.heading, bodyText.text == PairingSheetText.body)
  }

  /// Draws a caption in the label face at `y`, across the sheet; returns its height (0
  /// without a label face).
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

  /// What drawing the sheet found out: the glyphs each family lacks of the texts it set.
  static func result(_ request: PairingSheetRequest<FontFamily>, heading: Int, body: Int)
    -> SpecimenResult
  {
    var warnings: [String] = []
    if heading > 0 {
      warnings.append(
        "family '\(request.heading.name)' lacks \(heading) glyphs of the pairing heading")
    }
    if body > 0 {
      warnings.append("family '\(request.body.name)' lacks \(body) glyphs of the pairing body")
    }
    return SpecimenResult(missingGlyphs: heading + body, warnings: warnings, fallback: nil)
  }
}
