import FontiSupport

/// `manifest.json` written and read without `JSONEncoder` and `JSONDecoder`: every run reads
/// the previous manifest and writes the next, and for a large library (4 MB for 4,000
/// families with their proofs) Foundation's coders were most of an unchanged re-run.
///
/// Each type's members are one table (`JSONFields`): the keys its synthesized `Codable`
/// conformance has, each with its property. The bytes are exactly what `JSONEncoder` writes for
/// that conformance (pretty, sorted keys, slashes unescaped; absent optionals left out), and
/// what is read is what `JSONDecoder` reads; `RunManifestJSONTests` holds both to that.
extension RunManifest: JSONObject {
  package static let jsonFields = JSONFields(
    blank: RunManifest(
      title: "", families: [], pairings: [], catalogues: [], counts: Counts.jsonBlank,
      durationSeconds: 0),
    .field("version", \.version), .field("tool", \.tool), .field("title", \.title),
    .field("families", \.families), .field("pairings", \.pairings),
    .field("catalogues", \.catalogues), .field("counts", \.counts),
    .field("durationSeconds", \.durationSeconds), .field("gallery", \.gallery),
    .field("warnings", \.warnings), .field("warningsByKind", \.warningsByKind))
}

extension RunManifest.File: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(path: "", sha256: "", inputs: nil), recording: .field("path", \.path))
}

extension JSONFields where Root: RecordedOutput {
  /// An output's entry: `fields`, and the record of its file (`sha256`, `inputs`, `size`,
  /// `mtimeNs`).
  init(blank: Root, recording fields: Field...) {
    let record: [Field] = [
      .field("sha256", \.sha256), .field("inputs", \.inputs), .field("size", \.size),
      .field("mtimeNs", \.mtimeNs),
    ]
    self.init(blank: blank, fields: fields + record)
  }
}

extension RunManifest.Family: JSONObject {
  /// An entry with nothing but what the type requires; the proofs are absent.
  package static let jsonBlank = Self(
    family: "", slug: "", custom: false, saved: false, styles: [], bold: false, italic: false,
    missingGlyphs: 0, missingCharacters: nil, warnings: [], files: [], error: nil)

  /// The proof fields (`FamilyProofReport.manifestKeys`) among the rest.
  package static let jsonFields = JSONFields(
    blank: jsonBlank,
    .field("family", \.family), .field("slug", \.slug), .field("custom", \.custom),
    .field("saved", \.saved), .field("styles", \.styles), .field("bold", \.bold),
    .field("italic", \.italic), .field("missingGlyphs", \.missingGlyphs),
    .field("missingCharacters", \.missingCharacters), .field("warnings", \.warnings),
    .field("warningKinds", \.warningKinds), .field("files", \.files), .field("error", \.error),
    .field("seconds", \.seconds), .field("drawnFrom", \.drawnFrom), .field("faces", \.faces),
    .field("colour", \.colour),
    .field("axes", \.axes),
    .field("instances", \.instances), .field("features", \.features),
    .field("languages", \.languages), .field("codepoints", \.codepoints))
}

extension FontFamily.DrawnFrom: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(regular: nil, variable: nil),
    .field("regular", \.regular), .field("variable", \.variable))
}

extension FamilyFace: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(name: "", weight: 0, width: 0, slope: "", file: ""),
    .field("name", \.name), .field("weight", \.weight), .field("width", \.width),
    .field("slope", \.slope), .field("file", \.file), .field("instance", \.instance),
    .field("coordinates", \.coordinates), .field("problem", \.problem))
}

extension FontColour: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(formats: [], palettes: 0),
    .field("formats", \.formats), .field("palettes", \.palettes))
}

extension RunManifest.Pairing: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(heading: "", body: "", file: "", sha256: "", inputs: nil),
    recording: .field("heading", \.heading), .field("body", \.body), .field("file", \.file),
    .field("warnings", \.warnings), .field("warningKinds", \.warningKinds),
    .field("seconds", \.seconds))
}

