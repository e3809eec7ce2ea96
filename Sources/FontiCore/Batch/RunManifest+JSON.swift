/// `manifest.json` written and read without `JSONEncoder` and `JSONDecoder`: every run reads
/// the previous manifest and writes the next, and for a large library (4 MB for 4,000
/// families with their proofs) Foundation's coders were most of an unchanged re-run.
///
/// The bytes are exactly what `JSONEncoder` writes for the `Codable` conformances (pretty,
/// sorted keys, slashes unescaped; absent optionals left out), and what is read is what
/// `JSONDecoder` reads; `RunManifestJSONTests` holds both to that. Each `write` lists its
/// keys in UTF-8 byte order, Foundation's sorted order.
extension RunManifest {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("catalogues")
    w.array(catalogues) { $1.write(to: &$0) }
    w.key("counts")
    counts.write(to: &w)
    w.key("durationSeconds")
    w.double(durationSeconds)
    w.key("families")
    w.array(families) { $1.write(to: &$0) }
    if let gallery {
      w.key("gallery")
      gallery.write(to: &w)
    }
    w.key("pairings")
    w.array(pairings) { $1.write(to: &$0) }
    w.key("title")
    w.string(title)
    w.key("tool")
    w.string(tool)
    w.key("version")
    w.int(version)
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var version: Int?
    var tool: String?
    var title: String?
    var families: [Family]?
    var pairings: [Pairing]?
    var catalogues: [Catalogue]?
    var counts: Counts?
    var durationSeconds: Double?
    var gallery: Gallery?
    try r.object { r, key in
      switch key {
      case "catalogues": catalogues = try r.array(of: Catalogue.init(reading:))
      case "counts": counts = try Counts(reading: &r)
      case "durationSeconds": durationSeconds = try r.double()
      case "families": families = try r.array(of: Family.init(reading:))
      case "gallery": gallery = try r.optional(Gallery.init(reading:))
      case "pairings": pairings = try r.array(of: Pairing.init(reading:))
      case "title": title = try r.string()
      case "tool": tool = try r.string()
      case "version": version = try r.int()
      default: try r.skip()
      }
    }
    guard let version else { throw r.missing("version") }
    guard let tool else { throw r.missing("tool") }
    guard let title else { throw r.missing("title") }
    guard let families else { throw r.missing("families") }
    guard let pairings else { throw r.missing("pairings") }
    guard let catalogues else { throw r.missing("catalogues") }
    guard let counts else { throw r.missing("counts") }
    guard let durationSeconds else { throw r.missing("durationSeconds") }
    self.init(
      title: title, families: families, pairings: pairings, catalogues: catalogues,
      counts: counts, durationSeconds: durationSeconds)
    self.version = version
    self.tool = tool
    self.gallery = gallery
  }
}

extension RunManifest.File {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    if let inputs {
      w.key("inputs")
      w.string(inputs)
    }
    if let mtimeNs {
      w.key("mtimeNs")
      w.int(mtimeNs)
    }
    w.key("path")
    w.string(path)
    w.key("sha256")
    w.string(sha256)
    if let size {
      w.key("size")
      w.int(size)
    }
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var path: String?
    var sha256: String?
    var inputs: String?
    var size: Int64?
    var mtimeNs: Int64?
    try r.object { r, key in
      switch key {
      case "inputs": inputs = try r.optional { try $0.string() }
      case "mtimeNs": mtimeNs = try r.optional { try $0.int64() }
      case "path": path = try r.string()
      case "sha256": sha256 = try r.string()
      case "size": size = try r.optional { try $0.int64() }
      default: try r.skip()
      }
    }
    guard let path else { throw r.missing("path") }
    guard let sha256 else { throw r.missing("sha256") }
    self.init(path: path, sha256: sha256, inputs: inputs, size: size, mtimeNs: mtimeNs)
  }
}

