import BrowserSupport
import Foundation
import Testing

/// The gallery of a real run in headless Chromium, from `file://`: one card per family, every
/// link and image of the grid and of each family's dialog a file the run wrote, and each
/// `catalogue.pdf#page=N` the family's real page (its name is on it, `pdftotext`). Skipped only
/// when Chromium is not installed, with the reason.
@Suite(
  .serialized,
  .enabled(if: Chromium.find() != nil, Comment(rawValue: Chromium.unavailableReason ?? "")))
struct GalleryBrowserRunTests {
  @Test func everyLinkOfARunsGalleryPointsAtItsFile() throws {
    let chromium = try #require(Chromium.find())
    let box = try CLISandbox("fonti-gallery-browser")
    try box.write("specimens.yaml", GalleryRunTests.job)
    let run = try box.run(["run", "-q"])
    #expect(run.status == 0, "\(run)")
    let output = box.path("output")
    let page = URL(fileURLWithPath: output + "/index.html")

    let grid = try chromium.dom(page)
    #expect(grid.components(separatedBy: "<li class=\"card\"").count - 1 == 4)
    #expect(grid.contains(">4 of 4 families</output>"), "the page's script ran")
    let gridLinks = try Self.expectLinksResolve(grid, in: output)
    #expect(gridLinks.contains("catalogue.pdf") && gridLinks.contains("saved.pdf"))
    for slug in GalleryRunTests.slugs {
      #expect(gridLinks.contains("thumbs/\(slug).png"), "\(slug)")
      #expect(gridLinks.contains("specimens/\(slug).png"), "\(slug)")
    }

    // Each family's dialog: its catalogue pages and pairing sheets.
    let names = [
      "cantarell": "Cantarell", "d050000l": "D050000L", "dejavu-serif": "DejaVu Serif",
      "noto-sans-hebrew": "Noto Sans Hebrew",
    ]
    var pageLinks = 0
    var pairingLinks = 0
    for slug in GalleryRunTests.slugs {
      let name = try #require(names[slug])
      let url = try #require(URL(string: page.absoluteString + "#family=\(slug)"))
      let dom = try chromium.dom(url)
      #expect(dom.contains("<h2 id=\"g-v-name\" dir=\"auto\">\(name)</h2>"), "\(slug)")
      let links = try Self.expectLinksResolve(dom, in: output)
      // The dialog's links: `FILE#page=N` for each catalogue that shows the family.
      let dialog = dom.components(separatedBy: "id=\"g-viewer\"").last ?? ""
      for link in Self.attributes(dialog) where link.contains("#page=") {
        let parts = link.split(separator: "#")
        let file = String(parts[0])
        let number = try #require(Int(parts[1].dropFirst("page=".count)))
        pageLinks += 1
        if let text = try SystemTool.pdfText(output + "/" + file, page: number) {
          #expect(text.contains(name), "\(name) is not on page \(number) of \(file)")
        }
      }
      #expect(links.contains("specimens/\(slug).png"))
      pairingLinks += Self.attributes(dialog).filter { $0.hasPrefix("pairings/") }.count
    }
    // Four families in catalogue.pdf, DejaVu Serif in saved.pdf too; the one sheet on the
    // dialogs of both its families.
    #expect(pageLinks == 5)
    #expect(pairingLinks == 2)
  }

  /// Every `href` and `src` in `dom` names a file in `folder` (a fragment such as `#page=5`
  /// aside) and nothing leaves it; returns them decoded, without fragments.
  static func expectLinksResolve(
    _ dom: String, in folder: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Set<String> {
    var paths = Set<String>()
    for value in attributes(dom) where value != "data:," {
      #expect(
        !value.contains(":") && !value.hasPrefix("/"), "\(value)", sourceLocation: sourceLocation)
      let path = String(value.prefix { $0 != "#" && $0 != "?" })
      let decoded = try #require(path.removingPercentEncoding, "bad encoding in \(value)")
      #expect(
        FileManager.default.fileExists(atPath: folder + "/" + decoded), "\(value) → \(decoded)",
        sourceLocation: sourceLocation)
      paths.insert(decoded)
    }
    return paths
  }

  /// The values of every `href="…"` and `src="…"` in `html`, and each URL of a `srcset="…"`
  /// (entities `&amp;` decoded).
  static func attributes(_ html: String) -> [String] {
    var values: [String] = []
    for name in [" href=\"", " src=\"", " srcset=\""] {
      for piece in html.components(separatedBy: name).dropFirst() {
        let value = String(piece.prefix { $0 != "\"" })
        let urls =
          name == " srcset=\""
          ? value.split(separator: ",").compactMap {
            $0.split(separator: " ").first.map(String.init)
          }
          : [value]
        values += urls.map { $0.replacingOccurrences(of: "&amp;", with: "&") }
      }
    }
    return values
  }
}
