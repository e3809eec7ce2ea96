import Foundation
import Testing

/// `fonti-batch check` and `fonti-batch init`, end to end.
struct CheckAndInitTests {
  static let invalid = Repository.fixtures + "/Jobs/invalid"

  @Test func initWritesTheExampleAndCheckAcceptsIt() throws {
    // The test fonts and DejaVu Sans, which the example pairs with DejaVu Serif: the example
    // checks against these, whatever the machine has installed.
    let box = try CLISandbox("fonti-init", fonts: Repository.exampleFontsConf)
    let written = try box.run(["init"])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.contains("wrote specimens.yaml"))
    let example = try Data(
      contentsOf: URL(fileURLWithPath: Repository.root + "/specimens.yaml.example"))
    #expect(box.read("specimens.yaml") == example)

    let checked = try box.run(["check"])
    #expect(checked.status == 0, "\(checked.stderr)")
    // The verdict is the command's result: stdout.
    #expect(checked.stdout.hasPrefix("specimens.yaml: OK, "))
    #expect(checked.stderr.isEmpty)
  }

  @Test func initRefusesToOverwrite() throws {
    let box = try CLISandbox("fonti-init")
    let path = try box.write("mine.yaml", "version: 1\ntitle: Mine\n")
    let result = try box.run(["init", "mine.yaml"])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("fonti-batch: error: 'mine.yaml' already exists"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "version: 1\ntitle: Mine\n")
  }

  @Test func checkReportsEveryMistakeWithItsPosition() throws {
    let box = try CLISandbox("fonti-check")
    let result = try box.run(["check", Self.invalid + "/five-mistakes.yaml"])
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
    let box = try CLISandbox("fonti-check")
    let result = try box.run(["check"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("fonti-batch: error: job file 'specimens.yaml' not found"))
    #expect(result.stderr.contains("fonti-batch init"))
  }

  @Test func checkQuietPrintsNothingWhenValid() throws {
    let box = try CLISandbox("fonti-check")
    try box.write("j.yaml", "version: 1\n")
    let result = try box.run(["check", "-q", "j.yaml"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty && result.stdout.isEmpty)
  }

  @Test func checkNeverCrashesOnHostileBytes() throws {
    let box = try CLISandbox("fonti-check")
    let inputs: [[UInt8]] = [
      [0xFF, 0x00, 0xC3],
      Array("version: 1\ntitle: \"\\0\"\n".utf8),
      Array(repeating: UInt8(ascii: "["), count: 100_000),
      Array(repeating: UInt8(ascii: "-"), count: 5_000) + [0x0A],
      Array("&a [*a]".utf8),
      Array("version: 1\n? [a]\n: b\n? {c: d}\n".utf8),
    ]
    for (i, bytes) in inputs.enumerated() {
      let path = try box.write("h\(i).yaml", Data(bytes))
      let result = try box.run(["check", path])
      #expect(result.status == 2, "input \(i): \(result.stderr)")
      #expect(result.stderr.hasPrefix("fonti-batch: error: "), "input \(i): \(result.stderr)")
      // Long lines are cut around the error, never printed whole.
      #expect(result.stderr.split(separator: "\n").allSatisfy { $0.count < 400 }, "input \(i)")
    }
  }
}
