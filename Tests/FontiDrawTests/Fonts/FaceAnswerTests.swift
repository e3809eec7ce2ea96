import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// Which face answers for a family (`docs/proofs.md`, "Which face answers for a family"). Fixtures in
/// `Fixtures/AnswerFonts`, seen only through `answers.conf`: Answer Sans (a static and a
/// variable file of one family), Answer Serif (versions 1 and 2 of one font, the older first
/// in fontconfig's order), Answer Slant (an italic that is only a `slnt` position) and Answer
/// Flat (a `wght` axis that varies nothing).
@Suite(.serialized) final class FaceAnswerTests {
  let environment: FontEnvironment
  let folder: String

  init() throws {
    environment = try FontEnvironment(configFile: TestFonts.fixtures + "/answers.conf")
    folder = try TestFonts.temporaryFolder()
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  /// What the fixtures' few characters can set.
  static let text = "Hamburgefonstiv"

  func family(_ name: String) throws -> FontFamily {
    try #require(environment.catalog.family(named: name))
  }

  func specimen(_ request: SpecimenRequest<FontFamily>, _ name: String) throws -> (
    RasterImage, [String]
  ) {
    let path = folder + "/\(name).png"
    let result = try SpecimenRenderer(environment: environment).render(request, to: path)
    return (try #require(RasterImage.load(png: path)), result.warnings)
  }

  @Test func aStaticAndAVariableFileAnswerEachForWhatTheyCanDraw() throws {
    let sans = try family("Answer Sans")
    // Without coordinates: the file fontconfig prefers (fc-match's answer), the static one.
    #expect(sans.regularFace?.file.hasSuffix("AnswerSans-Regular.ttf") == true)
    // The variable file's regular is left out of drawings; its other instances are the only
    // faces of their styles.
    #expect(
      !sans.drawnFaces.contains {
        $0.file.hasSuffix("AnswerSans-VF.ttf") && $0.weight == 80 && $0.slant == 0
      })
    #expect(sans.drawnFaces.contains { $0.file.hasSuffix("AnswerSans-VF.ttf") && $0.weight == 200 })
    #expect(sans.drawnFrom?.regular?.hasSuffix("AnswerSans-Regular.ttf") == true)
    #expect(sans.drawnFrom?.variable?.hasSuffix("AnswerSans-VF.ttf") == true)
    // Axes and instances are read from the variable file, not the static regular.
    let report = FamilyProofReport.read(
      sans, options: ProofOptions(axes: true, features: false, languages: false, glyphs: false))
    #expect(report.axes?.map(\.tag) == ["wght"])
    #expect((report.instances?.count ?? 0) >= 9)
    #expect(report.warnings.isEmpty, "\(report.warnings)")
    // Coordinates change what is drawn: the sample at 100 and at 900 differ from the default.
    let plain = try specimen(SpecimenRequest(family: sans, text: Self.text), "plain")
    let thin = try specimen(
      SpecimenRequest(
        family: sans, text: Self.text,
        sample: SampleSettings(variations: [.init(tag: "wght", value: 100)])),
      "thin")
    let black = try specimen(
      SpecimenRequest(
        family: sans, text: Self.text,
        sample: SampleSettings(variations: [.init(tag: "wght", value: 900)])),
      "black")
    #expect(thin.1.isEmpty && black.1.isEmpty, "\(thin.1) \(black.1)")
    #expect(plain.0.pixels != thin.0.pixels)
    #expect(thin.0.pixels != black.0.pixels)
  }

  @Test func sweepsAndInstancesAreDrawnFromTheVariableFile() throws {
    let sans = try family("Answer Sans")
    let file = try #require(sans.axesFile)
    let cut = try #require(sans.variableCut(files: [file]))
    #expect(cut.faces.allSatisfy { $0.file == file })
    let cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
    var spec = FontSpec(family: cut.name, size: 24, face: cut.regularFace)
    spec.variations = [VariationSetting(tag: "wght", value: 900)]
    let loaded = try FontMaps(environment: environment).map(for: [cut]).makeContext(for: cr)
      .loadedFile(for: spec)
    #expect(loaded?.file == file, "\(String(describing: loaded))")
    // And what is swept there varies: no warning.
    let proofs = try ProofReader.read(sans)
    #expect(proofs.unvaried.isEmpty, "\(proofs.unvaried)")
  }

  @Test func twoVersionsAnswerWithTheNewer() throws {
    let serif = try family("Answer Serif")
    #expect(Set(serif.files.map { URL(fileURLWithPath: $0).lastPathComponent }).count == 2)
    #expect(serif.regularFace?.file.hasSuffix("AnswerSerif-B-new.ttf") == true)
    #expect(
      serif.drawnFaces.map { URL(fileURLWithPath: $0.file).lastPathComponent } == [
        "AnswerSerif-B-new.ttf"
      ])
    // The coverage is the newer file's: it has the sharp s the older lacks.
    #expect(serif.coverage.missing(in: "ß").isEmpty)
    let (_, warnings) = try specimen(SpecimenRequest(family: serif, text: "Hamburg ß"), "serif")
    #expect(!warnings.contains { $0.contains("lacks") || $0.contains("missing") }, "\(warnings)")
  }

  @Test func anItalicThatIsOnlyASlantPositionIsDrawnAtIt() throws {
    let slant = try family("Answer Slant")
    #expect(slant.hasItalic)
    let italic = try #require(slant.face(bold: false, italic: true))
    #expect(italic.coordinates == ["slnt": -10])
    #expect(slant.face(bold: true, italic: true)?.coordinates == ["slnt": -10, "wght": 700])
    let upright = try specimen(SpecimenRequest(family: slant, text: Self.text), "upright")
    let leaning = try specimen(
      SpecimenRequest(family: slant, text: Self.text, italic: true), "leaning")
    #expect(leaning.1.isEmpty, "\(leaning.1)")
    #expect(upright.0.pixels != leaning.0.pixels)
    // Not in the family's map of real faces: it is drawn from a map of its own.
    #expect(!slant.drawnFaces.contains(italic))
  }

  @Test func anAxisThatVariesNothingIsAWarning() throws {
    let flat = try family("Answer Flat")
    let report = FamilyProofReport.read(
      flat, options: ProofOptions(axes: true, features: false, languages: false, glyphs: false))
    #expect(report.axes?.map(\.tag) == ["wght"])
    #expect(
      report.warnings.contains {
        $0.contains("wght 100–900: the face drawn does not vary")
      }, "\(report.warnings)")
    #expect(report.warnings.contains { $0.contains("are drawn alike") }, "\(report.warnings)")
    // The proof page says so where the sweep is drawn.
    let proofs = try ProofReader.read(flat)
    let data = CatalogueProofData(proofs: proofs, showsAxes: true)
    let items = CataloguePlan.proofItems(0, data, CataloguePlan.Geometry(.a4))
    let notes = items.compactMap { item -> String? in
      if case .proofNote(_, let text) = item.content { return text }
      return nil
    }
    #expect(notes.contains("wght 100–900: the face drawn does not vary"), "\(notes)")
  }

  @Test func aFamilyWithOneFileAPieceIsAsBefore() throws {
    let dejavu = try family("DejaVu Serif")
    #expect(dejavu.drawnFrom == nil)
    #expect(dejavu.variableFiles.isEmpty)
    #expect(dejavu.drawnFaces == dejavu.faces)
  }
}
