import Foundation
import Testing

/// A family that writes the sample's script sets the user's text, whatever it lacks: the
/// characters it lacks are boxes, named in a `missing-glyphs` warning that `--strict` fails
/// on. Only a family that does not write the script shows its own (`own-script`, a font fact).
/// The same rule in `run` and `render`.
@Suite struct SampleScriptCommandTests {
  static let asciiOnly = Repository.fixtures + "/ExampleFonts/DejaVuSans-Subset.ttf"

  static func job(text: String, font: String, family: String) -> String {
    """
    version: 1
    defaults: { text: "\(text)" }
    families: { include: ["\(family)"] }
    fonts: ["\(font)"]
    png: { edge: 256 }
    catalogues: []
    gallery: false

    """
  }

  /// The first case: an ASCII-only Latin family and a Latin text with accents. Before,
  /// the specimen showed a Malay pangram and `--strict` passed.
  @Test func aLatinFamilySetsALatinTextWithBoxesAndStrictFails() throws {
    let box = try CLISandbox("fonti-script")
    try box.write(
      "specimens.yaml",
      Self.job(text: "Ünïcödé façade — 1½ €", font: Self.asciiOnly, family: "DejaVu Sans"))
    let result = try box.run(["run", "--strict"])
    #expect(result.status == 1, "\(result)")
    #expect(
      result.stderr.contains(
        "family 'DejaVu Sans' lacks 8 characters of the sample text (U+00DC, U+00EF, U+00F6, "
          + "U+00E9, U+00E7, U+2014, U+00BD, U+20AC; 8 boxes drawn)"), "\(result)")
    #expect(!result.stderr.contains("own script"), "\(result)")
    #expect(!result.stderr.contains("Malay"), "\(result)")
  }

  /// The second case: a Hebrew text with a year, in a Hebrew family without digits.
  @Test func aHebrewFamilySetsAHebrewTextWithAYear() throws {
    let box = try CLISandbox("fonti-script")
    let result = try box.run([
      "render", "Noto Sans Hebrew", "--text", "שלום עולם 2024", "-o", "out/",
    ])
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stderr.contains(
        "family 'Noto Sans Hebrew' lacks 3 characters of the sample text (U+0032, U+0030, "
          + "U+0034; 4 boxes drawn)"), "\(result)")
    #expect(!result.stderr.contains("own script"), "\(result)")
  }

  /// A family that does not write the script still shows its own: a Latin text in a Hebrew
  /// family, and a text whose language is Hebrew in a Latin family.
  @Test func aFamilyThatDoesNotWriteTheScriptShowsItsOwn() throws {
    let box = try CLISandbox("fonti-script")
    let hebrew = try box.run(["render", "Noto Sans Hebrew", "--text", "Hello there", "-o", "out/"])
    #expect(hebrew.status == 0, "\(hebrew)")
    #expect(hebrew.stderr.contains("its specimen shows its own script (Hebrew)"), "\(hebrew)")
    let latin = try box.run([
      "render", "DejaVu Serif", "--text", "שלום עולם", "--language", "he", "-o", "out/",
    ])
    #expect(latin.status == 0, "\(latin)")
    #expect(latin.stderr.contains("its specimen shows its own script"), "\(latin)")
  }
}
