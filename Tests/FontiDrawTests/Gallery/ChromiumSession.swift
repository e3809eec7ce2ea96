import BrowserSupport
import Foundation

@testable import FontiDraw

/// One gallery page in headless Chromium, driven over the DevTools protocol (`DevTools`): real
/// key events, so the browser's own behaviour (Tab order, Enter on a link, Escape on a modal
/// dialog) is what is tested. Every wait is for a reply or an event, never for time; each has
/// a time-out that only guards against a hung browser.
final class ChromiumSession {
  private let browser: DevTools
  private let page: Page

  /// Starts Chromium and opens `url` in its page, returning once the page's load event fired.
  init(_ chromium: Chromium, url: URL, width: Int = 1280, height: Int = 800) throws {
    browser = try DevTools.launch(chromium: chromium, windowSize: (width, height))
    page = try browser.newPage(url: url.absoluteString)
  }

  /// Sends a command to the page and returns its result.
  @discardableResult
  func send(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
    try page.send(method, parameters)
  }

  /// Returns once an event named `method` has arrived (now or before).
  func wait(for method: String) throws { try page.waitForEvent(method) }

  /// The value of a JavaScript expression in the page (a promise is awaited).
  @discardableResult
  func evaluate(_ expression: String) throws -> Any? { try page.evaluate(expression) }

  /// Returns after the page has drawn two more frames and run one more task: work a key
  /// scheduled (a dialog's `close` event, a `requestAnimationFrame`) is done by then.
  func settle() throws {
    _ = try evaluate(
      "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => "
        + "setTimeout(() => r(true)))))")
  }

  /// Presses and releases a key, as a keyboard would.
  func press(_ key: String) throws {
    try page.press(key)
    try settle()
  }

  /// Types text into the focused element.
  func type(_ text: String) throws {
    try page.insertText(text)
    try settle()
  }

  /// A screenshot of the page's viewport (PNG bytes).
  func screenshot() throws -> Data { try page.screenshot() }
}
