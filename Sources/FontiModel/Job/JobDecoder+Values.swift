import FontiSupport

/// The typed readers every key's decoding uses (text, numbers, lists, choices, paths), each
/// reporting where a value is not what its key takes, and the wording of those reports.
extension JobDecoder {
  // MARK: - Typed values

  /// The entries of a mapping, keyed by name, with unknown keys reported (and a suggestion).
  /// A null value (`text:`, `text: ~`) is kept: it is not an absent key, and the typed reader
  /// of each value reports it ("defaults.text must be text, not null"). A non-mapping is
  /// reported and gives no entries.
  mutating func fields(
    _ node: YAMLNode, keys: [String], in context: String?, expected: String? = nil
  ) -> [String: YAMLNode] {
    guard case .mapping(let entries, _) = node else {
      if let expected {
        error("expected \(expected), not \(describe(node))", at: node.mark)
      } else {
        error(
          "\(context ?? "the job file") must be a mapping of keys "
            + "(\(keys.joined(separator: ", "))), not \(describe(node))", at: node.mark)
      }
      return [:]
    }
    var result: [String: YAMLNode] = [:]
    for entry in entries {
      guard keys.contains(entry.key) else {
        let place = context.map { " in \($0)" } ?? ""
        if let guess = Suggest.didYouMean(entry.key, among: keys) {
          error("unknown key '\(entry.key)'\(place) (did you mean '\(guess)'?)", at: entry.keyMark)
        } else {
          error(
            "unknown key '\(entry.key)'\(place)", at: entry.keyMark,
            hint: "the keys\(place) are \(keys.joined(separator: ", "))")
        }
        continue
      }
      result[entry.key] = entry.value
    }
    return result
  }

  /// A list; a non-list is reported with what it should hold.
  mutating func list(_ node: YAMLNode, _ name: String, of what: String) -> [YAMLNode]? {
    guard case .sequence(let items, _) = node else {
      var hint: String?
      if case .scalar(let value, _, _) = node, !node.isNull {
        hint = "write a list, e.g. \(name.split(separator: ".").last ?? ""): [\(flow(value))]"
      }
      error("\(name) must be a list of \(what), not \(describe(node))", at: node.mark, hint: hint)
      return nil
    }
    return items
  }

