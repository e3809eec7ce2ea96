import FontiEngine
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Paths of the repository, found from this file (Tests/fonti-batchTests/Support/CLI.swift).
enum Repository {
  static let root: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The debug build of the tool; `swift test` builds it with the tests. `FONTI_BATCH_BINARY`
  /// names another build (e.g. one with AddressSanitizer, in its own scratch path).
  /// Otherwise the binary beside the test bundle (the same build, whatever the scratch path).
  static var binary: String {
    if let path = ProcessInfo.processInfo.environment["FONTI_BATCH_BINARY"] { return path }
    let besideBundle = [
      Bundle.main.bundleURL.appendingPathComponent("fonti-batch").path,
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("fonti-batch").path,
    ]
    return besideBundle.first { FileManager.default.isExecutableFile(atPath: $0) }
      ?? root + "/.build/debug/fonti-batch"
  }
  static var fixtures: String { root + "/Tests/Fixtures" }
  /// The test fonts: Cantarell, D050000L, DejaVu Serif, Noto Sans Bengali, Noto Sans Hebrew.
  static var fonts: String { fixtures + "/Fonts" }
  /// A fontconfig configuration with only the test fonts, so results never depend on the machine.
  static var fontsConf: String { fixtures + "/fonts.conf" }
  /// The test fonts and the few the example job (`init`) needs that they lack: DejaVu Sans.
  static var exampleFontsConf: String { fixtures + "/example.conf" }

  /// A fixture font's bytes.
  static func font(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: fonts + "/" + name))
  }
}

/// What one run of the tool did.
struct CLIResult: CustomStringConvertible {
  var status: Int32
  var stdout: String
  var stderr: String
  /// The process was killed by a signal (`status` is then the signal's number), e.g. a trap.
  var signalled = false

  var description: String {
    "exit \(signalled ? "by signal " : "")\(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
  }
}

/// Why a test could not run the tool.
struct CLIError: Error, CustomStringConvertible {
  var description: String
}

/// A private world for running the tool, the one harness of every test that runs the binary:
/// a fresh temporary folder holding the working folder, `HOME` and the XDG folders (so the font
/// library, fontconfig's cache and any configuration are the sandbox's own), with fontconfig
/// limited to the test fonts and no colour. Nothing of the machine's user, fonts or caches
/// reaches the tool. Removed when released.
final class CLISandbox: @unchecked Sendable {
  /// The temporary folder; everything below is inside it.
  let root: String
  /// The tool's working folder.
  let work: String
  /// Variables every run gets; tests may add to them.
  var environment: [String: String]

