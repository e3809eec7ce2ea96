import FontiSupport

/// The keys of the proofs (`docs/job-file.md`, `docs/proofs.md`): `proofs:`, `defaults.language`,
/// `defaults.variations`, `defaults.features` and `families.languages`. Each bad item is
/// reported where it is written, every one at once, like the rest of the job.
extension JobDecoder {
  /// `proofs: {axes, features, languages, glyphs}`, booleans; absent keys keep the
  /// defaults of `docs/job-file.md` (all on but `glyphs`).
  mutating func decodeProofs(_ node: YAMLNode, into proofs: inout ProofOptions) {
    let fields = self.fields(
      node, keys: ["axes", "features", "languages", "glyphs"], in: "proofs")
    if let node = fields["axes"], let value = bool(node, "proofs.axes") { proofs.axes = value }
    if let node = fields["features"], let value = bool(node, "proofs.features") {
      proofs.features = value
    }
    if let node = fields["languages"], let value = bool(node, "proofs.languages") {
      proofs.languages = value
    }
    if let node = fields["glyphs"], let value = bool(node, "proofs.glyphs") {
      proofs.glyphs = value
    }
  }

  /// `defaults.variations: {wght: 650, wdth: 87.5}`: a mapping of axis tags to numbers. A bad
  /// tag is reported at its key, a bad value at the value.
  mutating func decodeVariations(_ node: YAMLNode, into defaults: inout Job.Defaults) {
    guard case .mapping(let entries, _) = node else {
      error(
        "defaults.variations must be a mapping of axis tags to values, not \(describe(node))",
        at: node.mark, hint: "e.g. variations: { wght: 650, wdth: 87.5 }")
      return
    }
    var settings: [VariationSetting] = []
    var marks: [Mark] = []
    for entry in entries {
      if let problem = ProofTag.problem(entry.key, kind: "axis") {
        error("in defaults.variations: \(problem)", at: entry.keyMark)
        continue
      }
      guard case .scalar(let text, _, .plain) = entry.value, !entry.value.isNull else {
        error(
          "the value of axis '\(entry.key)' must be a number, not \(describe(entry.value))",
          at: entry.value.mark, hint: "e.g. \(entry.key): 650")
        continue
      }
      do {
        settings.append(try VariationSetting.parse(tag: entry.key, value: text))
        marks.append(entry.keyMark)
      } catch let problem {
        error(
          "\(problem.message), not \(describe(entry.value))", at: entry.value.mark,
          hint: "e.g. \(entry.key): 650")
      }
    }
    defaults.sample.variations = settings
    defaults.variationMarks = marks
  }

  /// `defaults.features: [onum, -liga, cv01=2]`: each item `FeatureSetting`'s syntax; a tag
  /// set twice is an error (which one was meant?).
  mutating func decodeFeatures(_ node: YAMLNode, into defaults: inout Job.Defaults) {
    guard case .sequence(let items, _) = node else {
      var hint = "e.g. features: [smcp, onum, -liga, cv01=2]"
      if case .scalar(let value, _, _) = node, !node.isNull, !value.isEmpty {
        hint = "write a list, e.g. features: [\(flow(value))]"
      }
      error(
        "defaults.features must be a list of feature settings, not \(describe(node))",
        at: node.mark, hint: hint)
      return
    }
    var settings: [FeatureSetting] = []
    var marks: [Mark] = []
    var seen: [String: Mark] = [:]
    for item in items {
      guard case .scalar(let text, _, _) = item, !item.isNull else {
        error(
          "a feature setting must be text such as smcp, -liga or cv01=2, not \(describe(item))",
          at: item.mark)
        continue
      }
      do {
        let setting = try FeatureSetting.parse(text)
        if let first = seen[setting.tag] {
          error(
            "feature '\(setting.tag)' is set twice (first at \(first.line):\(first.column))",
            at: item.mark)
          continue
        }
        seen[setting.tag] = item.mark
        settings.append(setting)
        marks.append(item.mark)
      } catch let problem {
        error(problem.message, at: item.mark, hint: "features are written smcp, -liga or cv01=2")
      }
    }
    defaults.sample.features = settings
    defaults.featureMarks = marks
  }

  /// `families.languages: [vi, pl]`: fontconfig's codes, each known (`LanguageFilter`).
  mutating func decodeLanguages(_ node: YAMLNode, into job: inout Job) {
    guard let items = list(node, "families.languages", of: "language codes such as vi or pl")
    else { return }
    var codes: [Located<String>] = []
    for item in items {
      guard let value = string(item, "a code in families.languages") else { continue }
      if let problem = LanguageFilter.problem(with: value, in: languages) {
        error(problem.message, at: item.mark, hint: problem.hint)
        continue
      }
      codes.append(Located(value, at: item.mark))
    }
    job.languages = codes
  }

  /// A BCP 47 language tag (`en`, `sr`, `zh-Hant-TW`): subtags of 1–8 ASCII letters and digits
  /// joined by hyphens, the first of 2–3 or 5–8 letters. Whether the language exists is not
  /// checked (a font's `locl` may serve any); its shape is.
  mutating func languageTag(_ node: YAMLNode, _ name: String) -> String? {
    guard let raw = string(node, name, kind: "a language tag such as en or sr") else {
      return nil
    }
    let tag = raw.trimmingWhitespace()
    if let problem = JobDecoder.languageTagProblem(tag) {
      let hint =
        JobDecoder.languageTagSuggestion(tag) ?? "a BCP 47 tag such as en, sr, vi or zh-TW"
      error(
        "\(name) '\(Sanitize.terminal(String(tag.prefix(40))))' \(problem)", at: node.mark,
        hint: hint)
      return nil
    }
    return tag
  }

  /// "did you mean 'en-GB'? (…)" for a tag written with underscores (`en_GB`, as locales
  /// are), when the hyphenated tag is well formed.
  public static func languageTagSuggestion(_ tag: String) -> String? {
    let fixed = tag.replacingOccurrences(of: "_", with: "-")
    guard fixed != tag, languageTagProblem(fixed) == nil else { return nil }
    return "did you mean '\(fixed)'? (BCP 47 joins subtags with hyphens)"
  }

  /// Why `tag` is not shaped like a BCP 47 language tag, or nil when it is.
  public static func languageTagProblem(_ tag: String) -> String? {
    guard !tag.isEmpty else { return "is empty" }
    guard tag.count <= Limits.languageTagLength else { return "is too long for a language tag" }
    let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
    for subtag in subtags {
      guard !subtag.isEmpty else { return "has an empty subtag" }
      guard subtag.count <= 8, subtag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
      else { return "is not a language tag (subtags are 1–8 letters or digits, joined by '-')" }
    }
    let primary = subtags[0]
    guard primary.allSatisfy({ $0.isLetter }), [2, 3, 5, 6, 7, 8].contains(primary.count) else {
      return "does not start with a language (2 or 3 letters, e.g. en, sr)"
    }
    return nil
  }
}
