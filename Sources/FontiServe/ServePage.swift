import FontiDraw
import Foundation

/// The page `fonti-batch serve` answers `GET /` with: the gallery of the job's families, live.
///
/// The page is a shell: the families, the job's defaults and the favourites come from
/// `/api/state` and `/events`; every card is a PNG the server draws (`/card/SLUG.png`). The
/// inline style sheet and script (`ServePage.css`, `ServePage.js`) are the only style and script
/// the Content-Security-Policy allows (by their SHA-256, computed from the bytes built in);
/// requests go only to the page's own origin.
/// The title is the one text from outside, escaped for HTML; the script puts every name,
/// warning and error into the page as text, never as markup.
///
/// Pure: the same title gives the same bytes.
public enum ServePage {
  /// The page's bytes (UTF-8): self-contained HTML, inline `<style>` and `<script>` only.
  public static func html(title: String) -> Data {
    Data(text(title: title).utf8)
  }

  /// The value of the Content-Security-Policy header the server sends with the page: its own
  /// style and script by hash, fetches, server-sent events and images to and from its own
  /// origin; nothing else (no
  /// font, no frame, no form, no `<base>`, not framed by another page).
  public static let contentSecurityPolicy =
    "default-src 'none'; img-src 'self'; style-src '\(GalleryPage.hash(styleSheet))'; "
    + "script-src '\(GalleryPage.hash(script))'; connect-src 'self'; base-uri 'none'; "
    + "form-action 'none'; frame-ancestors 'none'"

  /// The page as text.
  static func text(title: String) -> String {
    HTML.documentStart + """
      <meta name="referrer" content="no-referrer">
      <title>\(HTML.text(title)) · fonti-batch serve</title>
      <style>\(styleSheet)</style>
      </head>
      <body>
      \(errors)<header class="top">
      <div><p class="kicker"><span class="live" id="s-live" data-live="connecting"></span>\
      <span id="s-live-text">Connecting…</span></p>
      <h1 id="s-title" dir="auto">\(HTML.text(title))</h1>
      <p class="sub" id="s-sub">Loading the job…</p></div>
      <nav class="views" aria-label="Views"><button type="button" id="s-view-browse" \
      aria-pressed="true">Browse</button><button type="button" id="s-view-saved" \
      aria-pressed="false"><span aria-hidden="true">♥</span> Saved \
      <span class="n" id="s-saved-count">0</span></button></nav>
      </header>
      \(inputBar)<main>
      <h2 class="view-title" id="s-view-title" hidden>Saved · most recent first</h2>
      <ul class="grid" id="s-grid" aria-label="Families"></ul>
      <p class="none" id="s-none" hidden><span id="s-none-text">No family matches the search and \
      filters.</span> <button type="button" id="s-reset">Show all families</button></p>
      </main>
      \(dialog)<div class="toast" id="s-toast" role="status" aria-live="polite" hidden></div>
      <script>\(script)</script>
      </body>
      </html>

      """
  }

  // MARK: Parts of the page

  /// The banner for a job file that no longer validates: one line per located error.
  static let errors = """
    <div class="errors" id="s-errors" role="alert" hidden>
    <p><b>The job file no longer validates.</b> The page shows the last good state until it \
    does again.</p>
    <ul id="s-errors-list"></ul>
    </div>

    """

