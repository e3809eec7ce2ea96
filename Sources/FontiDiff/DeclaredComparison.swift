import FontiText
import Foundation

/// What one face pair differs in beyond its drawing and shaping: what the font declares (OS/2,
/// `head`, `post`, every name record, STAT…), its hinting, its colour, and tables no comparison
/// knows. `changes` make the family changed; `info` never does.
struct DeclaredDifference: Sendable {
  var changes: [DiffReport.Change] = []
  var info: [DiffReport.Change] = []
  /// The summary's lines for `changes` (a face's hinting removed is one line), without the face.
  /// `info` is listed in diff.json only.
  var lines: [String] = []
}

/// How `diff` accounts for each table: compared by a named comparison, or ignored (a short
/// list). A table that is neither and differs is reported "TAG differs; not compared".
enum TableStatus: Equatable {
  case compared(String)
  case ignored(String)

  /// The status of every table `diff` knows (docs/diff.md, "Every table accounted for").
  static let known: [String: TableStatus] = {
    var out: [String: TableStatus] = [:]
    let groups: [(String, [String])] = [
      ("outlines (as drawn)", ["glyf", "loca", "CFF ", "CFF2", "gvar"]),
      ("advances", ["hmtx", "HVAR"]),
      ("metrics and caret", ["hhea"]),
      ("glyph count and hinting limits", ["maxp"]),
      ("characters and variation sequences", ["cmap"]),
      ("declared values", ["OS/2", "head", "post", "name"]),
      ("axes and named instances", ["fvar", "avar"]),
      ("style attributes", ["STAT"]),
      ("shaping", ["GSUB", "GPOS", "GDEF", "kern", "morx", "mort", "kerx", "trak", "feat"]),
      ("hinting", ["fpgm", "prep", "cvt ", "gasp", "cvar", "hdmx", "LTSH", "VDMX"]),
      ("colour", ["COLR", "CPAL", "CBDT", "CBLC", "sbix", "SVG "]),
      ("bitmaps", ["EBDT", "EBLC", "EBSC"]),
      ("vertical metrics", ["vhea", "vmtx", "VORG", "VVAR"]),
      ("metric variations", ["MVAR"]),
      ("math layout", ["MATH"]),
      ("baselines", ["BASE"]),
      ("PCL data", ["PCLT"]),
    ]
    for (name, tags) in groups { for tag in tags { out[tag] = .compared(name) } }
    out["DSIG"] = .ignored("a digital signature: its presence is not compared")
    out["FFTM"] = .ignored("FontForge's timestamps")
    return out
  }()

  /// nil: a table no comparison knows (reported when it differs).
  static func of(_ tag: String) -> TableStatus? { known[tag] }
}

extension DeclaredDifference {
  /// Compares `before` and `after`, tables holding the same bytes on both sides skipped.
  /// `common` are the characters both map; `outlinesChanged` whether any of their outlines
  /// differed (a CFF table that changed while none did is a hinting change), and
  /// `charactersChanged` whether the faces map other characters: values that follow from
  /// those (the bounding box, the first and last character index) are said only when they
  /// changed alone.
  static func compare(
    _ before: HarfBuzzFace, _ after: HarfBuzzFace, face: String, common: [UInt32],
    outlinesChanged: Bool, charactersChanged: Bool
  ) -> DeclaredDifference {
    var d = DeclaredComparer(before: before, after: after, face: face)
    d.outlinesChanged = outlinesChanged
    d.charactersChanged = charactersChanged
    var tags: [String] = []
    for tag in before.tableTags() + after.tableTags() where !tags.contains(tag) {
      tags.append(tag)
    }
    var differing = Set<String>()
    for tag in tags where !before.hasSameTable(tag, as: after) { differing.insert(tag) }
    if differing.contains("OS/2") { d.os2() }
    if differing.contains("head") { d.head() }
    if differing.contains("post") { d.post() }
    if differing.contains("name") { d.names() }
    if differing.contains("hhea") { d.caret() }
    if differing.contains("STAT") { d.styleAttributes() }
    if differing.contains("cmap") { d.variationSequences() }
    if differing.contains("CPAL") { d.palettes() }
    if differing.contains("vhea") { d.verticalHeader() }
    if differing.contains("vmtx") || differing.contains("vhea") { d.verticalAdvances(common) }
    if differing.contains("MATH") { d.math() }
    d.hinting(differing: differing, outlinesChanged: outlinesChanged)
    d.colour(differing: differing)
    let byBytes: [(String, String, String)] = [
      ("EBDT", "bitmaps.ebdt", "bitmaps (EBDT)"),
      ("EBLC", "bitmaps.ebdt", "bitmap locations (EBLC)"),
      ("EBSC", "bitmaps.ebdt", "bitmap scaling (EBSC)"),
      ("VORG", "vertical.origin", "vertical origins (VORG)"),
      ("VVAR", "vertical.variations", "vertical advance variations (VVAR)"),
      ("MVAR", "variations.metrics", "metric variations (MVAR)"),
      ("BASE", "base", "baselines (BASE)"),
      ("PCLT", "pclt", "PCL 5 data (PCLT)"),
    ]
    for (tag, kind, what) in byBytes where differing.contains(tag) { d.bytes(tag, kind, what) }
    for tag in tags where differing.contains(tag) && TableStatus.of(tag) == nil {
      d.unexplained(tag)
    }
    return d.out
  }
}

