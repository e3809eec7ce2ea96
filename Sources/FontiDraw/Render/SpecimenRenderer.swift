import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

/// One specimen to draw: the family, the text, and how it looks. `Family` is how the family
/// is carried: `FontFamily` to draw it here, `FamilyRef` to send it to a worker.
public struct SpecimenRequest<Family: FamilyCarrier>: Sendable, Hashable {
  public var family: Family
  public var text: String
  /// The sample's size in points (12–96), scaled to the canvas.
  public var size: Double
  public var theme: Theme
  public var edge: Int
  public var scale: Int
  public var compression: PNGCompression
  /// Show the sample in the family's real bold / italic face (the preview's toggles). Never
  /// faked: when the face does not exist the sample stays regular and the result warns.
  public var bold: Bool
  public var italic: Bool
  /// Show the sample in the face of this name (`render --face`, `serve`'s face picker), matched
  /// as `FaceName` matches names; it wins over `bold` and `italic`. Never faked: a family
  /// without it shows the regular and the result warns. nil: none asked for.
  public var face: String?
  /// Hearted: a filled heart at the top.
  public var saved: Bool
  /// Installed "pairs well with" partners, each set in its own font on the strip.
  public var partners: [Family]
  /// The sample's language, coordinates and features (`defaults.*`, `render --features`…);
  /// nil: none. Coordinates are clamped to the family's axes (the job warned already).
  public var sample: SampleSettings?
  /// The proofs `readProofs()` reads besides the axes, for the manifest
  /// (`SpecimenResult.proofs`); nil: none.
  public var proofs: ProofOptions?

  /// Also write the web gallery's thumbnail of the drawn image here (absolute), from the same
  /// pixels (`Thumbnail`); nil: none. Not part of how the specimen looks.
  public var thumbnail: String?

  public init(
    family: Family, text: String = defaultSampleText, size: Double = 48, theme: Theme = .ink,
    edge: Int = 1080, scale: Int = 1, compression: PNGCompression = .fast, bold: Bool = false,
    italic: Bool = false, saved: Bool = false, partners: [Family] = [],
    sample: SampleSettings? = nil, proofs: ProofOptions? = nil
  ) {
    self.family = family
    self.text = text
    self.size = size
    self.theme = theme
    self.edge = edge
    self.scale = scale
    self.compression = compression
    self.bold = bold
    self.italic = italic
    self.saved = saved
    self.partners = partners
    self.sample = sample
    self.proofs = proofs
  }

  /// The same specimen with its families carried another way: nil when the family itself
  /// cannot be; a partner that cannot be is left out.
  public func mapFamilies<Other>(_ transform: (Family) -> Other?) -> SpecimenRequest<Other>? {
    guard let family = transform(family) else { return nil }
    var other = SpecimenRequest<Other>(
      family: family, text: text, size: size, theme: theme, edge: edge, scale: scale,
      compression: compression, bold: bold, italic: italic, saved: saved,
      partners: partners.compactMap(transform), sample: sample, proofs: proofs)
    other.thumbnail = thumbnail
    other.face = face
    return other
  }
}

extension SpecimenRequest: Codable where Family: Codable {}

extension SpecimenRequest where Family == FontFamily {
  /// The family as the specimen draws it: with coordinates asked for, its variable files,
  /// never a static face fontconfig would otherwise prefer (`FontFamily.variableCut`).
  var drawnFamily: FontFamily {
    let askedAxes = sample?.variations.map(\.tag) ?? []
    return askedAxes.isEmpty ? family : family.variableCut(axes: askedAxes) ?? family
  }

  /// What the specimen reads of its family's fonts, once, before it is drawn, by whoever
  /// draws it (a run's worker, `render`): the axes and named instances always (the variable
  /// line, the sample's coordinates), and the proofs `proofs` asks for the manifest.
  public func readProofs() -> FamilyProofReport {
    let asked = proofs ?? .none
    return FamilyProofReport.read(
      drawnFamily,
      options: ProofOptions(
        axes: true, features: asked.features, languages: asked.languages, glyphs: asked.glyphs))
  }
}

/// What drawing a specimen found out, for the manifest and the run summary.
public struct SpecimenResult: Sendable, Hashable {
  /// Characters of the sample text drawn as boxes because the family lacks them.
  public var missingGlyphs: Int
  public var warnings: [String]
  /// The own-script sample or glyph grid shown because the family cannot set the text.
  public var fallback: FallbackSample?
  /// Delivered `.staged`: the temporary file holding the image, complete but not yet flushed to
  /// disk nor renamed into place; nil when the file at the destination already held exactly
  /// these bytes and was left as it is (`AtomicFile.stage(_:for:)`).
  public var staged: String?
  /// Delivered `.kept`: the PNG's bytes, written nowhere.
  public var png: [UInt8]?
  /// What `SpecimenRequest.proofs` asked to read, for the manifest.
  public var proofs: FamilyProofReport?

