import BrowserSupport
import FontTestSupport
import Foundation
import TestSupport

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// A small gallery on disk for the page and browser tests: specimens drawn from the fixture
/// fonts (hermetic), their thumbnails, stand-in files for a catalogue, a pairing sheet and a diff
/// review, and families with hostile names reusing those images.
struct GalleryFixture {
  let folder: TemporaryDirectory
  let model: GalleryModel

  var page: String { folder.file("index.html") }

  /// The page's `file://` URL with a query and fragment (`?saved=1`, `#family=x`).
  func url(_ search: String = "", _ fragment: String = "") -> URL {
    URL(string: URL(fileURLWithPath: page).absoluteString + search + fragment)
      ?? URL(fileURLWithPath: page)
  }

  /// Names a font file could carry: markup, a script end and a comment start, quotes and
  /// ampersands, bidirectional overrides and marks, control characters, something URL-like.
  static let hostileNames = [
    "</script><script>alert(1)</script><!-- & \"double\" 'single'",
    "\u{202E}lave\u{202C} Sans \u{200F}שלום & <b>bold</b>",
    "Ctrl\u{0}\u{7}\u{1B}[31m\u{85}\u{2028} https://evil.example/x",
  ]

  static func make() throws -> GalleryFixture {
    let folder = try TemporaryDirectory("gallery")
    let fm = FileManager.default
    for sub in ["specimens", "thumbs", "pairings", "diff"] {
      try fm.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
    }
    let environment = try TestFonts.environment()
    let renderer = SpecimenRenderer(environment: environment)

    var families: [GalleryModel.Family] = []
    func add(
      _ name: String, slug: String, source: String? = nil, file: String? = nil, saved: Bool = false,
      custom: Bool = false, axes: [GalleryModel.Axis] = [], languages: [(String, String)] = [],
      pages: [Int] = [], facesPage: Int? = nil, pairings: [GalleryModel.Pairing] = []
    ) throws {
      let base = file ?? slug
      let specimen = "specimens/\(base).png"
      var result = SpecimenResult(missingGlyphs: 0, warnings: [], fallback: nil, staged: nil)
      var styles = ["Regular"]
      var bold = false
      var italic = false
      if let source {
        try fm.copyItem(
          atPath: folder.file("specimens/\(source).png"), toPath: folder.file(specimen))
      } else {
        let family = try environment.catalog.family(named: name).orThrow("no fixture \(name)")
        result = try renderer.render(
          SpecimenRequest(family: family, saved: saved), to: folder.file(specimen))
        styles = family.styles
        bold = family.hasBold
        italic = family.hasItalic
      }
      let thumbnail = "thumbs/\(base).png"
      let size = try Thumbnail.write(fromPNG: folder.file(specimen), to: folder.file(thumbnail))
      // As a run's gallery has it: the specimen for dense screens when twice the thumbnail.
      let dense = GalleryModel.pngSize(folder.file(specimen)).map { $0.0 >= 2 * size.width }
      families.append(
        GalleryModel.Family(
          name: name, slug: slug, specimen: specimen,
          thumbnail: .init(path: thumbnail, width: size.width, height: size.height),
          highDensity: dense == true ? specimen : nil,
          styles: styles, bold: bold, italic: italic, custom: custom, saved: saved,
          missingGlyphs: result.missingGlyphs, warnings: result.warnings, axes: axes,
          languages: languages.map { .init(code: $0.0, name: $0.1) },
          cataloguePages: pages.map {
            .init(file: "catalogue.pdf", page: $0, facesPage: facesPage)
          },
          pairings: pairings))
    }
    let sheet = "pairings/dejavu-serif+cantarell.png"
    try add(
      "Cantarell", slug: "cantarell", languages: [("en", "English"), ("fr", "French")],
      pages: [3], pairings: [.init(file: sheet, partner: "DejaVu Serif", role: .body)])
    try add("D050000L", slug: "d050000l", pages: [4])
    try add(
      "DejaVu Serif", slug: "dejavu-serif", saved: true,
      axes: [.init(tag: "wght", min: 100, max: 900), .init(tag: "slnt", min: -10, max: 0)],
      languages: [("en", "English"), ("fr", "French"), ("de", "German")], pages: [5],
      facesPage: 6, pairings: [.init(file: sheet, partner: "Cantarell", role: .heading)])
    try add(
      "Noto Sans Bengali", slug: "noto-sans-bengali", custom: true,
      languages: [("bn", "Bangla")], pages: [6])
    try add("Noto Sans Hebrew", slug: "noto-sans-hebrew", languages: [("he", "Hebrew")])
    try add(hostileNames[0], slug: "script", source: "cantarell", saved: true)
    try add(hostileNames[1], slug: "rtl", source: "noto-sans-hebrew", languages: [("he", "Hebrew")])
    try add(hostileNames[2], slug: "ctrl", source: "d050000l", custom: true)
    try add("Odd Path É", slug: "odd-path", source: "dejavu-serif", file: "odd name é#?%")
    families.append(
      GalleryModel.Family(
        name: "Broken Family", slug: "broken-family", specimen: nil, styles: ["Regular"],
        error: "cannot read 'broken.ttf': not a font"))

    // Stand-ins: the gallery links to these files; their content does not matter here.
    try fm.copyItem(atPath: folder.file("specimens/dejavu-serif.png"), toPath: folder.file(sheet))
    for name in ["catalogue.pdf", "diff/diff.pdf", "diff/diff.md"] {
      try folder.write(name, "stand-in\n")
    }
    let model = GalleryModel(
      title: "Fixture <gallery> & \"friends\"", tool: "fonti-batch 1.0.0",
      date: Date(timeIntervalSince1970: 1_800_000_000), families: families,
      catalogues: [.init(file: "catalogue.pdf", pages: 8)],
      diff: .init(
        report: "diff/diff.pdf", summary: "diff/diff.md",
        counts: .init(added: 1, removed: 0, changed: 2, unchanged: 5)))
    try GalleryPage.write(model, to: folder.file("index.html"))
    return GalleryFixture(folder: folder, model: model)
  }

  /// Which cards a state shows, as the page's script decides it: every search term in the
  /// family's name (accents and case folded), every filter that is on, the language.
  static func visible(_ state: GalleryState, in model: GalleryModel) -> [String] {
    func fold(_ s: String) -> String {
      String(
        String.UnicodeScalarView(
          s.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            ![.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory)
          })
      ).lowercased()
    }
    let terms = fold(state.query).split(whereSeparator: { $0.isWhitespace }).map(String.init)
    return model.families.filter { f in
      (!state.saved || f.saved) && (!state.custom || f.custom)
        && (!state.variable || f.isVariable) && (!state.warnings || f.hasWarnings)
        && terms.allSatisfy { fold(f.name).contains($0) }
        && (state.language.isEmpty || f.languages.contains { $0.code == state.language })
    }.map(\.slug)
  }
}

extension Optional {
  func orThrow(_ message: String) throws -> Wrapped {
    guard let self else { throw Chromium.Failure(description: message) }
    return self
  }
}
