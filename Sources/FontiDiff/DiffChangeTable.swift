import FontiText

/// The changes a review has nothing to draw for — names, flags, hinting programs, tables no
/// comparison knows, features and languages gained or lost — as rows of a table: kind, face,
/// before → after. The family's page and its image show it, so that a family whose changes
/// are all declared says them rather than "nothing changed".
extension DiffDrawing {
  /// Kinds the pages draw: glyphs, characters, kerning, features' effects, marks, the sample,
  /// instances added or removed and (`metrics.*`) vertical metrics.
  static let drawnKinds: Set<String> = [
    "outline", "advance", "cmap.added", "cmap.removed", "kerning", "shaping.feature", "mark",
    "sample", "instance.added", "instance.removed",
  ]

  /// The family's changes with nothing to draw, in the order diff.json lists them.
  static func undrawnChanges(_ f: DiffReport.Family) -> [DiffReport.Change] {
    (f.changes ?? []).filter { !drawnKinds.contains($0.kind) && !$0.kind.hasPrefix("metrics.") }
  }

  /// A row's cells: the kind (with its subject), the face (and instance), and what changed —
  /// both values in full where it has them, else its words.
  static func changeCells(_ c: DiffReport.Change) -> (kind: String, face: String, what: String) {
    let kind = c.subject.map { "\(c.kind) \($0)" } ?? c.kind
    let face = c.instance.map { "\(c.face) · \($0)" } ?? c.face
    let what: String
    switch (c.before, c.after) {
    case (.none, .none): what = c.text
    // Glyphs listed are said in words, which count them ("COLR layers changed: 3 glyphs (A…").
    case (.list, _) where c.kind.hasPrefix("colour."), (_, .list) where c.kind.hasPrefix("colour."):
      what = c.text
    default: what = "\(shortValue(c.before)) → \(shortValue(c.after))"
    }
    return (kind, face, what)
  }

  /// The most characters of a value a row shows; diff.json has it whole.
  static let valueLimit = 90

  /// A value on one line (a line break shown as "↵"), cut after a whole word when longer than
  /// `valueLimit`, in quotes when it is text of several words.
  static func shortValue(_ value: DiffReport.DiffValue) -> String {
    let flat = value.description.replacingOccurrences(of: "\r\n", with: "\n")
      .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ↵ ")
    let short = FittedText.words(flat, suffix: "", fits: { $0.count <= valueLimit })
    if case .text(let text) = value, text.contains(where: \.isWhitespace) { return "“\(short)”" }
    return short
  }

  /// The table's column widths at `width`: kind, face, then what changed.
  static func changeColumns(width: Double) -> (kind: Double, face: Double, what: Double) {
    let kind = width * 0.3
    let face = width * 0.16
    return (kind, face, width - kind - face)
  }

  /// Draws rows of `changes` from `top`, each at most `lines` lines of what changed, as many as
  /// fit above `bottom`, then how many more and where. Returns the bottom of what it drew.
  @discardableResult
  func drawChangeTable(
    _ changes: [DiffReport.Change], top: Double, bottom: Double, x: Double, width: Double,
    size: Double, lines: Int = 3, heading: String? = nil, on cr: CairoContext
  ) -> Double {
    let context = labelContext(for: cr)
    var y = top
    if let heading {
      let h = caption(heading, size: size * 0.75, in: context)
      cr.setColour(palette.text, alpha: 0.6)
      h.draw(at: x, y)
      y += h.size.height + size * 0.6
    }
    let columns = DiffDrawing.changeColumns(width: width)
    let gap = size * 0.8
    let lineHeight = size * 1.3
    let moreHeight = lineHeight + 4
    for (n, change) in changes.enumerated() {
      let cells = DiffDrawing.changeCells(change)
      let what = label(
        cells.what, size: size, in: context, width: columns.what - gap, wrap: .words)
      what.limitHeight(Double(lines) * lineHeight + 1)
      let rowHeight = max(lineHeight, what.size.height) + size * 0.5
      let last = n == changes.count - 1
      if y + rowHeight + (last ? 0 : moreHeight) > bottom {
        let more = label(
          "… and \(changes.count - n) more: see diff.json", size: size * 0.85, in: context)
        cr.setColour(palette.text, alpha: 0.55)
        more.draw(at: x, y + 2)
        return y + moreHeight
      }
      cr.setColour(palette.text, alpha: 0.12)
      cr.rectangle(x, y - size * 0.25, width, 0.75)
      cr.fill()
      let kind = label(cells.kind, size: size * 0.85, bold: true, in: context)
      kind.ellipsize(width: columns.kind - gap)
      cr.setColour(palette.text, alpha: 0.85)
      kind.draw(at: x, y + size * 0.1)
      let face = label(cells.face, size: size * 0.85, in: context)
      face.ellipsize(width: columns.face - gap)
      cr.setColour(palette.text, alpha: 0.6)
      face.draw(at: x + columns.kind, y + size * 0.1)
      cr.setColour(palette.text, alpha: 0.85)
      what.draw(at: x + columns.kind + columns.face, y)
      y += rowHeight
    }
    return y
  }
}