  /// The thumbnail asked for (`SpecimenRequest.thumbnail`): written (staged like the image),
  /// or why not. The specimen stands either way.
  public var thumbnail: Result<Thumbnail.Result, RenderError>?
}

/// Draws specimens and pairing sheets. Each drawing gets a font map of its own from
/// `FontMaps`, holding exactly the faces it draws (the family, its partners, the label face),
/// freed when the next drawing asks for other families; surfaces and layouts are per drawing.
/// Not Sendable: one per process.
public final class SpecimenRenderer: FontDrawer {
  package let fontMaps: FontMaps
  /// The face for labels of families that cannot set their own name, and for notes: chosen
  /// once per run (`FontCatalog.labelFamily`), by the run's parent.
  public let labelFamily: FontFamily?
  /// What becomes of each PNG drawn.
  public enum Delivery: Sendable {
    /// Flushed to disk and renamed into place before `render` returns.
    case written
    /// Left complete under a temporary name beside its destination, named by
    /// `SpecimenResult.staged`, for a run's parent to flush and rename (`StagedFiles`), so
    /// that drawing never waits for the disk; or, when the destination already holds the same
    /// bytes, not written at all. Thumbnails are staged likewise. A run's workers.
    case staged
    /// Not written: its bytes are `SpecimenResult.png` (the destination only names it in
    /// messages). Thumbnails are staged. `serve`'s workers, which send cards over their pipe.
    case kept
  }

  public var delivery = Delivery.written

  package init(fontMaps: FontMaps, labelFamily: FontFamily?) {
    self.fontMaps = fontMaps
    self.labelFamily = labelFamily
  }

  /// A map holding only `family`'s faces (an empty one, where every character is a box, when
  /// its faces cannot be had): for drawings of one family without labels.
  func map(for family: FontFamily) -> FontMap {
    (try? fontMaps.map(for: [family])) ?? fontMaps.emptyMap()
  }

  /// The font map of one drawing: exactly the faces of `families` and of the label face.
  func itemMap(_ families: [FontFamily]) throws(RenderError) -> FontMap {
    try fontMaps.map(for: families + (labelFamily.map { [$0] } ?? []))
  }

  /// Renders `request` into a PNG at `path`, written atomically, from what its caller read of
  /// the family (`proofs`: `SpecimenRequest.readProofs()`, read once, before drawing).
  public func render(
    _ request: SpecimenRequest<FontFamily>, proofs: FamilyProofReport, to path: String
  ) throws(RenderError) -> SpecimenResult {
    var result = try renderPNG(
      edge: request.edge, scale: request.scale, compression: request.compression,
      background: Palette(request.theme).background, to: path, thumbnail: request.thumbnail
    ) { cr throws(RenderError) in try draw(request, proofs: proofs, on: cr) }
    if let asked = request.proofs {
      result.proofs = proofs.selecting(asked)
      result.warnings += result.proofs?.warnings ?? []
    }
    return result
  }

  /// The one way a square PNG is made: an opaque `edge × scale` image of `background`, painted
  /// in `edge` units, then checked and delivered (`delivery`); with `thumbnail`, its thumbnail
  /// too, from the same surface.
  func renderPNG(
    edge: Int, scale: Int, compression: PNGCompression, background: Colour, to path: String,
    thumbnail: String? = nil,
    _ paint: (CairoContext) throws(RenderError) -> SpecimenResult
  ) throws(RenderError) -> SpecimenResult {
    let (surface, cr) = try canvas(edge: edge, scale: scale, background: background)
    var result = try paint(cr)
    try record(surface, drawnOn: cr, compression: compression, to: path, into: &result)
    if let thumbnail {
      result.thumbnail = recordThumbnail(of: surface, to: thumbnail)
    }
    return result
  }

  /// An opaque `edge × scale` image of `background`, and a context on it drawing in `edge`
  /// units.
  func canvas(edge: Int, scale: Int, background: Colour) throws(RenderError) -> (
    CairoSurface, CairoContext
  ) {
    let pixels = edge * scale
    let surface: CairoSurface
    let cr: CairoContext
    do {
      surface = try CairoSurface.image(width: pixels, height: pixels, background: background)
      cr = try CairoContext(surface)
    } catch {
      throw RenderError("cannot make a \(pixels)×\(pixels) image: \(error)")
    }
    cr.scale(Double(scale))
    return (surface, cr)
  }

