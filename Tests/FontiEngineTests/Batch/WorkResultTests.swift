import Foundation
import Testing

@testable import FontiDiff
@testable import FontiEngine

/// Results travel from workers to the parent as JSON; the parent keeps one per output.
struct WorkResultTests {
  @Test func aDiffResultKeepsItsEntryThroughJSONUnderItsOwnKey() throws {
    var result = WorkResult(ok: true, warnings: ["w"], sha256: "abc")
    var entry = FamilyComparison.entry(nil, nil, slug: "inter")
    entry.family = "Inter"
    entry.status = .changed
    entry.summary = ["2 glyphs changed"]
    result.diff = DiffFamilyResult(entry: entry, stored: "/tmp/review-inter.json")
    let data = try JSONEncoder().encode(result)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let diff = try #require(object["diff"] as? [String: Any])
    #expect(diff["stored"] as? String == "/tmp/review-inter.json")
    let back = try JSONDecoder().decode(WorkResult.self, from: data)
    #expect(back == result)
    #expect(back.diff?.entry.summary == ["2 glyphs changed"])
    #expect(back.diff?.entry.status == .changed)
  }

  @Test func aResultWithoutDiffHasNoDiffKey() throws {
    let result = WorkResult(ok: false, error: "failed")
    let data = try JSONEncoder().encode(result)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["diff"] == nil)
    #expect(try JSONDecoder().decode(WorkResult.self, from: data) == result)
  }
}
