import FontiSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The live progress line (issue 13, item 12): on a terminal of any width it never reaches the
/// last column (a wrapped line cannot be rewritten in place and leaves debris).
@Suite(.serialized) struct ProgressLineTests {
  static let job = """
    version: 1
    families: { exclude: [Noto Sans Bengali] }
    pairings:
      extra:
        - { heading: Noto Sans Hebrew, body: Cantarell }
        - { heading: D050000L, body: DejaVu Serif }
    png: { edge: 256 }
    catalogues: [{ file: catalogue.pdf }]

    """

  @Test(arguments: [UInt16(80), 40, 24])
  func theLineNeverReachesTheLastColumn(_ columns: UInt16) throws {
    let box = try CLISandbox("fonti-progress")
    try box.write("specimens.yaml", Self.job)
    // COLUMNS says something else: the terminal's own size wins.
    let (status, screen) = try box.runWithStderrOnTerminal(
      ["run", "--force", "-j", "2"], columns: columns, environment: ["COLUMNS": "200"])
    #expect(status == 0, "\(screen)")
    let progress = screen.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
      .map(String.init).filter { $0.hasPrefix("[") }
    #expect(!progress.isEmpty, "no progress line on the terminal:\n\(screen)")
    for line in progress {
      #expect(
        TerminalText.width(line) < Int(columns), "\(columns) columns: '\(line)' is too wide")
    }
  }
}
