internal import CPango
import Foundation

/// Cutting a layout to its room: the last word pulled back, a line cut to a width or a height,
/// and the ellipsis that marks a cut (Pango's, or our own where Pango's would split joined
/// letters or follow a space).
extension TextLayout {
  /// Whether the last of two or more lines holds a single word of a text of spaced words: the
  /// runt a typesetter pulls back ("vow." alone under "quartz, judge my").
  var endsInOneWord: Bool {
    let count = pango_layout_get_line_count(layout)
    guard count >= 2, let line = pango_layout_get_line_readonly(layout, count - 1) else {
      return false
    }
    let start = max(0, Int(line.pointee.start_index))
    let last = Substring(text.utf8.dropFirst(start).prefix(max(0, Int(line.pointee.length))))
    let trimmed = last.trimmingCharacters(in: .whitespacesAndNewlines)
    return !trimmed.isEmpty && !trimmed.contains(where: \.isWhitespace)
  }

  /// `text` with its last two words tied by a no-break space (U+00A0, which draws as a space:
  /// HarfBuzz sets a font's space where it has no glyph of its own), so that a line break
  /// never leaves the last word alone; nil when the text has fewer than three words.
  static func tyingLastWords(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.split(whereSeparator: { $0 == " " }).count >= 3,
      let space = trimmed.lastIndex(of: " ")
    else { return nil }
    var tied = trimmed
    tied.replaceSubrange(space...space, with: "\u{00A0}")
    return tied
  }

  /// `layout`, or, when its last line holds one word (`endsInOneWord`), the same text with its
  /// last two words tied (`tyingLastWords`) as `remake` sets it, if that takes no more lines,
  /// none wider than the measure: a last word is pulled back, never pushed onto a new line.
  package static func pullingBackLastWord(_ layout: TextLayout, _ remake: (String) -> TextLayout)
    -> TextLayout
  {
    guard !layout.overflowsWidth, layout.endsInOneWord,
      let tied = tyingLastWords(layout.text)
    else { return layout }
    let pulled = remake(tied)
    guard pulled.lineCount == layout.lineCount, !pulled.overflowsWidth, !pulled.endsInOneWord
    else { return layout }
    return pulled
  }

  /// Logical width of the widest line, in user units.
  package var widestLine: Double {
    var widest: Int32 = 0
    for i in 0..<pango_layout_get_line_count(layout) {
      guard let line = pango_layout_get_line_readonly(layout, i) else { continue }
      var logical = PangoRectangle()
      pango_layout_line_get_extents(line, nil, &logical)
      widest = max(widest, logical.width)
    }
    return units(widest)
  }

  /// Whether a line is wider than the layout's width: a word that does not fit the measure
  /// (only with `Wrap.words`, or without a width's wrapping, one line longer than `ellipsize`
  /// allows before it is cut).
  package var overflowsWidth: Bool {
    let width = pango_layout_get_width(layout)
    guard width >= 0 else { return false }
    for i in 0..<pango_layout_get_line_count(layout) {
      guard let line = pango_layout_get_line_readonly(layout, i) else { continue }
      var logical = PangoRectangle()
      pango_layout_line_get_extents(line, nil, &logical)
      if logical.width > width { return true }
    }
    return false
  }

  /// Limits the height; lines past it are dropped and the last shown line ends in an
  /// ellipsis, so text is cut between lines, never mid-glyph. With `mark`, the ellipsis is
  /// ours (see `Ellipsis`) whenever Pango's would not be a real one.
  package func limitHeight(_ height: Double, mark: Ellipsis? = nil) {
    pango_layout_set_height(layout, TextLayout.pango(height / factor))
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    guard let mark, pangoEllipsisIsWrong(singleLine: false) else { return }
    let lines = keptLineCount(height: height)
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
    cut(mark: mark) { $0.lineCount <= lines && !$0.overflowsWidth }
  }

