import Foundation
import TestSupport
import Testing

@testable import FontiSupport

/// Every golden file is used by a test: a golden whose test is gone (or renamed its golden)
/// would otherwise sit in the folder, checked by nothing. A golden is used when a test source
/// names it in a string literal, as `Golden.check…(named:)` takes it (`"specimen-ink"` for
/// `specimen-ink.png`, `"Jobs/full.txt"`). Missing goldens fail the test that reads them.
@Suite struct GoldenFilesTests {
  /// Every test target's folder: Tests/.
  static let tests = TestPaths.tests

  /// Every golden, relative to the Goldens folder.
  static func goldens() throws -> [String] {
    let folder = Golden.folder
    let walker = try #require(FileManager.default.enumerator(atPath: folder))
    var out: [String] = []
    for case let path as String in walker {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        out.append(path)
      }
    }
    return out.sorted()
  }

  /// Every string literal of the test sources.
  static func literals() throws -> Set<String> {
    let walker = try #require(FileManager.default.enumerator(atPath: tests))
    var out = Set<String>()
    for case let path as String in walker where path.hasSuffix(".swift") {
      let text = try String(contentsOfFile: tests + "/" + path, encoding: .utf8)
      let parts = text.split(separator: "\"", omittingEmptySubsequences: false)
      // Between two quotes: the odd parts (a rough split is enough for file names).
      for (i, part) in parts.enumerated() where i % 2 == 1 { out.insert(String(part)) }
    }
    return out
  }

  @Test func everyGoldenIsUsedByATest() throws {
    let goldens = try Self.goldens()
    #expect(goldens.count >= 10, "\(goldens)")
    let literals = try Self.literals()
    for golden in goldens {
      let stem = (golden as NSString).deletingPathExtension
      #expect(
        literals.contains(golden) || literals.contains(stem),
        "Goldens/\(golden) is used by no test: delete it, or use it")
    }
  }
}