/// Compares one face pair's declared values, table by table, into `out`.
struct DeclaredComparer {
  let before: HarfBuzzFace
  let after: HarfBuzzFace
  let face: String
  var out = DeclaredDifference()
  var outlinesChanged = false
  var charactersChanged = false

  init(before: HarfBuzzFace, after: HarfBuzzFace, face: String) {
    self.before = before
    self.after = after
    self.face = face
  }

  func tables(_ tag: String) -> (FontTable, FontTable) {
    (FontTable(before.tableBytes(tag)), FontTable(after.tableBytes(tag)))
  }

  /// A change of `kind` when the values differ; `line` says it (nil: `text`).
  mutating func change(
    _ kind: String, subject: String? = nil, _ b: DiffReport.DiffValue,
    _ a: DiffReport.DiffValue, _ text: String, info: Bool = false
  ) {
    guard b != a else { return }
    let change = DiffReport.Change(
      kind: kind, face: face, subject: subject, before: b, after: a, text: text)
    if info {
      out.info.append(change)
    } else {
      out.changes.append(change)
      out.lines.append(text)
    }
  }

  /// "`what` 400 → 300" for two numbers (or "none").
  mutating func number(
    _ kind: String, _ what: String, _ b: Int?, _ a: Int?, info: Bool = false
  ) {
    change(
      kind, .init(b), .init(a),
      "\(what) \(b.map(String.init) ?? "none") → "
        + (a.map(String.init) ?? "none"), info: info)
  }

  /// Several numbers read together ("subscript x size, y size…"), a change when any differs.
  mutating func numbers(
    _ kind: String, _ what: String, _ b: [Int?], _ a: [Int?]
  ) {
    func shown(_ v: [Int?]) -> String {
      v.allSatisfy { $0 == nil }
        ? "none" : v.map { $0.map(String.init) ?? "?" }.joined(separator: ", ")
    }
    func value(_ v: [Int?]) -> DiffReport.DiffValue {
      v.allSatisfy { $0 == nil } ? .none : .list(v.map { .init($0) })
    }
    change(kind, value(b), value(a), "\(what) \(shown(b)) → \(shown(a))")
  }

  /// Flags named by bit ("italic, use typo metrics"), a change when they differ.
  mutating func flags(
    _ kind: String, _ what: String, _ b: Int?, _ a: Int?, names: [String], mask: Int = 0xFFFF
  ) {
    func named(_ v: Int?) -> [String]? {
      guard let v else { return nil }
      return (0..<16).compactMap { bit in
        guard (v & mask) & (1 << bit) != 0 else { return nil }
        return bit < names.count && !names[bit].isEmpty ? names[bit] : "bit \(bit)"
      }
    }
    let (nb, na) = (named(b), named(a))
    func value(_ n: [String]?) -> DiffReport.DiffValue {
      n.map { .list($0.map { .text($0) }) } ?? .none
    }
    func shown(_ n: [String]?) -> String {
      guard let n else { return "none (no table)" }
      return n.isEmpty ? "none" : n.joined(separator: ", ")
    }
    change(kind, value(nb), value(na), "\(what): \(shown(nb)) → \(shown(na))")
  }

  // MARK: OS/2