  /// Keeps the text on one line no wider than `width` by dropping what does not fit, with no
  /// mark: for a row of glyphs, where an ellipsis would read as one more glyph (three heavy dots
  /// after a row of emoji). The row is cut where a line may break (between emoji, at the spaces
  /// between symbols), at least the first glyph kept.
  package func truncate(width: Double) {
    guard size.width > width else { return }
    pango_layout_set_width(layout, TextLayout.pango(width / factor))
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    let first = pango_layout_get_line_readonly(layout, 0).map { Int($0.pointee.length) }
    pango_layout_set_width(layout, -1)
    guard let first, first > 0, first < text.utf8.count else { return }
    var kept = String(decoding: text.utf8.prefix(first), as: UTF8.self)
    while let last = kept.last, last.isWhitespace, kept.count > 1 { kept.removeLast() }
    text = kept
    setText(kept)
  }

  /// Keeps the text on one line no wider than `width`, ending in an ellipsis when longer.
  /// With `mark`, the ellipsis is ours (see `Ellipsis`) whenever Pango's would not be a real
  /// one, or would be all the line shows: at least the first character is kept; and for text
  /// in a script whose letters join, always, so that the cut falls at the end of a word.
  package func ellipsize(width: Double, mark: Ellipsis? = nil) {
    pango_layout_set_width(layout, TextLayout.pango(width / factor))
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    // Text in a script whose letters join is always cut by us, at the end of a word.
    let joining = text.unicodeScalars.contains(where: TextLayout.inJoiningScript)
    guard let mark, pangoEllipsis() != nil, joining || pangoEllipsisIsWrong(singleLine: true)
    else { return }
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
    cut(mark: mark) { $0.lineCount == 1 && !$0.overflowsWidth }
  }

  /// Whether Pango put its ellipsis after a space ("Sphinx of …"): it cuts after whole
  /// clusters, spaces included. Our cut then ends at the word ("Sphinx of…").
  var ellipsisFollowsSpace: Bool {
    pangoEllipsis().map { followsSpace($0.offset) } ?? false
  }

  private func followsSpace(_ offset: Int32) -> Bool {
    String(Substring(text.utf8.prefix(Int(offset)))).last?.isWhitespace ?? false
  }

  /// Whether Pango's ellipsis is not ours: three full stops or a box instead of one "…" (the
  /// font lacks U+2026, or, for CJK text, U+22EF), on one line nothing left beside it, or a
  /// space before it.
  private func pangoEllipsisIsWrong(singleLine: Bool) -> Bool {
    guard let ellipsis = pangoEllipsis() else { return false }
    return ellipsis.glyphs != 1 || (singleLine && ellipsis.otherGlyphs == 0)
      || followsSpace(ellipsis.offset) || splitsJoinedLetters(ellipsis.offset)
  }

  /// Whether a cut at byte `offset` falls between two letters that join (an Arabic word cut
  /// mid-way): Pango shapes what it keeps again, and the last letter would take its final
  /// form. Our cut keeps the form the letter has in the whole word.
  private func splitsJoinedLetters(_ offset: Int32) -> Bool {
    let utf8 = text.utf8
    guard offset > 0,
      let split = utf8.index(utf8.startIndex, offsetBy: Int(offset), limitedBy: utf8.endIndex),
      let before = String(Substring(utf8[..<split])).last,
      let after = String(Substring(utf8[split...])).first
    else { return false }
    return TextLayout.joins(before, after)
  }

  /// Whether `before` and `after` are letters of a script whose letters join (Arabic, Syriac,
  /// N'Ko, Mongolian, Mandaic, Adlam, …), so that a cut between them may change their forms:
  /// by script block and letter category. Whether the forms do change is the shaper's to say
  /// (a letter before a hamza ends its join anyway): see `cut`.
  static func joins(_ before: Character, _ after: Character) -> Bool {
    func joining(_ c: Character) -> Bool {
      guard let s = c.unicodeScalars.first else { return false }
      switch s.properties.generalCategory {
      case .otherLetter, .modifierLetter: return inJoiningScript(s)
      default: return false
      }
    }
    return joining(before) && joining(after)
  }

  /// Whether `s` is in the block of a script whose letters join.
  static func inJoiningScript(_ s: Unicode.Scalar) -> Bool {
    s.value >= 0x0600 && joiningBlocks.contains { $0.contains(s.value) }
  }

