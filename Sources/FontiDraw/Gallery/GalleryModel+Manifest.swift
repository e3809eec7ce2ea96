import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension GalleryModel {
  /// The gallery of a run's output folder, from its `manifest.json` bytes (a manifest on disk;
  /// `run` and `merge` use `init(run:output:date:warn:)` with the manifest they hold). Throws
  /// only when `manifest` is not a run manifest (the proof fields of another shape make it none).
  public init(
    manifest: Data, output: String, date: Date? = nil,
    warn: (Diagnostic) -> Void = { _ in }
  ) throws(Diagnostic) {
    guard let run = RunManifest.decode(manifest) else {
      throw .error("gallery: the run's manifest cannot be read as a version-1 manifest")
    }
    self.init(run: run, output: output, date: date, warn: warn)
  }

  /// The gallery of a run's output folder, from its manifest: what `run` writes after its
  /// manifest. Reads only what the manifest lists and two things beside it in `output`: each
  /// thumbnail's and specimen's size (their PNG headers; the manifest records their checksums)
  /// and the `diff` review of a `*/diff.json` directly under the folder (`pageInputs` names it).
  ///
  /// Everything outside the manifest is input: a `diff.json` that cannot be read or makes no
  /// sense gives no diff link and a warning (`warn`), a thumbnail that is not a PNG is left out
  /// (the card shows the specimen).
  public init(
    run: RunManifest, output: String, date: Date? = nil, warn: (Diagnostic) -> Void = { _ in }
  ) {
    var pagesByFamily: [String: [CataloguePage]] = [:]
    for c in run.catalogues {
      let pages = 1...max(1, c.pages)
      for entry in c.families ?? [] where pages.contains(entry.page) {
        pagesByFamily[entry.family, default: []].append(
          CataloguePage(
            file: c.file, page: entry.page,
            facesPage: entry.facesPage.flatMap {
              pages.contains($0) ? $0 : nil
            }))
      }
    }
    var pairingsByFamily: [String: [Pairing]] = [:]
    for p in run.pairings {
      pairingsByFamily[p.heading, default: []].append(
        Pairing(file: p.file, partner: p.body, role: .heading))
      if p.body != p.heading {
        pairingsByFamily[p.body, default: []].append(
          Pairing(file: p.file, partner: p.heading, role: .body))
      }
    }
    // Most languages recur in most families: each is named once.
    var names: [String: String] = [:]
    func language(_ code: String) -> Language {
      if let name = names[code] { return Language(code: code, name: name) }
      let name = Languages.name(of: code)
      names[code] = name
      return Language(code: code, name: name)
    }
    let families = run.families.map { f -> Family in
      let specimen = f.files.first { $0.path.hasPrefix(OutputLayout.specimens + "/") }?.path
      let thumbnail = f.files.first { $0.path.hasPrefix(OutputLayout.thumbs + "/") }.flatMap {
        file -> Image? in
        guard let (width, height) = GalleryModel.pngSize(output + "/" + file.path) else {
          return nil
        }
        return Image(path: file.path, width: width, height: height)
      }
      let highDensity = thumbnail.flatMap { thumb -> String? in
        guard let specimen, let (width, _) = GalleryModel.pngSize(output + "/" + specimen),
          width >= 2 * thumb.width
        else { return nil }
        return specimen
      }
      let axes = (f.axes ?? []).filter { $0.min.isFinite && $0.max.isFinite }.map {
        Axis(tag: $0.tag, min: $0.min, max: $0.max)
      }
      var seen = Set<String>()
      let languages = (f.languages?.supported ?? []).filter {
        !$0.isEmpty && $0.utf8.count <= 35 && seen.insert($0).inserted
      }.map(language)
      return Family(
        name: f.family, slug: f.slug, specimen: specimen, thumbnail: thumbnail,
        highDensity: highDensity, styles: f.faces?.map(\.name) ?? f.styles,
        bold: f.bold, italic: f.italic, custom: f.custom, saved: f.saved,
        missingGlyphs: f.missingGlyphs, warnings: f.warnings, error: f.error, axes: axes,
        languages: languages, cataloguePages: pagesByFamily[f.family] ?? [],
        pairings: pairingsByFamily[f.family] ?? [])
    }
    self.init(
      title: run.title, tool: run.tool, date: date, families: families,
      catalogues: run.catalogues.map { Catalogue(file: $0.file, pages: $0.pages) },
      diff: GalleryModel.diffReview(in: output, warn: warn))
  }

  /// Width and height of the PNG at `path` from its header, or nil when it is not a regular
  /// file starting like a PNG.
  static func pngSize(_ path: String) -> (Int, Int)? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    var header = [UInt8](repeating: 0, count: 24)
    let n = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 24) }
    guard n == 24, let size = Thumbnail.pngDimensions(header) else { return nil }
    return (size.width, size.height)
  }

  /// The folders directly under `output` holding a `diff.json`, in the order the gallery
  /// prefers them (`diff` first, then by name).
  static func diffFolders(in output: String) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: output) else {
      return []
    }
    return names.filter { name in
      guard !name.hasPrefix("."), HTML.relativeURL(name + "/diff.json") != nil,
        FileStamp.state(output + "/" + name + "/diff.json") != nil
      else { return false }
      var info = stat()
      return lstat(output + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }.sorted { ($0 == "diff" ? 0 : 1, $0) < ($1 == "diff" ? 0 : 1, $1) }
  }

  /// What the page made from a manifest by `init(run:output:date:)` depends on besides that
  /// manifest, as a digest: the date, and each `diff` review's files (by size and time of
  /// change). Thumbnails are not among them: the manifest records each one's checksum, which a
  /// run checks. The same manifest with the same inputs gives the same page, so an unchanged
  /// re-run need not make it again.
  public static func pageInputs(output: String, date: Date?) -> String {
    var text = "gallery-2 date " + (date.map(Timestamp.format) ?? "-") + "\n"
    for folder in diffFolders(in: output) {
      for name in ["diff.json", "diff.pdf", "diff.md"] {
        let state = FileStamp.state(output + "/" + folder + "/" + name)
        text +=
          folder + "/" + name + " " + (state.map { "\($0.size) \($0.mtimeNs)" } ?? "-")
          + "\n"
      }
    }
    return SHA256.hex(Array(text.utf8))
  }

  /// The largest `diff.json` read: a review of thousands of families is far below this.
  static let diffReadLimit = 64 << 20

  /// The `diff` review lying in `output`: the first folder directly under it (by name, `diff`
  /// first) holding a `diff.json`; its counts read defensively; links to its `diff.pdf` and
  /// `diff.md` when they are there. Nil when there is none, or when its `diff.json` cannot be
  /// read or is not a review (then `warn` is told).
  static func diffReview(in output: String, warn: (Diagnostic) -> Void) -> DiffReview? {
    guard let folder = diffFolders(in: output).first else { return nil }
    let json = folder + "/diff.json"
    func refuse(_ why: String) -> DiffReview? {
      warn(
        .warning(
          "gallery: '\(Sanitize.terminal(json))' \(why); the gallery shows no diff review",
          hint: "write the review again with 'fonti-batch diff … -o \(output)/\(folder)'"))
      return nil
    }
    let data: Data
    do {
      guard let read = try AtomicFile.read(output + "/" + json, limit: diffReadLimit) else {
        return nil
      }
      data = read
    } catch {
      return refuse(error.message)
    }
    struct Head: Decodable {
      struct Counts: Decodable {
        var added: Int
        var removed: Int
        var changed: Int
        var unchanged: Int
        var failed: Int?
      }
      var version: Int
      var counts: Counts
    }
    guard let head = try? JSONDecoder().decode(Head.self, from: data), head.version == 1 else {
      return refuse("is not a diff review (version 1, with whole-number counts)")
    }
    let c = head.counts
    let numbers = [c.added, c.removed, c.changed, c.unchanged, c.failed ?? 0]
    guard numbers.allSatisfy({ (0...100_000_000).contains($0) }) else {
      return refuse("has counts out of range")
    }
    func present(_ name: String) -> String? {
      FileStamp.state(output + "/" + folder + "/" + name) != nil ? folder + "/" + name : nil
    }
    let review = DiffReview(
      report: present("diff.pdf"), summary: present("diff.md"),
      counts: .init(
        added: c.added, removed: c.removed, changed: c.changed, unchanged: c.unchanged,
        failed: c.failed ?? 0))
    return review.report == nil && review.summary == nil ? nil : review
  }
}
