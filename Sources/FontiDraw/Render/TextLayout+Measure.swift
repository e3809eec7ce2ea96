import FontiModel
import FontiText
import Foundation

extension TextLayout {
  /// `text` in `font` wrapped at `width`, at the largest size up to `font.size` at which every
  /// word fits the measure: lines break only between words (and between CJK characters, Thai
  /// words…), never with an added hyphen, and a word wider than the measure makes the whole
  /// text smaller instead of being broken. At `minimum`, a word still too wide breaks between
  /// its characters. `settings` (a job's sample settings; none by default) apply to the text.
  /// Returns the layout and the size it is set at.
  static func fittingWords(
    _ text: String, font: FontSpec, in context: TextContext, width: Double, minimum: Double,
    alignment: Alignment = .left, language: String? = nil, settings: SampleSettings = .none
  ) -> (layout: TextLayout, size: Double) {
    var spec = font
    func make(_ wrap: Wrap, text: String = text) -> TextLayout {
      TextLayout(
        sample: text, font: spec, settings: settings, in: context, width: max(1, width),
        wrap: wrap, alignment: alignment, language: language)
    }
    var layout = make(.words)
    // The widest word scales with the size: a step goes straight to the size where it fits;
    // a second one only when rounding left it a hair too wide.
    for _ in 0..<4 where layout.overflowsWidth && spec.size > minimum {
      spec.size = max(minimum, spec.size * 0.999 * width / max(layout.widestLine, 0.01))
      layout = make(.words)
    }
    if layout.overflowsWidth {
      layout = make(.anywhere)
    } else {
      layout = pullingBackLastWord(layout) { make(.words, text: $0) }
    }
    return (layout, spec.size)
  }
}
