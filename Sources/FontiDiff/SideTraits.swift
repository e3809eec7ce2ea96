import FontiFonts
import FontiModel
import FontiText
import Foundation

/// What a family can do on one side, in the shapes the rest of the tool records it: its
/// proofs (`ProofReader`: axes, named instances, features with their samples) and its language
/// coverage (`LanguageCoverage`, by the regular face's characters). `diff` compares these, so
/// a review says what `run`'s manifest would say changed.
struct SideTraits: Sendable {
  var proofs: FamilyProofs
  var languages: LanguageCoverage

  /// Reads `family` (its faces are ordered regular first).
  static func read(_ family: SideFamily) throws(FontReadError) -> SideTraits {
    guard let regular = family.faces.first else {
      throw FontReadError(file: family.name, reason: "has no face")
    }
    let faces = family.faces.map {
      FontFace(
        style: $0.style, weight: $0.query.weight, slant: $0.query.slant, width: $0.query.width,
        file: $0.file, index: $0.query.index)
    }
    let proofs: FamilyProofs
    do {
      proofs = try ProofReader.read(regular: faces[0], faces: faces)
    } catch {
      throw FontReadError(file: error.file, reason: error.reason)
    }
    let face = try HarfBuzzFace(file: regular.file, index: regular.query.index)
    let query = regular.query
    // A font that maps pictographs to letters supports no language, as `LanguageCoverage`
    // says of installed families.
    let letters =
      query.languages.isEmpty
      || !SymbolFonts.drawsPictographsForLatin(file: regular.file, index: query.index)
    let languages = LanguageCoverage(
      languages: query.languages, coverage: CharacterCoverage(scalars: face.unicodes),
      drawsLetters: letters)
    return SideTraits(proofs: proofs, languages: languages)
  }

  /// Features added and removed (by tag), and those on both sides whose visible effect or
  /// sample changed.
  static func featureChanges(_ before: FamilyProofs, _ after: FamilyProofs) -> DiffReport.Features {
    let b = before.proofs.features ?? []
    let a = after.proofs.features ?? []
    let beforeTags = Set(b.map(\.tag))
    let afterTags = Set(a.map(\.tag))
    var out = DiffReport.Features(
      added: afterTags.subtracting(beforeTags).sorted(),
      removed: beforeTags.subtracting(afterTags).sorted())
    let old = Dictionary(b.map { ($0.tag, $0) }, uniquingKeysWith: { x, _ in x })
    for feature in a.sorted(by: { $0.tag < $1.tag }) {
      guard let previous = old[feature.tag] else { continue }
      let samples = [before.sample(for: feature.tag)?.text, after.sample(for: feature.tag)?.text]
      guard previous.visible != feature.visible || samples[0] != samples[1] else { continue }
      out.changed.append(
        DiffReport.FeatureChange(
          tag: feature.tag, name: feature.name, visible: [previous.visible, feature.visible],
          sample: samples))
    }
    return out
  }

  /// Supported languages gained and lost; nearly supported ones (supported on neither side)
  /// whose missing characters changed.
  static func languageChanges(_ before: LanguageCoverage, _ after: LanguageCoverage)
    -> DiffReport.Languages
  {
    let b = Set(before.supported)
    let a = Set(after.supported)
    var out = DiffReport.Languages(
      added: a.subtracting(b).sorted(), removed: b.subtracting(a).sorted())
    let nearBefore = Dictionary(
      before.nearly.map { ($0.language, $0.missing) }, uniquingKeysWith: { x, _ in x })
    let nearAfter = Dictionary(
      after.nearly.map { ($0.language, $0.missing) }, uniquingKeysWith: { x, _ in x })
    for language in Set(nearBefore.keys).union(nearAfter.keys).sorted()
    where !a.contains(language) && !b.contains(language)
      && nearBefore[language] != nearAfter[language]
    {
      out.nearly.append(
        DiffReport.NearlyChange(
          language: language, before: nearBefore[language]?.map(DiffNumber.codepoint),
          after: nearAfter[language]?.map(DiffNumber.codepoint)))
    }
    return out
  }
}
