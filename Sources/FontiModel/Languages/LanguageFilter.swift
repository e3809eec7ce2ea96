import FontiSupport
import Foundation

/// Selection by language (job `families.languages: [vi, pl]`, `families --lang vi,pl`): keeps
/// the families that support every listed language completely.
public struct LanguageFilter: Sendable, Hashable {
  /// fontconfig codes, known, without repeats, in the order given.
  public let codes: [String]

  /// A filter of codes already checked with `validate`.
  public init(known codes: [String]) {
    var seen = Set<String>()
    self.codes = codes.map(LanguageFilter.normalize).filter { seen.insert($0).inserted }
  }

  /// Checks every code (each reported where it is: an unknown code is an error with a "did you
  /// mean"); the filter when all are known, else nil.
  public static func validate(
    _ codes: [Located<String>], file: String? = nil, languages: LanguageCodes
  ) -> (
    filter: LanguageFilter?, diagnostics: [Diagnostic]
  ) {
    var diagnostics: [Diagnostic] = []
    for code in codes {
      if let problem = problem(with: code.value, in: languages) {
        diagnostics.append(
          .error(problem.message, file: file, at: code.mark, hint: problem.hint))
      }
    }
    guard diagnostics.isEmpty else { return (nil, diagnostics) }
    return (LanguageFilter(known: codes.map(\.value)), [])
  }

  /// What is wrong with `code`, or nil when `languages` knows it (after `normalize`).
  public static func problem(with code: String, in languages: LanguageCodes) -> (
    message: String, hint: String
  )? {
    let normalized = normalize(code)
    if languages.isKnown(normalized) { return nil }
    let shown = Sanitize.terminal(String(code.prefix(60)))
    guard !normalized.isEmpty else {
      return ("empty language code", "language codes are fontconfig's: vi, pl, zh-tw, …")
    }
    let candidates = suggestions(for: normalized, in: languages)
    guard !candidates.isEmpty else {
      return (
        "unknown language '\(shown)'",
        "language codes are fontconfig's (ISO 639, some with a territory): de, vi, zh-tw, …"
      )
    }
    let quoted = candidates.map { "'\($0)'" }.joined(separator: ", ")
    let named = candidates.map { "\($0) is \(languages.name(of: $0))" }.joined(separator: ", ")
    return ("unknown language '\(shown)' (did you mean \(quoted)?)", named)
  }

  /// Lower case, `_` as `-`, no surrounding white space: `zh_TW` → `zh-tw`.
  public static func normalize(_ code: String) -> String {
    code.trimmingCharacters(in: .whitespaces).lowercased()
      .replacingOccurrences(of: "_", with: "-")
  }

  /// Close known codes: the code of a language named `code` ("vietnamese" → `vi`), the language
  /// of a territory fontconfig does not distinguish (`pt-br` → `pt`), then codes a typo away,
  /// those that start with the same letter first (two-letter codes are all close to each
  /// other: `vn` is one edit from `bn` and `en` as from `vi`).
  static func suggestions(for code: String, in languages: LanguageCodes) -> [String] {
    var out: [String] = []
    if code.count > 3 {
      out += languages.codes.filter { languages.name(of: $0).lowercased() == code }
    }
    if let dash = code.firstIndex(of: "-") {
      let base = String(code[..<dash])
      if languages.isKnown(base) { out.append(base) }
    }
    let typed = Array(code)
    let threshold = min(4, max(1, typed.count / 3))
    let close = languages.codes.compactMap { candidate -> (Int, Int, String)? in
      let letters = Array(candidate)
      guard abs(letters.count - typed.count) <= threshold else { return nil }
      let d = Suggest.distance(typed, letters, cap: threshold)
      guard d <= threshold else { return nil }
      return (d, letters.first == typed.first ? 0 : 1, candidate)
    }
    out += close.sorted { $0 < $1 }.map(\.2)
    var seen = Set<String>()
    return Array(out.filter { seen.insert($0).inserted }.prefix(3))
  }

  /// Whether a coverage already worked out supports every code.
  public func accepts(_ coverage: LanguageCoverage) -> Bool {
    let supported = Set(coverage.supported)
    return codes.allSatisfy(supported.contains)
  }
}