extension RunManifest.Family {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    if let axes {
      w.key("axes")
      w.array(axes) { $1.write(to: &$0) }
    }
    w.key("bold")
    w.bool(bold)
    if let codepoints {
      w.key("codepoints")
      w.int(codepoints)
    }
    w.key("custom")
    w.bool(custom)
    if let error {
      w.key("error")
      w.string(error)
    }
    w.key("family")
    w.string(family)
    if let features {
      w.key("features")
      w.array(features) { $1.write(to: &$0) }
    }
    w.key("files")
    w.array(files) { $1.write(to: &$0) }
    if let instances {
      w.key("instances")
      w.array(instances) { $1.write(to: &$0) }
    }
    w.key("italic")
    w.bool(italic)
    if let languages {
      w.key("languages")
      languages.write(to: &w)
    }
    if let missingCharacters {
      w.key("missingCharacters")
      w.array(missingCharacters)
    }
    w.key("missingGlyphs")
    w.int(missingGlyphs)
    w.key("saved")
    w.bool(saved)
    if let seconds {
      w.key("seconds")
      w.double(seconds)
    }
    w.key("slug")
    w.string(slug)
    w.key("styles")
    w.array(styles)
    w.key("warnings")
    w.array(warnings)
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var family: String?
    var slug: String?
    var custom: Bool?
    var saved: Bool?
    var styles: [String]?
    var bold: Bool?
    var italic: Bool?
    var missingGlyphs: Int?
    var missingCharacters: [String]?
    var warnings: [String]?
    var files: [RunManifest.File]?
    var error: String?
    var seconds: Double?
    var proofs = FamilyProofReport(warnings: [])
    try r.object { r, key in
      switch key {
      case "axes": proofs.axes = try r.optional { try $0.array(of: FontProofs.Axis.init(reading:)) }
      case "bold": bold = try r.bool()
      case "codepoints": proofs.codepoints = try r.optional { try $0.int() }
      case "custom": custom = try r.bool()
      case "error": error = try r.optional { try $0.string() }
      case "family": family = try r.string()
      case "features":
        proofs.features = try r.optional { try $0.array(of: FontProofs.Feature.init(reading:)) }
      case "files": files = try r.array(of: RunManifest.File.init(reading:))
      case "instances":
        proofs.instances = try r.optional { try $0.array(of: FontProofs.Instance.init(reading:)) }
      case "italic": italic = try r.bool()
      case "languages": proofs.languages = try r.optional(LanguageCoverage.init(reading:))
      case "missingCharacters": missingCharacters = try r.optional { try $0.strings() }
      case "missingGlyphs": missingGlyphs = try r.int()
      case "saved": saved = try r.bool()
      case "seconds": seconds = try r.optional { try $0.double() }
      case "slug": slug = try r.string()
      case "styles": styles = try r.strings()
      case "warnings": warnings = try r.strings()
      default: try r.skip()
      }
    }
    guard let family else { throw r.missing("family") }
    guard let slug else { throw r.missing("slug") }
    guard let custom else { throw r.missing("custom") }
    guard let saved else { throw r.missing("saved") }
    guard let styles else { throw r.missing("styles") }
    guard let bold else { throw r.missing("bold") }
    guard let italic else { throw r.missing("italic") }
    guard let missingGlyphs else { throw r.missing("missingGlyphs") }
    guard let warnings else { throw r.missing("warnings") }
    guard let files else { throw r.missing("files") }
    self.init(
      family: family, slug: slug, custom: custom, saved: saved, styles: styles, bold: bold,
      italic: italic, missingGlyphs: missingGlyphs, missingCharacters: missingCharacters,
      warnings: warnings, files: files, error: error)
    self.seconds = seconds
    self.proofs = proofs
  }
}

extension RunManifest.Pairing {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("body")
    w.string(body)
    w.key("file")
    w.string(file)
    w.key("heading")
    w.string(heading)
    if let inputs {
      w.key("inputs")
      w.string(inputs)
    }
    if let mtimeNs {
      w.key("mtimeNs")
      w.int(mtimeNs)
    }
    if let seconds {
      w.key("seconds")
      w.double(seconds)
    }
    w.key("sha256")
    w.string(sha256)
    if let size {
      w.key("size")
      w.int(size)
    }
    if let warnings {
      w.key("warnings")
      w.array(warnings)
    }
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var heading: String?
    var body: String?
    var file: String?
    var sha256: String?
    var inputs: String?
    var size: Int64?
    var mtimeNs: Int64?
    var warnings: [String]?
    var seconds: Double?
    try r.object { r, key in
      switch key {
      case "body": body = try r.string()
      case "file": file = try r.string()
      case "heading": heading = try r.string()
      case "inputs": inputs = try r.optional { try $0.string() }
      case "mtimeNs": mtimeNs = try r.optional { try $0.int64() }
      case "seconds": seconds = try r.optional { try $0.double() }
      case "sha256": sha256 = try r.string()
      case "size": size = try r.optional { try $0.int64() }
      case "warnings": warnings = try r.optional { try $0.strings() }
      default: try r.skip()
      }
    }
    guard let heading else { throw r.missing("heading") }
    guard let body else { throw r.missing("body") }
    guard let file else { throw r.missing("file") }
    guard let sha256 else { throw r.missing("sha256") }
    self.init(
      heading: heading, body: body, file: file, sha256: sha256, inputs: inputs, size: size,
      mtimeNs: mtimeNs, warnings: warnings)
    self.seconds = seconds
  }
}

