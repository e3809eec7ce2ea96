import TestSupport
import Testing

@testable import FontiModel
@testable import FontiSupport

/// A family's faces: one per weight, width and slope after the rule of which file answers, in
/// order; `styles:` naming them.
struct FamilyFacesTests {
  static func face(
    _ style: String, _ weight: Int, _ slant: Int = 0, width: Int = 100, file: String,
    index: Int = 0, format: String = "TrueType"
  ) -> FontFace {
    FontFace(
      style: style, weight: weight, slant: slant, width: width, file: file, index: index,
      format: format)
  }

  @Test func staticAndVariableFilesOfOneDesignGiveEachFaceOnce() {
    // Static files first (fontconfig's preference), then the variable file's named instances.
    var faces: [FontFace] = []
    for (style, weight) in [("Light", 50), ("Regular", 80), ("Bold", 200)] {
      faces.append(Self.face(style, weight, file: "/s/Inter-\(style).otf"))
      faces.append(Self.face(style + " Italic", weight, 100, file: "/s/Inter-\(style)I.otf"))
    }
    for (n, (style, weight)) in [("Light", 50), ("Regular", 80), ("Bold", 200)].enumerated() {
      faces.append(Self.face(style, weight, file: "/v/Inter.var.ttf", index: (n + 1) << 16))
    }
    var family = FontFamily(name: "Inter", faces: faces)
    family.variableFiles = [.init(file: "/v/Inter.var.ttf", axes: [])]
    let listed = family.distinctFaces
    #expect(
      listed.map(\.style) == [
        "Light", "Light Italic", "Regular", "Regular Italic", "Bold", "Bold Italic",
      ])
    #expect(listed.allSatisfy { $0.file.hasPrefix("/s/") })
    #expect(family.faceList.allSatisfy { $0.instance == nil })
  }

  @Test func orderIsWidthThenWeightThenSlopeAndTheTextCutAnswers() {
    let family = FontFamily(
      name: "G",
      faces: [
        Self.face("Bold", 200, file: "/b.ttf"),
        Self.face("08 Regular", 80, file: "/08.ttf"),
        Self.face("12 Regular", 80, file: "/12.ttf"),
        Self.face("Condensed", 80, width: 75, file: "/c.ttf"),
        Self.face("Italic", 80, 100, file: "/i.ttf"),
        Self.face("Type1 Black", 210, file: "/k.pfb", format: "Type 1"),
      ])
    #expect(
      family.distinctFaces.map(\.style) == [
        "Condensed", "12 Regular", "Italic", "Bold", "Type1 Black",
      ])
    let entries = family.faceList
    #expect(entries.map(\.weight) == [400, 400, 400, 700, 900])
    #expect(entries.map(\.slope) == ["roman", "roman", "italic", "roman", "roman"])
    #expect(entries[0].width == 75)
    #expect(entries[4].problem?.contains("Type 1") == true)
    #expect(entries[1].problem == nil)
  }

  /// URW's base 35 fonts ship each face as OpenType and as Type 1, which fontconfig reads with
  /// another weight (C059 Roman: 80 and 100) or width (Nimbus Sans Narrow: 87 and 100): one
  /// face each. A Type 1 face with no OpenType one of its name stays, saying why it is not drawn.
  @Test func aType1CopyOfAnOpenTypeFaceIsThatFace() {
    let family = FontFamily(
      name: "C059",
      faces: [
        Self.face("Roman", 80, file: "/o/C059-Roman.otf", format: "CFF"),
        Self.face("Italic", 80, 100, file: "/o/C059-Italic.otf", format: "CFF"),
        Self.face("Roman", 100, file: "/t/C059-Roman.t1", format: "Type 1"),
        Self.face("Italic", 100, 100, file: "/t/C059-Italic.t1", format: "Type 1"),
        Self.face("Bold", 200, file: "/o/C059-Bold.otf", format: "CFF"),
        Self.face("Black", 210, file: "/t/C059-Black.t1", format: "Type 1"),
      ])
    #expect(family.distinctFaces.map(\.style) == ["Roman", "Italic", "Bold", "Black"])
    #expect(family.distinctFaces.map(\.file).filter { $0.hasSuffix(".t1") } == ["/t/C059-Black.t1"])
    let narrow = FontFamily(
      name: "Nimbus Sans Narrow",
      faces: [
        Self.face("Regular", 80, width: 87, file: "/o/N.otf", format: "CFF"),
        Self.face("Regular", 80, width: 100, file: "/t/N.pfb", format: "Type 1"),
      ])
    #expect(narrow.distinctFaces.map(\.file) == ["/o/N.otf"])
  }

  @Test func faceNamesCompareWithoutCaseSpacesOrHyphens() {
    #expect(FaceName.key("Semi Bold Italic") == FaceName.key("semibold-italic"))
    #expect(FaceName.key("SemiBold") == FaceName.key("Semi_Bold"))
    #expect(FaceName.key(" - ").isEmpty)
    let family = FontFamily(
      name: "L", faces: [Self.face("Semi Bold", 180, file: "/a.ttf")])
    #expect(family.faces(named: "SemiBold").count == 1)
    #expect(family.faces(named: "Semibold Italic").isEmpty)
    #expect(family.faces(named: "").isEmpty)
  }

  @Test func weightsFollowFontconfigsOwnConversion() {
    #expect(FamilyFace.openTypeWeight(0) == 100)
    #expect(FamilyFace.openTypeWeight(50) == 300)
    #expect(FamilyFace.openTypeWeight(80) == 400)
    #expect(FamilyFace.openTypeWeight(180) == 600)
    #expect(FamilyFace.openTypeWeight(210) == 900)
    #expect(FamilyFace.openTypeWeight(1000) == 1000)
    #expect(FamilyFace.openTypeWeight(-5) == 100)
  }

  @Test func stylesTakeAllOrSlotsAndFaceNames() throws {
    func decode(_ text: String) throws(DiagnosticError) -> Job {
      try JobDecoder.decode(
        text: "version: 1\n" + text, path: "job.yaml", directory: "/nonexistent-job-dir",
        languages: TestLanguages.table
      ).job
    }
    #expect(try decode("styles: all\n").styles == .all)
    #expect(try decode("").styles == .standard)
    let job = try decode("styles: [Light, bold, Semi-Bold Italic]\n")
    #expect(job.styles == .picks([.face("Light"), .slot(.bold), .face("Semi-Bold Italic")]))
    #expect(job.styleNames.map(\.value) == ["Light", "Semi-Bold Italic"])
    #expect(job.styleNames.first?.mark == Mark(line: 2, column: 10))
    #expect(try decode("styles: [Bold Italic]\n").styles == .picks([.slot(.boldItalic)]))
    for (text, message) in [
      ("styles: alll\n", "styles must be a list of styles and face names, or 'all'"),
      ("styles: [all]\n", "'all' stands alone"),
      ("styles: [\" - \"]\n", "is not a face name"),
    ] {
      do {
        _ = try decode(text)
        Issue.record("\(text) decoded")
      } catch {
        #expect(error.diagnostics.contains { $0.isError && $0.message.contains(message) })
      }
    }
  }
}
