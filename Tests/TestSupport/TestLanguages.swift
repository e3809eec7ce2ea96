import Foundation

/// The language codes the model's tests decode jobs with (`TestLanguages.table`, in
/// FontiModelTests): fontconfig's codes and their names
/// as `Languages.table` gives them, frozen in `Fixtures/languages.tsv` (a code and its name a
/// line), so that the job model is tested without fontconfig and whatever version a machine
/// has. `FontiFontsTests` checks that fontconfig still knows every code by the same name.
package enum TestLanguages {
  /// `Fixtures/languages.tsv`.
  package static let file = TestPaths.fixtures + "/languages.tsv"

  /// Each code with its name, in the file's order (sorted by code).
  package static let entries: [(code: String, name: String)] = {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: "\t", maxSplits: 1)
      guard fields.count == 2 else { return nil }
      return (String(fields[0]), String(fields[1]))
    }
  }()
}
