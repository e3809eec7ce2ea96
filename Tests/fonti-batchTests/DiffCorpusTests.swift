import Foundation
import Testing

/// `diff --exit-code` on the corpus (`Fixtures/Diff/corpus`, made by `make-corpus.py`, #56 item
/// 8): a pair for every kind of change diff.json names, each of which must fail the gate with
/// exactly its kinds, named in words and on the review, and pairs of edits that are no change
/// (a re-save, rotated start points, reversed contours, renamed glyphs, another folder, cu2qu),
/// each of which must pass it, "unchanged". What each pair expects is `corpus/expected.tsv`,
/// written by the builder with the README's table, so the two cannot drift. A pair `diff` gets
/// wrong today (its known failure) is held to what it reaches today, so that the known issue
/// hides no other regression, and expected as a known issue, which fails once it passes.
@Suite(.serialized) struct DiffCorpusTests {
  static let corpus = Repository.fixtures + "/Diff/corpus"

  /// A verdict and the kinds of `changes`.
  struct Verdict: Sendable {
    var changed: Bool
    var kinds: Set<String>

    init(_ verdict: String, _ kinds: String) {
      changed = verdict == "changed"
      self.kinds = Set(kinds.split(separator: ",").map(String.init))
    }
  }

  /// One row of `expected.tsv`.
  struct Pair: CustomTestStringConvertible, Sendable {
    var name: String
    var expected: Verdict
    /// Why `diff` gets this pair wrong today; empty when it does not.
    var knownFailure: String
    /// What `diff` reaches today when it gets this pair wrong.
    var today: Verdict?
    var changed: Bool { expected.changed }
    var kinds: Set<String> { expected.kinds }
    var testDescription: String { name }
  }

  static let pairs: [Pair] = {
    let text = (try? String(contentsOfFile: corpus + "/expected.tsv", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 6 else { return nil }
      return Pair(
        name: fields[0], expected: Verdict(fields[1], fields[2]), knownFailure: fields[3],
        today: fields[4].isEmpty ? nil : Verdict(fields[4], fields[5]))
    }
  }()

  @Test func theCorpusHasChangePairsAndNoOps() throws {
    let text = try String(contentsOfFile: Self.corpus + "/expected.tsv", encoding: .utf8)
    let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(Self.pairs.count == rows.count, "a row of expected.tsv without its six columns")
    #expect(Self.pairs.filter(\.changed).count >= 111, "\(Self.pairs.count) pairs")
    #expect(Self.pairs.filter { !$0.changed }.count >= 12)
    // A known failure says what diff reaches today, and only a known failure does.
    for pair in Self.pairs {
      #expect(pair.knownFailure.isEmpty == (pair.today == nil), "\(pair.name)")
    }
  }

  /// Every kind docs/diff.md lists is made by some pair of the corpus, or said in the corpus's
  /// README to be one that fontTools cannot make (the table's second column there).
  @Test func everyDocumentedKindHasAPair() throws {
    let made = Set(Self.pairs.flatMap(\.kinds))
    let readme = try String(contentsOfFile: Self.corpus + "/README.md", encoding: .utf8)
    let documented = try Self.documentedKinds()
    #expect(documented.count >= 90, "\(documented)")
    for kind in documented where !made.contains(kind) {
      #expect(
        readme.contains("`\(kind)`: not made"), "no corpus pair makes \(kind), nor says why")
    }
  }

  @Test(arguments: pairs) func aPairReachesItsVerdict(_ pair: Pair) throws {
    let box = try CLISandbox("fonti-diff-corpus")
    let folder = Self.corpus + "/" + pair.name
    let result = try box.run(["diff", folder + "/before", folder + "/after", "--exit-code"])
    if let today = pair.today {
      // Held to what it reaches today: a regression of a known failure still fails.
      try check(result, in: box, reaches: today)
      try withKnownIssue(Comment(rawValue: pair.knownFailure)) {
        try check(result, in: box, reaches: pair.expected)
      }
    } else {
      try check(result, in: box, reaches: pair.expected)
    }
  }

  func check(_ result: CLIResult, in box: CLISandbox, reaches verdict: Verdict) throws {
    let data = try #require(box.read("diff/diff.json"), "\(result)")
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let families = try #require(report["families"] as? [[String: Any]])
    let markdown = String(decoding: try #require(box.read("diff/diff.md")), as: UTF8.self)
    let changes = families.flatMap { $0["changes"] as? [[String: Any]] ?? [] }
    let kinds = Set(changes.compactMap { $0["kind"] as? String })
    if verdict.changed {
      #expect(result.status == 1, "\(result)")
      #expect(kinds == verdict.kinds, "\(changes)")
      // Named: every change has its words, the family's summary says them, and the review
      // has the family's page and diff.md its row.
      for change in changes { #expect((change["text"] as? String)?.isEmpty == false) }
      for family in families where family["status"] as? String == "changed" {
        #expect((family["summary"] as? [String])?.isEmpty == false, "\(family)")
      }
      #expect(!markdown.contains("No family changed"), "\(markdown)")
      #expect(FileManager.default.fileExists(atPath: box.path("diff/diff.pdf")))
    } else {
      #expect(result.status == 0, "\(result)")
      #expect(families.allSatisfy { $0["status"] as? String == "unchanged" }, "\(families)")
      #expect(changes.isEmpty, "\(changes)")
      #expect(markdown.contains("No family changed"), "\(markdown)")
    }
  }

  /// The kinds of docs/diff.md's table "Changes and their kinds": each backquoted word of the
  /// first column, `.descender` after `metrics.hhea.ascender` read as `metrics.hhea.descender`,
  /// and `name.N` as the two name records the corpus changes.
  static func documentedKinds() throws -> [String] {
    let text = try String(
      contentsOfFile: Repository.root + "/docs/diff.md", encoding: .utf8)
    guard let start = text.range(of: "| kind | what it means |") else { return [] }
    var kinds: [String] = []
    for line in text[start.upperBound...].split(separator: "\n").dropFirst() {
      guard line.hasPrefix("| `") else { break }
      let column = line.dropFirst(2).prefix { $0 != "|" }
      var prefix = ""
      let words = column.split(separator: "`", omittingEmptySubsequences: false)
      for (index, word) in words.enumerated() where index % 2 == 1 {
        var kind = String(word)
        if kind.hasPrefix(".") {
          kind = prefix + kind
        } else if let dot = kind.lastIndex(of: ".") {
          prefix = String(kind[..<dot])
        }
        kinds.append(kind == "name.N" ? "name.13" : kind)
      }
    }
    return kinds
  }
}
