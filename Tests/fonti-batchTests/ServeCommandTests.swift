import FontiModel
import FontiServe
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `serve`: the job's families live over HTTP, drawn as `render` draws them, safe by default,
/// following the job and font files as they change.
@Suite struct ServeCommandTests {
  static let job = """
    version: 1
    output: out
    fonts: [myfonts/]
    families: { include: ["DejaVu Serif", "Cantarell", "Answer Serif"] }
    png: { scale: 2 }
    """

  static var answerFonts: String { Repository.fixtures + "/AnswerFonts" }

  /// A sandbox with the job above and one custom font (the old Answer Serif, which lacks ß).
  func sandbox() throws -> CLISandbox {
    let box = try CLISandbox("fonti-serve")
    try box.write("job.yaml", Self.job)
    let old = try Data(
      contentsOf: URL(fileURLWithPath: Self.answerFonts + "/AnswerSerif-A-old.ttf"))
    try box.write("myfonts/Answer.ttf", old)
    box.environment["TMPDIR"] = box.root + "/tmp"
    try FileManager.default.createDirectory(
      atPath: box.root + "/tmp", withIntermediateDirectories: true)
    return box
  }

  func state(_ server: ServeProcess) throws -> [String: Any] {
    let answer = try server.request("/api/state")
    #expect(answer.status == 200)
    return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
  }

  func version(_ state: [String: Any], _ slug: String) -> String? {
    (state["families"] as? [[String: Any]])?.first { $0["slug"] as? String == slug }?["v"]
      as? String
  }

