import BrowserSupport
import Foundation
import Testing

/// `serve`'s page in a real browser (headless Chromium through DevTools): typing redraws the
/// cards, a heart reaches the favourites manifest, a rebuilt font reaches the open page without
/// a reload, and what the page may not do is refused. Waits are guards, not measurements.
@Suite(.serialized, .enabled(if: Chromium.unavailableReason == nil))
struct ServeBrowserTests {
  let tests = ServeCommandTests()

  /// The page at the printed address, ready, its first cards drawn.
  func open(_ server: ServeProcess, query: String = "") throws -> (DevTools, Page) {
    let chromium = try #require(Chromium.find())
    let browser = try DevTools.launch(chromium: chromium)
    let page = try browser.newPage(url: server.address + query)
    try page.waitFor("window.fontiServe && window.fontiServe.ready")
    try page.waitFor(drawn)
    return (browser, page)
  }

  /// Every card on screen shows the page's current settings.
  let drawn = "document.body.dataset.drawnSeq === String(window.fontiServe.seq)"

  func shownSeq(_ page: Page, _ slug: String) throws -> Int? {
    (try page.evaluate(
      "document.querySelector('li.card[data-slug=\"\(slug)\"] img[data-seq]')?.dataset.seq")
      as? String).flatMap { Int($0) }
  }

  @Test func typingRedrawsTheCardsOnScreenWithTheServersPictures() throws {
    let box = try tests.sandbox()
    let server = try ServeProcess(box)
    let (browser, page) = try open(server)
    defer { browser.close() }
    let first = try #require(try page.evaluate("window.fontiServe.seq") as? Int)
    try page.focus("#s-text")
    try page.type("Quiz")
    try page.waitFor("window.fontiServe.seq > \(first) && " + drawn)
    let seq = try #require(try page.evaluate("window.fontiServe.seq") as? Int)
    for slug in ["answer-serif", "cantarell", "dejavu-serif"] {
      #expect(try shownSeq(page, slug) == seq, "\(slug) does not show the text typed")
    }
    // The picture is the server's 1080 px card for that text.
    let width = try page.evaluate(
      "document.querySelector('li.card[data-slug=\"cantarell\"] img[data-seq]').naturalWidth")
    #expect(width as? Int == 1080)
    #expect((try page.evaluate("location.search") as? String)?.contains("text=Quiz") == true)
    #expect(page.consoleErrors().isEmpty, "\(page.consoleErrors())")
  }

  @Test func aHeartOnThePageIsSavedInTheFavouritesManifest() throws {
    let box = try tests.sandbox()
    let server = try ServeProcess(box)
    let (browser, page) = try open(server)
    defer { browser.close() }
    try page.click("li.card[data-slug=\"cantarell\"] .heart")
    try page.waitFor(
      "document.querySelector('li.card[data-slug=\"cantarell\"] .heart')"
        + ".getAttribute('aria-pressed') === 'true'")
    let manifest = String(decoding: try #require(box.read("out/favourites.json")), as: UTF8.self)
    #expect(manifest.contains("\"Cantarell\""), "\(manifest)")
    let listed = try box.run(["saved", "--manifest", "out/favourites.json"])
    #expect(listed.stdout.contains("Cantarell"))
    #expect(
      try page.evaluate("document.getElementById('s-saved-count').textContent") as? String
        == "1")
  }

  /// The designer's loop: the font file is rewritten, the open page shows the new outlines.
  @Test func aRebuiltFontReachesTheOpenPageWithoutAReload() throws {
    let box = try tests.sandbox()
    let server = try ServeProcess(box)
    let (browser, page) = try open(server, query: "&text=Stra%C3%9Fe")
    defer { browser.close() }
    let card = "document.querySelector('li.card[data-slug=\"answer-serif\"] img[data-seq]')"
    let before = try #require(try page.evaluate(card + ".dataset.v") as? String)
    let pixels = try page.evaluate(card + ".src")
    _ = try page.evaluate("window.stillTheSamePage = true")
    let new = try Data(
      contentsOf: URL(fileURLWithPath: ServeCommandTests.answerFonts + "/AnswerSerif-B-new.ttf"))
    try new.write(to: URL(fileURLWithPath: box.path("myfonts/Answer.ttf")))
    try page.waitFor("\(card) && \(card).dataset.v !== '\(before)'", timeout: 30)
    #expect(try page.evaluate(card + ".src") as? String != pixels as? String)
    #expect(try page.evaluate("window.stillTheSamePage === true") as? Bool == true)
    #expect(try shownSeq(page, "cantarell") != nil)
  }

  /// A link to a variable family's full-screen view with its own coordinates draws them and
  /// keeps them in the address.
  @Test func aLinkToAFamilysViewDrawsItsCoordinates() throws {
    let box = try tests.sandbox()
    for file in ["AnswerSans-VF.ttf", "AnswerSans-Regular.ttf"] {
      try box.write(
        "myfonts/" + file,
        try Data(contentsOf: URL(fileURLWithPath: ServeCommandTests.answerFonts + "/" + file)))
    }
    try box.write(
      "job.yaml",
      ServeCommandTests.job.replacingOccurrences(of: "\"Cantarell\"", with: "\"Answer Sans\""))
    let server = try ServeProcess(box)
    let (browser, page) = try open(server, query: "&family=answer-sans&var=wght%3D900")
    defer { browser.close() }
    try page.waitFor("document.querySelector('#s-v-pic img[data-seq]')")
    let asked = try page.evaluate(
      "performance.getEntriesByType('resource').map(e => e.name)"
        + ".filter(n => n.includes('/card/answer-sans.png') && n.includes('scale=2')).join(' ')")
    #expect((asked as? String)?.contains("var=wght%3D900") == true, "\(asked ?? "")")
    let search = try page.evaluate("location.search") as? String
    #expect(
      search?.contains("var=wght%3D900") == true && search?.contains("family=answer-sans") == true)
  }

  /// DNS rebinding: a name that resolves to this machine (here by the browser's own rule) is
  /// not the address serve printed, and gets nothing.
  @Test func aPageUnderAnotherNameGetsNothing() throws {
    let box = try tests.sandbox()
    let server = try ServeProcess(box)
    let chromium = try #require(Chromium.find())
    let browser = try DevTools.launch(
      chromium: chromium, arguments: ["--host-resolver-rules=MAP rebound.example 127.0.0.1"])
    defer { browser.close() }
    let page = try browser.newPage(
      url: "http://rebound.example:\(server.port)/?token=\(server.token)")
    let text = try page.evaluate("document.body.innerText") as? String
    #expect(text?.contains("answers only to the address it printed") == true, "\(text ?? "")")
    #expect(try page.evaluate("typeof window.fontiServe") as? String == "undefined")
  }

  /// From the page itself: a heart without the token is refused and changes nothing.
  @Test func aChangeWithoutTheTokenIsRefused() throws {
    let box = try tests.sandbox()
    let server = try ServeProcess(box)
    let (browser, page) = try open(server)
    defer { browser.close() }
    let status = try page.evaluate(
      """
      fetch('/api/saved', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({family: 'Cantarell', saved: true})}).then(r => r.status)
      """)
    #expect(status as? Int == 403)
    #expect(box.read("out/favourites.json") == nil)
  }
}
