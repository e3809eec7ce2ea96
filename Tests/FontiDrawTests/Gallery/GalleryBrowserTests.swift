import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiText

/// The gallery page in a real browser (headless Chromium) from `file://`: the DOM after the
/// page's script ran, and screenshots. Skipped only when Chromium is not installed, with the
/// reason recorded.
@Suite(
  .serialized,
  .enabled(if: Chromium.find() != nil, Comment(rawValue: Chromium.unavailableReason ?? "")))
struct GalleryBrowserTests {
  let fixture: GalleryFixture
  let chromium: Chromium

  init() throws {
    fixture = try GalleryFixture.make()
    chromium = try Chromium.find().orThrow("chromium is not installed")
  }

  @Test func oneCardPerFamilyAndEveryLinkPointsAtAFile() throws {
    let dom = try chromium.dom(fixture.url())
    let cards = Self.cards(dom)
    #expect(cards.count == fixture.model.families.count)
    #expect(cards.allSatisfy { !$0.hidden })
    #expect(cards.map(\.title) == fixture.model.families.map { HTML.text($0.name) })
    // The script ran: the toolbar is shown and counts.
    #expect(dom.contains("<div class=\"bar\" id=\"g-bar\">"))
    #expect(dom.contains(">10 of 10 families</output>"))
    // The pairing sheet, which has no card, is listed once in the header, heading over body.
    #expect(
      dom.components(
        separatedBy:
          "<li><a href=\"pairings/dejavu-serif%2Bcantarell.png\"><span dir=\"auto\">DejaVu Serif"
          + "</span> over <span dir=\"auto\">Cantarell</span></a></li>"
      ).count == 2)
    #expect(dom.contains("<summary><b>Pairing sheets</b><span>1 sheet · heading over body</span>"))
    // Hostile names added no element: our two scripts, no <b>, no comment.
    #expect(dom.components(separatedBy: "<script").count - 1 == 2)
    #expect(!dom.contains("<b>bold</b>") && !dom.contains("<!--"))
    try expectLinksResolve(dom)
  }

  /// The search and filters in the URL are applied on load; the page writes the state back in
  /// the canonical form `GalleryState` specifies.
  @Test(arguments: [
    "?q=serif", "?q=SANS+hebrew", "?saved=1", "?custom=1&q=ctrl", "?variable=1",
    "?warnings=1&q=noto", "?lang=he", "?lang=fr&q=dejavu", "?q=%C3%89", "?q=zzz",
    "?saved=1&q=Serif&zzz=3", "?lang=xx&custom=1",
  ])
  func urlStateIsApplied(search: String) throws {
    let dom = try chromium.dom(fixture.url(search))
    var state = GalleryState(search: search)
    let languages = Set(fixture.model.families.flatMap { $0.languages.map(\.code) })
    if !languages.contains(state.language) { state.language = "" }  // unknown: ignored
    let expected = GalleryFixture.visible(state, in: fixture.model)
    let names = Dictionary(uniqueKeysWithValues: fixture.model.families.map { ($0.slug, $0.name) })
    let visible = Self.cards(dom).filter { !$0.hidden }.map(\.title)
    #expect(visible == expected.compactMap { names[$0].map(HTML.text) }, "\(search)")
    #expect(dom.contains(">\(visible.count) of 10 families</output>"), "\(search)")
    #expect(dom.contains("data-state=\"\(HTML.attribute(state.search))\""), "\(search)")
    #expect(dom.contains("id=\"g-none\" hidden") == !visible.isEmpty)
    // The controls show the state (as attributes: what the page was opened with).
    if !state.query.isEmpty {
      #expect(
        dom.contains("id=\"g-q\"") && dom.contains("value=\"\(HTML.attribute(state.query))\""))
    }
    #expect(dom.contains("id=\"g-saved\" autocomplete=\"off\" checked") == state.saved)
    #expect(dom.contains("id=\"g-custom\" autocomplete=\"off\" checked") == state.custom)
  }

  @Test func theFragmentOpensAFamilysDialog() throws {
    let dom = try chromium.dom(fixture.url("?saved=1", "#family=dejavu-serif"))
    #expect(dom.contains("<dialog id=\"g-viewer\" aria-labelledby=\"g-v-name\" open=\"\">"))
    #expect(dom.contains("<h2 id=\"g-v-name\" dir=\"auto\">DejaVu Serif</h2>"))
    #expect(
      dom.contains(
        "<img id=\"g-v-img\" alt=\"Specimen of DejaVu Serif\" src=\"specimens/dejavu-serif.png\">"))
    let styles = try #require(fixture.model.families.first { $0.slug == "dejavu-serif" }).styles
    #expect(
      dom.contains("<p id=\"g-v-meta\">\(styles.count) faces · wght 100–900 · slnt -10–0</p>"))
    #expect(dom.contains("<a href=\"catalogue.pdf#page=5\">catalogue.pdf, page 5</a>"))
    #expect(
      dom.contains("<a href=\"catalogue.pdf#page=6\">catalogue.pdf, every face: page 6</a>"))
    #expect(
      dom.contains("<a href=\"pairings/dejavu-serif%2Bcantarell.png\">with Cantarell as body</a>"))
    #expect(dom.contains("data-state=\"?saved=1#family=dejavu-serif\""))
    try expectLinksResolve(dom)

    // A hostile name in the dialog is text, and the encoded odd path still resolves.
    let hostile = try chromium.dom(fixture.url("", "#family=script"))
    #expect(
      hostile.contains(
        "<h2 id=\"g-v-name\" dir=\"auto\">\(HTML.text(GalleryFixture.hostileNames[0]))</h2>"))
    #expect(hostile.components(separatedBy: "<script").count - 1 == 2)
    let odd = try chromium.dom(fixture.url("", "#family=odd-path"))
    #expect(odd.contains("src=\"specimens/odd%20name%20%C3%A9%23%3F%25.png\""))
    try expectLinksResolve(odd)
  }

  /// On a screen of twice the density the cards show the specimens (four times the
  /// thumbnail's pixels), sharp; on an ordinary screen the light thumbnails. The odd path's
  /// encoded URL resolves in the `srcset` as in `src`.
  @Test func aDenseScreenGetsTheSpecimenAndAnOrdinaryOneTheThumbnail() throws {
    let page = try ChromiumSession(chromium, url: fixture.url())
    // The first card and the odd path's, each scrolled into view and loaded.
    func shown(_ slug: String) throws -> [String: Any] {
      let script =
        "(async () => { const i = document.querySelector('a[href^=\"specimens/\"][href*=\""
        + slug + "\"]').closest('li').querySelector('img'); i.scrollIntoView();"
        + " await i.decode(); return { src: decodeURIComponent(i.currentSrc.split('/').slice(-2)"
        + ".join('/')), width: i.naturalWidth }; })()"
      return try (page.evaluate(script) as? [String: Any]).orThrow("no image for \(slug)")
    }
    #expect(try shown("cantarell")["src"] as? String == "thumbs/cantarell.png")
    #expect(try shown("cantarell")["width"] as? Int == 270)
    try page.send(
      "Emulation.setDeviceMetricsOverride",
      ["width": 1280, "height": 800, "deviceScaleFactor": 2, "mobile": false])
    try page.send("Page.reload")
    try page.wait(for: "Page.loadEventFired")
    #expect(try shown("cantarell")["src"] as? String == "specimens/cantarell.png")
    // 1080 pixels at the density `2x` declares: 540 CSS pixels, twice the card's thumbnail.
    #expect(try shown("cantarell")["width"] as? Int == 540)
    #expect(try shown("odd%20name")["src"] as? String == "specimens/odd name é#?%.png")
  }

  @Test func screenshotsAreNotBlankAndFollowTheColourScheme() throws {
    let folder = try TemporaryDirectory("gallery-shots")
    var gridDrawn = 0.0
    for (scheme, background) in [(Chromium.ColourScheme.light, 0xF3EBDD), (.dark, 0x0D0D0D)] {
      for (name, url) in [
        ("grid", fixture.url()), ("dialog", fixture.url("", "#family=dejavu-serif")),
      ] {
        let path = folder.file("\(name)-\(scheme).png")
        try chromium.screenshot(url, to: path, scheme: scheme)
        let image = try #require(RasterImage.load(png: path))
        #expect(image.width == 1280 && image.height == 800)
        let colours = Set(image.pixels).count
        let drawn = image.pixels.filter { !Self.near($0, UInt32(background)) }.count
        #expect(colours > 500, "\(name) \(scheme): \(colours) colours")
        // The grid is mostly thumbnails; an open dialog in the dark scheme is mostly ink (the
        // specimen's own background), its text and the backdrop-dimmed page.
        let least = name == "grid" ? 0.15 : 0.02
        #expect(
          Double(drawn) / Double(image.pixels.count) > least, "\(name) \(scheme): \(drawn) drawn")
        if name == "grid" && scheme == .light {
          gridDrawn = Double(drawn) / Double(image.pixels.count)
        }
        if name == "grid" {
          // The page's own background: cream in light, ink in dark.
          #expect(Self.near(image.pixels[2 * 1280 + 2], UInt32(background)), "\(scheme)")
        }
      }
    }
    // Filtered out means out of sight: with no match the grid shows no thumbnail (a card that
    // is `hidden` but styled `display: flex` would still be drawn).
    let path = folder.file("none.png")
    try chromium.screenshot(fixture.url("?q=zzz"), to: path)
    let image = try #require(RasterImage.load(png: path))
    let drawn = image.pixels.filter { !Self.near($0, 0xF3EBDD) }.count
    #expect(Double(drawn) / Double(image.pixels.count) < gridDrawn / 4, "\(drawn) drawn")
  }

  /// Real key events: the Tab order, a focus ring you can see, Enter on a card opens its
  /// dialog, arrows step, Escape closes and gives the focus back to the card, `/` goes to the
  /// search, typing filters and the URL follows.
  @Test func theKeyboardDoesEverything() throws {
    let page = try ChromiumSession(chromium, url: fixture.url())
    func focused() throws -> String {
      try page.evaluate(
        "(() => { const a = document.activeElement; return a.id || a.getAttribute('href') || a.tagName; })()"
      ) as? String ?? ""
    }
    var order: [String] = []
    for _ in 0..<11 {
      try page.press("Tab")
      order.append(try focused())
    }
    // The pairing sheets' disclosure (SUMMARY) comes after the documents; its links only once
    // it is open.
    #expect(
      order == [
        "catalogue.pdf", "diff/diff.pdf", "diff/diff.md", "SUMMARY", "g-q", "g-saved",
        "g-custom", "g-variable", "g-warnings", "g-lang", "specimens/cantarell.png",
      ])
    // The focused card is outlined in amber: many more amber pixels than before.
    let ring = try Self.amberPixels(try page.screenshot())
    try page.press("Tab")
    #expect(try focused() == "specimens/d050000l.png")
    try page.evaluate("document.activeElement.blur()")
    try page.settle()
    let none = try Self.amberPixels(try page.screenshot())
    #expect(ring > none + 1000, "\(ring) amber pixels with a card focused, \(none) without")

    try page.evaluate("document.querySelector('a[href=\"specimens/cantarell.png\"]').focus()")
    try page.press("Enter")
    #expect(try page.evaluate("document.getElementById('g-viewer').open") as? Bool == true)
    #expect(
      try page.evaluate("document.getElementById('g-v-name').textContent") as? String == "Cantarell"
    )
    #expect(try focused() == "g-close")
    #expect(try page.evaluate("location.hash") as? String == "#family=cantarell")
    try page.press("ArrowRight")
    #expect(
      try page.evaluate("document.getElementById('g-v-name').textContent") as? String == "D050000L")
    #expect(try page.evaluate("location.hash") as? String == "#family=d050000l")
    try page.press("Escape")
    #expect(try page.evaluate("document.getElementById('g-viewer').open") as? Bool == false)
    #expect(try focused() == "specimens/d050000l.png")
    #expect(try page.evaluate("location.hash") as? String == "")

    try page.press("/")
    #expect(try focused() == "g-q")
    try page.type("serif")
    let visible = GalleryFixture.visible(GalleryState(query: "serif"), in: fixture.model).count
    #expect(
      try page.evaluate("document.getElementById('g-count').textContent") as? String
        == "\(visible) of 10 families")
    #expect(try page.evaluate("location.search") as? String == "?q=serif")
    try page.press("Tab")
    try page.press(" ")
    #expect(try focused() == "g-saved")
    #expect(try page.evaluate("location.search") as? String == "?q=serif&saved=1")
  }

  // MARK: Helpers

  /// Pixels of a PNG close to the light theme's amber (#B8740A).
  static func amberPixels(_ png: Data) throws -> Int {
    let folder = try TemporaryDirectory("gallery-shot")
    try png.write(to: URL(fileURLWithPath: folder.file("shot.png")))
    let image = try RasterImage.load(png: folder.file("shot.png")).orThrow("not a PNG")
    return image.pixels.filter { Self.near($0, 0xB8740A, by: 40) }.count
  }

  struct Card {
    var hidden: Bool
    /// The card's name as serialized (escaped) in the DOM.
    var title: String
  }

  /// The cards of a serialized DOM, in order.
  static func cards(_ dom: String) -> [Card] {
    dom.components(separatedBy: "<li class=\"card\"").dropFirst().map { piece in
      let tag = piece.prefix { $0 != ">" }
      var title = ""
      if let h2 = piece.range(of: "<h2"), let end = piece.range(of: "</h2>") {
        let inner = piece[h2.upperBound..<end.lowerBound]
        let text = inner.replacingOccurrences(of: "</a>", with: "")
        if let close = text.lastIndex(of: ">") { title = String(text[text.index(after: close)...]) }
      }
      return Card(hidden: tag.contains(" hidden"), title: title)
    }
  }

  /// Every `href` and `src` in `dom` names a file in the gallery's folder (a fragment such as
  /// `#page=5` aside), and none leaves it.
  func expectLinksResolve(_ dom: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let values = GalleryPageTests.attributes(dom)
    #expect(values.count > 10, sourceLocation: sourceLocation)
    for value in values where value != "data:," {
      #expect(
        !value.contains(":") && !value.hasPrefix("/"), "\(value)", sourceLocation: sourceLocation)
      let path = String(value.prefix { $0 != "#" && $0 != "?" })
      let decoded = try path.removingPercentEncoding.orThrow("bad encoding in \(value)")
      #expect(
        FileManager.default.fileExists(atPath: fixture.folder.file(decoded)),
        "\(value) → \(decoded)", sourceLocation: sourceLocation)
    }
  }

  static func near(_ a: UInt32, _ b: UInt32, by tolerance: Int = 3) -> Bool {
    [0, 8, 16].allSatisfy { (shift: UInt32) in
      abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) <= tolerance
    }
  }
}
