import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Headless Chromium driven over the Chrome DevTools Protocol through `--remote-debugging-pipe`:
/// the browser reads commands on its descriptor 3 and writes replies and events on 4, each
/// message JSON ended by a NUL. No WebSocket, no port: the pipe is private to this process, and
/// the browser ends when it closes.
///
/// One browser, any number of pages (`newPage`), each a tab attached in flattened mode (its
/// messages carry its session id). Everything runs on the caller's thread: messages are read
/// when a call waits for its reply, and events that arrive meanwhile are filed by session (the
/// console's errors, load events). Every read has a time-out, a guard against a hung browser,
/// not a measurement: a command that gets no reply in time throws, saying which.
///
/// The browser runs in a process group of its own, in a fresh profile folder; `close()` (or
/// `deinit`) asks it to quit, kills what is left of its group, reaps it and removes the profile.
public final class DevTools {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
  }

  /// How long a command may wait for its reply, in seconds (a guard).
  public var commandTimeout: Double = 30
  /// The browser's process id (its process group's too), reaped by `close()`.
  public var processID: pid_t { pid }
  /// The folder of its profile and its log, removed by `close()`.
  public var folderPath: String { folder }

  /// The viewport of each new page, in CSS pixels (width, height).
  public let windowSize: (Int, Int)

  private let pid: pid_t
  private let commands: Int32
  private let replies: Int32
  private let folder: String
  private var buffer: [UInt8] = []
  private var nextID = 0
  private var replyFor: [Int: [String: Any]] = [:]
  private var abandoned: Set<Int> = []  // commands that timed out: their late replies are dropped
  fileprivate var events: [String: [[String: Any]]] = [:]  // by session id ("" = the browser)
  fileprivate var errors: [String: [String]] = [:]  // the console's errors, by session id
  fileprivate var networkErrors: [String: [String]] = [:]
  private var closed = false

  private init(
    pid: pid_t, commands: Int32, replies: Int32, folder: String, windowSize: (Int, Int)
  ) {
    self.windowSize = windowSize
    self.pid = pid
    self.commands = commands
    self.replies = replies
    self.folder = folder
  }

  deinit { close() }

  /// Starts headless Chromium; each page's viewport is `windowSize` (width, height) CSS pixels
  /// at a device scale of 1.
  /// `arguments` are added to Chromium's own (`--host-resolver-rules=…`, say).
  public static func launch(
    chromium: Chromium, windowSize: (Int, Int) = (1280, 900), arguments: [String] = []
  ) throws
    -> DevTools
  {
    signal(SIGPIPE, SIG_IGN)  // a write to a browser that died is an error, not our death
    let folder =
      FileManager.default.temporaryDirectory.path + "/fonti-devtools-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: folder + "/profile", withIntermediateDirectories: true)
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0 else { throw Failure(description: "pipe: \(errorText(errno))") }
    guard pipe(&fromChild) == 0 else {
      Glibc.close(toChild[0])
      Glibc.close(toChild[1])
      throw Failure(description: "pipe: \(errorText(errno))")
    }
    // Ours stay clear of 3 and 4, where the child's copies go, and close on exec.
    toChild = toChild.map(aboveFour)
    fromChild = fromChild.map(aboveFour)
    let flags =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder)/profile",
        "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--disable-sync", "--disable-background-networking",
        "--disable-component-update", "--disable-default-apps", "--disable-crash-reporter",
        "--disable-breakpad", "--mute-audio", "--hide-scrollbars",
        "--window-size=\(windowSize.0),\(windowSize.1)",
        // Light colour scheme, and `loading="lazy"` images loaded as a screen would (not at once).
        "--blink-settings=preferredColorScheme=1,lazyLoadEnabled=true",
      ] + arguments + ["about:blank"]
    let arguments = [chromium.executable] + flags
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 2, folder + "/stderr.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 3)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 4)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group (so its helpers can be ended together), default SIGPIPE.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, arguments[0], &actions, &attributes, &argv, environ)
    Glibc.close(toChild[0])
    Glibc.close(fromChild[1])
    guard status == 0 else {
      Glibc.close(toChild[1])
      Glibc.close(fromChild[0])
      try? FileManager.default.removeItem(atPath: folder)
      throw Failure(
        description: "cannot start \(chromium.executable): \(errorText(status))")
    }
    let browser = DevTools(
      pid: child, commands: toChild[1], replies: fromChild[0], folder: folder,
      windowSize: windowSize)
    // The first reply proves the pipe works (the browser is up).
    _ = try browser.send("Browser.getVersion", session: nil)
    return browser
  }

  /// Opens a new tab, attaches to it and loads `url`, returning once its load event fired. The
  /// console's errors are collected from before the load (`Page.consoleErrors`).
  public func newPage(url: String, timeout: Double = 30) throws -> Page {
    let created = try send("Target.createTarget", ["url": "about:blank"], session: nil)
    guard let target = created["targetId"] as? String else {
      throw Failure(description: "Target.createTarget gave no target: \(created)")
    }
    let attached = try send(
      "Target.attachToTarget", ["targetId": target, "flatten": true], session: nil)
    guard let session = attached["sessionId"] as? String else {
      throw Failure(description: "Target.attachToTarget gave no session: \(attached)")
    }
    let page = Page(browser: self, target: target, session: session)
    for domain in ["Page", "Runtime", "Log"] { try send("\(domain).enable", session: session) }
    // The viewport is the window's size (headless keeps room for a browser's bars otherwise).
    try send(
      "Emulation.setDeviceMetricsOverride",
      [
        "width": windowSize.0, "height": windowSize.1, "deviceScaleFactor": 1, "mobile": false,
      ], session: session)
    try page.navigate(url, timeout: timeout)
    return page
  }

  /// Asks the browser to quit, ends what is left of its process group, reaps it and removes its
  /// profile. Safe to call more than once.
  public func close() {
    guard !closed else { return }
    closed = true
    if let id = try? write("Browser.close", [:], session: nil) {
      _ = try? reply(to: id, method: "Browser.close", timeout: 5)
    }
    Glibc.close(commands)  // the browser also quits when its command pipe closes
    // Its end of the reply pipe closes when it exits (a guard of 10 s). Until we reap it, its
    // id (and so its group's) cannot be anyone else's.
    let deadline = Date().addingTimeInterval(10)
    while (try? pump(until: deadline)) == true {}
    kill(-pid, SIGKILL)  // our child's group: its helpers still running, or itself if hung
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    Glibc.close(replies)
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// The last lines the browser wrote on its standard error (for a failure's message).
  public var log: String {
    let text = (try? String(contentsOfFile: folder + "/stderr.log", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(15).joined(separator: "\n")
  }

  /// Sends a command (to a page's session, or to the browser when `session` is nil) and
  /// returns its result; throws with the protocol's error, or when no reply came in time.
  @discardableResult
  public func send(
    _ method: String, _ parameters: [String: Any] = [:], session: String?,
    timeout: Double? = nil
  ) throws -> [String: Any] {
    let id = try write(method, parameters, session: session)
    return try reply(to: id, method: method, timeout: timeout ?? commandTimeout)
  }

  private func write(_ method: String, _ parameters: [String: Any], session: String?) throws
    -> Int
  {
    guard !closed || method == "Browser.close" else {
      throw Failure(description: "the browser is closed (\(method))")
    }
    nextID += 1
    var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
    if let session { message["sessionId"] = session }
    var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(commands, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw Failure(description: "the browser went away (\(method))\n\(log)")
      }
      offset += n
    }
    return nextID
  }

  private func reply(to id: Int, method: String, timeout: Double) throws -> [String: Any] {
    let deadline = Date().addingTimeInterval(timeout)
    while replyFor[id] == nil {
      guard try pump(until: deadline) else {
        abandoned.insert(id)
        throw Failure(description: "no reply to \(method) within \(timeout) s")
      }
    }
    let reply = replyFor.removeValue(forKey: id) ?? [:]
    if let error = reply["error"] as? [String: Any] {
      throw Failure(description: "\(method): \(error["message"] ?? error)")
    }
    return (reply["result"] as? [String: Any]) ?? [:]
  }

  /// Reads and files one message; false when none came before `deadline`.
  fileprivate func pump(until deadline: Date) throws -> Bool {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let data = Data(buffer[..<end])
        buffer.removeSubrange(...end)
        let object = try? JSONSerialization.jsonObject(with: data)
        if let message = object as? [String: Any] { file(message) }
        return true
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { continue }  // the deadline is checked above
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { Glibc.read(replies, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw Failure(description: "the browser closed its pipe\n\(log)") }
      buffer += chunk[..<n]
    }
  }

  /// Reads whatever has already arrived, without waiting.
  fileprivate func drain() {
    while !closed, (try? pump(until: Date())) == true {}
  }

  private func file(_ message: [String: Any]) {
    if let id = message["id"] as? Int {
      if abandoned.remove(id) == nil { replyFor[id] = message }
      return
    }
    let session = (message["sessionId"] as? String) ?? ""
    let parameters = (message["params"] as? [String: Any]) ?? [:]
    switch message["method"] as? String {
    case "Runtime.exceptionThrown":
      let details = (parameters["exceptionDetails"] as? [String: Any]) ?? [:]
      let exception = (details["exception"] as? [String: Any])?["description"] as? String
      let text = (details["text"] as? String) ?? "exception"
      errors[session, default: []].append(
        [text, exception, Self.place(details)].compactMap { $0 }.joined(separator: " "))
    case "Runtime.consoleAPICalled" where parameters["type"] as? String == "error":
      let arguments = (parameters["args"] as? [[String: Any]]) ?? []
      errors[session, default: []].append(
        "console.error: "
          + arguments.map { "\($0["value"] ?? $0["description"] ?? $0["type"] ?? "")" }
          .joined(separator: " "))
    case "Log.entryAdded":
      let entry = (parameters["entry"] as? [String: Any]) ?? [:]
      guard entry["level"] as? String == "error" else { break }
      let text =
        "\(entry["source"] ?? "log"): \(entry["text"] ?? "")"
        + (Self.place(entry).map { " " + $0 } ?? "")
      // A resource that failed to load (a 404, a 503) is the network's, not the page's error.
      if entry["source"] as? String == "network" {
        networkErrors[session, default: []].append(text)
      } else {
        errors[session, default: []].append(text)
      }
    default:
      var list = events[session, default: []]
      list.append(message)
      if list.count > 500 { list.removeFirst(list.count - 500) }
      events[session] = list
    }
  }

  private static func place(_ details: [String: Any]) -> String? {
    guard let url = details["url"] as? String, !url.isEmpty else { return nil }
    let line = (details["lineNumber"] as? Int).map { ":\($0 + 1)" } ?? ""
    return "(\(url)\(line))"
  }

  /// Waits for an event named `method` of `session` that arrived after it was last taken.
  fileprivate func take(_ method: String, session: String, timeout: Double) throws
    -> [String: Any]
  {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let list = events[session],
        let i = list.firstIndex(where: { $0["method"] as? String == method })
      {
        events[session]?.remove(at: i)
        return (list[i]["params"] as? [String: Any]) ?? [:]
      }
      guard try pump(until: deadline) else {
        throw Failure(description: "no \(method) within \(timeout) s")
      }
    }
  }

  private static func aboveFour(_ fd: Int32) -> Int32 {
    let copy = fcntl(fd, F_DUPFD_CLOEXEC, 10)
    Glibc.close(fd)
    return copy
  }
}