  /// Checks what was drawn on `surface` and delivers it as a PNG for `path`, as `delivery`
  /// says: written into place, staged (`result.staged`; nil when the file at `path` already
  /// held these bytes), or kept (`result.png`).
  func record(
    _ surface: CairoSurface, drawnOn cr: CairoContext, compression: PNGCompression,
    to path: String, into result: inout SpecimenResult
  ) throws(RenderError) {
    do {
      try cr.check("draw")
      switch delivery {
      case .written:
        try AtomicFile.write(to: path) { temporary in
          try surface.writePNG(to: temporary, compression: compression, sync: true)
        }
      case .staged:
        result.staged = try AtomicFile.stage(
          surface.encodedPNG(compression: compression, for: path), for: path)
      case .kept:
        result.png = try surface.encodedPNG(compression: compression, for: path)
      }
    } catch var error as FileError {
      error.path = path  // the file the user will look for, not its temporary name
      throw RenderError("\(error)")
    } catch {
      throw RenderError("\(error)")
    }
  }

  /// Writes the gallery's thumbnail of `surface` to `path` (staged unless the image is written
  /// in place), or says why not: the image stands either way.
  func recordThumbnail(of surface: CairoSurface, to path: String) -> Result<
    Thumbnail.Result, RenderError
  > {
    do {
      return .success(try Thumbnail.write(surface, to: path, staging: delivery != .written))
    } catch {
      return .failure(error)
    }
  }

  /// Draws a specimen on `cr` in a square of `request.edge` units, already painted with the
  /// theme's background (`renderPNG`), with what its caller read of the family (`proofs`):
  /// lays it out, then paints it from the top down and from the foot up, as its parts stack.
  func draw(
    _ request: SpecimenRequest<FontFamily>, proofs: FamilyProofReport, on cr: CairoContext
  ) throws(RenderError) -> SpecimenResult {
    var page = try layOut(request, axes: proofs.axes ?? [], on: cr)
    let headerBottom = drawHeader(page, saved: request.saved)
    let colourNote = page.family.colour?.notDrawnNote
    if let colourNote { page.warnings.append("family '\(page.family.name)': \(colourNote)") }
    drawVariableLine(page, proofs.variationSummary, colour: colourNote, below: headerBottom)
    var footer = drawBadges(page)
    footer.right = drawFaceCount(page, footer, named: request.face != nil)
    // The "pairs well with" strip above the footer.
    let areaBottom = footer.top - 36 * page.k
    var contentBottom = areaBottom
    if !request.partners.isEmpty, let labelContext = page.labelContext {
      let stripHeight = drawPartners(
        request.partners, bottom: contentBottom, left: page.margin, width: page.width,
        k: page.k, cr: cr, map: page.itemMap, labelContext: labelContext,
        palette: page.palette)
      contentBottom -= stripHeight + 30 * page.k
    }
    let area = (top: headerBottom + 60 * page.k, bottom: contentBottom, areaBottom: areaBottom)
    let lacks =
      page.pictographic
      || FallbackSample.showsOwnScript(
        request.text, language: page.settings.language, family: page.family)
    let sample = lacks ? drawFallback(page, request, area) : drawSample(page, request, area)
    drawNotes(&page, sample, footer: footer)
    if page.familyContext.damagedColourBitmaps > 0,
      let warning = DamagedColourBitmaps.warning(
        family: page.family.name, face: page.regular, text: request.text, in: "the specimen")
    {
      page.warnings.append(warning)
    }
    return SpecimenResult(
      missingGlyphs: sample.missing, warnings: page.warnings, fallback: sample.fallback)
  }

  /// A specimen laid out, before anything is painted: the family as drawn, the face its
  /// sample is set in, the contexts its text is set from, its settings, and the square's
  /// measures. What every stage of painting shares.
  struct SpecimenPage {
    /// The label face's context on the drawing's map (`itemMap`); nil without a label face.
    let labelContext: TextContext?
    let cr: CairoContext
    let family: FontFamily
    let regular: FontFace
    /// The face the sample is set in: the real bold / italic asked for, else the regular.
    let face: FontFace
    let palette: Palette
    /// The side of the square, in its units.
    let edge: Double
    /// The map of the drawing (`itemMap`) and the family's contexts on it; text in `face` is
    /// set from `faceContext`.
    let itemMap: FontMap
    let familyContext: TextContext
    let faceContext: TextContext
    let mark: TextLayout.Ellipsis
    /// The request's sample settings, coordinates clamped to the axes of the face drawn.
    let settings: SampleSettings
    /// The family draws pictographs where Latin is asked for (a symbol font).
    let pictographic: Bool
    var warnings: [String]

    /// The square's units against the 1080 it is designed in.
    var k: Double { edge / 1080 }
    var margin: Double { 80 * k }
    /// The width between the margins.
    var width: Double { edge - 2 * margin }
  }

