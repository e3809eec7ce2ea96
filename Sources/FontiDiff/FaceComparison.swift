import FontiFonts
import FontiModel
import FontiText
import Foundation

/// What is compared, and how finely.
public struct DiffSettings: Sendable, Hashable, Codable {
  /// A glyph (or the sample) changed when more than this many pixels differ.
  public var threshold: Int
  /// The compared sample text.
  public var text: String
  public var pixelsPerEm = 64
  public var greyLevels = 8
  /// Changed glyphs kept with their outlines for the review pages, per family.
  public var glyphImages = 36
  /// Identical files and identical tables spare the comparisons they decide. Off only in tests,
  /// to prove the full comparison finds nothing in a font compared with itself.
  var shortcuts = true

  public init(threshold: Int = 16, text: String = defaultSampleText) {
    self.threshold = threshold
    self.text = text
  }

  /// Outlines drawn with other points (another outline format, some contours reversed) are
  /// the same shape when they paint the same at this size.
  static let shapePixelsPerEm = 256.0
  /// The sample is compared set on lines of this many ems, at 1.25 ems apart.
  static let sampleLineWidth = 32.0
  static let sampleLineHeight = 1.25
}

/// Two faces paired across the sides, and the name the review gives them.
struct FacePair: Sendable {
  var before: SideFace
  var after: SideFace
  var label: String
  /// A face paired across a migration (`FamilyComparison.migrate`): compared at these named
  /// instances only (nil: a static face, or a variable font's default), its axes and other
  /// instances not compared.
  var migration: DiffReport.Migration? = nil
  var beforeInstance: NamedInstance? = nil
  var afterInstance: NamedInstance? = nil

  /// Same file bytes at the same place: nothing in the face can differ.
  var isIdentical: Bool {
    before.sameBytesAsOtherSide && after.sameBytesAsOtherSide
      && before.relativePath == after.relativePath && before.query.index == after.query.index
  }
}

/// Which of many added or removed characters the review draws: a few from every block of 128
/// code points they fall in, taken in turn (Latin Extended-B, IPA, Greek, Cyrillic… rather
/// than the first 32 of Latin Extended-B), letters first within a block, then digits, symbols
/// and punctuation, then marks, and what draws nothing (spaces, format characters) last; when
/// there are more blocks than places, one from each of blocks spread evenly over them, blocks
/// with letters, digits or symbols before those of marks or spaces only. In code point order.
enum CharacterSpread {
  static func pick(_ scalars: [UInt32], limit: Int) -> [UInt32] {
    guard limit > 0 else { return [] }
    var blocks: [[UInt32]] = []
    var last: UInt32?
    for scalar in scalars.sorted() {
      if last == scalar >> 7, !blocks.isEmpty {
        blocks[blocks.count - 1].append(scalar)
      } else {
        blocks.append([scalar])
      }
      last = scalar >> 7
    }
    blocks = blocks.map { block in block.sorted { (rank($0), $0) < (rank($1), $1) } }
    // More blocks than characters to show: one from each of blocks spread evenly over them.
    if blocks.count > limit {
      let drawn = blocks.filter { rank($0[0]) < 3 }
      let rest = blocks.filter { rank($0[0]) >= 3 }
      func spread(_ from: [[UInt32]], _ count: Int) -> [UInt32] {
        guard count > 0, !from.isEmpty else { return [] }
        let count = min(count, from.count)
        return (0..<count).map { from[$0 * from.count / count][0] }
      }
      let first = spread(drawn, limit)
      return (first + spread(rest, limit - first.count)).sorted()
    }
    var picked: [UInt32] = []
    var depth = 0
    while picked.count < limit, blocks.contains(where: { $0.count > depth }) {
      for block in blocks where block.count > depth && picked.count < limit {
        picked.append(block[depth])
      }
      depth += 1
    }
    return picked.sorted()
  }

  /// 0 letters, 1 digits, 2 symbols and punctuation, 3 marks, 4 what draws nothing or is not
  /// assigned.
  static func rank(_ value: UInt32) -> Int {
    guard let scalar = Unicode.Scalar(value) else { return 4 }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
      return 0
    case .decimalNumber, .letterNumber, .otherNumber: return 1
    case .nonspacingMark, .spacingMark, .enclosingMark: return 3
    case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate,
      .privateUse, .unassigned:
      return 4
    default: return 2
    }
  }
}

/// Changed characters grouped by their base letter (å, ǻ and ẳ changed because a changed),
/// for showing each letter once before the rest.
enum LetterGroups {
  /// The order to show `items` (sorted largest first) in: one per base letter first, groups in
  /// order of their largest — the letter itself while its weight is at least half its group's
  /// largest, else that largest (⅞ redrawn at 519 px, not the 7 that moved by 21) — then the
  /// rest, in their order.
  static func order<T>(_ items: [T], scalar: (T) -> UInt32, weight: (T) -> Double) -> [Int] {
    var groups: [UInt32: [Int]] = [:]
    var bases: [UInt32] = []
    for (i, item) in items.enumerated() {
      let base = base(of: scalar(item))
      if groups[base] == nil { bases.append(base) }
      groups[base, default: []].append(i)
    }
    var firsts: [Int] = []
    for base in bases {
      guard let members = groups[base] else { continue }
      let largest = members[0]
      let own = members.first {
        scalar(items[$0]) == base && weight(items[$0]) * 2 >= weight(items[largest])
      }
      firsts.append(own ?? largest)
    }
    let first = Set(firsts)
    return firsts + items.indices.filter { !first.contains($0) }
  }