private func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

/// One tab of a `DevTools` browser.
public final class Page {
  public let browser: DevTools
  public let target: String
  public let session: String

  fileprivate init(browser: DevTools, target: String, session: String) {
    self.browser = browser
    self.target = target
    self.session = session
  }

  /// Sends a command to this page's session.
  @discardableResult
  public func send(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
    try browser.send(method, parameters, session: session)
  }

  /// Loads `url` in this tab and returns once its load event fired.
  public func navigate(_ url: String, timeout: Double = 30) throws {
    browser.events[session]?.removeAll { $0["method"] as? String == "Page.loadEventFired" }
    let result = try send("Page.navigate", ["url": url])
    if let error = result["errorText"] as? String {
      throw DevTools.Failure(description: "cannot load \(url): \(error)")
    }
    _ = try browser.take("Page.loadEventFired", session: session, timeout: timeout)
  }

  /// Waits for an event of this page named `method` (`Page.loadEventFired`, …) that arrived
  /// since it was last waited for, and returns its parameters.
  @discardableResult
  public func waitForEvent(_ method: String, timeout: Double = 30) throws -> [String: Any] {
    try browser.take(method, session: session, timeout: timeout)
  }

  /// Reloads the page and returns once its load event fired.
  public func reload(timeout: Double = 30) throws {
    browser.events[session]?.removeAll { $0["method"] as? String == "Page.loadEventFired" }
    try send("Page.reload")
    _ = try browser.take("Page.loadEventFired", session: session, timeout: timeout)
  }