  /// Lays out `request` on `cr`: the family as drawn, refused when Pango cannot draw it or
  /// fontconfig offers a substitute; the face of its sample; the contexts of the drawing's map;
  /// the sample's coordinates, clamped to the face's axes (`axes`: the family's).
  func layOut(_ request: SpecimenRequest<FontFamily>, axes: [FontProofs.Axis], on cr: CairoContext)
    throws(RenderError) -> SpecimenPage
  {
    let family = request.drawnFamily
    guard family.isRenderable, let regular = family.regularFace else {
      throw RenderError(
        "family '\(family.name)' has no font Pango can draw (Type 1 or bitmap only)")
    }
    let itemMap = try self.itemMap([family] + request.partners)
    let familyContext = itemMap.makeContext(for: cr)
    var warnings: [String] = []

    // The face the sample is set in: the face named, or the real bold/italic asked for, else
    // regular.
    var face = regular
    if let name = request.face {
      let (named, warning) = SpecimenRenderer.face(named: name, in: family, regular: regular)
      face = named
      if let warning { warnings.append(warning) }
    } else if request.bold || request.italic {
      if let real = family.face(bold: request.bold, italic: request.italic) {
        face = real
      } else {
        let wanted = [request.bold ? "bold" : nil, request.italic ? "italic" : nil]
          .compactMap { $0 }.joined(separator: " ")
        warnings.append(
          "family '\(family.name)' has no real \(wanted) face; shown in \(regular.style)")
      }
    }

    // Text set in a face other than the regular one draws from a map holding only it, so
    // that the face named is the face drawn (`FontMaps.map(for:only:)`).
    let faceContext =
      face == regular
      ? familyContext : try fontMaps.map(for: family, only: face).makeContext(for: cr)
    try checkNotSubstituted(family, face: face, context: faceContext)
    var settings = request.sample ?? .none
    if !settings.variations.isEmpty {
      let (coordinates, warning) = coordinates(
        settings.variations, family: family, face: face, context: faceContext,
        familyAxes: axes)
      settings.variations = coordinates
      if let warning { warnings.append(warning) }
    }
    let probe = FontSpec(family: family.name, size: 12, face: face)
    let pictographic = faceContext.drawsPictographsForLatin(probe)
    let labelContext = labelFamily.map { _ in itemMap.makeContext(for: cr) }
    return SpecimenPage(
      labelContext: labelContext, cr: cr, family: family, regular: regular, face: face,
      palette: Palette(request.theme), edge: Double(request.edge), itemMap: itemMap,
      familyContext: familyContext, faceContext: faceContext,
      mark: ellipsis(labels: labelContext), settings: settings, pictographic: pictographic,
      warnings: warnings)
  }

  /// The header: the family's name in small caps (in the family when it can set its own
  /// name), an imported font's amber dot, a saved family's heart, and the rule under them.
  /// Returns the header's bottom.
  func drawHeader(_ page: SpecimenPage, saved: Bool) -> Double {
    let (cr, family, k, margin, palette) = (page.cr, page.family, page.k, page.margin, page.palette)
    let ownName = !page.pictographic && family.coverage.missing(in: family.name).isEmpty
    let labelText = Sanitize.terminal(family.name)
    let labelWidth = page.edge - 2 * margin - 90 * k
    let label: TextLayout
    if !ownName, let labelFamily, let labelContext = page.labelContext {
      label = SpecimenRenderer.name(
        labelText, family: labelFamily.name, face: labelFamily.regularFace, k: k,
        in: labelContext)
      label.ellipsize(width: labelWidth)
    } else {
      label = SpecimenRenderer.name(
        labelText, family: family.name, face: page.regular, k: k, in: page.familyContext,
        capitals: family.coverage.missing(in: labelText.uppercased()).isEmpty)
      label.ellipsize(width: labelWidth, mark: page.mark)
    }
    cr.setColour(palette.text)
    let header = SpecimenRenderer.header(label, margin: margin, k: k)
    let labelTop = header.baseline - label.baseline
    label.draw(at: margin, labelTop)
    if family.isCustom {
      // The amber dot of an imported font, centred on the label's x-height.
      cr.setColour(palette.accent)
      cr.circle(
        margin + min(label.size.width, labelWidth) + 18 * k, header.baseline - 9 * k,
        radius: 7 * k)
      cr.fill()
    }
    if saved {
      // As tall as the name's capitals, its point on the name's baseline.
      let heart = SpecimenRenderer.heartBox(
        baseline: header.baseline, inkTop: labelTop + label.inkRect.y, k: k)
      cr.setColour(palette.accent)
      cr.heartPath(centreX: page.edge - margin - 18 * k, top: heart.top, size: heart.size)
      cr.fill()
    }
    cr.setColour(palette.text, alpha: 0.16)
    cr.rectangle(margin, header.bottom + 18 * k, page.width, max(1, k))
    cr.fill()
    return header.bottom
  }

