import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Waiting for the favourites lock (issue 13, item 4): the wait is announced on stderr, and
/// SIGINT or SIGTERM end it at once with 130 or 143 and the manifest byte for byte as it was.
/// The test holds the lock itself; no sleeps, it waits for the tool's "waiting" line.
@Suite struct FavouritesLockTests {
  static let epoch = ["SOURCE_DATE_EPOCH": "1764410640"]
  static let waiting = "/.favourites.json.lock': another fonti-batch process is changing"

  /// An exclusive `flock` on a file, held by this test process until released.
  final class HeldLock {
    let fd: Int32
    init(_ path: String) throws {
      fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
        throw CLIError(description: "cannot lock \(path)")
      }
    }
    func release() { close(fd) }
  }

  /// A sandbox with a saved family, the manifest's bytes, and the lock held.
  func sandbox() throws -> (CLISandbox, Data, HeldLock) {
    let box = try CLISandbox("fonti-lock")
    let first = try box.run(["saved", "add", "DejaVu Serif"], environment: Self.epoch)
    guard first.status == 0, let before = box.read("output/favourites.json") else {
      throw CLIError(description: "setting up: \(first)")
    }
    return (box, before, try HeldLock(box.path("output/.favourites.json.lock")))
  }

  /// Starts `arguments`, waits for the waiting line, sends `signal`, and returns the result.
  func interrupt(
    _ box: CLISandbox, _ arguments: [String], with signal: Int32
  ) throws -> CLIResult? {
    let running = try box.start(arguments, environment: Self.epoch)
    guard running.waitForStderr(containing: Self.waiting) else {
      running.send(SIGKILL)
      Issue.record("no waiting line: \(try running.finish())")
      return nil
    }
    running.send(signal)
    #expect(running.waitForExit(), "the signal did not end the wait")
    return try running.finish()
  }

  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func savedAddEndsAtOnceOnASignal(_ signal: Int32, _ status: Int32) throws {
    let (box, before, lock) = try sandbox()
    defer { lock.release() }
    guard let result = try interrupt(box, ["saved", "add", "Cantarell"], with: signal) else {
      return
    }
    #expect(!result.signalled && result.status == status, "\(result)")
    #expect(result.stdout.isEmpty, "\(result)")
    #expect(result.stderr.contains("another fonti-batch process is changing the favourites"))
    #expect(result.stderr.contains("interrupted while waiting for the lock"))
    #expect(box.read("output/favourites.json") == before)
  }

  @Test func savedRemoveAndClearEndAtOnceToo() throws {
    let (box, before, lock) = try sandbox()
    defer { lock.release() }
    for arguments in [["saved", "remove", "DejaVu Serif"], ["saved", "clear", "--yes"]] {
      guard let result = try interrupt(box, arguments, with: SIGINT) else { return }
      #expect(result.status == 130, "\(arguments): \(result)")
      #expect(box.read("output/favourites.json") == before, "\(arguments)")
    }
  }

  @Test func runWithFavouritesEndsAtOnceAndRendersNothing() throws {
    let (box, before, lock) = try sandbox()
    defer { lock.release() }
    try box.write(
      "specimens.yaml",
      """
      version: 1
      families: { include: [Cantarell] }
      favourites: { save: [Cantarell] }
      png: { edge: 256 }
      catalogues: []

      """)
    guard let result = try interrupt(box, ["run"], with: SIGINT) else { return }
    #expect(!result.signalled && result.status == 130, "\(result)")
    #expect(box.read("output/favourites.json") == before)
    #expect(box.list(box.path("output")) == [".favourites.json.lock", "favourites.json"])
  }

  @Test func theWaitEndsWhenTheLockIsReleased() throws {
    let (box, _, lock) = try sandbox()
    let running = try box.start(["saved", "add", "Cantarell"], environment: Self.epoch)
    let announced = running.waitForStderr(containing: Self.waiting)
    lock.release()
    #expect(announced)
    #expect(running.waitForExit())
    let result = try running.finish()
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "Saved Cantarell.\n")
  }
}
