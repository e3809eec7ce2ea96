import CPango
import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// How a family's text is fitted and cut: lines break only where Unicode allows, never with an
/// added hyphen; a word wider than the measure makes the text smaller; a cut keeps at least the
/// first character and ends in our ellipsis, in the family when it has "…", else in the
/// neutral label face (Cantarell among the fixture fonts).
@Suite(.serialized) struct TextFitTests {
  let environment: FontEnvironment
  let renderer: SpecimenRenderer
  let cr: CairoContext

  init() throws {
    environment = try TestFonts.environment()
    renderer = SpecimenRenderer(environment: environment)
    cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
  }

  func family(_ name: String, in environment: FontEnvironment? = nil) throws -> FontFamily {
    try #require((environment ?? self.environment).catalog.family(named: name))
  }

  func context(_ family: FontFamily, renderer: SpecimenRenderer? = nil) -> TextContext {
    (renderer ?? self.renderer).map(for: family).makeContext(for: cr)
  }

  /// Our ellipsis for `family`: the label face's context comes from the fixture renderer.
  func mark(_ family: FontFamily, renderer: SpecimenRenderer? = nil) throws -> TextLayout.Ellipsis {
    let r = renderer ?? self.renderer
    let label = try #require(r.labelFamily)
    return r.ellipsis(labels: context(label, renderer: r))
  }

  /// A specimen's name is set in the face's real small capitals, or in capitals of one size:
  /// never Pango's made-up small capitals (capitals scaled down, with thinner strokes).
  @Test func theNameIsInRealSmallCapsOrInCapitals() throws {
    let proofs = try TestFonts.proofsEnvironment()
    let proofRenderer = SpecimenRenderer(environment: proofs)
    let garamond = try family("EB Garamond", in: proofs)
    let cantarell = try family("Cantarell")
    #expect(SpecimenRenderer.hasSmallCaps(garamond.regularFace))
    #expect(!SpecimenRenderer.hasSmallCaps(cantarell.regularFace))
    #expect(!SpecimenRenderer.hasSmallCaps(nil))
    let real = SpecimenRenderer.name(
      "EB Garamond", family: garamond.name, face: garamond.regularFace, k: 1,
      in: context(garamond, renderer: proofRenderer))
    #expect(real.text == "EB Garamond")
    let capitals = SpecimenRenderer.name(
      "Cantarell", family: cantarell.name, face: cantarell.regularFace, k: 1,
      in: context(cantarell))
    #expect(capitals.text == "CANTARELL")
    // Every glyph of the capitals comes from the face at one size; Pango's small capitals
    // of the same name come in two (the lower case set as smaller capitals).
    func sizes(_ layout: TextLayout) -> Set<Int32> {
      var out = Set<Int32>()
      var node = pango_layout_get_line_readonly(layout.layout, 0)?.pointee.runs
      while let current = node {
        if let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
          let font = run.pointee.item?.pointee.analysis.font,
          let description = pango_font_describe(font)
        {
          out.insert(pango_font_description_get_size(description))
          pango_font_description_free(description)
        }
        node = current.pointee.next
      }
      return out
    }
    #expect(sizes(capitals).count == 1, "\(sizes(capitals))")
    let madeUp = TextLayout(
      "Cantarell", font: FontSpec(family: cantarell.name, size: 30, face: cantarell.regularFace),
      in: context(cantarell), smallCaps: true)
    #expect(sizes(madeUp).count == 2, "\(sizes(madeUp))")
  }

  struct Run: Equatable {
    var family: String
    var glyphs: Int
    var isEllipsis: Bool
    var needsHyphen: Bool
  }