  /// One quiet line under the header's rule, in the space above the sample: `summary` when the
  /// face drawn is variable (`FamilyProofReport.variationSummary`), and what of its colour is
  /// drawn in one colour (`FontColour.notDrawnNote`), the two parted by a middle dot.
  func drawVariableLine(
    _ page: SpecimenPage, _ summary: String?, colour: String?, below headerBottom: Double
  ) {
    let variable = page.family.isVariable(page.face) ? summary : nil
    let parts = [variable, colour].compactMap { $0 }
    guard !parts.isEmpty, let labelContext = page.labelContext, let labelFamily else { return }
    let k = page.k
    let line = TextLayout(
      parts.joined(separator: "  ·  "),
      font: FontSpec(family: labelFamily.name, size: 17 * k, face: labelFamily.regularFace),
      in: labelContext, letterSpacing: 1 * k, fallback: true)
    line.ellipsize(width: page.width)
    page.cr.setColour(page.palette.text, alpha: 0.55)
    line.draw(at: page.margin, headerBottom + 30 * k)
  }

  /// What the sample's stage set: boxes drawn for characters the family lacks, those
  /// characters, and what was shown in place of a text the family cannot set.
  struct SampleOutcome {
    var missing = 0
    var lacking: [Unicode.Scalar] = []
    var fallback: FallbackSample?
  }

  /// The sample: large, centred, wrapped, shrunk to fit the area from `top` to `bottom`
  /// (above the strip; `areaBottom`: the foot of the whole area, strip or no strip).
  func drawSample(
    _ page: SpecimenPage, _ request: SpecimenRequest<FontFamily>,
    _ area: (top: Double, bottom: Double, areaBottom: Double)
  ) -> SampleOutcome {
    let k = page.k
    let userFont = FontSpec(family: page.family.name, size: request.size * 2 * k, face: page.face)
    let sample = fitted(
      request.text, font: userFont, context: page.faceContext, width: page.width,
      height: area.bottom - area.top, minimum: 10 * k,
      leading: SpecimenRenderer.sampleLeading,
      mark: page.mark, settings: page.settings)
    let outcome = SampleOutcome(missing: sample.unknownGlyphs, lacking: sample.unknownCharacters)
    page.cr.setColour(page.palette.text)
    // Centred in the whole area, strip or no strip, so that a short text sits at one height
    // on every specimen; raised only as far as its ink would reach into the strip.
    var top = SpecimenRenderer.sampleTop(sample, top: area.top, bottom: area.areaBottom)
    let ink = sample.inkRect
    if top + ink.y + ink.height > area.bottom {
      top = SpecimenRenderer.sampleTop(sample, top: area.top, bottom: area.bottom)
    }
    sample.draw(at: page.margin, top)
    return outcome
  }

  /// For a family that cannot set the text (or draws pictographs for Latin): the user's
  /// text, smaller, above, honest about what the family does with it; then, under a heading,
  /// what the family shows instead (`FallbackSample`): the text in capitals, an own-script
  /// sample or its glyphs.
  func drawFallback(
    _ page: SpecimenPage, _ request: SpecimenRequest<FontFamily>,
    _ area: (top: Double, bottom: Double, areaBottom: Double)
  ) -> SampleOutcome {
    let (cr, family, k, margin) = (page.cr, page.family, page.k, page.margin)
    let (contentTop, contentBottom) = (area.top, area.bottom)
    let choice = FallbackSample.choose(
      for: family, preferGrid: page.pictographic, text: request.text)
    let split = contentTop + (contentBottom - contentTop) * 0.34
    let caption = page.labelContext ?? page.familyContext
    let captionFamily = labelFamily ?? family
    let yours = TextLayout(
      "YOUR TEXT",
      font: FontSpec(family: captionFamily.name, size: 16 * k, face: captionFamily.regularFace),
      in: caption, letterSpacing: 2 * k, fallback: true)
    cr.setColour(page.palette.accent)
    yours.draw(at: margin, contentTop)
    let userSmall = FontSpec(
      family: family.name, size: min(request.size * 2 * k, 44 * k), face: page.face)
    let sample = fitted(
      request.text, font: userSmall, context: page.faceContext, width: page.width,
      height: split - contentTop - 40 * k, minimum: 10 * k,
      leading: SpecimenRenderer.sampleLeading,
      mark: page.mark, settings: page.settings)
    let outcome = SampleOutcome(
      missing: sample.unknownGlyphs, lacking: sample.unknownCharacters, fallback: choice)
    cr.setColour(page.palette.text, alpha: 0.8)
    sample.draw(at: margin, contentTop + 30 * k)

    let heading: String
    switch choice {
    case .capitals:
      heading = "YOUR TEXT IN CAPITALS"
    case .language(let code, let name, _):
      heading =
        name == code ? "OWN-SCRIPT SAMPLE (\(code))" : "OWN-SCRIPT SAMPLE: \(name.uppercased())"
    case .glyphGrid:
      heading = page.pictographic ? "SYMBOL FONT: ITS GLYPHS" : "ITS OWN GLYPHS"
    }
    let head = TextLayout(
      heading,
      font: FontSpec(family: captionFamily.name, size: 16 * k, face: captionFamily.regularFace),
      in: caption, letterSpacing: 2 * k, fallback: true)
    cr.setColour(page.palette.accent)
    head.draw(at: margin, split + 10 * k)
    drawShownInstead(choice, page, request, top: split + 44 * k, bottom: contentBottom)
    return outcome
  }

