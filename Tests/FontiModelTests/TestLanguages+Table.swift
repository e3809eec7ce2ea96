import TestSupport

@testable import FontiModel

extension TestLanguages {
  /// The table, as the decoder takes it.
  static let table: LanguageCodes = {
    let names = Dictionary(entries, uniquingKeysWith: { a, _ in a })
    return LanguageCodes(codes: entries.map(\.code), name: { names[$0] ?? $0 })
  }()
}
