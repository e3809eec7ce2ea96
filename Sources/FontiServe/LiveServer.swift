import FontiDraw
import FontiEngine
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `fonti-batch serve`: the job's families live in a browser. One GLib main loop carries the
/// HTTP server (libsoup), the workers' pipes, the file monitors and the timers, so the state
/// below is touched from that one thread only (`@unchecked Sendable`); the job and fonts are
/// read again on a thread of their own and handed back whole (`ServeSnapshot`).
///
/// Safe by default: it listens on loopback; a request whose `Host` is not the served address is
/// refused (DNS rebinding); the one change it makes (a heart) is POST only and needs the token
/// the printed address carries; the page has a strict Content-Security-Policy; no file is
/// served by its path, only cards, proofs and the page, made from the job.
public final class LiveServer: @unchecked Sendable {
  public struct Options: Sendable {
    public var job: String
    public var host = "127.0.0.1"
    public var port = 8800
    public var library: FontLibrary? = .standard
    public var configFile: String?
    public var workers: WorkerPool.Program = .current
    public var jobs = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// Bytes of drawn cards kept for the next request of the same card.
    public var cacheLimit = 96 << 20
    public init(job: String) { self.job = job }
  }

  let options: Options
  private let jobPath: String
  private var snapshot: ServeSnapshot
  /// The job file's errors since it last validated (the snapshot is the last good one).
  private var errors: [Diagnostic] = []
  private var generation = 1
  public let token: String
  private var http: HTTPServer?
  private var workers: CardWorkers?
  private var cache: CardCache
  private var streams: [ObjectIdentifier: Exchange] = [:]
  private var monitors: FolderMonitors?
  private let folder: String
  private var port = 0
  private var allowedHosts: Set<String> = []
  private var anyAddress = false

  private var debounce: UInt32 = 0
  private var reloading = false
  private var reloadAgain = false
  private var fontsChanged = false
  private var savedDebounce: UInt32 = 0
  private var lastSaved: [FavouritesManifest.Entry] = []
  private var stopSignal: Int32 = 0

  /// The job's warnings when it was first read.
  public let warnings: [Diagnostic]

  /// Reads the job and its fonts; throws every problem of the job at once.
  public init(_ options: Options) throws(DiagnosticError) {
    self.options = options
    jobPath = JobPath.absolute(options.job)
    let first = try ServeSnapshot.load(
      path: jobPath, library: options.library, configFile: options.configFile,
      reloadFonts: false)
    snapshot = first.snapshot
    warnings = first.warnings
    cache = CardCache(limit: options.cacheLimit)
    var bytes = [UInt8](repeating: 0, count: 16)
    var random = SystemRandomNumberGenerator()
    for i in bytes.indices { bytes[i] = random.next() }
    token = bytes.map { String(format: "%02x", $0) }.joined()
    var template = Array((NSTemporaryDirectory() + "/fonti-serve-XXXXXX").utf8CString)
    guard
      let made = template.withUnsafeMutableBufferPointer({ buffer in
        buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
      })
    else {
      throw DiagnosticError(
        .error("cannot make a temporary folder: \(FileSystem.describe(errno))"))
    }
    folder = made
  }

