import FontiDraw
import FontiEngine
import FontiModel
import Foundation

/// One card asked of `serve`, from its URL's query: the settings `render` takes, with the
/// job's defaults (text, size, theme, language, variations, features) for what is left out,
/// held to the same `Limits`. What it draws is exactly what `render` draws for them (the
/// curated partners along the bottom, `edge` px at `scale`): the same `SpecimenRequest`. The
/// grid asks for its cards at the edge it shows them (× the screen's pixel ratio).
struct CardRequest: Sendable {
  /// The specimen `render FAMILY` draws for these settings, without its partners yet.
  var specimen: SpecimenRequest<FamilyRef>
  var slug: String
  /// Everything the picture depends on, the family's version among it.
  var key: String

  /// The card of `slug` for `query`, or why the query is not one (a 400 answer).
  static func parse(
    slug: String, query: [String: String], snapshot: ServeSnapshot, defaultScale: Int = 1
  ) -> Result<CardRequest, CardProblem> {
    guard let family = snapshot.bySlug[slug] else {
      return .failure(.notFound)
    }
    var reader = QueryReader(query: query, defaults: snapshot.job.defaults)
    let text = reader.text()
    let size = reader.number("size", reader.defaults.size, Limits.sampleSize)
    let scale = reader.scale(default: defaultScale)
    let edge = reader.edge(scale: scale)
    let theme = reader.theme()
    let settings = reader.settings()
    guard reader.problems.isEmpty else {
      return .failure(.invalid(reader.problems.joined(separator: "; ")))
    }
    let bold = reader.flag("bold")
    let italic = reader.flag("italic")
    // A face by name (the family view's picker); it wins over bold and italic.
    let face = query["face"].flatMap { $0.isEmpty ? nil : $0 }
    if let face, face.count > Limits.faceNameLength {
      return .failure(.invalid("face is longer than \(Limits.faceNameLength) characters"))
    }
    var specimen = SpecimenRequest(
      family: FamilyRef(family), text: text, size: size, theme: theme, edge: edge, scale: scale,
      bold: face == nil && bold,
      italic: face == nil && italic, sample: settings.isEmpty ? nil : settings)
    specimen.face = face
    // The slug first, so that a family's cards can be dropped together.
    let key =
      slug + "\u{1F}"
      + SpecimenFingerprint.of(
        specimen, family: family, label: snapshot.labelStamp,
        stamps: snapshot.cardStamps[slug] ?? [])
    return .success(CardRequest(specimen: specimen, slug: slug, key: key))
  }

  /// The specimen with the curated partners drawn along its bottom.
  func specimen(partners: [FontFamily]) -> SpecimenRequest<FamilyRef> {
    var specimen = specimen
    specimen.partners = partners.map(FamilyRef.init)
    return specimen
  }
}

enum CardProblem: Error {
  case notFound
  case invalid(String)
}

/// A card's query read value by value, each problem kept for the one 400 answer.
private struct QueryReader {
  let query: [String: String]
  let defaults: Job.Defaults
  var problems: [String] = []

  /// The text typed; blank is the job's.
  mutating func text() -> String {
    var text = query["text"] ?? ""
    if text.allSatisfy(\.isWhitespace) { text = defaults.text }
    if text.count > Limits.textLength {
      problems.append("text is longer than \(Limits.textLength) characters")
    } else if let problem = Limits.sampleTextProblem(text) {
      problems.append("text \(problem)")
    }
    return text
  }

  mutating func number(_ name: String, _ fallback: Double, _ range: ClosedRange<Double>)
    -> Double
  {
    guard let written = query[name] else { return fallback }
    guard let value = Double(written), value.isFinite, range.contains(value) else {
      problems.append(
        "\(name) must be a number from \(ProofNumber.format(range.lowerBound)) to "
          + ProofNumber.format(range.upperBound))
      return fallback
    }
    return value
  }

  mutating func scale(default fallback: Int) -> Int {
    let range = Double(Limits.scale.lowerBound)...Double(Limits.scale.upperBound)
    let scale = number("scale", Double(fallback), range)
    if scale.rounded() != scale { problems.append("scale must be \(Limits.scaleChoices)") }
    return Int(scale)
  }

  /// The side of the square before `scale`, in px: `render --edge`'s range, 1080 left out.
  mutating func edge(scale: Int) -> Int {
    let range = Double(Limits.requestedEdge.lowerBound)...Double(Limits.requestedEdge.upperBound)
    let edge = number("edge", 1080, range)
    guard edge.rounded() == edge else {
      problems.append("edge must be a whole number of px")
      return 1080
    }
    if let problem = Limits.pixelsProblem(edge: Int(edge), scale: scale) {
      problems.append("edge × scale \(problem)")
    }
    return Int(edge)
  }

  mutating func theme() -> Theme {
    guard let written = query["theme"] else { return defaults.theme }
    guard let theme = Theme(rawValue: written) else {
      problems.append("theme must be ink or cream")
      return defaults.theme
    }
    return theme
  }

  func flag(_ name: String) -> Bool {
    guard let v = query[name] else { return false }
    return v == "1" || v == "true"
  }

  /// The sample's language, coordinates and features: left out, the job's; given empty
  /// (`feat=`), none.
  mutating func settings() -> SampleSettings {
    let parsed = SampleSettings.parse(
      variations: query["var"].flatMap { $0.isEmpty ? nil : $0 },
      features: query["feat"].flatMap { $0.isEmpty ? nil : $0 },
      language: query["lang"].flatMap { $0.isEmpty ? nil : $0 },
      names: ("var", "feat", "lang"))
    problems += parsed.problems
    var settings = parsed.settings
    let job = defaults.sample
    if query["var"] == nil { settings.variations = job.variations }
    if query["feat"] == nil { settings.features = job.features }
    if query["lang"] == nil { settings.language = job.language }
    return settings
  }
}
