import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The DevTools harness itself, on small pages written to a temporary folder and loaded from
/// `file://`: typing, keys and clicks reach the page as a user's would, values come back as
/// JSON gives them, the console's errors are collected, and closing leaves no process behind.
/// Skipped only when Chromium is not installed, with the reason recorded.
@Suite(
  .serialized,
  .enabled(if: Chromium.find() != nil, Comment(rawValue: Chromium.unavailableReason ?? "")))
struct DevToolsTests {
  let folder: TemporaryDirectory
  let browser: DevTools

  init() throws {
    folder = try TemporaryDirectory("fonti-devtools-test")
    let chromium = try Chromium.find().orThrow("chromium is not installed")
    browser = try DevTools.launch(chromium: chromium, windowSize: (800, 600))
  }

  /// A page with a text field, a button, an output and a script file that counts keys.
  func formPage(policy: String = "default-src 'self'") throws -> String {
    try folder.write(
      "form.js",
      """
      const field = document.getElementById("field");
      const out = document.getElementById("out");
      let keys = 0;
      field.addEventListener("keydown", () => { keys += 1; });
      field.addEventListener("keydown", (e) => { if (e.key === "Enter") out.dataset.enter = "1"; });
      document.getElementById("go").addEventListener("click", (e) => {
        out.textContent = field.value + " (" + keys + " keys, " + e.detail + " click)";
      });
      """)
    try folder.write("form.css", ".tall { height: 2000px; }")
    try folder.write(
      "form.html",
      """
      <!doctype html><html><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(policy)"></head>
      <link rel="stylesheet" href="form.css">
      <body><input id="field" autocomplete="off"><div class="tall"></div>
      <button id="go">Go</button><output id="out"></output>
      <script src="form.js"></script></body></html>
      """)
    return URL(fileURLWithPath: folder.file("form.html")).absoluteString
  }

