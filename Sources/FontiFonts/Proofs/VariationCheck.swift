import FontiModel
import FontiText

/// Whether what a proof page sweeps really varies.
///
/// A sweep of `wght` 100 → 900 whose rows all come out alike tells a reviewer the font's axis
/// is broken; so does a grid of named instances that look the same. After the axes and
/// instances are read, the glyphs a proof draws are drawn again with HarfBuzz at each step's
/// and each instance's coordinates, in the face the proof is drawn from, and compared (outline
/// and advance): an axis whose every step draws the same, and instances drawn like another
/// instance at other coordinates, are warnings on the page and in the manifest.
enum VariationCheck {
  /// The glyphs compared: those of the proof word, and more spread over the font.
  static let proofWord = "Hamburgefonstiv"
  static let spreadGlyphs = 24

  /// Warnings about `axes` (swept at `steps` values each; hidden ones are not swept) and
  /// `instances` of `face`, as "wght 100–900: the face drawn does not vary".
  static func warnings(
    face: HarfBuzzFace, axes: [FontProofs.Axis], hidden: Set<String>,
    instances: [FontProofs.Instance], steps: Int
  ) -> [String] {
    guard !axes.isEmpty else { return [] }
    let font = HarfBuzzFont(face: face)
    let glyphs = sampleGlyphs(font)
    guard !glyphs.isEmpty else { return [] }
    func drawing(_ coordinates: [(tag: String, value: Double)]) -> [Drawn] {
      font.setVariations(coordinates)
      return glyphs.map { Drawn(advance: font.advance(of: $0), outline: font.outline(of: $0)) }
    }
    let defaults = axes.map { (tag: $0.tag, value: $0.defaultValue) }
    var out: [String] = []
    for axis in axes where !hidden.contains(axis.tag) && axis.max > axis.min {
      let drawings = axis.sweep(steps: steps).map { value in
        drawing(defaults.map { $0.tag == axis.tag ? (axis.tag, value) : $0 })
      }
      if Set(drawings).count == 1 {
        out.append("\(axis.range): the face drawn does not vary")
      }
    }
    var seen: [[Drawn]: Int] = [:]
    for (i, instance) in instances.enumerated() {
      let coordinates = defaults.map {
        (tag: $0.tag, value: instance.coordinates[$0.tag] ?? $0.value)
      }
      let drawn = drawing(coordinates)
      if let first = seen[drawn], instances[first].coordinates != instance.coordinates {
        out.append(
          "instances '\(instances[first].name)' and '\(instance.name)' are drawn alike, at "
            + "different coordinates")
      } else if seen[drawn] == nil {
        seen[drawn] = i
      }
    }
    return out
  }

  /// One glyph as drawn at some coordinates.
  struct Drawn: Hashable {
    var advance: Int
    var outline: GlyphOutline
  }

  /// The glyphs of the proof word the font maps, and `spreadGlyphs` more spread evenly over its
  /// encoded glyphs, so that an axis that changes only some glyphs is still seen.
  static func sampleGlyphs(_ font: HarfBuzzFont) -> [UInt32] {
    var glyphs = proofWord.unicodeScalars.compactMap { font.glyph(for: $0.value) }
    let encoded = font.reverseCharacterMap().enumerated().filter { $0.element != 0 }.map {
      UInt32($0.offset)
    }
    if !encoded.isEmpty {
      let step = max(1, encoded.count / spreadGlyphs)
      glyphs += stride(from: 0, to: encoded.count, by: step).prefix(spreadGlyphs).map {
        encoded[$0]
      }
    }
    var seen = Set<UInt32>()
    return glyphs.filter { seen.insert($0).inserted }
  }
}
