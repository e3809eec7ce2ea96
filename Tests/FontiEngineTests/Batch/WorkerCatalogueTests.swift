import FontTestSupport
import Foundation
import Testing

@testable import FontiEngine
@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The catalogue worker names the system's reason when a PDF cannot be written, where Cairo and
/// qpdf lose it.
@Suite struct WorkerCatalogueTests {
  @Test func aSinkCopiesWhatCairoWritesIntoItsFile() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/raw.pdf"
    let sink = try PDFSink(path: path)
    #expect(sink.cairoPath != path, "written through a pipe when /proc is there")
    let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let handle = try #require(FileHandle(forWritingAtPath: sink.cairoPath))
    try handle.write(contentsOf: bytes)
    try handle.close()
    #expect(sink.finish() == 0)
    #expect(FileManager.default.contents(atPath: path) == bytes)
  }

  @Test func aSinkNeverReplacesAFile() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/raw.pdf"
    try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: FileError.self) { try PDFSink(path: path) }
    #expect(FileManager.default.contents(atPath: path) == Data("mine".utf8))
  }

  @Test func aCatalogueThatCannotBeWrittenIsNamedBeforeQpdfWritesIt() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let raw = folder + "/drawn.pdf"
    try Data("%PDF-1.5 drawn".utf8).write(to: URL(fileURLWithPath: raw))
    // Its folder is gone: the system's reason, not qpdf's account of a file it could not make.
    let path = folder + "/gone/catalogue.pdf"
    let result = try Worker.finishCatalogue(
      FinishCatalogueTask(raw: raw, path: path, creationDate: Date(), pages: 3))
    #expect(!result.ok)
    #expect(result.writeFailure == "No such file or directory")
    #expect(result.error == "cannot write catalogue '\(path)': No such file or directory")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "drawn file removed")
  }

  @Test func roomIsCheckedBySize() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(Worker.room(beside: folder + "/a.pdf", bytes: 4096) == nil)
    // 8 TiB: no test machine's disk has room (or allows a file) that large.
    let none = Worker.room(beside: folder + "/a.pdf", bytes: 8 << 40)
    #expect(none == ENOSPC || none == EFBIG, "\(String(describing: none))")
    #expect(Worker.room(beside: folder + "/missing/a.pdf", bytes: 4096) == ENOENT)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing left")
  }
}
