import Testing

@testable import FontiFonts
@testable import FontiModel

/// A face whose style name says one weight while fontconfig reads another is named in a
/// warning: the style row (by weight) and the style names (by name) would otherwise disagree
/// without a word.
struct FaceWeightsTests {
  static func family(_ faces: [(style: String, weight: Int)]) -> FontFamily {
    FontFamily(
      name: "Test Sans",
      faces: faces.enumerated().map { n, face in
        FontFace(style: face.style, weight: face.weight, slant: 0, file: "/fonts/\(n).ttf")
      })
  }

  @Test func aBoldOfRegularWeightAndARegularOfBoldWeightAreNamed() {
    #expect(
      FaceWeights.warnings(for: Self.family([("Regular", 80), ("Bold", 80)])) == [
        "face 'Bold' has a regular weight (fontconfig 80): fontconfig and Pango see no bold in "
          + "it, and may draw it for regular text"
      ])
    #expect(
      FaceWeights.warnings(for: Self.family([("Regular", 200)])) == [
        "face 'Regular' has a bold weight (fontconfig 200): fontconfig and Pango take it for a "
          + "bold, not a regular"
      ])
    // Both in one line, in face order.
    let both = FaceWeights.warnings(for: Self.family([("Book", 205), ("12 Bold Italic", 50)]))
    #expect(both.count == 1)
    #expect(both.first?.hasPrefix("face 'Book' has an extra-bold weight (fontconfig 205)") == true)
    #expect(both.first?.contains("; face '12 Bold Italic' has a light weight") == true)
  }

  @Test func namesThatAgreeWithTheirWeightsAreQuiet() {
    let family = Self.family([
      ("Regular", 80), ("Book", 75), ("08 Regular", 80), ("Bold", 200), ("Bold Condensed", 200),
      ("SemiBold", 180), ("Semi Bold", 180), ("ExtraBold", 205), ("Medium", 100), ("Light", 50),
      ("Bold", 180), ("Black", 210),
    ])
    #expect(FaceWeights.warnings(for: family).isEmpty)
  }

  @Test func theFamilysProofReportCarriesTheWarning() {
    let report = FamilyProofReport.read(
      Self.family([("Regular", 80), ("Bold", 80)]), options: .none)
    #expect(
      report.warnings.contains {
        $0.hasPrefix("family 'Test Sans': face 'Bold' has a regular weight")
      })
  }
}