  /// What a family that cannot set the text shows instead, from `top` to `bottom`, in its
  /// regular face.
  func drawShownInstead(
    _ choice: FallbackSample, _ page: SpecimenPage, _ request: SpecimenRequest<FontFamily>,
    top: Double, bottom contentBottom: Double
  ) {
    let (cr, family, k, margin) = (page.cr, page.family, page.k, page.margin)
    switch choice {
    case .capitals(let capitals):
      let layout = fitted(
        capitals,
        font: FontSpec(family: family.name, size: request.size * 2 * k, face: page.regular),
        context: page.familyContext, width: page.width, height: contentBottom - top,
        minimum: 10 * k, leading: SpecimenRenderer.sampleLeading, mark: page.mark,
        settings: page.settings)
      cr.setColour(page.palette.text)
      layout.draw(
        at: margin, SpecimenRenderer.sampleTop(layout, top: top, bottom: contentBottom))
    case .language(let code, _, let own):
      let layout = fitted(
        own, font: FontSpec(family: family.name, size: request.size * 2 * k, face: page.regular),
        context: page.familyContext, width: page.width, height: contentBottom - top,
        minimum: 10 * k, language: code, mark: page.mark)
      cr.setColour(page.palette.text)
      layout.draw(at: margin, top + max(0, (contentBottom - top - layout.size.height) / 2))
    case .glyphGrid(let glyphs):
      drawGrid(
        glyphs, family: family, face: page.regular, context: page.familyContext, left: margin,
        top: top, width: page.width, height: contentBottom - top, palette: page.palette, cr: cr)
    }
  }

  /// The quiet note at the right of the footer (the characters the family lacks, a symbol
  /// font), and the run's warning of the boxes drawn.
  func drawNotes(
    _ page: inout SpecimenPage, _ sample: SampleOutcome, footer: Footer
  ) {
    var notes: [String] = []
    if sample.missing > 0 {
      // Named only in characters the note's own face draws (its font map holds no other).
      let labels = labelFamily?.coverage
      notes.append(
        SpecimenRenderer.missingNote(sample.lacking) { labels?.contains($0) == true })
      page.warnings.append(
        SpecimenRenderer.missingWarning(
          page.family.name, boxes: sample.missing, sample.lacking,
          instead: sample.fallback.map(SpecimenRenderer.shows)))
    }
    if page.pictographic { notes.append("draws symbols, not letters") }
    guard !notes.isEmpty, let labelContext = page.labelContext, let labelFamily else { return }
    let (k, margin, badgeSize) = (page.k, page.margin, footer.badgeSize)
    let left = footer.right + 26 * k
    let note = TextLayout(
      notes.joined(separator: " · "),
      font: FontSpec(family: labelFamily.name, size: 19 * k, face: labelFamily.regularFace),
      in: labelContext, width: max(1, page.edge - margin - left), alignment: .right,
      fallback: true)
    page.cr.setColour(page.palette.text, alpha: 0.55)
    note.draw(at: left, footer.top + (badgeSize - note.size.height) / 2)
  }

  /// The coordinates to set `face` at: the settings clamped to the axes of the file Pango
  /// draws the face from. A family can mix static files with a variable one (Debian's Inter:
  /// `Inter-Regular.otf` beside `Inter.var.ttf`), and fontconfig may pick a static file for a
  /// face: then no coordinate can apply, and the warning says so rather than draw the default
  /// weight silently. nil warning when the face is variable or the family has no axes at all.
  func coordinates(
    _ settings: [VariationSetting], family: FontFamily, face: FontFace, context: TextContext,
    familyAxes: [FontProofs.Axis]
  ) -> ([VariationSetting], String?) {
    guard let drawn = context.loadedFile(for: FontSpec(family: family.name, size: 12, face: face))
    else { return ([], nil) }
    let axes = FontAxes.read(file: drawn.file, index: drawn.index)
    let wanted = Set(settings.map(\.tag))
    if !familyAxes.contains(where: { wanted.contains($0.tag) })
      || axes.contains(where: { wanted.contains($0.tag) })
    {
      return (VariationSetting.resolve(settings, axes: axes, family: family.name).coordinates, nil)
    }
    let file = URL(fileURLWithPath: drawn.file).lastPathComponent
    return (
      [],
      "family '\(Sanitize.terminal(family.name))': the face drawn for the sample "
        + "(\(Sanitize.terminal(face.style)), \(Sanitize.terminal(file))) is static; "
        + "the coordinates \(VariationSetting.pangoString(settings)) are not applied"
    )
  }

