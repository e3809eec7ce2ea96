import Foundation
import Testing

/// A fresh folder under the system's temporary folder, removed when the value goes away.
final class TemporaryFolder {
  let path: String

  init() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("fonti-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Text goldens in `Tests/FontiCoreTests/Goldens/`; `FONTI_RECORD_GOLDENS=1` rewrites them
/// (and fails, so a recording run is never mistaken for a passing one).
enum Golden {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Goldens")

  static func check(
    _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let url = folder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["FONTI_RECORD_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      Issue.record(
        "recorded golden \(name); unset FONTI_RECORD_GOLDENS", sourceLocation: sourceLocation)
      return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record(
        "missing golden \(name) (record it with FONTI_RECORD_GOLDENS=1)",
        sourceLocation: sourceLocation)
      return
    }
    #expect(actual == expected, "golden \(name) differs", sourceLocation: sourceLocation)
  }
}
