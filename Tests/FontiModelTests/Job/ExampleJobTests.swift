import Foundation
import TestSupport
import Testing

@testable import FontiModel
@testable import FontiSupport

/// The example `init` writes is the shipped `specimens.yaml.example`, and it is a valid job.
struct ExampleJobTests {
  static let repository = URL(fileURLWithPath: TestPaths.repository)

  @Test func constantIsByteIdenticalToTheShippedFile() throws {
    let file = Self.repository.appendingPathComponent("specimens.yaml.example")
    let bytes = try Data(contentsOf: file)
    #expect(bytes == Data(ExampleJob.text.utf8), "regenerate ExampleJob.swift from the file")
  }

  @Test func exampleIsAValidJobWithoutWarnings() throws {
    let (job, warnings) = try JobDecoder.decode(
      text: ExampleJob.text, path: "specimens.yaml", directory: "/nowhere",
      languages: TestLanguages.table)
    #expect(warnings.isEmpty)
    #expect(job.output == "/nowhere/output")
    #expect(job.catalogues.map(\.file.value) == ["catalogue.pdf", "saved.pdf"])
    #expect(job.save.map(\.value) == ["DejaVu Serif"])
    #expect(job.include.map(\.value) == ["DejaVu*"])
    #expect(job.fonts.isEmpty)
  }

  @Test func writeCreatesTheFileAndNeverOverwrites() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/job.yaml"
    #expect(try ExampleJob.write(to: path) == path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == ExampleJob.text)
    try "mine\n".write(toFile: path, atomically: true, encoding: .utf8)
    do {
      _ = try ExampleJob.write(to: path)
      Issue.record("overwrote an existing file")
    } catch {
      #expect(error.diagnostics.first?.message.contains("already exists") == true)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine\n")
    // No temporary files are left behind, whether the write worked or not.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["job.yaml"])
  }

  @Test func writeIntoAFolderUsesTheDefaultName() throws {
    let folder = try TemporaryDirectory()
    #expect(try ExampleJob.write(to: folder.path) == folder.path + "/specimens.yaml")
    #expect(FileManager.default.fileExists(atPath: folder.path + "/specimens.yaml"))
  }

  @Test func writeRefusesDanglingSymlinksAndMissingFolders() throws {
    let folder = try TemporaryDirectory()
    let link = folder.path + "/link.yaml"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent")
    #expect(throws: DiagnosticError.self) { try ExampleJob.write(to: link) }
    do {
      _ = try ExampleJob.write(to: folder.path + "/no/such/job.yaml")
      Issue.record("wrote into a missing folder")
    } catch {
      #expect(error.diagnostics.first?.message.contains("does not exist") == true)
    }
  }
}
