import Foundation
import Testing

/// `--version` and `version`: the tool's version and the git commit it was built from, the same
/// line both ways (the app's About).
@Suite struct VersionTests {
  @Test func versionNamesTheToolAndItsBuild() throws {
    let box = try CLISandbox("fonti-version")
    let long = try box.run(["--version"])
    #expect(long.status == 0 && long.stderr.isEmpty, "\(long)")
    let line = long.stdout.trimmingCharacters(in: .newlines)
    #expect(long.stdout == line + "\n")
    let pattern = #/fonti-batch (\d+)\.(\d+)\.(\d+) \(build ([0-9a-f]{12}(-dirty)?|unknown)\)/#
    #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    let word = try box.run(["version"])
    #expect(word.status == 0 && word.stdout == long.stdout, "\(word)")
    // The version a run records is the one --version prints.
    try box.write("job.yaml", "version: 1\nfamilies: { include: [Cantarell] }\ncatalogues: []\n")
    let run = try box.run(["run", "-q", "--json", "job.yaml"])
    #expect(run.status == 0, "\(run)")
    let manifest = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let tool = try #require(manifest?["tool"] as? String)
    #expect(line.hasPrefix(tool + " (build "), "\(tool) vs \(line)")
  }

  /// Every process of a run (parent and workers) starts without qpdf and the crypto libraries
  /// behind it: only finishing a catalogue loads it. The dynamic loader lists what the tool
  /// links (`LD_TRACE_LOADED_OBJECTS`, what `ldd` asks for) without running it.
  @Test func qpdfIsNotLinked() throws {
    let box = try CLISandbox("fonti-linked")
    let listed = try box.run(
      [], executable: Repository.binary, environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
    #expect(listed.status == 0 && listed.stdout.contains("libc.so"), "\(listed)")
    #expect(!listed.stdout.contains("libqpdf"), "\(listed.stdout)")
    #expect(!listed.stdout.contains("libgnutls"), "\(listed.stdout)")
  }
}
