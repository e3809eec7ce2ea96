import FontiFonts
import FontiModel
import FontiSupport

/// The proof pages of a family (`docs/proofs.md`), planned like its own page: items flowed down
/// pages after it, a header on the first and a small one on each continuation. In order:
///
/// - **Axes**: each axis that is not hidden, swept from min to max in `FontProofs.Axis.sweepSteps` steps (and
///   the default between them), one line per step; then the named instances, three to a row.
/// - **Features**: each feature with a visible sample, off and on side by side; then those with
///   no visible effect on the tried text, one line each (never drawn as a pair).
/// - **Languages**: the supported ones grouped by script, then the nearly supported ones with
///   the characters they lack; or a sentence saying the family supports none.
///
/// The glyph chart (`proofs.glyphs`) follows on pages of its own (`GlyphChartPlan`), each Unicode
/// block a bookmark under the family.
extension CataloguePlan {
  /// Size of a sweep's text, of an instance's and of a feature sample.
  static let sweepSize = 22.0
  static let instanceSize = 18.0
  static let featureSize = 22.0
  /// Size of the language lists.
  static let languageSize = 8.5
  static let proofTitleHeight = 18.0
  static let proofNoteHeight = 12.0
  static let axisStepHeight = 31.0
  static let instanceHeight = 52.0
  static let instanceColumns = 3
  static let featurePairHeight = 50.0

  /// The room a feature row's sample needs beyond `featurePairHeight`, in points: above, where
  /// its ink climbs past the 25 pt between the row's title and its baseline; below, where it
  /// hangs past the 7.5 pt above the off / on captions (Tibetan and Chakma stacks, tall forms;
  /// a Latin descender stays within). Only the ink within a column's width counts: the sample
  /// is cut there.
  static func featureRoom(_ ink: LineInk?, _ g: Geometry) -> (above: Double, below: Double) {
    let column = (g.contentWidth - 2 * g.gutter) / 2
    guard let extent = ink?.extent(within: column / featureSize) else { return (0, 0) }
    return (
      max(0, (extent.above * featureSize - 25).rounded(.up)),
      max(0, (extent.below * featureSize - 7.5).rounded(.up))
    )
  }
  static let invisibleFeatureHeight = 12.0
  static let nearlyHeight = 16.0
  static let glyphHeaderHeight = 30.0
  /// The most axes swept, instances shown and features listed without a sample: a hostile font
  /// may declare thousands; the rest are counted in a note.
  static let maximumAxes = 16
  static let maximumInstances = 240
  static let maximumListedFeatures = 320

  /// The items of `family`'s proof pages, section after section (axes and instances,
  /// features, languages) under what could not be read; empty when no enabled proof has
  /// anything to show.
  static func proofItems(_ i: Int, _ data: CatalogueProofData, _ g: Geometry) -> [Item] {
    var items = data.problems.map { Item(.proofNote(family: i, text: $0), height: 14, before: 8) }
    items += axisItems(i, data)
    items += featureItems(i, data, g)
    items += languageItems(i, data, g)
    // A first item never opens with space, as under a family header.
    if !items.isEmpty { items[0].before = 10 }
    return items
  }

  /// A proof section's title, and a small note under it: kept with the item after it.
  static func proofTitle(_ i: Int, _ text: String, note: String? = nil) -> Item {
    let height = proofTitleHeight + (note == nil ? 0 : proofNoteHeight)
    return Item(
      .proofTitle(family: i, title: text, note: note), height: height, before: 18,
      keepWithNext: true)
  }

  /// The note counting what is left out past a limit ("… and 3 more features"); none when
  /// nothing is.
  static func more(_ i: Int, _ count: Int, _ what: String) -> [Item] {
    guard count > 0 else { return [] }
    return [Item(.proofNote(family: i, text: "… and \(count) more \(what)"), height: 14, before: 4)]
  }

