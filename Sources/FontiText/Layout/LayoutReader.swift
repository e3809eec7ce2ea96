extension LayoutRules {
  /// Work units (glyphs of a coverage or class, rules, pair cells, deltas) one table's read
  /// costs at most: a hostile table's offsets, pointing at the same bytes many times over, cost
  /// no more than this, and the lookups past it are `.unreadable`. Noto Sans CJK's GPOS reads
  /// in about a tenth of it.
  package static let readLimit = 4_000_000

  /// Reads `bytes` as `table` (GSUB or GPOS) of a face of `glyphCount` glyphs whose GDEF is
  /// `gdef` (empty: none), at the normalized variation `coordinates` (F2Dot14, as
  /// `HarfBuzzFace.normalizedCoordinates` gives them; none: the default instance); with
  /// `features`, only their lookups and those their context rules call (the rest `.empty`). Never
  /// traps: whatever is damaged is reported, per lookup where it can be.
  package static func read(
    _ table: LayoutTable, _ bytes: UnsafeRawBufferPointer, gdef: UnsafeRawBufferPointer,
    glyphCount: Int, coordinates: [Int] = [], features: Set<String>? = nil
  ) -> LayoutRules {
    var reader = LayoutReader(
      bytes: TableBytes(bytes), gdef: TableBytes(gdef), glyphCount: glyphCount,
      coordinates: coordinates)
    reader.onlyFeatures = features
    reader.definitions = reader.readDefinitions()
    return reader.readRules(table)
  }
}

extension LayoutGlyphDefinitions {
  /// Reads GDEF's glyph classes, mark attachment classes and mark glyph sets from `gdef` (a
  /// face of `glyphCount` glyphs); empty when `gdef` is.
  package static func read(_ gdef: UnsafeRawBufferPointer, glyphCount: Int)
    -> LayoutGlyphDefinitions
  {
    var reader = LayoutReader(
      bytes: TableBytes(gdef), gdef: TableBytes(gdef), glyphCount: glyphCount, coordinates: [])
    return reader.readDefinitions()
  }
}

/// Why a part of a layout table cannot be read.
struct LayoutDamage: Error {
  var reason: String

  static let tooLarge = LayoutDamage(reason: "more rules than can be read")
}

/// What every read of a GSUB or GPOS starts from: its feature list (feature variations applied),
/// its language systems, where its lookup list is, and what could not be read of them.
struct LayoutHeader {
  var features: [(tag: String, lookups: [Int])] = []
  var languageSystems: [LayoutLanguageSystem] = []
  /// The lookup list's offset in the table; 0 when there is none.
  var lookupList = 0
  var problems: [String] = []

  /// The lookups of the features tagged `tags`.
  func lookups(of tags: Set<String>) -> Set<Int> {
    Set(features.filter { tags.contains($0.tag) }.flatMap(\.lookups))
  }
}

/// One read of a layout table: its bytes, GDEF's, the face's glyph count, the coordinates, what
/// is left of the budget, and what is read once and shared (class definitions, region scalars).
struct LayoutReader {
  let bytes: TableBytes
  let gdef: TableBytes
  let glyphCount: Int
  let coordinates: [Int]
  var budget = LayoutRules.readLimit
  var definitions = LayoutGlyphDefinitions()
  /// When set, only the lookups of these features (and those their context rules call) are
  /// read; the others are left `.empty`.
  var onlyFeatures: Set<String>?
  /// GDEF's ItemVariationStore, its offset in GDEF.
  var variationStore: Int?
  /// Each region's scalar at `coordinates`, by region index.
  var regionScalars: [Int: Double] = [:]
  /// Class definitions read so far, by offset in `bytes`.
  var classDefinitions: [Int: LayoutClasses] = [:]
  /// Coverage tables read as sets so far, by offset in `bytes`.
  var coverageSets: [Int: Set<UInt32>] = [:]
  /// Context rules' glyph sets by number (`intern`), and where each number came from.
  var internedSets: [Set<UInt32>] = []
  var internedNumbers: [Set<UInt32>: Int] = [:]
  var coverageNumbers: [Int: Int] = [:]
  var glyphSetNumbers: [Int: Int] = [:]
  /// Every glyph of the face, made once for class 0 of a class definition.
  var allGlyphs: Set<UInt32>?

  init(bytes: TableBytes, gdef: TableBytes, glyphCount: Int, coordinates: [Int]) {
    self.bytes = bytes
    self.gdef = gdef
    self.glyphCount = max(0, min(glyphCount, 65536))
    self.coordinates = coordinates
  }

  /// Spends `units` of the budget; throws when it runs out.
  mutating func spend(_ units: Int) throws(LayoutDamage) {
    budget -= max(0, units)
    if budget < 0 { throw .tooLarge }
  }

  // MARK: - The table

