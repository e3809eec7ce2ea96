import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel

/// Not a check: a gallery of a real run's output, to look at (page weight). `run` writes its own
/// gallery now (`GalleryModel(manifest:output:)`); this one stays to try facts supplied by hand
/// and thousands of families, and replaces the run's `index.html` (the next run writes it back).
/// `FONTI_GALLERY_LOOK=OUTPUT_DIR swift test --filter GalleryLook` reads `OUTPUT_DIR/manifest.json`,
/// writes `thumbs/` and `index.html` there and prints sizes. `FONTI_GALLERY_FACTS=FILE` adds
/// axes and languages from a JSON file `{family: {axes: [[tag, min, max]], languages:
/// [[code, name]]}}` (until the proofs report them); catalogue pages come from the PDFs'
/// outlines through `qpdf --json` when qpdf is installed. `FONTI_GALLERY_REPEAT=N` lists every
/// family N times (renamed, same images), to try the page at thousands of families.
@Suite struct GalleryLookTests {
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["FONTI_GALLERY_LOOK"] != nil,
      "set FONTI_GALLERY_LOOK=OUTPUT_DIR to build a gallery of a real run to look at"))
  func galleryOfARealRun() throws {
    let environment = ProcessInfo.processInfo.environment
    let folder = try #require(environment["FONTI_GALLERY_LOOK"])
    let manifest = try #require(RunManifest.load(folder + "/manifest.json"))
    var facts: [String: Facts] = [:]
    if let path = environment["FONTI_GALLERY_FACTS"] {
      facts = try JSONDecoder().decode(
        [String: Facts].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
    var pages: [String: [GalleryModel.CataloguePage]] = [:]
    for catalogue in manifest.catalogues {
      for (title, page) in outline(folder + "/" + catalogue.file) {
        pages[title, default: []].append(.init(file: catalogue.file, page: page))
      }
    }
    try FileManager.default.createDirectory(
      atPath: folder + "/thumbs", withIntermediateDirectories: true)
    let start = Date()
    var families: [GalleryModel.Family] = []
    var thumbnailBytes = 0
    for entry in manifest.families {
      var thumbnail: GalleryModel.Image?
      let specimen = entry.files.first?.path
      if let specimen {
        let path = "thumbs/\(entry.slug).png"
        let size = try Thumbnail.write(fromPNG: folder + "/" + specimen, to: folder + "/" + path)
        thumbnail = .init(path: path, width: size.width, height: size.height)
        thumbnailBytes +=
          (try FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.size] as? Int)
          ?? 0
      }
      let fact = facts[entry.family]
      families.append(
        GalleryModel.Family(
          name: entry.family, slug: entry.slug, specimen: specimen, thumbnail: thumbnail,
          styles: entry.styles, bold: entry.bold, italic: entry.italic, custom: entry.custom,
          saved: entry.saved, missingGlyphs: entry.missingGlyphs, warnings: entry.warnings,
          error: entry.error,
          axes: (fact?.axes ?? []).map { .init(tag: $0.tag, min: $0.min, max: $0.max) },
          languages: (fact?.languages ?? []).map { .init(code: $0[0], name: $0[1]) },
          cataloguePages: pages[entry.family] ?? [],
          pairings: manifest.pairings.compactMap { p in
            if p.heading == entry.family {
              return .init(file: p.file, partner: p.body, role: .heading)
            }
            if p.body == entry.family {
              return .init(file: p.file, partner: p.heading, role: .body)
            }
            return nil
          }))
    }
    let thumbnailSeconds = Date().timeIntervalSince(start)
    var diff: GalleryModel.DiffReview?
    if FileManager.default.fileExists(atPath: folder + "/diff/diff.pdf") {
      diff = .init(report: "diff/diff.pdf", summary: "diff/diff.md")
    }
    let repeats = Int(environment["FONTI_GALLERY_REPEAT"] ?? "1") ?? 1
    if repeats > 1 {
      let base = families
      families = (1...repeats).flatMap { r in
        base.map { f in
          var g = f
          if r > 1 {
            g.name += " \(r)"
            g.slug += "-\(r)"
          }
          return g
        }
      }
    }
    let model = GalleryModel(
      title: manifest.title, tool: manifest.tool,
      date: Timestamp.sourceDateEpoch() ?? Date(timeIntervalSince1970: 1_800_000_000),
      families: families,
      catalogues: manifest.catalogues.map { .init(file: $0.file, pages: $0.pages) }, diff: diff)
    let html = try GalleryPage.html(model)
    try GalleryPage.write(model, to: folder + "/index.html")
    let empty = try GalleryPage.html(
      GalleryModel(title: model.title, tool: model.tool, date: model.date, families: []))
    print(
      """
      gallery: \(families.count) families; thumbnails \(thumbnailBytes) bytes \
      (\(thumbnailBytes / max(families.count, 1)) per family) in \(thumbnailSeconds) s; \
      index.html \(html.count) bytes, of which \(empty.count) without families, \
      \((html.count - empty.count) / max(families.count, 1)) per family; \
      total \(html.count + thumbnailBytes) bytes
      """)
  }

  struct Facts: Decodable {
    var axes: [Axis]
    var languages: [[String]]

    struct Axis: Decodable {
      var tag: String
      var min: Double
      var max: Double

      init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        tag = try c.decode(String.self)
        min = try c.decode(Double.self)
        max = try c.decode(Double.self)
      }
    }
  }

  /// Top-level outline titles of a PDF and their pages, from `qpdf --json`.
  func outline(_ pdf: String) -> [(String, Int)] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
    process.arguments = ["--json=2", "--json-key=outlines", pdf]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return [] }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let outlines = json["outlines"] as? [[String: Any]]
    else { return [] }
    return outlines.compactMap { entry in
      guard let title = entry["title"] as? String, let page = entry["destpageposfrom1"] as? Int
      else { return nil }
      return (title, page)
    }
  }
}