  mutating func os2() {
    let (b, a) = tables("OS/2")
    number("os2.version", "OS/2 version", b.u16(0), a.u16(0))
    let weights = [
      100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium",
      600: "SemiBold", 700: "Bold", 800: "ExtraBold", 900: "Black",
    ]
    let (wb, wa) = (b.u16(4), a.u16(4))
    func weight(_ w: Int?) -> String {
      guard let w else { return "none" }
      return weights[w].map { "\(w) \($0)" } ?? "\(w)"
    }
    change(
      "os2.weightClass", .init(wb), .init(wa), "weight class \(weight(wb)) → \(weight(wa))")
    number("os2.widthClass", "width class", b.u16(6), a.u16(6))
    embedding(b.u16(8), a.u16(8))
    number("os2.avgCharWidth", "average character width", b.i16(2), a.i16(2))
    numbers(
      "os2.subscript", "subscript (x size, y size, x offset, y offset)",
      (10...16).filter { $0 % 2 == 0 }.map { b.i16($0) },
      (10...16).filter { $0 % 2 == 0 }.map { a.i16($0) })
    numbers(
      "os2.superscript", "superscript (x size, y size, x offset, y offset)",
      (18...24).filter { $0 % 2 == 0 }.map { b.i16($0) },
      (18...24).filter { $0 % 2 == 0 }.map { a.i16($0) })
    numbers(
      "os2.strikeout", "strikeout (size, position)", [b.i16(26), b.i16(28)],
      [a.i16(26), a.i16(28)])
    number("os2.familyClass", "IBM family class", b.i16(30), a.i16(30))
    numbers(
      "os2.panose", "PANOSE", (32..<42).map { b.u8($0) }, (32..<42).map { a.u8($0) })
    ranges("os2.unicodeRanges", "Unicode ranges", b, a, at: 42, words: 4)
    let (vb, va) = (b.tag(58), a.tag(58))
    change(
      "os2.vendor", vb.map { .text($0) } ?? .none, va.map { .text($0) } ?? .none,
      "vendor ID “\(vb ?? "none")” → “\(va ?? "none")”")
    flags(
      "os2.fsSelection", "fsSelection", b.u16(62), a.u16(62),
      names: [
        "italic", "underscore", "negative", "outlined", "strikeout", "bold", "regular",
        "use typo metrics", "WWS", "oblique",
      ])
    if !charactersChanged {
      numbers(
        "os2.charIndex", "first and last character index", [b.u16(64), b.u16(66)],
        [a.u16(64), a.u16(66)])
    }
    if b.count >= 86 || a.count >= 86 {
      ranges("os2.codePageRanges", "code page ranges", b, a, at: 78, words: 2)
    }
    if b.count >= 96 || a.count >= 96 {
      number("os2.defaultChar", "default character", b.u16(90), a.u16(90))
      number("os2.breakChar", "break character", b.u16(92), a.u16(92))
      number("os2.maxContext", "maximum context", b.u16(94), a.u16(94))
    }
    if b.count >= 100 || a.count >= 100 {
      numbers(
        "os2.opticalSize", "optical point sizes (lower, upper, in twentieths)",
        [b.u16(96), b.u16(98)], [a.u16(96), a.u16(98)])
    }
  }

  mutating func embedding(_ b: Int?, _ a: Int?) {
    func words(_ v: Int?) -> String {
      guard let v else { return "none (no OS/2)" }
      var parts: [String] = []
      switch v & 0xF {
      case 0: parts.append("installable")
      case 2: parts.append("restricted")
      case 4: parts.append("preview & print")
      case 8: parts.append("editable")
      default: parts.append(String(format: "0x%X", v & 0xF))
      }
      if v & 0x100 != 0 { parts.append("no subsetting") }
      if v & 0x200 != 0 { parts.append("bitmap embedding only") }
      return parts.joined(separator: ", ")
    }
    change(
      "os2.fsType", .init(b), .init(a), "embedding permission (fsType): \(words(b)) → \(words(a))")
  }

  /// Bit ranges (Unicode, code pages) as the bits each side sets: bits added and removed.
  mutating func ranges(
    _ kind: String, _ what: String, _ b: FontTable, _ a: FontTable, at: Int, words: Int
  ) {
    func bits(_ t: FontTable) -> [Int]? {
      guard t.u32(at + 4 * (words - 1)) != nil else { return nil }
      return (0..<(32 * words)).filter { bit in
        (t.u32(at + 4 * (bit / 32)) ?? 0) & (1 << (bit % 32)) != 0
      }
    }
    let (bb, ba) = (bits(b), bits(a))
    guard bb != ba else { return }
    let added = Set(ba ?? []).subtracting(bb ?? []).sorted()
    let removed = Set(bb ?? []).subtracting(ba ?? []).sorted()
    var parts: [String] = []
    if !added.isEmpty { parts.append("bits \(added.map(String.init).joined(separator: ", ")) set") }
    if !removed.isEmpty {
      parts.append("bits \(removed.map(String.init).joined(separator: ", ")) cleared")
    }
    change(
      kind, bb.map { .list($0.map { .int($0) }) } ?? .none,
      ba.map { .list($0.map { .int($0) }) } ?? .none,
      "\(what): \(parts.joined(separator: "; "))")
  }

  // MARK: head, hhea, post