  /// The glyphs of each character cluster, by the cluster's byte offset in the layout's text:
  /// Pango's ellipsis, shapes (our mark's placeholder) and invisible glyphs left out.
  func glyphsByCluster() -> [Int: [UInt32]] {
    var out: [Int: [UInt32]] = [:]
    forEachGlyph { glyph, offset, isEllipsis in
      if !isEllipsis && glyph != UInt32(PANGO_GLYPH_EMPTY) {
        out[offset, default: []].append(glyph)
      }
    }
    return out
  }

  /// Unicode blocks of the scripts whose letters join to their neighbours.
  static let joiningBlocks: [ClosedRange<UInt32>] = [
    0x0600...0x06FF, 0x0700...0x074F, 0x0750...0x077F, 0x07C0...0x07FF, 0x0840...0x085F,
    0x0860...0x086F, 0x0870...0x089F, 0x08A0...0x08FF, 0x1800...0x18AF, 0xA840...0xA87F,
    0xFB50...0xFDFF, 0xFE70...0xFEFF, 0x10AC0...0x10AFF, 0x10B80...0x10BAF,
    0x10D00...0x10D3F, 0x10F30...0x10F6F, 0x10F70...0x10FAF, 0x10FB0...0x10FDF,
    0x1E900...0x1E95F,
  ]

  /// Pango's ellipsis, when it cut the text: where it starts in the text (a byte offset), its
  /// glyphs, and the other glyphs of its line.
  private func pangoEllipsis() -> (offset: Int32, glyphs: Int32, otherGlyphs: Int32)? {
    guard pango_layout_is_ellipsized(layout) != 0 else { return nil }
    for i in 0..<pango_layout_get_line_count(layout) {
      var ellipsis: (offset: Int32, glyphs: Int32)?
      var others: Int32 = 0
      forEachRun(inLine: i) { item, glyphs in
        if TextLayout.isEllipsis(item) {
          ellipsis = (item.pointee.offset, glyphs.pointee.num_glyphs)
        } else {
          others += glyphs.pointee.num_glyphs
        }
      }
      if let ellipsis { return (ellipsis.offset, ellipsis.glyphs, others) }
    }
    return nil
  }

  /// How many lines fit in `height` (at least one).
  private func keptLineCount(height: Double) -> Int {
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
    guard let iter = pango_layout_get_iter(layout) else { return 1 }
    defer { pango_layout_iter_free(iter) }
    var lines = 0
    repeat {
      var logical = PangoRectangle()
      pango_layout_iter_get_line_extents(iter, nil, &logical)
      if units(logical.y + logical.height) > height + 0.01 { break }
      lines += 1
    } while pango_layout_iter_next_line(iter) != 0
    return max(1, lines)
  }