  mutating func readRules(_ table: LayoutTable) -> LayoutRules {
    let header = readHeader()
    var known: [LayoutLookup?] = []
    return rules(table, header, only: onlyFeatures.map(header.lookups(of:)), known: &known)
  }

  /// The table's header, feature list (feature variations applied) and script list.
  mutating func readHeader() -> LayoutHeader {
    var header = LayoutHeader()
    guard bytes.count > 0 else { return header }
    guard let major = bytes.u16(0), let minor = bytes.u16(2), major == 1,
      let scripts = bytes.u16(4), let features = bytes.u16(6), let lookups = bytes.u16(8)
    else {
      header.problems = ["its header cannot be read"]
      return header
    }
    do {
      header.features = try readFeatureList(features)
      if minor >= 1, let variations = bytes.u32(10), variations > 0 {
        try applyFeatureVariations(at: variations, to: &header.features)
      }
    } catch {
      header.problems.append("its feature list: \(error.reason)")
    }
    do {
      header.languageSystems = try readScriptList(scripts, features: header.features)
    } catch {
      header.problems.append("its script list: \(error.reason)")
    }
    header.lookupList = lookups
    return header
  }

  /// The rules of the table whose header is `header`: the `wanted` lookups (nil: all) and those
  /// their context rules call, read unless `known` holds them (read before, from these bytes);
  /// those read are added to it, but for a lookup the budget ran out on.
  mutating func rules(
    _ table: LayoutTable, _ header: LayoutHeader, only wanted: Set<Int>?,
    known: inout [LayoutLookup?]
  ) -> LayoutRules {
    var rules = LayoutRules(
      table: table, languageSystems: header.languageSystems, lookups: [], problem: nil)
    var problems = header.problems
    do {
      rules.lookups = try readLookupList(
        header.lookupList, table: table, only: wanted, known: &known)
    } catch {
      problems.append("its lookup list: \(error.reason)")
    }
    rules.problem = problems.isEmpty ? nil : problems.joined(separator: "; ")
    return rules
  }

  /// The features, in order: tag and lookup indices.
  mutating func readFeatureList(_ list: Int) throws(LayoutDamage) -> [(tag: String, lookups: [Int])]
  {
    guard list > 0 else { return [] }
    let count = try bytes.read16(list)
    try spend(count)
    var out: [(tag: String, lookups: [Int])] = []
    for i in 0..<count {
      let record = list + 2 + 6 * i
      let tag = try bytes.tag(record)
      out.append((tag, try readFeature(list + (try bytes.read16(record + 4)))))
    }
    return out
  }

  /// A Feature table's lookup indices.
  mutating func readFeature(_ offset: Int) throws(LayoutDamage) -> [Int] {
    let count = try bytes.read16(offset + 2)
    try spend(count)
    return try (0..<count).map { (i: Int) throws(LayoutDamage) in
      try bytes.read16(offset + 4 + 2 * i)
    }
  }

  /// FeatureVariations: the first record whose conditions hold at the coordinates replaces the
  /// features it names.
  mutating func applyFeatureVariations(
    at offset: Int, to features: inout [(tag: String, lookups: [Int])]
  ) throws(LayoutDamage) {
    let count = try bytes.read32(offset + 4)
    try spend(min(count, 1 << 20))
    for i in 0..<count {
      let record = offset + 8 + 8 * i
      let conditions = try bytes.read32(record)
      if conditions > 0 {
        guard try conditionsHold(offset + conditions) else { continue }
      }
      let substitution = try bytes.read32(record + 4)
      guard substitution > 0 else { return }
      let table = offset + substitution
      let substitutions = try bytes.read16(table + 4)
      try spend(substitutions)
      for s in 0..<substitutions {
        let index = try bytes.read16(table + 6 + 6 * s)
        let feature = table + (try bytes.read32(table + 8 + 6 * s))
        if index < features.count { features[index].lookups = try readFeature(feature) }
      }
      return
    }
  }

  /// Whether every condition of a ConditionSet holds (format 1: an axis range).
  mutating func conditionsHold(_ set: Int) throws(LayoutDamage) -> Bool {
    let count = try bytes.read16(set)
    try spend(count)
    for i in 0..<count {
      let condition = set + (try bytes.read32(set + 2 + 4 * i))
      guard try bytes.read16(condition) == 1 else { return false }
      let axis = try bytes.read16(condition + 2)
      let low = try bytes.readSigned16(condition + 4)
      let high = try bytes.readSigned16(condition + 6)
      let value = axis < coordinates.count ? coordinates[axis] : 0
      if value < low || value > high { return false }
    }
    return true
  }