  /// Every run of every line: the family of its font, its glyphs, and whether it is Pango's
  /// ellipsis or ends in a hyphen Pango added.
  static func runs(_ layout: TextLayout) -> [Run] {
    var out: [Run] = []
    for i in 0..<pango_layout_get_line_count(layout.layout) {
      var node = pango_layout_get_line_readonly(layout.layout, i)?.pointee.runs
      while let current = node {
        if let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
          let item = run.pointee.item, let glyphs = run.pointee.glyphs
        {
          var name = ""
          if let font = item.pointee.analysis.font, let description = pango_font_describe(font) {
            name = pango_font_description_get_family(description).map { String(cString: $0) } ?? ""
            pango_font_description_free(description)
          }
          let flags = Int32(item.pointee.analysis.flags)
          out.append(
            Run(
              family: name, glyphs: Int(glyphs.pointee.num_glyphs),
              isEllipsis: flags & Int32(PANGO_ANALYSIS_FLAG_IS_ELLIPSIS) != 0,
              needsHyphen: flags & Int32(PANGO_ANALYSIS_FLAG_NEED_HYPHEN) != 0))
        }
        node = current.pointee.next
      }
    }
    return out
  }

  // MARK: Words are shrunk, never hyphenated

  @Test func aWordTooWideForTheMeasureShrinksInsteadOfBreaking() throws {
    let serif = try family("DejaVu Serif")
    let font = FontSpec(family: serif.name, size: 192, face: serif.regularFace)
    // The case: "Handgloves" at 96 pt on a 1080 px specimen came out "Handglo-" / "ves".
    let layout = renderer.fitted(
      "Handgloves", font: font, context: context(serif), width: 920, height: 600, minimum: 10)
    #expect(layout.lineCount == 1)
    #expect(!layout.overflowsWidth)
    #expect(layout.widestLine <= 920)
    #expect(layout.font.size < 192 && layout.font.size > 150, "shrunk just enough")
    #expect(!TextFitTests.runs(layout).contains { $0.needsHyphen })

    // Several words: lines break between them only; the long one sets the size.
    let donau = renderer.fitted(
      "Donaudampfschifffahrtsgesellschaft Hamburgefonstiv", font: font, context: context(serif),
      width: 920, height: 600, minimum: 10)
    #expect(donau.lineCount == 2)
    #expect(!donau.overflowsWidth)
    #expect(!TextFitTests.runs(donau).contains { $0.needsHyphen })
  }

  @Test func aWordTooWideEvenAtTheSmallestSizeBreaksWithoutAHyphen() throws {
    let serif = try family("DejaVu Serif")
    let word = String(repeating: "Hamburgefonstiv", count: 12)
    let (layout, size) = TextLayout.fittingWords(
      word, font: FontSpec(family: serif.name, size: 48, face: serif.regularFace),
      in: context(serif), width: 300, minimum: 12)
    #expect(size == 12)
    #expect(layout.lineCount > 1)
    #expect(!layout.overflowsWidth)
    #expect(!TextFitTests.runs(layout).contains { $0.needsHyphen })
  }

  @Test func textsWithoutSpacesStillWrapAtFullSize() throws {
    let folder = TestFonts.fixtures + "/NoSpaceScripts"
    let custom = try TestFonts.environment(custom: [
      folder + "/DroidSansFallback-Japanese.ttf", folder + "/NotoSansThai-Thai.ttf",
    ])
    let renderer = SpecimenRenderer(environment: custom)
    let samples = [
      ("Droid Sans Fallback", "東京タワーは日本の電波塔で高さは三百三十三メートルあります。"),
      ("Noto Sans Thai", "ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอนหรือวรรณยุกต์เช่นเดียวกับภาษาจีน"),
    ]
    for (name, text) in samples {
      let f = try family(name, in: custom)
      let layout = renderer.fitted(
        text, font: FontSpec(family: f.name, size: 96, face: f.regularFace),
        context: context(f, renderer: renderer), width: 920, height: 700, minimum: 10)
      // Wrapped over several lines at (or near) the size asked for: not shrunk as if the
      // sentence were one long word.
      #expect(layout.lineCount >= 3, "\(name)")
      #expect(layout.font.size == 96, "\(name)")
      #expect(!layout.overflowsWidth, "\(name)")
      #expect(layout.unknownGlyphs == 0, "\(name)")
      #expect(!TextFitTests.runs(layout).contains { $0.needsHyphen }, "\(name)")
      // The catalogue's estimate does not shrink them either.
      #expect(CataloguePlan.estimatedFittingSize(text, size: 96, width: 427, minimum: 8) == 96)
    }
    let latin = CataloguePlan.estimatedFittingSize(
      "Donaudampfschifffahrtsgesellschaft Hamburgefonstiv", size: 96, width: 427, minimum: 8)
    #expect(latin < 30 && latin > 8)
  }