  /// `fonts` is the fontconfig configuration: the test fonts (`Repository.fontsConf`) unless
  /// a test needs another set.
  init(_ label: String = "fonti-cli", fonts: String = Repository.fontsConf) throws {
    root = FileManager.default.temporaryDirectory.path + "/\(label)-\(UUID().uuidString)"
    work = root + "/work"
    for folder in [work, root + "/home", root + "/data", root + "/cache", root + "/config"] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    environment = [
      "PATH": "/usr/bin:/bin",
      "HOME": root + "/home",
      "XDG_DATA_HOME": root + "/data",
      "XDG_CACHE_HOME": root + "/cache",
      "XDG_CONFIG_HOME": root + "/config",
      "FONTCONFIG_FILE": fonts,
      "NO_COLOR": "1",
      "LANG": "C.UTF-8",
    ]
    // A sanitizer build of the tool reads its options from the environment.
    for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"] {
      if let value = ProcessInfo.processInfo.environment[name] { environment[name] = value }
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: root) }

  /// The tool as a worker of `WorkerPool`, in this sandbox's world.
  var workers: WorkerPool.Program {
    WorkerPool.Program(
      executable: Repository.binary, arguments: [Worker.command], environment: environment)
  }

  /// The user's font library in this sandbox.
  var library: String { root + "/data/fonti/fonts" }

  /// `work/relative`.
  func path(_ relative: String) -> String { work + "/" + relative }

  /// Writes a file under the working folder (creating folders) and returns its path.
  @discardableResult
  func write(_ relative: String, _ data: Data) throws -> String {
    let full = path(relative)
    try FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: full))
    return full
  }

  @discardableResult
  func write(_ relative: String, _ text: String) throws -> String {
    try write(relative, Data(text.utf8))
  }

  /// A file's bytes, or nil when it does not exist.
  func read(_ relative: String) -> Data? {
    FileManager.default.contents(atPath: path(relative))
  }

  /// Names in a folder (hidden ones too), sorted; empty when it does not exist.
  func list(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  /// Runs the tool to completion. stdin is `input` (a file, not a terminal) or /dev/null.
  /// Runs the tool; with `through` (a command such as `setpriv --reuid=65534`), the tool is
  /// run by that command.
  func run(
    _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
    through: [String] = []
  ) throws -> CLIResult {
    try start(arguments, input: input, environment: extra, through: through).finish()
  }

  /// Starts the tool and returns at once, for running several at the same time.
  func start(
    _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
    through: [String] = []
  ) throws -> RunningCLI {
    let stdin: FileHandle
    if let input {
      let file = root + "/stdin-\(UUID().uuidString)"
      try Data(input.utf8).write(to: URL(fileURLWithPath: file))
      guard let handle = FileHandle(forReadingAtPath: file) else {
        throw CLIError(description: "cannot open \(file)")
      }
      stdin = handle
    } else {
      stdin = FileHandle.nullDevice
    }
    return try RunningCLI(
      arguments, in: work, environment: environment.merging(extra) { $1 }, stdin: stdin,
      scratch: root, through: through)
  }

  /// Runs the tool with stdin on a pseudo-terminal (so it asks before `saved clear`) and types
  /// `typed` into it. stdout and stderr are files, not the terminal.
  func runOnTerminal(
    _ arguments: [String], typing typed: String, environment extra: [String: String] = [:]
  ) throws -> CLIResult {
    let pty = try PseudoTerminal.functions()
    let master = pty.openpt(O_RDWR | O_NOCTTY)
    guard master >= 0, pty.grantpt(master) == 0, pty.unlockpt(master) == 0 else {
      throw CLIError(description: "no pseudo-terminal available")
    }
    defer { close(master) }
    var name = [CChar](repeating: 0, count: 256)
    guard pty.ptsnameR(master, &name, name.count) == 0 else {
      throw CLIError(description: "ptsname_r failed")
    }
    let path = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let slave = open(path, O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw CLIError(description: "cannot open the pseudo-terminal") }
    let running = try RunningCLI(
      arguments, in: work, environment: environment.merging(extra) { $1 },
      stdin: FileHandle(fileDescriptor: slave, closeOnDealloc: true), scratch: root)
    let bytes = Array(typed.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    // Drain the terminal's echo so the child can never block on a full buffer.
    let drain = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while buffer.withUnsafeMutableBytes({ Glibc.read(master, $0.baseAddress, $0.count) }) > 0 {}
    }
    drain.start()
    return try running.finish()
  }
}

extension CLISandbox {
  /// Runs the tool under a file-size limit (`prlimit --fsize`): writes past it fail with EFBIG,
  /// as they would on a full disk, without needing one.
  func runLimited(fileSize: Int, _ arguments: [String]) throws -> CLIResult {
    try run(["--fsize=\(fileSize)", Repository.binary] + arguments, executable: "/usr/bin/prlimit")
  }

