import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A face named is the face drawn. fontconfig weighs a family's faces by language coverage
/// before weight and slant, so a real but incomplete bold (EB Garamond's "12 Bold" on Debian,
/// which fontconfig credits with no English) loses a bold request to the family's regular.
/// Fixture: Fonti Test Optical (`Fixtures/FaceFonts`), whose "12 Bold" lacks U+00EF.
@Suite(.serialized) final class FaceMatchingTests {
  let environment: FontEnvironment
  let family: FontFamily
  let bold: FontFace
  let folder: String

  init() throws {
    environment = try FontEnvironment(configFile: TestFonts.fixtures + "/faces.conf")
    family = try #require(environment.catalog.family(named: "Fonti Test Optical"))
    bold = try #require(family.face(bold: true, italic: false))
    folder = try TestFonts.temporaryFolder()
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  @Test func aMapHoldingOnlyTheFaceLoadsIt() throws {
    #expect(bold.style == "12 Bold" && bold != family.regularFace)
    let cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
    let maps = FontMaps(environment: environment)
    let spec = FontSpec(family: family.name, size: 24, face: bold)
    // What the test is about: over the whole family, fontconfig answers with the regular.
    let whole = try maps.map(for: [family]).makeContext(for: cr).loadedFile(for: spec)
    #expect(
      whole?.file.hasSuffix("FontiTestOptical-08Regular.ttf") == true,
      "\(String(describing: whole))")
    let only = try maps.map(for: family, only: bold).makeContext(for: cr).loadedFile(for: spec)
    #expect(only?.file == bold.file)
  }

  /// A family's map leaves out a face another shadows in an optical size nearer text size
  /// (EB Garamond's "08 Regular" beside its "12 Regular"): fontconfig cannot tell them apart by
  /// what Pango asks for. Here "12 Regular" is recorded for the 12 Bold's file, so that what
  /// the map draws a regular request with tells which faces it holds.
  @Test func aFamilyMapLeavesOutFacesItsTextCutShadows() throws {
    var optical = family
    optical.faces.append(
      FontFace(style: "12 Regular", weight: 80, slant: 0, file: bold.file, format: bold.format))
    #expect(optical.regularFace?.style == "12 Regular")
    #expect(!optical.drawnFaces.contains { $0.style == "08 Regular" })
    let cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
    let spec = FontSpec(family: family.name, size: 24, face: optical.regularFace)
    let loaded = try FontMaps(environment: environment).map(for: [optical]).makeContext(for: cr)
      .loadedFile(for: spec)
    #expect(loaded?.file == bold.file, "\(String(describing: loaded))")
  }

  @Test func aSpecimenInBoldIsSetInTheBoldFace() throws {
    let renderer = SpecimenRenderer(environment: environment)
    var images: [RasterImage] = []
    for asBold in [false, true] {
      let path = folder + "/\(asBold ? "bold" : "regular").png"
      let result = try renderer.render(SpecimenRequest(family: family, bold: asBold), to: path)
      #expect(result.warnings.isEmpty, "\(result.warnings)")
      images.append(try #require(RasterImage.load(png: path)))
    }
    // The same page but for the sample: in the 12 Bold it differs from the regular's.
    let same = images[0].pixels == images[1].pixels
    #expect(!same, "the bold specimen is the regular one")
  }

  /// A pairing sheet's heading is set in the heading family's bold: its pixels differ from the
  /// same sheet drawn for a family that has only its regular face.
  @Test func aPairingHeadingIsSetInTheBoldFace() throws {
    let renderer = SpecimenRenderer(environment: environment)
    var regularOnly = family
    regularOnly.faces = family.faces.filter { $0 == family.regularFace }
    #expect(regularOnly.face(bold: true, italic: false) == nil)
    var images: [RasterImage] = []
    for (name, heading) in [("bold", family), ("regular", regularOnly)] {
      let path = folder + "/pairing-\(name).png"
      _ = try renderer.renderPairing(
        PairingSheetRequest(heading: heading, body: family, reason: "r", edge: 256), to: path)
      images.append(try #require(RasterImage.load(png: path)))
    }
    let same = images[0].pixels == images[1].pixels
    #expect(!same, "the heading is drawn in the regular face")
  }

  @Test func theCataloguesStyleCellsEmbedEachFaceTheyName() throws {
    let input = CatalogueInput(
      title: "Faces", author: "Fonti tests", families: [family],
      creationDate: CatalogueFixture.date)
    let path = folder + "/faces.pdf"
    _ = try CatalogueWriter(environment: environment).write(input, to: path)
    guard let fonts = Tool.run("pdffonts", [path]) else { return }
    #expect(fonts.output.contains("FontiTestOptical-12Bold"), "\(fonts.output)")
    #expect(fonts.output.contains("FontiTestOptical-08Regular"), "\(fonts.output)")
  }
}
