import CCairo
import CPango
import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// Samples that show a feature working: every sample the reader keeps changes the glyphs and
/// the pixels when Pango sets and Cairo draws it with the feature on (Pango's own font loading
/// and its own HarfBuzz call, `pango_attr_font_features_new`, not the sampler's `hb_shape`),
/// and every text tried for a feature listed as not visible draws the same on and off.
@Suite struct FeatureSampleTests {
  static let families = [
    "Inter", "EB Garamond", "Cantarell", "DejaVu Serif", "Noto Sans Bengali", "Noto Sans Hebrew",
    "Proof Copies", "Noto Sans Devanagari", "Noto Sans Arabic",
  ]

  /// One glyph as Pango sets it, unrounded.
  struct SetGlyph: Equatable {
    var glyph: UInt32
    var width: Int32
    var xOffset: Int32
    var yOffset: Int32
  }

  /// Sets `text` in `face` of `family` with Pango, the OpenType `features` string applied
  /// (`"smcp=1"`) to the whole text or to `ranges` of it (in Unicode scalars), tagged
  /// `language`; returns the glyphs of every run, the pixels of the text drawn at 64 px, and
  /// the file Pango loaded.
  static func pangoGlyphs(
    _ text: String, family: FontFamily, face: FontFace, features: String, language: String,
    environment: FontEnvironment, ranges: [Range<Int>]? = nil
  ) throws -> (glyphs: [SetGlyph], pixels: [UInt8], file: String?) {
    let renderer = SpecimenRenderer(environment: environment)
    let surface = try CairoSurface.image(width: 2400, height: 200)
    let cr = try CairoContext(surface)
    let context = renderer.map(for: family).makeContext(for: cr)
    // Pango rounds glyph positions to whole pixels by default; a small kern would vanish.
    pango_context_set_round_glyph_positions(context.pointer, 0)
    let font = FontSpec(family: family.name, size: 64, face: face)
    if let ranges {
      // The catalogue's own way: TextLayout's feature ranges.
      let setting = try FeatureSetting.parse(features)
      let layout = TextLayout(
        text, font: font, in: context, language: language, features: [setting],
        featureRanges: ranges)
      return try collect(layout, surface: surface, cr: cr, context: context, font: font)
    }
    let layout = TextLayout(text, font: font, in: context, language: language)
    guard let current = pango_layout_get_attributes(layout.layout),
      let attributes = pango_attr_list_copy(current)
    else { throw CancellationError() }
    pango_attr_list_insert(attributes, pango_attr_font_features_new(features))
    pango_layout_set_attributes(layout.layout, attributes)
    pango_attr_list_unref(attributes)
    return try collect(layout, surface: surface, cr: cr, context: context, font: font)
  }

  /// The glyphs of every run of `layout`, its pixels drawn on `surface`, and the file Pango
  /// loaded for `font`.
  static func collect(
    _ layout: TextLayout, surface: CairoSurface, cr: CairoContext, context: TextContext,
    font: FontSpec
  ) throws -> (glyphs: [SetGlyph], pixels: [UInt8], file: String?) {
    var out: [SetGlyph] = []
    for line in 0..<pango_layout_get_line_count(layout.layout) {
      var runs = pango_layout_get_line_readonly(layout.layout, line)?.pointee.runs
      while let node = runs {
        if let run = node.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
          let glyphs = run.pointee.glyphs
        {
          for i in 0..<Int(glyphs.pointee.num_glyphs) {
            let info = glyphs.pointee.glyphs[i]
            out.append(
              SetGlyph(
                glyph: info.glyph, width: info.geometry.width, xOffset: info.geometry.x_offset,
                yOffset: info.geometry.y_offset))
          }
        }
        runs = node.pointee.next
      }
    }
    cr.setColour(Colour(hex: 0x000000))
    layout.draw(at: 40, 40)
    cairo_surface_flush(surface.pointer)
    let bytes = Int(cairo_image_surface_get_stride(surface.pointer)) * surface.height
    let pixels =
      cairo_image_surface_get_data(surface.pointer).map {
        Array(UnsafeBufferPointer(start: $0, count: bytes))
      } ?? []
    return (out, pixels, context.loadedFile(for: font)?.file)
  }

  static func face(of family: FontFamily, file: String, index: Int) throws -> FontFace {
    try #require(family.faces.first { $0.file == file && $0.index == index })
  }

