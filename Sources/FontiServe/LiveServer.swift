import FontiEngine
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `fonti-batch serve`: the job's families live in a browser. One GLib main loop, on the
/// thread that calls `start` and `run`, carries the HTTP server (libsoup), the workers' pipes,
/// the file monitors and the timers; the parts it is made of are confined to it and assert so:
/// `ServeState` (what is served, the pages listening), `ServeRoutes` (the answers),
/// `CardDrawing` (the cache and the workers) and `ServeWatcher` (the files followed, read again
/// on a thread of its own and handed back whole as a `ServeSnapshot`).
///
/// Safe by default: it listens on loopback, and answers only to the address it printed
/// (`ServeRoutes` says the rest).
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
  public let token: String
  /// The job's warnings when it was first read.
  public let warnings: [Diagnostic]
  /// The temporary folder the workers draw into, removed when serve stops.
  private let folder: String
  private let state: ServeState
  private let cards: CardDrawing
  private var watcher: ServeWatcher?
  private var routes: ServeRoutes?
  private var http: HTTPServer?
  private var stopSignal: Int32 = 0

  /// Reads the job and its fonts; throws every problem of the job at once.
  public init(_ options: Options) throws(DiagnosticError) {
    self.options = options
    let jobPath = JobPath.absolute(options.job)
    let first = try ServeSnapshot.load(
      path: jobPath, library: options.library, configFile: options.configFile,
      reloadFonts: false)
    warnings = first.warnings
    state = ServeState(jobPath: jobPath, snapshot: first.snapshot)
    token = Self.newToken()
    folder = try Self.temporaryFolder()
    cards = CardDrawing(options: options, folder: folder)
  }

  /// 16 random bytes in hexadecimal: the token a change needs, new at every start.
  private static func newToken() -> String {
    var bytes = [UInt8](repeating: 0, count: 16)
    var random = SystemRandomNumberGenerator()
    for i in bytes.indices { bytes[i] = random.next() }
    return bytes.map { String(format: "%02x", $0) }.joined()
  }

  private static func temporaryFolder() throws(DiagnosticError) -> String {
    var template = Array((NSTemporaryDirectory() + "/fonti-serve-XXXXXX").utf8CString)
    guard
      let made = template.withUnsafeMutableBufferPointer({ buffer in
        buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
      })
    else {
      throw DiagnosticError(
        .error("cannot make a temporary folder: \(FileSystem.describe(errno))"))
    }
    return made
  }

  /// Starts listening; returns the address to open (with the token).
  public func start() throws(ServeError) -> String {
    MainLoop.assertOnLoop()
    signal(SIGPIPE, SIG_IGN)
    signal(SIGCHLD, SIG_DFL)
    let address = try listen()
    let watcher = ServeWatcher(
      options: options, jobPath: state.jobPath,
      reloaded: { [unowned self] in reloaded($0, fonts: $1) },
      savedChanged: { [unowned self] in state.savedMayHaveChanged() })
    self.watcher = watcher
    routes = ServeRoutes(
      state: state, cards: cards, watcher: watcher, address: address, token: token)
    cards.start(state.snapshot)
    watcher.watch(state.snapshot)
    MainLoop.after(15_000) { [unowned self] in
      state.keepAlive()
      return true
    }
    return address.url(token: token)
  }

  /// Makes the HTTP server and listens at the options' address.
  private func listen() throws(ServeError) -> ServeAddress {
    // Requests are answered only while the loop runs, by then with `routes` made.
    let server = try HTTPServer(
      screen: { [unowned self] in routes?.screen($0) },
      handler: { [unowned self] in routes?.handle($0) })
    let port: Int
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
    return ServeAddress(host: options.host, port: port)
  }

  /// Serves until SIGINT, SIGTERM or SIGHUP; returns the signal.
  public func run() -> Int32 {
    MainLoop.assertOnLoop()
    MainLoop.onSignal(SIGINT) { [unowned self] in stop(SIGINT) }
    MainLoop.onSignal(SIGTERM) { [unowned self] in stop(SIGTERM) }
    MainLoop.onSignal(SIGHUP) { [unowned self] in stop(SIGHUP) }
    MainLoop.run()
    cards.stop()
    http = nil
    try? FileManager.default.removeItem(atPath: folder)
    return stopSignal
  }

  private func stop(_ signal: Int32) {
    guard stopSignal == 0 else { return }
    stopSignal = signal
    MainLoop.quit()
  }

  /// A new reading of the job and fonts: served, its families' cards drawn again, the workers
  /// replaced when the fonts changed, the files it was read from followed.
  private func reloaded(_ result: Result<ServeSnapshot.Loaded, DiagnosticError>, fonts: Bool) {
    let old = state.snapshot
    let event = state.take(result)
    guard case .success(let loaded) = result else { return }
    let new = loaded.snapshot
    // The label and box faces are on every card.
    cards.forget(event.changed, setupChanged: new.setup != old.setup)
    if fonts || loaded.fontsReloaded || new.setup != old.setup { cards.restart(new) }
    watcher?.watch(new)
  }

  /// For the benchmark and tests: the workers' process IDs.
  public var workerPIDs: [Int32] { cards.pids }
}