  /// Never a substitute: the font Pango loads for `family` must be one of the family's own
  /// files. fontconfig answers every request with some font; this is where that stops.
  func checkNotSubstituted(_ family: FontFamily, face: FontFace?, context: TextContext)
    throws(RenderError)
  {
    guard let loaded = context.loadedFile(for: FontSpec(family: family.name, size: 12, face: face))
    else {
      throw RenderError(
        "no font of family '\(family.name)' could be loaded (\(family.files.joined(separator: ", ")))"
      )
    }
    guard family.files.contains(loaded.file) else {
      throw RenderError(
        "fontconfig offered '\(loaded.file)' for family '\(family.name)'; refusing a substitute")
    }
  }

  /// Our ellipsis for a family's text: in its face when it has U+2026, else in the label face
  /// (`labels`, a context of the label family's font map).
  func ellipsis(labels: TextContext?) -> TextLayout.Ellipsis {
    TextLayout.Ellipsis(
      neutral: labelFamily.flatMap { label in labels.map { (label.name, label.regularFace, $0) } })
  }

  /// A layout of `text` at the largest size up to `font.size` whose wrapped lines fit: no word
  /// wider than `width` (lines break only between words, never with an added hyphen; a word
  /// that does not fit makes the text smaller) and the height within `height`. At `minimum`, a
  /// word still too wide breaks between its characters, and lines that still do not fit are
  /// dropped behind our ellipsis (`mark`).
  func fitted(
    _ text: String, font: FontSpec, context: TextContext, width: Double, height: Double,
    minimum: Double, alignment: TextLayout.Alignment = .centre, lineSpacing: Double = 0,
    leading: TextLayout.Leading? = nil,
    language: String? = nil, mark: TextLayout.Ellipsis? = nil, settings: SampleSettings = .none
  ) -> TextLayout {
    var spec = font
    func make(_ wrap: TextLayout.Wrap = .words, text: String = text) -> TextLayout {
      let layout = TextLayout(
        sample: text, font: spec, settings: settings, in: context, width: width, wrap: wrap,
        alignment: alignment, language: language)
      if let leading {
        layout.setLeading(leading)
      } else if lineSpacing > 0 {
        layout.setLineSpacing(lineSpacing)
      }
      return layout
    }
    var layout = make()
    while spec.size > minimum {
      let tall = layout.size.height > height
      let wide = layout.overflowsWidth
      if !tall && !wide { break }
      var next = spec.size
      if tall {
        // Area shrinks with the square of the size; one step straight to the likely fit, then
        // small steps.
        let ratio = (height / layout.size.height).squareRoot()
        next = min(spec.size * 0.94, spec.size * ratio)
      }
      if wide {
        // The widest word scales with the size: straight to the size where it fits.
        next = min(next, spec.size * 0.999 * width / max(layout.widestLine, 0.01))
      }
      spec.size = max(minimum, next)
      layout = make()
    }
    if layout.overflowsWidth {
      layout = make(.anywhere)
    } else {
      layout = TextLayout.pullingBackLastWord(layout) { make(text: $0) }
    }
    if layout.size.height > height { layout.limitHeight(height, mark: mark) }
    return layout
  }

  /// The sample's lines are at least 1.12 times its size apart: a font whose own line height
  /// is its size (Lato) set a long text solid, descenders on the next line's ascenders; fonts
  /// that set their lines further apart (tall scripts among them) keep their own, up to 1.4
  /// times the size unless their ink needs more (a math font's line height is made for
  /// formulas).
  static let sampleLeading = TextLayout.Leading(multiple: 1.12, atLeast: true, atMost: 1.4)

  /// Where a sample's layout is drawn to sit in the middle of the space from `top` to
  /// `bottom`: centred by its ink, so that paging through specimens the text stays put
  /// whatever each face's line height (STIX Math's lines are twice as tall as its letters, and
  /// centring its line boxes set a one-line text 100 px lower than Cantarell's). Ink taller
  /// than the space, or that centring would push out of it, is kept inside from the top.
  static func sampleTop(_ layout: TextLayout, top: Double, bottom: Double) -> Double {
    let ink = layout.inkRect
    let room = bottom - top
    guard ink.height > 0, ink.height <= room else {
      return top + max(0, (room - layout.size.height) / 2)
    }
    return top + (room - ink.height) / 2 - ink.y
  }

