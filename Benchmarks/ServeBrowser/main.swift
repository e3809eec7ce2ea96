import BrowserSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// `make bench-serve`'s browser half: what a person at `serve`'s page sees, measured in headless
// Chromium through the project's DevTools client.
//
//     serve-browser-bench BINARY JOB [RUNS]
//
// Starts `BINARY serve JOB --port 0`, opens its page in a 1400×1500 viewport (device pixel ratio
// 1) and, RUNS times (3), types 22 keystrokes 0.6 s apart into the text field. A keystroke is
// shown when the 12 cards on screen when it was pressed have an `<img>` with a new `src`, of a
// later request than the keystroke, `complete`, and `decode()` resolved: the time from the key
// event to that, read from the page's own clock. Then every family at once: the page zoomed out
// until the whole grid fits the window, three keystrokes, each timed until every card shows it
// (BENCH_TALL=1: the window grown to the grid's height instead). Prints the medians of the runs'
// medians and 95th percentiles, the median of every family's three times, the load average, and
// one line of JSON (`json {…}`) for scripts. BENCH_DETAIL=1 also prints each keystroke's figures
// (from Resource Timing: the first card asked for, the last answered, the last of the 12 shown
// answered (`lastShown`), and the server's median wait; when all 12 were in the page (`ready`)),
// the page's main-thread times, the CPU Chromium's processes and the server's took a keystroke,
// and each every-family time with the CPU it took. BENCH_TRACE=FILE writes a Chromium trace of
// keystrokes 6 to 9 of the first run (JSON events, for chrome://tracing or a script),
// BENCH_TRACE_EVERY=FILE one of every family shown; BENCH_CSS=RULES adds style rules to the page,
// to try a change of its look without a rebuild. Nothing here is a test: numbers vary with the
// machine; time-outs are guards.

let viewport = (1400, 1500)
let keystrokes = 22
let interval = 0.6
let visibleCards = 12
let guardSeconds = 60.0

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("bench-serve: \(message)\n".utf8))
  exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: serve-browser-bench BINARY JOB [RUNS]") }
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
guard let chromium = Chromium.find() else { fail(Chromium.unavailableReason ?? "no chromium") }

/// `serve` on a free port, its output in a file of its own; stopped with SIGINT at exit.
final class Server {
  let process = Process()
  let log: String
  private(set) var address = ""

  init(binary: String, job: String) throws {
    log = FileManager.default.temporaryDirectory.path + "/fonti-bench-serve-\(getpid()).out"
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["serve", job, "--port", "0"]
    process.currentDirectoryURL = URL(fileURLWithPath: job).deletingLastPathComponent()
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardError = FileHandle.standardError
    try process.run()
    let deadline = Date().addingTimeInterval(guardSeconds)
    while Date() < deadline, process.isRunning {
      let out = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      if let line = out.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }),
        let url = line.split(separator: " ").dropFirst().first
      {
        address = String(url)
        return
      }
      usleep(50_000)
    }
    fail("serve did not start (its output: \(log))")
  }

  func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: log)
  }
}

