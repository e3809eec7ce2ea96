internal import CGio
internal import CSoup
import Foundation

/// libsoup 3's HTTP server on GLib's default main context (libsoup is loaded by `CSoup` when a
/// server is first made): requests are parsed, answered and streamed by libsoup; this wraps
/// them as `Exchange`s for `ServeRoutes`. Everything here runs on
/// the thread that runs `MainLoop.run` (confined, hence `@unchecked Sendable`).
final class HTTPServer: @unchecked Sendable {
  private let server: OpaquePointer
  private let screen: (Head) -> (status: Int, text: String)?
  private let handler: (Exchange) -> Void

  /// A request's method, path and headers, as read before its body.
  struct Head {
    let method: String
    let path: String
    let header: (String) -> String?
  }

  /// `screen` sees each request before its body is read: an answer it gives is the request's
  /// (a request too large, or not meant for this server), and its body is dropped as libsoup
  /// reads it, never kept. The others go to `handler` whole.
  init(
    screen: @escaping (Head) -> (status: Int, text: String)?,
    handler: @escaping (Exchange) -> Void
  ) throws(ServeError) {
    if let failure = CSoup_load_failure() {
      throw ServeError(
        "serve needs libsoup 3 (Debian: libsoup-3.0-0): \(String(cString: failure))")
    }
    guard let server = CSoup_server_new() else { throw ServeError("libsoup: cannot make a server") }
    self.server = server
    self.screen = screen
    self.handler = handler
    let early: CSoup_handler = { _, message, path, _, data in
      guard let message, let data else { return }
      let me = Unmanaged<HTTPServer>.fromOpaque(data).takeUnretainedValue()
      let head = Head(
        method: CSoup_method(message).map { String(cString: $0) } ?? "",
        path: path.map { String(cString: $0) } ?? "/",
        header: { name in CSoup_request_header(message, name).map { String(cString: $0) } })
      let answer = me.screen(head)
      // libsoup reads a body even when the answer is given here: only a request that may
      // have one (a POST that passed) keeps what it reads.
      if answer != nil || head.method != "POST" { CSoup_discard_body(message) }
      guard let (status, text) = answer else { return }
      Exchange.answer(message, status, text: text)
    }
    CSoup_server_add_early_handler(server, early, Unmanaged.passUnretained(self).toOpaque())
    let callback: CSoup_handler = { _, message, path, query, data in
      guard let message, let data else { return }
      let me = Unmanaged<HTTPServer>.fromOpaque(data).takeUnretainedValue()
      let exchange = Exchange(
        message: message, path: path.map { String(cString: $0) } ?? "/",
        query: HTTPServer.decode(query))
      me.handler(exchange)
    }
    CSoup_server_add_handler(server, callback, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    CSoup_server_disconnect(server)
    g_object_unref(UnsafeMutableRawPointer(server))
  }

  /// Listens on `host` (an IP address) at `port` (0: any free port); returns the port. The
  /// socket is made here for its backlog: GIO's default of 10 drops the SYNs of a page's burst
  /// of card requests beyond it, which then wait a second for their retransmission.
  func listen(host: String, port: Int) throws(ServeError) -> Int {
    guard let address = g_inet_socket_address_new_from_string(host, guint(port)) else {
      throw ServeError("'\(host)' is not an IP address to listen on")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(address)) }
    var error: UnsafeMutablePointer<GError>?
    func failed() -> ServeError {
      let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      if error != nil { g_error_free(error) }
      return ServeError("cannot listen on \(host):\(port): \(reason)")
    }
    guard
      let socket = g_socket_new(
        g_socket_address_get_family(address), G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
        &error)
    else { throw failed() }
    defer { g_object_unref(UnsafeMutableRawPointer(socket)) }
    g_socket_set_listen_backlog(socket, 512)
    g_socket_set_blocking(socket, 0)
    guard g_socket_bind(socket, address, 1, &error) != 0, g_socket_listen(socket, &error) != 0,
      CSoup_server_listen_socket(server, socket, &error) != 0
    else { throw failed() }
    guard let local = g_socket_get_local_address(socket, &error) else { throw failed() }
    defer { g_object_unref(UnsafeMutableRawPointer(local)) }
    return Int(
      g_inet_socket_address_get_port(
        UnsafeMutableRawPointer(local).assumingMemoryBound(to: GInetSocketAddress.self)))
  }

  /// The decoded query of a request (libsoup decodes `application/x-www-form-urlencoded`).
  static func decode(_ table: OpaquePointer?) -> [String: String] {
    guard let table else { return [:] }
    var result: [String: String] = [:]
    var iterator = GHashTableIter()
    g_hash_table_iter_init(&iterator, table)
    var key: gpointer?
    var value: gpointer?
    while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
      guard let key, let value else { continue }
      result[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(
        cString: value.assumingMemoryBound(to: CChar.self))
    }
    return result
  }
}

/// One request and its answer. Answer at once with `respond`, or later: `defer()` keeps the
/// request open (libsoup waits) until `respond`, or until the client goes (`isOpen` false,
/// `onClose` called). A stream (`startStream`) sends chunks until the client goes.
final class Exchange: @unchecked Sendable {
  private let message: OpaquePointer
  let method: String
  let path: String
  let query: [String: String]
  private(set) var isOpen = true
  private var paused = false
  private var answered = false
  /// While the answer is deferred: a watch on the connection for the client going away.
  private var watch: UInt32 = 0
  /// Called once, when the client has gone or the answer went out.
  var onClose: (() -> Void)?