  /// Starts listening; returns the address to open (with the token).
  public func start() throws(ServeError) -> String {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGCHLD, SIG_DFL)
    let server = try HTTPServer(
      screen: { [unowned self] in self.screen($0) }, handler: { [unowned self] in self.handle($0) })
    do {
      port = try server.listen(host: options.host, port: options.port)
    } catch {
      var error = error
      if options.port != 0 && error.description.contains("in use") {
        error.description += " (--port 0 takes any free port)"
      }
      throw error
    }
    http = server
    let shown = options.host.contains(":") ? "[\(options.host)]" : options.host
    switch options.host {
    case "127.0.0.1", "::1":
      allowedHosts = ["\(shown):\(port)", "localhost:\(port)"]
    case "0.0.0.0", "::":
      anyAddress = true
      allowedHosts = ["localhost:\(port)", "\(ProcessInfo.processInfo.hostName):\(port)"]
    default:
      allowedHosts = ["\(shown):\(port)"]
    }
    if port == 80 { allowedHosts.formUnion(allowedHosts.map { String($0.dropLast(3)) }) }
    workers = CardWorkers(launch: launch(snapshot), size: options.jobs, folder: folder)
    monitors = FolderMonitors { [unowned self] path in self.changed(path) }
    watch()
    lastSaved = (try? FavouritesStore(path: snapshot.favourites).entries()) ?? []
    MainLoop.after(15_000) { [unowned self] in
      for stream in streams.values { stream.send(": keep-alive\n\n") }
      return true
    }
    let host = options.host == "0.0.0.0" || options.host == "::" ? "127.0.0.1" : shown
    return "http://\(host):\(port)/?token=\(token)"
  }

  /// Serves until SIGINT or SIGTERM; returns the signal.
  public func run() -> Int32 {
    MainLoop.onSignal(SIGINT) { [unowned self] in stop(SIGINT) }
    MainLoop.onSignal(SIGTERM) { [unowned self] in stop(SIGTERM) }
    MainLoop.onSignal(SIGHUP) { [unowned self] in stop(SIGHUP) }
    MainLoop.run()
    workers?.stop()
    http = nil
    try? FileManager.default.removeItem(atPath: folder)
    return stopSignal
  }

  private func stop(_ signal: Int32) {
    guard stopSignal == 0 else { return }
    stopSignal = signal
    MainLoop.quit()
  }

  private func launch(_ snapshot: ServeSnapshot) -> WorkerPool.Launch {
    WorkerPool.Launch(options.workers, setup: snapshot.setup)
  }

  // MARK: Requests

  /// Before a request's body is read: not for this server's address (DNS rebinding), a
  /// subresource of another site's page, or too large to read.
  private func screen(_ head: HTTPServer.Head) -> (status: Int, text: String)? {
    guard let host = head.header("Host"), hostAllowed(host) else {
      return (421, "this server answers only to the address it printed")
    }
    // Another site may link to the page, not use what it serves (cards tell which families
    // are here) nor make it draw.
    if let site = head.header("Sec-Fetch-Site"), site == "cross-site" || site == "same-site",
      head.header("Sec-Fetch-Mode") != "navigate"
    {
      return (403, "this server answers only its own page")
    }
    let length = head.header("Content-Length").flatMap { Int($0) } ?? 0
    if length > Self.bodyLimit || head.header("Transfer-Encoding") != nil {
      return (413, "request too large")
    }
    return nil
  }

  /// The largest request body read (a heart's is a few dozen bytes).
  static let bodyLimit = 4096

  private func handle(_ exchange: Exchange) {
    let path = exchange.path
    if path == "/api/saved" {
      guard exchange.method == "POST" else {
        exchange.respond(405, text: "POST only", headers: [("Allow", "POST")])
        return
      }
      heart(exchange)
      return
    }
    guard exchange.method == "GET" || exchange.method == "HEAD" else {
      exchange.respond(405, text: "GET only", headers: [("Allow", "GET, HEAD")])
      return
    }
    switch path {
    case "/", "/index.html":
      exchange.respond(
        200, type: "text/html; charset=utf-8",
        body: Array(ServePage.html(title: snapshot.job.title)),
        headers: [("Content-Security-Policy", ServePage.contentSecurityPolicy)])
    case "/favicon.ico":
      // Asked for by every browser; the page has none.
      exchange.respond(204, type: "image/x-icon", body: [])
    case "/api/state":
      exchange.respond(200, type: "application/json", body: stateJSON())
    case "/events":
      let id = ObjectIdentifier(exchange)
      streams[id] = exchange
      exchange.onClose = { [weak self] in self?.streams[id] = nil }
      exchange.startStream(type: "text/event-stream")
      exchange.send("retry: 1000\n\n")
    default:
      if let slug = Self.slug(path, prefix: "/card/", suffix: ".png") {
        card(exchange, slug: slug, share: false)
      } else if let slug = Self.slug(path, prefix: "/share/", suffix: ".png") {
        card(exchange, slug: slug, share: true)
      } else if let slug = Self.slug(path, prefix: "/proofs/", suffix: ".pdf") {
        proofs(exchange, slug: slug)
      } else {
        exchange.respond(404, text: "not found")
      }
    }
  }

  static func slug(_ path: String, prefix: String, suffix: String) -> String? {
    guard path.hasPrefix(prefix), path.hasSuffix(suffix),
      path.count > prefix.count + suffix.count
    else { return nil }
    let slug = path.dropFirst(prefix.count).dropLast(suffix.count)
    return slug.contains("/") ? nil : String(slug)
  }

  /// `Host` must name this server: its printed address, or `localhost`; listening on every
  /// address, any IP address at the port too. A name that only resolves here (DNS rebinding)
  /// is refused.
  func hostAllowed(_ host: String) -> Bool {
    let host = host.lowercased()
    if allowedHosts.contains(host) { return true }
    guard anyAddress, host.hasSuffix(":\(port)") else { return false }
    var name = String(host.dropLast(":\(port)".count))
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
  }

  private func origin(_ query: [String: String]) -> CardWorkers.Origin? {
    guard let client = query["client"], let seq = query["seq"].flatMap({ Int($0) }),
      (1...40).contains(client.count),
      client.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { return nil }
    return CardWorkers.Origin(client: client, seq: seq)
  }

  private func card(_ exchange: Exchange, slug: String, share: Bool) {
    let parsed = CardRequest.parse(
      slug: slug, query: exchange.query, snapshot: snapshot,
      defaultScale: share ? snapshot.job.png.scale : 1)
    let card: CardRequest
    switch parsed {
    case .failure(.notFound):
      exchange.respond(404, text: "no family '\(slug)' in this job")
      return
    case .failure(.invalid(let problem)):
      exchange.respond(400, text: problem)
      return
    case .success(let c):
      card = c
    }
    var headers = [("Cache-Control", "private, max-age=31536000, immutable")]
    if share {
      headers.append(("Content-Disposition", "attachment; filename=\"\(slug).png\""))
    }
    let partners = snapshot.partners[card.family.name] ?? []
    produce(
      exchange, key: card.key, type: "image/png", headers: headers,
      origin: origin(exchange.query)
    ) { path in .specimen(card.specimen(partners: partners), path: path) }
  }

  private func proofs(_ exchange: Exchange, slug: String) {
    guard let family = snapshot.bySlug[slug], let version = snapshot.versions[slug] else {
      exchange.respond(404, text: "no family '\(slug)' in this job")
      return
    }
    let job = snapshot.job
    let partners = (snapshot.partners[family.name] ?? []).map(FamilyRef.init)
    let input = CatalogueInput<FamilyRef>(
      title: family.name, author: job.author, text: job.defaults.text, size: job.defaults.size,
      texts: job.texts, sizes: job.sizes, styles: job.styles, families: [FamilyRef(family)],
      partners: [family.name: partners], creationDate: Date(timeIntervalSince1970: 0),
      proofs: job.proofs.isEmpty ? .standard : job.proofs,
      sample: job.defaults.sample.isEmpty ? nil : job.defaults.sample)
    produce(
      exchange, key: "\(slug)\u{1F}\(version)\u{1F}proofs\u{1F}\(snapshot.jobHash)",
      type: "application/pdf",
      headers: [("Content-Disposition", "inline; filename=\"\(slug)-proofs.pdf\"")], origin: nil
    ) { path in .catalogue(input, path: path.replacingOccurrences(of: ".png", with: ".pdf")) }
  }

  /// Answers from the cache, else has a worker draw it.
  private func produce(
    _ exchange: Exchange, key: String, type: String, headers: [(String, String)],
    origin: CardWorkers.Origin?, item: (String) -> WorkItem
  ) {
    if let bytes = cache.get(key) {
      exchange.respond(200, type: type, body: bytes, headers: headers)
      return
    }
    guard let workers else {
      exchange.respond(503, text: "the server is starting", headers: [("Retry-After", "1")])
      return
    }
    exchange.deferAnswer()
    let id = workers.draw(key: key, item: item, origin: origin) { [weak self] outcome in
      switch outcome {
      case .png(let bytes):
        self?.cache.put(key, bytes)
        exchange.respond(200, type: type, body: bytes, headers: headers)
      case .stale:
        exchange.respond(503, text: "a newer request came first", headers: [("Retry-After", "1")])
      case .failed(let message):
        exchange.respond(500, text: Sanitize.terminal(message))
      }
    }
    exchange.onClose = { [weak self] in self?.workers?.cancel(id) }
  }

  private func heart(_ exchange: Exchange) {
    guard let given = exchange.header("X-Fonti-Token"), Self.same(given, token) else {
      exchange.respond(403, text: "a change needs the token of the address serve printed")
      return
    }
    let body = exchange.body
    guard body.count <= 4096 else {
      exchange.respond(413, text: "request too large")
      return
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let name = object["family"] as? String, let saved = object["saved"] as? Bool
    else {
      exchange.respond(400, text: "expected {\"family\": NAME, \"saved\": true|false}")
      return
    }
    guard
      let family = snapshot.families.first(where: {
        $0.name.caseInsensitiveCompare(name) == .orderedSame
      })
    else {
      exchange.respond(404, text: "no family of that name in this job")
      return
    }
    let store = FavouritesStore(path: snapshot.favourites)
    do {
      if saved {
        try store.add(families: [family])
      } else {
        try store.remove([family.name])
      }
    } catch {
      exchange.respond(409, text: Sanitize.terminal(error.description))
      return
    }
    let list = savedList()
    watch()
    exchange.respond(200, type: "application/json", body: JSON.encode(["saved": list.entries]))
    broadcastSaved(list)
  }

  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }

  // MARK: State

  private func savedList() -> (entries: [SavedEntry], raw: [FavouritesManifest.Entry]) {
    let raw = (try? FavouritesStore(path: snapshot.favourites).entries()) ?? []
    let slugs = Dictionary(
      zip(snapshot.families.map { $0.name.lowercased() }, snapshot.slugs),
      uniquingKeysWith: { a, _ in a })
    // The manifest keeps them most recent first.
    let entries = raw.map {
      SavedEntry(
        family: $0.family, slug: slugs[$0.family.lowercased()],
        savedAt: Timestamp.format($0.savedAt))
    }
    return (entries, raw)
  }

  private func broadcastSaved(_ list: (entries: [SavedEntry], raw: [FavouritesManifest.Entry])) {
    lastSaved = list.raw
    let data = String(decoding: JSON.encode(["saved": list.entries]), as: UTF8.self)
    for stream in streams.values { stream.send("event: saved\ndata: \(data)\n\n") }
  }

  func stateJSON() -> [UInt8] {
    let s = snapshot
    let saved = savedList().entries
    let savedNames = Set(saved.map { $0.family.lowercased() })
    let job = s.job
    var families: [StateFamily] = []
    families.reserveCapacity(s.families.count)
    for (family, slug) in zip(s.families, s.slugs) {
      let axes = (family.variableFiles.first?.axes ?? []).map(StateAxis.init)
      families.append(
        StateFamily(
          name: family.name, slug: slug, v: s.versions[slug] ?? "", custom: family.isCustom,
          bold: family.hasBold, italic: family.hasItalic, variable: !axes.isEmpty, axes: axes,
          saved: savedNames.contains(family.name.lowercased()),
          warnings: s.warnings[family.name] ?? [],
          partners: (s.partners[family.name] ?? []).map(\.name)))
    }
    var jobAxes: [StateAxis] = []
    for setting in job.defaults.sample.variations {
      let ranges = s.families.flatMap { $0.variableFiles.first?.axes ?? [] }.filter {
        $0.tag == setting.tag
      }
      guard let first = ranges.first, let low = ranges.map(\.min).min(),
        let high = ranges.map(\.max).max()
      else { continue }
      jobAxes.append(
        StateAxis(tag: setting.tag, name: first.name, min: low, max: high, default: setting.value))
    }
    let state = State(
      generation: generation, job: JobPath.lastComponent(of: jobPath), title: job.title,
      errors: errors.map(StateError.init),
      defaults: StateDefaults(
        text: job.defaults.text, size: job.defaults.size, theme: job.defaults.theme.rawValue,
        language: job.defaults.sample.language ?? "",
        variations: job.defaults.sample.variations.map {
          StateDefaults.Variation(tag: $0.tag, value: $0.value)
        },
        features: job.defaults.sample.features.map(\.description)),
      axes: jobAxes, families: families, saved: saved)
    return JSON.encode(state)
  }

  // MARK: Changes

  private func watch() {
    var folders = snapshot.fontFolders
    folders.insert(FileSystem.folder(of: jobPath))
    folders.insert(FileSystem.folder(of: snapshot.favourites))
    monitors?.watch(folders.filter { FileManager.default.fileExists(atPath: $0) })
  }

  static let fontExtensions: Set<String> = [
    "ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa", "afm", "pcf", "dfont",
  ]

  private func changed(_ path: String) {
    let favouritesFolder = FileSystem.folder(of: snapshot.favourites)
    if path == favouritesFolder {
      // The output folder made (by a heart, a run, `saved add`): its manifest is watched from
      // now on, and read now, in case it was written before the watch began.
      watch()
    }
    if path == snapshot.favourites || path == favouritesFolder {
      MainLoop.remove(savedDebounce)
      savedDebounce = MainLoop.after(80) { [unowned self] in
        savedDebounce = 0
        let list = savedList()
        if list.raw != lastSaved { broadcastSaved(list) }
        return false
      }
      return
    }
    if path != jobPath {
      // A font file, or a folder, in a folder of fonts: installed, removed, rebuilt.
      guard snapshot.fontFolders.contains(FileSystem.folder(of: path)) else { return }
      let ext = (path as NSString).pathExtension.lowercased()
      var isFolder: ObjCBool = false
      guard
        Self.fontExtensions.contains(ext)
          || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            && isFolder.boolValue)
      else { return }
      fontsChanged = true
    }
    MainLoop.remove(debounce)
    // A font builder writes its file in several steps: read it once it has settled.
    debounce = MainLoop.after(150) { [unowned self] in
      debounce = 0
      reload()
      return false
    }
  }

  private func reload() {
    guard !reloading else {
      reloadAgain = true
      return
    }
    reloading = true
    let fonts = fontsChanged
    fontsChanged = false
    let path = jobPath
    let options = options
    Thread.detachNewThread { [weak self] in
      let result = Result { () throws(DiagnosticError) in
        try ServeSnapshot.load(
          path: path, library: options.library, configFile: options.configFile,
          reloadFonts: true)
      }
      let box = UncheckedBox(result)
      MainLoop.post { [weak self] in self?.apply(box.value, fonts: fonts) }
    }
  }

  private func apply(_ result: Result<ServeSnapshot.Loaded, DiagnosticError>, fonts: Bool) {
    reloading = false
    generation += 1
    var event = StateEvent(generation: generation, changed: [], all: false, errors: 0)
    switch result {
    case .success(let loaded):
      let new = loaded.snapshot
      let old = snapshot
      event.changed = new.changed(since: old)
      event.all = new.job.bytes != old.job.bytes
      snapshot = new
      errors = []
      for slug in event.changed { cache.removeAll(prefix: slug + "\u{1F}") }
      // The label and box faces are on every card.
      if new.setup != old.setup { cache = CardCache(limit: options.cacheLimit) }
      if fonts || loaded.fontsReloaded || new.setup != old.setup {
        workers?.restart(launch(new))
      }
      watch()
    case .failure(let error):
      errors = error.diagnostics.filter(\.isError)
      event.errors = errors.count
    }
    let data = String(decoding: JSON.encode(event), as: UTF8.self)
    for stream in streams.values { stream.send("event: state\ndata: \(data)\n\n") }
    if reloadAgain {
      reloadAgain = false
      reload()
    }
  }

  /// For the benchmark and tests: the workers' process IDs.
  public var workerPIDs: [Int32] { workers?.pids ?? [] }
}