  /// Each axis swept, then the named instances, three to a row; a sweep or an instance that
  /// draws alike is said where it is drawn.
  static func axisItems(_ i: Int, _ data: CatalogueProofData) -> [Item] {
    var items: [Item] = []
    let unvaried = data.proofs?.unvaried ?? []
    func warnings(_ matching: (String) -> Bool) -> [Item] {
      unvaried.filter(matching).map { Item(.proofNote(family: i, text: $0), height: 14, before: 2) }
    }
    for axis in data.sweptAxes.prefix(maximumAxes) {
      items.append(
        proofTitle(
          i, "\(axis.name) · \(axis.range)",
          note: "default \(ProofNumber.format(axis.defaultValue)), marked ◆"))
      items += warnings { $0.hasPrefix(axis.range + ":") }
      for value in axis.sweep(steps: FontProofs.Axis.sweepSteps) {
        items.append(
          Item(
            .axisStep(
              family: i, axis: axis.tag, value: value, isDefault: value == axis.defaultValue),
            height: axisStepHeight, before: 0))
      }
    }
    items += more(i, data.sweptAxes.count - maximumAxes, "axes, not swept")
    let instances = Array(data.instances.prefix(maximumInstances))
    guard !instances.isEmpty else { return items }
    items.append(proofTitle(i, "Named instances · \(instances.count)"))
    items += warnings { $0.hasPrefix("instances ") }
    for row in stride(from: 0, to: instances.count, by: instanceColumns) {
      let indices = Array(row..<min(row + instanceColumns, instances.count))
      items.append(
        Item(.instances(family: i, indices: indices), height: instanceHeight, before: 4))
    }
    return items + more(i, data.instances.count - instances.count, "named instances")
  }

  /// Each feature with a visible sample, off and on side by side, as tall as its ink needs;
  /// then those with no visible effect on the tried text, one line each.
  static func featureItems(_ i: Int, _ data: CatalogueProofData, _ g: Geometry) -> [Item] {
    var items: [Item] = []
    let visible = data.visibleFeatures
    if !visible.isEmpty {
      items.append(
        proofTitle(i, "Features · off and on", note: "each set with the feature off, then on"))
      for sample in visible {
        let room = featureRoom(data.featureInk[sample.tag], g)
        items.append(
          Item(
            .featurePair(family: i, tag: sample.tag),
            height: featurePairHeight + room.above + room.below, before: 6))
      }
    }
    let invisible = data.invisibleFeatures
    guard !invisible.isEmpty else { return items }
    items.append(
      proofTitle(
        i, "No visible effect on the tried text · \(invisible.count)",
        note: "listed, not drawn: off and on set these texts alike"))
    for feature in invisible.prefix(maximumListedFeatures) {
      items.append(
        Item(
          .invisibleFeature(
            family: i, tag: feature.tag, reason: feature.noEffect?.phrase(tag: feature.tag)),
          height: invisibleFeatureHeight, before: 1))
    }
    return items + more(i, invisible.count - maximumListedFeatures, "features")
  }

  /// The supported languages grouped by script (or a sentence saying the family supports
  /// none), then the nearly supported ones with the characters they lack.
  static func languageItems(_ i: Int, _ data: CatalogueProofData, _ g: Geometry) -> [Item] {
    guard let coverage = data.languages else { return [] }
    var items: [Item] = []
    if coverage.supported.isEmpty {
      items.append(proofTitle(i, "Languages"))
      items.append(
        Item(
          .proofNote(
            family: i,
            text: coverage.nearly.isEmpty
              ? "This family covers no language fontconfig knows: it draws symbols, a script "
                + "fontconfig has no orthography for, or too few letters."
              : "This family supports no language completely."),
          height: 14, before: 6))
    } else {
      let count = coverage.supported.count
      items.append(
        proofTitle(
          i, "Languages · \(count) supported",
          note: "by the characters of the regular face (fontconfig’s orthographies); "
            + "says nothing of shaping"))
      for group in Languages.groupedByScript(coverage.supported) {
        // By name, each name looked up once (not twice per comparison: that was a tenth of
        // a catalogue's drawing).
        let codes = group.languages.map { (code: $0, name: Languages.name(of: $0)) }
          .sorted { $0.name != $1.name ? $0.name < $1.name : $0.code < $1.code }
          .map(\.code)
        items.append(
          Item(
            .languageGroup(family: i, script: group.script.name, codes: codes),
            height: languageGroupHeight(codes, g), before: 7))
      }
    }
    guard !coverage.nearly.isEmpty else { return items }
    items.append(
      Item(
        .nearlyTitle(family: i, count: coverage.nearly.count),
        height: proofTitleHeight + proofNoteHeight, before: 18, keepWithNext: true))
    for nearly in coverage.nearly {
      items.append(
        Item(
          .nearlyLanguage(family: i, code: nearly.language, missing: nearly.missing),
          height: nearlyHeight, before: 1))
    }
    return items
  }

