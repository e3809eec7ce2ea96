import Foundation

/// A fresh folder under the system's temporary folder, removed when the value goes away.
package final class TemporaryFolder {
  package let path: String

  package init() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("fonti-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