  /// Every language system, sorted by script then language (the default first).
  mutating func readScriptList(_ list: Int, features: [(tag: String, lookups: [Int])])
    throws(LayoutDamage) -> [LayoutLanguageSystem]
  {
    guard list > 0 else { return [] }
    let count = try bytes.read16(list)
    try spend(count)
    var out: [LayoutLanguageSystem] = []
    var seen = Set<[String?]>()
    for i in 0..<count {
      let script = try bytes.tag(list + 2 + 6 * i)
      let table = list + (try bytes.read16(list + 6 + 6 * i))
      var systems: [(String?, Int)] = []
      if let defaultSystem = bytes.u16(table), defaultSystem > 0 {
        systems.append((nil, table + defaultSystem))
      }
      let languages = try bytes.read16(table + 2)
      try spend(languages)
      for l in 0..<languages {
        let record = table + 4 + 6 * l
        systems.append((try bytes.tag(record), table + (try bytes.read16(record + 4))))
      }
      for (language, offset) in systems where seen.insert([script, language]).inserted {
        out.append(try readLanguageSystem(offset, script, language, features))
      }
    }
    return out.sorted { ($0.script, $0.language ?? "") < ($1.script, $1.language ?? "") }
  }

  mutating func readLanguageSystem(
    _ offset: Int, _ script: String, _ language: String?,
    _ features: [(tag: String, lookups: [Int])]
  ) throws(LayoutDamage) -> LayoutLanguageSystem {
    var system = LayoutLanguageSystem(
      script: script, language: language, features: [:], requiredFeature: nil)
    var indices: [Int] = []
    let required = try bytes.read16(offset + 2)
    if required != 0xFFFF, required < features.count {
      system.requiredFeature = features[required].tag
      indices.append(required)
    }
    let count = try bytes.read16(offset + 4)
    try spend(count)
    for i in 0..<count { indices.append(try bytes.read16(offset + 6 + 2 * i)) }
    var merged: [String: Set<Int>] = [:]
    for index in indices where index < features.count {
      try spend(features[index].lookups.count)
      merged[features[index].tag, default: []].formUnion(features[index].lookups)
    }
    system.features = merged.mapValues { $0.sorted() }
    return system
  }

  // MARK: - Lookups

  mutating func readLookupList(
    _ list: Int, table: LayoutTable, only wanted: Set<Int>? = nil, known: inout [LayoutLookup?]
  ) throws(LayoutDamage) -> [LayoutLookup] {
    guard list > 0 else { return [] }
    let count = try bytes.read16(list)
    try spend(count)
    if known.count != count { known = Array(repeating: nil, count: count) }
    let unread = LayoutLookup(
      flags: 0, markAttachmentGlyphs: nil, markFilteringGlyphs: nil, rules: .empty)
    var out = known.map { $0 ?? unread }
    // Every lookup, or the wanted ones and those their context rules call, each once.
    var pending = wanted.map { $0.filter { $0 < count }.sorted(by: >) } ?? (0..<count).reversed()
    var seen = Set(pending)
    while let i = pending.popLast() {
      if known[i] == nil {
        do {
          let offset = list + (try bytes.read16(list + 2 + 2 * i))
          out[i] = try readLookup(offset, table: table)
          known[i] = out[i]
        } catch {
          out[i] = LayoutLookup(
            flags: 0, markAttachmentGlyphs: nil, markFilteringGlyphs: nil,
            rules: .unreadable(error.reason))
          // Damage is the bytes'; a budget spent is this read's only.
          if error.reason != LayoutDamage.tooLarge.reason { known[i] = out[i] }
        }
      }
      guard wanted != nil else { continue }
      switch out[i].rules {
      case .contextSubstitution(let groups), .contextPositioning(let groups):
        for group in groups {
          for rule in group.rules {
            for action in rule.actions
            where action.lookupIndex < count && seen.insert(action.lookupIndex).inserted {
              pending.append(action.lookupIndex)
            }
          }
        }
      default: break
      }
    }
    return out
  }

