import FontiModel
import FontiSupport
import FontiText
import Foundation

/// One family's comparison: its diff.json entry, and what its review pages draw.
package struct FamilyOutcome: Sendable {
  package var entry: DiffReport.Family
  /// The largest glyph changes, with their outlines (largest first, capped).
  var glyphImages: [GlyphChange] = []
  /// The sample as both sides set it (regular face), for a changed family; as its one side
  /// sets it, for an added or removed family.
  var sample: SampleChange?
  /// Some of the characters added and removed (`CharacterSpread`), each drawn from the first
  /// face that gained or lost it, as changes whose two sides are the same outline.
  var charactersAdded: [GlyphChange] = []
  var charactersRemoved: [GlyphChange] = []
  /// Shaping changes drawn both ways (kerning pairs, feature texts, marks), face by face.
  var shapingImages: [ShapingImage] = []
  /// The sample at instances added or removed (`SampleChange.only` says which).
  var instanceImages: [SampleChange] = []
  /// An added or removed family: what it has, for its section of the PDF.
  var profile: FamilyProfile?
  /// Where a worker left `glyphImages`, `sample` and `profile` (`DiffResult.outcome(at:)`
  /// reads them).
  var stored: String?

  /// Whether the review's pages draw something of this family beyond its diff.json entry.
  package var hasDrawing: Bool { entry.status == .changed || profile != nil }
}

extension FamilyOutcome {
  /// A family a worker compared: its entry, and the file where its drawings wait
  /// (`DiffWork.store`), nil when there are none.
  package static func compared(_ entry: DiffReport.Family, stored: String? = nil)
    -> FamilyOutcome
  {
    FamilyOutcome(entry: entry, stored: stored)
  }
}

/// What a family only on one side has, in words: its faces, axes, named instances, features and
/// languages (its proofs and language coverage, as `run` records them).
struct FamilyProfile: Sendable, Codable {
  var lines: [String]

  /// nil when the family's fonts cannot be read for proofs (its entry says the rest).
  init?(_ family: SideFamily) {
    guard let traits = try? SideTraits.read(family) else { return nil }
    let faces = FamilyComparison.labels(family.faces).map(\.1)
    var lines = ["\(FamilyComparison.count(faces.count, "face")): \(FamilyComparison.list(faces))"]
    let proofs = traits.proofs.proofs
    let axes = proofs.axes ?? []
    lines.append(
      axes.isEmpty
        ? "no variation axes (static)"
        : "axes: "
          + axes.map {
            "\($0.tag) \(DiffNumber.text($0.min))–\(DiffNumber.text($0.max)) "
              + "(default \(DiffNumber.text($0.defaultValue)))"
          }.joined(separator: ", "))
    let instances = proofs.instances ?? []
    if !instances.isEmpty {
      lines.append(
        "\(FamilyComparison.count(instances.count, "named instance")): "
          + FamilyComparison.list(instances.map(\.name)))
    }
    let features = proofs.features ?? []
    lines.append(
      features.isEmpty
        ? "no layout features"
        : "\(FamilyComparison.count(features.count, "feature")): "
          + FamilyComparison.list(
            features.map { $0.visible ? $0.tag : "\($0.tag) (no visible effect)" }))
    let supported = traits.languages.supported
    lines.append(
      supported.isEmpty
        ? "no language supported completely"
        : "\(FamilyComparison.count(supported.count, "language")) supported: "
          + FamilyComparison.list(supported))
    self.lines = lines
  }
}

