import FontiDraw
import FontiModel
import Foundation

/// One card asked of `serve`, from its URL's query: the settings `render` takes, with the
/// job's defaults (text, size, theme, language, variations, features) for what is left out,
/// held to the same `Limits`. What it draws is exactly what `render` draws for them
/// (the curated partners along the bottom, 1080 px at `scale`): `specimen` builds the same
/// `SpecimenRequest` `render` does.
struct CardRequest: Sendable {
  var family: FontFamily
  var slug: String
  var text: String
  var size: Double
  var bold: Bool
  var italic: Bool
  var theme: Theme
  var scale: Int
  var settings: SampleSettings
  /// Everything the picture depends on, the family's version among it.
  var key: String

  /// The card of `slug` for `query`, or why the query is not one (a 400 answer).
  static func parse(
    slug: String, query: [String: String], snapshot: ServeSnapshot, defaultScale: Int = 1
  ) -> Result<CardRequest, CardProblem> {
    guard let family = snapshot.bySlug[slug], let version = snapshot.versions[slug] else {
      return .failure(.notFound)
    }
    let defaults = snapshot.job.defaults
    var problems: [String] = []
    var text = query["text"] ?? ""
    if text.allSatisfy(\.isWhitespace) { text = defaults.text }
    if text.count > Limits.textLength {
      problems.append("text is longer than \(Limits.textLength) characters")
    } else if let problem = Limits.sampleTextProblem(text) {
      problems.append("text \(problem)")
    }
    func number(_ name: String, _ fallback: Double, _ range: ClosedRange<Double>) -> Double {
      guard let written = query[name] else { return fallback }
      guard let value = Double(written), value.isFinite, range.contains(value) else {
        problems.append(
          "\(name) must be a number from \(ProofNumber.format(range.lowerBound)) to "
            + ProofNumber.format(range.upperBound))
        return fallback
      }
      return value
    }
    let size = number("size", defaults.size, Limits.sampleSize)
    let scales = Double(Limits.scale.lowerBound)...Double(Limits.scale.upperBound)
    let scale = number("scale", Double(defaultScale), scales)
    if scale.rounded() != scale { problems.append("scale must be \(Limits.scaleChoices)") }
    var theme = defaults.theme
    if let written = query["theme"] {
      if let t = Theme(rawValue: written) {
        theme = t
      } else {
        problems.append("theme must be ink or cream")
      }
    }
    func flag(_ name: String) -> Bool {
      guard let v = query[name] else { return false }
      return v == "1" || v == "true"
    }
    let parsed = SampleSettings.parse(
      variations: query["var"].flatMap { $0.isEmpty ? nil : $0 },
      features: query["feat"].flatMap { $0.isEmpty ? nil : $0 },
      language: query["lang"].flatMap { $0.isEmpty ? nil : $0 },
      names: ("var", "feat", "lang"))
    problems += parsed.problems
    guard problems.isEmpty else { return .failure(.invalid(problems.joined(separator: "; "))) }
    // Left out: the job's; given empty (`feat=`): none.
    var settings = parsed.settings
    let job = defaults.sample
    if query["var"] == nil { settings.variations = job.variations }
    if query["feat"] == nil { settings.features = job.features }
    if query["lang"] == nil { settings.language = job.language }
    let key = [
      slug, version, text, ProofNumber.format(size), "\(flag("bold"))", "\(flag("italic"))",
      theme.rawValue, "\(Int(scale))", settings.language ?? "",
      settings.variations.map(\.description).joined(separator: ","),
      settings.features.map(\.description).joined(separator: ","),
    ].joined(separator: "\u{1F}")
    return .success(
      CardRequest(
        family: family, slug: slug, text: text, size: size, bold: flag("bold"),
        italic: flag("italic"), theme: theme, scale: Int(scale), settings: settings, key: key))
  }

  /// The specimen `render FAMILY` draws for these settings.
  func specimen(partners: [FontFamily]) -> SpecimenRequest<FamilyRef> {
    SpecimenRequest(
      family: FamilyRef(family), text: text, size: size, theme: theme, scale: scale, bold: bold,
      italic: italic, partners: partners.map(FamilyRef.init),
      sample: settings.isEmpty ? nil : settings)
  }
}

enum CardProblem: Error {
  case notFound
  case invalid(String)
}
