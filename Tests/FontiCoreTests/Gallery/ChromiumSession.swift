import BrowserSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A page in headless Chromium driven over the DevTools protocol through
/// `--remote-debugging-pipe` (commands on the child's descriptor 3, replies on 4, each message
/// JSON ended by a NUL): real key events, so the browser's own behaviour (Tab order, Enter on a
/// link, Escape on a modal dialog) is what is tested. Every wait is for a reply or an event,
/// never for time; `timeout` ends Chromium if it hangs, and a read then sees the end.
final class ChromiumSession {
  private let pid: pid_t
  private let commands: Int32
  private let replies: Int32
  private let profile: String
  private var buffer: [UInt8] = []
  private var events: [[String: Any]] = []
  private var nextID = 0
  private var session = ""

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts Chromium and opens `url` in its page, returning once the page's load event fired.
  init(_ chromium: Chromium, url: URL, width: Int = 1280, height: Int = 800) throws {
    signal(SIGPIPE, SIG_IGN)  // a write to a Chromium that died is an error, not our death
    profile = FileManager.default.temporaryDirectory.path + "/fonti-cdp-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
      throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
    }
    for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    // Keep our descriptors clear of 3 and 4, where the child's copies go.
    for i in 0..<2 {
      toChild[i] = ChromiumSession.above4(toChild[i])
      fromChild[i] = ChromiumSession.above4(fromChild[i])
    }
    var flags = [
      "--headless", "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=\(profile)",
      "--no-first-run", "--no-default-browser-check", "--disable-extensions",
      "--disable-background-networking", "--disable-component-update", "--mute-audio",
      "--window-size=\(width),\(height)", "--hide-scrollbars",
      "--blink-settings=preferredColorScheme=1,lazyLoadEnabled=true", "about:blank",
    ]
    if geteuid() == 0 { flags.insert("--no-sandbox", at: 0) }
    let arguments = ["/usr/bin/timeout", "--kill-after=10", "120", chromium.executable] + flags
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 3)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 4)
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
    close(toChild[0])
    close(fromChild[1])
    guard status == 0 else {
      close(toChild[1])
      close(fromChild[0])
      throw Failure(description: "cannot start chromium: \(String(cString: strerror(status)))")
    }
    pid = child
    commands = toChild[1]
    replies = fromChild[0]

    let targets = try send("Target.getTargets", [:], inSession: false)
    let infos = (targets["targetInfos"] as? [[String: Any]]) ?? []
    guard let page = infos.first(where: { $0["type"] as? String == "page" }),
      let target = page["targetId"] as? String
    else { throw Failure(description: "chromium has no page") }
    let attached = try send(
      "Target.attachToTarget", ["targetId": target, "flatten": true], inSession: false)
    session = (attached["sessionId"] as? String) ?? ""
    _ = try send("Page.enable")
    _ = try send("Page.navigate", ["url": url.absoluteString])
    try wait(for: "Page.loadEventFired")
  }

  deinit {
    close(commands)
    close(replies)
    kill(pid, SIGTERM)  // our own child, by its id; `timeout` passes the signal on
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    try? FileManager.default.removeItem(atPath: profile)
  }

  private static func above4(_ fd: Int32) -> Int32 {
    guard fd <= 4 else { return fd }
    let copy = fcntl(fd, F_DUPFD_CLOEXEC, 10)
    close(fd)
    return copy
  }

  /// Sends a command and returns its result, keeping events that arrive meanwhile.
  @discardableResult
  func send(_ method: String, _ parameters: [String: Any] = [:], inSession: Bool = true) throws
    -> [String: Any]
  {
    nextID += 1
    var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
    if inSession { message["sessionId"] = session }
    var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(commands, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw Failure(description: "chromium went away (\(method))") }
      offset += n
    }
    while true {
      let reply = try nextMessage()
      if reply["id"] as? Int == nextID {
        if let error = reply["error"] as? [String: Any] {
          throw Failure(description: "\(method): \(error)")
        }
        return (reply["result"] as? [String: Any]) ?? [:]
      }
      events.append(reply)
    }
  }

  /// Returns once an event named `method` has arrived (now or before).
  func wait(for method: String) throws {
    if let i = events.firstIndex(where: { $0["method"] as? String == method }) {
      events.remove(at: i)
      return
    }
    while true {
      let message = try nextMessage()
      if message["method"] as? String == method { return }
      events.append(message)
    }
  }

  private func nextMessage() throws -> [String: Any] {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let data = Data(buffer[..<end])
        buffer.removeSubrange(...end)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { Glibc.read(replies, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw Failure(description: "chromium closed the pipe") }
      buffer += chunk[..<n]
    }
  }

  /// The value of a JavaScript expression in the page (a promise is awaited).
  @discardableResult
  func evaluate(_ expression: String) throws -> Any? {
    let result = try send(
      "Runtime.evaluate",
      ["expression": expression, "returnByValue": true, "awaitPromise": true])
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Returns after the page has drawn two more frames and run one more task: work a key
  /// scheduled (a dialog's `close` event, a `requestAnimationFrame`) is done by then.
  func settle() throws {
    _ = try evaluate(
      "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => "
        + "setTimeout(() => r(true)))))")
  }

  /// Presses and releases a key, as a keyboard would.
  func press(_ key: String) throws {
    let codes: [String: (code: String, virtual: Int, text: String?)] = [
      "Tab": ("Tab", 9, nil), "Enter": ("Enter", 13, "\r"), "Escape": ("Escape", 27, nil),
      "ArrowRight": ("ArrowRight", 39, nil), "ArrowLeft": ("ArrowLeft", 37, nil),
      "/": ("Slash", 191, "/"), " ": ("Space", 32, " "),
    ]
    guard let c = codes[key] else { throw Failure(description: "no key \(key)") }
    var down: [String: Any] = [
      "type": c.text == nil ? "rawKeyDown" : "keyDown", "key": key, "code": c.code,
      "windowsVirtualKeyCode": c.virtual,
    ]
    if let text = c.text { down["text"] = text }
    try send("Input.dispatchKeyEvent", down)
    try send(
      "Input.dispatchKeyEvent",
      ["type": "keyUp", "key": key, "code": c.code, "windowsVirtualKeyCode": c.virtual])
    try settle()
  }

  /// Types text into the focused element.
  func type(_ text: String) throws {
    try send("Input.insertText", ["text": text])
    try settle()
  }

  /// A screenshot of the page's viewport (PNG bytes).
  func screenshot() throws -> Data {
    let result = try send("Page.captureScreenshot", ["format": "png"])
    guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
      throw Failure(description: "no screenshot")
    }
    return data
  }
}