  /// The value of a JavaScript expression in the page, a promise awaited, as JSON gives it
  /// (String, NSNumber, Bool, [Any], [String: Any], nil for null and undefined). Throws with
  /// the exception when the expression throws or its promise is rejected.
  @discardableResult
  public func evaluate(_ expression: String) throws -> Any? {
    let value = try remote(expression)
    if let unserializable = value["unserializableValue"] as? String {
      return unserializable  // NaN, Infinity, -0, 12n
    }
    let result = value["value"]
    return result is NSNull ? nil : result
  }

  /// Waits until `expression` is truthy in the page, polling every 50 ms; throws after
  /// `timeout` seconds (a guard) with the expression and its last value. An exception or a
  /// page in the middle of loading counts as not yet.
  public func waitFor(_ expression: String, timeout: Double = 20) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var last = "nothing (no evaluation finished)"
    while true {
      do {
        let value = try remote(expression, timeout: max(1, deadline.timeIntervalSinceNow))
        if Self.truthy(value) { return }
        last = Self.shown(value)
      } catch let failure as DevTools.Failure {
        last = failure.description
      }
      guard Date() < deadline else {
        throw DevTools.Failure(
          description: "waited \(timeout) s for `\(expression)`; last value: \(last)")
      }
      usleep(50_000)
    }
  }

  /// Types `text` into the focused element (`Input.insertText`: one `input` event, as an IME
  /// or a paste gives).
  public func insertText(_ text: String) throws {
    try send("Input.insertText", ["text": text])
  }

  /// Types `text` one character at a time, each a key press (keydown, keypress, input, keyup).
  public func type(_ text: String) throws {
    for character in text {
      let string = String(character)
      try send("Input.dispatchKeyEvent", ["type": "keyDown", "text": string, "key": string])
      try send("Input.dispatchKeyEvent", ["type": "keyUp", "key": string])
    }
  }

  /// Presses and releases a named key: Backspace, Delete, Enter, Escape, Tab, the arrows,
  /// Home, End, PageUp, PageDown, or a single printable character (keydown, keypress and
  /// input, keyup).
  public func press(_ key: String) throws {
    let named: [String: (virtual: Int, text: String?)] = [
      "Backspace": (8, nil), "Tab": (9, nil), "Enter": (13, "\r"), "Escape": (27, nil),
      "PageUp": (33, nil), "PageDown": (34, nil), "End": (35, nil), "Home": (36, nil),
      "ArrowLeft": (37, nil), "ArrowUp": (38, nil), "ArrowRight": (39, nil),
      "ArrowDown": (40, nil), "Delete": (46, nil), " ": (32, " "),
    ]
    let punctuation: [String: (code: String, virtual: Int)] = [
      "/": ("Slash", 191), ".": ("Period", 190), ",": ("Comma", 188), "-": ("Minus", 189),
      "=": ("Equal", 187), ";": ("Semicolon", 186), "'": ("Quote", 222),
    ]
    let code: String
    let virtual: Int
    let text: String?
    if let known = named[key] {
      code = key == " " ? "Space" : key
      (virtual, text) = known
    } else if let known = punctuation[key] {
      (code, virtual, text) = (known.code, known.virtual, key)
    } else if key.count == 1, let scalar = key.unicodeScalars.first {
      let upper = key.uppercased()
      code = scalar.properties.isAlphabetic ? "Key\(upper)" : ""
      let scalars = upper.unicodeScalars
      virtual = scalars.count == 1 ? Int(scalars.first.map(\.value) ?? 0) : 0
      text = key
    } else {
      throw DevTools.Failure(description: "press: no key named \(key)")
    }
    var down: [String: Any] = [
      "type": text == nil ? "rawKeyDown" : "keyDown", "key": key, "code": code,
      "windowsVirtualKeyCode": virtual, "nativeVirtualKeyCode": virtual,
    ]
    if let text { down["text"] = text }
    try send("Input.dispatchKeyEvent", down)
    try send(
      "Input.dispatchKeyEvent",
      [
        "type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": virtual,
        "nativeVirtualKeyCode": virtual,
      ])
  }

  /// Clicks the first element matching `selector` at its centre, as a mouse would, after
  /// scrolling it into view; throws when there is none, or when another element covers it.
  public func click(_ selector: String) throws {
    let found = try evaluate(
      """
      (() => {
        const e = document.querySelector(\(Self.literal(selector)));
        if (!e) return null;
        e.scrollIntoView({block: "center", inline: "center"});
        const r = e.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const top = document.elementFromPoint(x, y);
        return {x, y, width: r.width, height: r.height,
                covered: !!top && top !== e && !e.contains(top),
                by: top ? top.outerHTML.slice(0, 120) : ""};
      })()
      """)
    guard let box = found as? [String: Any], let x = box["x"] as? Double,
      let y = box["y"] as? Double
    else { throw DevTools.Failure(description: "click: no element matches \(selector)") }
    guard (box["width"] as? Double ?? 0) > 0, (box["height"] as? Double ?? 0) > 0 else {
      throw DevTools.Failure(description: "click: \(selector) has no size (hidden?)")
    }
    if box["covered"] as? Bool == true {
      throw DevTools.Failure(
        description: "click: \(selector) is covered at its centre by \(box["by"] ?? "")")
    }
    try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": x, "y": y])
    for type in ["mousePressed", "mouseReleased"] {
      try send(
        "Input.dispatchMouseEvent",
        ["type": type, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1])
    }
  }

  /// Focuses the first element matching `selector`; throws when there is none or it cannot
  /// take the focus.
  public func focus(_ selector: String) throws {
    let focused = try evaluate(
      """
      (() => {
        const e = document.querySelector(\(Self.literal(selector)));
        if (!e) return "none";
        e.focus();
        return document.activeElement === e ? "yes" : "no";
      })()
      """)
    switch focused as? String {
    case "yes": return
    case "none": throw DevTools.Failure(description: "focus: no element matches \(selector)")
    default: throw DevTools.Failure(description: "focus: \(selector) does not take the focus")
    }
  }

  /// A screenshot of the viewport (PNG bytes).
  public func screenshot() throws -> Data {
    let result = try send("Page.captureScreenshot", ["format": "png"])
    guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
      throw DevTools.Failure(description: "Page.captureScreenshot gave no image")
    }
    return data
  }

  /// The errors the page's console showed so far, oldest first: uncaught exceptions and
  /// rejections, `console.error` calls, and the browser's own error messages (a
  /// Content-Security-Policy violation among them). Resources that failed to load are in
  /// `failedLoads()` instead.
  public func consoleErrors() -> [String] {
    browser.drain()
    return browser.errors[session] ?? []
  }

  /// The console's "Failed to load resource" messages so far (a 404, a 503, a refused request).
  public func failedLoads() -> [String] {
    browser.drain()
    return browser.networkErrors[session] ?? []
  }

  /// Closes this tab.
  public func close() throws {
    try browser.send("Target.closeTarget", ["targetId": target], session: nil)
  }

  private func remote(_ expression: String, timeout: Double? = nil) throws -> [String: Any] {
    let result = try browser.send(
      "Runtime.evaluate",
      ["expression": expression, "returnByValue": true, "awaitPromise": true],
      session: session, timeout: timeout)
    if let details = result["exceptionDetails"] as? [String: Any] {
      let exception = (details["exception"] as? [String: Any])?["description"] as? String
      throw DevTools.Failure(
        description: "`\(expression)` threw: \(exception ?? details["text"] as? String ?? "")")
    }
    return (result["result"] as? [String: Any]) ?? [:]
  }

  /// JavaScript's truthiness of a returned value.
  private static func truthy(_ value: [String: Any]) -> Bool {
    switch value["type"] as? String {
    case "undefined": return false
    case "boolean": return value["value"] as? Bool ?? false
    case "string": return !((value["value"] as? String) ?? "").isEmpty
    case "number":
      if let special = value["unserializableValue"] as? String {
        return special != "NaN" && special != "-0"
      }
      return (value["value"] as? Double ?? 0) != 0
    case "bigint": return value["unserializableValue"] as? String != "0n"
    case "object": return value["subtype"] as? String != "null"
    default: return true
    }
  }

  private static func shown(_ value: [String: Any]) -> String {
    if let special = value["unserializableValue"] as? String { return special }
    if value["type"] as? String == "undefined" { return "undefined" }
    guard let inner = value["value"] else { return "\(value["description"] ?? "?")" }
    if inner is NSNull { return "null" }
    if let string = inner as? String { return "\"\(string)\"" }
    if let data = try? JSONSerialization.data(withJSONObject: inner, options: [.fragmentsAllowed]) {
      return String(decoding: data, as: UTF8.self)
    }
    return "\(inner)"
  }

  /// `text` as a JavaScript string literal.
  static func literal(_ text: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }
}