  // MARK: Cuts

  /// A grid cell's glyph is set at 55 % of the cell unless its ink would cover more than 85 %
  /// of it (a math font's big delimiters): then smaller, inside the cell and centred.
  @Test func aGlyphLargerThanItsCellIsSetToFitIt() throws {
    let serif = try family("DejaVu Serif")
    let cell = 100.0
    let plain = GlyphCell.layout(
      "a", family: serif.name, face: serif.regularFace, context: context(serif), cell: cell,
      x: 0, y: 0)
    #expect(plain.layout.font.size == cell * 0.55)
    let wide = GlyphCell.layout(
      "WWW", family: serif.name, face: serif.regularFace, context: context(serif), cell: cell,
      x: 200, y: 300)
    let ink = wide.layout.inkRect
    #expect(wide.layout.font.size < cell * 0.55)
    #expect(max(ink.width, ink.height) <= cell * GlyphCell.fill + 0.5)
    // Drawn at (x, y), its ink sits inside the cell at (200, 300).
    #expect(wide.x + ink.x >= 200 && wide.x + ink.x + ink.width <= 300)
    #expect(wide.y + ink.y >= 300 && wide.y + ink.y + ink.height <= 400)
  }

  @Test func missingCharactersAreCountedOnceAndNamedWhenFew() throws {
    let hebrew = try family("Noto Sans Hebrew")
    let font = FontSpec(family: hebrew.name, size: 40, face: hebrew.regularFace)
    let layout = TextLayout("שלום aab שלום b", font: font, in: context(hebrew))
    #expect(layout.unknownGlyphs == 4)
    #expect(layout.unknownCharacters == ["a", "b"])
    #expect(
      SpecimenRenderer.missingNote(layout.unknownCharacters)
        == "2 characters of the text not in this font: “a” “b”")
    #expect(SpecimenRenderer.missingNote(["ą"]) == "1 character of the text not in this font: “ą”")
    // Many, or one that cannot be seen: counted only.
    #expect(
      SpecimenRenderer.missingNote(["a", "b", "c", "d", "e"])
        == "5 characters of the text not in this font")
    #expect(
      SpecimenRenderer.missingNote(["a", "\u{200B}"]) == "2 characters of the text not in this font"
    )
    #expect(
      SpecimenRenderer.missingNote(["\u{0301}"]) == "1 character of the text not in this font")
    #expect(
      SpecimenRenderer.missingNote(["a", "漢"], drawable: { $0.isASCII })
        == "2 characters of the text not in this font")
  }

  /// Lines are at least 1.12 times the size apart, measured as Pango sets them: with no factor,
  /// Noto Sans Hebrew's Latin lines stand 0.91 of the size apart (its ascent and descent),
  /// though the height Pango's factor multiplies is 1.36 (with its line gap); judged by that
  /// height, they were left solid. Its Hebrew lines, 1.36 apart, keep their own spacing.
  @Test func linesAreLedAtLeastByTheRatioAskedFor() throws {
    let hebrew = try family("Noto Sans Hebrew")
    func gaps(_ text: String) -> (natural: Double, led: Double) {
      let layout = TextLayout(
        text, font: FontSpec(family: hebrew.name, size: 100, face: hebrew.regularFace),
        in: context(hebrew))
      let natural = layout.baseline(ofLine: 1) - layout.baseline(ofLine: 0)
      layout.setLeading(1.12, atLeast: true)
      return (natural, layout.baseline(ofLine: 1) - layout.baseline(ofLine: 0))
    }
    let latin = gaps("Hamburg\nHamburg")
    #expect(latin.natural < 100, "\(latin)")
    #expect(abs(latin.led - 112) < 0.5, "\(latin)")
    let own = gaps("שלום עולם\nשלום עולם")
    #expect(own.natural > 112 && abs(own.led - own.natural) < 0.5, "\(own)")
  }

  /// A specimen's lines keep a face's own line height up to 1.4 times the size, closer only
  /// as far as their ink allows: Noto Naskh Arabic's line height is 1.7 times its size, and a
  /// sentence of it is set 1.4 apart, its lines' ink never touching.
  @Test func aTallLineHeightIsBroughtCloserAsFarAsTheInkAllows() throws {
    let custom = try TestFonts.environment(custom: [
      TestFonts.fixtures + "/JoiningScripts/NotoNaskhArabic-Sentence.ttf"
    ])
    let renderer = SpecimenRenderer(environment: custom)
    let naskh = try family("Noto Naskh Arabic", in: custom)
    let text = "نص حكيم له سر قاطع وذو شأن عظيم"
    func layout(atMost: Double?) -> TextLayout {
      let layout = TextLayout(
        text, font: FontSpec(family: naskh.name, size: 40, face: naskh.regularFace),
        in: context(naskh, renderer: renderer), width: 300)
      layout.setLeading(1.12, atLeast: true, atMost: atMost)
      return layout
    }
    let own = layout(atMost: nil)
    let capped = layout(atMost: 1.4)
    #expect(own.lineCount >= 2 && capped.lineCount == own.lineCount)
    let ownGap = own.baseline(ofLine: 1) - own.baseline(ofLine: 0)
    let cappedGap = capped.baseline(ofLine: 1) - capped.baseline(ofLine: 0)
    #expect(ownGap > 1.6 * 40, "\(ownGap)")
    #expect(cappedGap < ownGap - 4 && cappedGap >= 1.39 * 40, "\(cappedGap) \(ownGap)")
    // The lines' ink does not meet: the lowest ink of the first line stays above the highest
    // of the second.
    var tops: [Double] = []
    var bottoms: [Double] = []
    for (i, line) in TextFitTests.lineInks(capped).enumerated() {
      tops.append(capped.baseline(ofLine: i) + line.y)
      bottoms.append(capped.baseline(ofLine: i) + line.y + line.height)
    }
    #expect(bottoms[0] < tops[1], "\(bottoms) \(tops)")
  }

  /// Each line's ink, relative to its baseline, in user units.
  static func lineInks(_ layout: TextLayout) -> [(y: Double, height: Double)] {
    (0..<pango_layout_get_line_count(layout.layout)).compactMap { i in
      guard let line = pango_layout_get_line_readonly(layout.layout, i) else { return nil }
      var ink = PangoRectangle()
      pango_layout_line_get_extents(line, &ink, nil)
      return (layout.units(ink.y), layout.units(ink.height))
    }
  }

  /// Arabic is cut at the end of a word, in logical order, whenever a word fits beside the
  /// ellipsis: a word cut between joined letters leaves a dangling medial form ("نص حكيـ…").
  /// Only when not even the first word fits is it cut mid-way, its letters keeping the forms
  /// they have in the whole word.
  @Test func anArabicLineIsCutAtTheEndOfAWord() throws {
    let custom = try TestFonts.environment(custom: [
      TestFonts.fixtures + "/JoiningScripts/NotoNaskhArabic-Sentence.ttf"
    ])
    let renderer = SpecimenRenderer(environment: custom)
    let naskh = try family("Noto Naskh Arabic", in: custom)
    let font = FontSpec(family: naskh.name, size: 40, face: naskh.regularFace)
    let text = "نص حكيم له سر قاطع وذو شأن عظيم"
    let words = text.split(separator: " ").map(String.init)
    var cuts = 0
    for width in stride(from: 100.0, through: 560, by: 6) {
      let line = TextLayout(text, font: font, in: context(naskh, renderer: renderer))
      line.ellipsize(width: width, mark: try mark(naskh, renderer: renderer))
      guard line.text != text else { continue }
      cuts += 1
      // The kept text is whole words: the first n of the sentence's.
      let kept = line.text.replacingOccurrences(of: TextLayout.placeholder, with: "")
      let n = kept.split(separator: " ").count
      #expect(kept == words.prefix(n).joined(separator: " "), "width \(width): '\(kept)'")
    }
    #expect(cuts > 5, "the widths tried cut the line")
  }

  @Test func anArabicWordCutMidWayKeepsTheFormsOfItsLetters() throws {
    let custom = try TestFonts.environment(custom: [
      TestFonts.fixtures + "/JoiningScripts/NotoNaskhArabic-Sentence.ttf"
    ])
    let renderer = SpecimenRenderer(environment: custom)
    let naskh = try family("Noto Naskh Arabic", in: custom)
    let font = FontSpec(family: naskh.name, size: 40, face: naskh.regularFace)
    // The second sentence's words end in a hamza, which joins to nothing: the letter before
    // it is final in the whole word, and must stay final when the cut falls between them.
    for text in [
      "نص حكيم له سر قاطع وذو شأن عظيم", "شيء بطء دفء عبء ملء بدء",
    ] {
      let whole = TextLayout(text, font: font, in: context(naskh, renderer: renderer))
        .glyphsByCluster()
      var midWord = 0
      for width in stride(from: 20.0, through: 560, by: 2) {
        let line = TextLayout(text, font: font, in: context(naskh, renderer: renderer))
        line.ellipsize(width: width, mark: try mark(naskh, renderer: renderer))
        #expect(line.unknownGlyphs == 0)
        if line.text.unicodeScalars.last == "\u{200D}" { midWord += 1 }
        // Every glyph kept is the one the whole sentence has there: no letter before the cut
        // turned final ("حكي…" for "حكيم"), nor medial before a hamza.
        let kept = line.glyphsByCluster().filter { $0.key < line.text.utf8.count }
        let changed = kept.filter { whole[$0.key] != $0.value }.keys.sorted()
        #expect(changed.isEmpty, "\(text), width \(width): clusters \(changed) take other forms")
      }
      #expect(midWord > 0, "the widths tried cut words between joined letters")
    }
    // Lam before alef is part of a lam-alef ligature in the whole word, a form neither lam nor
    // lam with a joiner has: cut between them, the lam stays joined ("بلـ…"), never final as
    // in the whole word "بل".
    let lamAlef = "بلاد كلام بلاد كلام"
    var cutBeforeAlef = 0
    for width in stride(from: 40.0, through: 400, by: 3) {
      let line = TextLayout(lamAlef, font: font, in: context(naskh, renderer: renderer))
      line.ellipsize(width: width, mark: try mark(naskh, renderer: renderer))
      var kept = line.text
      let joined = kept.unicodeScalars.last == "\u{200D}"
      if joined { kept.unicodeScalars.removeLast() }
      guard kept.unicodeScalars.last == "ل", kept.utf8.count < lamAlef.utf8.count,
        lamAlef.utf8.dropFirst(kept.utf8.count).first == 0xD8  // U+0627 is D8 A7
      else { continue }
      cutBeforeAlef += 1
      #expect(joined, "width \(width): '\(kept)' ends in a lam that does not join")
    }
    #expect(cutBeforeAlef > 0, "the widths tried cut between lam and alef")
  }

  @Test func aCutInAFamilyWithoutAnEllipsisEndsInTheNeutralFace() throws {
    let hebrew = try family("Noto Sans Hebrew")
    #expect(!hebrew.coverage.missing(in: "\u{2026}").isEmpty, "the fixture lacks U+2026")
    let text = String(repeating: "שלום עולם מה שלומך ", count: 6)
    let font = FontSpec(family: hebrew.name, size: 40, face: hebrew.regularFace)

    let line = TextLayout(text, font: font, in: context(hebrew))
    line.ellipsize(width: 300, mark: try mark(hebrew))
    #expect(line.lineCount == 1)
    #expect(line.size.width <= 300)
    let runs = TextFitTests.runs(line)
    // No "..." borrowed by Pango from another font: every glyph on the line is the family's…
    #expect(runs.allSatisfy { $0.family == hebrew.name }, "\(runs)")
    #expect(runs.reduce(0) { $0 + $1.glyphs } > 3)
    // …and the ellipsis is ours, in the label face.
    #expect(line.cutMark?.font.family == "Cantarell")
    #expect(line.cutMark?.unknownGlyphs == 0)
    #expect(line.unknownGlyphs == 0)

    // Cut between lines, the same.
    let lines = TextLayout(text, font: font, in: context(hebrew), width: 300)
    let limit = lines.size.height / 3
    lines.limitHeight(limit, mark: try mark(hebrew))
    #expect(lines.lineCount >= 1 && lines.size.height <= limit)
    #expect(TextFitTests.runs(lines).allSatisfy { $0.family == hebrew.name })
    #expect(lines.cutMark?.font.family == "Cantarell")
    #expect(!lines.overflowsWidth)

    // A family with "…" keeps Pango's own ellipsis, in the family.
    let serif = try family("DejaVu Serif")
    let own = TextLayout(
      "Sphinx of black quartz, judge my vow.",
      font: FontSpec(family: serif.name, size: 40, face: serif.regularFace), in: context(serif))
    own.ellipsize(width: 300, mark: try mark(serif))
    #expect(own.cutMark == nil)
    let ellipsis = TextFitTests.runs(own).filter(\.isEllipsis)
    #expect(ellipsis.count == 1 && ellipsis.first?.glyphs == 1)
    #expect(ellipsis.first?.family == serif.name)
  }

  /// Pango's ellipsis may follow a space ("Sphinx of …"): the line then ends at the word, the
  /// ellipsis set close ("Sphinx of…"). Whatever the width, no space before the ellipsis.
  @Test func aCutNeverLeavesASpaceBeforeTheEllipsis() throws {
    let serif = try family("DejaVu Serif")
    var ours = 0
    for width in stride(from: 100.0, through: 760.0, by: 4) {
      let layout = TextLayout(
        "Sphinx of black quartz, judge my vow.",
        font: FontSpec(family: serif.name, size: 40, face: serif.regularFace), in: context(serif))
      layout.ellipsize(width: width, mark: try mark(serif))
      #expect(!layout.ellipsisFollowsSpace, "\(width)")
      #expect(layout.size.width <= width + 0.01, "\(width)")
      if layout.cutMark != nil {
        ours += 1
        #expect(layout.text.last?.isWhitespace == false, "\(width): '\(layout.text)'")
      }
    }
    #expect(ours > 0, "some width puts Pango's ellipsis after a space")
  }

  @Test func aLineTooShortForItsFirstLetterAndTheEllipsisKeepsTheLetter() throws {
    // A 400 pt waterfall line on an A4 page (427 pt of measure): Pango's ellipsis alone fills
    // it and drops every letter; the line keeps whole letters instead, never half of one.
    let serif = try family("DejaVu Serif")
    let layout = TextLayout(
      "Donaudampfschifffahrtsgesellschaft",
      font: FontSpec(family: serif.name, size: 400, face: serif.regularFace), in: context(serif))
    layout.ellipsize(width: 427, mark: try mark(serif))
    let letters = TextFitTests.runs(layout).filter { !$0.isEllipsis }.reduce(0) { $0 + $1.glyphs }
    #expect(letters >= 1)
    #expect(layout.text.hasPrefix("D"))
    #expect(layout.size.width <= 427)
    #expect(layout.lineCount == 1)

    // With room for a letter and the ellipsis, both.
    let wider = TextLayout(
      "Donaudampfschifffahrtsgesellschaft",
      font: FontSpec(family: serif.name, size: 400, face: serif.regularFace), in: context(serif))
    wider.ellipsize(width: 900, mark: try mark(serif))
    #expect(wider.size.width <= 900)
    let runs = TextFitTests.runs(wider)
    #expect(runs.filter { !$0.isEllipsis }.reduce(0) { $0 + $1.glyphs } >= 1)
    #expect(runs.contains { $0.isEllipsis && $0.glyphs == 1 } || wider.cutMark != nil)
  }
}
