import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `run --shard K/N` on several "CI machines" (folders) and `merge` (issue #15 item 3): the
/// merged output is the unsharded run's, byte for byte; what does not fit together is refused
/// with nothing written.
@Suite(.serialized) struct ShardCommandTests {
  /// Four families (Cantarell, D050000L, DejaVu Serif, Noto Sans Hebrew), a pairing sheet
  /// (Cantarell + DejaVu Serif), catalogue.pdf and saved.pdf, DejaVu Serif saved.
  static let job = RunOutputsTests.job

  static let epoch = "1700000000"

  func sandbox(_ job: String = ShardCommandTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-shards")
    box.environment["SOURCE_DATE_EPOCH"] = ShardCommandTests.epoch
    try box.write("specimens.yaml", job)
    return box
  }

  /// Every file below `folder`, relative, sorted.
  func files(_ box: CLISandbox, _ folder: String) -> [String] {
    let root = box.path(folder)
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var out: [String] = []
    while let next = walker.nextObject() as? String {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + next, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        out.append(next)
      }
    }
    return out.sorted()
  }

  /// A manifest without what depends on the clock: the run's duration, each file's time and
  /// each item's drawing seconds.
  func withoutTimings(_ data: Data?) throws -> NSDictionary {
    func strip(_ value: Any) -> Any {
      if let object = value as? [String: Any] {
        var out: [String: Any] = [:]
        for (key, v) in object where !["durationSeconds", "mtimeNs", "seconds"].contains(key) {
          out[key] = strip(v)
        }
        return out
      }
      if let list = value as? [Any] { return list.map(strip) }
      return value
    }
    let object = try JSONSerialization.jsonObject(with: try #require(data))
    return try #require(strip(object) as? NSDictionary)
  }

  func runShards(_ box: CLISandbox, _ total: Int, prefix: String) throws -> [String] {
    var folders: [String] = []
    for k in 1...total {
      let folder = "\(prefix)-\(k)"
      let result = try box.run(["run", "-q", "-o", folder, "--shard", "\(k)/\(total)"])
      #expect(result.status == 0, "\(result)")
      folders.append(folder)
    }
    return folders
  }

  @Test func mergedShardsAreByteForByteOneRun() throws {
    let box = try sandbox()
    // The merge writes elsewhere than the run did: nothing may depend on the folder's place.
    let one = try box.run(["run", "-q", "-o", "unsharded"])
    #expect(one.status == 0, "\(one)")
    let expected = files(box, "unsharded")
    #expect(expected.contains("catalogue.pdf") && expected.contains("saved.pdf"))
    #expect(expected.contains("pairings/cantarell+dejavu-serif.png"))

    for total in 1...3 {
      let folders = try runShards(box, total, prefix: "shard\(total)")
      // A shard holds its part and shard.json: no catalogue, no favourites.
      var drawn: [String] = []
      for folder in folders {
        let here = files(box, folder)
        #expect(here.contains("shard.json"))
        #expect(!here.contains { $0.hasSuffix(".pdf") || $0 == "favourites.json" }, "\(here)")
        drawn += here.filter { $0.hasSuffix(".png") }
      }
      // Every specimen and sheet in exactly one shard.
      #expect(drawn.sorted() == expected.filter { $0.hasSuffix(".png") }, "\(total)")

      // Merged in another order than 1…N: the order of the folders does not matter.
      let output = "merged-\(total)/output"
      let merged = try box.run(["merge", "-q"] + folders.reversed() + ["-o", output])
      #expect(merged.status == 0, "\(merged)")
      #expect(files(box, output) == expected, "\(total)")
      for file in expected where file != "manifest.json" {
        #expect(box.read(output + "/" + file) == box.read("unsharded/" + file), "\(total): \(file)")
      }
      #expect(
        try withoutTimings(box.read(output + "/manifest.json"))
          == withoutTimings(box.read("unsharded/manifest.json")), "\(total)")
      try FileManager.default.removeItem(atPath: box.path("merged-\(total)"))
    }
  }

  @Test func autoReadsGitLabsAndKubernetesVariables() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q", "-o", "explicit", "--shard", "2/3"]).status == 0)
    func shard(_ folder: String) throws -> [String: Any] {
      let data = try #require(box.read(folder + "/shard.json"))
      return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
    let explicit = try shard("explicit")
    #expect(explicit["shard"] as? Int == 2 && explicit["shards"] as? Int == 3)

    for (folder, variables) in [
      ("gitlab", ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]),
      ("kubernetes", ["JOB_COMPLETION_INDEX": "1", "FONTI_SHARD_TOTAL": "3"]),
    ] {
      let env = box.environment
      defer { box.environment = env }
      box.environment.merge(variables) { _, new in new }
      let result = try box.run(["run", "-q", "-o", folder, "--shard", "auto"])
      #expect(result.status == 0, "\(result)")
      let auto = try shard(folder)
      #expect(auto["shard"] as? Int == 2 && auto["shards"] as? Int == 3, "\(folder)")
      #expect(
        files(box, folder).filter { $0.hasSuffix(".png") }
          == files(box, "explicit").filter { $0.hasSuffix(".png") })
    }

    let none = try box.run(["run", "-o", "none", "--shard", "auto"])
    #expect(none.status == 2, "\(none)")
    for name in ["CI_NODE_INDEX", "CI_NODE_TOTAL", "JOB_COMPLETION_INDEX", "FONTI_SHARD_TOTAL"] {
      #expect(none.stderr.contains(name), "\(none)")
    }
    #expect(!FileManager.default.fileExists(atPath: box.path("none")))

    for bad in ["0/3", "4/3", "1/1001", "x", "1/2/3", ""] {
      let result = try box.run(["run", "-o", "bad", "--shard", bad])
      #expect(result.status == 2, "\(bad): \(result)")
      #expect(result.stderr.contains("--shard"), "\(bad): \(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: box.path("bad")))
  }

  @Test func shardWeightsBalanceByAPreviousRunsTimings() throws {
    let box = try sandbox()
    #expect(try box.run(["run", "-q"]).status == 0)
    let manifest = try #require(box.read("output/manifest.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: manifest) as? [String: Any])
    let families = try #require(object["families"] as? [[String: Any]])
    #expect(families.allSatisfy { ($0["seconds"] as? Double).map { $0 > 0 } ?? false })
    // An unchanged re-run keeps them: the manifest a later shard run weighs by is the last one.
    #expect(try box.run(["run", "-q"]).status == 0)
    let again = try #require(box.read("output/manifest.json"))
    let kept = try #require(try JSONSerialization.jsonObject(with: again) as? [String: Any])
    let keptFamilies = try #require(kept["families"] as? [[String: Any]])
    #expect(
      keptFamilies.map { $0["seconds"] as? Double } == families.map { $0["seconds"] as? Double })

    // Made-up timings: Noto Sans Hebrew weighs as much as the three others together.
    var weighted = object
    weighted["families"] = families.map { f -> [String: Any] in
      var f = f
      f["seconds"] = f["family"] as? String == "Noto Sans Hebrew" ? 30.0 : 10.0
      return f
    }
    weighted["pairings"] = []
    try box.write(
      "weights.json", try JSONSerialization.data(withJSONObject: weighted, options: [.sortedKeys]))
    let folders = ["w-1", "w-2"]
    for (k, folder) in folders.enumerated() {
      let result = try box.run([
        "run", "-q", "-o", folder, "--shard", "\(k + 1)/2", "--shard-weights", "weights.json",
      ])
      #expect(result.status == 0, "\(result)")
    }
    let parts = folders.map { files(box, $0 + "/specimens") }
    #expect(parts.contains(["noto-sans-hebrew.png"]), "\(parts)")
    let recorded = try #require(box.read("w-1/shard.json"))
    #expect(String(decoding: recorded, as: UTF8.self).contains(#""weights" : "timings""#))

    // Both shards balanced alike merge; a shard balanced otherwise (no weights: font sizes)
    // does not fit with them.
    #expect(try box.run(["merge", "-q", "w-1", "w-2", "-o", "weighted"]).status == 0)
    #expect(try box.run(["run", "-q", "-o", "sized-2", "--shard", "2/2"]).status == 0)
    let mixed = try box.run(["merge", "w-1", "sized-2", "-o", "mixed"])
    #expect(mixed.status == 2, "\(mixed)")
    #expect(mixed.stderr.contains("split the job otherwise than shard 1/2"), "\(mixed)")
    #expect(!FileManager.default.fileExists(atPath: box.path("mixed")))

    // A hostile weights file: a clear error, exit 2, nothing written.
    try box.write("bad.json", "{\"families\": 3}")
    for file in ["bad.json", "missing.json"] {
      let result = try box.run([
        "run", "-o", "never", "--shard", "1/2", "--shard-weights", file,
      ])
      #expect(result.status == 2, "\(result)")
      #expect(result.stderr.contains(file) && result.stderr.contains("--shard-weights"))
    }
    #expect(!FileManager.default.fileExists(atPath: box.path("never")))
  }

  // MARK: Refusals

  /// `merge ARGS -o merged` refused with exit 2, each message on stderr, nothing written.
  func expectRefused(
    _ box: CLISandbox, _ folders: [String], _ messages: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try box.run(["merge"] + folders + ["-o", "merged"])
    #expect(result.status == 2, "\(result)", sourceLocation: sourceLocation)
    for message in messages {
      #expect(
        result.stderr.contains(message), "\(message)\n\(result)", sourceLocation: sourceLocation)
    }
    #expect(
      !FileManager.default.fileExists(atPath: box.path("merged")), sourceLocation: sourceLocation)
  }

  func editShard(_ box: CLISandbox, _ folder: String, _ edit: (inout [String: Any]) -> Void)
    throws
  {
    let data = try #require(box.read(folder + "/shard.json"))
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    edit(&object)
    try box.write(folder + "/shard.json", try JSONSerialization.data(withJSONObject: object))
  }

  @Test func mergeRefusesShardsThatDoNotFitTogether() throws {
    let box = try sandbox()
    let folders = try runShards(box, 3, prefix: "s")
    try FileManager.default.createDirectory(
      atPath: box.path("empty"), withIntermediateDirectories: true)
    #expect(try box.run(["run", "-q", "-o", "plain"]).status == 0)

    // Not a shard; each problem named at once.
    try expectRefused(
      box, folders + ["empty", "plain", "nowhere", "specimens.yaml"],
      [
        "'empty' is not a shard folder: it has no shard.json",
        "'plain' is not a shard folder: it has no shard.json",
        "'nowhere' is not a shard folder: no such folder",
        "'specimens.yaml' is not a shard folder: it is a file",
      ])
    // Missing and repeated shards.
    try expectRefused(box, ["s-1", "s-3"], ["shard 2/3 is missing"])
    // A shard folder that cannot be read is named, and may be the missing shard.
    try FileManager.default.createDirectory(
      atPath: box.path("broken"), withIntermediateDirectories: true)
    try box.write("broken/shard.json", Data("garbage".utf8))
    let broken = try box.run(["merge", "s-1", "broken", "s-3", "-o", "merged"])
    #expect(broken.status == 2, "\(broken)")
    #expect(broken.stderr.contains("'broken/shard.json' is not a shard manifest"), "\(broken)")
    #expect(
      broken.stderr.contains(
        "shard 2/3 is missing (or is among the folders that cannot be read)"), "\(broken)")
    try FileManager.default.copyItem(atPath: box.path("s-2"), toPath: box.path("s-2-again"))
    try expectRefused(
      box, folders + ["s-2-again"], ["shard 2/3 is given twice: 's-2' and 's-2-again'"])
    try expectRefused(box, folders + ["s-2"], ["'s-2' is given twice"])
    // Said once, not again for each of its files.
    for repeated in ["s-2", "s-2-again"] {
      let result = try box.run(["merge"] + folders + [repeated, "-o", "merged"])
      #expect(result.status == 2 && !result.stderr.contains("drawn by two shards"), "\(result)")
    }
    // A shard whose files are gone: the first few named, the rest counted.
    #expect(try box.run(["run", "-q", "-o", "whole", "--shard", "1/1"]).status == 0)
    try FileManager.default.removeItem(atPath: box.path("whole/specimens"))
    try FileManager.default.removeItem(atPath: box.path("whole/thumbs"))
    try expectRefused(
      box, ["whole"],
      ["shard 1/1 ('whole'): 'specimens/cantarell.png' is missing", "3 more files like these"])
    let gone = try box.run(["merge", "whole", "-o", "merged"])
    #expect(gone.stderr.components(separatedBy: "is missing").count - 1 == 5, "\(gone)")
    // Parts of another split.
    #expect(try box.run(["run", "-q", "-o", "half", "--shard", "1/2"]).status == 0)
    try expectRefused(box, ["half", "s-2", "s-3"], ["the shards are parts of different splits"])

    // Another job (one more text line), another tool.
    try box.write("other.yaml", ShardCommandTests.job + "texts: [Another line]\n")
    #expect(
      try box.run(["run", "-q", "other.yaml", "-o", "other-2", "--shard", "2/3"]).status == 0)
    try expectRefused(
      box, ["s-1", "other-2", "s-3"], ["shard 2/3 ('other-2') ran another job than shard 1/3"])
    try FileManager.default.copyItem(atPath: box.path("s-3"), toPath: box.path("old-3"))
    try editShard(box, "old-3") { $0["tool"] = "fonti-batch 0.1" }
    try expectRefused(
      box, ["s-1", "s-2", "old-3"], ["shard 3/3 ('old-3') was drawn by fonti-batch 0.1"])

    // Another SOURCE_DATE_EPOCH.
    box.environment["SOURCE_DATE_EPOCH"] = "1600000000"
    try expectRefused(box, folders, ["SOURCE_DATE_EPOCH is 1600000000 here"])
    box.environment["SOURCE_DATE_EPOCH"] = ShardCommandTests.epoch

    // Nothing was refused for the right shards.
    #expect(try box.run(["merge", "-q"] + folders + ["-o", "fine"]).status == 0)
  }

  @Test func mergeReadsNothingOutsideTheShards() throws {
    let box = try sandbox()
    let folders = try runShards(box, 2, prefix: "s")
    let shard = try #require(
      folders.first { !files(box, $0 + "/specimens").isEmpty })
    let specimen = try #require(files(box, shard + "/specimens").first)

    // A path in shard.json that leaves the folder: the manifest is refused.
    try FileManager.default.copyItem(atPath: box.path(shard), toPath: box.path("escape"))
    try box.write("secret.png", Data([1, 2, 3]))
    try editShard(box, "escape") { object in
      guard var families = object["families"] as? [[String: Any]],
        var files = families.first?["files"] as? [[String: Any]]
      else { return }
      files[0]["path"] = "../secret.png"
      families[0]["files"] = files
      object["families"] = families
    }
    let others = folders.filter { $0 != shard }
    try expectRefused(
      box, others + ["escape"],
      ["is not a shard manifest", "'../secret.png', which is not a specimen"])

    // A link that leads out of the folder: refused, whatever it points at.
    try FileManager.default.copyItem(atPath: box.path(shard), toPath: box.path("linked"))
    try FileManager.default.createDirectory(
      atPath: box.path("outside"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: box.path(shard + "/specimens"), toPath: box.path("outside/specimens"))
    try FileManager.default.removeItem(atPath: box.path("linked/specimens"))
    #expect(symlink(box.path("outside/specimens"), box.path("linked/specimens")) == 0)
    try expectRefused(box, others + ["linked"], ["leaves the shard folder"])

    // A file that is not what the shard recorded.
    try FileManager.default.copyItem(atPath: box.path(shard), toPath: box.path("changed"))
    var bytes = try #require(box.read("changed/specimens/" + specimen))
    bytes[bytes.count / 2] ^= 0xFF
    try box.write("changed/specimens/" + specimen, bytes)
    try expectRefused(box, others + ["changed"], ["its checksum differs"])
  }

  /// A custom font is known by its bytes: a checkout (new times) changes nothing; other bytes
  /// under the same name are other fonts, and merge refuses them.
  @Test func customFontsAreKnownByTheirContent() throws {
    let job = """
      version: 1
      fonts: [fonts]
      families:
        include: ["Brandface", "DejaVu Serif"]
      png: { edge: 256 }
      catalogues: [{ file: catalogue.pdf }]
      pairings: { curated: false }

      """
    let box = try sandbox(job)
    let cantarell = try Repository.font("Cantarell-Regular.otf")
    let brandface = try FontBytes.renamingFamily(cantarell, from: "Cantarell", to: "Brandface")
    let font = try box.write("fonts/Brandface.otf", brandface)
    #expect(try box.run(["run", "-q"]).status == 0)

    // Checked out anew: same bytes, new time. Nothing is out of date.
    var times = [
      timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0),
    ]
    #expect(utimensat(AT_FDCWD, font, &times, 0) == 0)
    let again = try box.run(["run", "--dry-run"])
    #expect(again.stderr.contains("everything is up to date"), "\(again)")
    // New bytes: drawn again.
    let bold = try Repository.font("Cantarell-Bold.otf")
    try box.write(
      "fonts/Brandface.otf", try FontBytes.renamingFamily(bold, from: "Cantarell", to: "Brandface"))
    let changed = try box.run(["run", "--dry-run"])
    #expect(changed.stdout.contains("render      specimens/brandface.png"), "\(changed)")

    // Shards drawn with one Brandface cannot be merged where Brandface is another font.
    try box.write("fonts/Brandface.otf", brandface)
    let folders = try runShards(box, 2, prefix: "s")
    #expect(try box.run(["merge", "-q"] + folders + ["-o", "fine"]).status == 0)
    try box.write(
      "fonts/Brandface.otf", try FontBytes.renamingFamily(bold, from: "Cantarell", to: "Brandface"))
    try expectRefused(box, folders, ["drew with other fonts than this machine has: Brandface"])
  }
}
