import Foundation
import TestSupport
import Testing

@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The file-system toolkit: one `createFolder`, one write loop, one create-without-replacing,
/// one lock type.
@Suite struct FileSystemTests {
  /// The folder of a path, from the string: a bare name of any length (Foundation's
  /// `deletingLastPathComponent` trapped on "a"), the root, trailing and doubled slashes.
  @Test func theFolderOfAPath() {
    for (path, folder) in [
      ("a", "."), ("-", "."), ("ab", "."), ("./a", "."), ("/a", "/"), ("/", "/"), ("", "."),
      ("a/b", "a"), ("a/b/", "a"), ("/x/y.pdf", "/x"), ("a//b", "a"), ("//a", "/"),
    ] {
      #expect(FileSystem.folder(of: path) == folder, "\(path)")
    }
  }

  /// The name of a path: what `NSString.lastPathComponent` says, for the same cases.
  @Test func theNameOfAPath() {
    for (path, name) in [
      ("a", "a"), ("", ""), ("/", "/"), ("/a", "a"), ("a/b", "b"), ("a/b/", "b"),
      ("a//b", "b"), ("/x/y.pdf", "y.pdf"), ("out/.fonti-tmp-1-2-x.png", ".fonti-tmp-1-2-x.png"),
      ("é/ü.png", "ü.png"),
    ] {
      #expect(FileSystem.name(of: path) == name, "\(path)")
      #expect((path as NSString).lastPathComponent == name, "\(path)")
    }
  }

  @Test func createFolderMakesParentsAndNamesAFileInTheWay() throws {
    let folder = try TemporaryDirectory()
    try FileSystem.createFolder(folder.file("a/b/c"))
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: folder.file("a/b/c"), isDirectory: &isFolder))
    #expect(isFolder.boolValue)
    // Again: nothing to do.
    try FileSystem.createFolder(folder.file("a/b/c"))

    try folder.write("file", "x")
    #expect {
      try FileSystem.createFolder(folder.file("file/inside"), hint: "move it")
    } throws: { error in
      let d = error as? Diagnostic
      return d?.message == "'\(folder.file("file"))' is a file where fonti-batch needs a folder"
        && d?.hint == "move it"
    }
  }

  @Test func createFolderSaysWhyTheSystemRefused() throws {
    let folder = try TemporaryDirectory()
    try FileSystem.createFolder(folder.file("locked"))
    chmod(folder.file("locked"), 0o500)
    defer { chmod(folder.file("locked"), 0o700) }
    // root may write anywhere: then there is no refusal to see.
    guard access(folder.file("locked"), W_OK) != 0 else { return }
    #expect {
      try FileSystem.createFolder(folder.file("locked/new"))
    } throws: { error in
      (error as? Diagnostic)?.message
        == "cannot create folder '\(folder.file("locked/new"))': Permission denied"
    }
  }

  @Test func writeAllWritesEveryByteAndReportsTheSystemsError() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("bytes")
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    try #require(fd >= 0)
    let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
    #expect(FileSystem.writeAll(fd, bytes) == 0)
    close(fd)
    #expect(FileManager.default.contents(atPath: path) == Data(bytes))

    let reader = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(reader) }
    #expect(FileSystem.writeAll(reader, [1, 2, 3]) == EBADF)
  }

  @Test func createNewNeverReplacesAndLeavesNoTemporaryFile() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("job.yaml")
    try FileSystem.createNew(Data("first\n".utf8), at: path)
    #expect(FileManager.default.contents(atPath: path) == Data("first\n".utf8))
    #expect {
      try FileSystem.createNew(Data("second\n".utf8), at: path)
    } throws: { error in
      (error as? FileSystem.CreationFailure) == .exists
    }
    #expect(FileManager.default.contents(atPath: path) == Data("first\n".utf8))
    // A dangling link is a name too.
    symlink(folder.file("nowhere"), folder.file("link.yaml"))
    #expect(throws: FileSystem.CreationFailure.exists) {
      try FileSystem.createNew(Data(), at: folder.file("link.yaml"))
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "job.yaml", "link.yaml",
      ])
    // A folder that does not exist: the system's error.
    #expect(throws: FileSystem.CreationFailure.failed(ENOENT)) {
      try FileSystem.createNew(Data(), at: folder.file("missing/job.yaml"))
    }
  }
}