extension RunManifest.Catalogue: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(file: "", pages: 0, sha256: "", inputs: nil),
    recording: .field("file", \.file), .field("pages", \.pages),
    .field("missingGlyphs", \.missingGlyphs), .field("warnings", \.warnings),
    .field("warningKinds", \.warningKinds), .field("families", \.families))
}

extension RunManifest.FamilyPage: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(family: "", page: 0), .field("family", \.family), .field("page", \.page),
    .field("facesPage", \.facesPage))
}

extension RunManifest.Gallery: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(file: "", sha256: ""), recording: .field("file", \.file))
}

extension RunManifest.Counts: JSONObject {
  static let jsonBlank = Self(families: 0, rendered: 0, skipped: 0, failed: 0, warnings: 0)

  package static let jsonFields = JSONFields(
    blank: jsonBlank,
    fields: [
      .field("families", \.families), .field("rendered", \.rendered),
      .field("skipped", \.skipped), .field("failed", \.failed), .field("warnings", \.warnings),
      .field("notes", \.notes),
    ]
      + outputs("pairings", \.pairings, \.pairingsRendered, \.pairingsSkipped, \.pairingsFailed)
      + outputs(
        "catalogues", \.catalogues, \.cataloguesRendered, \.cataloguesSkipped, \.cataloguesFailed))

  /// The counts of one kind of output: `kind` (how many the job makes), `kindRendered`,
  /// `kindSkipped` and `kindFailed`.
  private static func outputs(
    _ kind: String, _ all: Count, _ rendered: Count, _ skipped: Count, _ failed: Count
  ) -> [JSONFields<Self>.Field] {
    [
      .field(kind, all), .field(kind + "Rendered", rendered), .field(kind + "Skipped", skipped),
      .field(kind + "Failed", failed),
    ]
  }

  private typealias Count = WritableKeyPath<Self, Int?> & Sendable
}

extension RunManifest.Warning: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(kind: "", message: ""),
    .field("kind", \.kind), .field("message", \.message), .field("file", \.file),
    .field("line", \.line), .field("column", \.column))
}

extension FontProofs.Axis: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(tag: "", name: "", min: 0, defaultValue: 0, max: 0),
    .field("tag", \.tag), .field("name", \.name), .field("min", \.min),
    .field("default", \.defaultValue), .field("max", \.max))
}

extension FontProofs.Instance: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(name: "", coordinates: [:]),
    .field("name", \.name), .field("coordinates", \.coordinates))
}

extension FontProofs.Feature: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(tag: "", name: "", tables: [], visible: false),
    .field("tag", \.tag), .field("name", \.name), .field("tables", \.tables),
    .field("visible", \.visible), .field("noEffect", \.noEffect))
}

extension FontProofs.NoEffect: JSONCodable {
  package func write(to w: inout JSONWriter) { w.string(rawValue) }
  package init(reading r: inout JSONReader) throws {
    let text = try r.string()
    guard let reason = Self(rawValue: text) else { throw r.missing("noEffect (a known reason)") }
    self = reason
  }
}

extension LanguageCoverage: JSONObject {
  package static let jsonFields = JSONFields(
    blank: Self(), .field("supported", \.supported), .field("nearly", \.nearly))
}

extension LanguageCoverage.Nearly: JSONObject {
  /// `missing` as `U+XXXX` texts, as its `Codable` conformance has them.
  package static let jsonFields = JSONFields(
    blank: Self(language: "", missing: []),
    .field("language", \.language),
    .field(
      "missing", \.missing,
      write: { w, missing in missing.map(CodePointText.format).write(to: &w) },
      read: { r in
        let texts = try [String](reading: &r)
        let values = texts.compactMap(CodePointText.parse)
        guard values.count == texts.count else { throw r.missing("missing: code points (U+XXXX)") }
        return values
      }))
}
