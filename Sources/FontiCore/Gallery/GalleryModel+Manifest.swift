import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension GalleryModel {
  /// The gallery of a run's output folder, from its `manifest.json` bytes: what `run` writes
  /// after its manifest, and what `merge` can build from a merged one. Reads only what the
  /// manifest lists and two things beside it in `output`: each thumbnail's size (its PNG
  /// header) and the `diff` review of a `*/diff.json` directly under the folder. Fields that
  /// other versions add to a family (`axes`, `languages` of the proofs) are read when present.
  ///
  /// Everything outside the manifest's own shape is input: a `diff.json` that cannot be read
  /// or makes no sense gives no diff link and a warning (`warn`), a thumbnail that is not a
  /// PNG is left out (the card shows the specimen). Throws only when `manifest` is not a run
  /// manifest.
  public init(
    manifest: Data, output: String, date: Date? = nil,
    warn: (Diagnostic) -> Void = { _ in }
  ) throws(Diagnostic) {
    guard let run = RunManifest.decode(manifest) else {
      throw .error("gallery: the run's manifest cannot be read as a version-1 manifest")
    }
    let extras = ManifestExtras(manifest)
    var pagesByFamily: [String: [CataloguePage]] = [:]
    for c in run.catalogues {
      for entry in c.families ?? [] where (1...max(1, c.pages)).contains(entry.page) {
        pagesByFamily[entry.family, default: []].append(
          CataloguePage(file: c.file, page: entry.page))
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
    let families = run.families.enumerated().map { i, f -> Family in
      let specimen = f.files.first { $0.path.hasPrefix(OutputLayout.specimens + "/") }?.path
      let thumbnail = f.files.first { $0.path.hasPrefix(OutputLayout.thumbs + "/") }.flatMap {
        file -> Image? in
        guard let (width, height) = GalleryModel.pngSize(output + "/" + file.path) else {
          return nil
        }
        return Image(path: file.path, width: width, height: height)
      }
      let extra = i < extras.families.count ? extras.families[i] : nil
      return Family(
        name: f.family, slug: f.slug, specimen: specimen, thumbnail: thumbnail, styles: f.styles,
        bold: f.bold, italic: f.italic, custom: f.custom, saved: f.saved,
        missingGlyphs: f.missingGlyphs, warnings: f.warnings, error: f.error,
        axes: extra?.name == f.family ? extra?.axes ?? [] : [],
        languages: extra?.name == f.family ? extra?.languages ?? [] : [],
        cataloguePages: pagesByFamily[f.family] ?? [], pairings: pairingsByFamily[f.family] ?? [])
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

  /// The largest `diff.json` read: a review of thousands of families is far below this.
  static let diffReadLimit = 64 << 20

  /// The `diff` review lying in `output`: the first folder directly under it (by name, `diff`
  /// first) holding a `diff.json`; its counts read defensively; links to its `diff.pdf` and
  /// `diff.md` when they are there. Nil when there is none, or when its `diff.json` cannot be
  /// read or is not a review (then `warn` is told).
  static func diffReview(in output: String, warn: (Diagnostic) -> Void) -> DiffReview? {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: output) else {
      return nil
    }
    let folders = names.filter { name in
      guard !name.hasPrefix("."), HTML.relativeURL(name + "/diff.json") != nil,
        FileStamp.state(output + "/" + name + "/diff.json") != nil
      else { return false }
      var info = stat()
      return lstat(output + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }.sorted { ($0 == "diff" ? 0 : 1, $0) < ($1 == "diff" ? 0 : 1, $1) }
    guard let folder = folders.first else { return nil }
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

/// What the gallery reads from a manifest beyond `RunManifest`'s own fields: the proofs' `axes`
/// and `languages` of each family, when a version that records them wrote the manifest. Read
/// leniently: a field of another shape is ignored.
struct ManifestExtras {
  struct Family {
    var name: String
    var axes: [GalleryModel.Axis]
    var languages: [GalleryModel.Language]
  }

  var families: [Family] = []

  init(_ manifest: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: manifest) as? [String: Any],
      let list = object["families"] as? [Any]
    else { return }
    families = list.map { item in
      let f = item as? [String: Any] ?? [:]
      let axes = (f["axes"] as? [Any] ?? []).compactMap { a -> GalleryModel.Axis? in
        guard let a = a as? [String: Any], let tag = a["tag"] as? String,
          let min = (a["min"] as? NSNumber)?.doubleValue,
          let max = (a["max"] as? NSNumber)?.doubleValue, min.isFinite, max.isFinite
        else { return nil }
        return GalleryModel.Axis(tag: tag, min: min, max: max)
      }
      // `languages`: `{ "supported": [codes], … }` (SPEC.md), or a plain list of codes.
      let codes: [Any] =
        (f["languages"] as? [String: Any])?["supported"] as? [Any] ?? f["languages"] as? [Any]
        ?? []
      var seen = Set<String>()
      let languages = codes.compactMap { $0 as? String }.filter {
        !$0.isEmpty && $0.utf8.count <= 35 && seen.insert($0).inserted
      }.map { GalleryModel.Language(code: $0, name: Languages.name(of: $0)) }
      return Family(name: f["family"] as? String ?? "", axes: axes, languages: languages)
    }
  }
}
