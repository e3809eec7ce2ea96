import Foundation

/// A fresh folder under the system's temporary folder, removed when the value is released.
package final class TemporaryDirectory {
  package let path: String

  package init(_ label: String = "fonti-test") throws {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/\(label)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// `path/name`.
  package func file(_ name: String) -> String { path + "/" + name }

  /// Writes `text` (UTF-8) to `path/name` and returns the full path.
  @discardableResult
  package func write(_ name: String, _ text: String) throws -> String {
    try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    return file(name)
  }
}

/// The test fixtures folder, found from this source file.
package enum TestFixtures {
  package static let folder = TestPaths.fixtures

  package static var fonts: String { folder + "/Fonts" }
  package static var fontsConf: String { folder + "/fonts.conf" }
}