  /// The family's name for the header: in the face's real small capitals (`smcp`), else in
  /// capitals of one size, spaced a little more. Pango would otherwise make small capitals up
  /// from capitals scaled down, their strokes visibly thinner than the full capitals beside
  /// them: a face faked, which a specimen never shows. `capitals`: whether the face has the
  /// name's capitals; when it does not, or the face is italic, the name is set as written.
  static func name(
    _ text: String, family: String, face: FontFace?, k: Double, in context: TextContext,
    capitals: Bool = true
  ) -> TextLayout {
    let style = nameStyle(face)
    // A chancery or script face (slanted: TeX Gyre Chorus, whose only face is "Regular" to
    // fontconfig, and Z003) keeps its name as written: spaced capitals of a hand do not read.
    if style.smallCaps || !capitals || style.slanted {
      return TextLayout(
        text, font: FontSpec(family: family, size: 30 * k, face: face), in: context,
        smallCaps: style.smallCaps, letterSpacing: 1.5 * k)
    }
    return TextLayout(
      text.uppercased(), font: FontSpec(family: family, size: 26 * k, face: face), in: context,
      letterSpacing: 2.5 * k)
  }

  /// What the header needs to know of `face`, read from its file once: whether it has real
  /// small capitals (`smcp` among its GSUB features), and whether it is slanted (fontconfig's
  /// slant, or an italic angle in its `post` table, which a script face named "Regular" still
  /// has; calls `hb_style_get_value`).
  static func nameStyle(_ face: FontFace?) -> (smallCaps: Bool, slanted: Bool) {
    guard let face else { return (false, false) }
    guard face.isOpenType, let hb = try? HarfBuzzFace(file: face.file, index: face.index) else {
      return (false, face.slant != 0)
    }
    let smallCaps = hb.featureTags(.gsub).contains(HarfBuzzTag.make("smcp"))
    return (smallCaps, face.slant != 0 || abs(HarfBuzzFont(face: hb).slantAngle) >= 1)
  }

  /// Whether `face` has real small capitals (see `nameStyle`).
  static func hasSmallCaps(_ face: FontFace?) -> Bool { nameStyle(face).smallCaps }

  /// Whether `face` is slanted (see `nameStyle`).
  static func isSlanted(_ face: FontFace?) -> Bool { nameStyle(face).slanted }

  /// Where the name label sits: its baseline and the bottom of the header, the same in every
  /// specimen (a name 1 em below the margin, the rule under a 40-unit header) whatever the
  /// face's ascent and line height, so that paging through specimens the name and the rule do
  /// not jump. Only ink that would reach past them moves them: ink more than 1.8 em above the
  /// baseline pushes the name down, ink below the header's bottom pushes the rule down.
  static func header(_ label: TextLayout, margin: Double, k: Double) -> (
    baseline: Double, bottom: Double
  ) {
    let ink = label.inkRect
    let above = label.baseline - ink.y
    let below = ink.y + ink.height - label.baseline
    let baseline = max(margin + 30 * k, margin - 24 * k + above)
    return (baseline, max(margin + 40 * k, baseline + below))
  }

  /// The heart of a saved family beside its name (`heartPath`'s `top` and `size`): the
  /// shape spans 0.05 to 0.95 of its size, here from the top of the name's ink (its capitals)
  /// to its baseline, between 20 and 40 px at 1080 whatever the name's face does.
  static func heartBox(baseline: Double, inkTop: Double, k: Double) -> (top: Double, size: Double) {
    let size = min(40 * k, max(20 * k, (baseline - inkTop) / 0.9))
    return (baseline - 0.95 * size, size)
  }

  /// A family's glyphs in a grid of eight columns, centred in the space given, in cells as
  /// large as it allows.
  func drawGrid(
    _ glyphs: [String], family: FontFamily, face: FontFace, context: TextContext, left: Double,
    top: Double, width: Double, height: Double, palette: Palette, cr: CairoContext
  ) {
    guard !glyphs.isEmpty else { return }
    let columns = 8
    let rows = GlyphCell.rows(glyphs.count, columns: columns)
    let cell = min(width / Double(columns), height / Double(rows))
    let gridWidth = cell * Double(columns)
    let x0 = left + (width - gridWidth) / 2
    let y0 = top + (height - cell * Double(rows)) / 2
    GlyphCell.drawGrid(
      glyphs, columns: columns, cell: cell, at: x0, y0, family: family.name, face: face,
      context: context, line: 1, outline: (palette.text, alpha: 0.12), colour: palette.text,
      on: cr)
  }
}
