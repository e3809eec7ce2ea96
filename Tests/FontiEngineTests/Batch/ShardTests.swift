import Foundation
import TestSupport
import Testing

@testable import FontiDiff
@testable import FontiDraw
@testable import FontiEngine
@testable import FontiFonts
@testable import FontiModel

/// `run --shard K/N` as data: the shard syntax, `--shard auto`, the partition and the shard
/// manifest's reader (issue #15 item 3).
@Suite struct ShardTests {
  // MARK: K/N and auto

  @Test func shardsAreKOfN() {
    #expect(ShardSpec.parse("1/1") == ShardSpec(index: 1, total: 1))
    #expect(ShardSpec.parse("3/4") == ShardSpec(index: 3, total: 4))
    #expect(ShardSpec.parse("1000/1000") == ShardSpec(index: 1000, total: 1000))
    for bad in [
      "", "1", "0/3", "4/3", "1/0", "1/1001", "-1/3", "+1/3", "1/3/4", " 1/3", "1 /3", "a/b",
      "1.0/3", "٣/4", "1/", "/3", "99999/99999",
    ] {
      #expect(ShardSpec.parse(bad) == nil, "\(bad)")
    }
  }

  @Test func autoReadsGitLabThenKubernetes() throws {
    #expect(
      try ShardSpec.auto(environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"])
        == ShardSpec(index: 2, total: 3))
    // Kubernetes counts from 0.
    #expect(
      try ShardSpec.auto(environment: ["JOB_COMPLETION_INDEX": "0", "FONTI_SHARD_TOTAL": "3"])
        == ShardSpec(index: 1, total: 3))
    #expect(
      try ShardSpec.auto(environment: ["JOB_COMPLETION_INDEX": "2", "FONTI_SHARD_TOTAL": "3"])
        == ShardSpec(index: 3, total: 3))
    func message(_ environment: [String: String]) -> String {
      do {
        _ = try ShardSpec.auto(environment: environment)
        return ""
      } catch {
        return error.message
      }
    }
    let none = message(["PATH": "/bin"])
    for name in ["CI_NODE_INDEX", "CI_NODE_TOTAL", "JOB_COMPLETION_INDEX", "FONTI_SHARD_TOTAL"] {
      #expect(none.contains(name), "\(none)")
    }
    #expect(message(["CI_NODE_INDEX": "2"]).contains("CI_NODE_TOTAL is not"))
    #expect(message(["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"]).contains("are not a shard"))
    #expect(
      message(["JOB_COMPLETION_INDEX": "3", "FONTI_SHARD_TOTAL": "3"]).contains("are not a shard"))
    #expect(message(["JOB_COMPLETION_INDEX": "1"]).contains("FONTI_SHARD_TOTAL is not"))
  }

  // MARK: The partition

  func names(_ n: Int) -> [String] { (0..<n).map { "Family \($0)" } }

  @Test func everyFamilyLandsInExactlyOneShard() {
    let all = names(97)
    let weights = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1, Double($0 % 7)) })
    for total in [1, 2, 3, 5, 97, 200] {
      let assignment = ShardPartition.assign(all, weights: weights, total: total)
      #expect(Set(assignment.keys) == Set(all))
      #expect(assignment.values.allSatisfy { (1...total).contains($0) })
    }
  }

  @Test func thePartitionDoesNotDependOnTheOrderFontsAreListedIn() {
    let all = names(60)
    // Many equal weights: only the names can break the ties.
    let weights = Dictionary(
      uniqueKeysWithValues: all.enumerated().map { ($1, Double($0 % 3 + 1)) })
    let reference = ShardPartition.assign(all, weights: weights, total: 4)
    var generator = SeededGenerator(seed: 15)
    for _ in 0..<20 {
      let shuffled = all.shuffled(using: &generator)
      #expect(ShardPartition.assign(shuffled, weights: weights, total: 4) == reference)
    }
    // Without weights (all zero), too.
    let plain = ShardPartition.assign(all, weights: [:], total: 3)
    #expect(ShardPartition.assign(all.reversed(), weights: [:], total: 3) == plain)
  }

  @Test func shardsAreBalancedByWeight() {
    // One heavy family and many light ones: the heavy one is alone in its shard.
    var weights: [String: Double] = ["Heavy": 10]
    for name in names(10) { weights[name] = 1 }
    let assignment = ShardPartition.assign(Array(weights.keys), weights: weights, total: 2)
    let heavyShard = assignment["Heavy"]
    #expect(assignment.filter { $0.value == heavyShard }.count == 1)
    // In general no shard ends heavier than the lightest by more than the heaviest family.
    var generator = SeededGenerator(seed: 3)
    let all = names(200)
    let random = Dictionary(
      uniqueKeysWithValues: all.map { ($0, Double(Int.random(in: 1...1000, using: &generator))) })
    let spread = ShardPartition.assign(all, weights: random, total: 7)
    var load = [Double](repeating: 0, count: 8)
    for (name, shard) in spread { load[shard] += random[name] ?? 0 }
    let loads = load[1...]
    #expect((loads.max() ?? 0) - (loads.min() ?? 0) <= (random.values.max() ?? 0))
    // Round-robin by name would not be: the 7 heaviest all land apart here too.
    let heaviest = all.sorted { (random[$0] ?? 0) > (random[$1] ?? 0) }.prefix(7)
    #expect(Set(heaviest.compactMap { spread[$0] }).count == 7)
  }

  func family(_ name: String, _ file: String) -> FontFamily {
    FontFamily(
      name: name, faces: [FontFace(style: "Regular", weight: 80, slant: 0, file: file)])
  }

  @Test func weightsComeFromTimingsElseFromWhatIsDrawn() {
    let a = family("A", "/f/a.ttf")
    let b = family("B", "/f/b.ttf")
    let c = family("C", "/f/c.ttf")
    // Timings: a family they do not know weighs their median.
    let timed = ShardPartition.weights(
      families: [a, b, c], pairings: [], timings: ["A": 2, "B": 4, "Gone": 9])
    #expect(timed.source == .timings)
    #expect(timed.weights == ["A": 2, "B": 4, "C": 4])
    // No timings: what is drawn. A specimen, a tenth for each face beyond the first, 0.7 for
    // each pairing sheet the family heads; the size of its files does not count.
    let fourFaces = FontFamily(
      name: "D",
      faces: ["Regular", "Bold", "Italic", "Bold Italic"].map {
        FontFace(style: $0, weight: 80, slant: 0, file: "/f/huge-\($0).ttf")
      })
    let drawn = ShardPartition.weights(
      families: [a, b, c, fourFaces], pairings: [(heading: c, body: b)], timings: nil)
    #expect(drawn.source == .drawnWork)
    let expected: [String: Double] = ["A": 1, "B": 1, "C": 1.7, "D": 1.3]
    for (name, weight) in expected {
      #expect(abs((drawn.weights[name] ?? 0) - weight) < 1e-9, "\(name): \(drawn.weights)")
    }
    // A family with large files (DejaVu Sans) no longer fills a shard alone: 1 + 21 families
    // over 3 shards split 7 / 7 / 8, not 1 / 10 / 11.
    let big = FontFamily(
      name: "DejaVu Sans",
      faces: (0..<9).map { FontFace(style: "Face \($0)", weight: 80, slant: 0, file: "/f/d\($0)") })
    let small = (0..<21).map { family("Family \($0)", "/f/\($0).ttf") }
    let weights = ShardPartition.weights(families: [big] + small, pairings: [], timings: nil)
    let shards = ShardPartition.assign(
      ([big] + small).map(\.name), weights: weights.weights, total: 3)
    let sizes = (1...3).map { k in shards.values.filter { $0 == k }.count }.sorted()
    #expect(sizes == [7, 7, 8], "\(sizes)")
  }

  @Test func timingsAreReadFromARunManifest() {
    var manifest = RunManifest(
      title: "t", families: [], pairings: [], catalogues: [],
      counts: .init(families: 0, rendered: 0, skipped: 0, failed: 0, warnings: 0),
      durationSeconds: 0)
    #expect(ShardPartition.timings(in: manifest) == nil)
    var f = RunManifest.Family(
      family: "A", slug: "a", custom: false, saved: false, styles: [], bold: false,
      italic: false, missingGlyphs: 0, warnings: [], files: [], error: nil)
    f.seconds = 0.5
    manifest.families = [f]
    var p = RunManifest.Pairing(
      heading: "A", body: "B", file: "pairings/a+b.png", sha256: "x", inputs: nil)
    p.seconds = 0.25
    manifest.pairings = [p]
    #expect(ShardPartition.timings(in: manifest) == ["A": 0.75])
  }

  /// A pairing sheet goes with its heading family: the shard that draws the heading's
  /// specimen draws the sheet.
  @Test func aPairingSheetGoesWithItsHeadingFamily() {
    let families = (0..<12).map { family("Family \($0)", "/f/\($0).ttf") }
    let pairings = (0..<11).map {
      FamilyPairing(heading: families[$0], body: families[$0 + 1], reason: "r")
    }
    var job = Job(path: "job.yaml", directory: "/w", output: "/w/out")
    job.catalogues = []
    let inputs = PlanInputs(families: families, pairings: pairings)
    let plan = BatchPlan.make(
      job: job, output: "/w/out", inputs: inputs, previous: nil, force: false,
      stamp: { "\($0)|1|1" }, verify: { _, _ in nil })
    var drawn: [String: Int] = [:]
    var sheets: [String: Int] = [:]
    for k in 1...3 {
      let spec = ShardSpec(index: k, total: 3)
      guard let spec else { continue }
      let part = ShardPart.make(spec, plan: plan, inputs: inputs, timings: nil)
      let mine = part.restrict(plan, previous: nil, job: job)
      #expect(mine.catalogues.isEmpty)
      for s in mine.specimens { drawn[s.family.name, default: 0] += k }
      for p in mine.pairings { sheets[p.heading.name] = k }
    }
    #expect(drawn.count == 12)
    for p in pairings {
      #expect(sheets[p.heading.name] == drawn[p.heading.name], "\(p.heading.name)")
    }
  }

  // MARK: shard.json, hostile

  func manifestJSON(shard: String = "1", shards: String = "2", file: String = "specimens/a.png")
    -> Data
  {
    Data(
      """
      {"kind": "fonti-batch shard", "version": 1, "shard": \(shard), "shards": \(shards),
       "tool": "fonti-batch 1", "job": {"path": "j.yaml", "directory": "/w", "text": "version: 1\\n",
       "fingerprint": "x"}, "selection": ["A"], "saved": [], "fonts": {}, "weights": "timings", "partition": "p",
       "families": [{"family": "A", "slug": "a", "custom": false, "saved": false, "styles": [],
         "bold": false, "italic": false, "missingGlyphs": 0, "warnings": [],
         "files": [{"path": "\(file)", "sha256": "s"}]}],
       "pairings": []}
      """.utf8)
  }

  @Test func theShardManifestReaderRefusesWhatIsNoShard() {
    func reason(_ data: Data) -> String? {
      if case .failure(let e) = ShardManifest.decode(data) { return e.reason }
      return nil
    }
    #expect(reason(manifestJSON()) == nil)
    #expect(reason(Data("[]".utf8))?.contains("not a JSON object") == true)
    #expect(reason(Data(#"{"version": 1}"#.utf8))?.contains("fonti-batch shard") == true)
    #expect(reason(manifestJSON(shard: "3", shards: "2"))?.contains("not K of N") == true)
    #expect(reason(manifestJSON(shard: "1", shards: "1001"))?.contains("not K of N") == true)
    #expect(reason(manifestJSON(shard: "\"1\""))?.contains("shard") == true)
    // A key given twice: each JSON reader of Foundation's keeps a different one (found by the
    // shard-manifest fuzz target).
    for (first, second) in [
      ("fo'nti-batch shard", "fonti-batch shard"), ("fonti-batch shard", "x"),
    ] {
      var twice = String(decoding: manifestJSON(), as: UTF8.self)
      twice = twice.replacingOccurrences(
        of: #""kind": "fonti-batch shard","#,
        with: #""kind": "\#(first)", "kind": "\#(second)","#)
      #expect(reason(Data(twice.utf8)) != nil, "\(first), \(second)")
    }
    for (first, second) in [("2", "1"), ("1", "2")] {
      var twice = String(decoding: manifestJSON(), as: UTF8.self)
      twice = twice.replacingOccurrences(
        of: #""version": 1,"#, with: #""version": \#(first), "version": \#(second),"#)
      #expect(reason(Data(twice.utf8)) != nil, "version \(first), \(second)")
    }
    for escaping in [
      "../a.png", "specimens/../../a.png", "/etc/a.png", "specimens/.a.png", "catalogue.pdf",
      "specimens/a.pdf", "pairings/../specimens/a.png", "specimens//a.png",
    ] {
      #expect(
        reason(manifestJSON(file: escaping))?.contains("which is not a specimen") == true,
        "\(escaping)")
    }
  }
}
