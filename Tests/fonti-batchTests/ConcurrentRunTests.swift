import Foundation
import Testing

@testable import FontiEngine
@testable import FontiModel

#if canImport(Glibc)
  import Glibc
#endif

/// Several `run`s over one output folder: one writes, the others are turned away clearly
/// (exit 2), and manifest.json is always one whole, valid manifest.
@Suite(.serialized) struct ConcurrentRunTests {
  static let job = """
    version: 1
    families:
      include: ["*"]
    png:
      edge: 512
    catalogues: []

    """

  static let lockMessage = "another fonti-batch run is writing to"

  @Test func aRunWhileTheOutputIsLockedIsRefusedAndWritesNothing() throws {
    let box = try CLISandbox("fonti-concurrent")
    try box.write("specimens.yaml", Self.job)
    try FileManager.default.createDirectory(
      atPath: box.path("output"), withIntermediateDirectories: true)
    // Hold the lock ourselves, exactly as a run in progress does.
    let fd = open(box.path("output/.fonti-batch.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    #expect(fd >= 0)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)

    let refused = try box.run(["run", "-q"])
    #expect(refused.status == 2, "\(refused)")
    #expect(refused.stderr.hasPrefix("fonti-batch: error: \(Self.lockMessage) '"), "\(refused)")
    #expect(refused.stderr.contains("wait for it to finish"))
    #expect(box.list(box.path("output")) == [".fonti-batch.lock"])

    flock(fd, LOCK_UN)
    let after = try box.run(["run", "-q"])
    #expect(after.status == 0, "\(after)")
  }

  @Test func fourRunsAtOnceLeaveOneWholeManifest() throws {
    let box = try CLISandbox("fonti-concurrent")
    try box.write("specimens.yaml", Self.job)
    for round in 0..<3 {
      let running = try (0..<4).map { _ in try box.start(["run", "-q", "--force", "-j", "1"]) }
      let results = try running.map { try $0.finish() }
      for r in results {
        #expect(!r.signalled, "\(r)")
        #expect(r.status == 0 || r.status == 2, "round \(round): \(r)")
        if r.status == 2 {
          #expect(r.stderr.contains(Self.lockMessage), "round \(round): \(r)")
        }
      }
      #expect(results.contains { $0.status == 0 }, "round \(round): no run got through")
      let data = try #require(box.read("output/manifest.json"))
      let manifest = try #require(
        try JSONSerialization.jsonObject(with: data) as? [String: Any], "round \(round)")
      let counts = try #require(manifest["counts"] as? [String: Int])
      #expect(counts["families"] == 5 && counts["failed"] == 0, "round \(round): \(counts)")
      let families = try #require(manifest["families"] as? [[String: Any]])
      #expect(families.count == 5)
      #expect(
        !box.list(box.path("output")).contains { $0.hasPrefix(".fonti-tmp-") },
        "round \(round)")
      #expect(
        !box.list(box.path("output/specimens")).contains { $0.hasPrefix(".fonti-tmp-") },
        "round \(round)")
    }
  }

  /// A run reads the folder's previous manifest while its fonts load, before it takes the
  /// folder's lock. A run that finished in the folder meanwhile left another manifest: the run
  /// plans again from that one, and so removes what it no longer selects of what the other
  /// drew (from the first manifest it read, there was nothing to remove).
  @Test func aRunPlansFromTheManifestARunFinishedMeanwhileLeft() throws {
    let box = try CLISandbox("fonti-concurrent")
    func job(_ families: [String]) -> String {
      """
      version: 1
      output: \(box.path("output"))
      families:
        include: [\(families.map { "\"\($0)\"" }.joined(separator: ", "))]
      png:
        edge: 256
      catalogues: []

      """
    }
    let narrow = try box.write("narrow.yaml", job(["Cantarell"]))
    try box.write("wide.yaml", job(["Cantarell", "DejaVu Serif"]))
    var request = JobRun.Request(job: narrow)
    request.library = nil
    request.configFile = Repository.fontsConf
    request.workers = box.workers
    request.jobs = 1
    let starting = try JobRun(request)  // reads the folder: no manifest yet

    let wide = try box.run(["run", "-q", "wide.yaml"])
    #expect(wide.status == 0, "\(wide)")
    let serif = box.path("output/specimens/dejavu-serif.png")
    #expect(FileManager.default.fileExists(atPath: serif))

    guard case .ran(let report) = try starting.run() else {
      Issue.record("the run did not go through")
      return
    }
    #expect(report.removed.contains("specimens/dejavu-serif.png"), "\(report.removed)")
    #expect(!FileManager.default.fileExists(atPath: serif))
    let manifest = try #require(box.read("output/manifest.json").flatMap(RunManifest.decode))
    #expect(manifest.families.map(\.family) == ["Cantarell"])
  }
}