  fileprivate init(message: OpaquePointer, path: String, query: [String: String]) {
    self.message = message
    self.path = path
    self.query = query
    method = CSoup_method(message).map { String(cString: $0) } ?? ""
    g_object_ref(UnsafeMutableRawPointer(message))
    let retained = Unmanaged.passRetained(self).toOpaque()
    // The signal holds the exchange until the message is finished (then released once).
    _ = CGio_on_finished(
      UnsafeMutableRawPointer(message),
      { _, data in
        guard let data else { return }
        let me = Unmanaged<Exchange>.fromOpaque(data).takeRetainedValue()
        me.finish()
      }, retained)
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(message))
  }

  private func finish() {
    stopWatching()
    guard isOpen else { return }
    isOpen = false
    let close = onClose
    onClose = nil
    close?()
  }

  func header(_ name: String) -> String? {
    CSoup_request_header(message, name).map { String(cString: $0) }
  }

  /// The request's body, whole (libsoup collects it before calling the handler).
  var body: [UInt8] {
    var length: gsize = 0
    guard let data = CSoup_request_body(message, &length) else { return [] }
    return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
      Array(UnsafeBufferPointer(start: $0, count: Int(length)))
    }
  }

  /// Keeps the request open after the handler returns; answer it later with `respond`. libsoup
  /// 3.2 does not notice a client that goes meanwhile (a page that aborts a card it no longer
  /// needs), so the connection is watched here: a client gone is told to `onClose` at once (its
  /// drawing is dropped), and answered, which lets libsoup find the connection closed and free
  /// it.
  func deferAnswer() {
    guard !paused else { return }
    paused = true
    CSoup_pause(message)
    let fd = CSoup_socket_fd(message)
    guard fd >= 0, watch == 0 else { return }
    watch = MainLoop.watch(fd) { [weak self] in
      guard let self else { return false }
      var byte: UInt8 = 0
      let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
      if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return true }
      // More of a request (a client that pipelines) is not a departure: stop looking.
      watch = 0
      if n <= 0 { abandoned() }
      return false
    }
  }

  private func stopWatching() {
    MainLoop.remove(watch)
    watch = 0
  }

  /// The client went before its answer, or left a stream.
  private func abandoned() {
    guard isOpen else { return }
    let close = onClose
    onClose = nil
    close?()
    // Something to write makes libsoup find the connection closed, and free it.
    if answered {
      send(": gone\n\n")
    } else {
      respond(503, text: "the client has gone")
    }
  }

  /// An answer given before the body is read (`HTTPServer`'s screen).
  fileprivate static func answer(_ message: OpaquePointer, _ status: Int, text: String) {
    write(message, status, type: textType, body: Array((text + "\n").utf8), headers: [])
  }

  /// Status, headers (`commonHeaders` first) and the whole body of an answer.
  private static func write(
    _ message: OpaquePointer, _ status: Int, type: String, body: [UInt8],
    headers: [(String, String)]
  ) {
    // libsoup knows the phrases of the codes it uses itself; not 421's.
    CSoup_set_status(message, guint(status), status == 421 ? "Misdirected Request" : nil)
    for (name, value) in commonHeaders + headers { CSoup_set_header(message, name, value) }
    body.withUnsafeBytes { CSoup_set_response(message, type, $0.baseAddress, gsize($0.count)) }
  }

  private static let textType = "text/plain; charset=utf-8"

  func respond(
    _ status: Int, type: String, body: [UInt8], headers: [(String, String)] = []
  ) {
    guard isOpen, !answered else { return }
    answered = true
    stopWatching()
    Exchange.write(message, status, type: type, body: body, headers: headers)
    if paused {
      paused = false
      CSoup_unpause(message)
    }
  }

  func respond(_ status: Int, text: String, headers: [(String, String)] = []) {
    respond(status, type: Exchange.textType, body: Array((text + "\n").utf8), headers: headers)
  }

  /// Sent with every answer. `Connection: close`: libsoup 3.2 leaks a kept-alive connection that the client closes
  /// while it is idle (fixed in 3.3); one connection a request costs little on loopback. No other
  /// origin may use what is served (`Cross-Origin-Resource-Policy`).
  static let commonHeaders: [(String, String)] = [
    ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"), ("Connection", "close"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
  ]

  /// Starts a chunked answer that stays open: `send` adds to it.
  func startStream(type: String, headers: [(String, String)] = []) {
    guard isOpen, !answered else { return }
    answered = true
    CSoup_set_status(message, 200, nil)
    CSoup_set_chunked(message)
    CSoup_set_header(message, "Content-Type", type)
    for (name, value) in Exchange.commonHeaders + headers {
      CSoup_set_header(message, name, value)
    }
    deferAnswer()
  }

  /// Adds `text` to a stream and lets libsoup write it.
  func send(_ text: String) {
    guard isOpen, answered else { return }
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { CSoup_append(message, $0.baseAddress, gsize($0.count)) }
    // Out of chunks, libsoup pauses the message again by itself.
    CSoup_unpause(message)
  }
}

/// What stops `serve` from starting: printed as `fonti-batch: error: …`, exit 2.
public struct ServeError: Error, CustomStringConvertible, Sendable {
  public var description: String
  init(_ description: String) { self.description = description }
}