  /// Our own cut: the longest run of whole character clusters from the start, followed by
  /// our ellipsis, that `fits`. When not even the first cluster fits beside the ellipsis,
  /// the clusters that fit alone, and at least the first one.
  private func cut(mark: Ellipsis, fits: (TextLayout) -> Bool) {
    let full = text
    // In the face the text is set in when it has the character (a family's bold may lack what
    // its regular has), else in the neutral face.
    var ellipsis = TextLayout("\u{2026}", font: font, in: context)
    if ellipsis.unknownGlyphs > 0, let neutral = mark.neutral {
      ellipsis = TextLayout(
        "\u{2026}", font: FontSpec(family: neutral.family, size: font.size, face: neutral.face),
        in: neutral.context, fallback: true)
    }
    let ends = Array(full.indices.dropFirst()) + [full.endIndex]
    guard !ends.isEmpty else { return }
    let ellipsisWidth = TextLayout.pango(ellipsis.size.width / factor)
    let original = pango_layout_get_attributes(layout).flatMap { pango_attr_list_copy($0) }
    defer { if let original { pango_attr_list_unref(original) } }

    // The forms the whole text gives its letters, for a cut inside a word of a script whose
    // letters join (read only when the text has such letters).
    let joining = full.unicodeScalars.contains(where: TextLayout.inJoiningScript)
    let whole = joining ? glyphsByCluster() : [:]

    // In a script whose letters join, a cut with the ellipsis falls at the end of a word (in
    // logical order): a word cut between joined letters leaves a dangling form. Only when not
    // even the first word fits is a word cut, between clusters, its letters keeping their forms.
    let wordEnds = joining ? ends.filter { $0 == full.endIndex || full[$0].isWhitespace } : []

    /// Sets the text up to the `count`th of `candidates`, with the ellipsis's placeholder when
    /// `marked`.
    func set(_ count: Int, marked: Bool, in candidates: [String.Index]) {
      let end = candidates[count - 1]
      var kept = String(full[..<end])
      if marked {
        while let last = kept.last, last.isWhitespace, kept.count > 1 { kept.removeLast() }
      }
      place(kept, marked: marked)
      // A word cut between letters that join: the last letter must keep the form it has in
      // the whole word, which HarfBuzz may change now that it ends the text (final instead of
      // medial). A ZERO WIDTH JOINER after it keeps it (joined towards the ellipsis, or
      // towards the rest of the word when nothing fits beside an ellipsis); the shaper
      // decides, so a letter that ends its join in the word anyway (before a hamza) gets none.
      guard joining, end < full.endIndex, let last = kept.last,
        kept.utf8.count == full[..<end].utf8.count, TextLayout.joins(last, full[end])
      else { return }
      let offset = kept.utf8.count - String(last).utf8.count
      if glyphsByCluster()[offset] == whole[offset] { return }
      // Joined, even where the whole word has a form neither gives (lam before alef is part
      // of a lam-alef ligature there): a joined letter reads as a cut word, a final one as a
      // whole word ("بل" for "بلاد").
      place(kept + TextLayout.joiner, marked: marked)
    }

    /// Sets `kept`, and after it the ellipsis's placeholder when `marked`.
    func place(_ kept: String, marked: Bool) {
      text = kept
      // The text's own attributes span all of it, the placeholder too.
      guard marked, let attributes = original.flatMap({ pango_attr_list_copy($0) }) else {
        setText(kept)
        pango_layout_set_attributes(layout, original)
        ownEllipsis = nil
        return
      }
      defer { pango_attr_list_unref(attributes) }
      let start = Int32(kept.utf8.count)
      setText(kept + TextLayout.placeholder)
      // Only the width of the ellipsis: the line keeps the height of the text's own font.
      var ink = PangoRectangle(x: 0, y: 0, width: ellipsisWidth, height: 0)
      var logical = ink
      if let shape = pango_attr_shape_new(&ink, &logical) {
        shape.pointee.start_index = UInt32(start)
        shape.pointee.end_index = UInt32(start) + UInt32(TextLayout.placeholder.utf8.count)
        pango_attr_list_insert(attributes, shape)
      }
      pango_layout_set_attributes(layout, attributes)
      ownEllipsis = (ellipsis, start)
    }

    // The longest prefix that fits with the ellipsis: the fit only worsens as it grows.
    func longest(marked: Bool, in candidates: [String.Index]) -> Int? {
      var low = 0
      var high = candidates.count
      while low < high {
        let middle = (low + high + 1) / 2
        set(middle, marked: marked, in: candidates)
        if fits(self) { low = middle } else { high = middle - 1 }
      }
      return low > 0 ? low : nil
    }
    if !wordEnds.isEmpty, let count = longest(marked: true, in: wordEnds) {
      set(count, marked: true, in: wordEnds)
    } else if let count = longest(marked: true, in: ends) {
      set(count, marked: true, in: ends)
    } else {
      set(longest(marked: false, in: ends) ?? 1, marked: false, in: ends)
    }
  }

  /// Our ellipsis after a cut of our own, nil when the text is whole or Pango marked the cut.
  var cutMark: TextLayout? { ownEllipsis?.layout }

  /// Stands in for our ellipsis in the text: U+FFFC OBJECT REPLACEMENT CHARACTER, given the
  /// ellipsis's width by a shape attribute and drawn over by `draw`.
  static let placeholder = "\u{FFFC}"

  /// ZERO WIDTH JOINER, added after a cut between joined letters.
  static let joiner = "\u{200D}"
}
