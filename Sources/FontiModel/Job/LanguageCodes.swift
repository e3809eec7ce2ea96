/// The language codes a job may name (`families.languages`, `families --lang`), with the
/// English name of each for a "did you mean": fontconfig's table. The job model reaches no C
/// library but libyaml, so whoever decodes a job hands the table in (`Languages.table` reads
/// fontconfig's); the fuzzers hand in a few codes of their own.
public struct LanguageCodes: Sendable {
  /// Every known code, sorted.
  public let codes: [String]
  private let known: Set<String>
  private let names: @Sendable (String) -> String

  public init(codes: [String], name: @escaping @Sendable (String) -> String) {
    self.codes = codes
    known = Set(codes)
    names = name
  }

  /// Whether `code` is known (exactly: lower case, `-` before a territory).
  public func isKnown(_ code: String) -> Bool { known.contains(code) }

  /// The English name of `code` ("Vietnamese"), or the code itself.
  public func name(of code: String) -> String { names(code) }
}