/// Installed in the page once: on each keydown, the cards on screen (the first `limit`, or all
/// when it is 0) and their pictures' sources; a loop on the page's clock files the time each
/// keystroke's cards are all shown.
let probe = """
  (() => {
    if (window.__bench) return true;
    const b = { limit: \(visibleCards), results: [], pending: [], pressed: 0 };
    window.__bench = b;
    performance.setResourceTimingBufferSize(100000);
    const shown = (li) => li.querySelector('img[data-seq]');
    function onScreen() {
      const out = [];
      for (const li of document.querySelectorAll('li.card')) {
        if (li.hidden) continue;
        const r = li.getBoundingClientRect();
        if (r.width === 0 || r.bottom <= 0 || r.top >= innerHeight) continue;
        out.push(li);
        if (b.limit && out.length >= b.limit) break;
      }
      return out;
    }
    document.addEventListener('keydown', (e) => {
      const cards = onScreen();
      b.pending.push({
        index: b.pressed++, t0: e.timeStamp, cards: cards, seq0: window.fontiServe.seq,
        before: cards.map((li) => { const i = shown(li); return i ? i.src : ''; })
      });
    }, true);
    /* Looked at when the page changed, and at least every 0.1 s: looking at 250 cards every
       8 ms cost the page's thread more than showing them. */
    let changed = true;
    let looked = 0;
    new MutationObserver(() => { changed = true; }).observe(document.body,
      { subtree: true, childList: true, attributes: true, attributeFilter: ['data-seq', 'src'] });
    function tick() {
      if (!changed && performance.now() - looked < 100) return setTimeout(tick, 8);
      changed = false;
      looked = performance.now();
      for (const p of b.pending.slice()) {
        if (p.checking) continue;
        const imgs = p.cards.map(shown);
        const ready = imgs.every((img, k) => img && img.src !== p.before[k] &&
          Number(img.dataset.seq) > p.seq0 && img.complete);
        if (!ready) continue;
        p.checking = true;
        p.readyAt = performance.now();
        Promise.all(imgs.map((i) => i.decode().catch(() => undefined))).then(() => {
          const cards = performance.getEntriesByType('resource').filter((r) =>
            r.name.includes('/card/') && r.startTime >= p.t0);
          const first = Math.min(...cards.map((r) => r.startTime)) - p.t0;
          const last = Math.max(...cards.map((r) => r.responseEnd)) - p.t0;
          const waits = cards.map((r) => r.responseStart - r.requestStart).sort((x, y) => x - y);
          const srcs = new Set(imgs.map((i) => i.src));
          const own = cards.filter((r) => srcs.has(r.name));
          const lastShown = Math.max(...own.map((r) => r.responseEnd)) - p.t0;
          b.results.push({ index: p.index, ms: performance.now() - p.t0, cards: p.cards.length,
            first: first, last: last, lastShown: lastShown, ready: p.readyAt - p.t0,
            fetches: cards.length, wait: waits[waits.length >> 1] });
          b.pending.splice(b.pending.indexOf(p), 1);
        });
      }
      setTimeout(tick, 8);
    }
    tick();
    return true;
  })()
  """

func percentile(_ values: [Double], _ p: Double) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let rank = p * Double(sorted.count - 1)
  let low = Int(rank.rounded(.down))
  let high = min(low + 1, sorted.count - 1)
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
}

/// CPU seconds (user + system) so far of the processes named like Chromium's and like the
/// server's (its workers are the same binary), read from /proc: where a phase's time went.
func cpuSeconds(server binary: String) -> (browser: Double, server: Double) {
  let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
  let serverName = String(URL(fileURLWithPath: binary).lastPathComponent.prefix(15))
  var totals = (browser: 0.0, server: 0.0)
  for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  where Int(pid) != nil {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
    else { continue }
    let name = String(stat[stat.index(after: open)..<close])
    let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
    guard fields.count > 14, let user = Double(fields[11]), let system = Double(fields[12]),
      let children = Double(fields[13]), let childrenSystem = Double(fields[14])
    else { continue }
    if name.contains("chrom") {
      totals.browser += (user + system) / tick
    } else if name == serverName {
      // A worker replaced (after its 400 cards) is counted in its parent's children once
      // reaped: without it, a phase in which workers were replaced lost their time.
      totals.server += (user + system + children + childrenSystem) / tick
    }
  }
  return totals
}

func results(_ page: Page) throws -> [(index: Int, ms: Double, cards: Int)] {
  if ProcessInfo.processInfo.environment["BENCH_DETAIL"] != nil {
    print(try page.evaluate("JSON.stringify(window.__bench.results)") as? String ?? "")
  }
  let list = try page.evaluate("JSON.stringify(window.__bench.results)") as? String ?? "[]"
  let items = (try JSONSerialization.jsonObject(with: Data(list.utf8))) as? [[String: Any]] ?? []
  return items.compactMap { item in
    guard let index = item["index"] as? Int, let ms = item["ms"] as? Double,
      let cards = item["cards"] as? Int
    else { return nil }
    return (index, ms, cards)
  }
}

let sentences = [
  "Sphinx of black quartz", "The five boxing wizard", "Pack my box with five",
]

