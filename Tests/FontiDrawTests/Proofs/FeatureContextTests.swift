import FontTestSupport
import Foundation
import Testing

@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// Features shown in the context they act on: Indic clusters, Arabic joining positions, and
/// figures and ordinals that take a feature on one part of their text only.
@Suite struct FeatureContextTests {
  static func proofs(_ name: String) throws -> (FamilyProofs, FontFamily, FontEnvironment) {
    let environment = try TestFonts.proofsEnvironment()
    let family = try #require(environment.catalog.family(named: name))
    return (try ProofReader.read(family), family, environment)
  }

  /// The words of `text`, each with the part of it `ranges` marks, relative to the word.
  static func marked(_ text: String, _ ranges: [Range<Int>]?) -> [(String, Range<Int>?)] {
    var out: [(String, Range<Int>?)] = []
    var start = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      let count = word.unicodeScalars.count
      let range = ranges?.first { $0.lowerBound >= start && $0.upperBound <= start + count }
      out.append((String(word), range.map { ($0.lowerBound - start)..<($0.upperBound - start) }))
      start += count + 1
    }
    return out
  }

  @Test func indicFeaturesAreShownInTheClustersTheyForm() throws {
    let (proofs, _, _) = try FeatureContextTests.proofs("Noto Sans Devanagari")
    for tag in ["rkrf", "blwf", "vatu", "pres", "rphf", "half", "cjct", "akhn", "nukt"] {
      #expect(proofs.proofs.features?.first { $0.tag == tag }?.visible == true, "\(tag)")
    }
    // The reph: RA and virama before a consonant, the feature on RA and virama only.
    let rphf = try #require(proofs.sample(for: "rphf"))
    #expect(FeatureContextTests.marked(rphf.text, rphf.ranges).first! == ("र्क", 0..<2))
    // A half form: the first consonant and its virama, before another consonant.
    let half = try #require(proofs.sample(for: "half"))
    #expect(FeatureContextTests.marked(half.text, half.ranges).first! == ("क्त", 0..<2))
    // The rakar: consonant, virama and RA, all of it.
    let rkrf = try #require(proofs.sample(for: "rkrf"))
    #expect(FeatureContextTests.marked(rkrf.text, rkrf.ranges).first! == ("क्र", 0..<3))
    // A conjunct the font draws as one: a doubled consonant.
    #expect(proofs.sample(for: "pres")?.text.unicodeScalars.count == 3)
    // vatu (and the ligature blwf makes) are listed only in the font's deva script system,
    // the first Indic specification, which HarfBuzz uses when asked for it.
    for tag in ["vatu", "blwf"] {
      let sample = try #require(proofs.sample(for: tag))
      #expect(sample.language == "x-hbscdeva", "\(tag)")
      #expect(sample.scriptSystem == "deva", "\(tag)")
      #expect(sample.text.hasPrefix("क्र"), "\(tag) “\(sample.text)”")
    }
    let blwf = try #require(proofs.sample(for: "blwf"))
    #expect(FeatureContextTests.marked(blwf.text, blwf.ranges).first! == ("क्र", 1..<3))
  }

  /// Bengali's older script system is `beng`, its newer `bng2`: Noto Sans Bengali lists
  /// `vatu` only in the older.
  @Test func aFeatureOfTheOlderIndicScriptSystemIsShapedThere() throws {
    let (proofs, _, _) = try FeatureContextTests.proofs("Noto Sans Bengali")
    let vatu = try #require(proofs.sample(for: "vatu"))
    #expect(vatu.scriptSystem == "beng")
    #expect(vatu.text.hasPrefix("ক্র"))
    #expect(proofs.sample(for: "rphf")?.scriptSystem == nil)
  }

  @Test func joiningFeaturesAreShownInTheirPositionAndOnDrawsTheWordsAsRead() throws {
    let (proofs, family, _) = try FeatureContextTests.proofs("Noto Sans Arabic")
    let expected: [String: (Int, Range<Int>)] = [
      "init": (2, 0..<1), "medi": (3, 1..<2), "fina": (2, 1..<2),
    ]
    let face = try HarfBuzzFace(file: try #require(family.regularFace).file)
    let font = HarfBuzzFont(face: face)
    for (tag, (length, range)) in expected {
      let sample = try #require(proofs.sample(for: tag), "\(tag)")
      let words = FeatureContextTests.marked(sample.text, sample.ranges)
      #expect(words.count >= 2, "\(tag) “\(sample.text)”")
      for (word, marked) in words {
        #expect(word.unicodeScalars.count == length, "\(tag) “\(word)”")
        #expect(marked == range, "\(tag) “\(word)”")
      }
      // On, for its part only, the text is shaped as with no feature given at all: as a
      // reader sees it; off breaks the joining.
      let scalars = Array(sample.text.unicodeScalars)
      let buffer = HarfBuzzBuffer()
      let plain = buffer.shape(scalars, font: font, language: "en", features: [])
      let on = buffer.shape(
        scalars, font: font, language: "en", features: [(HarfBuzzTag.make(tag), 1)],
        ranges: sample.ranges)
      let off = buffer.shape(
        scalars, font: font, language: "en", features: [(HarfBuzzTag.make(tag), 0)])
      #expect(on == plain, "\(tag)")
      #expect(off != plain, "\(tag)")
    }
  }

  @Test func figuresAndOrdinalsTakeTheFeatureOnlyWhereItIsMeantFor() throws {
    let (garamond, family, environment) = try FeatureContextTests.proofs("EB Garamond")
    #expect(garamond.sample(for: "subs")?.text == "H2O")
    #expect(garamond.sample(for: "subs")?.ranges == [1..<2])
    #expect(garamond.sample(for: "sups")?.ranges == [1..<2, 4..<5])
    #expect(garamond.sample(for: "ordn")?.text == "1a 2o")
    #expect(garamond.sample(for: "ordn")?.ranges == [1..<2, 4..<5])
    #expect(garamond.sample(for: "sinf")?.ranges == [1..<2, 6..<7])
    // A numerator is the figure before the slash, a denominator the one after it.
    #expect(garamond.sample(for: "numr")?.ranges?.first == 0..<1)
    #expect(garamond.sample(for: "dnom")?.ranges?.first == 2..<3)
    // Drawn by Pango with the range (TextLayout's feature ranges, as the catalogue draws
    // it): x and y keep their forms, the figures are superior.
    let sups = try #require(garamond.sample(for: "sups"))
    let face = try FeatureSampleTests.face(of: family, file: sups.file, index: sups.index)
    func draw(_ features: String, _ ranges: [Range<Int>]?) throws -> [FeatureSampleTests.SetGlyph] {
      try FeatureSampleTests.pangoGlyphs(
        sups.text, family: family, face: face, features: features, language: "en",
        environment: environment, ranges: ranges
      ).glyphs
    }
    let off = try draw("sups=0", nil)
    let on = try draw("sups=1", sups.ranges)
    let everywhere = try draw("sups=1", nil)
    #expect(off.count == 5 && on.count == 5)
    #expect(on[0] == off[0] && on[3] == off[3])
    #expect(on[1] != off[1] && on[4] != off[4])
    // The whole text with the feature would have made superior letters too.
    #expect(everywhere[0] != off[0])
  }

  // MARK: - Building the texts

  @Test func bracesMarkThePartAFeatureIsMeantFor() {
    let h2o = Candidate(marked: "H{2}O CO{2}")
    #expect(h2o.text == "H2O CO2")
    #expect(h2o.ranges == [1..<2, 6..<7])
    #expect(Candidate(marked: "1234").ranges == nil)
    #expect(Candidate(marked: "{No}. 1").ranges == [0..<2])
    // An unclosed or empty mark marks nothing.
    #expect(Candidate(marked: "a{}b{c").ranges == nil)
    #expect(Candidate(marked: "a{}b{c").text == "abc")
  }

  @Test func changedWordsKeepTheirRanges() {
    let words = Candidate.words([
      (Array("र्क".unicodeScalars), 0..<2), (Array("र्त".unicodeScalars), 0..<2),
      (Array("र्प".unicodeScalars), 0..<2),
    ])
    #expect(words.text == "र्क र्त र्प")
    #expect(words.ranges == [0..<2, 4..<6, 8..<10])
    var changed = [Bool](repeating: false, count: words.scalars.count)
    changed[5] = true
    let narrowed = words.changedWords(changed)
    #expect(narrowed?.text == "र्त")
    #expect(narrowed?.ranges == [0..<2])
    #expect(words.changedWords([Bool](repeating: false, count: words.scalars.count)) == nil)
    #expect(Candidate("abc").changedWords([true, true, true]) == nil)
  }

  @Test func indicClustersAreBuiltPerScriptFromTheMappedLetters() {
    // A face that maps Devanagari and Tamil: Tamil has no GA, so its clusters skip it.
    let maps: (Unicode.Scalar) -> Bool = {
      (0x900...0x97F).contains($0.value) || (0xB80...0xBFF).contains($0.value)
    }
    let rphf = ContextSamples.indic("rphf", maps: maps)
    // The reph, then the explicit reph (a ZWJ after the virama, as Telugu writes it).
    #expect(
      rphf.map(\.text) == [
        "र्क र्त र्प र्ग", "र्\u{200D}क र्\u{200D}त र्\u{200D}प र्\u{200D}ग",
        "ர்க ர்த ர்ப ர்ம", "ர்\u{200D}க ர்\u{200D}த ர்\u{200D}ப ர்\u{200D}ம",
      ])
    #expect(rphf.first?.ranges == [0..<2, 4..<6, 8..<10, 12..<14])
    #expect(rphf[1].ranges?.first == 0..<3)
    let blwf = ContextSamples.indic("blwf", maps: maps)
    #expect(blwf.first?.text == "क्र त्र प्र ग्र")
    #expect(blwf.first?.ranges?.first == 1..<3)
    #expect(ContextSamples.indic("liga", maps: maps).isEmpty)
    // Without a virama there are no clusters.
    #expect(ContextSamples.indic("half") { (0x900...0x94C).contains($0.value) }.isEmpty)
  }

  @Test func joiningLettersAreSetInTheirPosition() {
    let letters: [Unicode.Scalar] = ["\u{623}", "\u{62A}", "\u{628}"]
    let all: (Unicode.Scalar) -> Bool = { _ in true }
    let initial = ContextSamples.joining("init", letters: letters, maps: all)
    // The basic letters first, each before a BEH (BEH itself before a tatweel).
    #expect(initial.map(\.text) == ["\u{628}\u{640} \u{62A}\u{628} \u{623}\u{628}"])
    #expect(initial.first?.ranges == [0..<1, 3..<4, 6..<7])
    let medial = ContextSamples.joining("medi", letters: ["\u{62A}"], maps: all)
    #expect(medial.first?.text == "\u{628}\u{62A}\u{628}")
    #expect(medial.first?.ranges == [1..<2])
    #expect(
      ContextSamples.joining("fina", letters: ["\u{62A}"], maps: all).first?.ranges == [1..<2])
    #expect(ContextSamples.joining("liga", letters: letters, maps: all).isEmpty)
    // No letter to join to: nothing.
    #expect(ContextSamples.joining("init", letters: letters) { _ in false }.isEmpty)
  }

  @Test func rangesBecomePangoByteRanges() {
    // é is two bytes of UTF-8, each Devanagari letter three.
    #expect(TextLayout.byteRanges([1..<2], in: "é2") == [2..<3])
    #expect(TextLayout.byteRanges([0..<2], in: "र्क") == [0..<6])
    // Past the end: cut; empty: dropped.
    #expect(TextLayout.byteRanges([1..<9, 3..<3], in: "abc") == [1..<3])
  }

  @Test func aScriptSystemIsReadFromHarfBuzzsPrivateLanguage() {
    var sample = FeatureSample(
      tag: "vatu", text: "क्र", language: "x-hbscdeva", on: FeatureSetting(tag: "vatu"),
      file: "f", index: 0, style: "Regular")
    #expect(sample.scriptSystem == "deva")
    sample.language = "mr"
    #expect(sample.scriptSystem == nil)
  }
}
