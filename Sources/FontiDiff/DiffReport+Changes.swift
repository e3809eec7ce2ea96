extension DiffReport {
  /// One change with a stable `kind` (docs/diff.md lists them): diff.json's `changes` lists every
  /// change of a family this way, beside the fields that say some of them in detail (`glyphs`,
  /// `metrics`, `shaping`…), and `info` the differences that are information only.
  public struct Change: Codable, Sendable, Hashable {
    /// `os2.weightClass`, `name.13`, `hinting.fpgm`, `outline`, `metrics.hhea.ascender`…
    public var kind: String
    /// The face's label, as the other fields name it.
    public var face: String
    /// The named instance of a variable font, where the change is at one.
    public var instance: String?
    /// What in the face changed, where the kind alone does not say: a code point, a name
    /// record (`3/1/0x0409`: platform, encoding, language), a table tag, a feature tag.
    public var subject: String?
    /// The value on each side; null where that side has none (a table added or removed).
    public var before: DiffValue
    public var after: DiffValue
    /// The change in words, without the face.
    public var text: String
    /// For a face compared across a migration (`Faces.migrated`): the file and the instance
    /// on each side.
    public var pairedWith: PairedWith? = nil

    public init(
      kind: String, face: String, instance: String? = nil, subject: String? = nil,
      before: DiffValue, after: DiffValue, text: String
    ) {
      self.kind = kind
      self.face = face
      self.instance = instance
      self.subject = subject
      self.before = before
      self.after = after
      self.text = text
    }
  }

  /// A value as diff.json writes it: null, a number, a string, a flag or a list of them.
  public enum DiffValue: Codable, Sendable, Hashable, CustomStringConvertible {
    case none
    case int(Int)
    case number(Double)
    case text(String)
    case flag(Bool)
    case list([DiffValue])

    public init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if c.decodeNil() {
        self = .none
      } else if let b = try? c.decode(Bool.self) {
        self = .flag(b)
      } else if let i = try? c.decode(Int.self) {
        self = .int(i)
      } else if let d = try? c.decode(Double.self) {
        self = .number(d)
      } else if let s = try? c.decode(String.self) {
        self = .text(s)
      } else {
        self = .list(try c.decode([DiffValue].self))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.singleValueContainer()
      switch self {
      case .none: try c.encodeNil()
      case .int(let i): try c.encode(i)
      case .number(let d): try c.encode(d.isFinite ? d : 0)
      case .text(let s): try c.encode(s)
      case .flag(let b): try c.encode(b)
      case .list(let l): try c.encode(l)
      }
    }

    /// As the review's words say it: "none" for null, lists comma-separated.
    public var description: String {
      switch self {
      case .none: return "none"
      case .int(let i): return "\(i)"
      case .number(let d): return DiffNumber.text(d)
      case .text(let s): return s
      case .flag(let b): return b ? "yes" : "no"
      case .list(let l): return l.isEmpty ? "none" : l.map(\.description).joined(separator: ", ")
      }
    }

    init(_ value: Int?) { self = value.map { .int($0) } ?? .none }
  }
}

/// diff.json's `changes`: every change of a family with its kind, the declared ones as compared
/// and those the other fields hold, said once more in the one shape scripts can gate on.
enum ChangeList {
  /// `metrics` keys → their kinds.
  static let metricKinds: [String: String] = [
    "unitsPerEm": "metrics.head.unitsPerEm", "hheaAscender": "metrics.hhea.ascender",
    "hheaDescender": "metrics.hhea.descender", "hheaLineGap": "metrics.hhea.lineGap",
    "typoAscender": "metrics.os2.typoAscender", "typoDescender": "metrics.os2.typoDescender",
    "typoLineGap": "metrics.os2.typoLineGap", "winAscent": "metrics.os2.winAscent",
    "winDescent": "metrics.os2.winDescent", "xHeight": "metrics.os2.xHeight",
    "capHeight": "metrics.os2.capHeight",
  ]

