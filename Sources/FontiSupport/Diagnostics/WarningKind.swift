/// The stable name of a kind of warning: what the manifest, `--json`, `--strict=KIND` and the
/// documentation (docs/warnings.md) call it.
///
/// Kinds are of two groups. `job` kinds are about the job — something its author can act on
/// (a pattern that matches nothing, a coordinate out of range, a sample text a family cannot
/// set) — and fail `--strict`. `font` kinds are facts about installed fonts (a face that covers
/// less than its family's regular face, a family shown in its own script): recorded, printed as
/// one counted line, and failing `--strict` only when named.
public enum WarningKind: String, Sendable, Hashable, CaseIterable, Comparable {
  // About the job.
  case missingGlyphs = "missing-glyphs"
  case unmatchedPattern = "unmatched-pattern"
  case axisRange = "axis-range"
  case unknownSetting = "unknown-setting"
  case noStyle = "no-style"
  case duplicatePairing = "duplicate-pairing"
  case catalogueEmpty = "catalogue-empty"
  case catalogueKept = "catalogue-kept"
  case fontFile = "font-file"
  case outputFile = "output-file"
  case environment = "environment"
  case other = "other"
  // Facts about installed fonts.
  case ownScript = "own-script"
  case faceCoverage = "face-coverage"
  case faceWeight = "face-weight"
  case notDrawable = "not-drawable"
  case proofsUnreadable = "proofs-unreadable"
  case customOverrides = "custom-overrides"
  case unvaried = "unvaried"
  case faceAbsent = "face-absent"
  case colourNotDrawn = "colour-not-drawn"

  public enum Group: String, Sendable {
    /// Something the job's author can act on: fails `--strict`.
    case job
    /// A fact about installed fonts: fails `--strict` only when named.
    case font = "font-fact"
  }

  public var group: Group {
    switch self {
    case .ownScript, .faceCoverage, .faceWeight, .notDrawable, .proofsUnreadable,
      .customOverrides, .unvaried, .faceAbsent, .colourNotDrawn:
      return .font
    default:
      return .job
    }
  }

  public static func < (a: WarningKind, b: WarningKind) -> Bool { a.rawValue < b.rawValue }

  /// What the kind means, in one line (docs/warnings.md says more): CI reports' rule texts.
  public var meaning: String {
    switch self {
    case .missingGlyphs:
      return "A family that writes the sample's script lacks some of its characters."
    case .unmatchedPattern: return "An include or exclude pattern matches no installed family."
    case .axisRange:
      return "A coordinate lies outside a family's axis; it is drawn at the nearest end."
    case .unknownSetting: return "A feature or axis the selected families do not have."
    case .noStyle: return "A bold or italic was asked for and the family has no such face."
    case .duplicatePairing: return "A pairing is listed twice in pairings.extra."
    case .catalogueEmpty: return "A catalogue's families match no family that can be drawn."
    case .catalogueKept:
      return "--only left a catalogue as it was: some of its families are not up to date."
    case .fontFile: return "A font folder of the job holds no font, or a library file is skipped."
    case .outputFile:
      return "An old output could not be removed, or a thumbnail or the gallery could not be made."
    case .environment: return "SOURCE_DATE_EPOCH is set but unusable."
    case .other: return "A warning of no other kind."
    case .ownScript:
      return "A family does not write the sample's script; its specimen shows its own."
    case .faceCoverage: return "A face of the family lacks characters its regular face has."
    case .faceWeight: return "A face's name and its weight disagree."
    case .notDrawable: return "A family, a partner or a pairing cannot be drawn."
    case .proofsUnreadable: return "A font file cannot be read for the proofs."
    case .customOverrides: return "A custom font of the job has the name of an installed family."
    case .unvaried: return "An axis sweep or named instances that draw alike."
    case .colourNotDrawn:
      return "A family's colour glyphs (COLRv1, SVG) are drawn in one colour."
    case .faceAbsent: return "A face name `styles:` asks for is not a face of every family."
    }
  }

  /// Whether `summary` counts families (a family may warn of it more than once: its specimen,
  /// then each catalogue that shows it) rather than warnings.
  public var summaryCountsFamilies: Bool {
    switch self {
    case .ownScript, .faceCoverage, .faceWeight, .proofsUnreadable, .customOverrides,
      .colourNotDrawn:
      return true
    default: return false
    }
  }

