import Foundation
import Testing

@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `OutputFolder`: inside a registered folder no write follows a link; outside, nothing changes.
@Suite struct OutputFolderTests {
  let root = FileManager.default.temporaryDirectory.path + "/fonti-outfolder-\(UUID().uuidString)"

  func make(_ relative: String, _ text: String) throws {
    let path = root + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  func text(_ relative: String) -> String? {
    FileManager.default.contents(atPath: root + "/" + relative).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  func isLink(_ relative: String) -> Bool {
    var info = stat()
    return lstat(root + "/" + relative, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  @Test func aLinkedFileIsReplacedOnlyInsideARegisteredFolder() throws {
    defer { try? FileManager.default.removeItem(atPath: root) }
    try make("decoy", "decoy")
    try make("out/.keep", "")
    #expect(symlink(root + "/decoy", root + "/out/manifest.json") == 0)
    #expect(symlink(root + "/decoy", root + "/elsewhere.json") == 0)
    do {
      let registration = try OutputFolder.register(root + "/out")
      defer { withExtendedLifetime(registration) {} }
      try AtomicFile.write(Data("new".utf8), to: root + "/out/manifest.json")
      #expect(!isLink("out/manifest.json"))
      #expect(text("out/manifest.json") == "new")
      #expect(text("decoy") == "decoy")
    }
    // Outside every registered folder a link is followed, as before.
    try AtomicFile.write(Data("user".utf8), to: root + "/elsewhere.json")
    #expect(isLink("elsewhere.json"))
    #expect(text("decoy") == "user")
    #expect(!OutputFolder.contains(root + "/out/manifest.json"))
  }

  @Test func aLinkedFolderIsRefusedAndNeverWrittenThrough() throws {
    defer { try? FileManager.default.removeItem(atPath: root) }
    try make("decoys/kept", "decoy")
    try make("out/.keep", "")
    #expect(symlink(root + "/decoys", root + "/out/specimens") == 0)
    let registration = try OutputFolder.register(root + "/out")
    defer { withExtendedLifetime(registration) {} }
    #expect(throws: Diagnostic.self) {
      try FileSystem.createFolder(root + "/out/specimens/deeper")
    }
    #expect(throws: FileError.self) { try OutputFolder.systemPath(root + "/out/specimens/a.png") }
    #expect(throws: (any Error).self) {
      try AtomicFile.write(Data("x".utf8), to: root + "/out/specimens/a.png")
    }
    #expect(throws: FileError.self) {
      try AtomicFile.stage([1, 2], for: root + "/out/specimens/a.png")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/decoys") == ["kept"])
    // A real folder is made and written from descriptors; `..` leaves the folder.
    try FileSystem.createFolder(root + "/out/real/deeper")
    try AtomicFile.write(Data("ok".utf8), to: root + "/out/real/deeper/../a.json")
    #expect(text("out/real/a.json") == "ok")
    #expect(!OutputFolder.contains(root + "/out/../decoys/kept"))
  }
}
