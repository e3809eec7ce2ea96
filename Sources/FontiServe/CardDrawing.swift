import FontiEngine
import FontiSupport

/// The cards and proof pages `serve` answers with: from the cache of drawn ones, else drawn by
/// its worker processes, the newest request first. Confined to the main loop, where the
/// workers' answers arrive.
final class CardDrawing {
  private let options: LiveServer.Options
  /// The temporary folder the workers draw into.
  private let folder: String
  private var cache: CardCache
  private var workers: CardWorkers?

  init(options: LiveServer.Options, folder: String) {
    self.options = options
    self.folder = folder
    cache = CardCache(limit: options.cacheLimit)
  }

  /// Starts the workers, set up for `snapshot`'s fonts.
  func start(_ snapshot: ServeSnapshot) {
    MainLoop.assertOnLoop()
    workers = CardWorkers(launch: launch(snapshot), size: options.jobs, folder: folder)
  }

  /// Replaces the workers with ones set up for `snapshot` (fonts that changed: no worker keeps
  /// a rebuilt font's old outlines).
  func restart(_ snapshot: ServeSnapshot) {
    MainLoop.assertOnLoop()
    workers?.restart(launch(snapshot))
  }

  func stop() {
    MainLoop.assertOnLoop()
    workers?.stop()
  }

  /// The workers' process IDs.
  var pids: [Int32] { workers?.pids ?? [] }

  private func launch(_ snapshot: ServeSnapshot) -> WorkerPool.Launch {
    WorkerPool.Launch(options.workers, setup: snapshot.setup)
  }

  /// Drops the drawn cards of the families in `slugs`, or every card when what is on every
  /// card changed (`setupChanged`: the label and box faces).
  func forget(_ slugs: [String], setupChanged: Bool) {
    MainLoop.assertOnLoop()
    for slug in slugs { cache.removeAll(prefix: slug + "\u{1F}") }
    if setupChanged { cache = CardCache(limit: options.cacheLimit) }
  }

  /// Answers from the cache, else has a worker draw it.
  func produce(
    _ exchange: Exchange, key: String, type: String, headers: [(String, String)],
    origin: CardWorkers.Origin?, item: (String) -> WorkItem
  ) {
    MainLoop.assertOnLoop()
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
}
