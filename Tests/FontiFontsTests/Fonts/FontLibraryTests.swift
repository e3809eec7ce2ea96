import Foundation
import TestSupport
import Testing

@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// `FontLibrary`'s import, listing and removal, on a library in a temporary folder.
@Suite struct FontLibraryTests {
  func fixture(_ name: String) -> String { TestFixtures.fonts + "/" + name }

  @Test func importGroupsFamiliesAndRefusesDuplicates() throws {
    let dir = try TemporaryDirectory()
    let library = FontLibrary(directory: dir.file("library"))
    let outcomes = library.importFiles([
      fixture("DejaVuSerif.ttf"), fixture("DejaVuSerif-Bold.ttf"), fixture("DejaVuSerif.ttf"),
      dir.file("missing.otf"),
    ])
    #expect(outcomes.count == 4)
    guard case .imported(_, let destination, let families, false) = outcomes[0] else {
      Issue.record("\(outcomes[0])")
      return
    }
    #expect(destination == dir.file("library/DejaVuSerif.ttf"))
    #expect(families == ["DejaVu Serif"])
    #expect(
      outcomes[2]
        == .duplicate(
          source: fixture("DejaVuSerif.ttf"), existing: destination, families: ["DejaVu Serif"]))
    #expect(outcomes[3] == .refused(source: dir.file("missing.otf"), reason: "does not exist"))

    let (contents, problems) = library.contents()
    #expect(problems.isEmpty)
    #expect(
      contents == [
        FontLibrary.Family(
          name: "DejaVu Serif",
          files: [dir.file("library/DejaVuSerif-Bold.ttf"), dir.file("library/DejaVuSerif.ttf")])
      ])
  }

  @Test func aBrokenFileInTheLibraryIsAWarning() throws {
    let dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir.file("library"), withIntermediateDirectories: true)
    try dir.write("library/broken.ttf", "not a font")
    let (families, problems) = FontLibrary(directory: dir.file("library")).contents()
    #expect(families.isEmpty)
    #expect(problems.count == 1)
    #expect(problems.first?.severity == .warning)
  }

  @Test func removeValidatesEveryNameFirst() throws {
    let dir = try TemporaryDirectory()
    let library = FontLibrary(directory: dir.file("library"))
    _ = library.importFiles([fixture("Cantarell-Regular.otf"), fixture("D050000L.otf")])
    #expect(throws: DiagnosticError.self) {
      try library.remove(families: ["cantarell", "Nope"])
    }
    #expect(library.files.count == 2)
    let removed = try library.remove(families: ["CANTARELL"])
    #expect(removed.map(\.name) == ["Cantarell"])
    #expect(library.files == [dir.file("library/D050000L.otf")])
  }

  @Test func libraryNames() {
    #expect(FontLibrary.libraryName(for: "/x/Inter.ttf") == "Inter.ttf")
    #expect(FontLibrary.libraryName(for: "/x/..hidden.OTF") == "hidden.OTF")
    #expect(FontLibrary.libraryName(for: "/x/a\u{1B}b.ttf") == "a_b.ttf")
    #expect(FontLibrary.libraryName(for: "/x/...") == "font.ttf")
    #expect(
      FontLibrary.libraryName(for: TestFixtures.fonts + "/../Fonts/D050000L.otf") == "D050000L.otf")
  }
}
