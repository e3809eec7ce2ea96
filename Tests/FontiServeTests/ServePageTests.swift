import Foundation
import Testing

@testable import FontiDraw
@testable import FontiServe

/// The `serve` page as text: its Content-Security-Policy matches its inline style and script,
/// the title is escaped, nothing outside the page's own origin is referenced, and the controls
/// and hooks the server, the browser tests and the benchmark rely on are there.
@Suite struct ServePageTests {
  static let hostileTitle = "</title><script>alert(1)</script> & \"Winter\" <b>review</b>\u{7}"

  func page(_ title: String = hostileTitle) -> String {
    String(decoding: ServePage.html(title: title), as: UTF8.self)
  }

  @Test func theHeaderAllowsExactlyTheInlineStyleAndScript() throws {
    let page = page()
    let style = try #require(Self.between(page, "<style>", "</style>"))
    let script = try #require(Self.between(page, "<script>", "</script>"))
    let policy = ServePage.contentSecurityPolicy
    #expect(policy.contains("style-src '\(GalleryPage.hash(style))';"))
    #expect(policy.contains("script-src '\(GalleryPage.hash(script))';"))
    // Exactly one style and one script element, no inline handler or style attribute (the
    // policy would refuse them).
    #expect(page.components(separatedBy: "<style").count == 2)
    #expect(page.components(separatedBy: "<script").count == 2)
    #expect(!page.contains(" style=\"") && !page.contains(" onclick="))
    #expect(page.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
  }

  @Test func thePolicyIsStrict() {
    let directives = ServePage.contentSecurityPolicy.split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(directives.first == "default-src 'none'")
    for expected in [
      "img-src 'self'", "connect-src 'self'", "base-uri 'none'", "form-action 'none'",
      "frame-ancestors 'none'",
    ] {
      #expect(directives.contains(expected), "\(expected)")
    }
    #expect(directives.count == 8)
    #expect(!ServePage.contentSecurityPolicy.contains("unsafe"))
    #expect(!ServePage.contentSecurityPolicy.contains("*"))
  }

  @Test func theTitleIsEscaped() {
    let page = page()
    let escaped =
      "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; \"Winter\" &lt;b&gt;review"
      + "&lt;/b&gt;\u{FFFD}"
    #expect(page.contains("<title>\(escaped) · fonti-batch serve</title>"))
    #expect(page.contains("<h1 id=\"s-title\" dir=\"auto\">\(escaped)</h1>"))
    #expect(!page.contains("<b>review</b>") && !page.contains("alert(1)</script>"))
    #expect(page.components(separatedBy: "</title>").count == 2)
  }

  @Test func nothingOutsideTheOwnOriginIsReferenced() {
    let page = page("Type review")
    for forbidden in [
      "http:", "https:", "//", "url(", "@import", "data:", "XMLHttpRequest", "<link", "<iframe",
      "<object", "<embed", "<base", "<form", "src=\"",
    ] {
      #expect(!page.contains(forbidden), "\(forbidden)")
    }
    // The script requests only paths of its own origin.
    let script = ServePage.script
    for path in [
      "'/api/state'", "'/events'", "'/api/saved'", "'/card/'", "'/share/'", "'/proofs/'",
    ] {
      #expect(script.contains(path), "\(path)")
    }
  }

  @Test func namesGoIntoThePageAsTextOnly() {
    let script = ServePage.script
    for sink in [
      "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(",
    ] {
      #expect(!script.contains(sink), "\(sink)")
    }
    #expect(script.contains("textContent"))
    // No style attribute from the script either: the policy allows only the style sheet.
    #expect(!script.contains("setAttribute('style'"))
  }