  /// The changes the family's other fields hold, each with its kind, then `declared` (the
  /// faces' declared values, hinting, colour and tables, as compared). `face` names the family's
  /// first face for what is compared on it alone (features and languages).
  static func make(_ f: DiffReport.Family, declared: [DiffReport.Change], face: String)
    -> [DiffReport.Change]
  {
    typealias Change = DiffReport.Change
    var out: [Change] = []
    func value(_ s: String) -> DiffReport.DiffValue { .text(s) }
    // A glyph in `glyphsMoved` is an outline edit, even one that paints no pixel at 64 px/em.
    for (g, edit) in f.glyphs.map({ ($0, false) }) + f.glyphsMoved.map({ ($0, true) }) {
      let character = FamilyComparison.character(g.codepoint)
      if g.pixels > 0 || g.moved != nil || edit {
        out.append(
          Change(
            kind: "outline", face: g.face, instance: g.instance, subject: g.codepoint,
            before: .none, after: .none,
            text: "outline of \(character) changed"
              + (g.moved.map { " (moved by up to \($0) units)" } ?? "")))
      }
      if g.advance.count == 2, g.advance[0] != g.advance[1] {
        out.append(
          Change(
            kind: "advance", face: g.face, instance: g.instance, subject: g.codepoint,
            before: .int(g.advance[0]), after: .int(g.advance[1]),
            text: "advance of \(character) \(g.advance[0]) → \(g.advance[1])"))
      }
    }
    for (points, added) in [(f.codepoints.added, true), (f.codepoints.removed, false)] {
      for point in points {
        out.append(
          Change(
            kind: added ? "cmap.added" : "cmap.removed", face: face, subject: point,
            before: added ? .none : value(point), after: added ? value(point) : .none,
            text: "character \(added ? "added" : "removed"): "
              + FamilyComparison.character(point)))
      }
    }
    func metrics(_ m: [String: [Int?]], _ face: String) {
      for key in m.keys.sorted() {
        guard let values = m[key], values.count == 2 else { continue }
        out.append(
          Change(
            kind: metricKinds[key] ?? "metrics.\(key)", face: face,
            before: .init(values[0]), after: .init(values[1]),
            text: FamilyComparison.metricLines([key: values], face: nil).first ?? key))
      }
    }
    metrics(f.metrics, face)
    for m in f.faceMetrics { metrics(m.metrics, m.face) }
    for name in f.faces.added {
      out.append(
        Change(
          kind: "face.added", face: name, before: .none, after: value(name),
          text: "face added"))
    }
    for name in f.faces.removed {
      out.append(
        Change(
          kind: "face.removed", face: name, before: value(name), after: .none,
          text: "face removed"))
    }
    for r in f.faces.renamed {
      out.append(
        Change(
          kind: "face.renamed", face: r.after, before: value(r.before), after: value(r.after),
          text: "face renamed: \(r.before) → \(r.after)"))
    }
    for a in f.axes.added {
      out.append(
        Change(
          kind: "axis.added", face: face, subject: a.tag, before: .none,
          after: value(FamilyComparison.axis(a)), text: "axis added: \(FamilyComparison.axis(a))"))
    }
    for a in f.axes.removed {
      out.append(
        Change(
          kind: "axis.removed", face: face, subject: a.tag,
          before: value(FamilyComparison.axis(a)), after: .none,
          text: "axis removed: \(FamilyComparison.axis(a))"))
    }
    for c in f.axes.changed {
      let (b, a) = (FamilyComparison.axis(c.before), FamilyComparison.axis(c.after))
      out.append(
        Change(
          kind: "axis.changed", face: c.face, subject: c.after.tag, before: value(b),
          after: value(a), text: "axis \(c.after.tag): \(b) → \(a)"))
    }
    for i in f.instances.added {
      let at = FamilyComparison.coordinates(i.coordinates)
      out.append(
        Change(
          kind: "instance.added", face: i.face, instance: i.name, before: .none,
          after: value(at), text: "instance added: \(i.name) (\(at))"))
    }
    for i in f.instances.removed {
      let at = FamilyComparison.coordinates(i.coordinates)
      out.append(
        Change(
          kind: "instance.removed", face: i.face, instance: i.name, before: value(at),
          after: .none, text: "instance removed: \(i.name) (\(at))"))
    }
    for i in f.instances.changed {
      let (b, a) = (
        FamilyComparison.coordinates(i.before), FamilyComparison.coordinates(i.after)
      )
      out.append(
        Change(
          kind: "instance.moved", face: i.face, instance: i.name, before: value(b),
          after: value(a), text: "instance \(i.name) moved: \(b) → \(a)"))
    }
    /// Names one side has and the other lacks: `kind.added` and `kind.removed`, said `words`.
    func gainedAndLost(
      _ kind: String, _ added: [String], _ removed: [String], words: (String, String)
    ) {
      for name in added {
        out.append(
          Change(
            kind: kind + ".added", face: face, subject: name, before: .none, after: value(name),
            text: "\(words.0): \(name)"))
      }
      for name in removed {
        out.append(
          Change(
            kind: kind + ".removed", face: face, subject: name, before: value(name),
            after: .none, text: "\(words.1): \(name)"))
      }
    }
    gainedAndLost(
      "feature", f.features.added, f.features.removed,
      words: ("feature added", "feature removed"))
    for c in f.features.changed {
      func sample(_ i: Int) -> DiffReport.DiffValue {
        i < c.sample.count ? (c.sample[i].map { .text($0) } ?? .none) : .none
      }
      out.append(
        Change(
          kind: "feature.changed", face: face, subject: c.tag, before: sample(0),
          after: sample(1),
          text: FamilyComparison.featureLines(DiffReport.Features(changed: [c])).first ?? c.tag))
    }
    gainedAndLost(
      "language", f.languages.added, f.languages.removed,
      words: ("language gained", "language lost"))
    for n in f.languages.nearly {
      func missing(_ m: [String]?) -> DiffReport.DiffValue {
        m.map { .list($0.map { .text($0) }) } ?? .none
      }
      out.append(
        Change(
          kind: "language.nearly", face: face, subject: n.language, before: missing(n.before),
          after: missing(n.after), text: "nearly supported language changed: \(n.language)"))
    }
    for s in f.shaping { out += shaping(s) }
    for s in f.sample {
      out.append(
        Change(
          kind: "sample", face: s.face, instance: s.instance, before: .int(s.width[0]),
          after: .int(s.width.count > 1 ? s.width[1] : s.width[0]),
          text: FamilyComparison.sampleLines([s]).first ?? "sample changed"))
    }
    return out + declared
  }

