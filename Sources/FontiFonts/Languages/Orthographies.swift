import FontiModel
import FontiText

/// fontconfig's orthographies (every language it knows and the characters each requires), read
/// once per process on first use and kept as bit pages in one flat array, so that comparing a
/// face's characters with all of them costs a few thousand word operations.
package struct Orthographies: Sendable {
  /// One language: its code and its pages in `Orthographies.pages` (ascending, each
  /// `wordsPerPage` words of `Orthographies.words`).
  struct Orthography: Sendable {
    var code: String
    var pages: Range<Int>
    /// How many characters the language requires.
    var count: Int
  }

  /// 256 characters per page, as 32-bit words (the layout of fontconfig's charset pages).
  static let wordsPerPage = 8

  /// Read from fontconfig on first use.
  package static let shared = Orthographies(
    Fontconfig.languageCodes().compactMap { code in
      Fontconfig.orthography(code).map { (code, $0) }
    })

  /// Sorted by code.
  let all: [Orthography]
  /// Page numbers (scalar >> 8) of every language, language after language.
  let pageNumbers: [UInt32]
  /// `wordsPerPage` words per entry of `pageNumbers`.
  let words: [UInt32]
  private let index: [String: Int]

  init(_ languages: [(code: String, coverage: CharacterCoverage)]) {
    var all: [Orthography] = []
    var pageNumbers: [UInt32] = []
    var words: [UInt32] = []
    for (code, coverage) in languages.sorted(by: { $0.code < $1.code }) {
      let start = pageNumbers.count
      for (index, number) in coverage.pageNumbers.enumerated() {
        pageNumbers.append(number)
        let page = coverage.page(at: index)
        for i in 0..<Orthographies.wordsPerPage { words.append(Orthographies.word(page, i)) }
      }
      all.append(Orthography(code: code, pages: start..<pageNumbers.count, count: coverage.count))
    }
    self.all = all
    self.pageNumbers = pageNumbers
    self.words = words
    var index: [String: Int] = [:]
    for (i, o) in all.enumerated() { index[o.code] = i }
    self.index = index
  }

  var codes: [String] { all.map(\.code) }

  subscript(code: String) -> Orthography? { index[code].map { all[$0] } }

  /// Every character `orthography` requires, ascending.
  func scalars(of orthography: Orthography) -> [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(orthography.count)
    for p in orthography.pages {
      let base = p * Orthographies.wordsPerPage
      Orthographies.append(
        words[base..<base + Orthographies.wordsPerPage], page: pageNumbers[p], to: &out)
    }
    return out
  }

  /// The characters of `orthography` that `coverage` lacks, ascending; nil when there are more
  /// than `limit` (counted first, so that a language far out of reach costs no list).
  func missing(_ orthography: Orthography, from coverage: CharacterCoverage, limit: Int)
    -> [UInt32]?
  {
    let n = Orthographies.wordsPerPage
    var total = 0
    for p in orthography.pages {
      let have = coverage.page(pageNumbers[p])
      let base = p * n
      for i in 0..<n { total += (words[base + i] & ~Orthographies.word(have, i)).nonzeroBitCount }
      if total > limit { return nil }
    }
    guard total > 0 else { return [] }
    var out: [UInt32] = []
    for p in orthography.pages {
      let have = coverage.page(pageNumbers[p])
      let base = p * n
      let lacking = (0..<n).map { words[base + $0] & ~Orthographies.word(have, $0) }
      Orthographies.append(lacking[...], page: pageNumbers[p], to: &out)
    }
    return out
  }

  /// Word `i` of a coverage page; 0 when the page is absent (or short).
  static func word(_ page: ArraySlice<UInt32>?, _ i: Int) -> UInt32 {
    guard let page, i < page.count else { return 0 }
    return page[page.startIndex + i]
  }

  /// Appends the characters of one page's set bits, ascending.
  static func append(_ words: ArraySlice<UInt32>, page: UInt32, to out: inout [UInt32]) {
    for (i, word) in words.enumerated() where word != 0 {
      var bits = word
      while bits != 0 {
        let bit = UInt32(bits.trailingZeroBitCount)
        out.append(page << 8 | UInt32(i) << 5 | bit)
        bits &= bits - 1
      }
    }
  }
}
