import FontiSupport

/// One design coordinate as users write it: `wght=650`, `wdth=87.5`; in a job,
/// `defaults.variations: {wght: 650}` gives the tag and value apart (`parse(tag:value:)`).
/// Tags follow the rules of `FeatureSetting` (exactly 4 printable ASCII characters, no
/// padding); values are finite decimal numbers (no exponents, no `inf`, no hex).
public struct VariationSetting: Sendable, Hashable, Codable, CustomStringConvertible {
  public var tag: String
  public var value: Double

  public init(tag: String, value: Double) {
    self.tag = tag
    self.value = value
  }

  /// `wght=650`, `wdth=87.5`.
  public var description: String { "\(tag)=\(ProofNumber.format(value))" }

  /// Coordinates as Pango's font description takes them
  /// (`pango_font_description_set_variations`): `wght=650,wdth=87.5`.
  public static func pangoString(_ settings: [VariationSetting]) -> String {
    settings.map(\.description).joined(separator: ",")
  }

  /// Parses `TAG=VALUE`; surrounding white space is ignored.
  public static func parse(_ text: String) throws(SettingError) -> VariationSetting {
    let item = text.trimmingWhitespace()
    guard !item.isEmpty else {
      throw SettingError("an empty axis setting (expected e.g. wght=650)")
    }
    guard let equals = item.firstIndex(of: "=") else {
      let tag = item
      let example = ProofTag.problem(tag, kind: "axis") == nil ? "\(tag)=650" : "wght=650"
      throw SettingError(
        "'\(Sanitize.terminal(item))': an axis setting needs a value (e.g. \(example))")
    }
    let tag = String(item[..<equals]).trimmingWhitespace()
    let value = String(item[item.index(after: equals)...]).trimmingWhitespace()
    do {
      return try parse(tag: tag, value: value)
    } catch {
      throw SettingError("'\(Sanitize.terminal(item))': \(error.message)")
    }
  }

  /// Checks a tag and a value given apart (a job's `{wght: 650}`). The message does not
  /// repeat the input: the caller locates it.
  public static func parse(tag: String, value: String) throws(SettingError) -> VariationSetting {
    if let problem = ProofTag.problem(tag, kind: "axis") { throw SettingError(problem) }
    let text = value.trimmingWhitespace()
    guard let number = ProofNumber.parse(text) else {
      throw SettingError("the value of axis '\(tag)' must be a number")
    }
    return VariationSetting(tag: tag, value: number)
  }

  /// Parses a comma-separated list as the CLI takes it (`wght=650,wdth=80`), reporting every
  /// bad item at its offset; an axis set twice is an error.
  public static func parseList(_ text: String) -> (
    settings: [VariationSetting], errors: [SettingError]
  ) {
    var settings: [VariationSetting] = []
    var errors: [SettingError] = []
    var seen = Set<String>()
    for (item, offset) in SettingList.items(text) {
      do {
        let setting = try parse(item)
        guard seen.insert(setting.tag).inserted else {
          errors.append(
            SettingError(
              "'\(Sanitize.terminal(item.trimmingWhitespace()))': axis '\(setting.tag)' is set twice",
              offset: offset))
          continue
        }
        settings.append(setting)
      } catch {
        errors.append(SettingError(error.message, offset: offset))
      }
    }
    return (settings, errors)
  }

  /// The coordinates to draw `family` at: each setting checked against the family's axes.
  /// A value outside an axis's range is clamped to it, with a warning naming the family, the
  /// axis and the range (`docs/warnings.md`, `axis-range`: never a silent clamp); a setting for an
  /// axis the family lacks is dropped without a word (a job sets `wdth` for every family, most have
  /// none).
  public static func resolve(
    _ settings: [VariationSetting], axes: [FontProofs.Axis], family: String
  ) -> (coordinates: [VariationSetting], warnings: [String]) {
    var coordinates: [VariationSetting] = []
    var warnings: [String] = []
    for setting in settings {
      guard let axis = axes.first(where: { $0.tag == setting.tag }) else { continue }
      let clamped = min(max(setting.value, axis.min), axis.max)
      if clamped != setting.value {
        warnings.append(
          "family '\(family)' axis \(axis.tag) \(ProofNumber.format(setting.value)) is outside "
            + "\(ProofNumber.format(axis.min))–\(ProofNumber.format(axis.max)); drawn at "
            + ProofNumber.format(clamped))
      }
      coordinates.append(VariationSetting(tag: setting.tag, value: clamped))
    }
    return (coordinates, warnings)
  }
}

/// Numbers in proofs: axis values as users write them and as the manifest shows them.
public enum ProofNumber {
  /// A finite decimal number: optional sign, digits, optional fraction (`650`, `-10`, `87.5`,
  /// `.5`). nil for anything else, including `inf`, `nan`, `1e3` and `0x10`, which Swift's
  /// `Double(_:)` would take.
  public static func parse(_ text: String) -> Double? {
    var digits = 0
    var dots = 0
    for (i, c) in text.enumerated() {
      switch c {
      case "+", "-": if i != 0 { return nil }
      case ".": dots += 1
      case "0"..."9": digits += 1
      default: return nil
      }
    }
    guard digits > 0, dots <= 1, digits <= 30, let value = Double(text), value.isFinite else {
      return nil
    }
    return value
  }

  /// `100`, `87.5`, `-10`, `0.333`: no trailing zeros, at most 3 decimals, never `-0`. A
  /// magnitude past `Int`'s (far beyond OpenType's axis range of ±32768, so only ever a typing
  /// slip) keeps Swift's own form, `1e+20`.
  public static func format(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    var whole = abs(value).rounded(.down)
    guard whole < 9.2e18 else { return String(value) }
    var thousandths = Int(((abs(value) - whole) * 1000).rounded())
    if thousandths == 1000 {
      whole += 1
      thousandths = 0
    }
    guard whole > 0 || thousandths > 0 else { return "0" }
    var text = (value < 0 ? "-" : "") + String(Int(whole))
    if thousandths > 0 {
      var digits = String(thousandths)
      digits = String(repeating: "0", count: 3 - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text
  }
}
