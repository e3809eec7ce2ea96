import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a job file into a validated `Job`, reporting every problem at once.
///
/// Hand-written rather than `Codable` so that each problem has a line and column. `version:`
/// is checked first; after that the decoder never stops at the first mistake: it records a
/// diagnostic, keeps the default for that setting and goes on. Checks that need the installed
/// fonts (family names) happen later, against `Job`'s `Located` names and `source`.
public struct JobDecoder {
  /// The keys each mapping may have, in the order the example job writes them.
  static let topKeys = [
    "version", "title", "author", "output", "defaults", "texts", "families", "fonts", "sizes",
    "styles", "pairings", "favourites", "png", "proofs", "catalogues", "gallery",
  ]

  /// Reads, parses and validates the job file at `path` (`-` for standard input).
  ///
  /// Relative paths in the job are resolved against the file's folder (the current folder for
  /// standard input and for files under /dev and /proc). Throws every error (with the warnings
  /// found on the way) when there is at least one error. `waiting` is told, once, when nothing
  /// has arrived after a second (a FIFO with no writer, a terminal).
  public static func load(
    path: String, languages: LanguageCodes, waiting: ((String) -> Void)? = nil
  ) throws(DiagnosticError) -> (job: Job, warnings: [Diagnostic]) {
    let bytes = try read(path: path, waiting: waiting)
    return try decode(
      bytes: bytes, path: displayName(path), directory: directory(of: path), languages: languages)
  }

  /// Like `load`, but never throws: the job as far as it could be decoded (nil when the file
  /// could not be read or parsed as YAML) and every diagnostic, so that later checks (family
  /// names against the fonts) can add their errors to the same report.
  public static func loadPartial(
    path: String, languages: LanguageCodes, waiting: ((String) -> Void)? = nil
  ) -> (job: Job?, diagnostics: [Diagnostic]) {
    let bytes: [UInt8]
    let document: YAMLDocument
    let name = displayName(path)
    do {
      bytes = try read(path: path, waiting: waiting)
      document = try YAMLDocument.parse(bytes: bytes, file: name)
    } catch {
      return (nil, error.diagnostics)
    }
    var decoder = JobDecoder(
      source: document.source, directory: directory(of: path), languages: languages,
      diagnostics: document.diagnostics)
    var job = decoder.decodeJob(document.root, path: name)
    job?.bytes = bytes
    return (job, decoder.sortedDiagnostics())
  }

  /// Parses and validates job text, as if read from `path` (used in diagnostics).
  ///
  /// - Parameter directory: the folder relative paths are resolved against; by default the
  ///   folder of `path`.
  public static func decode(
    text: String, path: String, directory: String? = nil, languages: LanguageCodes
  ) throws(DiagnosticError) -> (job: Job, warnings: [Diagnostic]) {
    try decode(bytes: Array(text.utf8), path: path, directory: directory, languages: languages)
  }

  /// Parses and validates the bytes of a job file, as if read from `path`.
  public static func decode(
    bytes: [UInt8], path: String, directory: String? = nil, languages: LanguageCodes
  ) throws(DiagnosticError) -> (job: Job, warnings: [Diagnostic]) {
    let document = try YAMLDocument.parse(bytes: bytes, file: path)
    let folder = JobPath.absolute(directory ?? JobPath.directory(of: path))
    var decoder = JobDecoder(
      source: document.source, directory: folder, languages: languages,
      diagnostics: document.diagnostics)
    var job = decoder.decodeJob(document.root, path: path)
    job?.bytes = bytes
    let sorted = decoder.sortedDiagnostics()
    guard let job, !sorted.contains(where: \.isError) else {
      throw DiagnosticError(sorted)
    }
    return (job, sorted)
  }

  // MARK: - State

  let source: SourceText
  /// Absolute folder that relative paths are resolved against.
  let directory: String
  /// The codes `families.languages` may name.
  let languages: LanguageCodes
  var diagnostics: [Diagnostic]

  mutating func error(_ message: String, at mark: Mark?, hint: String? = nil) {
    diagnostics.append(source.error(message, at: mark, hint: hint))
  }