/// A value handed from the loading thread to the main loop, which alone uses it from then on.
private struct UncheckedBox<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}

// MARK: JSON of /api/state and /events (docs/serve.md)

private struct State: Encodable {
  var generation: Int
  var job: String
  var title: String
  var errors: [StateError]
  var defaults: StateDefaults
  var axes: [StateAxis]
  var families: [StateFamily]
  var saved: [SavedEntry]
}

private struct StateError: Encodable {
  var file: String?
  var line: Int?
  var column: Int?
  var message: String
  var text: String
  init(_ d: Diagnostic) {
    file = d.file.map { JobPath.lastComponent(of: $0) }
    line = d.mark?.line
    column = d.mark?.column
    message = d.message
    text = d.description
  }
}

private struct StateDefaults: Encodable {
  struct Variation: Encodable {
    var tag: String
    var value: Double
  }
  var text: String
  var size: Double
  var theme: String
  var language: String
  var variations: [Variation]
  var features: [String]
}

private struct StateAxis: Encodable {
  var tag: String
  var name: String
  var min: Double
  var max: Double
  var `default`: Double
  init(tag: String, name: String, min: Double, max: Double, default value: Double) {
    self.tag = tag
    self.name = name
    self.min = min
    self.max = max
    self.default = value
  }
  init(_ axis: FontProofs.Axis) {
    self.init(
      tag: axis.tag, name: axis.name, min: axis.min, max: axis.max, default: axis.defaultValue)
  }
}

private struct StateFamily: Encodable {
  var name: String
  var slug: String
  var v: String
  var custom: Bool
  var bold: Bool
  var italic: Bool
  var variable: Bool
  var axes: [StateAxis]
  var saved: Bool
  var warnings: [String]
  var partners: [String]
}

private struct SavedEntry: Encodable {
  var family: String
  var slug: String?
  var savedAt: String
}

private struct StateEvent: Encodable {
  var generation: Int
  var changed: [String]
  var all: Bool
  var errors: Int
}

private enum JSON {
  static func encode<T: Encodable>(_ value: T) -> [UInt8] {
    (try? Array(JSONEncoder(.compact).encode(value))) ?? Array("{}".utf8)
  }
}
