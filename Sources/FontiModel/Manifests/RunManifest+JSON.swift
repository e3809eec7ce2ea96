import FontiSupport

/// `manifest.json` written and read without `JSONEncoder` and `JSONDecoder`: every run reads
/// the previous manifest and writes the next, and for a large library (4 MB for 4,000
/// families with their proofs) Foundation's coders were most of an unchanged re-run.
///
/// The bytes are exactly what `JSONEncoder` writes for the `Codable` conformances (pretty,
/// sorted keys, slashes unescaped; absent optionals left out), and what is read is what
/// `JSONDecoder` reads; `RunManifestJSONTests` holds both to that. Each `write` lists its
/// keys in UTF-8 byte order, Foundation's sorted order.
extension RunManifest: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("catalogues", catalogues)
    w.member("counts", counts)
    w.member("durationSeconds", durationSeconds)
    w.member("families", families)
    w.member("gallery", gallery)
    w.member("pairings", pairings)
    w.member("title", title)
    w.member("tool", tool)
    w.member("version", version)
    w.member("warnings", warnings)
    w.member("warningsByKind", warningsByKind) { w, counts in w.object(counts) { $0.int($1) } }
    w.endObject()
  }

  /// `proofs: false` skips the families' proof fields (still checked as JSON): for a run that
  /// reads them only for the entries it keeps (`BatchPlan.readPreviousProofs`).
  package init(reading r: inout JSONReader, proofs: Bool = true) throws {
    var version: Int?
    var tool: String?
    var title: String?
    var families: [Family]?
    var pairings: [Pairing]?
    var catalogues: [Catalogue]?
    var counts: Counts?
    var durationSeconds: Double?
    var gallery: Gallery?
    var warnings: [Warning]?
    var byKind: [String: Int]?
    try r.object { r, key in
      switch key {
      case "catalogues": catalogues = try r.array(of: Catalogue.init(reading:))
      case "counts": counts = try Counts(reading: &r)
      case "durationSeconds": durationSeconds = try r.double()
      case "families": families = try r.array { try Family(reading: &$0, proofs: proofs) }
      case "gallery": gallery = try r.optional(Gallery.init(reading:))
      case "pairings": pairings = try r.array(of: Pairing.init(reading:))
      case "title": title = try r.string()
      case "tool": tool = try r.string()
      case "version": version = try r.int()
      case "warnings": warnings = try r.optional { try $0.array(of: Warning.init(reading:)) }
      case "warningsByKind": byKind = try r.optional { try $0.dictionary(of: { try $0.int() }) }
      default: try r.skip()
      }
    }
    self.init(
      title: try r.required(title, "title"), families: try r.required(families, "families"),
      pairings: try r.required(pairings, "pairings"),
      catalogues: try r.required(catalogues, "catalogues"),
      counts: try r.required(counts, "counts"),
      durationSeconds: try r.required(durationSeconds, "durationSeconds"))
    self.version = try r.required(version, "version")
    self.tool = try r.required(tool, "tool")
    self.gallery = gallery
    self.warnings = warnings
    self.warningsByKind = byKind
  }
}

extension RunManifest.Warning: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("column", column)
    w.member("file", file)
    w.member("kind", kind)
    w.member("line", line)
    w.member("message", message)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var kind: String?
    var message: String?
    var file: String?
    var line: Int?
    var column: Int?
    try r.object { r, key in
      switch key {
      case "column": column = try r.optional { try $0.int() }
      case "file": file = try r.optional { try $0.string() }
      case "kind": kind = try r.string()
      case "line": line = try r.optional { try $0.int() }
      case "message": message = try r.string()
      default: try r.skip()
      }
    }
    self.init(
      kind: try r.required(kind, "kind"), message: try r.required(message, "message"), file: file,
      line: line, column: column)
  }
}

extension RunManifest.File: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("inputs", inputs)
    w.member("mtimeNs", mtimeNs)
    w.member("path", path)
    w.member("sha256", sha256)
    w.member("size", size)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
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
    self.init(
      path: try r.required(path, "path"), sha256: try r.required(sha256, "sha256"), inputs: inputs,
      size: size, mtimeNs: mtimeNs)
  }
}

