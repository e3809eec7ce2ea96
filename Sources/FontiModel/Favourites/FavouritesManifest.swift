import FontiSupport
import Foundation

/// The saved-favourites manifest, `favourites.json`: the app's Saved tab as a file.
///
/// `{"version": 1, "saved": [{"family", "savedAt", "custom", "specimen"}]}`, most recent first,
/// one entry per family (names compared case-insensitively). A pure value: `FavouritesStore`
/// reads and writes the file.
public struct FavouritesManifest: Codable, Sendable, Hashable {
  /// The only version this build reads and writes; newer files are refused, never rewritten.
  public static let currentVersion = 1

  /// One saved family.
  public struct Entry: Codable, Sendable, Hashable {
    /// The family's own spelling (as fontconfig lists it).
    public var family: String
    /// When the family was first saved, in whole seconds; re-adding keeps it.
    public var savedAt: Date
    /// From the job's `fonts:` or the imported library rather than installed.
    public var custom: Bool
    /// The family's specimen PNG, relative to the output folder, when a run wrote one.
    public var specimen: String?

    public init(family: String, savedAt: Date, custom: Bool = false, specimen: String? = nil) {
      self.family = family
      self.savedAt = savedAt
      self.custom = custom
      self.specimen = specimen
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
      case family, savedAt, custom, specimen
    }