  mutating func warning(_ message: String, at mark: Mark?, hint: String? = nil) {
    diagnostics.append(source.warning(message, at: mark, hint: hint))
  }

  /// Diagnostics in file order (unlocated ones first), as a compiler prints them.
  func sortedDiagnostics() -> [Diagnostic] {
    diagnostics.enumerated().sorted { a, b in
      let ma = a.element.mark ?? Mark(line: 0, column: 0)
      let mb = b.element.mark ?? Mark(line: 0, column: 0)
      return ma != mb ? ma < mb : a.offset < b.offset
    }.map(\.element)
  }

  // MARK: - The job

  /// Decodes the root mapping; nil when the file is not a mapping or is of another version.
  mutating func decodeJob(_ root: YAMLNode, path: String) -> Job? {
    guard case .mapping(let entries, let rootMark) = root else {
      error(
        "a job file is a mapping of keys such as 'version: 1' and 'title: …', "
          + "not \(describe(root))", at: root.mark)
      return nil
    }
    // The version comes first: another version's keys would only produce noise.
    if let entry = entries.first(where: { $0.key == "version" }) {
      switch wholeNumber(entry.value) {
      case 1?: break
      case let other?:
        error(
          "unsupported job version \(other) (this fonti-batch reads version 1)",
          at: entry.value.mark)
        return nil
      case nil:
        error("version must be 1, not \(describe(entry.value))", at: entry.value.mark)
      }
    } else {
      error(
        "missing 'version: 1' (the version of the job file format)",
        at: entries.first?.keyMark ?? rootMark, hint: "add 'version: 1' at the top of the file")
    }

    let fields = self.fields(root, keys: Self.topKeys, in: nil)
    var output = "output"
    var outputMark: Mark?
    if let node = fields["output"], let value = string(node, "output") {
      if value.isEmpty {
        error("output is empty", at: node.mark, hint: "name a folder, e.g. 'output: output'")
      } else {
        output = value
        outputMark = node.mark
      }
    }
    var job = Job(
      path: path, directory: directory,
      output: JobPath.resolve(JobPath.expandingTilde(output), against: directory))
    job.source = source
    checkOutputFolder(job.output, written: output, at: outputMark)

    if let node = fields["title"], let value = string(node, "title") {
      if value.trimmingWhitespace().isEmpty {
        error("title is empty", at: node.mark)
      } else {
        job.title = value
      }
    }
    if let node = fields["author"], let value = string(node, "author") {
      job.author = value.trimmingWhitespace().isEmpty ? nil : value
    }
    if let node = fields["defaults"] { decodeDefaults(node, into: &job.defaults) }
    if let node = fields["texts"] { decodeTexts(node, into: &job.texts) }
    if let node = fields["families"] {
      job.familiesMark = entries.first(where: { $0.key == "families" })?.keyMark
      decodeFamilies(node, into: &job)
    }
    if let node = fields["fonts"] { decodeFonts(node, into: &job.fonts) }
    if let node = fields["sizes"] { decodeSizes(node, into: &job.sizes) }
    if let node = fields["styles"] { decodeStyles(node, into: &job) }
    if let node = fields["pairings"] { decodePairings(node, into: &job) }
    if let node = fields["favourites"] { decodeFavourites(node, into: &job) }
    if let node = fields["png"] { decodePNG(node, into: &job.png) }
    if let node = fields["proofs"] { decodeProofs(node, into: &job.proofs) }
    if let node = fields["catalogues"] { decodeCatalogues(node, into: &job.catalogues) }
    if let node = fields["gallery"], let gallery = bool(node, "gallery") { job.gallery = gallery }
    checkOutputCollisions(job)
    return job
  }

  /// The output folder may be anywhere, but if something is already there it must be a folder.
  mutating func checkOutputFolder(_ path: String, written: String, at mark: Mark?) {
    // A missing folder is created when the job runs; a file in the way never can be.
    if let problem = JobPath.outputFolderProblem(path) {
      error("output '\(written)' \(problem)", at: mark ?? Mark(line: 1, column: 1))
    }
  }

