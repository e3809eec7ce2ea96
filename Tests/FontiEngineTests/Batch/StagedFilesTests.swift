import FontTestSupport
import Foundation
import Testing

@testable import FontiEngine
@testable import FontiSupport

/// The parent's half of writing a PNG: a worker's staged file is flushed and renamed into
/// place, or removed with the reason, and nothing else is ever moved.
struct StagedFilesTests {
  func stage(_ bytes: String, for path: String) throws -> String {
    let temporary = AtomicFile.temporaryPath(for: path)
    try Data(bytes.utf8).write(to: URL(fileURLWithPath: temporary))
    return temporary
  }

  @Test func aStagedFileReplacesItsDestinationWhole() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/a.png"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    let staged = StagedFiles(lanes: 2)
    staged.commit(try stage("new", for: path), to: path)
    #expect(staged.finish().isEmpty)
    #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.png"])
  }

  @Test func aFileThatCannotTakeItsNameIsRemovedAndReported() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A non-empty folder where the PNG should go: rename fails.
    let path = folder + "/b.png"
    try FileManager.default.createDirectory(
      atPath: path + "/inside", withIntermediateDirectories: true)
    let good = folder + "/c.png"
    let staged = StagedFiles(lanes: 2)
    staged.commit(try stage("b", for: path), to: path)
    staged.commit(try stage("c", for: good), to: good)
    let failures = staged.finish()
    #expect(failures.count == 1)
    #expect(failures[path]?.error?.hasPrefix("cannot rename into place '\(path)'") == true)
    #expect(FileManager.default.contents(atPath: good) == Data("c".utf8))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["b.png", "c.png"])
  }

  @Test func onlyATemporaryBesideItsDestinationIsMoved() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(
      atPath: folder + "/sub", withIntermediateDirectories: true)
    let elsewhere = try stage("x", for: folder + "/sub/d.png")
    let notTemporary = folder + "/keep.txt"
    try Data("keep".utf8).write(to: URL(fileURLWithPath: notTemporary))
    let staged = StagedFiles(lanes: 2)
    staged.commit(elsewhere, to: folder + "/d.png")
    staged.commit(notTemporary, to: folder + "/e.png")
    let failures = staged.finish()
    #expect(failures.count == 2)
    #expect(FileManager.default.fileExists(atPath: elsewhere))
    #expect(FileManager.default.contents(atPath: notTemporary) == Data("keep".utf8))
    #expect(!FileManager.default.fileExists(atPath: folder + "/d.png"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/e.png"))
  }
}
