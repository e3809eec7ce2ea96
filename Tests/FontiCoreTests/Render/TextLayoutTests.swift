import CPango
import Foundation
import Testing

@testable import FontiCore

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
    let environment = try TestFonts.environment()
    let renderer = SpecimenRenderer(environment: environment)
    let hebrew = try #require(environment.catalog.family(named: "Noto Sans Hebrew"))
    let cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
    let context = renderer.map(for: hebrew).makeContext(for: cr)
    let font = FontSpec(family: hebrew.name, size: 20, face: hebrew.regularFace)
    // Untagged, Pango gives a script its most common language (Hebrew script: he); a sample
    // in another language that shares the script (Yiddish) must say so to get its forms.
    #expect(languages(of: TextLayout("שלום עולם", font: font, in: context)) == ["he"])
    #expect(
      languages(of: TextLayout("שלום עולם", font: font, in: context, language: "yi")) == ["yi"])
    // Latin text, untagged, is `en` whatever the locale.
    #expect(languages(of: TextLayout("Sphinx", font: font, in: context)) == ["en"])
    // The own-script choice carries the language of its sample.
    let bengali = try #require(environment.catalog.family(named: "Noto Sans Bengali"))
    #expect(FallbackSample.choose(for: bengali, preferGrid: false).language == "bn")
    #expect(FallbackSample.choose(for: bengali, preferGrid: true).language == nil)
  }
}