    public init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      try FavouritesManifest.refuseUnknownKeys(
        container, known: CodingKeys.allCases.map(\.rawValue))
      let keyed = try decoder.container(keyedBy: CodingKeys.self)
      family = try keyed.decode(String.self, forKey: .family)
      if family.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        throw DecodingError.dataCorruptedError(
          forKey: .family, in: keyed, debugDescription: "is empty")
      }
      let stamp = try keyed.decode(String.self, forKey: .savedAt)
      guard let date = Timestamp.parse(stamp) else {
        throw DecodingError.dataCorruptedError(
          forKey: .savedAt, in: keyed,
          debugDescription: "'\(stamp)' is not an ISO 8601 time such as 2026-11-29T10:04:00Z")
      }
      savedAt = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
      // Hand-written files may leave `custom` out; it only drives the amber dot.
      custom = try keyed.decodeIfPresent(Bool.self, forKey: .custom) ?? false
      specimen = try keyed.decodeIfPresent(String.self, forKey: .specimen)
      if let specimen, !FavouritesManifest.isInsideOutput(specimen) {
        throw DecodingError.dataCorruptedError(
          forKey: .specimen, in: keyed,
          debugDescription: "'\(specimen)' is not a relative path inside the output folder")
      }
    }

    public func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(family, forKey: .family)
      try container.encode(Timestamp.format(savedAt), forKey: .savedAt)
      try container.encode(custom, forKey: .custom)
      try container.encodeIfPresent(specimen, forKey: .specimen)
    }
  }

  /// A family to save: its name as the font catalogue spells it, whether it is custom, and the
  /// specimen written for it (relative to the output folder), if any.
  public struct Addition: Sendable, Hashable {
    public var family: String
    public var custom: Bool
    public var specimen: String?

    public init(family: String, custom: Bool = false, specimen: String? = nil) {
      self.family = family
      self.custom = custom
      self.specimen = specimen
    }

    /// The addition for a family of the catalogue: its own spelling and custom flag.
    public init(_ family: FontFamily, specimen: String? = nil) {
      self.init(family: family.name, custom: family.isCustom, specimen: specimen)
    }
  }

  /// Thrown while decoding a file whose `version` this build does not know.
  public struct UnsupportedVersion: Error, Sendable, Hashable {
    public var version: Int
  }

  public private(set) var version: Int
  /// Most recent first; one entry per family.
  public private(set) var saved: [Entry]

  /// A version-1 manifest with these entries, put in order (most recent first; ties keep their
  /// order) and with one entry per family (the earliest).
  public init(saved: [Entry] = []) {
    version = FavouritesManifest.currentVersion
    self.saved = FavouritesManifest.normalised(saved)
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case version, saved
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    let keyed = try decoder.container(keyedBy: CodingKeys.self)
    // The version first: a newer file may have any shape, and must be refused as newer.
    let version = try keyed.decode(Int.self, forKey: .version)
    if version > FavouritesManifest.currentVersion { throw UnsupportedVersion(version: version) }
    if version < 1 {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: keyed, debugDescription: "\(version) is not a manifest version")
    }
    try FavouritesManifest.refuseUnknownKeys(container, known: CodingKeys.allCases.map(\.rawValue))
    let entries = try keyed.decode([Entry].self, forKey: .saved)
    self.version = version
    saved = FavouritesManifest.normalised(entries)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(saved, forKey: .saved)
  }

  /// The file's bytes: pretty-printed, keys sorted, slashes unescaped, a final newline.
  public func encoded() -> Data {
    // Strings, booleans, integers and formatted dates cannot fail to encode.
    guard let data = try? JSONEncoder(.pretty).encode(self) else {
      preconditionFailure("a favourites manifest always encodes")
    }
    // Foundation prints an empty list as "[\n\n  ]"; names cannot hold a raw newline (JSON
    // escapes it), so this only ever matches the empty `saved` list.
    let text = String(decoding: data, as: UTF8.self).replacingOccurrences(
      of: "[\n\n  ]", with: "[]")
    return Data((text + "\n").utf8)
  }

  // MARK: Queries

  /// The entry of `family`, compared case-insensitively.
  public func entry(for family: String) -> Entry? {
    index(of: family).map { saved[$0] }
  }

  /// Whether `family` is saved (case-insensitively): a run draws the heart from this.
  public func isSaved(_ family: String) -> Bool {
    index(of: family) != nil
  }

  /// The saved family names, most recent first.
  public var families: [String] { saved.map(\.family) }

  public var isEmpty: Bool { saved.isEmpty }

  func index(of family: String) -> Int? {
    let key = FavouritesManifest.key(family)
    return saved.firstIndex { FavouritesManifest.key($0.family) == key }
  }

  // MARK: Changes

  /// Saves families at `date`. A family not yet saved goes to the top (of several at once, the
  /// last given is the newest, on top); one already saved keeps its `savedAt` and place, takes the spelling and
  /// custom flag given, and takes the specimen when one is given. Returns the entries that are
  /// new. A specimen path that would leave the output folder is ignored.
  @discardableResult
  public mutating func add(_ additions: [Addition], at date: Date) -> [Entry] {
    let date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    var fresh: [Entry] = []
    for addition in additions {
      let specimen = addition.specimen.flatMap {
        FavouritesManifest.isInsideOutput($0) ? $0 : nil
      }
      if let i = index(of: addition.family) {
        saved[i].family = addition.family
        saved[i].custom = addition.custom
        if let specimen { saved[i].specimen = specimen }
      } else if let j = fresh.firstIndex(where: {
        FavouritesManifest.key($0.family) == FavouritesManifest.key(addition.family)
      }) {
        fresh[j].family = addition.family
        fresh[j].custom = addition.custom
        if let specimen { fresh[j].specimen = specimen }
      } else {
        fresh.append(
          Entry(family: addition.family, savedAt: date, custom: addition.custom, specimen: specimen)
        )
      }
    }
    // Saved in the second they were given: each later name counts as the newer, so the list
    // (most recent first) shows `saved add A B` as B, then A.
    saved = FavouritesManifest.normalised(fresh.reversed() + saved)
    return fresh
  }

  /// Records specimen paths (keyed by family name, case-insensitively) on entries that are
  /// saved; other names are ignored.
  public mutating func setSpecimens(_ specimens: [String: String]) {
    guard !saved.isEmpty else { return }
    for (family, path) in specimens where FavouritesManifest.isInsideOutput(path) {
      if let i = index(of: family) { saved[i].specimen = path }
    }
  }

  /// Removes families (case-insensitively); returns the entries removed, in the order asked.
  @discardableResult
  public mutating func remove(_ families: [String]) -> [Entry] {
    var removed: [Entry] = []
    for family in families {
      if let i = index(of: family) { removed.append(saved.remove(at: i)) }
    }
    return removed
  }

  /// Removes every entry; returns how many there were.
  @discardableResult
  public mutating func removeAll() -> Int {
    defer { saved = [] }
    return saved.count
  }

  // MARK: Rules

  /// Names are compared case-insensitively, as fontconfig matches them.
  package static func key(_ family: String) -> String { family.lowercased() }

  /// One entry per family (the earliest saved; the first in the file on a tie), then most
  /// recent first with ties in their given order.
  static func normalised(_ entries: [Entry]) -> [Entry] {
    var keep: [String: Int] = [:]
    var unique: [Entry] = []
    for entry in entries {
      let k = key(entry.family)
      if let i = keep[k] {
        if entry.savedAt < unique[i].savedAt { unique[i] = entry }
      } else {
        keep[k] = unique.count
        unique.append(entry)
      }
    }
    return unique.enumerated().sorted { a, b in
      a.element.savedAt != b.element.savedAt
        ? a.element.savedAt > b.element.savedAt : a.offset < b.offset
    }.map(\.element)
  }

  /// A relative path that stays inside the output folder: not empty, not absolute, no `..`.
  public static func isInsideOutput(_ path: String) -> Bool {
    !path.isEmpty && !path.hasPrefix("/") && !path.contains("\0")
      && !path.split(separator: "/", omittingEmptySubsequences: false).contains("..")
  }

  static func refuseUnknownKeys(_ container: KeyedDecodingContainer<AnyKey>, known: [String])
    throws
  {
    for key in container.allKeys where !known.contains(key.stringValue) {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath + [key],
          debugDescription: "unknown key '\(key.stringValue)'"))
    }
  }
}

/// Any JSON object key, for finding keys a decoder does not know.
struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}
