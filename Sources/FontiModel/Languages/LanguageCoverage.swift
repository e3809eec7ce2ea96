import FontiSupport

/// Which languages a family can set, from fontconfig's orthographies: those it supports
/// completely and those it *nearly* supports (1–5 required characters missing), each with the
/// characters it lacks. manifest.json's and `families --json`'s `languages` field:
///
/// ```json
/// { "supported": ["de", "en", "fr"],
///   "nearly": [ { "language": "vi", "missing": ["U+1EA0", "U+1EA1"] } ] }
/// ```
///
/// Coverage is by characters only: it says nothing about whether marks are positioned or
/// conjuncts formed. A family's coverage is its regular face's (`FontFamily.coverage`, the face
/// fontconfig's `lang` was computed for); `FaceCoverage.warnings(for:)` names the faces that
/// lack characters the regular has.
public struct LanguageCoverage: Codable, Sendable, Hashable {
  /// A language the family nearly supports, with the required characters it lacks (ascending;
  /// written as `U+XXXX`).
  public struct Nearly: Codable, Sendable, Hashable {
    public var language: String
    public var missing: [UInt32]

    public init(language: String, missing: [UInt32]) {
      self.language = language
      self.missing = missing
    }

    enum CodingKeys: String, CodingKey {
      case language
      case missing
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      language = try container.decode(String.self, forKey: .language)
      let texts = try container.decode([String].self, forKey: .missing)
      missing = try texts.map { text in
        guard let value = CodePointText.parse(text) else {
          throw DecodingError.dataCorruptedError(
            forKey: .missing, in: container,
            debugDescription:
              "'\(Sanitize.terminal(String(text.prefix(40))))' is not a code point (U+XXXX)")
        }
        return value
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(language, forKey: .language)
      try container.encode(missing.map(CodePointText.format), forKey: .missing)
    }
  }

  /// Language codes (fontconfig's) the family sets completely, sorted.
  public var supported: [String]
  /// Sorted by how many characters are missing, then by code.
  public var nearly: [Nearly]

  /// The most characters a "nearly" supported language may lack.
  public static let nearlyLimit = 5

  public init(supported: [String] = [], nearly: [Nearly] = []) {
    self.supported = supported
    self.nearly = nearly
  }

}
