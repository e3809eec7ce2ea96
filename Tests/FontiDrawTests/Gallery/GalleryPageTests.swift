import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// The gallery page as text: escaping of hostile names in every context, URLs, the JSON block,
/// the URL state's round trip, no external URL, reproducible bytes, the page's weight.
@Suite struct GalleryPageTests {
  // MARK: Escaping

  @Test func textEscapesMarkupAndReplacesControls() {
    #expect(
      HTML.text("</script><b>&amp;</b> \"q\" 'a'")
        == "&lt;/script&gt;&lt;b&gt;&amp;amp;&lt;/b&gt; \"q\" 'a'")
    #expect(
      HTML.text("a\u{0}b\u{7}c\u{1B}[31m\u{7F}\u{85}\u{9F}\r")
        == "a\u{FFFD}b\u{FFFD}c\u{FFFD}[31m\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
    // Tabs and line feeds are plain white space in HTML text; bidi marks stay (dir="auto"
    // isolates them).
    #expect(HTML.text("a\tb\nc \u{202E}x\u{202C}\u{200F}") == "a\tb\nc \u{202E}x\u{202C}\u{200F}")
    #expect(HTML.text("<!--") == "&lt;!--")
  }

  @Test func attributesEscapeBothQuotes() {
    #expect(
      HTML.attribute("\" onmouseover='x' <a>&\n")
        == "&quot; onmouseover=&#39;x&#39; &lt;a&gt;&amp; ")
    #expect(HTML.attribute("\u{0}") == "\u{FFFD}")
  }

  @Test func relativeURLsAreEncodedAndStayInside() {
    #expect(HTML.relativeURL("specimens/dejavu-serif.png") == "specimens/dejavu-serif.png")
    #expect(
      HTML.relativeURL("thumbs/odd name é#?%.png") == "thumbs/odd%20name%20%C3%A9%23%3F%25.png")
    #expect(HTML.relativeURL("javascript:alert(1)") == "javascript%3Aalert%281%29")
    #expect(HTML.relativeURL("a\"b'<c>&d") == "a%22b%27%3Cc%3E%26d")
    for outside in [
      "", "/etc/passwd", "../index.html", "specimens/../../x", "./a", "a//b", "a/", "a\\b",
      "https://evil.example/x", "//evil.example/x", "a/./b",
    ] {
      #expect(HTML.relativeURL(outside) == nil, "\(outside)")
    }
  }

  @Test func scriptJSONCannotEndItsScriptOrOpenAComment() throws {
    let hostile = [
      "</script><script>alert(1)</script>", "<!-- <script>", "a & b > c", "\u{2028}\u{2029}",
      "\u{0}\u{1F}\u{7F}\u{85}", "\"\\",
    ]
    let json = try HTML.scriptJSON(hostile)
    for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}", "\u{85}", "\u{7F}"] {
      #expect(!json.contains(forbidden), "\(forbidden.unicodeScalars.map(\.value))")
    }
    let back = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
    #expect(back == hostile)
  }

  // MARK: The page

  /// A page with hostile names, without images on disk (the page does not read them).
  func hostileModel() -> GalleryModel {
    let names = GalleryFixture.hostileNames + ["Plain Sans"]
    return GalleryModel(
      title: "</title><script>alert(1)</script>", tool: "fonti-batch 1.0.0",
      date: Date(timeIntervalSince1970: 0),
      families: names.enumerated().map { i, name in
        GalleryModel.Family(
          name: name, slug: "f\(i)", specimen: "specimens/f\(i).png",
          thumbnail: .init(path: "thumbs/f\(i).png", width: 270, height: 270),
          styles: ["Regular", "<Bold>"], saved: i == 0, missingGlyphs: i,
          warnings: ["family '\(name)' lacks \(i) glyphs"],
          axes: i == 1 ? [.init(tag: "wght", min: 100, max: 900)] : [],
          languages: [.init(code: "x\"<", name: "</script>\(name)")],
          cataloguePages: [.init(file: "cata logue.pdf", page: i + 2)],
          pairings: [.init(file: "pairings/a+b.png", partner: name, role: .body)])
      },
      catalogues: [.init(file: "cata logue.pdf", pages: 9)],
      diff: .init(report: "diff/diff.pdf", summary: "diff/diff.md"))
  }

  @Test func hostileNamesNeverBecomeMarkup() throws {
    let model = hostileModel()
    let page = try GalleryPage.text(model)
    // Our two scripts, and nothing a name could add.
    #expect(page.components(separatedBy: "<script").count - 1 == 2)
    #expect(page.components(separatedBy: "</script>").count - 1 == 2)
    #expect(!page.contains("<!--"))
    #expect(!page.contains("<b>bold</b>"))
    #expect(
      page.contains(
        "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; · 4 families</title>"))
    for family in model.families {
      // Each name shows once as the card's text, escaped, isolated from the text around it.
      #expect(page.contains("dir=\"auto\">\(HTML.text(family.name))</a></h2>"), "\(family.name)")
      #expect(page.contains("alt=\"\(HTML.attribute("Specimen of \(family.name)"))\""))
    }
    // The JSON block parses back to the same strings.
    let json = try #require(
      Self.between(page, "<script type=\"application/json\" id=\"g-data\">", "</script>"))
    let data = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let records = try #require(data["families"] as? [[String: Any]])
    #expect(records.count == model.families.count)
    for (record, family) in zip(records, model.families) {
      #expect(record["s"] as? String == family.slug)
      #expect(record["w"] as? [String] == family.warnings)
      let sheets = try #require(record["r"] as? [[String]])
      #expect(sheets.first?[1] == family.name)
    }
    let languages = try #require(data["languages"] as? [[String]])
    #expect(languages.map { $0[0] } == Array(repeating: "x\"<", count: 1))
  }

  @Test func noURLLeavesTheOutputFolder() throws {
    let page = try GalleryPage.text(hostileModel())
    // Every URL the page names, in attributes and in the data.
    let attributes = Self.attributes(page)
    #expect(!attributes.isEmpty)
    for value in attributes {
      #expect(value == "data:," || !value.contains(":"), "\(value)")
      #expect(!value.hasPrefix("/") && !value.contains("//") && !value.contains(".."), "\(value)")
    }
    // With ordinary names, no URL-like text anywhere: no scheme, no `//` (the script and the
    // style sheet have no comment of that form either).
    var ordinary = hostileModel()
    ordinary.families = [ordinary.families[3]]
    ordinary.title = "Type review"
    let plain = try GalleryPage.text(ordinary)
    for forbidden in ["http:", "https:", "//", "url(", "@import", "fetch(", "XMLHttpRequest"] {
      #expect(!plain.contains(forbidden), "\(forbidden)")
    }
  }

  @Test func theContentSecurityPolicyAllowsExactlyTheInlineStyleAndScript() throws {
    let page = try GalleryPage.text(hostileModel())
    let style = try #require(Self.between(page, "<style>", "</style>"))
    let script = try #require(Self.between(page, "<script>", "</script>"))
    #expect(page.contains("style-src '\(GalleryPage.hash(style))'"))
    #expect(page.contains("script-src '\(GalleryPage.hash(script))'"))
    #expect(page.contains("default-src 'none'; img-src 'self' file:;"))
  }

  @Test func pathsOutsideTheFolderAreRefused() throws {
    var model = hostileModel()
    model.families[2].specimen = "../../etc/passwd"
    #expect(throws: Diagnostic.self) { try GalleryPage.html(model) }
    do {
      _ = try GalleryPage.html(model)
    } catch {
      #expect(error.message.contains("'../../etc/passwd' is not a relative path inside"))
    }
    model = hostileModel()
    model.families[0].cataloguePages = [.init(file: "other.pdf", page: 1)]
    #expect(throws: Diagnostic.self) { try GalleryPage.html(model) }
    model = hostileModel()
    model.catalogues[0].file = "/tmp/x.pdf"
    let folder = try TemporaryDirectory("gallery-page")
    #expect(throws: Diagnostic.self) { try GalleryPage.write(model, to: folder.file("index.html")) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func sameModelSameBytesAndAnUnchangedPageIsNotRewritten() throws {
    let model = hostileModel()
    #expect(try GalleryPage.html(model) == (try GalleryPage.html(model)))
    let folder = try TemporaryDirectory("gallery-page")
    let path = folder.file("index.html")
    #expect(try GalleryPage.write(model, to: path))
    let before = try FileManager.default.attributesOfItem(atPath: path)
    #expect(try GalleryPage.write(model, to: path) == false)
    let after = try FileManager.default.attributesOfItem(atPath: path)
    #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
    var changed = model
    changed.families[3].saved = true
    #expect(try GalleryPage.write(changed, to: path))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == (try GalleryPage.html(changed)))
    // Only the page is left: no temporary file.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["index.html"])
  }

  @Test func theModelRoundTripsAsData() throws {
    let model = hostileModel()
    let data = try JSONEncoder().encode(model)
    #expect(try JSONDecoder().decode(GalleryModel.self, from: data) == model)
  }

  @Test func cardsShowStylesAxesAndTagsInWords() throws {
    var family = GalleryModel.Family(
      name: "Inter", slug: "inter", specimen: "specimens/inter.png",
      styles: ["Regular", "Bold"], custom: true, saved: true, missingGlyphs: 1,
      warnings: ["family 'Inter' lacks 1 character of the sample text (1 box drawn)"],
      axes: [.init(tag: "wght", min: 100, max: 900), .init(tag: "opsz", min: 14, max: 32.5)])
    let card = try GalleryPage.card(family)
    #expect(card.contains("<p class=\"meta\">2 faces · wght 100–900 · opsz 14–32.5</p>"))
    #expect(card.contains("1 box in the sample</li>"))
    #expect(card.contains("title=\"Glyphs of the sample drawn as boxes"))
    #expect(card.contains("<li class=\"tag saved\">Saved</li>"))
    #expect(card.contains("<li class=\"tag custom\">Custom</li>"))
    #expect(card.contains("data-f=\"scvw\""))
    // No thumbnail: the specimen itself, still lazy.
    #expect(card.contains("<img src=\"specimens/inter.png\" loading=\"lazy\""))
    family.missingGlyphs = 0
    family.warnings = ["a", "b"]
    #expect(
      try GalleryPage.card(family).contains("<li class=\"tag warn\" title=\"a; b\">2 warnings</li>")
    )
    // A fact about the fonts is a grey note, not ⚠, and not under the filter.
    family.warnings = ["family 'Inter': Bold lacks 3 characters of Regular: U+0041"]
    let noted = try GalleryPage.card(family)
    #expect(noted.contains("<li class=\"tag note\""), "\(noted)")
    #expect(noted.contains(">1 note</li>") && !noted.contains("tag warn"), "\(noted)")
    #expect(!family.hasWarnings)
    family.specimen = nil
    family.error = "broken"
    let failed = try GalleryPage.card(family)
    #expect(failed.contains("<li class=\"tag fail\">Failed</li>"))
    #expect(!failed.contains("<a "))
    #expect(!failed.contains("<img"))
  }

  @Test func axisNumbers() {
    #expect(GalleryPage.number(100) == "100")
    #expect(GalleryPage.number(-10) == "-10")
    #expect(GalleryPage.number(0.5) == "0.5")
    #expect(GalleryPage.number(-0.5) == "-0.5")
    #expect(GalleryPage.number(12.25) == "12.25")
    #expect(GalleryPage.number(12.05) == "12.05")
    #expect(GalleryPage.number(-12.5) == "-12.5")
    #expect(GalleryPage.number(.nan) == "?")
    #expect(GalleryPage.number(.infinity) == "?")
    #expect(GalleryPage.number(1e300) == GalleryPage.number(1e300))  // no trap
  }

  @Test func languagesAreABitmapPerFamily() {
    let families = [
      GalleryModel.Family(
        name: "A", slug: "a", specimen: nil,
        languages: [.init(code: "fr", name: "French"), .init(code: "de", name: "German")]),
      GalleryModel.Family(
        name: "B", slug: "b", specimen: nil,
        languages: [.init(code: "zu", name: "Zulu"), .init(code: "en", name: "English")]),
      GalleryModel.Family(name: "C", slug: "c", specimen: nil),
    ]
    let languages = GalleryPage.Languages(families)
    #expect(languages.list.map(\.code) == ["en", "fr", "de", "zu"])  // by English name
    #expect(languages.counts == [1, 1, 1, 1])
    #expect(languages.bitmap(families[0].languages) == "6")  // bits 1 and 2
    #expect(languages.bitmap(families[1].languages) == "9")  // bits 0 and 3
    #expect(languages.bitmap(families[2].languages) == "")
  }

  /// The page's own weight per family stays small at thousands of families: measured over
  /// 4,000 families with two styles, an axis, a warning, a catalogue page, a pairing and 40 of
  /// 200 languages each.
  @Test func bytesPerFamilyStaySmall() throws {
    let languages = (0..<200).map { GalleryModel.Language(code: "l\($0)", name: "Language \($0)") }
    func model(_ n: Int) -> GalleryModel {
      GalleryModel(
        title: "Weight", date: Date(timeIntervalSince1970: 0),
        families: (0..<n).map { i in
          GalleryModel.Family(
            name: "Family Number \(i)", slug: "family-number-\(i)",
            specimen: "specimens/family-number-\(i).png",
            thumbnail: .init(path: "thumbs/family-number-\(i).png", width: 270, height: 270),
            styles: ["Regular", "Bold"], missingGlyphs: i % 3,
            warnings: i % 3 == 0 ? [] : ["family 'Family Number \(i)' lacks \(i % 3) glyphs"],
            axes: i % 10 == 0 ? [.init(tag: "wght", min: 100, max: 900)] : [],
            languages: Array(languages[(i % 160)..<(i % 160 + 40)]),
            cataloguePages: [.init(file: "catalogue.pdf", page: i + 3)],
            pairings: i % 5 == 0
              ? [.init(file: "pairings/a+b.png", partner: "Other Family", role: .heading)] : [])
        },
        catalogues: [.init(file: "catalogue.pdf", pages: n + 10)])
    }
    let empty = try GalleryPage.html(model(0)).count
    let full = try GalleryPage.html(model(4000)).count
    let perFamily = (full - empty) / 4000
    #expect(perFamily < 600, "\(perFamily) bytes per family")
    #expect(empty < 20_000, "\(empty) bytes without families")
  }

  // MARK: URL state

  @Test func urlStateRoundTrips() {
    let queries = [
      "", "serif", "noto serif", "a+b", "100%", "x&saved=1", "é 漢字 \u{202E}", "=", "#hash",
      "?q=", "  lead", "%zz", "a\u{0}b",
    ]
    for query in queries {
      for saved in [false, true] {
        let state = GalleryState(
          query: query, saved: saved, custom: !saved, variable: saved, warnings: true,
          language: saved ? "sr-Latn" : "", family: saved ? "dejavu-serif" : nil)
        let back = GalleryState(search: state.search, fragment: state.fragment)
        var expected = state
        if GalleryState.isBlank(query) { expected.query = "" }
        #expect(back == expected, "\(query) → \(state.search)")
      }
    }
  }

  @Test func urlStateReadsAsURLSearchParamsDoes() {
    #expect(GalleryState(search: "?saved=1&q=Serif&zzz=3").search == "?q=Serif&saved=1")
    #expect(GalleryState(search: "q=a+b%2Bc").query == "a b+c")
    #expect(GalleryState(search: "?q=%zz%4").query == "%zz%4")
    #expect(GalleryState(search: "?q=1&q=2").query == "1")
    #expect(GalleryState(search: "?saved=true&custom=1").saved == false)
    #expect(GalleryState(search: "?q=%C3%A9%E6%BC%A2").query == "é漢")
    #expect(GalleryState(search: "?q=%FF").query == "\u{FFFD}")
    #expect(GalleryState(search: "?lang=fr&&variable=1&").search == "?variable=1&lang=fr")
    #expect(GalleryState(search: "", fragment: "#family=dejavu-serif").family == "dejavu-serif")
    #expect(GalleryState(search: "", fragment: "#family=").family == nil)
    #expect(GalleryState(query: "a b&c=d/é*~").search == "?q=a+b%26c%3Dd%2F%C3%A9*%7E")
    #expect(GalleryState(query: "   ").search == "")
    #expect(GalleryState().search == "" && GalleryState().fragment == "")
    #expect(GalleryState(family: "a b").fragment == "#family=a+b")
  }

  // MARK: Helpers

  /// The text between the first `start` and the next `end`.
  static func between(_ text: String, _ start: String, _ end: String) -> String? {
    guard let a = text.range(of: start),
      let b = text.range(of: end, range: a.upperBound..<text.endIndex)
    else { return nil }
    return String(text[a.upperBound..<b.lowerBound])
  }

  /// Every `href` and `src` value in `html`, with character references decoded.
  static func attributes(_ html: String) -> [String] {
    var values: [String] = []
    var rest = html[...]
    while let r = rest.range(of: #"\b(href|src)="([^"]*)""#, options: .regularExpression) {
      let match = rest[r]
      if let q = match.firstIndex(of: "\"") {
        let value = match[match.index(after: q)..<match.index(before: match.endIndex)]
        values.append(
          String(value).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(
              of: "&lt;", with: "<"
            )
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(
              of: "&amp;", with: "&"))
      }
      rest = rest[r.upperBound...]
    }
    // Each candidate of a `srcset` (URL, then a descriptor; percent-encoded URLs hold no
    // comma or space).
    rest = html[...]
    while let r = rest.range(of: #"\bsrcset="[^"]*""#, options: .regularExpression) {
      let list = rest[r].dropFirst("srcset=\"".count).dropLast()
      for candidate in list.split(separator: ",") {
        if let url = candidate.split(separator: " ").first {
          values.append(String(url).replacingOccurrences(of: "&amp;", with: "&"))
        }
      }
      rest = rest[r.upperBound...]
    }
    return values
  }
}
