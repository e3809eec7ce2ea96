import FontiCore
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The live progress line (issue 13, item 12): on a terminal of any width it never reaches the
/// last column (a wrapped line cannot be rewritten in place and leaves debris).
@Suite(.serialized) struct ProgressLineTests {
  static let job = """
    version: 1
    families: { exclude: [Noto Sans Bengali] }
    pairings:
      extra:
        - { heading: Noto Sans Hebrew, body: Cantarell }
        - { heading: D050000L, body: DejaVu Serif }
    png: { edge: 256 }
    catalogues: [{ file: catalogue.pdf }]

    """

  /// Runs `run --force` with stderr on a pseudo-terminal `columns` wide; returns what the
  /// terminal received.
  func runOnTerminal(_ box: CLISandbox, columns: UInt16) throws -> (status: Int32, screen: String) {
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
    process.arguments = ["run", "--force", "-j", "2"]
    // COLUMNS says something else: the terminal's own size wins.
    process.environment = box.environment.merging(["COLUMNS": "200"]) { $1 }
    process.currentDirectoryURL = URL(fileURLWithPath: box.work)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    // Read the terminal while the tool writes, so it never blocks on a full buffer.
    let screen = Screen()
    let reader = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        screen.append(buffer[0..<n])
      }
      screen.close()
    }
    reader.start()
    try process.run()
    process.waitUntilExit()
    close(slave)
    screen.waitUntilClosed()
    return (process.terminationStatus, screen.text)
  }

  /// What the terminal received, filled by the reading thread.
  final class Screen: @unchecked Sendable {
    private let lock = NSCondition()
    private var bytes: [UInt8] = []
    private var closed = false

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
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  @Test(arguments: [UInt16(80), 40, 24])
  func theLineNeverReachesTheLastColumn(_ columns: UInt16) throws {
    let box = try CLISandbox("fonti-progress")
    try box.write("specimens.yaml", Self.job)
    let (status, screen) = try runOnTerminal(box, columns: columns)
    #expect(status == 0, "\(screen)")
    let progress = screen.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
      .map(String.init).filter { $0.hasPrefix("[") }
    #expect(!progress.isEmpty, "no progress line on the terminal:\n\(screen)")
    for line in progress {
      #expect(
        TerminalText.width(line) < Int(columns), "\(columns) columns: '\(line)' is too wide")
    }
  }
}