  /// The first scalar of the character's compatibility decomposition: a for ǻ and ẚ.
  static func base(of scalar: UInt32) -> UInt32 {
    guard let s = Unicode.Scalar(scalar) else { return scalar }
    return String(s).decomposedStringWithCompatibilityMapping.unicodeScalars.first?.value ?? scalar
  }
}

extension GlyphOutline {
  /// The point that moved most between `self` and `other` (the distance in font units and
  /// where it lands), when both are the same rings of points once normalised
  /// (`OutlineShape`: start points, contour order, implied on-curve points and a reversal of
  /// every contour set aside); nil when the outline was redrawn or is the same shape.
  func largestMove(to other: GlyphOutline) -> (distance: Double, x: Double, y: Double)? {
    guard let before = OutlineShape(self), let after = OutlineShape(other),
      case .edited(let distance, let x, let y) = OutlineShape.compare(before, after)
    else { return nil }
    return (distance, x, y)
  }
}

/// A changed glyph with what its review image needs.
struct GlyphChange: Sendable {
  var entry: DiffReport.Glyph
  var before: GlyphOutline
  var after: GlyphOutline
  var unitsPerEm: (before: Int, after: Int)

  /// At most `limit` changes for the review pages: one per base letter first (å, ǻ and ẳ
  /// changed because a changed; the page shows a, then the next letter that changed), groups
  /// in order of their largest change; then the rest, largest first. A group shows its base
  /// letter while the letter's change is at least half its largest; else its largest (⅞'s
  /// redrawn fraction at 519 px, not the 7 that moved by 21).
  static func selection(_ changes: [GlyphChange], limit: Int) -> [GlyphChange] {
    let sorted = changes.sorted(by: larger)
    return LetterGroups.order(sorted, scalar: \.scalar, weight: \.weight).prefix(limit).map {
      sorted[$0]
    }
  }

  var scalar: UInt32 { DiffNumber.scalar(entry.codepoint) ?? 0 }

  /// How much a change shows at 64 px per em: its pixels, plus an advance's change as the
  /// column of pixels it shifts the rest of a line by (an em tall).
  var weight: Double {
    let units = Double(max(1, unitsPerEm.after))
    let shift = abs(Double(entry.advance[1] - entry.advance[0])) / units * 64
    return Double(entry.pixels) + (shift * 64).rounded()
  }

  /// Where the outline moved most, in font units of the after side, when its points moved.
  var largestMove: (distance: Double, x: Double, y: Double)? {
    unitsPerEm.before == unitsPerEm.after ? before.largestMove(to: after) : nil
  }

  /// Largest change first (`weight`), then by character, face and instance.
  static func larger(_ a: GlyphChange, _ b: GlyphChange) -> Bool {
    (a.weight, b.entry.codepoint, b.entry.face, b.entry.instance ?? "")
      > (b.weight, a.entry.codepoint, a.entry.face, a.entry.instance ?? "")
  }
}

/// The sample as both sides set it, for the review pages.
struct SampleChange: Sendable, Codable {
  var before: ShapedText
  var after: ShapedText
  var face: String
  var instance: String?
  var pixels: Int
  /// The language of an own-script sample ("Arabic"), when the family cannot set the text.
  var languageName: String?
  /// For a family on one side only: that side, "before" or "after" (both sides then hold its
  /// one setting).
  var only: String?

  /// "Sample", or "Sample in Arabic" for an own-script sample.
  var title: String { languageName.map { "Sample in \($0)" } ?? "Sample" }

  /// Neither a pixel nor the width differs: the review shows the sample once.
  var isSame: Bool {
    pixels == 0
      && FaceComparer.sameLength(before.width, before.unitsPerEm, after.width, after.unitsPerEm)
  }
}

extension SampleChange {
  /// The sample's lines and the largest em size (user units) up to `maximum` at which they
  /// fit `width` × `height` (lines 1.25 ems apart), never below `minimum`.
  func fit(width: Double, height: Double, minimum: Double, maximum: Double) -> (
    lines: [[(paragraph: Int, word: Int)]], em: Double
  ) {
    // Up to a third smaller to save a line: one line at 20 reads better than two at 26.
    var em = maximum
    var fewest = Int.max
    var candidate = maximum
    while candidate >= max(minimum, maximum * 0.66) {
      let count = ShapedText.lines(before, after, lineWidth: width / candidate).count
      if count < fewest {
        fewest = count
        em = candidate
      }
      candidate *= 0.96
    }
    while true {
      let lines = ShapedText.lines(before, after, lineWidth: width / em)
      let needed = (Double(lines.count) - 1) * DiffSettings.sampleLineHeight * em + em * 1.1
      if needed <= height || em <= minimum { return (lines, em) }
      em = max(minimum, em * 0.92)
    }
  }
}

/// Everything two paired faces differ in.
struct FaceDifference: Sendable {
  var label: String
  var codepointsAdded: Set<UInt32> = []
  var codepointsRemoved: Set<UInt32> = []
  var glyphs: [DiffReport.Glyph] = []
  /// The largest changes with their outlines (at most `DiffSettings.glyphImages`).
  var glyphImages: [GlyphChange] = []
  var belowThreshold = 0
  /// Glyphs below the threshold whose outline was edited (`compareShapes`).
  var moved: [DiffReport.Glyph] = []
  var metrics: [String: [Int?]] = [:]
  var axes = DiffReport.Axes()
  var instances = DiffReport.Instances()
  var shaping: DiffReport.FaceShaping?
  /// Pictures of the largest shaping changes, at the first instance that has any.
  var shapingImages: [ShapingImage] = []
  /// The sample at named instances added (`only` "after") or removed (`only` "before").
  var instanceImages: [SampleChange] = []
  var sample: [DiffReport.Sample] = []
  /// The sample at the face's default (or first) instance, when it was compared.
  var sampleImage: SampleChange?
  /// What the face declares, its hinting, colour and other tables (`DeclaredDifference`).
  var declared = DeclaredDifference()
}

