import Foundation

/// Where the tests' own files are, found from this source file (`Tests/TestSupport/`): the
/// fixtures every test target reads, the goldens, and the repository they are in.
package enum TestPaths {
  /// `Tests/`.
  package static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().path
  /// The repository's root.
  package static let repository = URL(fileURLWithPath: tests).deletingLastPathComponent().path
  /// `Tests/Fixtures`: fonts with their licences, fontconfig configurations, jobs.
  package static let fixtures = tests + "/Fixtures"
  /// `Tests/Goldens`: the expected images and text dumps (`Golden`).
  package static let goldens = tests + "/Goldens"
}
