import Foundation
import TestSupport
import Testing

@testable import FontiDraw
@testable import FontiSupport

/// `GalleryModel(manifest:output:)`: the gallery from a run's manifest bytes, with what other
/// versions add to a family (the proofs' `axes` and `languages`) read when present, and the
/// files beside the manifest treated as input.
@Suite struct GalleryModelManifestTests {
  /// A manifest with two families; `extra` is spliced into the first family's entry.
  static func manifest(extra: String = "", catalogueFamilies: String? = nil) -> Data {
    let families =
      catalogueFamilies
      ?? #"[{"family": "Alpha", "page": 3}, {"family": "Beta", "page": 4}]"#
    return Data(
      #"""
      {"version": 1, "tool": "fonti-batch 1.0.0", "title": "T", "durationSeconds": 1,
       "counts": {"families": 2, "rendered": 2, "skipped": 0, "failed": 0, "warnings": 0},
       "families": [
        {"family": "Alpha", "slug": "alpha", "custom": false, "saved": true, "styles": ["Regular"],
         "bold": false, "italic": false, "missingGlyphs": 0, "warnings": [], \#(extra)
         "files": [{"path": "specimens/alpha.png", "sha256": "a"},
                   {"path": "thumbs/alpha.png", "sha256": "b"}]},
        {"family": "Beta", "slug": "beta", "custom": false, "saved": false, "styles": [],
         "bold": false, "italic": false, "missingGlyphs": 2, "warnings": ["w"],
         "files": [{"path": "specimens/beta.png", "sha256": "c"}]}],
       "pairings": [{"heading": "Alpha", "body": "Beta", "file": "pairings/alpha+beta.png",
                     "sha256": "d"}],
       "catalogues": [{"file": "catalogue.pdf", "pages": 5, "sha256": "e",
                       "families": \#(families)}]}
      """#.utf8)
  }

  @Test func familiesPagesAndPairingsComeFromTheManifest() throws {
    let folder = try TemporaryDirectory("gallery-model")
    try FileManager.default.createDirectory(
      atPath: folder.path + "/thumbs", withIntermediateDirectories: true)
    // A thumbnail's size is read from its PNG header.
    var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    header += Array("IHDR".utf8) + [0, 0, 1, 14, 0, 0, 1, 14]
    try Data(header).write(to: URL(fileURLWithPath: folder.path + "/thumbs/alpha.png"))

    let model = try GalleryModel(manifest: Self.manifest(), output: folder.path)
    #expect(model.title == "T" && model.date == nil && model.diff == nil)
    #expect(model.catalogues == [.init(file: "catalogue.pdf", pages: 5)])
    let alpha = model.families[0]
    #expect(alpha.specimen == "specimens/alpha.png")
    #expect(alpha.thumbnail == .init(path: "thumbs/alpha.png", width: 270, height: 270))
    #expect(alpha.cataloguePages == [.init(file: "catalogue.pdf", page: 3)])
    #expect(
      alpha.pairings == [.init(file: "pairings/alpha+beta.png", partner: "Beta", role: .heading)])
    #expect(alpha.saved && alpha.axes.isEmpty && alpha.languages.isEmpty)
    let beta = model.families[1]
    #expect(beta.thumbnail == nil, "none listed")
    #expect(
      beta.pairings == [.init(file: "pairings/alpha+beta.png", partner: "Alpha", role: .body)])
    #expect(beta.missingGlyphs == 2 && beta.warnings == ["w"])
    // The page it makes is valid.
    _ = try GalleryPage.html(model)
  }

  /// A card offers the specimen for screens of twice the density or more only when the
  /// specimen is at least twice the thumbnail's width (both sizes from their PNG headers).
  @Test func theSpecimenServesDenseScreensWhenItIsTwiceTheThumbnail() throws {
    func png(width: Int) -> Data {
      let w = [
        UInt8((width >> 24) & 0xFF), UInt8((width >> 16) & 0xFF), UInt8((width >> 8) & 0xFF),
        UInt8(width & 0xFF),
      ]
      var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
      header += Array("IHDR".utf8) + w + w
      return Data(header)
    }
    let folder = try TemporaryDirectory("gallery-model")
    for sub in ["thumbs", "specimens"] {
      try FileManager.default.createDirectory(
        atPath: folder.path + "/" + sub, withIntermediateDirectories: true)
    }
    try png(width: 270).write(to: URL(fileURLWithPath: folder.path + "/thumbs/alpha.png"))
    for (specimen, dense) in [(1080, true), (540, true), (539, false), (320, false)] {
      try png(width: specimen).write(
        to: URL(fileURLWithPath: folder.path + "/specimens/alpha.png"))
      let model = try GalleryModel(manifest: Self.manifest(), output: folder.path)
      #expect(model.families[0].highDensity == (dense ? "specimens/alpha.png" : nil), "\(specimen)")
      let page = String(decoding: try GalleryPage.html(model), as: UTF8.self)
      #expect(
        page.contains(
          #"<img src="thumbs/alpha.png" srcset="thumbs/alpha.png 1x, specimens/alpha.png 2x""#)
          == dense, "\(specimen)")
    }
    // No thumbnail (Beta): the card shows the specimen itself, at every density.
    let model = try GalleryModel(manifest: Self.manifest(), output: folder.path)
    #expect(model.families[1].thumbnail == nil && model.families[1].highDensity == nil)
  }

  @Test func aThumbnailThatIsNotAPNGIsLeftOut() throws {
    let folder = try TemporaryDirectory("gallery-model")
    try FileManager.default.createDirectory(
      atPath: folder.path + "/thumbs/alpha.png", withIntermediateDirectories: true)
    let model = try GalleryModel(manifest: Self.manifest(), output: folder.path)
    #expect(model.families[0].thumbnail == nil)
  }

  @Test func proofsFieldsAreReadWhenPresent() throws {
    let extra = #"""
      "axes": [{"tag": "wght", "name": "Weight", "min": 100, "default": 400, "max": 900}],
      "languages": {"supported": ["fr", "de"], "nearly": []},
      """#
    let model = try GalleryModel(manifest: Self.manifest(extra: extra), output: "/nonexistent")
    #expect(model.families[0].axes == [.init(tag: "wght", min: 100, max: 900)])
    #expect(model.families[0].languages.map(\.code) == ["fr", "de"])
    #expect(model.families[0].languages.first?.name == "French")
    #expect(model.families[1].axes.isEmpty)
    // The proof fields are the manifest's own (`docs/outputs.md`): a manifest whose fields have another
    // shape is not one of ours, and says so instead of showing a page of guesses.
    #expect(throws: Diagnostic.self) {
      try GalleryModel(
        manifest: Self.manifest(extra: #""axes": "wght", "languages": 12,"#),
        output: "/nonexistent")
    }
  }

  @Test func cataloguePagesOutsideTheCatalogueAreLeftOut() throws {
    let model = try GalleryModel(
      manifest: Self.manifest(
        catalogueFamilies: #"[{"family": "Alpha", "page": 0}, {"family": "Beta", "page": 6}]"#),
      output: "/nonexistent")
    #expect(model.families.allSatisfy { $0.cataloguePages.isEmpty })
  }

  /// A family's weights page reaches the dialog; one outside the catalogue is left out.
  @Test func aWeightsPageComesFromTheManifest() throws {
    let model = try GalleryModel(
      manifest: Self.manifest(
        catalogueFamilies: #"[{"family": "Alpha", "page": 3, "facesPage": 4}, "#
          + #"{"family": "Beta", "page": 4, "facesPage": 9}]"#),
      output: "/nonexistent")
    #expect(
      model.families[0].cataloguePages == [.init(file: "catalogue.pdf", page: 3, facesPage: 4)])
    #expect(model.families[1].cataloguePages == [.init(file: "catalogue.pdf", page: 4)])
  }

  @Test func somethingElseThanAManifestIsAnError() {
    #expect(throws: Diagnostic.self) {
      try GalleryModel(manifest: Data("{}".utf8), output: "/nonexistent")
    }
  }
}