  /// What a run prints for `count` warnings of a font-fact kind, in place of each one: one line
  /// with the count ("199 families cannot set the sample text; each shows its own script").
  public func summary(_ count: Int) -> String {
    let families = count == 1 ? "1 family" : "\(count) families"
    switch self {
    case .ownScript:
      return count == 1
        ? "1 family cannot set the sample text; its specimen shows its own script"
        : "\(count) families cannot set the sample text; each specimen shows its own script"
    case .faceCoverage:
      return "\(families) with faces that cover less than their regular face"
    case .faceWeight:
      return "\(families) whose face names and weights disagree"
    case .notDrawable:
      return "\(count) warning\(count == 1 ? "" : "s") of families or partners that cannot be drawn"
    case .proofsUnreadable:
      return "\(families) whose proofs could not be read"
    case .customOverrides:
      return
        "\(count) custom famil\(count == 1 ? "y has" : "ies have") the name of an installed one"
    case .colourNotDrawn:
      return "\(families) whose colour glyphs are drawn in one colour"
    case .unvaried:
      return
        "\(count) axis sweep\(count == 1 ? "" : "s") or named instance\(count == 1 ? "" : "s") "
        + "that draw alike"
    case .faceAbsent:
      return count == 1
        ? "1 face name of styles: is not in every family; their pages name it as absent"
        : "\(count) face names of styles: are not in every family; their pages name them as absent"
    default:
      return "\(count) \(rawValue) warning\(count == 1 ? "" : "s")"
    }
  }

  /// The kind of a warning, from its message. Every warning fonti-batch makes has one of the
  /// shapes below (WarningKindTests pins each producer's message to its kind); a message of no
  /// known shape is `other`, which counts as the job's, so an unknown warning still fails
  /// `--strict`.
  public static func of(_ message: String) -> WarningKind {
    func has(_ s: String) -> Bool { message.contains(s) }
    if has("; its specimen shows ") || has("; it shows its own script") { return .ownScript }
    if has(" drawn in one colour") { return .colourNotDrawn }
    if has(" of the sample text (") || has(" glyphs of the pairing ")
      || (message.hasPrefix("catalogue '") && (has("has no glyph for") || has("missing glyph")))
    {
      return .missingGlyphs
    }
    if has("matches no family") { return .unmatchedPattern }
    if has(" is outside ") && has("; drawn at ") { return .axisRange }
    if (message.hasPrefix("feature '") || message.hasPrefix("axis '"))
      && (has("is not in family") || has("is in none of the selected families"))
    {
      return .unknownSetting
    }
    if has(" face; shown in ") && has("has no real ") { return .noStyle }
    if message.hasPrefix("face '") && has(" families; their catalogue pages name it as absent") {
      return .faceAbsent
    }
    if message.hasPrefix("pairing '") && has(" is listed twice") { return .duplicatePairing }
    if message.hasPrefix("catalogue '") && has("has no family to show") { return .catalogueEmpty }
    if message.hasPrefix("catalogue '") && has(" is left as it was") { return .catalogueKept }
    if has("its proofs are not listed") || has("features are not listed")
      || has(" damaged colour bitmap")
    {
      return .proofsUnreadable
    }
    // What FamilyProofReport reads about a family's faces: "family 'X': Bold lacks 126
    // characters of Book: …", "family 'X': face 'Bold' has a regular weight …".
    if message.hasPrefix("family '") && has("': ") {
      if has(": the face drawn does not vary") || has(" are drawn alike, at different coordinates")
      {
        return .unvaried
      }
      if has("fontconfig and Pango") { return .faceWeight }
      if has(" lacks ") { return .faceCoverage }
    }
    if has("cannot be rendered: its fonts are") || has("cannot be drawn")
      || has("could not be drawn") || message.hasPrefix("partner left out")
      || has("has no font Pango can draw")
    {
      return .notDrawable
    }
    if has("has the name of an installed family") { return .customOverrides }
    if has("(in the font library; skipped)") || message.hasPrefix("font folder '") {
      return .fontFile
    }
    if message.hasPrefix("cannot remove '") || message.hasPrefix("cannot make the thumbnail")
      || message.hasPrefix("gallery: ")
    {
      return .outputFile
    }
    if has("SOURCE_DATE_EPOCH") { return .environment }
    return .other
  }
}

/// Which warnings fail a run or a check (`--strict`, `--strict=KIND,...`).
public struct StrictPolicy: Sendable, Hashable {
  /// The kinds named, or nil for the default: every kind of the `job` group.
  public var kinds: Set<WarningKind>?

  public init(kinds: Set<WarningKind>? = nil) { self.kinds = kinds }

