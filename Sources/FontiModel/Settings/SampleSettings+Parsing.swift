import FontiSupport
import Foundation

extension SampleSettings {
  /// Settings from their written forms (`render`'s options, `serve`'s card parameters): a list
  /// of coordinates (`wght=650,wdth=80`), of features (`smcp,-liga,cv01=2`) and a BCP 47 tag.
  /// Each malformed item is a problem, prefixed with the name the user gave it (`names`), all
  /// at once.
  public static func parse(
    variations: String?, features: String?, language: String?,
    names: (variations: String, features: String, language: String)
  ) -> (settings: SampleSettings, problems: [String]) {
    var settings = SampleSettings()
    var problems: [String] = []
    if let variations {
      let parsed = VariationSetting.parseList(variations)
      settings.variations = parsed.settings
      problems += parsed.errors.map { "\(names.variations): \($0.message)" }
    }
    if let features {
      let parsed = FeatureSetting.parseList(features)
      settings.features = parsed.settings
      problems += parsed.errors.map { "\(names.features): \($0.message)" }
    }
    if let language {
      let trimmed = language.trimmingCharacters(in: .whitespaces)
      if let problem = JobDecoder.languageTagProblem(trimmed) {
        let hint = JobDecoder.languageTagSuggestion(trimmed).map { "; \($0)" } ?? ""
        problems.append(
          "\(names.language) '\(Sanitize.terminal(String(trimmed.prefix(40))))' \(problem)\(hint)")
      } else {
        settings.language = trimmed
      }
    }
    return (settings, problems)
  }
}