extension RunManifest.Family: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("axes", axes)
    w.member("bold", bold)
    w.member("codepoints", codepoints)
    w.member("custom", custom)
    w.member("drawnFrom", drawnFrom)
    w.member("error", error)
    w.member("family", family)
    w.member("features", features)
    w.member("files", files)
    w.member("instances", instances)
    w.member("italic", italic)
    w.member("languages", languages)
    w.member("missingCharacters", missingCharacters)
    w.member("missingGlyphs", missingGlyphs)
    w.member("saved", saved)
    w.member("seconds", seconds)
    w.member("slug", slug)
    w.member("styles", styles)
    w.member("warningKinds", warningKinds)
    w.member("warnings", warnings)
    w.endObject()
  }

  package init(reading r: inout JSONReader, proofs readProofs: Bool = true) throws {
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
    var warningKinds: [String]?
    var files: [RunManifest.File]?
    var error: String?
    var seconds: Double?
    var drawnFrom: FontFamily.DrawnFrom?
    var proofs = FamilyProofReport(warnings: [])
    try r.object { r, key in
      if !readProofs && FamilyProofReport.manifestKeys.contains(key) { return try r.skip() }
      switch key {
      case "axes": proofs.axes = try r.optional { try $0.array(of: FontProofs.Axis.init(reading:)) }
      case "bold": bold = try r.bool()
      case "codepoints": proofs.codepoints = try r.optional { try $0.int() }
      case "custom": custom = try r.bool()
      case "drawnFrom": drawnFrom = try r.optional(FontFamily.DrawnFrom.init(reading:))
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
      case "warningKinds": warningKinds = try r.optional { try $0.strings() }
      case "warnings": warnings = try r.strings()
      default: try r.skip()
      }
    }
    self.init(
      family: try r.required(family, "family"), slug: try r.required(slug, "slug"),
      custom: try r.required(custom, "custom"), saved: try r.required(saved, "saved"),
      styles: try r.required(styles, "styles"), bold: try r.required(bold, "bold"),
      italic: try r.required(italic, "italic"),
      missingGlyphs: try r.required(missingGlyphs, "missingGlyphs"),
      missingCharacters: missingCharacters,
      warnings: try r.required(warnings, "warnings"), files: try r.required(files, "files"),
      error: error)
    self.seconds = seconds
    self.drawnFrom = drawnFrom
    self.proofs = proofs
    self.warningKinds = warningKinds
  }
}

extension FontFamily.DrawnFrom: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("regular", regular)
    w.member("variable", variable)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var regular: String?
    var variable: String?
    try r.object { r, key in
      switch key {
      case "regular": regular = try r.optional { try $0.string() }
      case "variable": variable = try r.optional { try $0.string() }
      default: try r.skip()
      }
    }
    self.init(regular: regular, variable: variable)
  }
}

extension RunManifest.Pairing: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("body", body)
    w.member("file", file)
    w.member("heading", heading)
    w.member("inputs", inputs)
    w.member("mtimeNs", mtimeNs)
    w.member("seconds", seconds)
    w.member("sha256", sha256)
    w.member("size", size)
    w.member("warningKinds", warningKinds)
    w.member("warnings", warnings)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var heading: String?
    var body: String?
    var file: String?
    var sha256: String?
    var inputs: String?
    var size: Int64?
    var mtimeNs: Int64?
    var warnings: [String]?
    var warningKinds: [String]?
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
      case "warningKinds": warningKinds = try r.optional { try $0.strings() }
      case "warnings": warnings = try r.optional { try $0.strings() }
      default: try r.skip()
      }
    }
    self.init(
      heading: try r.required(heading, "heading"), body: try r.required(body, "body"),
      file: try r.required(file, "file"), sha256: try r.required(sha256, "sha256"), inputs: inputs,
      size: size,
      mtimeNs: mtimeNs, warnings: warnings)
    self.seconds = seconds
    self.warningKinds = warningKinds
  }
}

extension RunManifest.Catalogue: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("families", families)
    w.member("file", file)
    w.member("inputs", inputs)
    w.member("missingGlyphs", missingGlyphs) { w, missingGlyphs in
      w.object(missingGlyphs) { $0.int($1) }
    }
    w.member("mtimeNs", mtimeNs)
    w.member("pages", pages)
    w.member("sha256", sha256)
    w.member("size", size)
    w.member("warningKinds", warningKinds)
    w.member("warnings", warnings)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var file: String?
    var pages: Int?
    var sha256: String?
    var inputs: String?
    var size: Int64?
    var mtimeNs: Int64?
    var missingGlyphs: [String: Int]?
    var warnings: [String]?
    var warningKinds: [String]?
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
      case "warningKinds": warningKinds = try r.optional { try $0.strings() }
      case "warnings": warnings = try r.optional { try $0.strings() }
      default: try r.skip()
      }
    }
    self.init(
      file: try r.required(file, "file"), pages: try r.required(pages, "pages"),
      sha256: try r.required(sha256, "sha256"), inputs: inputs, size: size, mtimeNs: mtimeNs,
      missingGlyphs: missingGlyphs, warnings: warnings, families: families)
    self.warningKinds = warningKinds
  }
}