  /// `--strict`: the job's kinds.
  public static let job = StrictPolicy()
  /// `--strict=all`: every kind.
  public static let all = StrictPolicy(kinds: Set(WarningKind.allCases))

  public func fails(_ kind: WarningKind) -> Bool {
    kinds?.contains(kind) ?? (kind.group == .job)
  }

  /// `KIND,KIND` (or `all`, or `job` for the default); nil with the word that is no kind.
  public static func parse(_ text: String) -> Result<StrictPolicy, UnknownKind> {
    var kinds: Set<WarningKind> = []
    for word in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = word.trimmingCharacters(in: .whitespaces).lowercased()
      switch name {
      case "all": kinds.formUnion(WarningKind.allCases)
      case "job": kinds.formUnion(WarningKind.allCases.filter { $0.group == .job })
      default:
        guard let kind = WarningKind(rawValue: name) else {
          return .failure(UnknownKind(word: String(word)))
        }
        kinds.insert(kind)
      }
    }
    return .success(StrictPolicy(kinds: kinds))
  }

  public struct UnknownKind: Error, Sendable {
    public var word: String
    /// "unknown warning kind 'missing-glyph' (did you mean 'missing-glyphs'?)".
    public var message: String {
      let names = WarningKind.allCases.map(\.rawValue) + ["all", "job"]
      let hint = Suggest.didYouMean(word, among: names).map { " (did you mean '\($0)'?)" } ?? ""
      return "unknown warning kind '\(Sanitize.terminal(word))'\(hint); kinds: "
        + WarningKind.allCases.map(\.rawValue).sorted().joined(separator: ", ")
    }
  }

  /// The warnings among `diagnostics` that fail under this policy, counted by kind, in kind
  /// order: "missing-glyphs ×3, unmatched-pattern ×1".
  public func failing(_ diagnostics: [Diagnostic]) -> [(kind: WarningKind, count: Int)] {
    var counts: [WarningKind: Int] = [:]
    for d in diagnostics where d.severity == .warning {
      let kind = d.kind
      if fails(kind) { counts[kind, default: 0] += 1 }
    }
    return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// The one line that says why `--strict` fails, naming the families by kind (a family
  /// warned of twice, by its specimen and a catalogue, counts once): "failing under --strict:
  /// missing-glyphs in 2 families (Cantarell, DejaVu Serif), unmatched-pattern ×1"; nil when
  /// nothing fails.
  public func failingLine(_ diagnostics: [Diagnostic]) -> String? {
    var families: [WarningKind: [String]] = [:]
    var others: [WarningKind: Int] = [:]
    for d in diagnostics where d.severity == .warning && fails(d.kind) {
      if let family = Diagnostic.family(in: d.message) {
        if !(families[d.kind]?.contains(family) ?? false) {
          families[d.kind, default: []].append(family)
        }
      } else {
        others[d.kind, default: 0] += 1
      }
    }
    let kinds = Set(families.keys).union(others.keys).sorted()
    guard !kinds.isEmpty else { return nil }
    let parts = kinds.map { kind -> String in
      var part: [String] = []
      if let names = families[kind] {
        let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
        let noun = names.count == 1 ? "1 family" : "\(names.count) families"
        part.append("\(kind.rawValue) in \(noun) (\(shown))")
      }
      if let count = others[kind] {
        part.append(families[kind] == nil ? "\(kind.rawValue) ×\(count)" : "and \(count) more")
      }
      return part.joined(separator: " ")
    }
    return "failing under --strict: " + parts.joined(separator: ", ")
  }
}

extension Diagnostic {
  /// The family a warning is about: the name in its first "family '…'" (the shape every
  /// warning about a family has); nil for a warning about no family.
  public static func family(in message: String) -> String? {
    guard let start = message.range(of: "family '") else { return nil }
    let rest = message[start.upperBound...]
    guard let end = rest.range(of: "'") else { return nil }
    return String(rest[..<end.lowerBound])
  }

  /// The warning's kind (for an error, the kind its message would have: unused).
  public var kind: WarningKind { WarningKind.of(message) }
}

extension Diagnostic {
  /// The family a warning names first ("family 'X' …", "catalogue 'c.pdf': family 'X' …"), read
  /// from its message as its kind is.
  public var namedFamily: String? {
    guard let start = message.range(of: "family '") else { return nil }
    let rest = message[start.upperBound...]
    guard let end = rest.range(of: "' ") ?? rest.range(of: "':") else { return nil }
    return String(rest[..<end.lowerBound])
  }
}
