import Foundation
import Synchronization
import Testing

@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `FileLock` with a `Waiting`: a busy lock is announced, and an interruption ends the wait
/// without running the body.
@Suite struct FileLockTests {
  /// A lock file, held through its own open file description (flock conflicts between two
  /// descriptions even in one process).
  func heldLock() throws -> (path: String, fd: Int32) {
    let path = NSTemporaryDirectory() + "fonti-lock-\(UUID().uuidString)"
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
    return (path, fd)
  }

  @Test func anInterruptionEndsTheWaitAndTheBodyNeverRuns() throws {
    let (path, fd) = try heldLock()
    defer {
      close(fd)
      unlink(path)
    }
    let notices = Mutex<[String]>([])
    // Interrupted once the wait has been announced: no clock in the test.
    let waiting = FileLock.Waiting(
      noticeAfter: 0, notice: { line in notices.withLock { $0.append(line) } },
      interrupted: { notices.withLock { !$0.isEmpty } })
    var ran = false
    #expect(throws: Diagnostic.self) {
      try FileLock.withExclusiveLock(path, waiting: waiting, holder: "a test holds it") {
        ran = true
      }
    }
    #expect(!ran)
    #expect(
      notices.withLock { $0 } == [
        "waiting for the lock on '\(path)': a test holds it (Ctrl-C to stop)"
      ])
  }

  @Test func aFreeLockIsTakenAtOnceWithoutANotice() throws {
    let path = NSTemporaryDirectory() + "fonti-lock-\(UUID().uuidString)"
    defer { unlink(path) }
    let notices = Mutex(0)
    let waiting = FileLock.Waiting(
      noticeAfter: 0, notice: { _ in notices.withLock { $0 += 1 } }, interrupted: { false })
    let value = try FileLock.withExclusiveLock(path, waiting: waiting) { 42 }
    #expect(value == 42)
    #expect(notices.withLock { $0 } == 0)
  }
}

/// Terminal columns, for lines rewritten in place.
struct TerminalTextTests {
  @Test func widthsCountColumnsNotCharacters() {
    #expect(TerminalText.width("DejaVu Serif") == 12)
    #expect(TerminalText.width("東京") == 4)
    #expect(TerminalText.width("e\u{301}") == 1)  // e + combining acute
    #expect(TerminalText.width("🙂") == 2)
    #expect(TerminalText.prefix("Noto Sans CJK JP", width: 8) == "Noto Sa…")
    #expect(TerminalText.prefix("東京タワー", width: 6) == "東京…")
    #expect(TerminalText.width(TerminalText.prefix("東京タワー", width: 6)) <= 6)
    #expect(TerminalText.prefix("short", width: 8) == "short")
  }
}
