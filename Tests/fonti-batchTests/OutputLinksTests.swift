import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Links planted inside an output folder never send a write outside it (issue #54 item 1): a
/// file the tool writes that is a link is replaced, the link itself, and what it points to is
/// left alone; a folder it writes into, its lock file, and a favourites manifest inside it that
/// are links are refused (exit 2, naming them). Each link leads to a decoy outside the output
/// folder, which must come through byte for byte. These tests run as whoever runs the suite;
/// as root (CI, and where they were written) a followed link would replace any file.
@Suite(.serialized) struct OutputLinksTests {
  /// Two families, a pairing sheet, a catalogue in a sub-folder, a saved family, the gallery.
  static let job = """
    version: 1
    title: Links
    families:
      include: ["Cantarell", "DejaVu Serif"]
    favourites:
      save: [DejaVu Serif]
    png:
      edge: 256
    catalogues:
      - file: books/catalogue.pdf
    pairings:
      curated: false
      extra:
        - { heading: Cantarell, body: DejaVu Serif }

    """

  static let decoyBytes = Data("decoy: not to be touched\n".utf8)

  func sandbox(_ job: String = OutputLinksTests.job) throws -> CLISandbox {
    let box = try CLISandbox("fonti-links")
    try box.write("specimens.yaml", job)
    try box.write("decoys/file", OutputLinksTests.decoyBytes)
    try box.write("decoys/folder/kept.png", OutputLinksTests.decoyBytes)
    return box
  }

  /// What lies under the decoys' folder, by relative path, with each file's bytes.
  func decoys(_ box: CLISandbox) throws -> [String: Data] {
    var found: [String: Data] = [:]
    let root = box.path("decoys")
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
    for case let name as String in walker {
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder)
      found[name] = isFolder.boolValue ? Data() : box.read("decoys/" + name) ?? Data([0])
    }
    return found
  }

  func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// Replaces `relative` (a file or a folder) by a link to `target`.
  func plant(_ box: CLISandbox, _ relative: String, to target: String) throws {
    try? FileManager.default.removeItem(atPath: box.path(relative))
    try FileManager.default.createDirectory(
      atPath: FileSystemPaths.folder(of: box.path(relative)), withIntermediateDirectories: true)
    #expect(symlink(target, box.path(relative)) == 0, "\(relative)")
  }

  /// A link where the run writes a file is replaced, the link itself; its target is left. The
  /// manifest is tried on its own, in a fresh folder: with `manifest.json` a link, the folder
  /// has no manifest of the run's, and the files of an earlier run are nobody's the run may
  /// replace (`UserFilesTests`).
  @Test func everyFileWrittenThroughALinkReplacesTheLinkNotItsTarget() throws {
    let box = try sandbox()
    let first = try box.run(["run", "-q"])
    #expect(first.status == 0, "\(first)")
    let before = try decoys(box)
    let files = [
      "output/index.html", "output/favourites.json",
      "output/specimens/cantarell.png", "output/specimens/dejavu-serif.png",
      "output/pairings/cantarell+dejavu-serif.png", "output/thumbs/cantarell.png",
      "output/books/catalogue.pdf",
    ]
    for file in files where file != "output/favourites.json" {
      #expect(isRegularFile(box.path(file)), "\(file)")
      try plant(box, file, to: box.path("decoys/file"))
    }
    // Drawn again (the links' targets are not the files recorded), every link replaced.
    let again = try box.run(["run", "-q"])
    #expect(again.status == 0, "\(again)")
    #expect(try decoys(box) == before)
    for file in files { #expect(isRegularFile(box.path(file)), "\(file)") }

    // A forced run meets the same links (and a dangling one) the same way.
    for file in files where file != "output/favourites.json" {
      try plant(box, file, to: box.path(file.hasSuffix(".png") ? "decoys/file" : "decoys/none"))
    }
    let forced = try box.run(["run", "-q", "--force"])
    #expect(forced.status == 0, "\(forced)")
    #expect(try decoys(box) == before)
    for file in files { #expect(isRegularFile(box.path(file)), "\(file)") }

    // The manifest: a link to a file, then a dangling one, in a fresh folder.
    for target in ["decoys/file", "decoys/none"] {
      try FileManager.default.removeItem(atPath: box.path("output"))
      try plant(box, "output/manifest.json", to: box.path(target))
      let fresh = try box.run(["run", "-q"])
      #expect(fresh.status == 0, "\(fresh)")
      #expect(isRegularFile(box.path("output/manifest.json")))
      #expect(try decoys(box) == before)
    }
  }

  @Test func aFolderThatIsALinkIsRefusedAndNothingIsWrittenThrough() throws {
    for folder in ["specimens", "pairings", "thumbs", "books"] {
      let box = try sandbox()
      try plant(box, "output/" + folder, to: box.path("decoys/folder"))
      let before = try decoys(box)
      let result = try box.run(["run", "-q"])
      #expect(result.status == 2, "\(folder): \(result)")
      #expect(
        result.stderr.contains("'\(box.path("output/" + folder))' is a symbolic link"),
        "\(result)")
      #expect(result.stderr.contains("hint: replace the link with a real folder"), "\(result)")
      #expect(try decoys(box) == before, "\(folder)")
      #expect(isLink(box.path("output/" + folder)))
    }
  }

  @Test func theLockFileAndAFavouritesManifestInsideTheOutputAreNeverFollowed() throws {
    for (file, hint) in [
      ("output/.fonti-batch.lock", "remove the link"),
      ("output/favourites.json", "set favourites.manifest to the file the link points to"),
      ("output/.favourites.json.lock", "set favourites.manifest to the file the link points to"),
    ] {
      for target in ["decoys/file", "decoys/missing"] {
        let box = try sandbox()
        try plant(box, file, to: box.path(target))
        let before = try decoys(box)
        let result = try box.run(["run", "-q"])
        #expect(result.status == 2, "\(file): \(result)")
        #expect(result.stderr.contains("symbolic link"), "\(result)")
        #expect(result.stderr.contains("hint: " + hint), "\(result)")
        #expect(try decoys(box) == before, "\(file) → \(target)")
        #expect(box.read("output/manifest.json") == nil)
      }
    }
  }

  /// A favourites manifest the user names (`saved --manifest`) is their own path: a link there
  /// is followed, as always, and the file it points to is changed.
  @Test func aFavouritesManifestOutsideAnOutputFolderStillFollowsItsLink() throws {
    let box = try sandbox()
    try box.write("real/favourites.json", #"{"version": 1, "saved": []}"#)
    #expect(symlink(box.path("real/favourites.json"), box.path("shared.json")) == 0)
    let result = try box.run(["saved", "add", "--manifest", "shared.json", "DejaVu Serif"])
    #expect(result.status == 0, "\(result)")
    #expect(isLink(box.path("shared.json")))
    let saved = String(decoding: box.read("real/favourites.json") ?? Data(), as: UTF8.self)
    #expect(saved.contains("DejaVu Serif"), "\(saved)")
  }

  @Test func aShardAndAMergeReplaceLinksAndRefuseLinkedFolders() throws {
    let box = try sandbox()
    for k in 1...2 {
      try plant(box, "s-\(k)/shard.json", to: box.path("decoys/file"))
      let result = try box.run(["run", "-q", "-o", "s-\(k)", "--shard", "\(k)/2"])
      #expect(result.status == 0, "\(result)")
      #expect(isRegularFile(box.path("s-\(k)/shard.json")))
    }
    let before = try decoys(box)
    try plant(box, "merged/manifest.json", to: box.path("decoys/file"))
    try plant(box, "merged/specimens", to: box.path("decoys/folder"))
    let refused = try box.run(["merge", "-q", "s-1", "s-2", "-o", "merged"])
    #expect(refused.status == 2, "\(refused)")
    #expect(refused.stderr.contains("merged/specimens' is a symbolic link"), "\(refused)")
    #expect(try decoys(box) == before)

    try FileManager.default.removeItem(atPath: box.path("merged/specimens"))
    let merged = try box.run(["merge", "-q", "s-1", "s-2", "-o", "merged"])
    #expect(merged.status == 0, "\(merged)")
    #expect(isRegularFile(box.path("merged/manifest.json")))
    #expect(isRegularFile(box.path("merged/specimens/cantarell.png")))
    #expect(try decoys(box) == before)
  }

  @Test func aReviewReplacesLinkedFilesAndRefusesALinkedChangesFolder() throws {
    let fixtures = Repository.fixtures + "/Diff"
    let box = try sandbox()
    let arguments = ["diff", fixtures + "/base", fixtures + "/changed", "-o", "review"]
    try plant(box, "review/changes", to: box.path("decoys/folder"))
    let before = try decoys(box)
    let refused = try box.run(arguments)
    #expect(refused.status == 2, "\(refused)")
    #expect(refused.stderr.contains("review/changes' is a symbolic link"), "\(refused)")
    #expect(try decoys(box) == before)

    try FileManager.default.removeItem(atPath: box.path("review/changes"))
    let names = ["diff.json", "diff.md", "diff.pdf", "changes/fixture-garamond.png"]
    for name in names { try plant(box, "review/" + name, to: box.path("decoys/file")) }
    let written = try box.run(arguments)
    #expect(written.status == 0, "\(written)")
    for name in names { #expect(isRegularFile(box.path("review/" + name)), "\(name)") }
    #expect(try decoys(box) == before)

    try plant(box, "review/.fonti-batch.lock", to: box.path("decoys/missing"))
    let locked = try box.run(arguments)
    #expect(locked.status == 2, "\(locked)")
    #expect(try decoys(box) == before)
  }
}

/// Path helpers of the tests, from the string alone.
enum FileSystemPaths {
  static func folder(of path: String) -> String {
    (path as NSString).deletingLastPathComponent
  }
}