  /// A face's shaping changes, each kerning pair, feature text and mark its own change.
  static func shaping(_ s: DiffReport.FaceShaping) -> [DiffReport.Change] {
    typealias Change = DiffReport.Change
    var out: [Change] = []
    for p in s.kerning.pairs {
      out.append(
        Change(
          kind: "kerning", face: s.face, instance: p.instance, subject: p.pair,
          before: .int(p.kerning[0]), after: .int(p.kerning.count > 1 ? p.kerning[1] : 0),
          text: "kerning “\(p.pair)” \(p.kerning.map(String.init).joined(separator: " → "))"))
    }
    for e in s.features.changed {
      out.append(
        Change(
          kind: "shaping.feature", face: s.face, instance: e.instance, subject: e.tag,
          before: .list(e.before.map { .text($0) }), after: .list(e.after.map { .text($0) }),
          text: "feature \(e.tag): “\(e.text)” \(e.before.joined(separator: " ")) → "
            + e.after.joined(separator: " ")))
    }
    let lists: [(String, [String], Bool)] = [
      ("shaping.featureAdded", s.features.added, true),
      ("shaping.featureRemoved", s.features.removed, false),
      ("shaping.scriptAdded", s.features.scripts.added, true),
      ("shaping.scriptRemoved", s.features.scripts.removed, false),
      ("shaping.languageSystemAdded", s.features.languageSystems.added, true),
      ("shaping.languageSystemRemoved", s.features.languageSystems.removed, false),
    ]
    for (kind, tags, added) in lists {
      for tag in tags {
        out.append(
          Change(
            kind: kind, face: s.face, subject: tag, before: added ? .none : .text(tag),
            after: added ? .text(tag) : .none,
            text: "\(kind.dropFirst("shaping.".count)): \(tag)"))
      }
    }
    for m in s.marks {
      out.append(
        Change(
          kind: "mark", face: s.face, instance: m.instance, subject: m.text,
          before: .list(m.before.map { .int($0) }), after: .list(m.after.map { .int($0) }),
          text: "mark “\(m.text)” placed differently"))
    }
    // A rule no text shows, in a feature whose change a text shows, is said by that text.
    var shown = Set(s.features.changed.map(\.tag))
    if s.kerning.count > 0 { shown.insert("kern") }
    if !s.marks.isEmpty { shown.formUnion(ShapingComparer.markFeatures) }
    for r in s.rules ?? [] where r.kind != "layout.rule" { shown.insert(r.feature) }
    for r in s.rules ?? [] where r.kind != "layout.rule" || !shown.contains(r.feature) {
      let glyphs = { (g: [String]?) in DiffReport.DiffValue.list((g ?? []).map { .text($0) }) }
      out.append(
        Change(
          kind: r.kind, face: s.face, instance: r.instance,
          subject: r.feature.isEmpty ? r.table : r.feature,
          // A rule no text shows is said in words (the review's table of changes with nothing
          // to draw shows them).
          before: r.kind == "layout.rule" ? .none : glyphs(r.before),
          after: r.kind == "layout.rule" ? .none : glyphs(r.after), text: r.words))
    }
    for tag in s.tables.unexplained {
      out.append(
        Change(
          kind: "shaping.unexplained", face: s.face, subject: tag, before: .none, after: .none,
          text: "\(tag) differs and no rule explains it; no tried pair or text shapes differently"))
    }
    return out
  }
}