  /// A scalar as a string, any style. Control characters are refused (they cannot be shown
  /// and a NUL would cut a C string short); `multiline` allows newlines and tabs. `kind` names
  /// the type in the error ("title must be a string, not null").
  mutating func string(
    _ node: YAMLNode, _ name: String, multiline: Bool = false, kind: String = "a string"
  ) -> String? {
    guard case .scalar(let value, let mark, _) = node, !node.isNull else {
      error("\(name) must be \(kind), not \(describe(node))", at: node.mark)
      return nil
    }
    for scalar in value.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A:
        if multiline { continue }
        fallthrough
      case 0x00...0x1F, 0x7F...0x9F:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        error("\(name) contains a control character (U+\(code))", at: mark)
        return nil
      default: continue
      }
    }
    return value
  }

  /// A sample text: not empty, at most `Limits.textLength` characters.
  mutating func sampleText(_ node: YAMLNode, _ name: String) -> String? {
    guard let text = string(node, name, multiline: true, kind: "text") else { return nil }
    if text.trimmingWhitespace().isEmpty {
      error("\(name) is empty", at: node.mark)
      return nil
    }
    if let problem = Limits.sampleTextProblem(text) {
      error("\(name) \(problem)", at: node.mark)
      return nil
    }
    return text
  }

  /// A family name or glob, kept with its position.
  mutating func familyName(_ node: YAMLNode, _ name: String) -> Located<String>? {
    guard let value = string(node, name) else { return nil }
    let trimmed = value.trimmingWhitespace()
    if trimmed.isEmpty {
      error("\(name) is empty", at: node.mark)
      return nil
    }
    return Located(trimmed, at: node.mark)
  }

  /// A list of family names or globs.
  mutating func names(_ node: YAMLNode, _ name: String) -> [Located<String>]? {
    guard let items = list(node, name, of: "family names or globs") else { return nil }
    var result: [Located<String>] = []
    for item in items {
      if let family = familyName(item, "a name in \(name)") { result.append(family) }
    }
    return result
  }

  mutating func bool(_ node: YAMLNode, _ name: String) -> Bool? {
    if case .scalar(let value, _, .plain) = node {
      switch value {
      case "true", "True", "TRUE": return true
      case "false", "False", "FALSE": return false
      default: break
      }
    }
    error("\(name) must be true or false, not \(describe(node))", at: node.mark)
    return nil
  }

  /// A plain decimal number (`48`, `10.5`, `1e2`); quoted numbers are strings.
  func numberValue(_ node: YAMLNode) -> Double? {
    guard case .scalar(let value, _, .plain) = node, Self.isDecimal(value) else { return nil }
    return Double(value)
  }

  /// A plain whole number, if the node is one.
  func wholeNumber(_ node: YAMLNode) -> Int? {
    guard let value = numberValue(node), value == value.rounded(), abs(value) < 1e15 else {
      return nil
    }
    return Int(value)
  }

  mutating func number(
    _ node: YAMLNode, _ name: String, in range: ClosedRange<Double>, unit: String
  ) -> Double? {
    guard let value = numeric(node, name, "a number") else { return nil }
    return within(range, value, name, unit: unit, at: node.mark, written: Self.format)
  }

  mutating func integer(
    _ node: YAMLNode, _ name: String, in range: ClosedRange<Int>, unit: String
  ) -> Int? {
    guard let value = numeric(node, name, "a whole number") else { return nil }
    guard let whole = wholeNumber(node) else {
      error("\(name) must be a whole number, not \(Self.format(value))", at: node.mark)
      return nil
    }
    return within(range, whole, name, unit: unit, at: node.mark, written: grouped)
  }

  /// The node's number; nil, with an error saying it must be `what`, when it is none.
  mutating func numeric(_ node: YAMLNode, _ name: String, _ what: String) -> Double? {
    guard let value = numberValue(node) else {
      error("\(name) must be \(what), not \(describe(node))", at: node.mark)
      return nil
    }
    return value
  }

  /// `value` when `range` holds it; nil, with an error giving the range (numbers as `written`
  /// writes them), when it does not.
  mutating func within<Value: Comparable>(
    _ range: ClosedRange<Value>, _ value: Value, _ name: String, unit: String, at mark: Mark,
    written: (Value) -> String
  ) -> Value? {
    guard range.contains(value) else {
      error(
        "\(name) \(written(value))\(unit) is outside "
          + "\(written(range.lowerBound))–\(written(range.upperBound))\(unit)", at: mark)
      return nil
    }
    return value
  }

  /// One of an enumeration's raw values (case-insensitive), with a suggestion when misspelt.
  mutating func choice<E: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ name: String) -> E?
  where E.RawValue == String {
    let allowed = E.allCases.map(\.rawValue)
    let list = allowed.dropLast().joined(separator: ", ") + " or " + (allowed.last ?? "")
    guard case .scalar(let value, _, _) = node, !node.isNull else {
      error("\(name) must be one of \(list), not \(describe(node))", at: node.mark)
      return nil
    }
    if let match = E.allCases.first(where: { $0.rawValue == value.lowercased() }) { return match }
    if let guess = Suggest.didYouMean(value, among: allowed) {
      error("unknown \(name) '\(value)' (did you mean '\(guess)'?)", at: node.mark)
    } else {
      error("unknown \(name) '\(value)' (expected \(list))", at: node.mark)
    }
    return nil
  }

  /// A path for something written inside the output folder: relative, and staying inside.
  mutating func outputRelativePath(_ node: YAMLNode, _ name: String, what: String)
    -> Located<String>?
  {
    guard let raw = string(node, name) else { return nil }
    if raw.isEmpty {
      error("\(name) is empty", at: node.mark)
      return nil
    }
    if raw.hasPrefix("/") || raw.hasPrefix("~") {
      error(
        "\(what) '\(raw)' must be relative to the output folder", at: node.mark,
        hint: "to write elsewhere, change 'output' (or use --output)")
      return nil
    }
    let normalised = JobPath.normalise(raw)
    if normalised == ".." || normalised.hasPrefix("../") {
      error("\(what) '\(raw)' would leave the output folder", at: node.mark)
      return nil
    }
    if normalised == "." || raw.hasSuffix("/") {
      error("\(what) '\(raw)' names a folder, not a file", at: node.mark)
      return nil
    }
    return Located(normalised, at: node.mark)
  }

  // MARK: - Wording

  /// `value` as it can be written inside `[…]`: quoted when YAML would read it otherwise.
  func flow(_ value: String) -> String {
    let special = value.contains { "*&!|>'\"%@`[]{},#:".contains($0) } || value.isEmpty
    if !special { return value }
    var quoted = "\""
    for ch in value {
      if ch == "\"" || ch == "\\" { quoted.append("\\") }
      quoted.append(ch)
    }
    return quoted + "\""
  }

  /// How a node reads in "must be a number, not …".
  func describe(_ node: YAMLNode) -> String {
    switch node {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .scalar(let value, _, let style):
      if node.isNull { return "null" }
      let shown = value.count > 40 ? value.prefix(40) + "…" : Substring(value)
      switch style {
      case .plain: return "'\(shown)'"
      case .quoted: return "the quoted string \"\(shown)\""
      case .block: return "a block of text"
      }
    }
  }

  /// `48` rather than `48.0`.
  static func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return grouped(Int(value)) }
    return "\(value)"
  }

  /// `[-+]?(digits[.digits] | .digits)([eE][-+]?digits)?`: YAML 1.2's decimal numbers, without
  /// the `.inf`/`.nan` and hexadecimal forms a size never needs.
  static func isDecimal(_ s: String) -> Bool {
    var chars = Substring(s).utf8[...]
    if let first = chars.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
      chars = chars.dropFirst()
    }
    let digits = chars.prefix { $0 >= 48 && $0 <= 57 }
    chars = chars.dropFirst(digits.count)
    var fraction = 0
    if chars.first == UInt8(ascii: ".") {
      chars = chars.dropFirst()
      fraction = chars.prefix { $0 >= 48 && $0 <= 57 }.count
      chars = chars.dropFirst(fraction)
    }
    guard digits.count + fraction > 0 else { return false }
    if let e = chars.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      chars = chars.dropFirst()
      if let sign = chars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
        chars = chars.dropFirst()
      }
      let exponent = chars.prefix { $0 >= 48 && $0 <= 57 }.count
      guard exponent > 0 else { return false }
      chars = chars.dropFirst(exponent)
    }
    return chars.isEmpty
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and line breaks.
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let start = firstIndex(where: { !isSpace($0) }),
      let end = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[start...end])
  }
}