  @Test func thePageHasTheControlsTheContractNames() {
    let page = page()
    let ids = [
      "s-errors", "s-errors-list", "s-title", "s-sub", "s-live", "s-view-browse", "s-view-saved",
      "s-saved-count", "s-bar", "s-text", "s-size", "s-size-out", "s-bold", "s-italic", "s-lang",
      "s-axes", "s-features", "s-q", "s-filters", "s-count", "s-grid", "s-none", "s-reset",
      "s-viewer", "s-v-name", "s-v-meta", "s-v-heart", "s-v-pic", "s-v-bold", "s-v-italic",
      "s-v-axes", "s-v-share", "s-v-proofs", "s-v-warnings", "s-v-partners", "s-prev", "s-next",
      "s-close", "s-toast",
    ]
    for id in ids {
      #expect(page.components(separatedBy: "id=\"\(id)\"").count == 2, "\(id)")
    }
    for filter in ["all", "saved", "custom", "variable", "warnings"] {
      #expect(page.contains("id=\"s-filter-\(filter)\" value=\"\(filter)\""), "\(filter)")
    }
    // No limit is written into the page: the script takes them from `/api/state`.
    #expect(page.contains("<input type=\"range\" id=\"s-size\" step=\"1\">"))
    #expect(!page.contains("maxlength") && !page.contains(" min=") && !page.contains(" max="))
    // Every control has a label: a <label for>, an aria-label, or a legend around it.
    for labelled in ["s-text", "s-size", "s-lang"] {
      #expect(page.contains("for=\"\(labelled)\""), "\(labelled)")
    }
    #expect(
      page.contains("id=\"s-q\" placeholder=\"Search families\" title=\"Search families (/)\""))
    // Toggles and the heart are buttons whose state is read out.
    #expect(page.contains("<button type=\"button\" class=\"toggle\" id=\"s-bold\" aria-pressed="))
    #expect(page.contains("<button type=\"button\" class=\"heart\" id=\"s-v-heart\" aria-pressed="))
    #expect(page.contains("id=\"s-v-proofs\" target=\"_blank\" rel=\"noopener\""))
    #expect(page.contains("<a class=\"action\" id=\"s-v-share\" download>"))
  }

  @Test func theScriptKeepsTheContractsQueryAndHooks() {
    let script = ServePage.script
    // The card query: every input, the family's version, this page's client id and sequence.
    for key in ["'text'", "'size'", "'bold'", "'italic'", "'lang'", "'var'", "'feat'", "'scale'"] {
      #expect(script.contains(key), "\(key)")
    }
    #expect(script.contains("'&client=' + client + '&seq=' + s"))
    #expect(script.contains("'v=' + encodeURIComponent(f.v)"))
    #expect(script.contains("'X-Fonti-Token': token"))
    #expect(script.contains("new EventSource('/events')"))
    #expect(
      script.contains("addEventListener('state'") && script.contains("addEventListener('saved'"))
    #expect(script.contains("new IntersectionObserver("))
    // A card's picture is loaded by an <img>, aborted by taking its source away, asked for at
    // the edge the grid shows it.
    #expect(script.contains("img.removeAttribute('src')"))
    #expect(script.contains("[['edge', String(edge)]]"))
    #expect(script.contains("history.replaceState("))
    // What tests and the benchmark wait on.
    for hook in [
      "window.fontiServe = api", "body.dataset.drawnSeq", "body.dataset.generation",
      "li.dataset.slug", "img.dataset.seq", "api.lastDrawn[", "api.cardsLoaded++",
    ] {
      #expect(script.contains(hook), "\(hook)")
    }
  }

  /// The limits and the features' names are the server's (`Limits`, `FeatureNames`), read
  /// from the state: the script holds no copy of either.
  @Test func theScriptTakesLimitsAndFeatureNamesFromTheState() {
    let script = ServePage.script
    #expect(script.contains("applyLimits(job.limits)"))
    #expect(script.contains("job.featureNames"))
    for copy in ["2000", "96", "'Small capitals'", "smcp:"] {
      #expect(!script.contains(copy), "\(copy)")
    }
  }

  @Test func theBytesAreReproducible() {
    #expect(ServePage.html(title: "A") == ServePage.html(title: "A"))
    #expect(ServePage.html(title: "A") != ServePage.html(title: "B"))
  }

  static func between(_ text: String, _ start: String, _ end: String) -> String? {
    guard let a = text.range(of: start),
      let b = text.range(of: end, range: a.upperBound..<text.endIndex)
    else { return nil }
    return String(text[a.upperBound..<b.lowerBound])
  }
}