extension RunManifest.Catalogue {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    if let families {
      w.key("families")
      w.array(families) { w, page in
        w.beginObject()
        w.key("family")
        w.string(page.family)
        w.key("page")
        w.int(page.page)
        w.endObject()
      }
    }
    w.key("file")
    w.string(file)
    if let inputs {
      w.key("inputs")
      w.string(inputs)
    }
    if let missingGlyphs {
      w.key("missingGlyphs")
      w.object(missingGlyphs) { $0.int($1) }
    }
    if let mtimeNs {
      w.key("mtimeNs")
      w.int(mtimeNs)
    }
    w.key("pages")
    w.int(pages)
    w.key("sha256")
    w.string(sha256)
    if let size {
      w.key("size")
      w.int(size)
    }
    if let warnings {
      w.key("warnings")
      w.array(warnings)
    }
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var file: String?
    var pages: Int?
    var sha256: String?
    var inputs: String?
    var size: Int64?
    var mtimeNs: Int64?
    var missingGlyphs: [String: Int]?
    var warnings: [String]?
    var families: [RunManifest.FamilyPage]?
    try r.object { r, key in
      switch key {
      case "families":
        families = try r.optional { try $0.array(of: RunManifest.FamilyPage.init(reading:)) }
      case "file": file = try r.string()
      case "inputs": inputs = try r.optional { try $0.string() }
      case "missingGlyphs": missingGlyphs = try r.optional { try $0.dictionary { try $0.int() } }
      case "mtimeNs": mtimeNs = try r.optional { try $0.int64() }
      case "pages": pages = try r.int()
      case "sha256": sha256 = try r.string()
      case "size": size = try r.optional { try $0.int64() }
      case "warnings": warnings = try r.optional { try $0.strings() }
      default: try r.skip()
      }
    }
    guard let file else { throw r.missing("file") }
    guard let pages else { throw r.missing("pages") }
    guard let sha256 else { throw r.missing("sha256") }
    self.init(
      file: file, pages: pages, sha256: sha256, inputs: inputs, size: size, mtimeNs: mtimeNs,
      missingGlyphs: missingGlyphs, warnings: warnings, families: families)
  }
}

extension RunManifest.FamilyPage {
  init(reading r: inout JSONReader) throws {
    var family: String?
    var page: Int?
    try r.object { r, key in
      switch key {
      case "family": family = try r.string()
      case "page": page = try r.int()
      default: try r.skip()
      }
    }
    guard let family else { throw r.missing("family") }
    guard let page else { throw r.missing("page") }
    self.init(family: family, page: page)
  }
}

extension RunManifest.Gallery {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("file")
    w.string(file)
    if let inputs {
      w.key("inputs")
      w.string(inputs)
    }
    w.key("sha256")
    w.string(sha256)
    if let size {
      w.key("size")
      w.int(size)
    }
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var file: String?
    var sha256: String?
    var size: Int64?
    var inputs: String?
    try r.object { r, key in
      switch key {
      case "file": file = try r.string()
      case "inputs": inputs = try r.optional { try $0.string() }
      case "sha256": sha256 = try r.string()
      case "size": size = try r.optional { try $0.int64() }
      default: try r.skip()
      }
    }
    guard let file else { throw r.missing("file") }
    guard let sha256 else { throw r.missing("sha256") }
    self.init(file: file, sha256: sha256, size: size, inputs: inputs)
  }
}

extension RunManifest.Counts {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    for (key, value) in [
      ("catalogues", catalogues), ("cataloguesFailed", cataloguesFailed),
      ("cataloguesRendered", cataloguesRendered), ("cataloguesSkipped", cataloguesSkipped),
      ("failed", failed), ("families", families), ("pairings", pairings),
      ("pairingsFailed", pairingsFailed), ("pairingsRendered", pairingsRendered),
      ("pairingsSkipped", pairingsSkipped), ("rendered", rendered), ("skipped", skipped),
      ("warnings", warnings),
    ] {
      if let value {
        w.key(key)
        w.int(value)
      }
    }
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var values: [String: Int] = [:]
    try r.object { r, key in
      switch key {
      case "catalogues", "cataloguesFailed", "cataloguesRendered", "cataloguesSkipped",
        "pairings", "pairingsFailed", "pairingsRendered", "pairingsSkipped":
        values[key] = try r.optional { try $0.int() }
      case "failed", "families", "rendered", "skipped", "warnings": values[key] = try r.int()
      default: try r.skip()
      }
    }
    func required(_ key: String) throws -> Int {
      guard let value = values[key] else { throw r.missing(key) }
      return value
    }
    self.init(
      families: try required("families"), rendered: try required("rendered"),
      skipped: try required("skipped"), failed: try required("failed"),
      warnings: try required("warnings"))
    pairings = values["pairings"]
    pairingsRendered = values["pairingsRendered"]
    pairingsSkipped = values["pairingsSkipped"]
    pairingsFailed = values["pairingsFailed"]
    catalogues = values["catalogues"]
    cataloguesRendered = values["cataloguesRendered"]
    cataloguesSkipped = values["cataloguesSkipped"]
    cataloguesFailed = values["cataloguesFailed"]
  }
}

