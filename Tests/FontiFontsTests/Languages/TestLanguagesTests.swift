import Foundation
import TestSupport
import Testing

@testable import FontiFonts

/// The table the model's tests decode jobs with (`Fixtures/languages.tsv`, `TestLanguages`) is
/// fontconfig's: every code in it known to fontconfig, by the same name. With
/// `FONTI_RECORD_GOLDENS=1` it is written anew from fontconfig's table.
@Test func theModelTestsLanguagesAreFontconfigs() throws {
  let table = Languages.table
  if Golden.recording {
    let lines = table.codes.map { "\($0)\t\(table.name(of: $0))\n" }.joined()
    try lines.write(toFile: TestLanguages.file, atomically: true, encoding: .utf8)
    Issue.record("recorded \(TestLanguages.file); run again without FONTI_RECORD_GOLDENS")
    return
  }
  let entries = TestLanguages.entries
  #expect(entries.count >= 200, "\(TestLanguages.file) holds \(entries.count) languages")
  for (code, name) in entries {
    #expect(table.isKnown(code), "fontconfig does not know '\(code)'")
    #expect(table.name(of: code) == name, "'\(code)'")
  }
}
