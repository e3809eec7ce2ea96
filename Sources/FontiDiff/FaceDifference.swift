import FontiFonts
import FontiModel
import FontiText
import Foundation

/// Which of many added or removed characters the review draws: a few from every block of 128
/// code points they fall in, taken in turn (Latin Extended-B, IPA, Greek, Cyrillic… rather
/// than the first 32 of Latin Extended-B), letters first within a block, then digits, symbols
/// and punctuation, then marks, and what draws nothing (spaces, format characters) last; when
/// there are more blocks than places, one from each of blocks spread evenly over them, blocks
/// with letters, digits or symbols before those of marks or spaces only. In code point order.
enum CharacterSpread {
  static func pick(_ scalars: [UInt32], limit: Int) -> [UInt32] {
    guard limit > 0 else { return [] }
    var blocks: [[UInt32]] = []
    var last: UInt32?
    for scalar in scalars.sorted() {
      if last == scalar >> 7, !blocks.isEmpty {
        blocks[blocks.count - 1].append(scalar)
      } else {
        blocks.append([scalar])
      }
      last = scalar >> 7
    }
    blocks = blocks.map { block in block.sorted { (rank($0), $0) < (rank($1), $1) } }
    // More blocks than characters to show: one from each of blocks spread evenly over them.
    if blocks.count > limit {
      let drawn = blocks.filter { rank($0[0]) < 3 }
      let rest = blocks.filter { rank($0[0]) >= 3 }
      func spread(_ from: [[UInt32]], _ count: Int) -> [UInt32] {
        guard count > 0, !from.isEmpty else { return [] }
        let count = min(count, from.count)
        return (0..<count).map { from[$0 * from.count / count][0] }
      }
      let first = spread(drawn, limit)
      return (first + spread(rest, limit - first.count)).sorted()
    }
    var picked: [UInt32] = []
    var depth = 0
    while picked.count < limit, blocks.contains(where: { $0.count > depth }) {
      for block in blocks where block.count > depth && picked.count < limit {
        picked.append(block[depth])
      }
      depth += 1
    }
    return picked.sorted()
  }

  /// 0 letters, 1 digits, 2 symbols and punctuation, 3 marks, 4 what draws nothing or is not
  /// assigned.
  static func rank(_ value: UInt32) -> Int {
    guard let scalar = Unicode.Scalar(value) else { return 4 }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
      return 0
    case .decimalNumber, .letterNumber, .otherNumber: return 1
    case .nonspacingMark, .spacingMark, .enclosingMark: return 3
    case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate,
      .privateUse, .unassigned:
      return 4
    default: return 2
    }
  }
}

/// Changed characters grouped by their base letter (å, ǻ and ẳ changed because a changed),
/// for showing each letter once before the rest.
enum LetterGroups {
  /// The order to show `items` (sorted largest first) in: one per base letter first, groups in
  /// order of their largest — the letter itself while its weight is at least half its group's
  /// largest, else that largest (⅞ redrawn at 519 px, not the 7 that moved by 21) — then the
  /// rest, in their order.
  static func order<T>(_ items: [T], scalar: (T) -> UInt32, weight: (T) -> Double) -> [Int] {
    var groups: [UInt32: [Int]] = [:]
    var bases: [UInt32] = []
    for (i, item) in items.enumerated() {
      let base = base(of: scalar(item))
      if groups[base] == nil { bases.append(base) }
      groups[base, default: []].append(i)
    }
    var firsts: [Int] = []
    for base in bases {
      guard let members = groups[base] else { continue }
      let largest = members[0]
      let own = members.first {
        scalar(items[$0]) == base && weight(items[$0]) * 2 >= weight(items[largest])
      }
      firsts.append(own ?? largest)
    }
    let first = Set(firsts)
    return firsts + items.indices.filter { !first.contains($0) }
  }

  /// The first scalar of the character's compatibility decomposition: a for ǻ and ẚ.
  static func base(of scalar: UInt32) -> UInt32 {
    guard let s = Unicode.Scalar(scalar) else { return scalar }
    return String(s).decomposedStringWithCompatibilityMapping.unicodeScalars.first?.value ?? scalar
  }
}

extension GlyphOutline {
  /// The point that moved most between `self` and `other` (the distance in font units and
  /// where it lands), when both are the same rings of points once normalised
  /// (`OutlineShape`: start points, contour order, implied on-curve points and a reversal of
  /// every contour set aside); nil when the outline was redrawn or is the same shape.
  func largestMove(to other: GlyphOutline) -> (distance: Double, x: Double, y: Double)? {
    guard let before = OutlineShape(self), let after = OutlineShape(other),
      case .edited(let distance, let x, let y) = OutlineShape.compare(before, after)
    else { return nil }
    return (distance, x, y)
  }
}

/// A changed glyph with what its review image needs.
struct GlyphChange: Sendable {
  var entry: DiffReport.Glyph
  var before: GlyphOutline
  var after: GlyphOutline
  var unitsPerEm: (before: Int, after: Int)

