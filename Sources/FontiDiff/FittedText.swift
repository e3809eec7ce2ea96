/// Text cut to a width the review's way: after a whole change or a whole word, never inside
/// one, and saying how many changes were left out and where they are.
enum FittedText {
  /// As many of `lines` as fit, joined by "; ", then `more(n)` for the `n` left out. When not
  /// even the first fits with it, the first is cut after a whole word (a trailing ",", ";" or
  /// an open bracket dropped) and ends in "…". `fits` measures a candidate.
  static func lines(
    _ lines: [String], more: (Int) -> String, fits: (String) -> Bool
  ) -> String {
    guard !lines.isEmpty else { return "" }
    func candidate(_ k: Int) -> String {
      lines.prefix(k).joined(separator: "; ") + (k < lines.count ? more(lines.count - k) : "")
    }
    var best: String?
    for k in 1...lines.count {
      let text = candidate(k)
      guard fits(text) else { break }
      best = text
    }
    if let best { return best }
    let rest = lines.count > 1 ? more(lines.count - 1) : ""
    return words(lines[0], suffix: rest, fits: fits)
  }

  /// `text` cut after its last whole word that fits with "…" and `suffix`; the first word at
  /// least.
  static func words(_ text: String, suffix: String, fits: (String) -> Bool) -> String {
    if fits(text + suffix) { return text + suffix }
    let words = text.split(separator: " ", omittingEmptySubsequences: false)
    func cut(_ n: Int) -> String {
      var head = words.prefix(n).joined(separator: " ")
      while let last = head.last, ",;:([{“‘·—-".contains(last) || last.isWhitespace {
        head.removeLast()
      }
      return head + "…" + suffix
    }
    var low = 1
    var high = max(1, words.count - 1)
    // The most words that fit (cutting after fewer words only shortens the text).
    while low < high {
      let middle = (low + high + 1) / 2
      if fits(cut(middle)) { low = middle } else { high = middle - 1 }
    }
    return cut(low)
  }
}