/// The measurement: the page typed into, then every family at once; prints the figures.
func measure() throws {
  let server = try Server(binary: arguments[1], job: arguments[2])
  defer { server.stop() }
  let browser = try DevTools.launch(chromium: chromium, windowSize: viewport)
  defer { browser.close() }
  browser.commandTimeout = guardSeconds
  let page = try browser.newPage(url: server.address, timeout: guardSeconds)
  if ProcessInfo.processInfo.environment["BENCH_REDUCED_MOTION"] == "1" {
    try page.send(
      "Emulation.setEmulatedMedia",
      ["features": [["name": "prefers-reduced-motion", "value": "reduce"]]])
  }
  if let css = ProcessInfo.processInfo.environment["BENCH_CSS"] {
    try page.send("Page.enable")
    let encoded = css.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    _ = try page.evaluate(
      "(() => { const s = new CSSStyleSheet(); s.replaceSync(decodeURIComponent('\(encoded)')); "
        + "document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; return true; })()")
  }
  let drawn = "document.body.dataset.drawnSeq === String(window.fontiServe.seq)"
  try page.waitFor("window.fontiServe && window.fontiServe.ready", timeout: guardSeconds)
  try page.waitFor(drawn, timeout: guardSeconds)
  let families = try page.evaluate("document.querySelectorAll('li.card').length") as? Int ?? 0
  let cardEdge =
    try page.evaluate("document.querySelector('li.card img[data-seq]').naturalWidth") as? Int ?? 0
  try page.evaluate(probe)
  try page.focus("#s-text")

  let detail = ProcessInfo.processInfo.environment["BENCH_DETAIL"] != nil
  /// The page's main-thread times so far (DevTools' Performance metrics), in seconds.
  func metrics() throws -> [String: Double] {
    let list = try page.send("Performance.getMetrics")["metrics"] as? [[String: Any]] ?? []
    var out: [String: Double] = [:]
    for m in list {
      if let name = m["name"] as? String, name.hasSuffix("Duration"),
        let value = m["value"] as? Double
      {
        out[name] = value
      }
    }
    return out
  }
  if detail { try page.send("Performance.enable") }
  var medians: [Double] = []
  var p95s: [Double] = []
  var counted = 0
  for run in 0..<runs {
    // A fresh text for each run, so no card is in the server's cache.
    try page.evaluate(
      "(() => { const t = document.getElementById('s-text'); t.value = ''; "
        + "t.dispatchEvent(new Event('input', { bubbles: true })); return true; })()")
    try page.waitFor(drawn, timeout: guardSeconds)
    try page.evaluate("window.__bench.results = []; window.__bench.pending = []; true")
    let text = Array(sentences[run % sentences.count] + " \(run)")
    let before = detail ? try metrics() : [:]
    let cpuBefore = cpuSeconds(server: arguments[1])
    let trace = ProcessInfo.processInfo.environment["BENCH_TRACE"].flatMap {
      $0.isEmpty ? nil : $0
    }
    for k in 0..<keystrokes {
      if trace != nil, run == 0, k == 5 {
        try page.send(
          "Tracing.start",
          [
            "categories": "devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,"
              + "viz,toplevel,loading",
            "transferMode": "ReportEvents",
          ])
      }
      if let trace, run == 0, k == 9 {
        try page.send("Tracing.end")
        var events: [Any] = []
        while let chunk = try? page.waitForEvent("Tracing.dataCollected", timeout: 3) {
          events += chunk["value"] as? [Any] ?? []
        }
        let data = try JSONSerialization.data(withJSONObject: events)
        try data.write(to: URL(fileURLWithPath: trace))
      }
      let start = Date()
      try page.press(String(text[k % text.count]))
      let rest = interval - Date().timeIntervalSince(start)
      if rest > 0 { usleep(UInt32(rest * 1_000_000)) }
    }
    try page.waitFor(
      "window.__bench.results.length >= \(keystrokes) || window.__bench.pending.length === 0",
      timeout: guardSeconds)
    let times = try results(page).map(\.ms)
    if detail {
      let after = try metrics()
      let spent = after.keys.sorted().map { key in
        String(format: "%@ %.0f ms", key, 1000 * ((after[key] ?? 0) - (before[key] ?? 0)))
      }
      print("main thread, \(keystrokes) keystrokes: " + spent.joined(separator: ", "))
      let cpu = cpuSeconds(server: arguments[1])
      print(
        String(
          format: "CPU a keystroke: %.0f ms in Chromium's processes, %.0f ms in the server's",
          1000 * (cpu.browser - cpuBefore.browser) / Double(keystrokes),
          1000 * (cpu.server - cpuBefore.server) / Double(keystrokes)))
    }
    counted += times.count
    let (median, p95) = (percentile(times, 0.5), percentile(times, 0.95))
    medians.append(median)
    p95s.append(p95)
    print(
      String(
        format: "run %d: %d of %d keystrokes shown, median %.0f ms, p95 %.0f ms", run + 1,
        times.count, keystrokes, median, p95))
  }

  // Every family: the window zoomed out until the whole grid fits in it (its 1400×1500 device
  // pixels showing more CSS pixels), as a person does to see every family at once; with
  // BENCH_TALL=1, the window grown to the grid's height instead (17 times the pixels to
  // composite, in software here).
  try page.waitFor(drawn, timeout: guardSeconds)
  var zoom = 1.0
  if ProcessInfo.processInfo.environment["BENCH_TALL"] == "1" {
    let height = try page.evaluate("document.documentElement.scrollHeight") as? Int ?? viewport.1
    try page.send(
      "Emulation.setDeviceMetricsOverride",
      ["width": viewport.0, "height": height, "deviceScaleFactor": 1, "mobile": false])
  } else {
    for ratio in [2, 3, 4, 5, 6, 8, 10] {
      zoom = 1 / Double(ratio)
      try page.send(
        "Emulation.setDeviceMetricsOverride",
        [
          "width": viewport.0 * ratio, "height": viewport.1 * ratio, "deviceScaleFactor": zoom,
          "mobile": false,
        ])
      let fits = try page.evaluate(
        "new Promise((r) => requestAnimationFrame(() => r("
          + "document.documentElement.scrollHeight <= innerHeight)))")
      if fits as? Bool == true { break }
    }
  }
  try page.waitFor(drawn, timeout: guardSeconds)
  try page.evaluate(
    "window.__bench.limit = 0; window.__bench.results = []; window.__bench.pending = []; true")
  let everyTrace = ProcessInfo.processInfo.environment["BENCH_TRACE_EVERY"]
  if everyTrace != nil {
    try page.send(
      "Tracing.start",
      [
        "categories": "devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,"
          + "viz,toplevel,loading,gpu,benchmark,net,netlog",
        "transferMode": "ReportEvents",
      ])
  }
  // Three new texts, each a keystroke every card shows (the median is reported): one was
  // as noisy as the host.
  var everyTimes: [Double] = []
  var everyCards = 0
  for (k, key) in ["Q", "J", "X"].enumerated() {
    try page.evaluate("window.__bench.results = []; window.__bench.pending = []; true")
    let cpuBefore = cpuSeconds(server: arguments[1])
    try page.press(key)
    try page.waitFor("window.__bench.results.length >= 1", timeout: guardSeconds)
    let cpuAfter = cpuSeconds(server: arguments[1])
    if let everyTrace, k == 0 {
      try page.send("Tracing.end")
      var events: [Any] = []
      while let chunk = try? page.waitForEvent("Tracing.dataCollected", timeout: 3) {
        events += chunk["value"] as? [Any] ?? []
      }
      try JSONSerialization.data(withJSONObject: events).write(
        to: URL(fileURLWithPath: everyTrace))
    }
    let every = try results(page)[0]
    everyTimes.append(every.ms)
    everyCards = every.cards
    if detail {
      print(
        String(
          format:
            "every family %d: %.0f ms; CPU %.2f s in Chromium's processes, %.2f s in the server's",
          k + 1, every.ms, cpuAfter.browser - cpuBefore.browser,
          cpuAfter.server - cpuBefore.server))
    }
    try page.waitFor(drawn, timeout: guardSeconds)
  }
  let everyMedian = percentile(everyTimes, 0.5)

  let load =
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
    .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
  let median = percentile(medians, 0.5)
  let p95 = percentile(p95s, 0.5)
  print(
    String(
      format: "browser (Chromium, %d×%d, %d families, cards of %d px): "
        + "keystroke to %d cards shown: median %.0f ms, p95 %.0f ms (median of %d runs of %d); "
        + "every family (%d cards, zoomed to %.2f): %.0f ms (median of 3, slowest %.0f); "
        + "load average \(load)",
      viewport.0, viewport.1, families, cardEdge, visibleCards, median, p95, runs, keystrokes,
      everyCards, zoom, everyMedian, everyTimes.max() ?? .nan))
  print(
    String(
      format:
        "json {\"median_ms\":%.1f,\"p95_ms\":%.1f,\"every_family_ms\":%.1f,"
        + "\"families\":%d,\"shown\":%d,\"keystrokes\":%d,\"load\":\"\(load)\"}",
      median, p95, everyMedian, everyCards, counted, runs * keystrokes))
}

do {
  try measure()
} catch {
  fail("\(error)")
}
