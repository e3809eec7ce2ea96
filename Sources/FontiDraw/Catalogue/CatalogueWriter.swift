import FontiFonts
import FontiModel
import FontiSupport
import FontiText
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes catalogue PDFs: plans the pages, draws them one at a time on Cairo's PDF surface
/// (each page's layouts are freed once it is shown, so memory stays flat in the number of
/// families), then passes the file through qpdf to repair Cairo 1.16's link bug, compress it
/// and give it a deterministic /ID. The file appears under its name only when it is whole
/// and clean.
///
/// Memory: Pango keeps every font it has loaded (coverage tables, HarfBuzz faces, mapped
/// files) for the life of its font map, which for a catalogue of every installed family would
/// grow to hundreds of megabytes. So the label face has one long-lived map holding only it,
/// and each family's text is drawn from a map holding only that family's faces
/// (`FontMaps`), dropped when its pages are done. Not Sendable and synchronous: one writer per
/// process, one catalogue at a time.
public final class CatalogueWriter: FontDrawer {
  let fontMaps: FontMaps
  /// The neutral face of running heads, captions and the names of families that cannot set
  /// their own.
  let labelFamily: FontFamily?
  /// The label family's regular face, and its faces for `labelFace(bold:italic:)` (regular,
  /// bold, italic, bold italic; nil where it has none), picked once: a page sets dozens of
  /// labels, and picking ranks every face by its style name.
  let labelRegular: FontFace?
  private let labelFaces: [FontFace?]

  package init(fontMaps: FontMaps, labelFamily: FontFamily?) {
    self.fontMaps = fontMaps
    self.labelFamily = labelFamily
    labelRegular = labelFamily?.regularFace
    labelFaces = [(false, false), (true, false), (false, true), (true, true)].map {
      labelFamily?.face(bold: $0.0, italic: $0.1)
    }
  }

  /// The label family's real face of that boldness and slant, if it has one.
  func labelFace(bold: Bool, italic: Bool) -> FontFace? {
    labelFaces[(bold ? 1 : 0) + (italic ? 2 : 0)]
  }

  /// The map of the label face, which the page drawer keeps for the whole catalogue.
  func labelFontMap() -> FontMap {
    guard let labelFamily else { return fontMaps.emptyMap() }
    return (try? fontMaps.map(for: [labelFamily])) ?? fontMaps.emptyMap()
  }

  /// A map holding only `family`'s faces, or the reason there is none (its faces cannot be
  /// had: a file removed since the fonts were listed).
  func makeFontMap(for family: FontFamily) -> Result<FontMap, RenderError> {
    do {
      return .success(try fontMaps.map(for: [family]))
    } catch {
      return .failure(error)
    }
  }

  /// Writes the catalogue of `input` to `path` (atomically: a temporary file in the same
  /// folder, renamed into place). A family that cannot be drawn gets a page saying so and a
  /// warning; only a failure of the file itself throws.
  public func write(_ input: CatalogueInput<FontFamily>, to path: String) throws(RenderError)
    -> CatalogueResult
  {
    let input = input.dated()
    let raw = AtomicFile.temporaryPath(for: path)
    defer { unlink(OutputFolder.systemPathOrSame(raw)) }
    let outcome = try drawRaw(input, to: OutputFolder.systemPathOrSame(raw), for: path)
    try PDFFile.finish(
      raw: raw, to: path, creationDate: input.date, pages: outcome.pages,
      tagging: outcome.tagging)
    return outcome
  }

  /// The first half of `write`: Cairo's PDF, links and all, at `raw` (a temporary file the
  /// caller removes). `path` is the catalogue's final name, for messages. Give it a `dated()`
  /// input when the second half must write the same date.
  public func drawRaw(_ input: CatalogueInput<FontFamily>, to raw: String, for path: String)
    throws(RenderError) -> CatalogueResult
  {
    let input = input.dated()
    let proofs = input.proofs.map { options in
      input.families.map { CatalogueProofData.read($0, options: options) }
    }
    // Each family's line, chosen once: the ink of its waterfall, and whether its glyphs stand
    // in place of the text.
    let lines = input.families.map { family in
      PageDrawer.line(
        of: family, text: input.text, language: input.sample?.language, pictographic: false)
    }
    let lineInk =
      input.sizes.isEmpty
      ? [] : zip(input.families, lines).map { CatalogueWriter.lineInk(of: $0, line: $1, input) }
    let grids = zip(input.families, lines).map {
      CataloguePlan.gridInPlaceOfText(input.text, family: $0, fallback: $1.fallback)
    }
    do {
      return try draw(
        CataloguePlan(input, proofs: proofs ?? [], lineInk: lineInk, grids: grids), input,
        proofs: proofs ?? [], to: raw)
    } catch let error as RenderError {
      throw error
    } catch {
      throw RenderError("cannot write catalogue '\(path)': \(error)")
    }
  }

  /// The ink of `family`'s waterfall line, as its pages will set it (the pictographic check
  /// needs Pango, so a family drawing pictographs for Latin is measured with the text it
  /// would set otherwise: either stays within display leading).
  static func lineInk(of family: FontFamily, _ input: CatalogueInput<FontFamily>) -> LineInk? {
    lineInk(
      of: family,
      line: PageDrawer.line(
        of: family, text: input.text, language: input.sample?.language, pictographic: false),
      input)
  }

  /// The same, `line` given.
  static func lineInk(
    of family: FontFamily, line: (text: String, fallback: FallbackSample?),
    _ input: CatalogueInput<FontFamily>
  ) -> LineInk? {
    guard family.isRenderable, let face = family.regularFace else { return nil }
    let language = line.fallback?.language ?? input.sample?.language ?? "en"
    return LineInk.read(face, text: line.text, language: language)
  }

  /// Draws every page of `plan` into a PDF at `path`, streaming: a page is finished and shown
  /// before the next is laid out.
  func draw(
    _ plan: CataloguePlan, _ input: CatalogueInput<FontFamily>,
    proofs: [CatalogueProofData?] = [], to path: String
  ) throws -> CatalogueResult {
    let g = plan.geometry
    let surface = try CairoSurface.pdf(path: path, width: g.width, height: g.height)
    try surface.setMetadata(.title, Sanitize.terminal(input.title))
    if let author = input.author, !author.isEmpty {
      try surface.setMetadata(.author, Sanitize.terminal(author))
    }
    try surface.setMetadata(.creator, FontiVersion.tool)
    let iso = PDFFile.isoDate(input.date)
    try surface.setMetadata(.createDate, iso)
    try surface.setMetadata(.modDate, iso)
    var ids: [Int32] = []
    for entry in plan.outline {
      ids.append(
        try surface.addOutline(
          entry.title, destination: entry.destination.name,
          parent: entry.parent.flatMap { $0 < ids.count ? ids[$0] : nil }))
    }

    let cr = try CairoContext(surface)
    cr.beginDocument()
    let pages = PageDrawer(writer: self, plan: plan, input: input, cr: cr, proofs: proofs)
    for page in plan.pages {
      pages.draw(page)
      cr.showPage()
      try cr.check("draw page \(page.number)")
    }
    let tagging = cr.endDocument()
    try surface.finish()
    var result = CatalogueResult(
      pages: plan.pages.count, missingGlyphs: pages.missing, warnings: pages.warnings)
    result.tagging = tagging
    result.familyPages = zip(input.families, plan.familyPages).enumerated().map { i, entry in
      RunManifest.FamilyPage(family: entry.0.name, page: entry.1, facesPage: plan.facesPages[i])
    }
    return result
  }
}