  @Test(arguments: families)
  func everyVisibleSampleChangesTheGlyphsAndEveryTriedTextDoesNot(_ name: String) throws {
    let environment = try TestFonts.proofsEnvironment()
    let family = try #require(environment.catalog.family(named: name))
    let proofs = try ProofReader.read(family)
    let features = try #require(proofs.proofs.features)
    #expect(!features.isEmpty)
    for feature in features {
      let sample = proofs.sample(for: feature.tag)
      #expect((sample != nil) == feature.visible, "\(name) \(feature.tag)")
    }
    for sample in proofs.samples {
      let face = try FeatureSampleTests.face(of: family, file: sample.file, index: sample.index)
      let language = sample.language ?? "en"
      let off = try FeatureSampleTests.pangoGlyphs(
        sample.text, family: family, face: face, features: "\(sample.tag)=0",
        language: language, environment: environment)
      let on = try FeatureSampleTests.pangoGlyphs(
        sample.text, family: family, face: face, features: "\(sample.tag)=\(sample.on.value)",
        language: language, environment: environment, ranges: sample.ranges)
      #expect(off.file == sample.file, "\(name) \(sample.tag): Pango loaded \(off.file ?? "-")")
      #expect(!off.glyphs.isEmpty)
      #expect(off.glyphs != on.glyphs, "\(name) \(sample.tag) “\(sample.text)” sets the same")
      #expect(off.pixels != on.pixels, "\(name) \(sample.tag) “\(sample.text)” looks the same")
      #expect(sample.text.unicodeScalars.count <= FeatureSampler.maximumLength)
    }
    for trial in proofs.tried {
      let face = try FeatureSampleTests.face(of: family, file: trial.file, index: trial.index)
      let language = trial.language ?? "en"
      let off = try FeatureSampleTests.pangoGlyphs(
        trial.text, family: family, face: face, features: "\(trial.tag)=0", language: language,
        environment: environment)
      let on = try FeatureSampleTests.pangoGlyphs(
        trial.text, family: family, face: face, features: "\(trial.tag)=1", language: language,
        environment: environment, ranges: trial.ranges)
      // The same pixels: a font may swap in an identical copy of a glyph, which shows nothing.
      #expect(off.pixels == on.pixels, "\(name) \(trial.tag) “\(trial.text)” differs")
    }
  }