  /// The text of a script's group of languages: "Afrikaans, Albanian, …".
  static func languageList(_ codes: [String]) -> String {
    codes.map { Sanitize.terminal(Languages.name(of: $0)) }.joined(separator: ", ")
  }

  /// A group's height: its lines at `languageSize`, with room to spare (the label face may be
  /// wider than the estimate).
  static func languageGroupHeight(_ codes: [String], _ g: Geometry) -> Double {
    let lines = estimatedLines(
      languageList(codes), size: languageSize * 1.04, width: g.contentWidth)
    return (Double(lines) * languageSize * 1.42 + 2).rounded(.up)
  }

  /// The glyph chart of a family whose characters were read, nil when there are none.
  static func glyphChart(_ data: CatalogueProofData, _ g: Geometry) -> GlyphChartPlan? {
    guard let characters = data.characters, !characters.isEmpty else { return nil }
    var layout = GlyphChartPlan.Layout(
      area: Rect(
        x: g.margin, y: g.bodyTop + glyphHeaderHeight, width: g.bodyWidth,
        height: g.bodyHeight - glyphHeaderHeight))
    layout.columns = max(8, Int(g.bodyWidth / 31))
    return GlyphChartPlan(groups: UnicodeBlocks.shared.group(characters), layout: layout)
  }

  /// `dump()`'s text of a proof page's block.
  func describeProof(_ content: Content) -> String {
    let f = CataloguePlan.format
    switch content {
    case .proofHeader(let i, let continued):
      return "proofs \(continued ? "continued " : "")\"\(name(i))\""
    case .proofTitle(_, let title, let note):
      return "title \"\(title)\"" + (note.map { " note \"\($0)\"" } ?? "")
    case .axisStep(_, let axis, let value, let isDefault):
      return "sweep \(axis) \(f(value))\(isDefault ? " (default)" : "")"
    case .instances(_, let indices):
      return "instances \(indices.map { String($0 + 1) }.joined(separator: ", "))"
    case .featurePair(_, let tag): return "feature \(tag) off | on"
    case .invisibleFeature(_, let tag, let reason):
      return "no visible effect: \(tag)" + (reason.map { " — \($0)" } ?? "")
    case .languageGroup(_, let script, let codes):
      return "languages \(script) (\(codes.count)): \(codes.joined(separator: " "))"
    case .nearlyTitle(_, let count): return "nearly supported (\(count))"
    case .nearlyLanguage(_, let code, let missing):
      return "nearly \(code): \(missing.map(CodePointText.format).joined(separator: " "))"
    case .proofNote(_, let text): return "note \"\(text)\""
    case .glyphHeader(let i, let page, let pages):
      return "glyph chart \"\(name(i))\" \(page + 1)/\(pages)"
    case .glyphChart(let i, let page):
      guard let chart = glyphCharts[i], page < chart.pages.count else { return "glyph chart" }
      let p = chart.pages[page]
      let headings = p.headings.map { "\"\($0.text)\"" }.joined(separator: ", ")
      return "glyph cells \(p.cells.count) under \(headings)"
    default: return "?"
    }
  }
}