  /// Runs `executable` (a wrapper that starts the tool) in the sandbox's world.
  func run(
    _ arguments: [String], executable: String, environment extra: [String: String] = [:]
  ) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: work)
    process.environment = environment.merging(extra) { $1 }
    let out = root + "/out-\(UUID().uuidString)"
    let err = root + "/err-\(UUID().uuidString)"
    for path in [out, err] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    process.standardOutput = FileHandle(forWritingAtPath: out)
    process.standardError = FileHandle(forWritingAtPath: err)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return CLIResult(
      status: process.terminationStatus,
      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
      signalled: process.terminationReason == .uncaughtSignal)
  }
}

/// A tool process started by `CLISandbox.start`; `finish` waits and collects its output.
final class RunningCLI {
  let process = Process()
  let stdoutPath: String
  let stderrPath: String

  init(
    _ arguments: [String], in folder: String, environment: [String: String], stdin: FileHandle,
    scratch: String, through: [String] = []
  ) throws {
    guard FileManager.default.isExecutableFile(atPath: Repository.binary) else {
      throw CLIError(description: "\(Repository.binary) is missing: run 'swift build' first")
    }
    let id = UUID().uuidString
    // Files rather than pipes: nothing to drain, no deadlock on large output.
    stdoutPath = scratch + "/stdout-\(id)"
    stderrPath = scratch + "/stderr-\(id)"
    for path in [stdoutPath, stderrPath] {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw CLIError(description: "cannot create \(path)")
      }
    }
    guard let out = FileHandle(forWritingAtPath: stdoutPath),
      let err = FileHandle(forWritingAtPath: stderrPath)
    else { throw CLIError(description: "cannot open output files") }
    if let wrapper = through.first {
      process.executableURL = URL(fileURLWithPath: wrapper)
      process.arguments = through.dropFirst() + [Repository.binary] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: Repository.binary)
      process.arguments = arguments
    }
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.standardInput = stdin
    process.standardOutput = out
    process.standardError = err
    try process.run()
  }

  func finish() throws -> CLIResult {
    process.waitUntilExit()
    let out = try String(contentsOfFile: stdoutPath, encoding: .utf8)
    let err = try String(contentsOfFile: stderrPath, encoding: .utf8)
    return CLIResult(
      status: process.terminationStatus, stdout: out, stderr: err,
      signalled: process.terminationReason == .uncaughtSignal)
  }
}

/// glibc's pseudo-terminal calls, which Swift's Glibc module hides behind _XOPEN_SOURCE; looked
/// up at run time instead.
enum PseudoTerminal {
  typealias IntToInt = @convention(c) (Int32) -> Int32
  typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

  struct Functions {
    var openpt: IntToInt
    var grantpt: IntToInt
    var unlockpt: IntToInt
    var ptsnameR: Name
  }

  static func functions() throws -> Functions {
    let handle = dlopen(nil, RTLD_NOW)
    func find<F>(_ symbol: String, as type: F.Type) throws -> F {
      guard let pointer = dlsym(handle, symbol) else {
        throw CLIError(description: "\(symbol) is not available")
      }
      return unsafeBitCast(pointer, to: type)
    }
    return Functions(
      openpt: try find("posix_openpt", as: IntToInt.self),
      grantpt: try find("grantpt", as: IntToInt.self),
      unlockpt: try find("unlockpt", as: IntToInt.self),
      ptsnameR: try find("ptsname_r", as: Name.self))
  }
}

/// A program the test set-up installs (poppler's `pdftotext` and `pdfinfo`, `qpdf`), found in
/// `/usr/bin` or `/bin`.
enum SystemTool {
  static func path(_ name: String) -> String? {
    ["/usr/bin/" + name, "/bin/" + name].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs `name` with `arguments`: its status and standard output (standard error dropped); nil
  /// when it is not installed.
  static func run(_ name: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  )? {
    guard let path = path(name) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The text of `pdf` (of page `page` alone, when given), by `pdftotext`; nil without it.
  static func pdfText(_ pdf: String, page: Int? = nil) throws -> String? {
    let pages = page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []
    return try run("pdftotext", pages + [pdf, "-"])?.output
  }
}
