import Dispatch
import Foundation
import TestSupport
import Testing

@testable import FontiEngine
@testable import FontiModel
@testable import FontiSupport

/// `FavouritesManifest` and `FavouritesStore`: order, uniqueness, idempotence, and refusing every
/// file that is not a version-1 favourites manifest without touching it.
@Suite struct FavouritesStoreTests {
  static let t1 = Date(timeIntervalSince1970: 1_764_410_640)  // 2025-11-29T10:04:00Z
  static let t2 = t1.addingTimeInterval(60)
  static let t3 = t1.addingTimeInterval(120)

  func addition(_ family: String, custom: Bool = false) -> FavouritesManifest.Addition {
    FavouritesManifest.Addition(family: family, custom: custom)
  }

  @Test func missingFileIsAnEmptyListAndIsNotCreated() throws {
    let dir = try TemporaryDirectory()
    let store = FavouritesStore(path: dir.file("sub/favourites.json"))
    #expect(try store.load() == FavouritesManifest())
    #expect(try store.remove(["Inter"]).isEmpty)
    #expect(try store.clear() == 0)
    // Nothing to write: neither the folder nor a lock file appears.
    #expect(!FileManager.default.fileExists(atPath: dir.file("sub")))
  }

  /// Most recent first; of a batch saved in one second, the last named is the newest.
  @Test func mostRecentFirstAndTheLastOfABatchIsNewest() throws {
    let dir = try TemporaryDirectory()
    let store = FavouritesStore(path: dir.file("out/favourites.json"))
    try store.add([addition("Cantarell")], now: Self.t1)
    try store.add([addition("DejaVu Serif")], now: Self.t2)
    try store.add([addition("Noto Sans Hebrew"), addition("D050000L", custom: true)], now: Self.t3)
    let manifest = try store.load()
    #expect(manifest.families == ["D050000L", "Noto Sans Hebrew", "DejaVu Serif", "Cantarell"])
    #expect(manifest.entry(for: "d050000l")?.custom == true)
    #expect(manifest.entry(for: "Cantarell")?.savedAt == Self.t1)
  }