  mutating func decodeDefaults(_ node: YAMLNode, into defaults: inout Job.Defaults) {
    let fields = self.fields(
      node, keys: ["text", "language", "size", "theme", "variations", "features"],
      in: "defaults")
    if let node = fields["text"], let text = sampleText(node, "defaults.text") {
      defaults.text = text
    }
    if let node = fields["size"],
      let size = number(node, "defaults.size", in: Limits.sampleSize, unit: " pt")
    {
      defaults.size = size
    }
    if let node = fields["theme"], let theme: Theme = choice(node, "theme") {
      defaults.theme = theme
    }
    if let node = fields["language"], let tag = languageTag(node, "defaults.language") {
      defaults.sample.language = tag
    }
    if let node = fields["variations"] { decodeVariations(node, into: &defaults) }
    if let node = fields["features"] { decodeFeatures(node, into: &defaults) }
  }

  mutating func decodeTexts(_ node: YAMLNode, into texts: inout [String]) {
    guard let items = list(node, "texts", of: "sample texts") else { return }
    var decoded: [String] = []
    for item in items.prefix(Limits.textCount) {
      if let text = sampleText(item, "a line of texts") { decoded.append(text) }
    }
    refuseBeyond(Limits.textCount, of: items, "texts")
    texts = decoded
  }

  /// The error for a list of `what` longer than `limit`, at its first item past the limit.
  mutating func refuseBeyond(_ limit: Int, of items: [YAMLNode], _ what: String) {
    guard items.count > limit else { return }
    error("too many \(what): \(items.count) (the limit is \(limit))", at: items[limit].mark)
  }

  mutating func decodeFamilies(_ familiesNode: YAMLNode, into job: inout Job) {
    let fields = self.fields(
      familiesNode, keys: ["include", "exclude", "languages"], in: "families")
    if let node = fields["include"], let names = names(node, "families.include") {
      job.include = names
      if case .mapping(let entries, _) = familiesNode {
        job.includeMark = entries.first(where: { $0.key == "include" })?.keyMark
      }
      if names.isEmpty {
        error(
          "families.include is empty: no family would be selected", at: node.mark,
          hint: "list names or globs, or leave 'include' out to select every family")
      }
    }
    if let node = fields["exclude"], let names = names(node, "families.exclude") {
      job.exclude = names
    }
    if let node = fields["languages"] { decodeLanguages(node, into: &job) }
  }

  mutating func decodeFonts(_ node: YAMLNode, into fonts: inout [Located<String>]) {
    guard let items = list(node, "fonts", of: "font files or folders") else { return }
    var seen: Set<String> = []
    fonts = []
    for item in items {
      guard let written = string(item, "a fonts entry") else { continue }
      if written.isEmpty {
        error("empty path in fonts", at: item.mark)
        continue
      }
      let path = JobPath.resolve(JobPath.expandingTilde(written), against: directory)
      guard checkFontPath(path, written: written, at: item.mark) else { continue }
      if !seen.insert(path).inserted {
        warning("'\(written)' is listed twice in fonts", at: item.mark)
        continue
      }
      fonts.append(Located(path, at: item.mark))
    }
  }

