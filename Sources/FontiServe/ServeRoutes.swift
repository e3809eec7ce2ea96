import FontiDraw
import FontiEngine
import FontiModel
import FontiSupport
import Foundation

/// `serve`'s answers: each request screened before its body is read, then the page, the
/// state, the event stream, cards, Share, proof pages and hearts (docs/serve.md). Confined to
/// the main loop, which libsoup answers on.
///
/// Safe by default: a request whose `Host` is not the served address is refused (DNS
/// rebinding); the one change it makes (a heart) is POST only and needs the token the printed
/// address carries; the page has a strict Content-Security-Policy; no file is served by its
/// path, only cards, proofs and the page, made from the job.
///
/// A value: what it answers with lives in the state, the cards and the watcher it holds.
struct ServeRoutes {
  let state: ServeState
  let cards: CardDrawing
  let watcher: ServeWatcher
  let address: ServeAddress
  let token: String

  /// The largest request body read (a heart's is a few dozen bytes).
  static let bodyLimit = 4096

  /// Before a request's body is read: not for this server's address (DNS rebinding), a
  /// subresource of another site's page, or too large to read.
  func screen(_ head: HTTPServer.Head) -> (status: Int, text: String)? {
    MainLoop.assertOnLoop()
    guard let host = head.header("Host"), address.allows(host) else {
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

  func handle(_ exchange: Exchange) {
    MainLoop.assertOnLoop()
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
        body: Array(ServePage.html(title: state.snapshot.job.title)),
        headers: [("Content-Security-Policy", ServePage.contentSecurityPolicy)])
    case "/favicon.ico":
      // Asked for by every browser; the page has none.
      exchange.respond(204, type: "image/x-icon", body: [])
    case "/api/state":
      exchange.respond(200, type: "application/json", body: state.stateJSON())
    case "/events":
      state.listen(exchange)
    default:
      drawn(exchange, path: path)
    }
  }

  /// A card, a Share PNG or a family's proof pages.
  private func drawn(_ exchange: Exchange, path: String) {
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

  static func slug(_ path: String, prefix: String, suffix: String) -> String? {
    guard path.hasPrefix(prefix), path.hasSuffix(suffix),
      path.count > prefix.count + suffix.count
    else { return nil }
    let slug = path.dropFirst(prefix.count).dropLast(suffix.count)
    return slug.contains("/") ? nil : String(slug)
  }

  private func origin(_ query: [String: String]) -> CardWorkers.Origin? {
    guard let client = query["client"], let seq = query["seq"].flatMap({ Int($0) }),
      (1...40).contains(client.count),
      client.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { return nil }
    return CardWorkers.Origin(client: client, seq: seq)
  }

  private func card(_ exchange: Exchange, slug: String, share: Bool) {
    let snapshot = state.snapshot
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
    let partners = snapshot.partners[card.specimen.family.name] ?? []
    cards.produce(
      exchange, key: card.key, type: "image/png", headers: headers,
      origin: origin(exchange.query)
    ) { path in .specimen(card.specimen(partners: partners), path: path) }
  }

  private func proofs(_ exchange: Exchange, slug: String) {
    let snapshot = state.snapshot
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
    cards.produce(
      exchange, key: "\(slug)\u{1F}\(version)\u{1F}proofs\u{1F}\(snapshot.jobHash)",
      type: "application/pdf",
      headers: [("Content-Disposition", "inline; filename=\"\(slug)-proofs.pdf\"")], origin: nil
    ) { path in .catalogue(input, path: path.replacingOccurrences(of: ".png", with: ".pdf")) }
  }

  private func heart(_ exchange: Exchange) {
    guard let given = exchange.header("X-Fonti-Token"), Self.same(given, token) else {
      exchange.respond(403, text: "a change needs the token of the address serve printed")
      return
    }
    let body = exchange.body
    guard body.count <= Self.bodyLimit else {
      exchange.respond(413, text: "request too large")
      return
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let name = object["family"] as? String, let saved = object["saved"] as? Bool
    else {
      exchange.respond(400, text: "expected {\"family\": NAME, \"saved\": true|false}")
      return
    }
    let snapshot = state.snapshot
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
        try store.add(families: [family], specimen: snapshot.writtenSpecimen(of: family))
      } else {
        try store.remove([family.name])
      }
    } catch {
      exchange.respond(409, text: Sanitize.terminal(error.description))
      return
    }
    let list = state.savedList()
    watcher.watch(snapshot)
    exchange.respond(200, type: "application/json", body: JSON.encode(["saved": list.entries]))
    state.tellSaved(list)
  }

  /// Compares in time that does not depend on where they differ (a token).
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }
}
