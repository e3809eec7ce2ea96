import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `fonti-batch serve` started in a sandbox, on a free port, and a plain HTTP/1.1 client of it
/// over a socket (so a test can send any `Host` header). Waits are guards with generous limits,
/// never measurements. The server is stopped with SIGINT when released.
final class ServeProcess {
  let running: RunningCLI
  let port: Int
  let token: String
  /// The address printed, token included.
  let address: String

  init(_ box: CLISandbox, arguments: [String] = ["job.yaml"]) throws {
    running = try box.start(["serve", "--port", "0"] + arguments)
    var line: String?
    for _ in 0..<400 {
      let out = (try? String(contentsOfFile: running.stdoutPath, encoding: .utf8)) ?? ""
      if let found = out.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }) {
        line = String(found)
        break
      }
      if !running.process.isRunning { break }
      usleep(50_000)
    }
    guard let line,
      let url = line.split(separator: " ").dropFirst().first.map(String.init),
      let components = URLComponents(string: url), let port = components.port,
      let token = components.queryItems?.first(where: { $0.name == "token" })?.value
    else {
      let err = (try? String(contentsOfFile: running.stderrPath, encoding: .utf8)) ?? ""
      running.process.terminate()
      throw CLIError(description: "serve did not start: \(err)")
    }
    self.port = port
    self.token = token
    address = url
  }

  deinit {
    if running.process.isRunning {
      kill(running.process.processIdentifier, SIGINT)
      running.process.waitUntilExit()
    }
  }

  /// Sends SIGINT and waits for the exit.
  func interrupt() throws -> CLIResult {
    kill(running.process.processIdentifier, SIGINT)
    return try running.finish()
  }

  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// A GET of `path`.
  func request(_ path: String, host: String? = nil) throws -> Response {
    try request("GET", path, host: host)
  }

  /// One request on a fresh connection (`Connection: close`); the whole answer.
  func request(
    _ method: String, _ path: String, host: String? = nil,
    headers: [String: String] = [:], body: Data = Data()
  ) throws -> Response {
    let socket = try connect()
    defer { close(socket) }
    try send(socket, method, path, host: host, headers: headers, body: body)
    return try Self.parse(Self.readToEnd(socket))
  }

  /// Everything `socket` sends until it closes (the server closes every answer's connection).
  static func readToEnd(_ socket: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(socket, &buffer, buffer.count)
      if n <= 0 { break }
      data.append(contentsOf: buffer[..<n])
    }
    return data
  }

  /// Opens `path` (an event stream) and returns the socket; read it with `waitFor`.
  func open(_ path: String) throws -> Int32 {
    let socket = try connect()
    try send(socket, "GET", path, host: nil, headers: [:], body: Data())
    return socket
  }

  /// Reads `socket` until what it has sent contains `text`, for at most `seconds`; returns all
  /// that was read.
  func waitFor(_ text: String, on socket: Int32, seconds: Double = 30, after: Data = Data())
    throws -> Data
  {
    var data = after
    let end = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !String(decoding: data, as: UTF8.self).contains(text) {
      guard Date() < end else {
        throw CLIError(
          description:
            "no '\(text)' after \(seconds) s; got: \(String(decoding: data, as: UTF8.self))")
      }
      var p = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      if poll(&p, 1, 200) > 0 {
        let n = read(socket, &buffer, buffer.count)
        if n <= 0 { throw CLIError(description: "the stream closed") }
        data.append(contentsOf: buffer[..<n])
      }
    }
    return data
  }

  private func connect() throws -> Int32 {
    let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let ok = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard ok == 0 else {
      close(s)
      throw CLIError(description: "cannot connect to port \(port)")
    }
    return s
  }

  private func send(
    _ socket: Int32, _ method: String, _ path: String, host: String?,
    headers: [String: String], body: Data
  ) throws {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
    head += "Connection: close\r\nContent-Length: \(body.count)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    let bytes = Array((head + "\r\n").utf8) + Array(body)
    guard bytes.withUnsafeBytes({ write(socket, $0.baseAddress, $0.count) }) == bytes.count else {
      throw CLIError(description: "cannot send the request")
    }
  }

  /// Status, headers and body of an answer with a Content-Length (what the server sends but
  /// for event streams).
  static func parse(_ data: Data) throws -> Response {
    let bytes = [UInt8](data)
    guard
      let end = (0..<max(0, bytes.count - 3)).first(where: {
        bytes[$0..<$0 + 4] == [13, 10, 13, 10]
      })
    else { throw CLIError(description: "no answer: \(String(decoding: bytes, as: UTF8.self))") }
    let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return Response(status: status, headers: headers, body: Data(bytes[(end + 4)...]))
  }
}