  @Test func typedTextAndAClickReachThePage() throws {
    let page = try browser.newPage(url: formPage())
    try page.focus("#field")
    try page.insertText("Ünïcode ")
    try page.type("ab")
    try page.press("Backspace")
    try page.press("Enter")
    // The button is below the fold: the click scrolls it into view first.
    try page.click("#go")
    try page.waitFor("document.getElementById('out').textContent !== ''")
    // insertText sends no key; type sends one per character; then Backspace and Enter.
    #expect(
      try page.evaluate("document.getElementById('out').textContent") as? String
        == "Ünïcode a (4 keys, 1 click)")
    #expect(try page.evaluate("document.getElementById('out').dataset.enter") as? String == "1")
    #expect((try page.evaluate("window.scrollY") as? Double ?? 0) > 0)
    #expect(page.consoleErrors() == [])
  }

  @Test func valuesComeBackAsJSONGivesThemAndPromisesAreAwaited() throws {
    let page = try browser.newPage(url: formPage())
    #expect(try page.evaluate("6 * 7") as? Int == 42)
    #expect(try page.evaluate("'x'.repeat(3)") as? String == "xxx")
    #expect(try page.evaluate("null") == nil)
    #expect(try page.evaluate("undefined") == nil)
    #expect(try page.evaluate("0 / 0") as? String == "NaN")
    let object = try page.evaluate("({a: [1, 'two'], b: true})") as? [String: Any]
    #expect((object?["a"] as? [Any])?.count == 2)
    #expect(object?["b"] as? Bool == true)
    #expect(
      try page.evaluate("new Promise((r) => setTimeout(() => r('later'), 20))") as? String
        == "later")
    let thrown = #expect(throws: DevTools.Failure.self) {
      try page.evaluate("Promise.reject(new Error('refused'))")
    }
    #expect(thrown?.description.contains("refused") == true)
    #expect(throws: DevTools.Failure.self) { try page.evaluate("noSuchName.field") }
    // The harness's own evaluations are not the page's errors.
    #expect(page.consoleErrors() == [])
  }

  @Test func waitForSucceedsOnceTrueAndOtherwiseSaysWhatItSaw() throws {
    let page = try browser.newPage(url: formPage())
    _ = try page.evaluate("setTimeout(() => { window.ready = 'yes'; }, 100); 0")
    try page.waitFor("window.ready")
    let failure = #expect(throws: DevTools.Failure.self) {
      try page.waitFor("document.title.length", timeout: 0.3)
    }
    #expect(failure?.description.contains("`document.title.length`") == true)
    #expect(failure?.description.contains("last value: 0") == true)
  }

  /// A command that gets no reply (a promise that never settles) fails after the browser's
  /// command time-out, naming the command; the browser goes on answering.
  @Test func aCommandWithoutAReplyTimesOut() throws {
    let page = try browser.newPage(url: formPage())
    browser.commandTimeout = 0.5
    let failure = #expect(throws: DevTools.Failure.self) {
      try page.evaluate("new Promise(() => {})")
    }
    #expect(failure?.description.contains("no reply to Runtime.evaluate") == true)
    browser.commandTimeout = 30
    #expect(try page.evaluate("1 + 1") as? Int == 2)
  }

  @Test func aMissingOrCoveredElementIsNotClicked() throws {
    let page = try browser.newPage(url: formPage())
    let missing = #expect(throws: DevTools.Failure.self) { try page.click("#nothing") }
    #expect(missing?.description.contains("#nothing") == true)
    _ = try page.evaluate(
      """
      (() => {
        const veil = document.createElement("div");
        veil.id = "veil";
        veil.style = "position: fixed; inset: 0; background: white";
        document.body.append(veil);
        return 0;
      })()
      """)
    let covered = #expect(throws: DevTools.Failure.self) { try page.click("#go") }
    #expect(covered?.description.contains("covered") == true)
    #expect(try page.evaluate("document.getElementById('out').textContent") as? String == "")
    #expect(throws: DevTools.Failure.self) { try page.focus("#nothing") }
  }

  @Test func theConsolesErrorsAreCollectedPerPage() throws {
    let clean = try browser.newPage(url: formPage())
    try folder.write(
      "broken.js",
      """
      console.error("told", 3);
      setTimeout(() => { throw new TypeError("thrown later"); });
      Promise.reject(new Error("never caught"));
      """)
    try folder.write(
      "broken.html",
      """
      <!doctype html><html><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'self'"></head>
      <body><img src="missing.png" alt=""><script src="broken.js"></script>
      <script>document.title = "inline ran";</script></body></html>
      """)
    let broken = try browser.newPage(
      url: URL(fileURLWithPath: folder.file("broken.html")).absoluteString)
    // A later timer: the page's has fired, and its error (sent before this reply) is filed.
    try broken.waitFor("new Promise((r) => setTimeout(() => r(true), 50))")
    let errors = broken.consoleErrors()
    #expect(errors.count == 4, "\(errors)")
    #expect(errors.contains { $0.contains("console.error: told 3") })
    #expect(errors.contains { $0.contains("TypeError: thrown later") && $0.contains("broken.js") })
    #expect(errors.contains { $0.contains("never caught") })
    #expect(errors.contains { $0.contains("Content Security Policy") })
    #expect(try broken.evaluate("document.title") as? String == "")  // the policy held
    #expect(broken.failedLoads().count == 1)
    #expect(broken.failedLoads().first?.contains("missing.png") == true)
    #expect(clean.consoleErrors() == [])
  }

  @Test func aScreenshotIsAPNGOfTheWindow() throws {
    let page = try browser.newPage(url: formPage())
    let png = try page.screenshot()
    #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    let header = [UInt8](png[16..<24])
    let width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
    let height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 800 && height == 600, "\(width)×\(height)")
  }

  @Test func closingEndsAndReapsTheBrowserAndRemovesItsProfile() throws {
    let page = try browser.newPage(url: formPage())
    try page.navigate(URL(fileURLWithPath: folder.file("form.html")).absoluteString)
    let pid = browser.processID
    #expect(kill(pid, 0) == 0)
    #expect(FileManager.default.fileExists(atPath: browser.folderPath))
    browser.close()
    // Reaped: the id is no longer ours (a zombie would still answer kill 0), and nothing of
    // its group runs (helpers it left are zombies until init reaps them).
    #expect(kill(pid, 0) == -1 && errno == ESRCH)
    #expect(Self.running(inGroup: pid) == [])
    #expect(!FileManager.default.fileExists(atPath: browser.folderPath))
    #expect(throws: DevTools.Failure.self) { try page.evaluate("1") }
    browser.close()  // a second close does nothing
  }

  /// The processes of group `group` that are not zombies, from /proc.
  static func running(inGroup group: pid_t) -> [String] {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return ids.filter { Int($0) != nil }.compactMap { id in
      guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // "pid (comm) state ppid pgrp ..."
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 3, fields[3] == "\(group)", fields[0] != "Z" else { return nil }
      return stat
    }
  }
}
