/// One heading + body pairing: a heading set in one family over body text in another, with the
/// reason a designer would give for it.
public struct Pairing: Sendable, Hashable {
  /// The family for headings (set large).
  public var heading: String
  /// The family for body text.
  public var body: String
  /// One line a designer would accept: contrast of structure, shared proportions, same designer.
  public var reason: String
  /// The proprietary pairing this one is an open stand-in for ("Helvetica Neue + Georgia"),
  /// or nil when the pairing stands on its own.
  public var standsInFor: String?

  public init(heading: String, body: String, reason: String, standsInFor: String? = nil) {
    self.heading = heading
    self.body = body
    self.reason = reason
    self.standsInFor = standsInFor
  }

  /// Whether `family` is the heading or the body, compared case-insensitively.
  public func involves(_ family: String) -> Bool {
    Pairing.same(heading, family) || Pairing.same(body, family)
  }

  /// Case-insensitive `heading|body`, the identity used to find duplicates.
  package var key: String { Pairing.key(heading, body) }

  /// Whether two family names are the same, compared case-insensitively.
  package static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

  /// Case-insensitive `heading|body`.
  package static func key(_ heading: String, _ body: String) -> String {
    heading.lowercased() + "\u{0}" + body.lowercased()
  }
}
