import FontiDraw
import FontiModel
import FontiSupport

/// The fingerprint of a specimen's inputs: everything its picture depends on, hashed. A run
/// records it as the specimen's `inputs` and draws the specimen again when it changes; `serve`
/// keys its cards by it, and gives each family's default card's as the family's version.
package enum SpecimenFingerprint {
  /// The fingerprint of `request`, drawn of `family` with the label face `label` (its
  /// `BatchPlan.familyStamp`, or "none"); `stamps` identify the family's files and then its
  /// partners', in order.
  package static func of<F>(
    _ request: SpecimenRequest<F>, family: FontFamily, label: String, stamps: [String]
  ) -> String {
    var parts = [
      FontiVersion.tool, BatchPlan.designVersion, "\(request.edge)", "\(request.scale)",
      request.compression.rawValue, label,
      "specimen", family.name, "\(family.isCustom)", request.text, "\(request.size)",
      request.theme.rawValue, "\(request.saved)",
    ]
    // Bold and italic are a card's choice: a run's specimens show the regular, and keep the
    // inputs they always had.
    if request.bold { parts.append("bold") }
    if request.italic { parts.append("italic") }
    if let face = request.face { parts.append("face=" + face) }
    parts += stamps + BatchPlan.specimenExtras(family, sample: request.sample)
    return SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8))
  }
}
