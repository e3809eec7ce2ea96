import FontiText
import Foundation

/// Vertical metrics in the change image: a few letters of the sample set once, with a line for
/// each changed metric before (dashed, amber) and after (solid, blue), labelled with both values.
extension DiffDrawing {
  /// The metrics drawn as lines, and whether each is measured downwards (win descent).
  static let drawnMetrics: [(key: String, down: Bool)] = [
    ("capHeight", false), ("xHeight", false), ("hheaAscender", false), ("typoAscender", false),
    ("winAscent", false), ("hheaDescender", false), ("typoDescender", false),
    ("winDescent", true),
  ]

  /// The changed metrics among `metrics` that are drawn as lines, `(key, before, after)`.
  static func metricLines(_ metrics: [String: [Int?]]) -> [(
    key: String, down: Bool, before: Int, after: Int
  )] {
    drawnMetrics.compactMap { metric in
      guard let values = metrics[metric.key], values.count == 2, let b = values[0],
        let a = values[1]
      else { return nil }
      return (metric.key, metric.down, b, a)
    }
  }

  /// The heading of a metrics picture.
  static func metricsHeading(_ sample: SampleChange) -> String {
    "Vertical metrics · \(FamilyComparison.place(sample.face, sample.instance)) · before dashed, after solid"
  }

  /// Draws the changed metrics over the start of `sample` between `top` and `bottom`: the
  /// heading at `headingSize` (none when nil), the values at `labelSize`, lines `stroke` wide.
  func drawMetricLines(
    _ metrics: [String: [Int?]], sample: SampleChange, top: Double, bottom: Double, x: Double,
    width: Double, headingSize: Double? = 13, labelSize: Double = 15, stroke: Double = 2,
    on cr: CairoContext
  ) {
    let lines = DiffDrawing.metricLines(metrics)
    guard !lines.isEmpty else { return }
    let context = labelContext(for: cr)
    var headingHeight = 0.0
    if let headingSize {
      let heading = caption(DiffDrawing.metricsHeading(sample), size: headingSize, in: context)
      cr.setColour(palette.text, alpha: 0.6)
      heading.draw(at: x, top)
      headingHeight = headingSize * 2.3
    }
    let units = Double(max(1, sample.after.unitsPerEm))
    let em = max(labelSize * 1.3, min((bottom - top - headingHeight - 10) / 1.5, 220))
    let baseline = top + headingHeight + em * 1.15
    let firstLine = ShapedText.lines(sample.after, sample.after, lineWidth: 3.2).first ?? []
    fill(
      samplePlacement(sample.after, lines: [firstLine], em: em, x: x + 8, y: baseline),
      colour: palette.text, on: cr)
    cr.setColour(palette.text, alpha: 0.35)
    cr.rectangle(x, baseline, width, 1)
    cr.fill()
    let labelX = x + width * 0.62
    for (n, line) in lines.enumerated() {
      for (value, after) in [(line.before, false), (line.after, true)] {
        let units = Double(value) / units * em
        let y = line.down ? baseline + units : baseline - units
        cr.newPath()
        cr.move(to: x, y)
        cr.line(to: labelX - 12, y)
        cr.setDash(after ? [] : [3 * stroke, 2.5 * stroke])
        cr.setColour(after ? DiffDrawing.afterColour : DiffDrawing.beforeHatch)
        cr.stroke(width: stroke)
        cr.setDash([])
      }
      let name = FamilyComparison.metricNames[line.key] ?? line.key
      let text = label("\(name) \(line.before) → \(line.after)", size: labelSize, in: context)
      let midUnits = Double(line.after) / units * em
      let y = line.down ? baseline + midUnits : baseline - midUnits
      cr.setColour(palette.text, alpha: 0.85)
      text.draw(
        at: labelX,
        min(bottom - labelSize * 1.3, y - text.size.height / 2 + Double(n % 2) * labelSize / 4))
    }
  }
}