extension RunManifest.FamilyPage: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("family", family)
    w.member("page", page)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var family: String?
    var page: Int?
    try r.object { r, key in
      switch key {
      case "family": family = try r.string()
      case "page": page = try r.int()
      default: try r.skip()
      }
    }
    self.init(family: try r.required(family, "family"), page: try r.required(page, "page"))
  }
}

extension RunManifest.Gallery: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("file", file)
    w.member("inputs", inputs)
    w.member("mtimeNs", mtimeNs)
    w.member("sha256", sha256)
    w.member("size", size)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var file: String?
    var sha256: String?
    var size: Int64?
    var mtimeNs: Int64?
    var inputs: String?
    try r.object { r, key in
      switch key {
      case "file": file = try r.string()
      case "inputs": inputs = try r.optional { try $0.string() }
      case "mtimeNs": mtimeNs = try r.optional { try $0.int64() }
      case "sha256": sha256 = try r.string()
      case "size": size = try r.optional { try $0.int64() }
      default: try r.skip()
      }
    }
    self.init(
      file: try r.required(file, "file"), sha256: try r.required(sha256, "sha256"), size: size,
      mtimeNs: mtimeNs, inputs: inputs)
  }
}

extension RunManifest.Counts: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("catalogues", catalogues)
    w.member("cataloguesFailed", cataloguesFailed)
    w.member("cataloguesRendered", cataloguesRendered)
    w.member("cataloguesSkipped", cataloguesSkipped)
    w.member("failed", failed)
    w.member("families", families)
    w.member("pairings", pairings)
    w.member("pairingsFailed", pairingsFailed)
    w.member("pairingsRendered", pairingsRendered)
    w.member("pairingsSkipped", pairingsSkipped)
    w.member("rendered", rendered)
    w.member("skipped", skipped)
    w.member("warnings", warnings)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
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
    func count(_ key: String) throws -> Int { try r.required(values[key], key) }
    self.init(
      families: try count("families"), rendered: try count("rendered"),
      skipped: try count("skipped"), failed: try count("failed"), warnings: try count("warnings"))
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

extension FontProofs.Axis: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("default", defaultValue)
    w.member("max", max)
    w.member("min", min)
    w.member("name", name)
    w.member("tag", tag)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
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
    self.init(
      tag: try r.required(tag, "tag"), name: try r.required(name, "name"),
      min: try r.required(min, "min"), defaultValue: try r.required(defaultValue, "default"),
      max: try r.required(max, "max"))
  }
}

extension FontProofs.Instance: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("coordinates")
    w.object(coordinates) { $0.double($1) }
    w.member("name", name)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var name: String?
    var coordinates: [String: Double]?
    try r.object { r, key in
      switch key {
      case "coordinates": coordinates = try r.dictionary { try $0.double() }
      case "name": name = try r.string()
      default: try r.skip()
      }
    }
    self.init(
      name: try r.required(name, "name"), coordinates: try r.required(coordinates, "coordinates"))
  }
}

extension FontProofs.Feature: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("name", name)
    w.member("tables", tables)
    w.member("tag", tag)
    w.member("visible", visible)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
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
    self.init(
      tag: try r.required(tag, "tag"), name: try r.required(name, "name"),
      tables: try r.required(tables, "tables"), visible: try r.required(visible, "visible"))
  }
}

extension LanguageCoverage: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("nearly", nearly)
    w.member("supported", supported)
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var supported: [String]?
    var nearly: [Nearly]?
    try r.object { r, key in
      switch key {
      case "nearly": nearly = try r.array(of: Nearly.init(reading:))
      case "supported": supported = try r.strings()
      default: try r.skip()
      }
    }
    self.init(
      supported: try r.required(supported, "supported"), nearly: try r.required(nearly, "nearly"))
  }
}

extension LanguageCoverage.Nearly: JSONWritable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    w.member("language", language)
    w.member("missing", missing.map(CodePointText.format))
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
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
    self.init(
      language: try r.required(language, "language"), missing: try r.required(missing, "missing"))
  }
}