  mutating func head() {
    let (b, a) = tables("head")
    // A revision is written with three decimals (2.370); 16.16 holds 2.3699951171875.
    if let fb = b.fixed(4), let fa = a.fixed(4), fb != fa {
      let (rb, ra) = ((fb * 1000).rounded() / 1000, (fa * 1000).rounded() / 1000)
      change(
        "head.fontRevision", .number(rb), .number(ra),
        String(format: "font revision %.3f → %.3f", rb, ra), info: true)
    }
    for (kind, what, at) in [("head.created", "created", 20), ("head.modified", "modified", 28)] {
      let (db, da) = (date(b, at), date(a, at))
      change(
        kind, db.map { .text($0) } ?? .none, da.map { .text($0) } ?? .none,
        "\(what) \(db ?? "none") → \(da ?? "none")", info: true)
    }
    // Listed in `info`, not said: it changes with every other byte of the file.
    if b.u32(8) != a.u32(8) {
      out.info.append(
        DiffReport.Change(
          kind: "head.checkSumAdjustment", face: face, before: .init(b.u32(8)),
          after: .init(a.u32(8)), text: "checksum adjustment changed"))
    }
    // Bit 11 (the font was converted losslessly, "font data is compressed") is not compared.
    flags(
      "head.flags", "head flags", b.u16(16), a.u16(16),
      names: [
        "baseline at y 0", "left sidebearing at x 0", "instructions depend on point size",
        "integer ppem", "instructions may alter advances", "", "", "", "", "", "", "",
        "ClearType optimised", "last resort font", "",
      ], mask: 0xFFFF & ~(1 << 11))
    flags(
      "head.macStyle", "macStyle", b.u16(44), a.u16(44),
      names: ["bold", "italic", "underline", "outline", "shadow", "condensed", "extended"])
    if !outlinesChanged {
      numbers(
        "head.bbox", "bounding box (x min, y min, x max, y max)",
        [b.i16(36), b.i16(38), b.i16(40), b.i16(42)], [a.i16(36), a.i16(38), a.i16(40), a.i16(42)])
    }
    number("head.lowestRecPPEM", "smallest readable size (ppem)", b.u16(46), a.u16(46))
    number("head.fontDirectionHint", "font direction hint", b.i16(48), a.i16(48))
  }

