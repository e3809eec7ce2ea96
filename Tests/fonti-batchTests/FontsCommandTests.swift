import Foundation
import Testing

/// `fonts [list]`, `fonts import`, `fonts remove`, run as the built binary.
@Suite struct FontsCommandTests {
  /// The library's font files (no hidden lock or temporary files), sorted.
  func libraryFiles(_ sandbox: CLISandbox) -> [String] {
    sandbox.list(sandbox.library).filter { !$0.hasPrefix(".") }
  }

  @Test func emptyLibrary() throws {
    let sandbox = try CLISandbox()
    let list = try sandbox.run(["fonts"])
    #expect(list.status == 0, "\(list)")
    #expect(list.stdout.isEmpty)
    #expect(list.stderr.contains("No imported fonts yet"))
    let json = try sandbox.run(["fonts", "list", "--json"])
    #expect(json.status == 0)
    #expect(
      json.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]"
        || json.stdout
          .trimmingCharacters(in: .whitespacesAndNewlines) == "[]"
    )
    #expect(!FileManager.default.fileExists(atPath: sandbox.library))
  }

  @Test func importListAndReimport() throws {
    let sandbox = try CLISandbox()
    let regular = Repository.fonts + "/Cantarell-Regular.otf"
    let bold = Repository.fonts + "/Cantarell-Bold.otf"
    let result = try sandbox.run(["fonts", "import", regular, bold])
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stdout
        == "Imported Cantarell-Regular.otf: Cantarell\nImported Cantarell-Bold.otf: Cantarell\n")
    // Cantarell is also a (test) system family: a warning says the imported fonts win.
    #expect(result.stderr.contains("warning: family 'Cantarell' is also installed on the system"))
    #expect(libraryFiles(sandbox) == ["Cantarell-Bold.otf", "Cantarell-Regular.otf"])
    #expect(
      FileManager.default.contentsEqual(
        atPath: regular, andPath: sandbox.library + "/Cantarell-Regular.otf"))

    let list = try sandbox.run(["fonts", "list"])
    #expect(list.status == 0)
    #expect(list.stdout == "Cantarell  2 files  Cantarell-Bold.otf, Cantarell-Regular.otf\n")
    let json = try sandbox.run(["fonts", "--json"])
    let entries = try JSONDecoder().decode([[String: JSONValue]].self, from: Data(json.stdout.utf8))
    #expect(entries.count == 1)
    #expect(entries.first?["family"] == .string("Cantarell"))

    // The same bytes again, under any name: nothing copied, exit 0.
    let copy = try sandbox.write(
      "elsewhere/renamed.otf", Data(contentsOf: URL(fileURLWithPath: bold)))
    let again = try sandbox.run(["fonts", "import", regular, copy])
    #expect(again.status == 0, "\(again)")
    #expect(
      again.stdout.contains("is already in the library (as Cantarell-Regular.otf); nothing copied.")
    )
    #expect(again.stdout.contains("renamed.otf is already in the library (as Cantarell-Bold.otf)"))
    #expect(libraryFiles(sandbox) == ["Cantarell-Bold.otf", "Cantarell-Regular.otf"])

    // Imported families are custom everywhere.
    let families = try sandbox.run(["families"])
    #expect(families.stdout.contains { _ in true })
    #expect(
      families.stdout.split(separator: "\n").contains {
        $0.hasPrefix("Cantarell") && $0.hasSuffix("custom")
      })
  }

  @Test func brokenFilesAreRefusedWithTheReasonAndTheRestIsImported() throws {
    let sandbox = try CLISandbox()
    let serif = try Repository.font("DejaVuSerif.ttf")
    let zero = try sandbox.write("bad/zero.ttf", Data())
    let truncated = try sandbox.write("bad/truncated.ttf", serif.prefix(4000))
    let text = try sandbox.write("bad/notafont.ttf", "This is not a font.\n")
    let headless = try sandbox.write("bad/tiny.otf", Data([0x4F, 0x54]))
    let good = Repository.fonts + "/NotoSansHebrew-Regular.ttf"
    let result = try sandbox.run(
      ["fonts", "import", zero, truncated, "bad/missing.ttf", text, good, headless])
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout == "Imported NotoSansHebrew-Regular.ttf: Noto Sans Hebrew\n")
    let expected = [
      "fonti-batch: error: font file '\(zero)' is empty (0 bytes); not imported",
      "fonti-batch: error: font file '\(truncated)' is truncated",
      "fonti-batch: error: font file 'bad/missing.ttf' does not exist; not imported",
      "fonti-batch: error: font file '\(text)' is not a TrueType or OpenType font; not imported",
      "fonti-batch: error: font file '\(headless)' is too short to be a font; not imported",
    ]
    for line in expected { #expect(result.stderr.contains(line), "\(line)\n\(result.stderr)") }
    #expect(libraryFiles(sandbox) == ["NotoSansHebrew-Regular.ttf"])
    #expect(!sandbox.list(sandbox.library).contains { $0.hasSuffix(".tmp") })
  }

  /// A pipe or a device named as a font is refused at once: opening a pipe for reading used
  /// to wait for a writer for ever.
  @Test(.timeLimit(.minutes(1))) func aPipeOrADeviceIsRefusedWithoutWaiting() throws {
    let sandbox = try CLISandbox()
    let pipe = sandbox.path("pipe.ttf")
    #expect(mkfifo(pipe, 0o600) == 0)
    for arguments in [["fonts", "import", pipe, "/dev/zero"], ["families", "--fonts", pipe]] {
      let result = try sandbox.run(arguments)
      #expect(result.status != 0, "\(result)")
      #expect(
        result.stderr.contains("'\(pipe)' is not a regular file (a pipe, a socket or a device)"),
        "\(result)")
    }
    #expect(libraryFiles(sandbox).isEmpty)
  }

  @Test func onlyRefusedFilesCreateNothing() throws {
    let sandbox = try CLISandbox()
    let text = try sandbox.write("readme.ttf", "hello")
    let result = try sandbox.run(["fonts", "import", text])
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: sandbox.library))
    let folder = try sandbox.run(["fonts", "import", sandbox.root + "/home"])
    #expect(folder.status == 1)
    #expect(
      folder.stderr.contains(
        "holds no font file (.ttf, .otf, .ttc, .otc, .woff or .woff2); not imported"))
    #expect(folder.stderr.contains("error: folder '"), "\(folder)")
  }

  @Test func aDifferentFileWithTheSameNameIsNeverOverwritten() throws {
    let sandbox = try CLISandbox()
    let first = try sandbox.write("a/Font.ttf", Repository.font("NotoSansHebrew-Regular.ttf"))
    let second = try sandbox.write("b/Font.ttf", Repository.font("DejaVuSerif.ttf"))
    #expect(try sandbox.run(["fonts", "import", first]).status == 0)
    let result = try sandbox.run(["fonts", "import", second])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "Imported Font-2.ttf: DejaVu Serif\n")
    #expect(libraryFiles(sandbox) == ["Font-2.ttf", "Font.ttf"])
    #expect(
      FileManager.default.contentsEqual(atPath: first, andPath: sandbox.library + "/Font.ttf"))
  }

  @Test func namesAreMadeSafe() throws {
    let sandbox = try CLISandbox()
    let hidden = try sandbox.write(".hidden.ttf", Repository.font("NotoSansHebrew-Regular.ttf"))
    let bare = try sandbox.write("CantarellFont", Repository.font("Cantarell-Regular.otf"))
    let result = try sandbox.run(["fonts", "import", hidden, bare])
    #expect(result.status == 0, "\(result)")
    // A leading dot would hide the file from every font scan; a font needs its extension.
    #expect(libraryFiles(sandbox) == ["CantarellFont.otf", "hidden.ttf"])
  }

  @Test func hostileFamilyNamesNeverReachTheTerminal() throws {
    let sandbox = try CLISandbox()
    // 16 characters, like "Noto Sans Hebrew": escape sequences, a bell, a path.
    let hostile = "\u{1B}[2J\u{07}../../evil!"
    let font = try FontBytes.renamingFamily(
      Repository.font("NotoSansHebrew-Regular.ttf"), from: "Noto Sans Hebrew", to: hostile)
    let file = try sandbox.write("evil.ttf", font)
    let imported = try sandbox.run(["fonts", "import", file])
    #expect(imported.status == 0, "\(imported)")
    let list = try sandbox.run(["fonts"])
    for output in [imported.stdout, imported.stderr, list.stdout, list.stderr] {
      #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }
    #expect(list.stdout.contains("../../evil!"))
    #expect(libraryFiles(sandbox) == ["evil.ttf"])
  }

  @Test func collections() throws {
    let sandbox = try CLISandbox()
    let ttc = FontBytes.collection([
      try Repository.font("NotoSansHebrew-Regular.ttf"), try Repository.font("DejaVuSerif.ttf"),
    ])
    let file = try sandbox.write("Pair.ttc", ttc)
    let imported = try sandbox.run(["fonts", "import", file])
    #expect(imported.status == 0, "\(imported)")
    #expect(imported.stdout == "Imported Pair.ttc: Noto Sans Hebrew, DejaVu Serif\n")
    let list = try sandbox.run(["fonts"])
    #expect(
      list.stdout == """
        DejaVu Serif      1 file   Pair.ttc
        Noto Sans Hebrew  1 file   Pair.ttc

        """)
    // One family alone would take the other with it: refused, nothing deleted.
    let alone = try sandbox.run(["fonts", "remove", "DejaVu Serif"])
    #expect(alone.status == 2, "\(alone)")
    #expect(alone.stderr.contains("cannot be removed alone"))
    #expect(alone.stderr.contains("also holds 'Noto Sans Hebrew'"))
    #expect(libraryFiles(sandbox) == ["Pair.ttc"])
    let both = try sandbox.run(["fonts", "remove", "dejavu serif", "NOTO SANS HEBREW"])
    #expect(both.status == 0, "\(both)")
    #expect(libraryFiles(sandbox).isEmpty)
  }

  @Test func removeDeletesOneFamilysFiles() throws {
    let sandbox = try CLISandbox()
    let files = ["DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "Cantarell-Regular.otf"].map {
      Repository.fonts + "/" + $0
    }
    #expect(try sandbox.run(["fonts", "import"] + files).status == 0)
    let unknown = try sandbox.run(["fonts", "remove", "DejaVu Serf", "Lato"])
    #expect(unknown.status == 2, "\(unknown)")
    #expect(
      unknown.stderr.contains(
        "error: family 'DejaVu Serf' is not in the font library (did you mean 'DejaVu Serif'?)"))
    #expect(unknown.stderr.contains("error: family 'Lato' is not in the font library"))
    #expect(libraryFiles(sandbox).count == 3)

    let removed = try sandbox.run(["fonts", "remove", "dejavu serif"])
    #expect(removed.status == 0, "\(removed)")
    #expect(
      removed.stdout == "Removed DejaVu Serif (2 files: DejaVuSerif-Bold.ttf, DejaVuSerif.ttf)\n")
    #expect(libraryFiles(sandbox) == ["Cantarell-Regular.otf"])
    // The test system's DejaVu Serif is untouched and still listed.
    let families = try sandbox.run(["families"])
    #expect(
      families.stdout.split(separator: "\n").contains {
        $0.hasPrefix("DejaVu Serif") && $0.hasSuffix("system")
      })
  }

  @Test func removeFromAnEmptyLibrary() throws {
    let sandbox = try CLISandbox()
    let result = try sandbox.run(["fonts", "remove", "Cantarell"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("family 'Cantarell' is not in the font library"))
  }

  @Test func usageErrors() throws {
    let sandbox = try CLISandbox()
    let typo = try sandbox.run(["fonts", "imprt", "x.ttf"])
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("unknown command 'fonts imprt' (did you mean 'fonts import'?)"))
    #expect(try sandbox.run(["fonts", "import"]).status == 2)
    #expect(try sandbox.run(["fonts", "remove"]).status == 2)
  }

  /// A link in the library is never followed: `fonts remove` deletes what the library lists,
  /// and must not reach a file outside it (a link to /usr/share/fonts, run as root).
  @Test func removeNeverDeletesThroughALinkOutOfTheLibrary() throws {
    let box = try CLISandbox("fonti-lib")
    let outside = box.root + "/outside"
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: box.library, withIntermediateDirectories: true)
    let font = try Repository.font("DejaVuSerif.ttf")
    try font.write(to: URL(fileURLWithPath: outside + "/DejaVuSerif.ttf"))
    try FileManager.default.createSymbolicLink(
      atPath: box.library + "/shared", withDestinationPath: outside)
    try FileManager.default.createSymbolicLink(
      atPath: box.library + "/linked.ttf", withDestinationPath: outside + "/DejaVuSerif.ttf")
    let list = try box.run(["fonts"])
    #expect(!list.stdout.contains("DejaVu Serif"), "\(list)")
    let remove = try box.run(["fonts", "remove", "DejaVu Serif"])
    #expect(remove.status == 2, "\(remove)")
    #expect(FileManager.default.fileExists(atPath: outside + "/DejaVuSerif.ttf"))
  }

  /// `fonts` names a library file it cannot use because its name is not UTF-8, rather than
  /// leaving it out of the list without a word.
  @Test func theListNamesALibraryFileItCannotReach() throws {
    let box = try CLISandbox("fonti-lib")
    try FileManager.default.createDirectory(
      atPath: box.library, withIntermediateDirectories: true)
    let font = try Repository.font("DejaVuSerif.ttf")
    try font.write(to: URL(fileURLWithPath: box.library + "/DejaVuSerif.ttf"))
    var name = Array((box.library + "/De").utf8CString.dropLast())
    name += [CChar(bitPattern: 0xFF)] + Array("ja.ttf".utf8CString)
    let fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(fd >= 0)
    _ = font.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    let result = try box.run(["fonts"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("DejaVu Serif"))
    #expect(
      result.stderr.contains(
        "/De\\xFFja.ttf' has a name that is not UTF-8: rename it (in the font library; skipped)"),
      "\(result)")
    // `fonts remove` says it too: that file is not removed with its family.
    let removed = try box.run(["fonts", "remove", "DejaVu Serif"])
    #expect(removed.status == 0, "\(removed)")
    #expect(removed.stderr.contains("has a name that is not UTF-8"), "\(removed)")
  }

  /// A subfolder that can be listed but not searched (read without execute permission): its
  /// fonts cannot be reached, which is an error naming it, not fonts silently left out. Run as
  /// an unprivileged user (root reads through any permission).
  @Test func aFolderThatCannotBeSearchedIsAnError() throws {
    let box = try CLISandbox("fonti-perm")
    let font = try Repository.font("DejaVuSerif.ttf")
    try box.write("fonts/DejaVuSerif.ttf", font)
    try box.write("fonts/sub/Other.ttf", font)
    for folder in [box.root, box.work, box.path("fonts")] {
      chmod(folder, 0o755)
    }
    chmod(box.path("fonts/sub"), 0o644)
    defer { chmod(box.path("fonts/sub"), 0o755) }
    let through =
      getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    if !through.isEmpty, !FileManager.default.isExecutableFile(atPath: through[0]) {
      Issue.record("setpriv (util-linux) is needed to run this test as root")
      return
    }
    let result = try box.run(["families", "--fonts", box.path("fonts")], through: through)
    #expect(result.status == 2, "\(result)")
    #expect(
      result.stderr.contains("fonts/sub' cannot be searched (Permission denied)"),
      "\(result)")
  }
}

/// Just enough JSON to look at the tool's output in tests.
enum JSONValue: Decodable, Equatable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case array([JSONValue])
  case object([String: JSONValue])
  case null

  init(from decoder: Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? c.decode(Double.self) {
      self = .number(n)
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else if let a = try? c.decode([JSONValue].self) {
      self = .array(a)
    } else {
      self = .object(try c.decode([String: JSONValue].self))
    }
  }

}