  @Test func aCardIsThePNGRenderWritesAndShareUsesTheJobsScale() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let card = try server.request("/card/dejavu-serif.png?text=Hamburg%20fonts&size=60&bold=1")
    #expect(card.status == 200, "\(card.text)")
    #expect(card.headers["content-type"] == "image/png")
    let rendered = try box.run([
      "render", "DejaVu Serif", "--text", "Hamburg fonts", "--size", "60", "--bold", "-o",
      "r.png",
    ])
    #expect(rendered.status == 0, "\(rendered)")
    #expect(card.body == box.read("r.png"), "the served card is not the PNG render writes")
    // The same card again comes from the cache, byte for byte.
    #expect(
      try server.request("/card/dejavu-serif.png?text=Hamburg%20fonts&size=60&bold=1").body
        == card.body)

    let share = try server.request("/share/dejavu-serif.png?text=Hamburg%20fonts&size=60&bold=1")
    #expect(share.status == 200)
    #expect(share.headers["content-disposition"] == "attachment; filename=\"dejavu-serif.png\"")
    let big = try box.run([
      "render", "DejaVu Serif", "--text", "Hamburg fonts", "--size", "60", "--bold", "--scale",
      "2", "-o", "r2.png",
    ])
    #expect(big.status == 0)
    #expect(share.body == box.read("r2.png"), "Share is not render at the job's png.scale")

    let stopped = try server.interrupt()
    #expect(stopped.status == 130, "\(stopped)")
    #expect(box.list(box.root + "/tmp").isEmpty, "serve left files behind")
  }

  /// The grid asks for its cards at the edge it shows them: such a card is exactly what
  /// `render --edge` writes, and an edge outside `render`'s range is refused as it is there.
  @Test func aCardAtAnEdgeIsThePNGRenderWritesAtThatEdge() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let card = try server.request("/card/dejavu-serif.png?text=Hamburg&edge=288&scale=2")
    #expect(card.status == 200, "\(card.text)")
    let rendered = try box.run([
      "render", "DejaVu Serif", "--text", "Hamburg", "--edge", "288", "--scale", "2", "-o",
      "r.png",
    ])
    #expect(rendered.status == 0, "\(rendered)")
    #expect(rendered.stdout.contains("(576×576)"), "\(rendered.stdout)")
    #expect(card.body == box.read("r.png"), "the served card is not the PNG render --edge writes")
    #expect(try pngSize(card.body) == (576, 576))
    // A grid zoomed out to see every family shows its cards at 64 px or so.
    let small = try server.request("/card/dejavu-serif.png?text=Hamburg&edge=64")
    #expect(small.status == 200, "\(small.text)")
    let smallRendered = try box.run([
      "render", "DejaVu Serif", "--text", "Hamburg", "--edge", "64", "-o", "s.png",
    ])
    #expect(smallRendered.status == 0, "\(smallRendered)")
    #expect(small.body == box.read("s.png"), "the 64 px card is not the PNG render writes")
    #expect(try pngSize(small.body) == (64, 64))
    for bad in ["edge=63", "edge=300.5", "edge=4096&scale=3", "edge=x"] {
      let refused = try server.request("/card/dejavu-serif.png?text=Hamburg&" + bad)
      #expect(refused.status == 400, "\(bad): \(refused.status) \(refused.text)")
    }
    let tooBig = try box.run(["render", "DejaVu Serif", "--edge", "4096", "--scale", "3"])
    #expect(tooBig.status == 2)
    #expect(tooBig.stderr.contains("--edge × --scale is 4096 × 3 = 12,288 px"), "\(tooBig)")
    _ = try server.interrupt()
  }

  /// The family view's face picker asks for a card in a face by name: the PNG `render --face`
  /// writes.
  @Test func aCardInAFaceIsThePNGRenderWritesInIt() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let card = try server.request("/card/dejavu-serif.png?text=Hamburg&edge=256&face=Bold%20Italic")
    #expect(card.status == 200, "\(card.text)")
    let rendered = try box.run([
      "render", "DejaVu Serif", "--text", "Hamburg", "--edge", "256", "--face", "Bold Italic",
      "-o", "f.png",
    ])
    #expect(rendered.status == 0, "\(rendered)")
    #expect(card.body == box.read("f.png"), "the card in a face is not render --face's PNG")
    let plain = try server.request("/card/dejavu-serif.png?text=Hamburg&edge=256")
    #expect(plain.status == 200 && plain.body != card.body, "the face drew the regular")
    _ = try server.interrupt()
  }

  /// The width and height an IHDR gives.
  func pngSize(_ data: Data) throws -> (Int, Int) {
    let bytes = [UInt8](data)
    try #require(bytes.count > 24)
    let read = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (read(16), read(20))
  }

  /// A font that crashes its worker costs its card (drawn once more, then answered 500 with
  /// the crash named), never the server: the next card comes from a fresh worker, whole.
  @Test func aWorkerThatCrashesCostsOnlyItsCard() throws {
    let box = try sandbox()
    box.environment["FONTI_WORKER_CRASH_ON"] = "Cantarell"
    let server = try ServeProcess(box)
    let crashed = try server.request("/card/cantarell.png?text=Crash")
    #expect(crashed.status == 500)
    #expect(crashed.text == "worker process crashed (SIGABRT) while drawing 'Cantarell'\n")
    let card = try server.request("/card/dejavu-serif.png?text=After")
    #expect(card.status == 200, "\(card.text)")
    let rendered = try box.run(["render", "DejaVu Serif", "--text", "After", "-o", "r.png"])
    #expect(rendered.status == 0, "\(rendered)")
    #expect(card.body == box.read("r.png"), "the card after a crash is not the PNG render writes")
    let stopped = try server.interrupt()
    #expect(stopped.status == 130, "\(stopped)")
    #expect(box.list(box.root + "/tmp").isEmpty, "serve left files behind")
  }

  /// A font that makes its worker hang costs its card once the bound has passed (500, the
  /// time-out named), never the server.
  @Test func aWorkerThatHangsIsStoppedAtTheBound() throws {
    let box = try sandbox()
    box.environment["FONTI_WORKER_HANG_ON"] = "Cantarell"
    box.environment["FONTI_ITEM_TIMEOUT"] = "1"
    let server = try ServeProcess(box)
    let hung = try server.request("/card/cantarell.png?text=Hang")
    #expect(hung.status == 500)
    #expect(hung.text == "timed out after 1 s rendering 'Cantarell'\n")
    let card = try server.request("/card/dejavu-serif.png?text=After")
    #expect(card.status == 200, "\(card.text)")
    let stopped = try server.interrupt()
    #expect(stopped.status == 130, "\(stopped)")
    #expect(box.list(box.root + "/tmp").isEmpty, "serve left files behind")
  }

  /// One job, three views of its warnings: `run --json`, the gallery and `serve` mark the same
  /// families ⚠ (what fails `--strict`) and count the same warnings and notes; a family shown
  /// in its own script is a note, never ⚠.
  @Test func theGalleryServeAndJSONAgreeOnWarnings() throws {
    let box = try sandbox()
    try box.write(
      "job.yaml",
      Self.job.replacingOccurrences(
        of: "png: { scale: 2 }",
        with: """
          png: { edge: 256 }
          defaults: { text: "Sphinx of black quartz 東" }
          families: { include: ["DejaVu Serif", "Cantarell", "Answer Serif", "Noto Sans Hebrew"] }
          catalogues: []
          pairings: { curated: false }
          """
      ).replacingOccurrences(
        of: "families: { include: [\"DejaVu Serif\", \"Cantarell\", \"Answer Serif\"] }\n",
        with: ""))
    let run = try box.run(["run", "--json", "job.yaml"])
    #expect(run.status == 0, "\(run)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let counts = try #require(summary["counts"] as? [String: Any], "\(summary)")

    // The gallery: each card's flags (`w`: ⚠) and its name.
    let page = String(decoding: try #require(box.read("out/index.html")), as: UTF8.self)
    var galleryWarned: Set<String> = []
    for card in page.components(separatedBy: "<li class=\"card\"").dropFirst() {
      guard card.hasPrefix(" data-f=\""), card.prefix(while: { $0 != ">" }).contains("w"),
        let name = card.components(separatedBy: "<h2").dropFirst().first?
          .components(separatedBy: "</a>").first?.components(separatedBy: ">").last
      else { continue }
      galleryWarned.insert(name)
    }
    #expect(page.components(separatedBy: "class=\"tag warn\"").count - 1 == galleryWarned.count)

    let server = try ServeProcess(box)
    let state = try state(server)
    let families = try #require(state["families"] as? [[String: Any]])
    let serveWarned = Set(
      families.filter { !(($0["warnings"] as? [String]) ?? []).isEmpty }.compactMap {
        $0["name"] as? String
      })
    let serveNoted = Set(
      families.filter { !(($0["notes"] as? [String]) ?? []).isEmpty }.compactMap {
        $0["name"] as? String
      })
    #expect(!galleryWarned.isEmpty)
    #expect(galleryWarned == serveWarned, "gallery \(galleryWarned), serve \(serveWarned)")
    #expect(serveNoted.contains("Noto Sans Hebrew") && !serveWarned.contains("Noto Sans Hebrew"))
    let serveCounts = try #require(state["counts"] as? [String: Int])
    #expect(counts["warnings"] as? Int == serveCounts["warnings"], "\(counts) \(serveCounts)")
    #expect(counts["notes"] as? Int == serveCounts["notes"], "\(counts) \(serveCounts)")
  }

  /// A heart given on the page records the specimen a run wrote, as `run` records it: the
  /// Saved section and the gallery show it without waiting for the next run.
  @Test func aHeartRecordsTheSpecimenARunWrote() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q", "job.yaml"]).status == 0)
    let server = try ServeProcess(box)
    for family in ["Cantarell", "Answer Serif"] {
      let heart = Data(#"{"family": "\#(family)", "saved": true}"#.utf8)
      let saved = try server.request(
        "POST", "/api/saved", headers: ["X-Fonti-Token": server.token], body: heart)
      #expect(saved.status == 200, "\(saved.text)")
    }
    let data = try #require(box.read("out/favourites.json"))
    let manifest = try FavouritesManifest.decode(data, file: "favourites.json")
    #expect(manifest.entry(for: "Cantarell")?.specimen == "specimens/cantarell.png")
    #expect(manifest.entry(for: "Answer Serif")?.specimen == "specimens/answer-serif.png")
  }

  @Test func refusesForeignHostsChangesWithoutTheTokenAndBadRequests() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    // DNS rebinding: a name that resolves here is still not the served address.
    let foreign = try server.request("/api/state", host: "attacker.example:\(server.port)")
    #expect(foreign.status == 421)
    let page = try server.request("/?token=\(server.token)")
    #expect(page.status == 200)
    #expect(page.headers["content-security-policy"] == ServePage.contentSecurityPolicy)
    #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)

    let heart = Data(#"{"family": "Cantarell", "saved": true}"#.utf8)
    #expect(try server.request("POST", "/api/saved", body: heart).status == 403)
    #expect(
      try server.request(
        "POST", "/api/saved", headers: ["X-Fonti-Token": "0" + server.token],
        body: heart
      ).status == 403)
    #expect(try server.request("GET", "/api/saved").status == 405)
    #expect(box.read("out/favourites.json") == nil, "a refused heart changed the favourites")
    let saved = try server.request(
      "POST", "/api/saved", headers: ["X-Fonti-Token": server.token], body: heart)
    #expect(saved.status == 200, "\(saved.text)")
    let manifest = try #require(box.read("out/favourites.json"))
    #expect(String(decoding: manifest, as: UTF8.self).contains("\"Cantarell\""))
    // The same store as `saved`: the CLI sees the heart.
    let listed = try box.run(["saved", "--manifest", "out/favourites.json"])
    #expect(listed.stdout.contains("Cantarell"), "\(listed)")

    #expect(try server.request("/card/no-such-family.png").status == 404)
    #expect(try server.request("/card/../job.yaml").status == 404)
    #expect(try server.request("/job.yaml").status == 404)
    #expect(try server.request("/card/cantarell.png?size=400").status == 400)
    #expect(try server.request("/card/cantarell.png?var=wght%3Dheavy").status == 400)
    #expect(try server.request("POST", "/card/cantarell.png").status == 405)
  }

  /// A font rebuilt in place: the page hears of it on its event stream, the family's version
  /// changes and its card shows the new outlines (version 2 adds ß), the others stay.
  @Test func followsARebuiltFontFile() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let before = try state(server)
    let v1 = try #require(version(before, "answer-serif"))
    let cantarell = version(before, "cantarell")
    let old = try server.request("/card/answer-serif.png?text=Stra%C3%9Fe&v=\(v1)")
    #expect(old.status == 200)
    let events = try server.open("/events")
    defer { close(events) }
    _ = try server.waitFor("retry:", on: events)
    let new = try Data(
      contentsOf: URL(fileURLWithPath: Self.answerFonts + "/AnswerSerif-B-new.ttf"))
    try new.write(to: URL(fileURLWithPath: box.path("myfonts/Answer.ttf")))
    let heard = try server.waitFor("answer-serif", on: events)
    #expect(String(decoding: heard, as: UTF8.self).contains("event: state"))
    let after = try state(server)
    let v2 = try #require(version(after, "answer-serif"))
    #expect(v2 != v1)
    #expect(version(after, "cantarell") == cantarell, "an untouched family changed version")
    let redrawn = try server.request("/card/answer-serif.png?text=Stra%C3%9Fe&v=\(v2)")
    #expect(redrawn.status == 200)
    #expect(redrawn.body != old.body, "the card still shows the old font")
  }

  /// A job that stops validating: its located errors are in the state, the last good families
  /// stay served; fixed, the errors go.
  @Test func aBrokenJobShowsItsErrorsAndKeepsTheLastGoodState() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let events = try server.open("/events")
    defer { close(events) }
    var seen = try server.waitFor("retry:", on: events)
    try box.write("job.yaml", Self.job + "\nsizes: [12, \"big\"]\n")
    seen = try server.waitFor("\"errors\":1", on: events, after: seen)
    let broken = try state(server)
    let errors = try #require(broken["errors"] as? [[String: Any]])
    #expect(errors.count == 1)
    #expect(errors.first?["line"] as? Int == 6, "\(errors)")
    #expect((errors.first?["text"] as? String)?.contains("job.yaml:6:") == true, "\(errors)")
    #expect((broken["families"] as? [Any])?.count == 3)
    #expect(try server.request("/card/cantarell.png?text=Still").status == 200)
    try box.write("job.yaml", Self.job.replacingOccurrences(of: ", \"Answer Serif\"", with: ""))
    _ = try server.waitFor("\"errors\":0", on: events, after: seen)
    let fixed = try state(server)
    #expect((fixed["errors"] as? [Any])?.isEmpty == true)
    #expect((fixed["families"] as? [Any])?.count == 2)
    #expect(try server.request("/card/answer-serif.png").status == 404)
  }

  /// The state carries the limits a card is held to (the one table, `Limits`) and the
  /// registered names of the job's features (`FeatureNames`), which the page shows.
  @Test func theStateCarriesTheLimitsAndTheFeaturesNames() throws {
    let box = try sandbox()
    try box.write("job.yaml", Self.job + "\ndefaults: { features: [smcp, -liga, ss03, zzzz] }\n")
    let server = try ServeProcess(box)
    let state = try state(server)
    let limits = try #require(state["limits"] as? [String: Any])
    let size = try #require(limits["size"] as? [String: Double])
    #expect(size == ["min": Limits.sampleSize.lowerBound, "max": Limits.sampleSize.upperBound])
    let scale = try #require(limits["scale"] as? [String: Int])
    #expect(scale == ["min": Limits.scale.lowerBound, "max": Limits.scale.upperBound])
    #expect(limits["textLength"] as? Int == Limits.textLength)
    #expect(limits["textCodePoints"] as? Int == Limits.textCodePoints)
    #expect(limits["languageTagLength"] as? Int == Limits.languageTagLength)
    let names = try #require(state["featureNames"] as? [String: String])
    #expect(
      names == ["smcp": "Small Capitals", "liga": "Standard Ligatures", "ss03": "Stylistic Set 3"])
    // The same table holds a card's query.
    let big = try server.request("/card/cantarell.png?size=\(Limits.sampleSize.upperBound + 1)")
    #expect(big.status == 400)
    #expect(big.text == "size must be a number from 12 to 96\n", "\(big.text)")
  }

  /// A page's newer keystroke drops its older cards that no worker has started (answered 503),
  /// and its own card is drawn.
  @Test func aNewerKeystrokeDropsTheStaleCards() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let older = (0..<12).map { i in
      "/card/\(["dejavu-serif", "cantarell", "answer-serif"][i % 3]).png?text=Old\(i)&size=\(20 + i)&client=page1&seq=1"
    }
    let sockets = try older.map { try server.open($0) }
    usleep(30_000)
    let newest = try server.request("/card/cantarell.png?text=New&client=page1&seq=2")
    #expect(newest.status == 200)
    var statuses: [Int] = []
    for socket in sockets {
      let data = ServeProcess.readToEnd(socket)
      close(socket)
      statuses.append(try ServeProcess.parse(data).status)
    }
    #expect(statuses.contains(503), "no stale card was dropped: \(statuses)")
    #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
  }

  /// Open pages take turns: a page that asked for one card is not kept waiting behind another
  /// page's newer keystrokes.
  @Test func pagesTakeTurns() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    func burst(_ seq: Int) -> [String] {
      (0..<6).map { i in
        "/card/\(["dejavu-serif", "cantarell", "answer-serif"][i % 3]).png?text=A\(seq)x\(i)"
          + "&size=\(30 + i)&scale=3&client=pageA&seq=\(seq)"
      }
    }
    var sockets = try burst(1).map { try server.open($0) }
    usleep(20_000)
    let other = try server.open("/card/cantarell.png?text=B&size=70&client=pageB&seq=1")
    usleep(20_000)
    let second = try burst(2).map { try server.open($0) }
    sockets += second
    let finished = finishingOrder(sockets + [other])
    let place = try #require(finished.firstIndex(of: other))
    let laterOfA = finished[(place + 1)...].filter { second.contains($0) }.count
    #expect(
      laterOfA >= 3,
      "page B's one card waited behind page A's newer ones: \(place) of \(finished.count)")
  }

  /// The order in which the answers on `sockets` end (each read to its end, then closed); a
  /// guard of 60 s.
  func finishingOrder(_ sockets: [Int32]) -> [Int32] {
    var finished: [Int32] = []
    var open = sockets
    var buffer = [UInt8](repeating: 0, count: 65536)
    let end = Date().addingTimeInterval(60)
    while !open.isEmpty && Date() < end {
      var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&fds, nfds_t(fds.count), 1000) > 0 else { continue }
      for p in fds where p.revents != 0 {
        if read(p.fd, &buffer, buffer.count) <= 0 {
          finished.append(p.fd)
          open.removeAll { $0 == p.fd }
          close(p.fd)
        }
      }
    }
    return finished
  }

  /// A keystroke's cards are drawn in the order the page asked for them (the top of the screen
  /// first), not the last asked first.
  @Test func aKeystrokesCardsAreDrawnInTheOrderAsked() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    var sockets: [Int32] = []
    for i in 0..<8 {
      sockets.append(
        try server.open("/card/dejavu-serif.png?text=Top\(i)&scale=3&client=pageA&seq=1"))
      usleep(3_000)
    }
    let finished = finishingOrder(sockets)
    let last = try #require(finished.firstIndex(of: sockets[7]))
    #expect(last >= 5, "the card asked last was drawn \(last + 1)th of \(finished.count)")
  }

  /// Connections the clients close — cards a page aborted while they were drawn, kept-alive
  /// connections left idle — are closed here too: the server's descriptors do not grow.
  @Test func connectionsClientsCloseAreClosed() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let pid = server.running.process.processIdentifier
    // Its sockets (workers' pipes come and go with the workers).
    func descriptors() -> Int {
      let folder = "/proc/\(pid)/fd"
      return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0))?
          .hasPrefix("socket:") == true
      }.count
    }
    let before = descriptors()
    let aborted = try (0..<30).map { i in
      try server.open("/card/dejavu-serif.png?text=gone\(i)&size=\(20 + i)&scale=3")
    }
    usleep(100_000)
    for socket in aborted { close(socket) }
    for _ in 0..<20 {
      let socket = try server.open("/api/state")
      var buffer = [UInt8](repeating: 0, count: 65536)
      _ = read(socket, &buffer, buffer.count)
      close(socket)
    }
    var after = descriptors()
    for _ in 0..<100 where after > before {
      usleep(50_000)
      after = descriptors()
    }
    #expect(after <= before, "descriptors: \(before) before, \(after) after")
    #expect(try server.request("/api/state").status == 200)
  }

  /// What is not for this server is answered before its body is kept: a body too large, a
  /// subresource of another site's page (a navigation to the page is fine).
  @Test func largeBodiesAndOtherSitesAreTurnedAway() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let pid = server.running.process.processIdentifier
    func resident() -> Int {
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    let before = resident()
    let big = Data(count: 64 << 20)
    let answer = try server.request(
      "POST", "/api/saved", headers: ["X-Fonti-Token": server.token], body: big)
    #expect(answer.status == 413)
    #expect(
      resident() - before < 32 << 10, "the server kept the body: \(before) → \(resident()) KiB")
    let card = try server.request(
      "GET", "/card/cantarell.png",
      headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"])
    #expect(card.status == 403)
    let page = try server.request(
      "GET", "/?token=\(server.token)",
      headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"])
    #expect(page.status == 200)
    #expect(page.headers["cross-origin-resource-policy"] == "same-origin")
  }

  /// A heart from the command line beside the server reaches open pages, even when it makes
  /// the output folder.
  @Test func aFavouriteSavedBesideReachesOpenPages() throws {
    let box = try sandbox()
    let server = try ServeProcess(box)
    let events = try server.open("/events")
    defer { close(events) }
    let seen = try server.waitFor("retry:", on: events)
    let added = try box.run(["saved", "add", "Cantarell", "--manifest", "out/favourites.json"])
    #expect(added.status == 0, "\(added)")
    let heard = try server.waitFor("event: saved", on: events, after: seen)
    #expect(String(decoding: heard, as: UTF8.self).contains("\"family\":\"Cantarell\""))
    let state = try state(server)
    let saved = try #require(state["saved"] as? [[String: Any]])
    #expect(saved.first?["family"] as? String == "Cantarell")
  }

  /// Every address: a warning that the fonts are exposed; any IP address at the port is the
  /// served address, a name is still refused.
  @Test func listeningOnEveryAddressWarnsAndStillChecksTheHost() throws {
    let box = try sandbox()
    let server = try ServeProcess(box, arguments: ["job.yaml", "--host", "0.0.0.0"])
    #expect(try server.request("/api/state").status == 200)
    #expect(try server.request("/api/state", host: "localhost:\(server.port)").status == 200)
    #expect(try server.request("/api/state", host: "rebound.example:\(server.port)").status == 421)
    #expect(try server.request("/api/state", host: "127.0.0.1:\(server.port + 1)").status == 421)
    let stopped = try server.interrupt()
    #expect(stopped.stderr.contains("exposes the fonts"), "\(stopped.stderr)")
  }

  @Test func startsOnlyOnAValidJobAndSaysWhy() throws {
    let box = try sandbox()
    try box.write("job.yaml", "version: 1\nfamilies: { include: [\"Nope Sans\"] }\n")
    let result = try box.run(["serve", "--port", "0", "job.yaml"])
    #expect(result.status == 2, "\(result)")
    #expect(result.stderr.contains("job.yaml:2:"), "\(result.stderr)")
    let stdin = try box.run(["serve", "-"])
    #expect(stdin.status == 2)
    try box.write("job.yaml", Self.job)
    let host = try box.run(["serve", "--host", "not-an-address", "--port", "0", "job.yaml"])
    #expect(host.status == 2, "\(host)")
  }
}
