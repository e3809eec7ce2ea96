import Foundation

// Swift Testing is there for the tests only (a release build of the package has none): this
// file is empty there.
#if canImport(Testing)
  import Testing

  /// Golden files: text dumps and images. `FONTI_RECORD_GOLDENS=1` rewrites them and fails, so a
  /// recording never passes silently.
  package enum Golden {
    package static let folder = TestPaths.goldens
    package static let diffs = TestPaths.repository + "/.build/golden-diffs"
    package static var recording: Bool {
      ProcessInfo.processInfo.environment["FONTI_RECORD_GOLDENS"] == "1"
    }

    /// Compares text with `Goldens/<name>.txt`.
    package static func checkText(_ actual: String, named name: String) throws {
      let golden = folder + "/" + name + ".txt"
      if recording {
        try actual.write(toFile: golden, atomically: true, encoding: .utf8)
        Issue.record("recorded golden \(name).txt; run again without FONTI_RECORD_GOLDENS")
        return
      }
      guard let expected = try? String(contentsOfFile: golden, encoding: .utf8) else {
        Issue.record("missing golden \(golden); record it with FONTI_RECORD_GOLDENS=1")
        return
      }
      #expect(actual == expected)
    }
  }

  extension Golden {
    /// Compares text with `Goldens/<name>` (name includes its folder and extension).
    package static func check(
      _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
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
#endif
