import CPango
import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A fixture family and a context of its font map, on a small image, for layouts.
struct FixtureText {
  let family: FontFamily
  let context: TextContext

  init(_ name: String) throws {
    let environment = try TestFonts.environment()
    family = try #require(environment.catalog.family(named: name))
    let cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
    context = SpecimenRenderer(environment: environment).map(for: family).makeContext(for: cr)
  }

  /// The family's regular face at `size`.
  func font(size: Double) -> FontSpec {
    FontSpec(family: family.name, size: size, face: family.regularFace)
  }
}

/// What Pango is told about the text's language: an own-script sample its own (so a font's
/// forms for that language, OpenType `locl`, show); other text `en` whatever the machine's
/// locale, which Pango narrows to the usual language of each non-Latin script.
struct TextLayoutTests {
  func languages(of layout: TextLayout) -> [String] {
    var out: [String] = []
    var runs = pango_layout_get_line_readonly(layout.layout, 0)?.pointee.runs
    while let node = runs {
      if let run = node.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
        let item = run.pointee.item, let tag = item.pointee.analysis.language,
        let text = pango_language_to_string(tag)
      {
        out.append(String(cString: text))
      }
      runs = node.pointee.next
    }
    return out
  }

  @Test func ownScriptSamplesAreShapedInTheirLanguage() throws {
    let fixture = try FixtureText("Noto Sans Hebrew")
    let (context, font) = (fixture.context, fixture.font(size: 20))
    // Untagged, Pango gives a script its most common language (Hebrew script: he); a sample
    // in another language that shares the script (Yiddish) must say so to get its forms.
    #expect(languages(of: TextLayout("שלום עולם", font: font, in: context)) == ["he"])
    #expect(
      languages(of: TextLayout("שלום עולם", font: font, in: context, language: "yi")) == ["yi"])
    // Latin text, untagged, is `en` whatever the locale.
    #expect(languages(of: TextLayout("Sphinx", font: font, in: context)) == ["en"])
    // The own-script choice carries the language of its sample.
    let bengali = try #require(
      try TestFonts.environment().catalog.family(named: "Noto Sans Bengali"))
    #expect(FallbackSample.choose(for: bengali, preferGrid: false).language == "bn")
    #expect(FallbackSample.choose(for: bengali, preferGrid: true).language == nil)
  }
}

/// A last word alone on its line (a runt) is pulled back by tying the last two words.
struct RuntTests {
  @Test func theLastTwoWordsAreTiedWithANoBreakSpace() {
    #expect(
      TextLayout.tyingLastWords("Sphinx of black quartz, judge my vow.")
        == "Sphinx of black quartz, judge my\u{00A0}vow.")
    #expect(TextLayout.tyingLastWords("  two words ") == nil)
    #expect(TextLayout.tyingLastWords("one") == nil)
  }

  /// At every width where the pangram ends with one word alone, the last word is pulled back
  /// and the line count stays; where it does not, the layout is left as it was.
  @Test func aRuntIsPulledBackWithoutAddingALine() throws {
    let fixture = try FixtureText("DejaVu Serif")
    let (context, font) = (fixture.context, fixture.font(size: 40))
    let text = "Sphinx of black quartz, judge my vow."
    var runts = 0
    for width in stride(from: 300.0, through: 900.0, by: 10) {
      func make(_ text: String) -> TextLayout {
        TextLayout(text, font: font, in: context, width: width, wrap: .words, alignment: .centre)
      }
      let plain = make(text)
      let pulled = TextLayout.pullingBackLastWord(plain, make)
      #expect(pulled.lineCount == plain.lineCount, "\(width)")
      if plain.endsInOneWord {
        runts += 1
        #expect(!pulled.endsInOneWord, "\(width)")
        #expect(pulled.text.hasSuffix("my\u{00A0}vow."), "\(width)")
        #expect(pulled.unknownGlyphs == 0)
      } else {
        #expect(pulled === plain, "\(width)")
      }
    }
    #expect(runts > 0, "some width leaves 'vow.' alone")
  }
}

/// Leading as a multiple of the type size, whatever the font's own line height.
struct LeadingTests {
  @Test func linesAreTheirSizeTimesTheLeadingApart() throws {
    for name in ["DejaVu Serif", "Cantarell"] {
      let fixture = try FixtureText(name)
      let (context, font) = (fixture.context, fixture.font(size: 40))
      func layout() -> TextLayout {
        TextLayout(
          "Sphinx of black quartz, judge my vow.", font: font, in: context, width: 200,
          wrap: .words)
      }
      func distance(_ l: TextLayout) -> Double {
        (l.lastBaseline - l.baseline) / Double(l.lineCount - 1)
      }
      let natural = layout()
      #expect(natural.lineCount >= 3)
      let led = layout()
      led.setLeading(1.45)
      #expect(abs(distance(led) - 1.45 * 40) < 0.5, "\(name): \(distance(led))")
      // At least: a leading under the font's own keeps the font's own.
      let kept = layout()
      kept.setLeading(0.5, atLeast: true)
      #expect(abs(distance(kept) - distance(natural)) < 0.01, "\(name)")
      let opened = layout()
      opened.setLeading(2, atLeast: true)
      #expect(abs(distance(opened) - 80) < 0.5, "\(name)")
    }
  }
}
