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
}
