import FontiSupport

/// A bad feature or variation setting: the message says what is wrong and how to write it;
/// `offset` is where the bad item starts in the text that was parsed (in characters, 0 for a
/// single item), so that the job decoder and the CLI can point at it.
public struct SettingError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public var offset: Int

  public init(_ message: String, offset: Int = 0) {
    self.message = message
    self.offset = offset
  }

  public var description: String { message }
}

/// One OpenType feature setting as users write it: `smcp` (on), `-liga` (off), `cv01=2`
/// (alternate 2). `+smcp` and `smcp=0` are accepted too.
///
/// Tags are exactly four printable ASCII characters and are never padded: OpenType pads short
/// tags with trailing spaces, but no registered feature has one, and `cv1` is far more likely a
/// typo for `cv01` than a private tag, so it is refused with that hint. Spaces inside a tag are
/// refused for the same reason (and because lists are comma-separated with spaces allowed).
public struct FeatureSetting: Sendable, Hashable, Codable, CustomStringConvertible {
  public var tag: String
  /// 0 off, 1 on, n ≥ 2 the n-th alternate (`cvNN`, `salt`, `aalt`).
  public var value: Int

  /// The largest value accepted: OpenType alternate indices are 16-bit.
  public static let maximumValue = 65535

  public init(tag: String, value: Int = 1) {
    self.tag = tag
    self.value = value
  }

  public var isOn: Bool { value != 0 }

  /// The canonical spelling: `smcp`, `-liga`, `cv01=2`.
  public var description: String {
    switch value {
    case 0: return "-" + tag
    case 1: return tag
    default: return "\(tag)=\(value)"
    }
  }

  /// Settings as Pango's font-features attribute and HarfBuzz take them
  /// (`pango_attr_font_features_new`): `smcp=1,liga=0,cv01=2`.
  public static func pangoString(_ settings: [FeatureSetting]) -> String {
    settings.map { "\($0.tag)=\($0.value)" }.joined(separator: ",")
  }

  /// Parses one setting; surrounding white space is ignored.
  public static func parse(_ text: String) throws(SettingError) -> FeatureSetting {
    let item = text.trimmingWhitespace()
    // What the user wrote is echoed in messages; a control character must not reach a terminal.
    let shown = Sanitize.terminal(item)
    guard !item.isEmpty else {
      throw SettingError("an empty feature setting (expected e.g. smcp, -liga or cv01=2)")
    }
    var body = Substring(item)
    var off = false
    if body.hasPrefix("-") {
      off = true
      body = body.dropFirst()
    } else if body.hasPrefix("+") {
      body = body.dropFirst()
    }
    let tagPart: Substring
    var valuePart: Substring?
    if let equals = body.firstIndex(of: "=") {
      tagPart = body[..<equals]
      valuePart = body[body.index(after: equals)...]
    } else {
      tagPart = body
    }
    let tag = String(tagPart).trimmingWhitespace()
    if let problem = ProofTag.problem(tag, kind: "feature") {
      throw SettingError("'\(shown)': \(problem)")
    }
    guard let valuePart else { return FeatureSetting(tag: tag, value: off ? 0 : 1) }
    if off {
      throw SettingError(
        "'\(shown)': a feature turned off with '-' takes no value (write -\(tag) or \(tag)=0)")
    }
    let valueText = String(valuePart).trimmingWhitespace()
    guard !valueText.isEmpty, valueText.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw SettingError(
        "'\(shown)': the value of feature '\(tag)' must be a whole number 0 or more (e.g. \(tag)=2)"
      )
    }
    guard let value = Int(valueText), value <= maximumValue else {
      throw SettingError(
        "'\(shown)': the value of feature '\(tag)' must be at most \(maximumValue)")
    }
    return FeatureSetting(tag: tag, value: value)
  }

  /// Parses a comma-separated list as the CLI takes it (`smcp,onum,-liga`): every item is
  /// checked and every bad one reported, each error's `offset` at its item. A tag set twice
  /// is an error (which one was meant?). An empty or all-blank text is an empty list.
  public static func parseList(_ text: String) -> (
    settings: [FeatureSetting], errors: [SettingError]
  ) {
    var settings: [FeatureSetting] = []
    var errors: [SettingError] = []
    var seen: [String: String] = [:]
    for (item, offset) in SettingList.items(text) {
      do {
        let setting = try parse(item)
        if let first = seen[setting.tag] {
          errors.append(
            SettingError(
              "'\(Sanitize.terminal(item.trimmingWhitespace()))': feature '\(setting.tag)' is "
                + "already set by '\(Sanitize.terminal(first))'", offset: offset))
          continue
        }
        seen[setting.tag] = item.trimmingWhitespace()
        settings.append(setting)
      } catch {
        errors.append(SettingError(error.message, offset: offset))
      }
    }
    return (settings, errors)
  }
}

/// The checks shared by feature and axis tags.
enum ProofTag {
  /// Why `tag` is not a usable tag, or nil when it is one.
  static func problem(_ tag: String, kind: String) -> String? {
    let example = kind == "axis" ? "wght" : "smcp"
    if tag.isEmpty {
      return "\(kind == "axis" ? "an" : "a") \(kind) tag is missing (e.g. \(example))"
    }
    let scalars = tag.unicodeScalars
    if scalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E }) {
      let shown = Sanitize.terminal(tag)
      return "\(kind) tag '\(shown)' may hold only printable ASCII letters, digits and "
        + "punctuation, without spaces"
    }
    if scalars.count != 4 {
      var hint = ""
      if kind == "feature", let padded = paddedVariantTag(tag) {
        hint = " (did you mean '\(padded)'?)"
      }
      return "\(kind) tag '\(tag)' must be exactly 4 characters, not \(scalars.count)\(hint)"
    }
    return nil
  }

  /// `cv1` → `cv01`, `ss3` → `ss03`: the usual slip with numbered features.
  private static func paddedVariantTag(_ tag: String) -> String? {
    guard tag.count == 3, tag.hasPrefix("cv") || tag.hasPrefix("ss"),
      let digit = tag.last, digit.isASCII, digit.isNumber
    else { return nil }
    return String(tag.prefix(2)) + "0" + String(digit)
  }
}

/// Splitting a comma-separated list while keeping where each item starts.
enum SettingList {
  /// The items of `text` with their character offsets; an all-blank text has none, and a
  /// trailing comma does not make an empty last item.
  static func items(_ text: String) -> [(String, Int)] {
    if text.trimmingWhitespace().isEmpty { return [] }
    var out: [(String, Int)] = []
    var current = ""
    var start = 0
    var position = 0
    for character in text {
      if character == "," {
        out.append((current, start))
        current = ""
        start = position + 1
      } else {
        current.append(character)
      }
      position += 1
    }
    if !(current.trimmingWhitespace().isEmpty && !out.isEmpty) { out.append((current, start)) }
    return out.map { item, offset in
      // Point at the item's first non-blank character.
      let leading = item.prefix { $0.isWhitespace }.count
      return (item, offset + leading)
    }
  }
}
