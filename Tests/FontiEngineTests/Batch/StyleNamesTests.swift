import FontTestSupport
import Foundation
import Testing

@testable import FontiEngine
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// `styles:` face names, once the job meets the fonts: a name no family has is an error with
/// the nearest name; a name some families lack is one counted note.
@Suite(.serialized) struct StyleNamesTests {
  func resolve(_ yaml: String) throws(DiagnosticError) -> ResolvedJob {
    let job = try JobDecoder.decode(
      text: yaml, path: "job.yaml", directory: NSTemporaryDirectory(), languages: Languages.table
    ).job
    return try ResolvedJob.resolve(job, library: nil, configFile: TestFonts.configFile)
  }

  @Test func aNameNoFamilyHasIsAnErrorWithTheNearestName() {
    do {
      _ = try resolve(
        "version: 1\nfamilies:\n  include: [DejaVu Serif, Cantarell]\nstyles: [Bold Italc]\n")
      Issue.record("resolved")
    } catch {
      let d = error.diagnostics.first(where: \.isError)
      #expect(
        d?.message
          == "no selected family has a face named 'Bold Italc' (did you mean 'Bold Italic'?)",
        "\(error.diagnostics)")
      #expect(d?.mark == Mark(line: 4, column: 10))
    }
  }

  @Test func aNameSomeFamiliesLackIsOneCountedNote() throws {
    let r = try resolve(
      "version: 1\nfamilies:\n  include: [DejaVu Serif, Cantarell]\nstyles: [bold-italic, Book]\n")
    let notes = r.warnings.filter { WarningKind.of($0.message) == .faceAbsent }
    #expect(notes.count == 1, "\(r.warnings)")
    #expect(notes.first?.message.contains("is not in 1 of the 2 families") == true)
    #expect(WarningKind.faceAbsent.group == .font)
  }
}