  /// A `fonts:` entry must exist and be readable; whether it is a font is the catalogue's job.
  mutating func checkFontPath(_ path: String, written: String, at mark: Mark) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR {
        let glob = written.contains("*") || written.contains("?")
        error(
          "font file or folder '\(written)' does not exist", at: mark,
          hint: glob
            ? "globs are not expanded here; name a folder and every font in it is used"
            : (written == path ? nil : "looked for \(path)"))
      } else {
        error("cannot reach '\(written)': \(FileSystem.describe(code))", at: mark)
      }
      return false
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      if access(path, R_OK | X_OK) != 0 {
        error(
          "cannot read the font folder '\(written)': \(FileSystem.describe(errno))", at: mark)
        return false
      }
    case S_IFREG:
      if access(path, R_OK) != 0 {
        error(
          "cannot read the font file '\(written)': \(FileSystem.describe(errno))", at: mark)
        return false
      }
    default:
      error("'\(written)' is neither a font file nor a folder", at: mark)
      return false
    }
    return true
  }

  mutating func decodeSizes(_ node: YAMLNode, into sizes: inout [Double]) {
    guard let items = list(node, "sizes", of: "sizes in points") else { return }
    var decoded: [Double] = []
    for item in items.prefix(Limits.waterfallCount) {
      guard let size = number(item, "waterfall size", in: Limits.waterfallSize, unit: " pt")
      else { continue }
      if decoded.contains(size) {
        warning("size \(Self.format(size)) is listed twice", at: item.mark)
        continue
      }
      decoded.append(size)
    }
    refuseBeyond(Limits.waterfallCount, of: items, "sizes")
    sizes = decoded
  }

  /// `styles:`: `all`, or a list of style slots (`regular`, `bold`, `italic`, `bold-italic`)
  /// and face names. Whether a named face exists is known only once the families are
  /// (`ResolvedJob`); here, only that each name is a name.
  mutating func decodeStyles(_ node: YAMLNode, into job: inout Job) {
    if case .scalar(let value, _, _) = node, !node.isNull {
      if value.lowercased() == "all" {
        job.styles = .all
        return
      }
      let guess = Suggest.didYouMean(value, among: ["all"])
      error(
        "styles must be a list of styles and face names, or 'all', not " + describe(node)
          + (guess.map { " (did you mean '\($0)'?)" } ?? ""),
        at: node.mark, hint: guess == nil ? "for one face write styles: [\(flow(value))]" : nil)
      return
    }
    guard let items = list(node, "styles", of: "styles and face names") else { return }
    var picks: [StylePick] = []
    var names: [Located<String>] = []
    var keys = Set<String>()
    for item in items.prefix(Limits.styleCount) {
      guard let value = string(item, "style") else { continue }
      let key = FaceName.key(value)
      if key.isEmpty || value.count > Limits.faceNameLength {
        error(
          key.isEmpty
            ? "style '\(value)' is not a face name"
            : "style is longer than \(Limits.faceNameLength) characters", at: item.mark)
        continue
      }
      if key == "all" {
        error(
          "'all' stands alone: write styles: all, not a list holding it", at: item.mark)
        continue
      }
      guard keys.insert(key).inserted else {
        warning("style '\(value)' is listed twice", at: item.mark)
        continue
      }
      if let slot = StyleName.allCases.first(where: { FaceName.key($0.rawValue) == key }) {
        picks.append(.slot(slot))
      } else {
        picks.append(.face(value))
        names.append(Located(value, at: item.mark))
      }
    }
    refuseBeyond(Limits.styleCount, of: items, "styles")
    job.styles = .picks(picks)
    job.styleNames = names
  }

  mutating func decodePairings(_ node: YAMLNode, into job: inout Job) {
    let fields = self.fields(node, keys: ["curated", "extra"], in: "pairings")
    if let node = fields["curated"], let curated = bool(node, "pairings.curated") {
      job.curatedPairings = curated
    }
    guard let node = fields["extra"],
      let items = list(node, "pairings.extra", of: "pairings such as { heading: A, body: B }")
    else { return }
    for item in items {
      let pair = self.fields(
        item, keys: ["heading", "body"], in: "pairing", expected: "{ heading: …, body: … }")
      var heading: Located<String>?
      var body: Located<String>?
      for (key, slot) in [("heading", 0), ("body", 1)] {
        guard let value = pair[key] else {
          if case .mapping = item {
            error("pairing has no '\(key)'", at: item.mark, hint: "write { heading: A, body: B }")
          }
          continue
        }
        guard let name = familyName(value, "pairing \(key)") else { continue }
        if slot == 0 { heading = name } else { body = name }
      }
      if let heading, let body {
        job.extraPairings.append(Job.PairingSpec(heading: heading, body: body))
      }
    }
  }

  mutating func decodeFavourites(_ node: YAMLNode, into job: inout Job) {
    let fields = self.fields(node, keys: ["save", "manifest"], in: "favourites")
    if let node = fields["save"], let names = names(node, "favourites.save") { job.save = names }
    if let node = fields["manifest"],
      let path = outputRelativePath(node, "favourites.manifest", what: "favourites manifest")
    {
      if path.value == "manifest.json" {
        error(
          "favourites.manifest cannot be 'manifest.json': that is the run's own manifest",
          at: node.mark, hint: "leave it out to use 'favourites.json'")
      } else {
        job.manifest = path
      }
    }
  }

  mutating func decodePNG(_ node: YAMLNode, into png: inout Job.PNGOptions) {
    let fields = self.fields(node, keys: ["edge", "scale", "compression"], in: "png")
    var edge: Int?
    var scale: Int?
    if let node = fields["edge"] {
      edge = integer(node, "png.edge", in: Limits.edge, unit: " px")
      if let edge { png.edge = edge }
    }
    if let node = fields["scale"] {
      if let value = wholeNumber(node), Limits.scale.contains(value) {
        scale = value
        png.scale = value
      } else {
        error("png.scale must be \(Limits.scaleChoices), not \(describe(node))", at: node.mark)
      }
    }
    if let node = fields["compression"], let value: PNGCompression = choice(node, "compression") {
      png.compression = value
    }
    if edge != nil || scale != nil,
      let problem = Limits.pixelsProblem(edge: png.edge, scale: png.scale)
    {
      let at = (scale != nil ? fields["scale"] : fields["edge"])?.mark
      error("png.edge × png.scale \(problem)", at: at)
    }
  }

  mutating func decodeCatalogues(_ node: YAMLNode, into catalogues: inout [Job.CatalogueSpec]) {
    guard let items = list(node, "catalogues", of: "catalogues such as { file: catalogue.pdf }")
    else { return }
    var decoded: [Job.CatalogueSpec] = []
    var seen: [String: Mark] = [:]
    for item in items {
      let fields = self.fields(
        item, keys: ["file", "page", "theme", "families"], in: "catalogue",
        expected: "a catalogue such as { file: catalogue.pdf }")
      var file: Located<String>?
      if let node = fields["file"],
        let path = outputRelativePath(node, "catalogue file", what: "catalogue path")
      {
        if !path.value.lowercased().hasSuffix(".pdf") {
          error("catalogue file '\(path.value)' must end in .pdf", at: node.mark)
        } else if let first = seen[path.value] {
          error(
            "duplicate catalogue file '\(path.value)' (first at \(first.line):\(first.column))",
            at: node.mark)
        } else {
          seen[path.value] = node.mark
          file = path
        }
      } else if fields["file"] == nil, case .mapping = item {
        error("catalogue has no 'file'", at: item.mark, hint: "e.g. file: catalogue.pdf")
      }
      var spec = Job.CatalogueSpec(file: file ?? Located(""))
      if let node = fields["page"], let page: PageSize = choice(node, "page size") {
        spec.page = page
      }
      if let node = fields["theme"], let theme: Theme = choice(node, "theme") {
        spec.theme = theme
      }
      if let node = fields["families"], let selection = catalogueSelection(node) {
        spec.families = selection
      }
      if file != nil { decoded.append(spec) }
    }
    catalogues = decoded
  }

  /// `all`, `saved`, or a list of names and globs.
  mutating func catalogueSelection(_ node: YAMLNode) -> Job.CatalogueSelection? {
    if case .scalar(let value, _, _) = node, !node.isNull {
      switch value.lowercased() {
      case "all": return .all
      case "saved": return .saved
      default:
        let guess = Suggest.didYouMean(value, among: ["all", "saved"])
        error(
          "catalogue families must be 'all', 'saved' or a list of family names, not "
            + describe(node) + (guess.map { " (did you mean '\($0)'?)" } ?? ""),
          at: node.mark, hint: guess == nil ? "for one family write families: [\"\(value)\"]" : nil)
        return nil
      }
    }
    guard let names = names(node, "catalogue families") else { return nil }
    if names.isEmpty {
      warning("this catalogue's families list is empty: it is not written", at: node.mark)
    }
    return .patterns(names)
  }
}
