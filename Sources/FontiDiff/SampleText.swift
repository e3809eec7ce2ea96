import FontiText
import Foundation

/// A text shaped by one side's font, word by word, with the outlines it needs: what the sample
/// comparison rasterises and what the review pages draw. Font units throughout.
///
/// Words are shaped on their own (HarfBuzz, the font's default features, no fallback) and set
/// on lines that both sides share, so that the two images line up word by word however the
/// widths changed.
struct ShapedText: Sendable, Equatable, Codable {
  struct Word: Sendable, Equatable {
    /// Glyphs with their pen offsets from the word's start.
    var glyphs: [(glyph: UInt32, x: Int, y: Int)]
    var width: Int

    static func == (a: Word, b: Word) -> Bool {
      a.width == b.width && a.glyphs.map(\.glyph) == b.glyphs.map(\.glyph)
        && a.glyphs.map(\.x) == b.glyphs.map(\.x) && a.glyphs.map(\.y) == b.glyphs.map(\.y)
    }
  }

  var unitsPerEm: Int
  /// Paragraphs (the text's lines) of words (split at spaces).
  var paragraphs: [[Word]]
  var spaceWidth: Int
  /// Set right to left (Arabic, Hebrew…): words go from the right of each line.
  var isRightToLeft: Bool
  /// The whole text shaped as one run: its width.
  var width: Int
  var outlines: [UInt32: GlyphOutline]

  /// Shapes `text` with `font` in `language`, keeping the outline of every glyph used.
  init(_ text: String, font: HarfBuzzFont, language: String = "en") {
    unitsPerEm = font.face.unitsPerEm
    var outlines: [UInt32: GlyphOutline] = [:]
    func word(_ text: Substring) -> Word {
      var pen = 0
      var glyphs: [(glyph: UInt32, x: Int, y: Int)] = []
      for g in font.shape(String(text), language: language) {
        glyphs.append((g.glyph, pen + g.xOffset, g.yOffset))
        pen = ShapedText.clamped(pen + g.xAdvance)
        if outlines[g.glyph] == nil { outlines[g.glyph] = font.outline(of: g.glyph) }
      }
      return Word(glyphs: glyphs, width: pen)
    }
    paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.split(separator: " ", omittingEmptySubsequences: false).map(word)
    }
    spaceWidth = font.shape(" ", language: language).reduce(0) {
      ShapedText.clamped($0 + $1.xAdvance)
    }
    isRightToLeft = HarfBuzzFont.isRightToLeft(text)
    width = font.shape(text, language: language).reduce(0) { ShapedText.clamped($0 + $1.xAdvance) }
    self.outlines = outlines
  }

  /// Sums stay far from overflow whatever a hostile font's advances.
  static func clamped(_ value: Int) -> Int { max(-(1 << 40), min(1 << 40, value)) }

  static func == (a: ShapedText, b: ShapedText) -> Bool {
    a.unitsPerEm == b.unitsPerEm && a.paragraphs == b.paragraphs && a.spaceWidth == b.spaceWidth
      && a.width == b.width && a.outlines == b.outlines && a.isRightToLeft == b.isRightToLeft
  }

  /// Which words go on which line, for both sides together: a word goes on the current line
  /// when it fits on both sides at `lineWidth` ems; a paragraph always starts a line.
  static func lines(_ before: ShapedText, _ after: ShapedText, lineWidth: Double)
    -> [[(paragraph: Int, word: Int)]]
  {
    var lines: [[(paragraph: Int, word: Int)]] = []
    let count = min(before.paragraphs.count, after.paragraphs.count)
    for p in 0..<count {
      var line: [(paragraph: Int, word: Int)] = []
      var used = (before: 0.0, after: 0.0)
      let words = min(before.paragraphs[p].count, after.paragraphs[p].count)
      for w in 0..<words {
        let wb = before.ems(before.paragraphs[p][w].width)
        let wa = after.ems(after.paragraphs[p][w].width)
        let sb = line.isEmpty ? 0 : before.ems(before.spaceWidth)
        let sa = line.isEmpty ? 0 : after.ems(after.spaceWidth)
        if !line.isEmpty, max(used.before + sb + wb, used.after + sa + wa) > lineWidth {
          lines.append(line)
          line = []
          used = (wb, wa)
        } else {
          used = (used.before + sb + wb, used.after + sa + wa)
        }
        line.append((p, w))
      }
      lines.append(line)
    }
    return lines
  }

  func ems(_ units: Int) -> Double { Double(units) / Double(max(1, unitsPerEm)) }

  /// This side's glyphs on `lines`: pen origins in font units, line `n` at `n × lineHeight`
  /// ems below the first baseline.
  func placed(on lines: [[(paragraph: Int, word: Int)]], lineHeight: Double) -> [GlyphRaster.Placed]
  {
    var out: [GlyphRaster.Placed] = []
    for (n, line) in lines.enumerated() {
      var pen = 0
      let baseline = -Double(n) * lineHeight * Double(unitsPerEm)
      // Right to left: the first word ends at the line's right end.
      let lineWidth = line.enumerated().reduce(0) { sum, item in
        ShapedText.clamped(
          sum + (item.offset > 0 ? spaceWidth : 0)
            + paragraphs[item.element.paragraph][item.element.word].width)
      }
      for (k, position) in line.enumerated() {
        if k > 0 { pen = ShapedText.clamped(pen + spaceWidth) }
        let word = paragraphs[position.paragraph][position.word]
        let start = isRightToLeft ? lineWidth - pen - word.width : pen
        for g in word.glyphs {
          guard let outline = outlines[g.glyph], !outline.isEmpty else { continue }
          out.append(
            GlyphRaster.Placed(
              outline: outline, x: Double(start + g.x), y: baseline + Double(g.y)))
        }
        pen = ShapedText.clamped(pen + word.width)
      }
    }
    return out
  }

  /// The widest line's width in ems on `lines`.
  func widest(on lines: [[(paragraph: Int, word: Int)]]) -> Double {
    lines.map { line in
      line.enumerated().reduce(0.0) { sum, item in
        sum + (item.offset > 0 ? ems(spaceWidth) : 0)
          + ems(paragraphs[item.element.paragraph][item.element.word].width)
      }
    }.max() ?? 0
  }
}
