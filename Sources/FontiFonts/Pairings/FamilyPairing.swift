import FontiModel

/// One heading + body pairing of two families, as a run renders it (a pairing sheet) and a
/// catalogue's Pairings section shows it. `Family`: see `SpecimenRequest`.
public struct FamilyPairing<Family: FamilyCarrier>: Sendable, Hashable {
  /// Set large, over the body paragraph.
  public var heading: Family
  /// Sets the paragraph.
  public var body: Family
  /// Why the two work together, shown under the pair.
  public var reason: String

  public init(heading: Family, body: Family, reason: String) {
    self.heading = heading
    self.body = body
    self.reason = reason
  }

  /// Whether `family` is the heading or the body, compared case-insensitively.
  public func involves(_ family: String) -> Bool {
    heading.name.lowercased() == family.lowercased()
      || body.name.lowercased() == family.lowercased()
  }

  /// The same pairing with its families carried another way; nil when either cannot be.
  public func mapFamilies<Other>(_ transform: (Family) -> Other?) -> FamilyPairing<Other>? {
    guard let heading = transform(heading), let body = transform(body) else { return nil }
    return FamilyPairing<Other>(heading: heading, body: body, reason: reason)
  }
}

extension FamilyPairing: Codable where Family: Codable {}
