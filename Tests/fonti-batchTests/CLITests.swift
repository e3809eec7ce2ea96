import Foundation
import Testing

/// Runs the built `fonti-batch` binary and captures what a user would see.
struct CLI {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The binary next to the test bundle (SwiftPM's build folder), else `.build/debug`.
  static var binary: URL {
    let candidates = [
      Bundle.main.bundleURL.appendingPathComponent("fonti-batch"),
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("fonti-batch"),
      repository.appendingPathComponent(".build/debug/fonti-batch"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[candidates.count - 1]
  }

  static func run(_ arguments: [String], in folder: String) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    // Files rather than pipes: a child that writes a lot to one stream while the test reads
    // the other cannot block, and children spawned by parallel tests cannot hold a pipe open.
    let folder = FileManager.default.temporaryDirectory
    let outURL = folder.appendingPathComponent("fonti-cli-\(UUID().uuidString).out")
    let errURL = folder.appendingPathComponent("fonti-cli-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let stdout = try Data(contentsOf: outURL)
    let stderr = try Data(contentsOf: errURL)
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}

/// A fresh folder under the system's temporary folder, removed when the value goes away.
final class Scratch {
  let path: String

  init() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("fonti-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// `fonti-batch check` and `fonti-batch init`, end to end.
struct CheckAndInitTests {
  static let invalid = CLI.repository
    .appendingPathComponent("Tests/FontiCoreTests/Fixtures/Jobs/invalid").path

  @Test func initWritesTheExampleAndCheckAcceptsIt() throws {
    let scratch = try Scratch()
    let written = try CLI.run(["init"], in: scratch.path)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.contains("wrote specimens.yaml"))
    let example = try Data(
      contentsOf: CLI.repository.appendingPathComponent("specimens.yaml.example"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/specimens.yaml")) == example)

    let checked = try CLI.run(["check"], in: scratch.path)
    #expect(checked.status == 0, "\(checked.stderr)")
    // The verdict is the command's result: stdout.
    #expect(checked.stdout.hasPrefix("specimens.yaml: OK, "))
    #expect(checked.stderr.isEmpty)
  }

  @Test func initRefusesToOverwrite() throws {
    let scratch = try Scratch()
    let path = scratch.path + "/mine.yaml"
    try "version: 1\ntitle: Mine\n".write(toFile: path, atomically: true, encoding: .utf8)
    let result = try CLI.run(["init", "mine.yaml"], in: scratch.path)
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("fonti-batch: error: 'mine.yaml' already exists"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "version: 1\ntitle: Mine\n")
  }

  @Test func checkReportsEveryMistakeWithItsPosition() throws {
    let scratch = try Scratch()
    let result = try CLI.run(["check", Self.invalid + "/five-mistakes.yaml"], in: scratch.path)
    #expect(result.status == 2)
    let errors = result.stderr.split(separator: "\n").filter {
      $0.hasPrefix("fonti-batch: error: \(Self.invalid)/five-mistakes.yaml:")
    }
    #expect(errors.count == 5, "\(result.stderr)")
    let positions = errors.map { line -> String in
      let rest = line.dropFirst("fonti-batch: error: \(Self.invalid)/five-mistakes.yaml:".count)
      return String(rest.prefix { $0 != " " })
    }
    #expect(positions == ["9:9:", "10:10:", "11:1:", "14:12:", "17:11:"])
    #expect(result.stderr.contains("(did you mean 'sizes'?)"))
    #expect(result.stderr.contains("    sizez: [12, 24]\n    ^\n"))
    #expect(result.stderr.hasSuffix("five-mistakes.yaml: 5 errors\n"))
  }

  @Test func checkWithoutAJobFileExplains() throws {
    let scratch = try Scratch()
    let result = try CLI.run(["check"], in: scratch.path)
    #expect(result.status == 2)
    #expect(result.stderr.contains("fonti-batch: error: job file 'specimens.yaml' not found"))
    #expect(result.stderr.contains("fonti-batch init"))
  }

  @Test func checkQuietPrintsNothingWhenValid() throws {
    let scratch = try Scratch()
    try "version: 1\n".write(toFile: scratch.path + "/j.yaml", atomically: true, encoding: .utf8)
    let result = try CLI.run(["check", "-q", "j.yaml"], in: scratch.path)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty && result.stdout.isEmpty)
  }

  @Test func checkNeverCrashesOnHostileBytes() throws {
    let scratch = try Scratch()
    let inputs: [[UInt8]] = [
      [0xFF, 0x00, 0xC3],
      Array("version: 1\ntitle: \"\\0\"\n".utf8),
      Array(repeating: UInt8(ascii: "["), count: 100_000),
      Array(repeating: UInt8(ascii: "-"), count: 5_000) + [0x0A],
      Array("&a [*a]".utf8),
      Array("version: 1\n? [a]\n: b\n? {c: d}\n".utf8),
    ]
    for (i, bytes) in inputs.enumerated() {
      let path = scratch.path + "/h\(i).yaml"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let result = try CLI.run(["check", path], in: scratch.path)
      #expect(result.status == 2, "input \(i): \(result.stderr)")
      #expect(result.stderr.hasPrefix("fonti-batch: error: "), "input \(i): \(result.stderr)")
      // Long lines are cut around the error, never printed whole.
      #expect(result.stderr.split(separator: "\n").allSatisfy { $0.count < 400 }, "input \(i)")
    }
  }
}
