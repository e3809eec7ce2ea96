import Foundation
import TestSupport
import Testing

@testable import FontiEngine
@testable import FontiModel
@testable import FontiSupport

struct OutputLockTests {
  @Test func anOutputLockIsTakenOnceAndReleasedWithItsObject() throws {
    let folder = try TemporaryDirectory()
    var first: OutputLock? = try OutputLock(folder: folder.path)
    #expect {
      try OutputLock(folder: folder.path)
    } throws: { error in
      (error as? Diagnostic)?.message
        == "another fonti-batch run is writing to '\(folder.path)'; wait for it to finish"
    }
    withExtendedLifetime(first) {}
    first = nil
    _ = try OutputLock(folder: folder.path)
    // The same lock file the favourites and library locks are made of.
    #expect(FileManager.default.fileExists(atPath: folder.file(OutputLayout.runLock)))
    let held = try FileLock(folder.file(OutputLayout.runLock))
    #expect(held.path == folder.file(OutputLayout.runLock))
  }
}