  /// A `LONGDATETIME` (seconds since 1904) as an ISO 8601 date and time.
  func date(_ t: FontTable, _ at: Int) -> String? {
    guard let high = t.u32(at), let low = t.u32(at + 4) else { return nil }
    let seconds = Int64(truncatingIfNeeded: UInt64(high) << 32 | UInt64(low))
    let unix = seconds.subtractingReportingOverflow(2_082_844_800)
    guard !unix.overflow, abs(unix.partialValue) < 1 << 40 else { return "\(seconds)" }
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix.partialValue)))
  }

  mutating func caret() {
    let (b, a) = tables("hhea")
    numbers(
      "hhea.caret", "caret slope (rise, run) and offset", [b.i16(18), b.i16(20), b.i16(22)],
      [a.i16(18), a.i16(20), a.i16(22)])
  }

  mutating func post() {
    let (b, a) = tables("post")
    let (ib, ia) = (b.fixed(4), a.fixed(4))
    func angle(_ v: Double?) -> String { v.map { DiffNumber.text($0) + "°" } ?? "none" }
    change(
      "post.italicAngle", ib.map { .number($0) } ?? .none, ia.map { .number($0) } ?? .none,
      "italic angle \(angle(ib)) → \(angle(ia))")
    numbers(
      "post.underline", "underline (position, thickness)", [b.i16(8), b.i16(10)],
      [a.i16(8), a.i16(10)])
    let (fb, fa) = (b.u32(12).map { $0 != 0 }, a.u32(12).map { $0 != 0 })
    func fixed(_ v: Bool?) -> String { v.map { $0 ? "yes" : "no" } ?? "none" }
    change(
      "post.isFixedPitch", fb.map { .flag($0) } ?? .none, fa.map { .flag($0) } ?? .none,
      "fixed pitch (monospaced): \(fixed(fb)) → \(fixed(fa))")
  }

  // MARK: name

  static let nameTitles: [Int: String] = [
    0: "copyright", 1: "family name", 2: "style name", 3: "unique ID", 4: "full name",
    5: "version string", 6: "PostScript name", 7: "trademark", 8: "manufacturer",
    9: "designer", 10: "description", 11: "vendor URL", 12: "designer URL", 13: "licence",
    14: "licence URL", 16: "typographic family", 17: "typographic style",
    18: "compatible full name", 19: "sample text", 20: "PostScript CID name",
    21: "WWS family", 22: "WWS style", 23: "light palette", 24: "dark palette",
    25: "variations PostScript prefix",
  ]

  /// Every name record, by platform, encoding, language and ID; IDs 3 and 5 are information.
  /// Records whose change is the same on several platforms are one line.
  mutating func names() {
    let (tb, ta) = tables("name")
    let (b, a) = (NameTable.read(tb), NameTable.read(ta))
    var said = Set<String>()
    for key in Set(b.keys).union(a.keys).sorted() {
      let (sb, sa) = (b[key], a[key])
      guard sb != sa else { continue }
      let title =
        DeclaredComparer.nameTitles[key.id].map { "\($0) (name \(key.id))" }
        ?? "name \(key.id)"
      let text: String
      switch (sb, sa) {
      case (nil, let s?): text = "\(title) added: \(DeclaredComparer.quoted(s))"
      case (let s?, nil): text = "\(title) removed: \(DeclaredComparer.quoted(s))"
      default:
        let (qb, qa) = DeclaredComparer.quotedChange(sb ?? "", sa ?? "")
        text = "\(title): \(qb) → \(qa)"
      }
      let info = key.id == 3 || key.id == 5
      let change = DiffReport.Change(
        kind: "name.\(key.id)", face: face, subject: key.record,
        before: sb.map { .text($0) } ?? .none, after: sa.map { .text($0) } ?? .none, text: text)
      if info { out.info.append(change) } else { out.changes.append(change) }
      guard said.insert(text).inserted else { continue }
      if !info { out.lines.append(text) }
    }
  }

  /// A name for the review's words: controls as spaces, at most 70 characters.
  static func quoted(_ s: String) -> String {
    let flat = String(
      s.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    return "“\(FittedText.words(flat, suffix: "", fits: { $0.count <= 68 }))”"
  }

  /// Two names shown around where they first differ, each at most 32 characters, so that the
  /// line and its face fit one row of the review page (diff.json's `before` and `after` keep
  /// them whole).
  static func quotedChange(_ b: String, _ a: String) -> (String, String) {
    let window = 30
    guard b.count > window + 2 || a.count > window + 2 else { return (quoted(b), quoted(a)) }
    let common = zip(b, a).prefix { $0 == $1 }.count
    let start = common > window / 2 ? common - 8 : 0
    // Each part starts and ends at a whole word.
    func part(_ s: String) -> String {
      var tail = Substring(s)
      var cutBefore = false
      if start > 0, let space = s.prefix(start).lastIndex(of: " ") {
        tail = s[s.index(after: space)...]
        cutBefore = true
      }
      let flat = String(
        tail.unicodeScalars.map {
          $0.properties.generalCategory == .control ? " " : Character($0)
        })
      let cut = FittedText.words(flat, suffix: "", fits: { $0.count <= window + 1 })
      return "“" + (cutBefore ? "…" : "") + cut + "”"
    }
    return (part(b), part(a))
  }

  // MARK: STAT, cmap 14, CPAL, vertical, MATH

  mutating func styleAttributes() {
    func lines(_ face: HarfBuzzFace) -> [String] {
      StyleAttributes.read(FontTable(face.tableBytes("STAT"))) { id in
        face.name(UInt32(id), maxBytes: 256).map { "“\($0)”" } ?? "name \(id)"
      }
    }
    let (b, a) = (lines(before), lines(after))
    for line in b where !a.contains(line) {
      change("stat", .text(line), .none, "STAT \(line) removed")
    }
    for line in a where !b.contains(line) {
      change("stat", .none, .text(line), "STAT \(line) added")
    }
    if b.isEmpty && a.isEmpty {
      change("stat", .text("unreadable"), .text("changed"), "STAT changed (unreadable)")
    }
  }

  mutating func variationSequences() {
    func read(_ face: HarfBuzzFace) -> Set<String> {
      let font = HarfBuzzFont(face: face)
      return VariationSequences.read(FontTable(face.tableBytes("cmap"))) {
        font.glyphName(UInt32($0)) ?? "glyph \($0)"
      }
    }
    let (b, a) = (read(before), read(after))
    guard b != a else { return }
    let added = a.subtracting(b).sorted()
    let removed = b.subtracting(a).sorted()
    func shown(_ items: [String]) -> String {
      items.prefix(4).joined(separator: "; ") + (items.count > 4 ? "; …" : "")
    }
    var parts: [String] = []
    if !added.isEmpty { parts.append("\(added.count) added (\(shown(added)))") }
    if !removed.isEmpty { parts.append("\(removed.count) removed (\(shown(removed)))") }
    change(
      "cmap.variationSequences", .int(b.count), .int(a.count),
      "variation sequences: \(parts.joined(separator: ", "))")
  }

  mutating func palettes() {
    let (tb, ta) = tables("CPAL")
    let (b, a) = (ColourPalettes.read(tb), ColourPalettes.read(ta))
    if tb.isEmpty != ta.isEmpty {
      change(
        "colour.cpal", tb.isEmpty ? .none : .int(b.count), ta.isEmpty ? .none : .int(a.count),
        "colour palettes (CPAL) \(ta.isEmpty ? "removed" : "added")")
      return
    }
    if b.count != a.count {
      change(
        "colour.cpal", subject: "palettes", .int(b.count), .int(a.count),
        "colour palettes \(b.count) → \(a.count)")
    }
    // Which glyphs a palette entry paints (COLR's layers, after): said beside each change.
    let painted = ColourLayers.glyphsByPaletteEntry(tables("COLR").1)
    func glyphs(_ entry: Int) -> String {
      guard let painted else { return "" }
      let n = painted[entry]?.count ?? 0
      return n == 0 ? ": no glyph" : ": \(n) \(n == 1 ? "glyph" : "glyphs")"
    }
    var listed = 0
    var more = 0
    for p in 0..<min(b.count, a.count) {
      for e in 0..<max(b[p].count, a[p].count) {
        let cb = e < b[p].count ? b[p][e] : nil
        let ca = e < a[p].count ? a[p][e] : nil
        guard cb != ca else { continue }
        guard listed < 16 else {
          more += 1
          continue
        }
        listed += 1
        change(
          "colour.cpal", subject: "palette \(p), entry \(e)", cb.map { .text($0) } ?? .none,
          ca.map { .text($0) } ?? .none,
          "palette \(p) colour \(e) \(cb ?? "none") → \(ca ?? "none")\(glyphs(e))")
      }
    }
    if more > 0 {
      change(
        "colour.cpal", subject: "more", .none, .int(more),
        "\(more) more palette colours changed")
    }
    if listed == 0 && more == 0 && b.count == a.count {
      change("colour.cpal", .text("before"), .text("after"), "colour palettes (CPAL) changed")
    }
  }

  mutating func verticalHeader() {
    let (b, a) = tables("vhea")
    numbers(
      "vertical.vhea", "vertical ascent, descent, line gap", [b.i16(4), b.i16(6), b.i16(8)],
      [a.i16(4), a.i16(6), a.i16(8)])
  }

  /// Vertical advances of the characters both faces map.
  mutating func verticalAdvances(_ common: [UInt32]) {
    func advances(_ face: HarfBuzzFace) -> (HarfBuzzFont, (UInt32) -> Int?) {
      let vmtx = FontTable(face.tableBytes("vmtx"))
      let long = FontTable(face.tableBytes("vhea")).u16(34) ?? 0
      return (
        HarfBuzzFont(face: face),
        { glyph in
          guard long > 0 else { return nil }
          return vmtx.u16(4 * min(Int(glyph), long - 1))
        }
      )
    }
    let (fb, vb) = advances(before)
    let (fa, va) = advances(after)
    var changed: [String] = []
    for scalar in common {
      guard let gb = fb.glyph(for: scalar), let ga = fa.glyph(for: scalar), vb(gb) != va(ga)
      else { continue }
      changed.append(FamilyComparison.character(DiffNumber.codepoint(scalar)))
    }
    guard !changed.isEmpty else { return }
    change(
      "vertical.advance", .none, .int(changed.count),
      "vertical advances of \(FamilyComparison.count(changed.count, "character")) changed: "
        + changed.prefix(6).joined(separator: ", ") + (changed.count > 6 ? ", …" : ""))
  }

  mutating func math() {
    let (b, a) = tables("MATH")
    let (cb, ca) = (MathConstants.read(b), MathConstants.read(a))
    for name in MathConstants.names where cb[name] != ca[name] {
      number("math.constants", "MATH \(name)", cb[name], ca[name])
    }
    // The rest: glyph information and variants, the constants left out.
    func rest(_ t: FontTable) -> [UInt8] {
      guard let at = t.u16(4), at > 0 else { return t.bytes }
      let end = min(t.count, at + 214)
      return Array(t.bytes[0..<min(at, t.count)]) + Array(t.bytes[end...])
    }
    if b.isEmpty != a.isEmpty {
      change(
        "math.glyphs", .text(b.isEmpty ? "none" : "present"),
        .text(a.isEmpty ? "none" : "present"), "MATH table \(a.isEmpty ? "removed" : "added")")
    } else if rest(b) != rest(a) {
      // Read as values glyph by glyph (by name): a MATH table only repacked is no change.
      let (overlap, glyphs) = mathGlyphChanges()
      guard overlap || !glyphs.isEmpty else { return }
      var what: [String] = overlap ? ["the assemblies' connector overlap"] : []
      if !glyphs.isEmpty {
        what.append(
          "\(glyphs.count) \(glyphs.count == 1 ? "glyph" : "glyphs") ("
            + glyphs.prefix(8).joined(separator: ", ") + (glyphs.count > 8 ? ", …)" : ")"))
      }
      change(
        "math.glyphs", .text("before"), .text("after"),
        "MATH glyph data changed (italic corrections, accents, kerning or variants): "
          + what.joined(separator: " and "))
    }
  }

  /// Whether the assemblies' minimum connector overlap differs, and the glyphs (by name) whose
  /// MATH values differ, as HarfBuzz reads them.
  func mathGlyphChanges() -> (overlap: Bool, glyphs: [String]) {
    let fb = HarfBuzzFont(face: before)
    let fa = HarfBuzzFont(face: after)
    let pairing = LayoutComparer.GlyphPairing(before: before, after: after)
    let (nb, na) = pairing.names
    func named(_ names: [String]) -> (UInt32) -> String {
      { Int($0) < names.count ? names[Int($0)] : "#\($0)" }
    }
    var out: [String] = []
    var seen = Set<String>()
    for (g, n) in nb.enumerated() where seen.insert(n).inserted {
      let b = fb.mathGlyph(UInt32(g), name: named(nb))
      guard let ga = pairing.toAfter[UInt32(g)] else {
        if !b.isEmpty { out.append(n) }
        continue
      }
      if fa.mathGlyph(ga, name: named(na)) != b { out.append(n) }
    }
    for (g, n) in na.enumerated() where !seen.contains(n) {
      if !fa.mathGlyph(UInt32(g), name: named(na)).isEmpty { out.append(n) }
    }
    return (fb.mathConnectorOverlap != fa.mathConnectorOverlap, out)
  }

  // MARK: Hinting

  /// The TrueType programs, `gasp`, device metrics, glyph instructions, maxp's hinting limits
  /// and, for CFF, a CFF table that changed while no outline did: each its change, and one line
  /// per verb ("hinting removed: fpgm, prep, cvt, gasp, instructions of 93 glyphs").
  mutating func hinting(differing: Set<String>, outlinesChanged: Bool) {
    var verbs: [(verb: String, items: [String])] = [
      ("removed", []), ("added", []), ("changed", []),
    ]
    func record(_ verb: String, _ item: String) {
      if let i = verbs.firstIndex(where: { $0.verb == verb }) { verbs[i].items.append(item) }
    }
    func present(_ tag: String) -> (Bool, Bool) { (before.hasTable(tag), after.hasTable(tag)) }
    for (tag, kind) in [
      ("fpgm", "hinting.fpgm"), ("prep", "hinting.prep"), ("cvt ", "hinting.cvt"),
      ("gasp", "hinting.gasp"), ("cvar", "hinting.cvar"), ("hdmx", "hinting.hdmx"),
      ("LTSH", "hinting.ltsh"), ("VDMX", "hinting.vdmx"),
    ] where differing.contains(tag) {
      let name = tag.trimmingCharacters(in: .whitespaces)
      let (pb, pa) = present(tag)
      let verb = pb && !pa ? "removed" : !pb && pa ? "added" : "changed"
      var b: DiffReport.DiffValue = pb ? .text("present") : .none
      var a: DiffReport.DiffValue = pa ? .text("present") : .none
      var text = "hinting \(verb): \(name)"
      if tag == "gasp", pb && pa {
        let (gb, ga) = (gasp(before), gasp(after))
        (b, a) = (.text(gb), .text(ga))
        text = "gasp: \(gb) → \(ga)"
        out.changes.append(
          DiffReport.Change(kind: kind, face: face, before: b, after: a, text: text))
        out.lines.append(text)
        continue
      }
      if verb == "changed" { (b, a) = (.text("before"), .text("after")) }
      out.changes.append(DiffReport.Change(kind: kind, face: face, before: b, after: a, text: text))
      record(verb, name)
    }
    if differing.contains("maxp") {
      let (b, a) = tables("maxp")
      number("glyphs.count", "number of glyphs", b.u16(4), a.u16(4))
      let limits = (0..<7).map { 14 + 2 * $0 }
      let (lb, la) = (limits.map { b.u16($0) }, limits.map { a.u16($0) })
      // A change of outline format (CFF's maxp 0.5 against TrueType's 1.0) is no hinting
      // change when the TrueType side hints nothing: no twilight point, storage, function,
      // instruction definition, stack or instructions (zones aside).
      let hintsNothing = { (limits: [Int?]) in limits.dropFirst().allSatisfy { ($0 ?? 0) == 0 } }
      let converted =
        (b.u32(0) == 0x0001_0000) != (a.u32(0) == 0x0001_0000) && hintsNothing(lb)
        && hintsNothing(la)
      if lb != la, b.u32(0) == 0x0001_0000 || a.u32(0) == 0x0001_0000, !converted {
        out.changes.append(
          DiffReport.Change(
            kind: "hinting.maxp", face: face, before: .list(lb.map { .init($0) }),
            after: .list(la.map { .init($0) }),
            text: "hinting limits in maxp (zones, twilight points, storage, functions, "
              + "instruction definitions, stack, instruction size) changed"))
        record("changed", "maxp limits")
      }
    }
    if differing.contains("glyf") || differing.contains("loca") {
      if let (verb, item, change) = glyphInstructions() {
        out.changes.append(change)
        record(verb, item)
      }
    }
    // Glyphs added or removed (features cut away) change CFF too: that is not hinting.
    let sameCount = before.glyphCount == after.glyphCount
    for tag in ["CFF ", "CFF2"] where differing.contains(tag) && !outlinesChanged && sameCount {
      let name = tag.trimmingCharacters(in: .whitespaces)
      let (pb, pa) = present(tag)
      guard pb && pa else { continue }
      out.changes.append(
        DiffReport.Change(
          kind: "hinting.cff", face: face, subject: tag, before: .text("before"),
          after: .text("after"),
          text: "\(name) changed with the same outlines: hints or other \(name) data"))
      record("changed", "\(name) (the same outlines: hints or other \(name) data)")
    }
    for (verb, items) in verbs where !items.isEmpty {
      out.lines.append("hinting \(verb): \(items.joined(separator: ", "))")
    }
  }

  /// "≤8 ppem: grey; ≤65535 ppem: gridfit, grey, symmetric".
  func gasp(_ face: HarfBuzzFace) -> String {
    let t = FontTable(face.tableBytes("gasp"))
    guard let count = t.u16(2) else { return "unreadable" }
    let names = ["gridfit", "grey", "symmetric gridfit", "symmetric smoothing"]
    var ranges: [String] = []
    for i in 0..<min(count, 64) {
      guard let ppem = t.u16(4 + 4 * i), let behaviour = t.u16(6 + 4 * i) else { break }
      let on = (0..<4).filter { behaviour & (1 << $0) != 0 }.map { names[$0] }
      ranges.append("≤\(ppem) ppem: \(on.isEmpty ? "none" : on.joined(separator: ", "))")
    }
    return ranges.isEmpty ? "no ranges" : ranges.joined(separator: "; ")
  }

  /// The glyphs whose instructions differ, paired by name (by glyph ID where a font names
  /// none): removed from every glyph, added, or changed in some.
  func glyphInstructions() -> (String, String, DiffReport.Change)? {
    func read(_ face: HarfBuzzFace) -> [String: [UInt8]]? {
      let head = FontTable(face.tableBytes("head"))
      let maxp = FontTable(face.tableBytes("maxp"))
      guard let format = head.i16(50), let count = maxp.u16(4),
        let all = GlyphInstructions.read(
          glyf: FontTable(face.tableBytes("glyf")), loca: FontTable(face.tableBytes("loca")),
          longOffsets: format == 1, glyphCount: count)
      else { return nil }
      let font = HarfBuzzFont(face: face)
      var out: [String: [UInt8]] = [:]
      for (gid, bytes) in all.enumerated() {
        let key = font.glyphName(UInt32(gid)) ?? "#\(gid)"
        if out[key] == nil { out[key] = bytes }
      }
      return out
    }
    let b = read(before) ?? [:]
    let a = read(after) ?? [:]
    let instructedBefore = b.values.filter { !$0.isEmpty }.count
    let instructedAfter = a.values.filter { !$0.isEmpty }.count
    let changed = Set(b.keys).intersection(a.keys).filter { b[$0] != a[$0] }.sorted()
    guard !changed.isEmpty || instructedBefore != instructedAfter else { return nil }
    let verb: String
    let item: String
    if instructedAfter == 0 {
      verb = "removed"
      item = "instructions of \(FamilyComparison.count(instructedBefore, "glyph"))"
    } else if instructedBefore == 0 {
      verb = "added"
      item = "instructions of \(FamilyComparison.count(instructedAfter, "glyph"))"
    } else {
      verb = "changed"
      let shown = changed.prefix(5).joined(separator: " ") + (changed.count > 5 ? " …" : "")
      item = "instructions of \(FamilyComparison.count(changed.count, "glyph")) (\(shown))"
    }
    return (
      verb, item,
      DiffReport.Change(
        kind: "hinting.glyphs", face: face, before: .int(instructedBefore),
        after: .int(instructedAfter), text: "glyph \(item) \(verb)")
    )
  }

  // MARK: Bytes

  /// A table compared as bytes: added, removed or changed.
  mutating func bytes(_ tag: String, _ kind: String, _ what: String) {
    let (pb, pa) = (before.hasTable(tag), after.hasTable(tag))
    let verb = pb && !pa ? "removed" : !pb && pa ? "added" : "changed"
    change(
      kind, subject: tag, pb ? .text(verb == "changed" ? "before" : "present") : .none,
      pa ? .text(verb == "changed" ? "after" : "present") : .none, "\(what) \(verb)")
  }

  /// A table no comparison knows, whose bytes differ: a change, named as such.
  mutating func unexplained(_ tag: String) {
    let name = tag.trimmingCharacters(in: .whitespaces)
    let (pb, pa) = (before.hasTable(tag), after.hasTable(tag))
    let verb = pb && !pa ? "removed" : !pb && pa ? "added" : "differs"
    change(
      "table.unexplained", subject: tag, pb ? .text("present") : .none,
      pa ? .text(verb == "differs" ? "different" : "present") : .none,
      "\(name) \(verb); not compared")
  }
}