  @Test func featuresThatNeedContextAreSampledWithIt() throws {
    let environment = try TestFonts.proofsEnvironment()
    let garamond = try ProofReader.read(
      try #require(environment.catalog.family(named: "EB Garamond")))
    // A fraction needs its slash, an ordinal its figure, kerning a pair.
    #expect(garamond.sample(for: "frac")?.text == "1/2 3/4")
    #expect(garamond.sample(for: "ordn")?.text == "1a 2o")
    #expect(garamond.sample(for: "kern")?.text == "AV To Ty")
    #expect(garamond.sample(for: "liga")?.text == "fi fl ffi")
    #expect(garamond.sample(for: "smcp")?.text == "Small Caps")
    // Localised forms are shaped in a language the font's GSUB declares for locl
    // (EB Garamond: cyrl MKD and SRB, latn AZE, CAT, CRT, DEU, LAT, TRK): the first, with
    // its built-in text.
    let locl = try #require(garamond.sample(for: "locl"))
    #expect(locl.language == "mk")
    #expect(locl.text == "бгдпт")
    // EB Garamond's figures are old-style by default: onum changes nothing, lnum does.
    #expect(garamond.sample(for: "onum") == nil)
    #expect(garamond.sample(for: "lnum")?.text == "0123456789")
    #expect(garamond.tried.contains { $0.tag == "onum" && $0.text == "0123456789" })

    let inter = try ProofReader.read(try #require(environment.catalog.family(named: "Inter")))
    #expect(inter.sample(for: "frac")?.text == "1/2 3/4")
    #expect(inter.sample(for: "case")?.text == "()-:")
    // Letters picked from the font's own lookups: the characters its cvNN change.
    #expect(inter.sample(for: "cv11")?.text == "a")
    #expect(inter.sample(for: "cv07")?.text == "ß")
    #expect(inter.sample(for: "ss01")?.text == "3469")

    let cantarell = try ProofReader.read(
      try #require(environment.catalog.family(named: "Cantarell")))
    // Cantarell declares locl for Catalan (the l·l), among others.
    #expect(
      cantarell.sample(for: "locl")
        == FeatureSample(
          tag: "locl", text: "l·l L·L", language: "ca", on: FeatureSetting(tag: "locl"),
          file: TestFonts.fontsFolder + "/Cantarell-Regular.otf", index: 0, style: "Regular"))
  }

  @Test func complexScriptFeaturesAreSampledInTheirScript() throws {
    let environment = try TestFonts.proofsEnvironment()
    let bengali = try ProofReader.read(
      try #require(environment.catalog.family(named: "Noto Sans Bengali")))
    // KA + VIRAMA + SSA: the akhand ligature.
    #expect(bengali.sample(for: "akhn")?.text.hasPrefix("ক্ষ") == true)
    for sample in bengali.samples {
      // No stray Latin in a Bengali font's samples (the Vedic stress signs of the
      // Devanagari block, U+0951–U+0952, are Bengali's too: blwm places them).
      #expect(
        sample.text.unicodeScalars.allSatisfy {
          $0.value >= 0x980 || (0x951...0x952).contains($0.value) || $0 == " "
        },
        "\(sample.tag) “\(sample.text)”")
    }
  }

  /// Proof Copies' `salt` swaps a and b for glyphs with other IDs and the same outlines; its
  /// `ss01` swaps b for a real alternate.
  @Test func aGlyphSwappedForAnIdenticalCopyShowsNothing() throws {
    let environment = try TestFonts.proofsEnvironment()
    let copies = try ProofReader.read(
      try #require(environment.catalog.family(named: "Proof Copies")))
    #expect(copies.proofs.features?.map(\.tag) == ["salt", "ss01"])
    #expect(copies.proofs.features?.map(\.visible) == [false, true])
    #expect(copies.sample(for: "ss01")?.text == "b")
    #expect(copies.tried.contains { $0.tag == "salt" && $0.text == "ab" })
  }

  // MARK: - Building candidates

  func glyph(_ id: UInt32, cluster: Int, advance: Int = 500) -> ShapedGlyph {
    ShapedGlyph(glyph: id, cluster: cluster, xAdvance: advance, yAdvance: 0, xOffset: 0, yOffset: 0)
  }

  @Test func changedCharactersFollowClusters() {
    // "fix": off f i x; on a ligature "fi" (one cluster at 0) and x.
    let off = [glyph(1, cluster: 0), glyph(2, cluster: 1), glyph(3, cluster: 2)]
    let on = [glyph(9, cluster: 0), glyph(3, cluster: 2)]
    #expect(CandidateText.changedCharacters(off: off, on: on, count: 3) == [true, true, false])
    // Kerning: the first glyph of the pair changes its advance.
    let kerned = [glyph(1, cluster: 0, advance: 450), glyph(2, cluster: 1), glyph(3, cluster: 2)]
    #expect(
      CandidateText.changedCharacters(off: off, on: kerned, count: 3) == [true, false, false])
    #expect(CandidateText.changedCharacters(off: off, on: off, count: 3) == [false, false, false])
  }

  @Test func narrowingKeepsChangedWordsOrCharacters() {
    let words = Array("AV To Ty".unicodeScalars)
    var changed = [Bool](repeating: false, count: words.count)
    changed[0] = true
    changed[3] = true
    #expect(
      CandidateText.narrowings(words, changed: changed).map { String(String.UnicodeScalarView($0)) }
        == ["AV To"])
    let run = Array("abcdefgh".unicodeScalars)
    var some = [Bool](repeating: false, count: run.count)
    some[2] = true
    some[5] = true
    #expect(
      CandidateText.narrowings(run, changed: some).map { String(String.UnicodeScalarView($0)) }
        == ["cf", "bcdefgh"])
    // A built-in text keeps its context: only unchanged words go.
    #expect(
      CandidateText.narrowings(
        Array("(H-O)".unicodeScalars), changed: [false, false, true, false, false], wordsOnly: true
      )
      .map { String(String.UnicodeScalarView($0)) } == ["(H-O)"])
  }

  @Test func candidatesStayShort() {
    let letters = Array("abcdefghijklmnopqrstuvwxyzabcdefghij".unicodeScalars)
    #expect(CandidateText.run(letters).unicodeScalars.count == FeatureSampler.maximumLength)
    let tripled = CandidateText.words(letters.map { [$0, $0, $0] })
    #expect(tripled == "aaa bbb ccc ddd eee fff")
    #expect(
      CandidateText.ordered(Array("1aB.é".unicodeScalars), by: { $0 })
        == Array("aéB1.".unicodeScalars))
    #expect(!CandidateText.isUsable("\u{E000}"))
    #expect(!CandidateText.isUsable(" "))
    #expect(!CandidateText.isUsable("\u{200D}"))
    #expect(CandidateText.isMark("\u{301}"))
  }

  /// A tag as text: four bytes, `?` for each outside printable ASCII (a hostile font's).
  @Test func aTagReadsAsFourPrintableCharacters() {
    #expect(HarfBuzzTag.string(HarfBuzzTag.make("liga")) == "liga")
    #expect(HarfBuzzTag.string(0x6B65_00FF) == "ke??")
    #expect(HarfBuzzTag.string(0x207E_7F1F) == " ~??")
    #expect(HarfBuzzUnicode.script(0x905) == "Deva")
  }
}