  @Test func reAddingKeepsTheFirstSavedAtAndLeavesTheFileUntouched() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("favourites.json")
    let store = FavouritesStore(path: path)
    try store.add([addition("DejaVu Serif")], now: Self.t1)
    try store.add([addition("Cantarell")], now: Self.t2)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
    let result = try store.add([addition("DejaVu Serif")], now: Self.t3)
    #expect(result.added.isEmpty)
    #expect(result.alreadySaved.map(\.savedAt) == [Self.t1])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let after = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
    #expect(modified as? Date == after as? Date)
    #expect(try store.load().families == ["Cantarell", "DejaVu Serif"])
  }

  @Test func namesAreComparedCaseInsensitivelyAndStoredAsGiven() throws {
    let dir = try TemporaryDirectory()
    let store = FavouritesStore(path: dir.file("favourites.json"))
    try store.add([addition("dejavu serif")], now: Self.t1)
    let result = try store.add(
      [addition("DejaVu Serif"), addition("DEJAVU SERIF"), addition("DejaVu Serif")], now: Self.t2)
    #expect(result.added.isEmpty)
    #expect(result.alreadySaved.count == 1)
    let manifest = try store.load()
    #expect(manifest.saved.count == 1)
    #expect(manifest.families == ["DejaVu Serif"])
    #expect(manifest.saved.first?.savedAt == Self.t1)
    #expect(manifest.isSaved("DEJAVU serif"))
    #expect(!manifest.isSaved("DejaVu Sans"))
    // One call naming a new family twice saves it once.
    let twice = try store.add([addition("Cantarell"), addition("cantarell")], now: Self.t3)
    #expect(twice.added.map(\.family) == ["cantarell"])
    #expect(try store.load().saved.count == 2)
  }

  @Test func exactFileShape() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("favourites.json")
    let store = FavouritesStore(path: path)
    try store.add(
      [FavouritesManifest.Addition(family: "Inter", specimen: "specimens/inter.png")], now: Self.t1)
    try store.add([addition("My Font", custom: true)], now: Self.t2)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      text == """
        {
          "saved" : [
            {
              "custom" : true,
              "family" : "My Font",
              "savedAt" : "2025-11-29T10:05:00Z"
            },
            {
              "custom" : false,
              "family" : "Inter",
              "savedAt" : "2025-11-29T10:04:00Z",
              "specimen" : "specimens/inter.png"
            }
          ],
          "version" : 1
        }

        """)
    // Round trip.
    let decoded = try JSONDecoder().decode(FavouritesManifest.self, from: Data(text.utf8))
    #expect(decoded == (try store.load()))
    #expect(decoded.encoded() == Data(text.utf8))
  }

  @Test func conveniences() throws {
    let dir = try TemporaryDirectory()
    var job = Job(path: nil, directory: dir.path, output: dir.file("out/"))
    job.manifest = Located("saved/favs.json")
    let store = FavouritesStore(job: job)
    #expect(store.path == dir.file("out/saved/favs.json"))
    try store.add(
      families: ["My Font"], custom: true, specimen: "specimens/my-font.png", now: Self.t1)
    try store.add(families: [FontFamily(name: "Cantarell", faces: [])], now: Self.t2)
    let entries = try store.entries()
    #expect(entries.map(\.family) == ["Cantarell", "My Font"])
    #expect(entries.map(\.custom) == [false, true])
    #expect(entries.last?.specimen == "specimens/my-font.png")
    #expect(try store.isSaved("my font"))
  }

  @Test func removeAndClear() throws {
    let dir = try TemporaryDirectory()
    let store = FavouritesStore(path: dir.file("favourites.json"))
    try store.add([addition("A"), addition("B"), addition("C")], now: Self.t1)
    let removed = try store.remove(["b", "Nope"])
    #expect(removed.map(\.family) == ["B"])
    #expect(try store.load().families == ["C", "A"])
    #expect(try store.clear() == 2)
    #expect(try store.load().isEmpty)
    // Cleared means an empty list, not a missing file.
    #expect(FileManager.default.fileExists(atPath: dir.file("favourites.json")))
    #expect(try store.clear() == 0)
  }

  @Test func heartRecordsSpecimens() throws {
    let dir = try TemporaryDirectory()
    let store = FavouritesStore(path: dir.file("favourites.json"))
    try store.add([addition("Cantarell")], now: Self.t1)
    let serif = FontFamily(name: "DejaVu Serif", faces: [], isCustom: false)
    let manifest = try store.heart(
      [serif],
      specimens: [
        "dejavu serif": "specimens/dejavu-serif.png", "CANTARELL": "specimens/cantarell.png",
        "Unsaved": "specimens/unsaved.png", "Evil": "../evil.png",
      ], now: Self.t2)
    #expect(manifest.families == ["DejaVu Serif", "Cantarell"])
    #expect(manifest.entry(for: "DejaVu Serif")?.specimen == "specimens/dejavu-serif.png")
    #expect(manifest.entry(for: "Cantarell")?.specimen == "specimens/cantarell.png")
    #expect(manifest.entry(for: "Cantarell")?.savedAt == Self.t1)
    #expect(try store.load() == manifest)
  }

  @Test func specimenPathsThatLeaveTheOutputAreIgnoredOnAdd() throws {
    var manifest = FavouritesManifest()
    manifest.add(
      [
        FavouritesManifest.Addition(family: "A", specimen: "/etc/passwd"),
        FavouritesManifest.Addition(family: "B", specimen: "specimens/../../b.png"),
      ], at: Self.t1)
    #expect(manifest.saved.allSatisfy { $0.specimen == nil })
  }

  // MARK: Refusals

  static let badFiles: [(name: String, text: String, message: String)] = [
    ("empty", "", "is empty"),
    ("blank", "  \n", "is empty"),
    ("truncated", "{\n  \"saved\" : [\n    {\n      \"custom\" : fal", "ends early"),
    ("not JSON", "family: Inter\n", "not valid JSON"),
    ("binary", "\u{00}\u{01}PK\u{03}\u{04}", "not valid JSON"),
    ("array", "[]", "expected a JSON object"),
    ("no version", "{\"saved\": []}", "'version' is missing"),
    ("no saved", "{\"version\": 1}", "'saved' is missing"),
    ("saved not a list", "{\"version\": 1, \"saved\": \"Inter\"}", "'saved' should be a list"),
    ("version zero", "{\"version\": 0, \"saved\": []}", "not a manifest version"),
    ("version text", "{\"version\": \"1\", \"saved\": []}", "'version' should be an integer"),
    (
      "family missing", "{\"version\": 1, \"saved\": [{\"savedAt\": \"2025-01-01T00:00:00Z\"}]}",
      "'family' is missing"
    ),
    (
      "family number",
      "{\"version\":1,\"saved\":[{\"family\":3,\"savedAt\":\"2025-01-01T00:00:00Z\"}]}",
      "'saved[0].family' should be a string"
    ),
    (
      "bad date", "{\"version\":1,\"saved\":[{\"family\":\"A\",\"savedAt\":\"yesterday\"}]}",
      "not an ISO 8601 time"
    ),
    (
      "no such day",
      "{\"version\":1,\"saved\":[{\"family\":\"A\",\"savedAt\":\"2025-02-30T00:00:00Z\"}]}",
      "not an ISO 8601 time"
    ),
    (
      "unknown entry key",
      "{\"version\":1,\"saved\":[{\"family\":\"A\",\"savedAt\":\"2025-01-01T00:00:00Z\",\"x\":1}]}",
      "unknown key 'x'"
    ),
    ("unknown top key", "{\"version\":1,\"saved\":[],\"extra\":true}", "unknown key 'extra'"),
    (
      "escaping specimen",
      "{\"version\":1,\"saved\":[{\"family\":\"A\",\"savedAt\":\"2025-01-01T00:00:00Z\",\"specimen\":\"../../x.png\"}]}",
      "inside the output folder"
    ),
    (
      "run manifest",
      "{\"version\":1,\"tool\":\"fonti-batch 1.0.0\",\"families\":[],\"saved\":[]}",
      "run's manifest.json"
    ),
    ("newer", "{\"version\": 2, \"saved\": {\"new\": \"shape\"}}", "newer fonti-batch"),
  ]

  @Test(arguments: badFiles.indices)
  func badFilesAreRefusedAndLeftByteIdentical(_ index: Int) throws {
    let bad = Self.badFiles[index]
    let dir = try TemporaryDirectory()
    let path = try dir.write("favourites.json", bad.text)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let store = FavouritesStore(path: path)
    let attempts: [() throws -> Void] = [
      { _ = try store.load() },
      { try store.add([addition("Cantarell")], now: Self.t1) },
      { try store.remove(["A"]) },
      { try store.clear() },
      { try store.heart([FontFamily(name: "X", faces: [])]) },
    ]
    for attempt in attempts {
      do {
        try attempt()
        Issue.record("\(bad.name): accepted")
      } catch let error as Diagnostic {
        #expect(error.file == path, "\(bad.name)")
        #expect(error.isError)
        #expect(error.message.contains(bad.message), "\(bad.name): \(error.message)")
      } catch {
        Issue.record("\(bad.name): \(error)")
      }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(bad.name)")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(left.filter { $0.hasSuffix(".tmp") }.isEmpty)
  }

  @Test func truncatedFileErrorPointsAtTheEnd() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("favourites.json", "{\n  \"version\": 1,\n  \"saved\": [")
    #expect {
      try FavouritesStore(path: path).load()
    } throws: { error in
      guard let d = error as? Diagnostic else { return false }
      return d.mark == Mark(line: 3, column: 13) && d.hint != nil
    }
  }

  /// Foundation names the value that is wrong; the error also says where it is in the file.
  @Test func wrongValuesAreLocatedInTheFile() throws {
    // Each fix uncovers the next problem; a name full of brackets and quotes must be skipped.
    let text = #"""
      {
        "version": 1,
        "saved": [
          { "family": "Inter \"}],[{\" Display", "savedAt": "2025-01-01T00:00:00Z" },
          { "family": "Lato",
            "savedAt": "yesterday" },
          { "family": 3, "savedAt": "2025-01-01T00:00:00Z" },
          { "savedAt": "2025-01-01T00:00:00Z" }
        ],
        "extra": true
      }
      """#
    let fixes: [(String, String)] = [
      ("", ""),
      (
        #"""
        ],
          "extra": true
        """#, "]"
      ),
      ("yesterday", "2025-01-01T00:00:00Z"),
      (#""family": 3"#, #""family": "A""#),
    ]
    let marks = [
      Mark(line: 10, column: 12), Mark(line: 6, column: 18), Mark(line: 7, column: 17),
      Mark(line: 8, column: 5),
    ]
    var edited = text
    for (fix, mark) in zip(fixes, marks) {
      if !fix.0.isEmpty { edited = edited.replacingOccurrences(of: fix.0, with: fix.1) }
      let dir = try TemporaryDirectory()
      let path = try dir.write("favourites.json", edited)
      do {
        _ = try FavouritesStore(path: path).load()
        Issue.record("accepted after fixing \(fix.0)")
      } catch {
        #expect(error.mark == mark, "\(error)")
      }
    }
    // A path that cannot be followed gives no position rather than a wrong one.
    #expect(
      JSONLocation.offset(of: [AnyKey(stringValue: "b")], in: Array(#"{"a": 1}"#.utf8)) == nil)
    #expect(JSONLocation.offset(of: [AnyKey(intValue: 3)], in: Array("[1, 2]".utf8)) == nil)
  }

  @Test func aFolderOrFifoIsRefused() throws {
    let dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir.file("favourites.json"), withIntermediateDirectories: false)
    #expect(throws: Diagnostic.self) {
      try FavouritesStore(path: dir.file("favourites.json")).load()
    }
    #expect(mkfifo(dir.file("fifo.json"), 0o600) == 0)
    #expect(throws: Diagnostic.self) { try FavouritesStore(path: dir.file("fifo.json")).load() }
  }

  @Test func duplicatesInAHandEditedFileKeepTheEarliest() throws {
    let text = """
      {"version": 1, "saved": [
        {"family": "Inter", "savedAt": "2025-01-02T00:00:00Z"},
        {"family": "Lato", "savedAt": "2025-01-03T00:00:00+01:00", "custom": true},
        {"family": "INTER", "savedAt": "2025-01-01T00:00:00.250Z"}
      ]}
      """
    let manifest = try JSONDecoder().decode(FavouritesManifest.self, from: Data(text.utf8))
    #expect(manifest.families == ["Lato", "INTER"])
    #expect(Timestamp.format(manifest.saved[0].savedAt) == "2025-01-02T23:00:00Z")
    #expect(Timestamp.format(manifest.saved[1].savedAt) == "2025-01-01T00:00:00Z")
  }

  @Test func aSymbolicLinkStaysALink() throws {
    let dir = try TemporaryDirectory()
    let real = dir.file("real.json")
    try FavouritesStore(path: real).add([addition("A")], now: Self.t1)
    let link = dir.file("favourites.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    try FavouritesStore(path: link).add([addition("B")], now: Self.t2)
    let type = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
    #expect(type == .typeSymbolicLink)
    #expect(try FavouritesStore(path: real).load().families == ["B", "A"])
  }

  @Test func keepsTheFilesPermissions() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("favourites.json")
    let store = FavouritesStore(path: path)
    try store.add([addition("A")], now: Self.t1)
    #expect(chmod(path, 0o600) == 0)
    try store.add([addition("B")], now: Self.t2)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func concurrentAddsFromManyThreadsAllLand() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("favourites.json")
    let names = (0..<16).map { "Family \($0)" }
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: names.count) { i in
      // Separate store values: each opens the lock file itself, as separate processes do.
      do {
        try FavouritesStore(path: path).add([addition(names[i])], now: Self.t1)
      } catch {
        failures.record(error)
      }
    }
    #expect(failures.count == 0)
    #expect(Set(try FavouritesStore(path: path).load().families) == Set(names))
  }

  // MARK: Timestamps

  @Test func anUnusableSourceDateEpochIsNamed() {
    func problem(_ value: String?) -> String? {
      Timestamp.sourceDateEpochProblem(environment: value.map { ["SOURCE_DATE_EPOCH": $0] } ?? [:])
    }
    #expect(problem(nil) == nil)
    #expect(problem("") == nil)
    #expect(problem("1764410640") == nil)
    #expect(problem(" 0 ") == nil)
    #expect(problem("abc")?.hasPrefix("SOURCE_DATE_EPOCH 'abc' is not a whole number") == true)
    #expect(problem("-5")?.hasPrefix("SOURCE_DATE_EPOCH '-5' is negative") == true)
    #expect(problem("253402300800")?.contains("past the year 9999") == true)
  }

  @Test func timestamps() {
    #expect(Timestamp.format(Self.t1) == "2025-11-29T10:04:00Z")
    #expect(Timestamp.format(Self.t1.addingTimeInterval(0.9)) == "2025-11-29T10:04:00Z")
    #expect(Timestamp.parse("2025-11-29T10:04:00Z") == Self.t1)
    #expect(Timestamp.parse("2025-11-29t11:04:00+01:00") == Self.t1)
    #expect(Timestamp.parse("2025-11-29T09:04:00-0100") == Self.t1)
    for edge in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
      #expect(Timestamp.parse(edge).map(Timestamp.format) == edge)
    }
    for bad in [
      "", "2025-11-29", "2025-11-29T10:04Z", "2025-13-01T00:00:00Z", "2025-11-29T10:04:00",
      "2025-11-29T10:04:00Zjunk", "2025-11-29T24:00:00Z", "२०२५-11-29T10:04:00Z",
      // Moments it could not write back (the fuzzer's find: year 0 read, 0001 written).
      "0000-11-14T22:13:20Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-00:01",
    ] {
      #expect(Timestamp.parse(bad) == nil, "\(bad)")
    }
    #expect(Timestamp.now(environment: ["SOURCE_DATE_EPOCH": "1764410640"]) == Self.t1)
    let now = Timestamp.now(environment: ["SOURCE_DATE_EPOCH": "soon"])
    #expect(abs(now.timeIntervalSinceNow) < 60)
    #expect(now.timeIntervalSince1970 == now.timeIntervalSince1970.rounded(.down))
  }
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var errors: [any Error] = []

  func record(_ error: any Error) {
    lock.lock()
    errors.append(error)
    lock.unlock()
  }

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return errors.count
  }
}

/// No-op changes need no lock file and no write access.
@Suite struct FavouritesStoreNoOpTests {
  @Test func noOpsWorkInAReadOnlyFolder() throws {
    let dir = try TemporaryDirectory()
    let store = FavouritesStore(path: dir.file("ro/favourites.json"))
    try store.add(
      [FavouritesManifest.Addition(family: "A")], now: FavouritesStoreTests.t1)
    try FileManager.default.removeItem(atPath: dir.file("ro/.favourites.json.lock"))
    #expect(chmod(dir.file("ro"), 0o555) == 0)
    defer { chmod(dir.file("ro"), 0o755) }
    // (Root ignores the mode; the lock file not reappearing is what shows nothing was locked.)
    let result = try store.add(
      [FavouritesManifest.Addition(family: "A")], now: FavouritesStoreTests.t2)
    #expect(result.added.isEmpty)
    #expect(try store.remove(["B"]).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: dir.file("ro/.favourites.json.lock")))
  }
}
