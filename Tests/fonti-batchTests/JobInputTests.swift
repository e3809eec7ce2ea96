import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A job read from standard input, a pipe or a FIFO (issue 13, item 13): `-` works, relative
/// paths are relative to the current folder (never /dev or /proc), diagnostics name `<stdin>`,
/// and a FIFO with no writer says what it waits for.
struct JobInputTests {
  /// A job whose relative font path only resolves against the current folder.
  static let job = """
    version: 1
    fonts: [mine/DejaVuSerif.ttf]
    families: { include: [DejaVu Serif] }
    catalogues: []
    png: { edge: 256 }

    """

  func sandbox() throws -> CLISandbox {
    let box = try CLISandbox("fonti-input")
    try box.write("mine/DejaVuSerif.ttf", try Repository.font("DejaVuSerif.ttf"))
    return box
  }

  @Test func checkReadsStandardInputWithDash() throws {
    let box = try sandbox()
    let ok = try box.run(["check", "-"], input: Self.job)
    #expect(ok.status == 0, "\(ok)")
    // (With a warning: the sandbox also has DejaVu Serif installed.)
    #expect(ok.stdout.hasPrefix("<stdin>: OK, 1 family selected"), "\(ok)")
    let bad = try box.run(["check", "-"], input: "version: 1\ntitle:\n")
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasPrefix("fonti-batch: error: <stdin>:2:7: title must be a string, not null"))
  }

  @Test(arguments: ["/dev/stdin", "/proc/self/fd/0"])
  func devicePathsAreRelativeToTheCurrentFolder(_ path: String) throws {
    let box = try sandbox()
    let result = try box.run(["check", path], input: Self.job)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasPrefix("\(path): OK, 1 family selected"), "\(result)")
  }

  @Test func runFromStandardInputWritesBesideTheCaller() throws {
    let box = try sandbox()
    let job = Self.job + "output: out\n"
    for path in ["-", "/dev/stdin"] {
      let result = try box.run(["run", "-q", path], input: job)
      #expect(result.status == 0, "\(path): \(result)")
      #expect(box.read("out/specimens/dejavu-serif.png") != nil, "\(path)")
      #expect(!FileManager.default.fileExists(atPath: "/dev/out"), "\(path) wrote into /dev")
      try? FileManager.default.removeItem(atPath: box.path("out"))
    }
    try? FileManager.default.removeItem(atPath: "/dev/out")
  }

  @Test func aFIFOWithNoWriterSaysWhatItWaitsFor() throws {
    let box = try sandbox()
    let fifo = try box.makeFIFO("job.fifo")
    let running = try box.start(["check", "job.fifo"])
    guard running.waitForStderr(containing: "waiting for the job on 'job.fifo'") else {
      // Without a reader, opening the FIFO to write would block this test for ever.
      running.send(SIGKILL)
      Issue.record("no waiting notice: \(try running.finish())")
      return
    }
    // The writer comes after the notice; the job is then read whole.
    let writer = open(fifo, O_WRONLY)
    #expect(writer >= 0)
    let bytes = Array(Self.job.utf8)
    #expect(bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == bytes.count)
    close(writer)
    let result = try running.finish()
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasPrefix("job.fifo: OK, 1 family selected"), "\(result)")
  }

  @Test func aSignalEndsTheWaitForAFIFO() throws {
    let box = try sandbox()
    _ = try box.makeFIFO("job.fifo")
    let running = try box.start(["run", "job.fifo"])
    guard running.waitForStderr(containing: "waiting for the job on 'job.fifo'") else {
      running.send(SIGKILL)
      Issue.record("no waiting notice: \(try running.finish())")
      return
    }
    running.send(SIGTERM)
    #expect(running.waitForExit(), "SIGTERM did not end the wait")
    let result = try running.finish()
    // Ended by the signal (the shell says 143); nothing written.
    #expect(result.signalled && result.status == SIGTERM, "\(result)")
    #expect(box.list(box.work) == ["job.fifo", "mine"])
  }
}
