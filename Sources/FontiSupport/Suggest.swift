/// "Did you mean …?": the closest candidates by edit distance, compared case-insensitively.
public enum Suggest {
  /// The best candidate, when one is close enough to be a likely typo.
  public static func didYouMean<S: Sequence>(_ word: String, among candidates: S) -> String?
  where S.Element == String {
    closest(word, among: candidates, limit: 1).first
  }

  /// Up to `limit` candidates close to `word`, closest first (ties: alphabetical).
  public static func closest<S: Sequence>(_ word: String, among candidates: S, limit: Int = 3)
    -> [String]
  where S.Element == String {
    let needle = Array(word.lowercased())
    // A third of the word, at least one edit, at most four.
    let threshold = min(4, max(1, needle.count / 3))
    var scored: [(Int, String)] = []
    for candidate in Set(candidates) {
      let lower = Array(candidate.lowercased())
      if abs(lower.count - needle.count) > threshold { continue }
      let d = distance(needle, lower, cap: threshold)
      if d <= threshold { scored.append((d, candidate)) }
    }
    scored.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    return scored.prefix(limit).map(\.1)
  }

  /// Levenshtein distance with transpositions, stopping early once past `cap`.
  package static func distance(_ a: [Character], _ b: [Character], cap: Int) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMin = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          v = min(v, previous2[j - 2] + 1)
        }
        current[j] = v
        rowMin = min(rowMin, v)
      }
      if rowMin > cap { return cap + 1 }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