  /// The sticky input bar: what every card shows (text, size, bold, italic, language, the
  /// job's axes and features), then which families (search, filters, count).
  static let inputBar = """
    <div class="bar" id="s-bar">
    <div class="row type">
    <label class="vh" for="s-text">Text to show in every family</label>
    <input type="text" id="s-text" class="text" autocomplete="off" spellcheck="false" \
    dir="auto" placeholder="Type anything">
    </div>
    <div class="row controls">
    <div class="ctl size"><label for="s-size">Size</label><input type="range" id="s-size" \
    step="1"><output id="s-size-out" for="s-size"></output></div>
    <div class="ctl toggles"><button type="button" class="toggle" id="s-bold" aria-pressed="false" \
    title="Bold (shown greyed on the cards of families without a bold face)"><b>B</b>\
    <span class="vh"> Bold</span></button><button type="button" class="toggle" id="s-italic" \
    aria-pressed="false" title="Italic (shown greyed on the cards of families without an italic \
    face)"><i>I</i><span class="vh"> Italic</span></button></div>
    <div class="ctl lang"><label for="s-lang">Language</label><input type="text" id="s-lang" \
    autocomplete="off" spellcheck="false" placeholder="en"></div>
    <div class="ctl axes" id="s-axes" role="group" aria-label="Axes" hidden></div>
    <fieldset class="ctl features" id="s-features" hidden><legend>Features</legend></fieldset>
    </div>
    <div class="row find">
    <input type="search" id="s-q" placeholder="Search families" title="Search families (/)" \
    aria-label="Search families by name" autocomplete="off" spellcheck="false">
    <fieldset class="filters" id="s-filters"><legend class="vh">Show</legend>
    \(filters)</fieldset>
    <output class="count" id="s-count" aria-live="polite"></output>
    </div>
    </div>

    """

  /// The gallery's filters, one at a time (`filter=` in the URL).
  static var filters: String {
    let list: [(key: String, label: String)] = [
      ("all", "All"),
      ("saved", "<span aria-hidden=\"true\">♥</span> Saved"),
      ("custom", "<span aria-hidden=\"true\">●</span> Custom"),
      ("variable", "Variable"),
      ("warnings", "<span aria-hidden=\"true\">⚠</span> With warnings"),
    ]
    var out = ""
    for filter in list {
      out +=
        "<label class=\"chip\"><input type=\"radio\" name=\"filter\" id=\"s-filter-\(filter.key)\""
        + " value=\"\(filter.key)\"\(filter.key == "all" ? " checked" : "")>\(filter.label)"
        + " <span class=\"n\" id=\"s-n-\(filter.key)\"></span></label>\n"
    }
    return out
  }

  /// The full-screen view of one family.
  static let dialog = """
    <dialog id="s-viewer" aria-labelledby="s-v-name">
    <div class="v-head"><div><p class="kicker" id="s-v-kicker">Family</p>\
    <h2 id="s-v-name" dir="auto"></h2><p id="s-v-meta"></p></div>
    <div class="v-nav"><button type="button" class="heart" id="s-v-heart" aria-pressed="false" \
    aria-label="Save"><span aria-hidden="true">♡</span></button><button type="button" \
    id="s-prev" aria-label="Previous family" title="Previous (←)">←</button><button \
    type="button" id="s-next" aria-label="Next family" title="Next (→)">→</button><button \
    type="button" id="s-close" aria-label="Close" title="Close (Esc)" autofocus>✕</button></div></div>
    <div class="v-body"><div class="v-pic pic" id="s-v-pic"></div>
    <div class="v-side" id="s-v-side">
    <section class="v-toggles"><p class="kicker">Style</p><div class="ctl toggles">\
    <button type="button" class="toggle" id="s-v-bold" aria-pressed="false"><b>B</b>\
    <span class="vh"> Bold</span></button><button type="button" class="toggle" id="s-v-italic" \
    aria-pressed="false"><i>I</i><span class="vh"> Italic</span></button></div>\
    <p class="note" id="s-v-faces"></p>\
    <label class="v-face" for="s-v-face"><span class="kicker" id="s-v-face-count">Face</span>\
    <select id="s-v-face"></select></label></section>
    <section id="s-v-axes-box" hidden><p class="kicker">Axes of this family</p>\
    <div id="s-v-axes"></div><button type="button" class="link" id="s-v-axes-reset">Reset \
    axes</button></section>
    <section class="v-actions"><a class="action" id="s-v-share" download>Share · PNG</a>\
    <a class="action quiet" id="s-v-proofs" target="_blank" rel="noopener">Proof pages (PDF)</a>\
    </section>
    <section id="s-v-warnings-box" hidden><p class="kicker">Warnings and notes</p>\
    <ul class="warnings" id="s-v-warnings"></ul></section>
    <section id="s-v-partners-box" hidden><p class="kicker">Pairs well with</p>\
    <ul class="partners" id="s-v-partners"></ul></section>
    </div></div>
    </dialog>

    """
}
