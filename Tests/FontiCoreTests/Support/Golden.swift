import Foundation
import Testing

@testable import FontiCore

/// Golden files: text dumps and images. `FONTI_RECORD_GOLDENS=1` rewrites them and fails, so a
/// recording never passes silently.
enum Golden {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Goldens").path
  static let diffs = TestFonts.repository + "/.build/golden-diffs"
  static var recording: Bool { ProcessInfo.processInfo.environment["FONTI_RECORD_GOLDENS"] == "1" }

  /// Compares the PNG at `actual` with `Goldens/<name>.png`, per channel within `tolerance`.
  /// On failure writes expected, actual and diff images to .build/golden-diffs/.
  static func checkImage(_ actual: String, named name: String, tolerance: Int = 2) throws {
    let golden = folder + "/" + name + ".png"
    if recording {
      _ = try? FileManager.default.removeItem(atPath: golden)
      try FileManager.default.copyItem(atPath: actual, toPath: golden)
      Issue.record("recorded golden \(name).png; run again without FONTI_RECORD_GOLDENS")
      return
    }
    guard let expected = RasterImage.load(png: golden) else {
      Issue.record("missing golden \(golden); record it with FONTI_RECORD_GOLDENS=1")
      return
    }
    guard let image = RasterImage.load(png: actual) else {
      Issue.record("\(actual) is not a readable PNG")
      return
    }
    guard let (maximum, diff) = expected.difference(image) else {
      Issue.record(
        "\(name): size \(image.width)×\(image.height), expected \(expected.width)×\(expected.height)"
      )
      return
    }
    if maximum > tolerance {
      try FileManager.default.createDirectory(atPath: diffs, withIntermediateDirectories: true)
      expected.write(png: "\(diffs)/\(name)-expected.png")
      image.write(png: "\(diffs)/\(name)-actual.png")
      diff.write(png: "\(diffs)/\(name)-diff.png")
      Issue.record(
        "\(name): pixels differ by up to \(maximum) (tolerance \(tolerance)); see \(diffs)/\(name)-diff.png"
      )
    }
  }

  /// Compares text with `Goldens/<name>.txt`.
  static func checkText(_ actual: String, named name: String) throws {
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
  static func check(
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