extension FontProofs.Axis {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("default")
    w.double(defaultValue)
    w.key("max")
    w.double(max)
    w.key("min")
    w.double(min)
    w.key("name")
    w.string(name)
    w.key("tag")
    w.string(tag)
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var tag: String?
    var name: String?
    var min: Double?
    var defaultValue: Double?
    var max: Double?
    try r.object { r, key in
      switch key {
      case "default": defaultValue = try r.double()
      case "max": max = try r.double()
      case "min": min = try r.double()
      case "name": name = try r.string()
      case "tag": tag = try r.string()
      default: try r.skip()
      }
    }
    guard let tag else { throw r.missing("tag") }
    guard let name else { throw r.missing("name") }
    guard let min else { throw r.missing("min") }
    guard let defaultValue else { throw r.missing("default") }
    guard let max else { throw r.missing("max") }
    self.init(tag: tag, name: name, min: min, defaultValue: defaultValue, max: max)
  }
}

extension FontProofs.Instance {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("coordinates")
    w.object(coordinates) { $0.double($1) }
    w.key("name")
    w.string(name)
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var name: String?
    var coordinates: [String: Double]?
    try r.object { r, key in
      switch key {
      case "coordinates": coordinates = try r.dictionary { try $0.double() }
      case "name": name = try r.string()
      default: try r.skip()
      }
    }
    guard let name else { throw r.missing("name") }
    guard let coordinates else { throw r.missing("coordinates") }
    self.init(name: name, coordinates: coordinates)
  }
}

extension FontProofs.Feature {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("name")
    w.string(name)
    w.key("tables")
    w.array(tables)
    w.key("tag")
    w.string(tag)
    w.key("visible")
    w.bool(visible)
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var tag: String?
    var name: String?
    var tables: [String]?
    var visible: Bool?
    try r.object { r, key in
      switch key {
      case "name": name = try r.string()
      case "tables": tables = try r.strings()
      case "tag": tag = try r.string()
      case "visible": visible = try r.bool()
      default: try r.skip()
      }
    }
    guard let tag else { throw r.missing("tag") }
    guard let name else { throw r.missing("name") }
    guard let tables else { throw r.missing("tables") }
    guard let visible else { throw r.missing("visible") }
    self.init(tag: tag, name: name, tables: tables, visible: visible)
  }
}

extension LanguageCoverage {
  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("nearly")
    w.array(nearly) { w, nearly in
      w.beginObject()
      w.key("language")
      w.string(nearly.language)
      w.key("missing")
      w.array(nearly.missing) { $0.string(CodePointText.format($1)) }
      w.endObject()
    }
    w.key("supported")
    w.array(supported)
    w.endObject()
  }

  init(reading r: inout JSONReader) throws {
    var supported: [String]?
    var nearly: [Nearly]?
    try r.object { r, key in
      switch key {
      case "nearly": nearly = try r.array(of: Nearly.init(reading:))
      case "supported": supported = try r.strings()
      default: try r.skip()
      }
    }
    guard let supported else { throw r.missing("supported") }
    guard let nearly else { throw r.missing("nearly") }
    self.init(supported: supported, nearly: nearly)
  }
}

extension LanguageCoverage.Nearly {
  init(reading r: inout JSONReader) throws {
    var language: String?
    var missing: [UInt32]?
    try r.object { r, key in
      switch key {
      case "language": language = try r.string()
      case "missing":
        let texts = try r.strings()
        let values = texts.compactMap(CodePointText.parse)
        guard values.count == texts.count else { throw r.missing("missing: code points (U+XXXX)") }
        missing = values
      default: try r.skip()
      }
    }
    guard let language else { throw r.missing("language") }
    guard let missing else { throw r.missing("missing") }
    self.init(language: language, missing: missing)
  }
}