  /// At most `limit` changes for the review pages: one per base letter first (å, ǻ and ẳ
  /// changed because a changed; the page shows a, then the next letter that changed), groups
  /// in order of their largest change; then the rest, largest first. A group shows its base
  /// letter while the letter's change is at least half its largest; else its largest (⅞'s
  /// redrawn fraction at 519 px, not the 7 that moved by 21).
  static func selection(_ changes: [GlyphChange], limit: Int) -> [GlyphChange] {
    let sorted = changes.sorted(by: larger)
    return LetterGroups.order(sorted, scalar: \.scalar, weight: \.weight).prefix(limit).map {
      sorted[$0]
    }
  }

  var scalar: UInt32 { DiffNumber.scalar(entry.codepoint) ?? 0 }

  /// How much a change shows at 64 px per em: its pixels, plus an advance's change as the
  /// column of pixels it shifts the rest of a line by (an em tall).
  var weight: Double {
    let units = Double(max(1, unitsPerEm.after))
    let shift = abs(Double(entry.advance[1] - entry.advance[0])) / units * 64
    return Double(entry.pixels) + (shift * 64).rounded()
  }

  /// Where the outline moved most, in font units of the after side, when its points moved.
  var largestMove: (distance: Double, x: Double, y: Double)? {
    unitsPerEm.before == unitsPerEm.after ? before.largestMove(to: after) : nil
  }

  /// Largest change first (`weight`), then by character, face and instance.
  static func larger(_ a: GlyphChange, _ b: GlyphChange) -> Bool {
    (a.weight, b.entry.codepoint, b.entry.face, b.entry.instance ?? "")
      > (b.weight, a.entry.codepoint, a.entry.face, a.entry.instance ?? "")
  }
}

/// The sample as both sides set it, for the review pages.
struct SampleChange: Sendable, Codable {
  var before: ShapedText
  var after: ShapedText
  var face: String
  var instance: String?
  var pixels: Int
  /// The language of an own-script sample ("Arabic"), when the family cannot set the text.
  var languageName: String?
  /// For a family on one side only: that side, "before" or "after" (both sides then hold its
  /// one setting).
  var only: String?

  /// "Sample", or "Sample in Arabic" for an own-script sample.
  var title: String { languageName.map { "Sample in \($0)" } ?? "Sample" }

  /// Neither a pixel nor the width differs: the review shows the sample once.
  var isSame: Bool {
    pixels == 0
      && FaceComparer.sameLength(before.width, before.unitsPerEm, after.width, after.unitsPerEm)
  }
}

extension SampleChange {
  /// The sample's lines and the largest em size (user units) up to `maximum` at which they
  /// fit `width` × `height` (lines 1.25 ems apart), never below `minimum`.
  func fit(width: Double, height: Double, minimum: Double, maximum: Double) -> (
    lines: [[(paragraph: Int, word: Int)]], em: Double
  ) {
    // Up to a third smaller to save a line: one line at 20 reads better than two at 26.
    var em = maximum
    var fewest = Int.max
    var candidate = maximum
    while candidate >= max(minimum, maximum * 0.66) {
      let count = ShapedText.lines(before, after, lineWidth: width / candidate).count
      if count < fewest {
        fewest = count
        em = candidate
      }
      candidate *= 0.96
    }
    while true {
      let lines = ShapedText.lines(before, after, lineWidth: width / em)
      let needed = (Double(lines.count) - 1) * DiffSettings.sampleLineHeight * em + em * 1.1
      if needed <= height || em <= minimum { return (lines, em) }
      em = max(minimum, em * 0.92)
    }
  }
}

/// Everything two paired faces differ in.
struct FaceDifference: Sendable {
  var label: String
  var codepointsAdded: Set<UInt32> = []
  var codepointsRemoved: Set<UInt32> = []
  var glyphs: [DiffReport.Glyph] = []
  /// The largest changes with their outlines (at most `DiffSettings.glyphImages`).
  var glyphImages: [GlyphChange] = []
  var belowThreshold = 0
  /// Glyphs below the threshold whose outline was edited (`compareShapes`).
  var moved: [DiffReport.Glyph] = []
  var metrics: [String: [Int?]] = [:]
  var axes = DiffReport.Axes()
  var instances = DiffReport.Instances()
  var shaping: DiffReport.FaceShaping?
  /// Pictures of the largest shaping changes, at the first instance that has any.
  var shapingImages: [ShapingImage] = []
  /// The sample at named instances added (`only` "after") or removed (`only` "before").
  var instanceImages: [SampleChange] = []
  var sample: [DiffReport.Sample] = []
  /// The sample at the face's default (or first) instance, when it was compared.
  var sampleImage: SampleChange?
  /// What the face declares, its hinting, colour and other tables (`DeclaredDifference`).
  var declared = DeclaredDifference()
}
