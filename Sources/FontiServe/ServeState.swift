import FontiEngine
import FontiModel
import FontiSupport
import Foundation

/// What `serve` serves now, and the open pages it tells of changes: the last snapshot that
/// validated, the job file's errors since, the generation (one more at every reading), the
/// favourites last told and the pages' event streams (`/events`). Confined to the main loop.
final class ServeState {
  /// The job file, absolute.
  let jobPath: String
  private(set) var snapshot: ServeSnapshot
  /// The job file's errors since it last validated (the snapshot is the last good one).
  private(set) var errors: [Diagnostic] = []
  private(set) var generation = 1
  /// The favourites as open pages last heard them.
  private var lastSaved: [FavouritesManifest.Entry]
  private var streams: [ObjectIdentifier: Exchange] = [:]

  init(jobPath: String, snapshot: ServeSnapshot) {
    self.jobPath = jobPath
    self.snapshot = snapshot
    lastSaved = (try? FavouritesStore(path: snapshot.favourites).entries()) ?? []
  }

  // MARK: Pages listening

  /// Keeps `exchange` open as an event stream (`/events`) until its page goes.
  func listen(_ exchange: Exchange) {
    MainLoop.assertOnLoop()
    let id = ObjectIdentifier(exchange)
    streams[id] = exchange
    exchange.onClose = { [weak self] in self?.streams[id] = nil }
    exchange.startStream(type: "text/event-stream")
    exchange.send("retry: 1000\n\n")
  }

  /// A comment on every stream, so that no proxy or browser drops an idle one.
  func keepAlive() {
    MainLoop.assertOnLoop()
    for stream in streams.values { stream.send(": keep-alive\n\n") }
  }

  private func tell(_ event: String, _ data: [UInt8]) {
    let text = String(decoding: data, as: UTF8.self)
    for stream in streams.values { stream.send("event: \(event)\ndata: \(text)\n\n") }
  }

  // MARK: Favourites

  /// The favourites manifest's entries, most recent first, with their families' slugs.
  func savedList() -> SavedList {
    MainLoop.assertOnLoop()
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
    return SavedList(entries: entries, raw: raw)
  }

  /// Tells open pages the favourites are now `list`.
  func tellSaved(_ list: SavedList) {
    MainLoop.assertOnLoop()
    lastSaved = list.raw
    tell("saved", JSON.encode(["saved": list.entries]))
  }

  /// The manifest may have changed (a `saved add`, a run beside): open pages are told when
  /// its entries did.
  func savedMayHaveChanged() {
    let list = savedList()
    if list.raw != lastSaved { tellSaved(list) }
  }

  // MARK: Readings of the job

  /// Takes a new reading of the job and fonts: its snapshot when it validated, else its errors
  /// (the last good snapshot stays served); open pages are told. Returns what they were told.
  @discardableResult
  func take(_ result: Result<ServeSnapshot.Loaded, DiagnosticError>) -> StateEvent {
    MainLoop.assertOnLoop()
    generation += 1
    var event = StateEvent(generation: generation, changed: [], all: false, errors: 0)
    switch result {
    case .success(let loaded):
      let new = loaded.snapshot
      event.changed = new.changed(since: snapshot)
      event.all = new.job.bytes != snapshot.job.bytes
      snapshot = new
      errors = []
    case .failure(let error):
      errors = error.diagnostics.filter(\.isError)
      event.errors = errors.count
    }
    tell("state", JSON.encode(event))
    return event
  }
}

/// The favourites as `/api/state` and the `saved` event give them, and as the manifest holds
/// them.
struct SavedList {
  var entries: [SavedEntry]
  var raw: [FavouritesManifest.Entry]
}
