import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where `serve` listens, and the names a request's `Host` may give it: the printed address or
/// `localhost`; listening on every address, also the machine's name and any IP address at the
/// port. A name that only resolves here (DNS rebinding) is refused.
struct ServeAddress: Sendable {
  let host: String
  let port: Int
  private let names: Set<String>
  private let anyAddress: Bool

  init(host: String, port: Int) {
    self.host = host
    self.port = port
    let shown = Self.shown(host)
    var names: Set<String>
    switch host {
    case "127.0.0.1", "::1":
      names = ["\(shown):\(port)", "localhost:\(port)"]
    case "0.0.0.0", "::":
      names = ["localhost:\(port)", "\(ProcessInfo.processInfo.hostName):\(port)"]
    default:
      names = ["\(shown):\(port)"]
    }
    if port == 80 { names.formUnion(names.map { String($0.dropLast(3)) }) }
    self.names = names
    anyAddress = host == "0.0.0.0" || host == "::"
  }

  /// An IPv6 address in brackets, as a URL and a `Host` header write it.
  private static func shown(_ host: String) -> String {
    host.contains(":") ? "[\(host)]" : host
  }

  /// The address to open, with the token; listening on every address, the loopback one.
  func url(token: String) -> String {
    let shown = anyAddress ? "127.0.0.1" : Self.shown(host)
    return "http://\(shown):\(port)/?token=\(token)"
  }

  /// Whether `host` (a request's `Host` header) names this server.
  func allows(_ host: String) -> Bool {
    let host = host.lowercased()
    if names.contains(host) { return true }
    guard anyAddress, host.hasSuffix(":\(port)") else { return false }
    var name = String(host.dropLast(":\(port)".count))
    if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
  }
}
