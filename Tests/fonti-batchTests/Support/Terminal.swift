import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension CLISandbox {
  /// Runs the tool with stderr on a pseudo-terminal `columns` wide (stdout to /dev/null, stdin
  /// from /dev/null); returns the exit status and what the terminal received.
  func runWithStderrOnTerminal(
    _ arguments: [String], columns: UInt16 = 80, environment extra: [String: String] = [:]
  ) throws -> (status: Int32, screen: String) {
    let pty = try PseudoTerminal.functions()
    let master = pty.openpt(O_RDWR | O_NOCTTY)
    guard master >= 0, pty.grantpt(master) == 0, pty.unlockpt(master) == 0 else {
      throw CLIError(description: "no pseudo-terminal available")
    }
    defer { close(master) }
    var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
      throw CLIError(description: "TIOCSWINSZ failed")
    }
    var name = [CChar](repeating: 0, count: 256)
    guard pty.ptsnameR(master, &name, name.count) == 0 else {
      throw CLIError(description: "ptsname_r failed")
    }
    let path = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let slave = open(path, O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw CLIError(description: "cannot open the pseudo-terminal") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Repository.binary)
    process.arguments = arguments
    process.environment = environment.merging(extra) { $1 }
    process.currentDirectoryURL = URL(fileURLWithPath: work)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    defer { close(slave) }
    // Read the terminal while the tool writes, so it never blocks on a full buffer, up to a
    // mark written after the tool has exited. (Closing the terminal instead could lose output
    // the kernel has not yet handed to the reader.)
    let end = "<<fonti-test-end>>"
    let screen = TerminalScreen(end: end)
    let reader = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !screen.ended {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        screen.append(buffer[0..<n])
      }
      screen.close()
    }
    reader.start()
    try process.run()
    process.waitUntilExit()
    _ = Array(end.utf8).withUnsafeBytes { Glibc.write(slave, $0.baseAddress, $0.count) }
    screen.waitUntilClosed()
    return (process.terminationStatus, screen.text)
  }
}

/// What the terminal received, filled by the reading thread.
final class TerminalScreen: @unchecked Sendable {
  private let lock = NSCondition()
  private var bytes: [UInt8] = []
  private var closed = false
  /// The mark that ends the reading; not part of `text`.
  let end: String

  init(end: String) { self.end = end }

  /// Whether the end mark has arrived.
  var ended: Bool {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: bytes, as: UTF8.self).contains(end)
  }

  func append(_ more: ArraySlice<UInt8>) {
    lock.lock()
    bytes += more
    lock.unlock()
  }
  func close() {
    lock.lock()
    closed = true
    lock.broadcast()
    lock.unlock()
  }
  func waitUntilClosed() {
    lock.lock()
    while !closed { lock.wait() }
    lock.unlock()
  }
  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: end, with: "")
  }
}