/// Pairs a family's faces across the sides and compares each pair.
package enum FamilyComparison {
  package static func compare(
    before: SideFamily?, after: SideFamily?, slug: String, comparer: FaceComparer
  ) -> FamilyOutcome {
    var entry = FamilyComparison.entry(before, after, slug: slug)
    let problems = (before?.problems ?? []) + (after?.problems ?? [])
    guard let before, let after, problems.isEmpty else {
      return oneSided(entry, before: before, after: after, problems: problems, comparer: comparer)
    }

    let faces = pairFaces(before.faces, after.faces)
    let migrations = migrate(
      removed: labels(before.faces).filter { faces.removed.contains($0.1) },
      added: labels(after.faces).filter { faces.added.contains($0.1) }, family: before.name)
    let pairs = faces.0 + migrations.pairs
    entry.faces.added = migrations.added
    entry.faces.removed = migrations.removed
    entry.faces.renamed = faces.renamed
    if !migrations.migrated.isEmpty { entry.faces.migrated = migrations.migrated }
    let compares =
      !comparer.settings.shortcuts || pairs.contains { !$0.isIdentical } || !entry.faces.isEmpty
    if compares, let first = pairs.first { comparer.sample = comparer.sampleSource(for: first) }
    var differences: [FaceDifference] = []
    var traits: (before: SideTraits, after: SideTraits)?
    do {
      differences = try comparer.compare(all: pairs)
      if compares { traits = (try SideTraits.read(before), try SideTraits.read(after)) }
    } catch {
      entry.status = .failed
      entry.error = failure(error, before: before)
      entry.summary = summary(entry)
      return FamilyOutcome(entry: entry)
    }

    let characterFaces = add(differences, to: &entry)
    entry.instances.added += migrations.instancesAdded
    entry.instances.removed += migrations.instancesRemoved
    if let traits {
      entry.features = SideTraits.featureChanges(traits.before.proofs, traits.after.proofs)
      entry.languages = SideTraits.languageChanges(traits.before.languages, traits.after.languages)
    }
    entry.changes = ChangeList.make(
      entry, declared: differences.flatMap(\.declared.changes), face: pairs.first?.label ?? ""
    ).map { change in
      var change = change
      if let m = migrations.migrated.first(where: { $0.face == change.face }) {
        change.pairedWith = DiffReport.PairedWith(before: m.before, after: m.after)
      }
      return change
    }
    entry.info = differences.flatMap(\.declared.info)
    entry.status = isChanged(entry) ? .changed : .unchanged
    entry.summary =
      summary(entry, characterFaces: characterFaces)
      + declaredLines(differences.map { ($0.label, $0.declared.lines) })
    guard entry.status == .changed else { return FamilyOutcome(entry: entry) }
    return drawings(
      of: entry, differences, characterFaces: characterFaces, pairs: pairs, comparer: comparer)
  }

  /// A family on one side only, or one whose files could not be read: its entry and, for an
  /// added or removed family, what it has and its sample as it sets it.
  static func oneSided(
    _ entry: DiffReport.Family, before: SideFamily?, after: SideFamily?, problems: [String],
    comparer: FaceComparer
  ) -> FamilyOutcome {
    var entry = entry
    if !problems.isEmpty {
      entry.status = .failed
      entry.error = problems.joined(separator: "; ")
    } else if let after {
      entry.status = .added
      entry.faces.added = labels(after.faces).map(\.1)
    } else if let before {
      entry.status = .removed
      entry.faces.removed = labels(before.faces).map(\.1)
    }
    entry.summary = summary(entry)
    var outcome = FamilyOutcome(entry: entry)
    guard problems.isEmpty, let side = after ?? before else { return outcome }
    outcome.profile = FamilyProfile(side)
    let labelled = labels(side.faces).sorted { SideFace.order($0.0, $1.0) }
    if outcome.profile != nil, let (face, label) = labelled.first {
      outcome.sample = try? comparer.sampleImage(
        only: face, label: label, after: entry.status == .added)
    }
    return outcome
  }

  /// Why a family could not be compared: a font that could not be read, with its side.
  static func failure(_ error: any Error, before: SideFamily) -> String {
    guard let error = error as? FontReadError else { return "\(error)" }
    let side = before.faces.contains { $0.file == error.file } ? "before" : "after"
    return "\(side): \(error)"
  }

  /// Adds what each face pair differs in to the family's entry, the first (usual) face's
  /// metrics as the family's; returns the faces each added or removed character changed in.
  static func add(_ differences: [FaceDifference], to entry: inout DiffReport.Family)
    -> CharacterFaces
  {
    var characterFaces = CharacterFaces(compared: differences.count)
    for (n, d) in differences.enumerated() {
      for c in d.codepointsAdded { characterFaces.added[c, default: []].append(d.label) }
      for c in d.codepointsRemoved { characterFaces.removed[c, default: []].append(d.label) }
      entry.glyphs += d.glyphs
      entry.glyphsBelowThreshold += d.belowThreshold
      entry.glyphsMoved += d.moved
      if n == 0 {
        entry.metrics = d.metrics
      } else if !d.metrics.isEmpty {
        entry.faceMetrics.append(DiffReport.FaceMetrics(face: d.label, metrics: d.metrics))
      }
      for axis in d.axes.added where !entry.axes.added.contains(where: { $0.tag == axis.tag }) {
        entry.axes.added.append(axis)
      }
      for axis in d.axes.removed where !entry.axes.removed.contains(where: { $0.tag == axis.tag }) {
        entry.axes.removed.append(axis)
      }
      entry.axes.changed += d.axes.changed
      entry.instances.added += d.instances.added
      entry.instances.removed += d.instances.removed
      entry.instances.changed += d.instances.changed
      if let shaping = d.shaping { entry.shaping.append(shaping) }
      entry.sample += d.sample
    }
    entry.codepoints.added = characterFaces.added.keys.sorted().map(DiffNumber.codepoint)
    entry.codepoints.removed = characterFaces.removed.keys.sorted().map(DiffNumber.codepoint)
    return characterFaces
  }

  /// A changed family's drawings for its review pages: its largest glyph changes, its shaping
  /// changes and instances added or removed, some of its added and removed characters, and
  /// the sample where it changed most.
  static func drawings(
    of entry: DiffReport.Family, _ differences: [FaceDifference], characterFaces: CharacterFaces,
    pairs: [FacePair], comparer: FaceComparer
  ) -> FamilyOutcome {
    var outcome = FamilyOutcome(entry: entry)
    outcome.glyphImages = GlyphChange.selection(
      differences.flatMap(\.glyphImages), limit: comparer.settings.glyphImages)
    outcome.shapingImages = differences.flatMap(\.shapingImages)
    outcome.instanceImages = Array(
      differences.flatMap(\.instanceImages).prefix(FaceComparer.instanceImages))
    func drawn(_ faces: [UInt32: [String]], limit: Int, added: Bool) -> [GlyphChange] {
      let picked = CharacterSpread.pick(Array(faces.keys), limit: limit)
      return comparer.characterImages(
        picked.compactMap { scalar in faces[scalar]?.first.map { (scalar, $0) } }, pairs: pairs,
        added: added)
    }
    outcome.charactersAdded = drawn(
      characterFaces.added, limit: FamilyComparison.charactersShown.added, added: true)
    outcome.charactersRemoved = drawn(
      characterFaces.removed, limit: FamilyComparison.charactersShown.removed, added: false)
    if let first = pairs.first {
      outcome.sample =
        FamilyComparison.mostChanged(differences.compactMap(\.sampleImage))
        ?? (try? comparer.sampleImage(for: first))
    }
    return outcome
  }

  /// A family's entry before anything is compared: its name, slug and files, `unchanged`.
  package static func entry(_ before: SideFamily?, _ after: SideFamily?, slug: String)
    -> DiffReport.Family
  {
    DiffReport.Family(
      family: after?.name ?? before?.name ?? "", slug: slug, status: .unchanged, error: nil,
      files: DiffReport.Files(before: before?.files ?? [], after: after?.files ?? []),
      image: nil, summary: [])
  }

  static func isChanged(_ f: DiffReport.Family) -> Bool {
    !(f.changes ?? []).isEmpty || !f.codepoints.isEmpty || !f.glyphs.isEmpty
      || !f.glyphsMoved.isEmpty || !f.metrics.isEmpty
      || !f.faceMetrics.isEmpty
      || !f.faces.isEmpty || !f.axes.isEmpty || !f.instances.isEmpty || !f.features.isEmpty
      || !f.languages.isEmpty || !f.shaping.isEmpty || !f.sample.isEmpty
  }

  // MARK: Faces

  /// Each face with the name the review gives it: its style, with its file's name when the
  /// style is not unique in the family on that side.
  /// The sample the review shows: a face's that changed (its pixels or its width) before one
  /// that did not, the most pixels first, the first face in the usual order on a tie. "Sample ·
  /// Regular · the same before and after" under "sample (Bold): 323 px differ" said nothing of
  /// the change.
  static func mostChanged(_ samples: [SampleChange]) -> SampleChange? {
    var best: SampleChange?
    for sample in samples {
      guard let current = best else {
        best = sample
        continue
      }
      if (sample.isSame ? 0 : 1, sample.pixels) > (current.isSame ? 0 : 1, current.pixels) {
        best = sample
      }
    }
    return best
  }

  /// How many added and removed characters the review draws, at most (four and two rows).
  static let charactersShown = (added: 32, removed: 16)

  static func labels(_ faces: [SideFace]) -> [(SideFace, String)] {
    var counts: [String: Int] = [:]
    for f in faces { counts[f.style.lowercased(), default: 0] += 1 }
    return faces.map { face in
      guard counts[face.style.lowercased(), default: 0] > 1 else { return (face, face.style) }
      let file = FileSystem.name(of: face.relativePath)
      let index = face.query.index > 0 ? " #\(face.query.index)" : ""
      return (face, "\(face.style) (\(file)\(index))")
    }
  }

  /// Pairs faces: same style in the same file first, then the same style name, then the same
  /// weight, slant, width and kind (static or variable) where that is unambiguous. Unpaired
  /// faces are added or removed; faces paired by their numbers alone were renamed.
  static func pairFaces(_ before: [SideFace], _ after: [SideFace]) -> (
    [FacePair], added: [String], removed: [String], renamed: [DiffReport.Renamed]
  ) {
    var left = labels(before)
    var right = labels(after)
    var pairs: [FacePair] = []
    var renamed: [DiffReport.Renamed] = []

    func take(
      _ key: (SideFace) -> AnyHashable, uniqueOnly: Bool, rename: Bool
    ) {
      var counts: [AnyHashable: (Int, Int)] = [:]
      for (f, _) in left { counts[key(f), default: (0, 0)].0 += 1 }
      for (f, _) in right { counts[key(f), default: (0, 0)].1 += 1 }
      var remaining: [(SideFace, String)] = []
      for (f, label) in left {
        let k = key(f)
        if uniqueOnly, counts[k].map({ $0 != (1, 1) }) ?? true {
          remaining.append((f, label))
          continue
        }
        guard let match = right.firstIndex(where: { key($0.0) == k }) else {
          remaining.append((f, label))
          continue
        }
        let (g, otherLabel) = right.remove(at: match)
        pairs.append(FacePair(before: f, after: g, label: otherLabel))
        if rename && f.style != g.style {
          renamed.append(DiffReport.Renamed(before: label, after: otherLabel))
        }
      }
      left = remaining
    }
    take(
      { [$0.style.lowercased(), $0.relativePath, String($0.query.index)] }, uniqueOnly: false,
      rename: false)
    // A static face and a variable font of the same style name are a migration (`migrate`):
    // the static face is compared with the variable font's instance of that name.
    take(
      { [$0.style.lowercased(), $0.query.isVariable] as [AnyHashable] }, uniqueOnly: true,
      rename: false)
    take(
      { [$0.query.weight, $0.query.slant, $0.query.width, $0.query.isVariable ? 1 : 0] },
      uniqueOnly: true, rename: true)
    pairs.sort { SideFace.order($0.before, $1.before) }
    return (pairs, right.map(\.1), left.map(\.1), renamed)
  }

  // MARK: Words

  static let metricNames: [String: String] = [
    "unitsPerEm": "units per em", "hheaAscender": "hhea ascender",
    "hheaDescender": "hhea descender", "hheaLineGap": "hhea line gap",
    "typoAscender": "typo ascender", "typoDescender": "typo descender",
    "typoLineGap": "typo line gap", "winAscent": "win ascent", "winDescent": "win descent",
    "xHeight": "x-height", "capHeight": "cap height",
  ]

  static let metricOrder = [
    "unitsPerEm", "xHeight", "capHeight", "hheaAscender", "hheaDescender", "hheaLineGap",
    "typoAscender", "typoDescender", "typoLineGap", "winAscent", "winDescent",
  ]

  /// The faces each added or removed character changed in, of `compared` faces.
  package struct CharacterFaces {
    var compared: Int
    var added: [UInt32: [String]] = [:]
    var removed: [UInt32: [String]] = [:]

    /// The faces `codepoint` ("U+F001") was added to or removed from, when not all of them.
    func partial(_ codepoint: String, added: Bool) -> [String]? {
      guard let value = DiffNumber.scalar(codepoint),
        let faces = (added ? self.added : removed)[value], faces.count < compared
      else { return nil }
      return faces
    }
  }

  /// The changes in words, most telling first: what diff.md, the PNG and the PDF say. With
  /// `characterFaces`, a character added or removed in some faces only names them.
  package static func summary(_ f: DiffReport.Family, characterFaces: CharacterFaces? = nil)
    -> [String]
  {
    switch f.status {
    case .failed: return ["could not be compared: \(f.error ?? "unknown error")"]
    case .added:
      return ["new family: \(count(f.faces.added.count, "face")) (\(list(f.faces.added)))"]
    case .removed:
      return ["family removed: \(count(f.faces.removed.count, "face")) (\(list(f.faces.removed)))"]
    case .changed, .unchanged: break
    }
    var lines = glyphLines(f.glyphs)
    lines += movedLines(f.glyphsMoved)
    lines += characterLines(f.codepoints, characterFaces: characterFaces)
    // Shaping before the sample: a kerning pair or a ligature that changed is why a sample did.
    lines += shapingLines(f.shaping, family: f.features)
    lines += sampleLines(f.sample)
    lines += metricLines(f.metrics, face: nil)
    for m in f.faceMetrics { lines += metricLines(m.metrics, face: m.face) }
    lines += faceLines(f.faces)
    lines += axisLines(f.axes)
    lines += instanceLines(f.instances)
    lines += featureLines(f.features)
    lines += languageLines(f.languages)
    return lines
  }

  /// Each face's declared changes in words, a line said in several faces once with them all:
  /// "weight class 400 Regular → 300 Light (Regular, Bold)".
  static func declaredLines(_ faces: [(face: String, lines: [String])]) -> [String] {
    var order: [String] = []
    var seenIn: [String: [String]] = [:]
    for (face, lines) in faces {
      for line in lines {
        if seenIn[line] == nil { order.append(line) }
        if seenIn[line]?.contains(face) != true { seenIn[line, default: []].append(face) }
      }
    }
    return order.map { "\($0) (\(list(seenIn[$0] ?? [])))" }
  }

  /// "`heading`: a, b, c" when there are `items` (`list` shortens a long list); nothing when
  /// there are none.
  static func listed(_ heading: String, _ items: [String]) -> [String] {
    items.isEmpty ? [] : ["\(heading): \(list(items))"]
  }

  /// One character's glyph changes, however many faces and instances it changed in: the
  /// largest of each measure, where it changed, and its first change.
  struct CharacterChange {
    var codepoint: String
    var pixels: Int
    var advance: Int
    var moved: Int
    var places: Int
    var first: DiffReport.Glyph
  }

  /// The changed glyphs, each character once, the three largest described.
  static func glyphLines(_ glyphs: [DiffReport.Glyph]) -> [String] {
    guard !glyphs.isEmpty else { return [] }
    let top = characterChanges(glyphs)
    let shown = top.prefix(3).map(describe)
    let more = top.count > 3 ? ", …" : ""
    return ["\(count(top.count, "glyph")) changed: \(shown.joined(separator: ", "))\(more)"]
  }

  /// The changed characters, largest first, one per base letter first (a before its accented
  /// forms), as the pages show them.
  static func characterChanges(_ glyphs: [DiffReport.Glyph]) -> [CharacterChange] {
    var byCharacter: [String: CharacterChange] = [:]
    for g in glyphs {
      let delta = abs(g.advance[1] - g.advance[0])
      guard var known = byCharacter[g.codepoint] else {
        byCharacter[g.codepoint] = CharacterChange(
          codepoint: g.codepoint, pixels: g.pixels, advance: delta, moved: g.moved ?? 0,
          places: 1, first: g)
        continue
      }
      known.pixels = max(known.pixels, g.pixels)
      known.advance = max(known.advance, delta)
      known.moved = max(known.moved, g.moved ?? 0)
      known.places += 1
      byCharacter[g.codepoint] = known
    }
    let sorted = byCharacter.values.sorted {
      ($0.pixels, $0.advance, $1.codepoint) > ($1.pixels, $1.advance, $0.codepoint)
    }
    let order = LetterGroups.order(
      sorted, scalar: { DiffNumber.scalar($0.codepoint) ?? 0 }, weight: { Double($0.pixels) })
    return order.map { sorted[$0] }
  }

  /// "U+0052 R (up to 120 px, advance ±4, in 3 faces)".
  static func describe(_ change: CharacterChange) -> String {
    var what: [String] = []
    let upTo = change.places > 1 ? "up to " : ""
    if change.moved > 0 { what.append("moved \(upTo)\(count(change.moved, "unit"))") }
    if change.pixels > 0 { what.append("\(upTo)\(grouped(change.pixels)) px") }
    if change.places == 1, change.first.advance[0] != change.first.advance[1] {
      what.append("advance \(change.first.advance[0]) → \(change.first.advance[1])")
    } else if change.advance > 0 {
      what.append("advance \(upTo)±\(change.advance)")
    }
    if change.places > 1 {
      what.append("in \(change.places) \(change.first.instance == nil ? "faces" : "instances")")
    } else if let instance = change.first.instance {
      what.append(instance)
    }
    return "\(character(change.codepoint)) (\(what.joined(separator: ", ")))"
  }

  /// Outlines edited by too few pixels to pass the threshold, each with its move (or
  /// "redrawn", an outline drawn with other points that paints otherwise).
  static func movedLines(_ glyphsMoved: [DiffReport.Glyph]) -> [String] {
    let moved = glyphsMoved.sorted {
      ($0.moved ?? 0, $1.codepoint) > ($1.moved ?? 0, $0.codepoint)
    }
    var lines = moved.prefix(3).map { g in
      "outline of \(character(g.codepoint)) (\(place(g.face, g.instance))) "
        + (g.moved.map { "moved by up to \(count($0, "unit"))" } ?? "redrawn")
        + " (\(grouped(g.pixels)) px, within the threshold)"
    }
    if moved.count > 3 {
      lines.append("\(moved.count - 3) more outlines moved within the threshold")
    }
    return lines
  }

  /// Characters added and removed, each with the faces it changed in when not every face
  /// shares the change.
  static func characterLines(
    _ codepoints: DiffReport.AddedRemoved<String>, characterFaces: CharacterFaces?
  ) -> [String] {
    var lines: [String] = []
    for (points, verb) in [(codepoints.added, "added"), (codepoints.removed, "removed")]
    where !points.isEmpty {
      let shown = points.prefix(6).map { point in
        let faces = characterFaces?.partial(point, added: verb == "added")
        return character(point) + (faces.map { " (\(list($0)) only)" } ?? "")
      }.joined(separator: ", ")
      lines.append(
        "\(count(points.count, "character")) \(verb): \(shown)\(points.count > 6 ? ", …" : "")")
    }
    return lines
  }

  /// The sample where it changed: a family's usual faces (regular, bold, italic, bold italic
  /// and then some) each a line, then how many more.
  static func sampleLines(_ samples: [DiffReport.Sample]) -> [String] {
    let samplesShown = 8
    var lines = samples.prefix(samplesShown).map { s in
      var what: [String] = []
      if s.pixels > 0 { what.append("\(grouped(s.pixels)) px differ") }
      if s.width[0] != s.width[1] {
        what.append("width \(grouped(s.width[0])) → \(grouped(s.width[1])) units")
      }
      let which = s.text == nil ? "sample" : "own-script sample"
      return "\(which) (\(place(s.face, s.instance))): \(what.joined(separator: ", "))"
    }
    if samples.count > samplesShown {
      let more = samples.count - samplesShown
      let noun = samples.contains { $0.instance != nil } ? "instance" : "face"
      lines.append("sample: changed in \(grouped(more)) more \(plural(more, noun))")
    }
    return lines
  }

  static func faceLines(_ faces: DiffReport.Faces) -> [String] {
    listed("\(plural(faces.added.count, "face")) added", faces.added)
      + listed("\(plural(faces.removed.count, "face")) removed", faces.removed)
      + faces.renamed.map { "face renamed: \($0.before) → \($0.after)" }
      + (faces.migrated ?? []).map { "compared as one face: \($0.face)" }
  }

  static func axisLines(_ axes: DiffReport.Axes) -> [String] {
    axes.added.map { "axis added: \(axis($0))" }
      + axes.removed.map { "axis removed: \(axis($0))" }
      + axes.changed.map { "axis \($0.after.tag): \(axis($0.before)) → \(axis($0.after))" }
  }

  static func instanceLines(_ instances: DiffReport.Instances) -> [String] {
    instances.added.map { "instance added: \($0.name) (\(coordinates($0.coordinates)))" }
      + instances.removed.map { "instance removed: \($0.name) (\(coordinates($0.coordinates)))" }
      + instances.changed.map {
        "instance \($0.name) moved: \(coordinates($0.before)) → \(coordinates($0.after))"
      }
  }

  /// Features added and removed in every face, and those whose effect or sample changed.
  static func featureLines(_ features: DiffReport.Features) -> [String] {
    var lines = listed("\(plural(features.added.count, "feature")) added", features.added)
    lines += listed("\(plural(features.removed.count, "feature")) removed", features.removed)
    for c in features.changed {
      let visible = c.visible.map { $0 ? "visible" : "no visible effect" }
      if c.visible[0] != c.visible[1] {
        lines.append("feature \(c.tag) (\(c.name)): \(visible[0]) → \(visible[1])")
      } else {
        let shown = c.sample.map { $0.map { "“\($0)”" } ?? "none" }
        lines.append("feature \(c.tag) (\(c.name)) sample: \(shown[0]) → \(shown[1])")
      }
    }
    return lines
  }

  static func languageLines(_ languages: DiffReport.Languages) -> [String] {
    func missing(_ m: [String]?) -> String {
      m.map { "\($0.count)" } ?? "over \(LanguageCoverage.nearlyLimit)"
    }
    let nearly = languages.nearly.map {
      "\($0.language) (\(missing($0.before)) → \(missing($0.after)) missing)"
    }
    return listed("languages gained", languages.added)
      + listed("languages lost", languages.removed)
      + listed("nearly supported languages changed", nearly)
  }

  static func metricLines(_ metrics: [String: [Int?]], face: String?) -> [String] {
    let keys =
      metricOrder.filter { metrics[$0] != nil }
      + metrics.keys.filter { !metricOrder.contains($0) }.sorted()
    return keys.compactMap { key in
      guard let values = metrics[key], values.count == 2 else { return nil }
      let shown = values.map { $0.map(String.init) ?? "none" }
      let prefix = face.map { "\($0): " } ?? ""
      return "\(prefix)\(metricNames[key] ?? key) \(shown[0]) → \(shown[1])"
    }
  }

  /// Where a change is: the named instance of a variable font (instance names say their
  /// style), else the face.
  static func place(_ face: String, _ instance: String?) -> String {
    instance ?? face
  }

  static func axis(_ a: DiffReport.Axis) -> String {
    "\(a.tag) \(DiffNumber.text(a.min))–\(DiffNumber.text(a.max)) (default \(DiffNumber.text(a.default)))"
  }

  static func coordinates(_ c: [String: Double]) -> String {
    c.keys.sorted().map { "\($0) \(DiffNumber.text(c[$0] ?? 0))" }.joined(separator: ", ")
  }

  /// "U+0052 R": the code point, and the character itself when it is a visible one.
  static func character(_ codepoint: String) -> String {
    guard let value = DiffNumber.scalar(codepoint), let scalar = Unicode.Scalar(value)
    else { return codepoint }
    switch scalar.properties.generalCategory {
    case .control, .format, .surrogate, .privateUse, .unassigned, .spaceSeparator,
      .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark, .spacingMark:
      return codepoint
    default:
      return "\(codepoint) \(Character(scalar))"
    }
  }

  static func count(_ n: Int, _ noun: String) -> String { "\(grouped(n)) \(plural(n, noun))" }

  static func plural(_ n: Int, _ noun: String) -> String { n == 1 ? noun : noun + "s" }

  static func list(_ items: [String]) -> String {
    items.count <= 8
      ? items.joined(separator: ", ")
      : items.prefix(8).joined(separator: ", ") + " and \(items.count - 8) more"
  }

  /// "12,345": thousands grouped with commas, whatever the locale.
  static func grouped(_ n: Int) -> String {
    let digits = String(abs(n))
    var out = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return (n < 0 ? "−" : "") + out
  }
}