  /// One lookup: its flag resolved through GDEF, its subtables (through extension subtables)
  /// read as one set of rules.
  mutating func readLookup(_ offset: Int, table: LayoutTable) throws(LayoutDamage)
    -> LayoutLookup
  {
    let type = try bytes.read16(offset)
    let flag = try bytes.read16(offset + 2)
    let count = try bytes.read16(offset + 4)
    try spend(count)
    var lookup = LayoutLookup(
      flags: UInt16(flag & 0x00EF), markAttachmentGlyphs: nil, markFilteringGlyphs: nil,
      rules: .empty)
    if flag >> 8 != 0 {
      let wanted = flag >> 8
      lookup.markAttachmentGlyphs = Set(
        definitions.markAttachmentClasses.compactMap { $0.value == wanted ? $0.key : nil })
    }
    if flag & 0x10 != 0 {
      let set = try bytes.read16(offset + 6 + 2 * count)
      let sets = definitions.markGlyphSets
      lookup.markFilteringGlyphs = set < sets.count ? sets[set] : []
    }
    let extensionType = table == .gsub ? 7 : 9
    var subtables: [Int] = []
    var resolvedType: Int?
    for s in 0..<count {
      var subtable = offset + (try bytes.read16(offset + 6 + 2 * s))
      var subtableType = type
      if type == extensionType {
        guard try bytes.read16(subtable) == 1 else {
          throw LayoutDamage(reason: "an extension subtable of an unknown format")
        }
        subtableType = try bytes.read16(subtable + 2)
        subtable += try bytes.read32(subtable + 4)
        guard subtableType != extensionType else {
          throw LayoutDamage(reason: "an extension subtable that points to an extension")
        }
      }
      guard resolvedType == nil || resolvedType == subtableType else {
        throw LayoutDamage(reason: "subtables of different types")
      }
      resolvedType = subtableType
      subtables.append(subtable)
    }
    guard let kind = resolvedType else { return lookup }
    lookup.rules =
      table == .gsub
      ? try readSubstitution(kind, subtables) : try readPositioning(kind, subtables)
    if lookup.rules.isEmpty { lookup.rules = .empty }
    return lookup
  }

  mutating func readSubstitution(_ type: Int, _ subtables: [Int]) throws(LayoutDamage)
    -> LayoutLookupRules
  {
    switch type {
    case 1: return .singleSubstitution(try readSingleSubstitution(subtables))
    case 2: return .multipleSubstitution(try readSequences(subtables, alternates: false))
    case 3: return .alternateSubstitution(try readSequences(subtables, alternates: true))
    case 4: return .ligatureSubstitution(try readLigatures(subtables))
    case 5, 6: return .contextSubstitution(try readContexts(subtables, chained: type == 6))
    case 8: return .reverseChainSubstitution(try readReverseChains(subtables))
    default: throw LayoutDamage(reason: "GSUB lookup type \(type)")
    }
  }

  mutating func readPositioning(_ type: Int, _ subtables: [Int]) throws(LayoutDamage)
    -> LayoutLookupRules
  {
    switch type {
    case 1: return .singlePositioning(try readSinglePositioning(subtables))
    case 2: return .pairPositioning(try readPairs(subtables))
    case 3: return .cursivePositioning(try readCursive(subtables))
    case 4: return .markToBase(try readMarkAttachments(subtables, ligatures: false))
    case 5: return .markToLigature(try readMarkAttachments(subtables, ligatures: true))
    case 6: return .markToMark(try readMarkAttachments(subtables, ligatures: false))
    case 7, 8: return .contextPositioning(try readContexts(subtables, chained: type == 8))
    default: throw LayoutDamage(reason: "GPOS lookup type \(type)")
    }
  }
}

extension LayoutLookupRules {
  /// Whether the rules hold nothing that could apply.
  var isEmpty: Bool {
    switch self {
    case .empty: return true
    case .unreadable: return false
    case .singleSubstitution(let map): return map.isEmpty
    case .multipleSubstitution(let map), .alternateSubstitution(let map): return map.isEmpty
    case .ligatureSubstitution(let map): return map.isEmpty
    case .contextSubstitution(let groups), .contextPositioning(let groups): return groups.isEmpty
    case .reverseChainSubstitution(let groups): return groups.isEmpty
    case .singlePositioning(let map): return map.isEmpty
    case .pairPositioning(let pairs): return pairs.values.isEmpty
    case .cursivePositioning(let map): return map.isEmpty
    case .markToBase(let classes), .markToLigature(let classes), .markToMark(let classes):
      return classes.isEmpty
    }
  }
}

extension TableBytes {
  /// `u16`, or a damage past the end.
  func read16(_ offset: Int) throws(LayoutDamage) -> Int {
    guard let value = u16(offset) else { throw LayoutDamage(reason: "an offset past its end") }
    return value
  }

  func readSigned16(_ offset: Int) throws(LayoutDamage) -> Int {
    guard let value = i16(offset) else { throw LayoutDamage(reason: "an offset past its end") }
    return value
  }

  func read32(_ offset: Int) throws(LayoutDamage) -> Int {
    guard let value = u32(offset) else { throw LayoutDamage(reason: "an offset past its end") }
    return value
  }

  /// A four-byte tag as text, trailing spaces dropped (`TRK`; bytes outside printable ASCII as
  /// `?`).
  func tag(_ offset: Int) throws(LayoutDamage) -> String {
    var text = ""
    for i in 0..<4 {
      guard let byte = u8(offset + i) else { throw LayoutDamage(reason: "an offset past its end") }
      text.unicodeScalars.append(Unicode.Scalar(UInt8((0x20...0x7E).contains(byte) ? byte : 0x3F)))
    }
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}
