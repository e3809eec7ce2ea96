import Foundation
import TestSupport
import Testing

@testable import FontiModel
@testable import FontiSupport

/// manifest.json's own coder (`RunManifest+JSON.swift`) against Foundation's: the same bytes
/// written, the same manifest read, and hostile input refused without a crash.
@Suite struct RunManifestJSONTests {
  /// Strings a family name, a warning or a path inside a font could hold.
  static let hostile = [
    "", "Lato", "q\"uote", "back\\slash", "a/b/../c", "tab\there", "line\nfeed", "cr\rlf",
    "\u{0}nul", "\u{1}\u{8}\u{C}\u{1A}\u{1F}", "del\u{7F}", "é", "e\u{301}", "\u{2028}\u{2029}",
    "😀 emoji", "\u{FEFF}bom", "日本語", "Ａ", "\u{FFFD}", "</script>",
  ]

  /// Every field set, every optional present, awkward values throughout.
  static func full() -> RunManifest {
    var family = RunManifest.Family(
      family: "Fonti \"Test\"\n/Family\\", slug: "fonti-test-family", custom: true, saved: true,
      styles: hostile, bold: true, italic: false, missingGlyphs: 3,
      missingCharacters: ["U+0041", "U+1F600"], warnings: hostile,
      files: [
        RunManifest.File(
          path: "specimens/fonti-test.png", sha256: String(repeating: "ab", count: 32),
          inputs: String(repeating: "0f", count: 32), size: 123_456,
          mtimeNs: 1_764_547_200_123_456_789)
      ], error: "could not \"draw\": \u{1}")
    family.seconds = 0.123456789
    family.drawnFrom = FontFamily.DrawnFrom(
      regular: "/fonts/a/Inter-Regular.otf", variable: "/fonts/b/Inter.var.ttf")
    family.colour = FontColour(formats: ["colr0", "colr1", "svg"], palettes: 3)
    family.warningKinds = hostile
    family.faces = hostile.map {
      FamilyFace(
        name: $0, weight: 350, width: 75, slope: "oblique", file: "/fonts/\($0).ttf", instance: 3,
        coordinates: ["slnt": -10.5, "wght": 1e-7], problem: $0)
    }
    family.proofs = FamilyProofReport(
      axes: [
        FontProofs.Axis(tag: "wght", name: "Weight", min: 100, defaultValue: 400, max: 900),
        FontProofs.Axis(
          tag: "opsz", name: "Optical\tsize", min: 8.5, defaultValue: 14.25, max: 1e16),
        FontProofs.Axis(tag: "XTRA", name: "é", min: -0.0, defaultValue: 0.1 + 0.2, max: 1e-7),
      ],
      instances: [
        FontProofs.Instance(
          name: "Bold", coordinates: ["wght": 700, "wdth": 87.5, "é": 1, "A": 2, "a10": 3, "a9": 4]),
        FontProofs.Instance(name: "", coordinates: [:]),
      ],
      features: [
        // Every optional set, as everywhere in this fixture (a visible feature has no reason
        // in a real manifest).
        FontProofs.Feature(
          tag: "smcp", name: "Small Capitals", tables: ["GSUB"], visible: true,
          noEffect: .drawsAlike),
        FontProofs.Feature(
          tag: "kern", name: "Kerning", tables: ["GSUB", "GPOS"], visible: false,
          noEffect: .contextUnreachable),
      ],
      languages: LanguageCoverage(
        supported: ["de", "en", "zh-tw"],
        nearly: [LanguageCoverage.Nearly(language: "vi", missing: [0x1EA0, 0x10FFFF])]),
      codepoints: 2_345)
    var pairing = RunManifest.Pairing(
      heading: "Heading/\u{0}", body: "Body é", file: "pairings/a--b.png", sha256: "00",
      inputs: "11", size: 1, mtimeNs: -5, warnings: hostile)
    pairing.seconds = 12.5
    pairing.warningKinds = ["own-script"]
    var counts = RunManifest.Counts(families: 2, rendered: 1, skipped: 1, failed: 0, warnings: 9)
    counts.notes = 3
    counts.pairings = 1
    counts.pairingsRendered = 1
    counts.pairingsSkipped = 0
    counts.pairingsFailed = 0
    counts.catalogues = 1
    counts.cataloguesRendered = 0
    counts.cataloguesSkipped = 1
    counts.cataloguesFailed = 0
    var manifest = RunManifest(
      title: "Type \"review\" ✓ / 2026", families: [family, family], pairings: [pairing],
      catalogues: [
        RunManifest.Catalogue(
          file: "catalogue.pdf", pages: 12, sha256: "ff", inputs: "ee", size: 99, mtimeNs: 98,
          missingGlyphs: Dictionary(
            hostile.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }),
          warnings: ["w"],
          families: [RunManifest.FamilyPage(family: "Lato\"", page: 1, facesPage: 2)])
      ], counts: counts, durationSeconds: 3)
    manifest.gallery = RunManifest.Gallery(
      file: "index.html", sha256: "aa", size: 7, mtimeNs: 6, inputs: "bb")
    manifest.catalogues[0].warningKinds = ["missing-glyphs"]
    manifest.warnings = [
      RunManifest.Warning(
        kind: "unmatched-pattern", message: "pattern \"Zzz*\"", file: "job.yaml", line: 3,
        column: 12),
      RunManifest.Warning(kind: "other", message: "\u{1}", file: "/", line: 0, column: -1),
    ]
    manifest.warningsByKind = ["unmatched-pattern": 1, "own-script": 199, "é\"": 0]
    return manifest
  }

  /// Only what is required.
  static func bare() -> RunManifest {
    RunManifest(
      title: "",
      families: [
        RunManifest.Family(
          family: "A", slug: "a", custom: false, saved: false, styles: [], bold: false,
          italic: false, missingGlyphs: 0, missingCharacters: nil, warnings: [], files: [],
          error: nil)
      ], pairings: [],
      catalogues: [RunManifest.Catalogue(file: "c.pdf", pages: 0, sha256: "", inputs: nil)],
      counts: .init(families: 0, rendered: 0, skipped: 0, failed: 0, warnings: 0),
      durationSeconds: 0.01)
  }

  static func foundation(_ manifest: RunManifest) throws -> Data {
    try JSONEncoder(.pretty).encodeDocument(manifest)
  }

  @Test(arguments: [full(), bare()])
  func writesFoundationsBytesAndReadsThemBack(_ manifest: RunManifest) throws {
    let ours = try manifest.encoded()
    let theirs = try Self.foundation(manifest)
    #expect(
      String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
    #expect(ours == theirs)
    #expect(RunManifest.decode(ours) == manifest)
    #expect(try JSONDecoder().decode(RunManifest.self, from: ours) == manifest)
  }

  @Test(arguments: [
    0.0, -0.0, 1, -1, 0.1, 0.30000000000000004, 2.5, 1e-7, 1.5e20, 1e16, 123_456_789_012_345,
    1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 100, 0.01, 3.14159,
  ])
  func writesNumbersAsFoundationDoes(_ value: Double) throws {
    var manifest = Self.bare()
    manifest.durationSeconds = value
    manifest.families[0].seconds = -value
    #expect(try manifest.encoded() == Self.foundation(manifest))
    #expect(RunManifest.decode(try manifest.encoded()) == manifest)
  }

  @Test func aNumberJSONCannotCarryIsRefusedAsFoundationRefusesIt() {
    var manifest = Self.bare()
    manifest.durationSeconds = .nan
    #expect(throws: (any Error).self) { try manifest.encoded() }
    manifest.durationSeconds = .infinity
    #expect(throws: (any Error).self) { try manifest.encoded() }
  }

  /// A new field must be written and read here too: the full fixture sets every optional, so a
  /// field added to the `Codable` types without its line in `RunManifest+JSON.swift` fails
  /// `writesFoundationsBytesAndReadsThemBack`.
  @Test func theFullFixtureLeavesNoOptionalEmpty() {
    var empty: [String] = []
    func visit(_ value: Any, _ path: String) {
      let mirror = Mirror(reflecting: value)
      if mirror.displayStyle == .optional {
        guard let some = mirror.children.first?.value else { return empty.append(path) }
        return visit(some, path)
      }
      if mirror.displayStyle == .collection {
        for (i, child) in mirror.children.enumerated() { visit(child.value, "\(path)[\(i)]") }
        return
      }
      guard mirror.displayStyle == .struct else { return }
      for child in mirror.children {
        visit(child.value, path + "." + (child.label ?? "?"))
      }
    }
    visit(Self.full(), "manifest")
    #expect(empty == [])
  }

  /// What another writer (an older version, a hand edit, `jq`) may produce, read as Foundation
  /// reads it.
  @Test func readsWhatFoundationReads() throws {
    let text = """
      {"version":1,"tool":"fonti-batch 1.0.0","title":"T\\u00e9\\ud83d\\ude00\\/\\b",
       "unknown":{"nested":[1,2.5e3,-0,true,false,null,{"x":"y"}]},
       "families":[{"family":"A","slug":"a","custom":false,"saved":false,"styles":["Regular"],
         "bold":true,"italic":true,"missingGlyphs":0,"warnings":[],"files":[],
         "error":null,"seconds":null,"axes":null,"languages":{"supported":[],"nearly":[
           {"language":"vi","missing":["u+1ea0"]}]},"later":"ignored"}],
       "pairings":[],"catalogues":[{"file":"c.pdf","pages":1,"sha256":"x",
         "missingGlyphs":{"A":1,"B":2},"families":[{"family":"A","page":1}]}],
       "counts":{"families":1,"rendered":1,"skipped":0,"failed":0,"warnings":0,
         "pairings":null},
       "durationSeconds":1E2, "gallery":null}\t\r\n 
      """
    let data = Data(text.utf8)
    let theirs = try JSONDecoder().decode(RunManifest.self, from: data)
    #expect(RunManifest.decode(data) == theirs)
    #expect(theirs.title == "Té😀/\u{8}")
  }

  @Test(arguments: ["", " ", "{", "[]", "null", "{\"version\":1}", "{}x"])
  func refusesWhatIsNoManifest(_ text: String) {
    #expect(RunManifest.decode(Data(text.utf8)) == nil)
  }

  /// Truncated, and trailing garbage after a whole manifest.
  @Test func refusesACutOrExtendedManifest() throws {
    let whole = try Self.full().encoded()
    for bytes in [whole.dropLast(20), whole + Data("{}".utf8), whole + Data(",".utf8)] {
      #expect(RunManifest.decode(Data(bytes)) == nil)
    }
  }

  /// A member of a valid manifest with a malformed value. Foundation skips an unknown member
  /// without checking all of it (it takes `[1,]`, `01`, a lone surrogate); ours reads JSON as
  /// RFC 8259 has it, and a manifest that is not is drawn again rather than half-read.
  @Test(arguments: [
    "\"La\\qto\"", "\"La\\u12\"", "\"\\ud800\"", "\"\\udc00x\"", "\"\\ud800\\u0041\"",
    "\"tab\tinside\"", "01", "1.", "-", "1e", "+1", ".5", "NaN", "Infinity", "tru", "nul", "[",
    "{\"a\":}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}", "{\"a\":1,\"a\":2}",
    String(repeating: "[", count: 100_000), String(repeating: "{\"a\":", count: 100_000),
  ])
  func refusesMalformedValues(_ value: String) throws {
    let base = String(decoding: try Self.bare().encoded(), as: UTF8.self)
    func with(_ value: String) -> Data {
      Data(
        base.replacingOccurrences(
          of: "\"title\" : \"\"", with: "\"title\" : \"\", \"extra\" : \(value)"
        ).utf8)
    }
    #expect(RunManifest.decode(with("[1, {\"b\": [\"\\u00e9\", null]}, -0.5e-3]")) != nil)
    #expect(RunManifest.decode(with(value)) == nil)
  }

  /// A key given twice is refused: which of the two counts would be a guess.
  @Test func refusesAKeyGivenTwice() throws {
    let text = String(decoding: try Self.bare().encoded(), as: UTF8.self)
    let twice = text.replacingOccurrences(
      of: "\"title\" : \"\"", with: "\"title\" : \"\", \"title\" : \"x\"")
    #expect(RunManifest.decode(Data(twice.utf8)) == nil)
  }

  /// An object with many keys (a catalogue's `missingGlyphs` names every family it shows) reads
  /// whole, and a key given twice in it is refused wherever the two are.
  @Test func readsLargeObjectsAndRefusesAKeyTwiceInThem() throws {
    var manifest = Self.bare()
    manifest.catalogues[0].missingGlyphs = Dictionary(
      uniqueKeysWithValues: (0..<40).map { (String(format: "F%02d", $0), $0) })
    let text = String(decoding: try manifest.encoded(), as: UTF8.self)
    #expect(RunManifest.decode(Data(text.utf8)) == manifest)
    // Keys are written sorted: F03 comes among the first few, F20 and F39 among the many.
    for (last, again) in [
      ("\"F39\" : 39", "\"F03\""), ("\"F39\" : 39", "\"F20\""),
      ("\"F04\" : 4", "\"F03\""),
    ] {
      let twice = text.replacingOccurrences(of: last, with: "\(last), \(again) : 1")
      #expect(twice != text)
      #expect(RunManifest.decode(Data(twice.utf8)) == nil, "\(again) after \(last)")
    }
  }

  @Test func refusesInvalidUTF8AndWrongTypes() throws {
    // A bad lead, an overlong form, a surrogate, a cut sequence, bytes UTF-8 never uses, a
    // code point past U+10FFFF; each refused, and the same text with good UTF-8 read.
    let bad: [[UInt8]] = [
      [0xC3, 0x28], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xFF], [0x80],
      [0xF4, 0x90, 0x80, 0x80],
    ]
    for sequence in bad + [Array("é😀".utf8)] {
      var bytes = try Self.bare().encoded()
      let title = bytes.firstRange(of: Data("\"title\" : \"".utf8))!
      bytes.insert(contentsOf: sequence, at: title.upperBound)
      let read = RunManifest.decode(bytes)
      #expect((read == nil) == bad.contains(sequence), "\(sequence)")
      if let read { #expect(read.title == "é😀") }
    }

    for (from, to) in [
      ("\"missingGlyphs\" : 0", "\"missingGlyphs\" : 0.5"),
      ("\"missingGlyphs\" : 0", "\"missingGlyphs\" : \"0\""),
      ("\"bold\" : false", "\"bold\" : 0"),
      ("\"styles\" : [\n\n      ]", "\"styles\" : [1]"),
      ("\"version\" : 1", "\"version\" : 2"),
      ("\"durationSeconds\" : 0.01", "\"durationSeconds\" : 1e400"),
      ("\"slug\" : \"a\",", ""),
      ("\"slug\" : \"a\"", "\"slug\" : null"),
    ] {
      let text = String(decoding: try Self.bare().encoded(), as: UTF8.self)
      #expect(text.contains(from), "\(from)")
      let changed = Data(text.replacingOccurrences(of: from, with: to).utf8)
      #expect(RunManifest.decode(changed) == nil, "\(to)")
    }
  }

  /// Written to a file as it is made, a chunk at a time: the same bytes as `encoded()`.
  @Test func aManifestStreamedToItsFileIsTheSameBytes() throws {
    var manifest = Self.full()
    manifest.families = Array(repeating: manifest.families[0], count: 300)
    let expected = try manifest.encoded()
    #expect(expected.count > 4 * JSONWriter.chunk)
    let dir = try TemporaryDirectory()
    let path = dir.path + "/manifest.json"
    try manifest.write(toFile: path)
    #expect(FileManager.default.contents(atPath: path) == expected)

    manifest.durationSeconds = .nan
    #expect(throws: Diagnostic.self) { try manifest.write(toFile: path) }
    #expect(FileManager.default.contents(atPath: path) == expected)
  }

  /// `isWritten(at:)` says whether a file holds exactly the bytes `write(toFile:)` would write,
  /// whatever chunk the first difference falls in, and for nothing but a regular file.
  @Test func aManifestKnowsTheFileThatHoldsItsBytes() throws {
    var manifest = Self.full()
    manifest.families = Array(repeating: manifest.families[0], count: 300)
    let bytes = [UInt8](try manifest.encoded())
    #expect(bytes.count > 4 * JSONWriter.chunk)
    let dir = try TemporaryDirectory()
    let path = dir.path + "/manifest.json"
    #expect(!manifest.isWritten(at: path), "no file")
    try manifest.write(toFile: path)
    #expect(manifest.isWritten(at: path))

    func holds(_ content: [UInt8]) throws -> Bool {
      try Data(content).write(to: URL(fileURLWithPath: path))
      return manifest.isWritten(at: path)
    }
    // One byte changed at the start, at a chunk's edges, in the middle and at the end.
    for offset in [0, JSONWriter.chunk - 1, JSONWriter.chunk, bytes.count / 2, bytes.count - 1] {
      var changed = bytes
      changed[offset] ^= 0x20
      #expect(try !holds(changed), "byte \(offset) changed")
    }
    #expect(try !holds(bytes + [0x0A]), "a byte more")
    #expect(try !holds(Array(bytes.dropLast())), "a byte less")
    #expect(try !holds(Array(bytes.prefix(JSONWriter.chunk))), "cut at a chunk")
    #expect(try !holds([]), "empty")
    #expect(try holds(bytes))

    // Its duration differs: another manifest.
    var later = manifest
    later.durationSeconds += 1
    #expect(!later.isWritten(at: path))

    // Through a link, as the manifest is read and written; a folder or a FIFO holds nothing.
    let link = dir.path + "/link.json"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    #expect(manifest.isWritten(at: link))
    #expect(!manifest.isWritten(at: dir.path))
    let fifo = dir.path + "/fifo.json"
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(!manifest.isWritten(at: fifo))
  }
}