/// A named instance of one face (`ProofReader` reads it, as proofs do), with its index in
/// `fvar` for `HarfBuzzFont.setNamedInstance`.
struct NamedInstance: Sendable, Hashable {
  var index: Int
  var name: String
  var coordinates: [String: Double]

  static func read(_ face: HarfBuzzFace, axes: [FontProofs.Axis]) -> [NamedInstance] {
    ProofReader.readInstances(face, axes: axes).enumerated().map {
      NamedInstance(index: $0, name: $1.name, coordinates: $1.coordinates)
    }
  }
}

/// Compares paired faces, reading each side straight from its file with HarfBuzz. Outlines and
/// advances are compared first; only glyphs that differ are rasterised. Tables that hold the
/// same bytes on both sides spare the work they decide (a rebuilt font whose head table alone
/// changed compares in milliseconds). Not Sendable: one per thread.
package final class FaceComparer {
  let settings: DiffSettings
  let raster: GlyphRaster
  /// Draws outlines redrawn with other points, to tell whether they are the same shape.
  let shapeRaster: GlyphRaster
  /// The text the family's samples are compared on (`sampleSource(for:)` sets it per family).
  var sample: SampleSource
  /// Comparing a pair across a migration (`FacePair.migration`): points moved by less than a
  /// font unit are an instance's rounding.
  var migrating = false

  /// The review's text, or, for a family that cannot set it, a sample in its own script.
  struct SampleSource: Sendable {
    var text: String
    var language = "en"
    /// Set for an own-script sample: what the review pages call it.
    var languageName: String?
  }

  package init(settings: DiffSettings) {
    self.settings = settings
    raster = GlyphRaster(
      pixelsPerEm: Double(settings.pixelsPerEm), greyLevels: settings.greyLevels)
    shapeRaster = GlyphRaster(
      pixelsPerEm: DiffSettings.shapePixelsPerEm, greyLevels: settings.greyLevels, reach: 1)
    sample = SampleSource(text: settings.text)
  }

  /// What a family's sample is compared on, decided on its first pair's AFTER face like a
  /// specimen decides: when the face does not write the text's script
  /// (`FallbackSample.showsOwnScript`), Pango's sample
  /// sentence of a language it covers (its own script first), else its own characters.
  func sampleSource(for pair: FacePair) -> SampleSource {
    let review = SampleSource(text: settings.text)
    guard let face = try? HarfBuzzFace(file: pair.after.file, index: pair.after.query.index)
    else { return review }
    let family = FontFamily(
      name: pair.after.query.family, faces: [], languages: pair.after.query.languages,
      coverage: CharacterCoverage(scalars: face.unicodes))
    guard FallbackSample.showsOwnScript(settings.text, language: nil, family: family) else {
      return review
    }
    switch FallbackSample.choose(for: family, preferGrid: false, text: settings.text) {
    case .capitals(let text):
      return SampleSource(text: text, languageName: "capitals")
    case .language(let code, let name, let text):
      return SampleSource(text: text, language: code, languageName: name)
    case .glyphGrid(let characters):
      guard !characters.isEmpty else { return review }
      return SampleSource(
        text: characters.prefix(24).joined(separator: " "), languageName: "its own characters")
    }
  }

  /// Instances added or removed drawn per face, at most.
  static let instanceImages = 3

  /// Tables from which HarfBuzz draws outlines and takes advances and the cmap.
  static let outlineTables = [
    "glyf", "loca", "CFF ", "CFF2", "gvar", "avar", "fvar", "HVAR", "hmtx", "hhea", "maxp", "cmap",
  ]
  /// Tables that shaping reads besides those.
  static let layoutTables = ["GSUB", "GPOS", "GDEF", "kern", "morx", "mort", "kerx", "trak"]

  func compare(_ pair: FacePair) throws -> FaceDifference {
    var out = FaceDifference(label: pair.label)
    if pair.isIdentical && settings.shortcuts { return out }
    migrating = pair.migration != nil
    defer { migrating = false }

    let before = try HarfBuzzFace(file: pair.before.file, index: pair.before.query.index)
    let after = try HarfBuzzFace(file: pair.after.file, index: pair.after.query.index)
    let same = sameTables(before, after)
    let common = compareCharacters(before, after, outlinesSame: same.outlines, into: &out)
    out.metrics = FaceComparer.metricChanges(before, after)
    let variations = Variations(before, after, pair: pair)
    if pair.migration == nil {
      compareVariations(variations, before, after, face: pair.label, into: &out)
    }

    // Shaping: compared where a table it reads differs, or at instances that moved.
    var shaping = DiffReport.FaceShaping(face: pair.label)
    let shaper = ShapingComparer(before: before, after: after, text: sample.text)
    var shapingInputs: ShapingInputs?
    var rules: RuleComparison?
    if !same.shaping {
      shaping.tables.changed = shaper.changedTables()
      shaping.features = shaper.listChanges()
      // Not across a migration: a static face and a variable face's instance keep their
      // rules in other lookups with other roundings; what they shape is compared below.
      let layout = LayoutComparer(before: before, after: after)
      if layout.differs && pair.migration == nil {
        rules = RuleComparison(layout: layout, kernSame: before.hasSameTable("kern", as: after))
      }
    }

    let sampleAt = variations.sampleAt
    for (index, (ib, ia)) in variations.compared.enumerated() {
      let sameCoordinates =
        ib.map { b in
          ia.map { FaceComparer.sameCoordinates(b, $0, axes: variations.axes) } ?? false
        }
        ?? (ia == nil)
      if same.outlines && same.layout && sameCoordinates { continue }
      let (fontBefore, fontAfter) = FaceComparer.fonts(before, ib, after, ia)
      // A migrated pair's label names its instances.
      let instance = pair.migration == nil ? ia?.name : nil
      if !(same.outlines && sameCoordinates) {
        try compareGlyphs(
          common, fontBefore, fontAfter, face: pair.label, instance: instance, into: &out)
      }
      if !(same.shaping && sameCoordinates) {
        // Rules first: where they are the same and nothing else shaping reads differs, the
        // texts shape alike and are not tried.
        let rulesSame = rules?.compare(
          before, ib, after, ia, fonts: (fontBefore, fontAfter), shaper: shaper, face: pair.label,
          instance: instance, shaping: &shaping, into: &out)
        if !(rulesSame ?? false) || !before.hasSameTable("cmap", as: after) {
          compareShaping(
            fontBefore, fontAfter, shaper: shaper, inputs: &shapingInputs, instance: instance,
            shaping: &shaping, into: &out)
        }
      }
      try compareSample(
        fontBefore, fontAfter, face: pair.label, instance: instance, keepImage: index == sampleAt,
        into: &out)
    }
    out.glyphs.sort { ($0.codepoint, $0.instance ?? "") < ($1.codepoint, $1.instance ?? "") }
    out.moved.sort { ($0.codepoint, $0.instance ?? "") < ($1.codepoint, $1.instance ?? "") }
    if let rules {
      // Tables whose rules are the same at every instance compared are repacked: no change.
      shaping.tables.changed.removeAll { rules.repacked.contains($0) }
    }
    ShapingComparer.finish(&shaping)
    if pair.migration != nil {
      // A variable font's layout tables hold variation data no static font can: tables that
      // differ while every tried pair and text shapes the same are the migration itself.
      shaping.tables.changed.removeAll { shaping.tables.unexplained.contains($0) }
      shaping.tables.unexplained = []
    }
    if !shaping.isEmpty { out.shaping = shaping }
    out.declared = DeclaredDifference.compare(
      before, after, face: pair.label, common: common,
      outlinesChanged: !out.glyphs.isEmpty || !out.moved.isEmpty || out.belowThreshold > 0,
      charactersChanged: !out.codepointsAdded.isEmpty || !out.codepointsRemoved.isEmpty)
    if pair.migration != nil { out.declared = out.declared.acrossMigration(pair) }
    return out
  }

  /// Which comparisons tables holding the same bytes on both sides spare (with
  /// `settings.shortcuts`).
  struct SameTables {
    /// Outlines, advances and the cmap.
    var outlines: Bool
    /// Those, and what shaping reads.
    var layout: Bool
    /// The cmap and the tables `ShapingComparer` reads.
    var shaping: Bool
  }

  func sameTables(_ before: HarfBuzzFace, _ after: HarfBuzzFace) -> SameTables {
    let sameUnits = before.unitsPerEm == after.unitsPerEm
    // head: unitsPerEm (18) and indexToLocFormat (50) are all that outlines depend on there.
    let outlines =
      settings.shortcuts && sameUnits
      && FaceComparer.outlineTables.allSatisfy { before.hasSameTable($0, as: after) }
      && before.field("head", at: 50) == after.field("head", at: 50)
    let layout =
      outlines && FaceComparer.layoutTables.allSatisfy { before.hasSameTable($0, as: after) }
    let shaping =
      settings.shortcuts && before.hasSameTable("cmap", as: after)
      && ShapingComparer.tables.allSatisfy { before.hasSameTable($0, as: after) }
    return SameTables(outlines: outlines, layout: layout, shaping: shaping)
  }

  /// Characters added and removed; returns those both sides map, in order.
  private func compareCharacters(
    _ before: HarfBuzzFace, _ after: HarfBuzzFace, outlinesSame: Bool,
    into out: inout FaceDifference
  ) -> [UInt32] {
    let cmapBefore = Set(before.unicodes)
    let cmapAfter = outlinesSame ? cmapBefore : Set(after.unicodes)
    out.codepointsAdded = cmapAfter.subtracting(cmapBefore)
    out.codepointsRemoved = cmapBefore.subtracting(cmapAfter)
    return cmapBefore.intersection(cmapAfter).sorted()
  }

  /// The variations of two paired faces: their axes, and their named instances (read as
  /// proofs read them) paired by name.
  struct Variations {
    var axes: (before: [FontProofs.Axis], after: [FontProofs.Axis])
    var paired: [(NamedInstance, NamedInstance)]
    var added: [NamedInstance]
    var removed: [NamedInstance]
    /// A migrated pair's instances (`FacePair.migration`): the one place compared.
    var pinned: (NamedInstance?, NamedInstance?)?

    init(_ before: HarfBuzzFace, _ after: HarfBuzzFace, pair: FacePair? = nil) {
      axes = (FontAxes.read(before).axes, FontAxes.read(after).axes)
      if let pair, pair.migration != nil {
        (paired, added, removed) = ([], [], [])
        pinned = (pair.beforeInstance, pair.afterInstance)
        return
      }
      (paired, added, removed) = FaceComparer.pairInstances(
        NamedInstance.read(before, axes: axes.before), NamedInstance.read(after, axes: axes.after))
    }

    /// The instances compared on both sides: the paired ones, else the default coordinates.
    var compared: [(NamedInstance?, NamedInstance?)] {
      if let pinned { return [pinned] }
      return paired.isEmpty ? [(nil, nil)] : paired.map { ($0.0, $0.1) }
    }

    /// Which of `compared` the review shows the sample at.
    var sampleAt: Int {
      pinned == nil ? FaceComparer.representative(compared, axes: axes.after) : 0
    }
  }

  /// Axes and named instances added, removed and moved; instances on one side only drawn at
  /// their coordinates from that side.
  private func compareVariations(
    _ variations: Variations, _ before: HarfBuzzFace, _ after: HarfBuzzFace, face: String,
    into out: inout FaceDifference
  ) {
    out.axes = FaceComparer.axisChanges(variations.axes.before, variations.axes.after, face: face)
    out.instances.added = variations.added.map { FaceComparer.describe($0, face: face) }
    out.instances.removed = variations.removed.map { FaceComparer.describe($0, face: face) }
    for (instances, sideFace, side) in [
      (variations.added, after, "after"), (variations.removed, before, "before"),
    ] {
      for instance in instances.prefix(FaceComparer.instanceImages - out.instanceImages.count) {
        let font = HarfBuzzFont(face: sideFace)
        font.setNamedInstance(instance.index)
        let shaped = ShapedText(sample.text, font: font, language: sample.language)
        out.instanceImages.append(
          SampleChange(
            before: shaped, after: shaped, face: face, instance: instance.name, pixels: 0,
            languageName: sample.languageName, only: side))
      }
    }
    for (b, a) in variations.paired
    where !FaceComparer.sameCoordinates(b, a, axes: variations.axes) {
      out.instances.changed.append(
        DiffReport.InstanceChange(
          face: face, name: a.name, before: FaceComparer.coordinates(b),
          after: FaceComparer.coordinates(a)))
    }
  }

  /// Shaping at one instance: the kerning pairs, feature effects and marks that differ, added
  /// to `shaping`; the first instance with any draws them. `inputs` are worked out at the
  /// first instance compared and kept for the others.
  private func compareShaping(
    _ fontBefore: HarfBuzzFont, _ fontAfter: HarfBuzzFont, shaper: ShapingComparer,
    inputs shapingInputs: inout ShapingInputs?, instance: String?,
    shaping: inout DiffReport.FaceShaping, into out: inout FaceDifference
  ) {
    var inputs =
      shapingInputs
      ?? ShapingInputs(
        groups: shaper.kerningGroups(fontBefore, fontAfter),
        features: shaper.comparedFeatures(), marks: shaper.markTexts())
    let pairs = shaper.kerning(fontBefore, fontAfter, groups: &inputs.groups, instance: instance)
    shapingInputs = inputs
    let effects = shaper.featureEffects(
      fontBefore, fontAfter, texts: inputs.features, instance: instance)
    let marks = shaper.marks(fontBefore, fontAfter, texts: inputs.marks, instance: instance)
    shaping.kerning.pairs += pairs
    shaping.features.changed += effects
    shaping.marks += marks
    // The pictures of the tried texts follow those of the rules (`RuleComparison`).
    if !out.shapingImages.contains(where: { !$0.isRule }) {
      out.shapingImages += shaper.images(
        fontBefore, fontAfter, face: out.label, instance: instance, pairs: pairs,
        effects: effects, marks: marks)
    }
  }

  /// What a face's shaping is compared on, worked out once for all its instances.
  struct ShapingInputs {
    var groups: ShapingComparer.KerningGroups
    var features: [String: [[Unicode.Scalar]]]
    var marks: [[Unicode.Scalar]]
  }

  /// The sample as both sides set it at the face's representative instance, for the review
  /// pages of a family that changed elsewhere.
  func sampleImage(for pair: FacePair) throws -> SampleChange {
    let before = try HarfBuzzFace(file: pair.before.file, index: pair.before.query.index)
    let after = try HarfBuzzFace(file: pair.after.file, index: pair.after.query.index)
    let variations = Variations(before, after, pair: pair)
    let (ib, ia) = variations.compared[variations.sampleAt]
    let (fontBefore, fontAfter) = FaceComparer.fonts(before, ib, after, ia)
    var out = FaceDifference(label: pair.label)
    let instance = pair.migration == nil ? ia?.name : nil
    try compareSample(
      fontBefore, fontAfter, face: pair.label, instance: instance, keepImage: true, into: &out)
    return out.sampleImage
      ?? SampleChange(
        before: ShapedText(sample.text, font: fontBefore, language: sample.language),
        after: ShapedText(sample.text, font: fontAfter, language: sample.language),
        face: pair.label, instance: instance, pixels: 0, languageName: sample.languageName)
  }

  /// The sample of a family on one side only, set in `face` (its first usual face) at its
  /// representative instance: a change whose two sides are the same setting.
  func sampleImage(only face: SideFace, label: String, after: Bool) throws -> SampleChange {
    let pair = FacePair(before: face, after: face, label: label)
    sample = sampleSource(for: pair)
    var image = try sampleImage(for: pair)
    image.only = after ? "after" : "before"
    return image
  }

  /// Each of `characters` (a code point, and the label of the first face that has it) drawn
  /// from that face's AFTER file (`added`) or BEFORE file, at its default coordinates: a change
  /// whose two sides are the same outline, for the review's grids of added and removed
  /// characters. A face that cannot be read, or a character it does not map, is left out.
  func characterImages(
    _ characters: [(scalar: UInt32, face: String)], pairs: [FacePair], added: Bool
  )
    -> [GlyphChange]
  {
    var fonts: [String: HarfBuzzFont] = [:]
    func font(_ label: String) -> HarfBuzzFont? {
      if let known = fonts[label] { return known }
      guard let pair = pairs.first(where: { $0.label == label }) else { return nil }
      let side = added ? pair.after : pair.before
      guard let face = try? HarfBuzzFace(file: side.file, index: side.query.index) else {
        return nil
      }
      let opened = HarfBuzzFont(face: face)
      if let instance = added ? pair.afterInstance : pair.beforeInstance {
        opened.setNamedInstance(instance.index)
      }
      fonts[label] = opened
      return opened
    }
    return characters.compactMap { character in
      guard let font = font(character.face), let glyph = font.glyph(for: character.scalar)
      else { return nil }
      let outline = font.outline(of: glyph)
      let advance = font.advance(of: glyph)
      let units = font.face.unitsPerEm
      return GlyphChange(
        entry: DiffReport.Glyph(
          codepoint: DiffNumber.codepoint(character.scalar), face: character.face, instance: nil,
          pixels: 0, advance: [advance, advance]),
        before: outline, after: outline, unitsPerEm: (units, units))
    }
  }

  /// A font of each face at its instance (or the default coordinates).
  static func fonts(
    _ before: HarfBuzzFace, _ ib: NamedInstance?, _ after: HarfBuzzFace, _ ia: NamedInstance?
  ) -> (HarfBuzzFont, HarfBuzzFont) {
    let fontBefore = HarfBuzzFont(face: before)
    let fontAfter = HarfBuzzFont(face: after)
    if let ib { fontBefore.setNamedInstance(ib.index) }
    if let ia { fontAfter.setNamedInstance(ia.index) }
    return (fontBefore, fontAfter)
  }

  // MARK: Glyphs

  private func compareGlyphs(
    _ codepoints: [UInt32], _ before: HarfBuzzFont, _ after: HarfBuzzFont, face: String,
    instance: String?, into out: inout FaceDifference
  ) throws {
    let ub = before.face.unitsPerEm
    let ua = after.face.unitsPerEm
    var cacheBefore: [UInt32: GlyphOutline] = [:]
    var cacheAfter: [UInt32: GlyphOutline] = [:]
    func outline(_ glyph: UInt32, _ font: HarfBuzzFont, _ cache: inout [UInt32: GlyphOutline])
      -> GlyphOutline
    {
      if let known = cache[glyph] { return known }
      let drawn = font.outline(of: glyph)
      cache[glyph] = drawn
      return drawn
    }
    for scalar in codepoints {
      guard let gb = before.glyph(for: scalar), let ga = after.glyph(for: scalar) else { continue }
      let ob = outline(gb, before, &cacheBefore)
      let oa = outline(ga, after, &cacheAfter)
      let ab = before.advance(of: gb)
      let aa = after.advance(of: ga)
      let sameAdvance = FaceComparer.sameLength(ab, ub, aa, ua)
      let shape = try compareShapes(ob, unitsPerEm: ub, oa, unitsPerEm: ua)
      if shape.same && sameAdvance { continue }
      let pixels =
        shape.same
        ? 0
        : try raster.difference(
          [GlyphRaster.Placed(outline: ob, x: 0, y: 0)], unitsPerEm: ub,
          [GlyphRaster.Placed(outline: oa, x: 0, y: 0)], unitsPerEm: ua)
      let entry = DiffReport.Glyph(
        codepoint: DiffNumber.codepoint(scalar), face: face, instance: instance, pixels: pixels,
        advance: [ab, aa], moved: shape.moved)
      if pixels > settings.threshold || !sameAdvance {
        out.glyphs.append(entry)
      } else {
        out.belowThreshold += 1
        // An edit is a change whatever it paints at 64 px/em: points that moved by a unit or
        // more, or an outline redrawn that paints otherwise at 256 px/em.
        guard shape.edited else { continue }
        out.moved.append(entry)
      }
      out.glyphImages.append(
        GlyphChange(entry: entry, before: ob, after: oa, unitsPerEm: (ub, ua)))
      if out.glyphImages.count > 4 * settings.glyphImages {
        out.glyphImages = GlyphChange.selection(out.glyphImages, limit: settings.glyphImages)
      }
    }
    out.glyphImages = GlyphChange.selection(out.glyphImages, limit: settings.glyphImages)
  }

  /// What two outlines of a glyph are as shapes (`OutlineShape`): the same (also when
  /// redrawn with other points and painting the same at 256 px per em, within `threshold`
  /// pixels), or `edited` — points moved by a font unit or more (`moved`, capped: a hostile
  /// font's far-flung points must not overflow Int), or redrawn to paint otherwise.
  private func compareShapes(
    _ before: GlyphOutline, unitsPerEm ub: Int, _ after: GlyphOutline, unitsPerEm ua: Int
  ) throws -> (same: Bool, edited: Bool, moved: Int?) {
    if ub == ua && before == after { return (true, false, nil) }
    if ub == ua, let b = OutlineShape(before), let a = OutlineShape(after) {
      switch OutlineShape.compare(b, a) {
      case .same: return (true, false, nil)
      case .edited(let distance, _, _) where migrating && distance < 1:
        // An instance made static has its points rounded to whole units: a move of less
        // than a unit is that rounding.
        return (true, false, nil)
      case .edited(let distance, _, _):
        let moved = Int(min(distance, 1e9).rounded())
        return (false, moved > 0, moved)
      case .redrawn: break
      }
    }
    if FaceComparer.sameGeometry(before, unitsPerEm: ub, after, unitsPerEm: ua) {
      return (true, false, nil)
    }
    let pixels = try shapeRaster.difference(
      [GlyphRaster.Placed(outline: before, x: 0, y: 0)], unitsPerEm: ub,
      [GlyphRaster.Placed(outline: after, x: 0, y: 0)], unitsPerEm: ua, limit: settings.threshold)
    return pixels > settings.threshold ? (false, true, nil) : (true, false, nil)
  }

  /// Whether two outlines are the same shape by their geometry alone (`OutlineGeometry`): every
  /// boundary within half a pixel of the other side's at 256 px per em (each side scaled by its
  /// own units per em), so that the raster need not be drawn. Curves are cut into lines within
  /// 1/32 px and boundaries sampled every 1/16 px: the distance allowed leaves room for both.
  static func sameGeometry(
    _ before: GlyphOutline, unitsPerEm ub: Int, _ after: GlyphOutline, unitsPerEm ua: Int
  ) -> Bool {
    let pixels = DiffSettings.shapePixelsPerEm
    let tolerance = 1.0 / 32
    let step = 1.0 / 16
    guard
      let b = OutlineGeometry(before, scale: pixels / Double(max(1, ub)), tolerance: tolerance),
      let a = OutlineGeometry(after, scale: pixels / Double(max(1, ua)), tolerance: tolerance)
    else { return false }
    return OutlineGeometry.sameShape(b, a, distance: 0.5 - 2 * tolerance - step / 2, step: step)
  }

  // MARK: The sample

  private func compareSample(
    _ before: HarfBuzzFont, _ after: HarfBuzzFont, face: String, instance: String?,
    keepImage: Bool, into out: inout FaceDifference
  ) throws {
    let shapedBefore = ShapedText(sample.text, font: before, language: sample.language)
    let shapedAfter = ShapedText(sample.text, font: after, language: sample.language)
    var pixels = 0
    if shapedBefore != shapedAfter, try !sameShapes(shapedBefore, shapedAfter) {
      let lines = ShapedText.lines(
        shapedBefore, shapedAfter, lineWidth: DiffSettings.sampleLineWidth)
      pixels = try raster.difference(
        shapedBefore.placed(on: lines, lineHeight: DiffSettings.sampleLineHeight),
        unitsPerEm: shapedBefore.unitsPerEm,
        shapedAfter.placed(on: lines, lineHeight: DiffSettings.sampleLineHeight),
        unitsPerEm: shapedAfter.unitsPerEm)
    }
    let sameWidth = FaceComparer.sameLength(
      shapedBefore.width, shapedBefore.unitsPerEm, shapedAfter.width, shapedAfter.unitsPerEm)
    if pixels > settings.threshold || !sameWidth {
      out.sample.append(
        DiffReport.Sample(
          face: face, instance: instance,
          text: sample.text == settings.text ? nil : sample.text,
          width: [shapedBefore.width, shapedAfter.width], pixels: pixels))
    }
    // The review shows the sample where it changed most; on a tie, at the representative
    // instance.
    let current = out.sampleImage?.pixels ?? -1
    if pixels > current || (pixels == current && keepImage) {
      out.sampleImage = SampleChange(
        before: shapedBefore, after: shapedAfter, face: face, instance: instance, pixels: pixels,
        languageName: sample.languageName)
    }
  }

  /// Whether two settings of the sample differ in their outlines' drawing alone, every glyph
  /// the same shape (`compareShapes`): a font converted to another outline format sets the
  /// same sample.
  private func sameShapes(_ before: ShapedText, _ after: ShapedText) throws -> Bool {
    guard before.unitsPerEm == after.unitsPerEm, before.paragraphs == after.paragraphs,
      before.spaceWidth == after.spaceWidth, before.width == after.width,
      before.isRightToLeft == after.isRightToLeft,
      Set(before.outlines.keys) == Set(after.outlines.keys)
    else { return false }
    for (glyph, outline) in before.outlines {
      guard let other = after.outlines[glyph] else { return false }
      let shape = try compareShapes(
        outline, unitsPerEm: before.unitsPerEm, other, unitsPerEm: after.unitsPerEm)
      if !shape.same { return false }
    }
    return true
  }

  // MARK: Metrics, axes, instances

  /// Metric name → how it is read: hhea and OS/2 fields from the tables (HarfBuzz 6 returns
  /// only whichever the font asks layout to use), the rest through HarfBuzz's OpenType metrics.
  static func metrics(_ face: HarfBuzzFace) -> [String: Int] {
    let font = HarfBuzzFont(face: face)
    var out: [String: Int] = ["unitsPerEm": face.unitsPerEm]
    let fields: [(String, String, Int, Bool)] = [
      ("hheaAscender", "hhea", 4, true), ("hheaDescender", "hhea", 6, true),
      ("hheaLineGap", "hhea", 8, true), ("typoAscender", "OS/2", 68, true),
      ("typoDescender", "OS/2", 70, true), ("typoLineGap", "OS/2", 72, true),
      ("winAscent", "OS/2", 74, false), ("winDescent", "OS/2", 76, false),
    ]
    for (name, table, offset, signed) in fields {
      if let value = face.field(table, at: offset, signed: signed) { out[name] = value }
    }
    if let x = font.metric("xhgt") { out["xHeight"] = x }
    if let cap = font.metric("cpht") { out["capHeight"] = cap }
    return out
  }

  static func metricChanges(_ before: HarfBuzzFace, _ after: HarfBuzzFace) -> [String: [Int?]] {
    let b = metrics(before)
    let a = metrics(after)
    var out: [String: [Int?]] = [:]
    for key in Set(b.keys).union(a.keys) where b[key] != a[key] {
      out[key] = [b[key], a[key]]
    }
    return out
  }

  static func axisChanges(_ before: [FontProofs.Axis], _ after: [FontProofs.Axis], face: String)
    -> DiffReport.Axes
  {
    var out = DiffReport.Axes()
    // A hostile fvar may list a tag twice: the nth axis of a tag pairs with the nth of the
    // other side, so that a face compared with itself never differs.
    func keyed(_ axes: [FontProofs.Axis]) -> [(key: String, axis: FontProofs.Axis)] {
      var seen: [String: Int] = [:]
      return axes.map { axis in
        let n = seen[axis.tag, default: 0]
        seen[axis.tag] = n + 1
        return (n == 0 ? axis.tag : "\(axis.tag)#\(n)", axis)
      }
    }
    let (beforeKeyed, afterKeyed) = (keyed(before), keyed(after))
    let b = Dictionary(beforeKeyed, uniquingKeysWith: { x, _ in x })
    let a = Dictionary(afterKeyed, uniquingKeysWith: { x, _ in x })
    for (key, axis) in afterKeyed where b[key] == nil { out.added.append(describe(axis)) }
    for (key, axis) in beforeKeyed where a[key] == nil { out.removed.append(describe(axis)) }
    for (key, axis) in afterKeyed {
      guard let old = b[key] else { continue }
      if (old.min, old.defaultValue, old.max) != (axis.min, axis.defaultValue, axis.max) {
        out.changed.append(
          DiffReport.AxisChange(face: face, before: describe(old), after: describe(axis)))
      }
    }
    return out
  }

  static func describe(_ axis: FontProofs.Axis) -> DiffReport.Axis {
    DiffReport.Axis(
      tag: axis.tag, name: axis.name, min: axis.min, default: axis.defaultValue, max: axis.max)
  }

  static func describe(_ instance: NamedInstance, face: String) -> DiffReport.Instance {
    DiffReport.Instance(face: face, name: instance.name, coordinates: coordinates(instance))
  }

  static func coordinates(_ instance: NamedInstance) -> [String: Double] {
    instance.coordinates
  }

  /// Whether two instances sit at the same place. An axis only one side has counts, on the
  /// other, as at its default: an axis added with every instance at its default moves none.
  static func sameCoordinates(
    _ b: NamedInstance, _ a: NamedInstance,
    axes: (before: [FontProofs.Axis], after: [FontProofs.Axis])
  ) -> Bool {
    var (before, after) = (coordinates(b), coordinates(a))
    for axis in axes.after where before[axis.tag] == nil { before[axis.tag] = axis.defaultValue }
    for axis in axes.before where after[axis.tag] == nil { after[axis.tag] = axis.defaultValue }
    return before == after
  }

  /// Instances paired by name (case-insensitively; repeated names in order).
  static func pairInstances(_ before: [NamedInstance], _ after: [NamedInstance]) -> (
    [(NamedInstance, NamedInstance)], added: [NamedInstance], removed: [NamedInstance]
  ) {
    var pool: [String: [NamedInstance]] = [:]
    for i in after { pool[i.name.lowercased(), default: []].append(i) }
    var pairs: [(NamedInstance, NamedInstance)] = []
    var removed: [NamedInstance] = []
    for b in before {
      if var candidates = pool[b.name.lowercased()], !candidates.isEmpty {
        pairs.append((b, candidates.removeFirst()))
        pool[b.name.lowercased()] = candidates
      } else {
        removed.append(b)
      }
    }
    let left = Set(pool.values.flatMap { $0.map(\.index) })
    return (pairs, after.filter { left.contains($0.index) }, removed)
  }

  /// Which compared instance the review shows the sample at: the default coordinates, else the
  /// first.
  static func representative(
    _ compared: [(NamedInstance?, NamedInstance?)], axes: [FontProofs.Axis]
  )
    -> Int
  {
    let defaults = Dictionary(
      axes.map { ($0.tag, $0.defaultValue) }, uniquingKeysWith: { a, _ in a })
    return compared.firstIndex { pair in
      guard let a = pair.1 else { return true }
      return coordinates(a) == defaults
    } ?? 0
  }

  // MARK: Helpers

  /// Lengths in each face's units, equal to half a unit of the finer em.
  static func sameLength(_ a: Int, _ ua: Int, _ b: Int, _ ub: Int) -> Bool {
    if ua == ub { return a == b }
    let fine = Double(max(ua, ub, 1))
    return abs(Double(a) / Double(max(ua, 1)) - Double(b) / Double(max(ub, 1))) * fine < 0.5
  }

  static func difference(_ before: Set<String>, _ after: Set<String>)
    -> DiffReport.AddedRemoved<String>
  {
    DiffReport.AddedRemoved(
      added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted())
  }
}
