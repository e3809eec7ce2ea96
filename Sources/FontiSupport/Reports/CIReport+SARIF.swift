import Foundation

extension CIReport {
  /// The most results a SARIF report holds: what GitHub's code scanning shows of a run.
  public static let sarifResultLimit = 5_000

  /// SARIF 2.1.0, as code scanning reads it: the rules (warning kinds, `diff` change kinds) with
  /// help pointing into the docs; every result with a `physicalLocation` (an upload with one
  /// result without is refused whole) and its family, face and glyph as `logicalLocations`;
  /// at most `limit` results, most severe first, the rest counted in a notification; the
  /// command in `automationDetails.id`. Only the invocation's times change from run to run.
  public func sarif(limit: Int = CIReport.sarifResultLimit) -> [UInt8] {
    let rules = allRules
    let ruleIndex = Dictionary(
      rules.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
    let ordered = findingsBySeverity
    let kept = ordered.prefix(limit)
    var w = JSONWriter(capacity: 4096 + kept.count * 512)
    w.beginObject()
    w.key("$schema")
    w.string("https://json.schemastore.org/sarif-2.1.0.json")
    w.key("runs")
    w.beginArray()
    w.element()
    w.beginObject()
    w.key("automationDetails")
    w.beginObject()
    w.key("id")
    w.string("fonti-batch/\(command.rawValue)/")
    w.endObject()
    w.key("invocations")
    w.beginArray()
    w.element()
    writeInvocation(&w, leftOut: ordered.count - kept.count)
    w.endArray()
    w.key("results")
    w.beginArray()
    for finding in kept {
      w.element()
      Self.writeResult(&w, finding, ruleIndex: ruleIndex[finding.rule] ?? 0)
    }
    w.endArray()
    w.key("tool")
    w.beginObject()
    w.key("driver")
    w.beginObject()
    w.key("name")
    w.string("fonti-batch")
    w.key("rules")
    w.beginArray()
    for rule in rules {
      w.element()
      Self.writeRule(&w, rule)
    }
    w.endArray()
    w.key("version")
    w.string(FontiVersion.number)
    w.endObject()
    w.endObject()
    w.endObject()
    w.endArray()
    w.key("version")
    w.string("2.1.0")
    w.endObject()
    w.newline()
    return (try? w.finished()) ?? []
  }

  /// `rules`, and a rule for any finding whose rule is not among them, in order of first use.
  var allRules: [Rule] {
    var rules = self.rules
    var known = Set(rules.map(\.id))
    for finding in findings where known.insert(finding.rule).inserted {
      rules.append(Rule(id: finding.rule, summary: finding.rule, help: "docs/", level: .note))
    }
    return rules
  }

  private func writeInvocation(_ w: inout JSONWriter, leftOut: Int) {
    w.beginObject()
    w.key("endTimeUtc")
    w.string(Self.timestamp(finished))
    w.key("executionSuccessful")
    // The tool did its work: a failing verdict (exit 1) is a result, not a failed execution.
    w.bool(exitCode == 0 || exitCode == 1)
    w.key("exitCode")
    w.int(exitCode)
    w.key("startTimeUtc")
    w.string(Self.timestamp(started))
    if leftOut > 0 {
      w.key("toolExecutionNotifications")
      w.beginArray()
      w.element()
      w.beginObject()
      w.key("descriptor")
      w.beginObject()
      w.key("id")
      w.string("results-left-out")
      w.endObject()
      w.key("level")
      w.string("warning")
      w.key("message")
      w.beginObject()
      w.key("text")
      w.string(
        "\(leftOut) more result\(leftOut == 1 ? "" : "s") left out (a report holds "
          + "\(Self.sarifResultLimit), most severe first): see \(detailsFile)")
      w.endObject()
      w.endObject()
      w.endArray()
    }
    w.endObject()
  }

  private static func writeRule(_ w: inout JSONWriter, _ rule: Rule) {
    w.beginObject()
    w.key("defaultConfiguration")
    w.beginObject()
    w.key("level")
    w.string(rule.level.rawValue)
    w.endObject()
    w.key("help")
    w.beginObject()
    w.key("text")
    w.string("\(rule.summary) See \(rule.help) in fonti-batch's documentation.")
    w.endObject()
    w.key("id")
    w.string(rule.id)
    w.key("name")
    w.string(ruleName(rule.id))
    w.key("shortDescription")
    w.beginObject()
    w.key("text")
    w.string(rule.summary)
    w.endObject()
    w.endObject()
  }

  /// `missing-glyphs` → `MissingGlyphs`, `os2.weightClass` → `Os2WeightClass`: SARIF's
  /// `name`, an identifier.
  static func ruleName(_ id: String) -> String {
    id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map {
      $0.prefix(1).uppercased() + $0.dropFirst()
    }.joined()
  }

  private static func writeResult(_ w: inout JSONWriter, _ finding: Finding, ruleIndex: Int) {
    w.beginObject()
    w.key("level")
    w.string(finding.level.rawValue)
    w.key("locations")
    w.beginArray()
    w.element()
    writeLocation(&w, finding.location)
    w.endArray()
    w.key("message")
    w.beginObject()
    w.key("text")
    w.string(Self.bounded(finding.message))
    w.endObject()
    w.key("ruleId")
    w.string(finding.rule)
    w.key("ruleIndex")
    w.int(ruleIndex)
    w.endObject()
  }

  private static func writeLocation(_ w: inout JSONWriter, _ location: Location) {
    w.beginObject()
    let logical = [
      ("family", location.family), ("face", location.face), ("glyph", location.glyph),
    ].compactMap { kind, name in name.map { (kind, bounded($0, limit: 1_000)) } }
    if !logical.isEmpty {
      w.key("logicalLocations")
      w.beginArray()
      var path: [String] = []
      for (kind, name) in logical {
        path.append(name)
        w.element()
        w.beginObject()
        w.key("fullyQualifiedName")
        w.string(path.joined(separator: "/"))
        w.key("kind")
        w.string(kind)
        w.key("name")
        w.string(name)
        w.endObject()
      }
      w.endArray()
    }
    w.key("physicalLocation")
    w.beginObject()
    w.key("artifactLocation")
    w.beginObject()
    let (uri, base) = artifactURI(location.file)
    w.key("uri")
    w.string(uri)
    if let base {
      w.key("uriBaseId")
      w.string(base)
    }
    w.endObject()
    if let line = location.line, line >= 1 {
      w.key("region")
      w.beginObject()
      if let column = location.column, column >= 1 {
        w.key("startColumn")
        w.int(column)
      }
      w.key("startLine")
      w.int(line)
      w.endObject()
    }
    w.endObject()
    w.endObject()
  }

  /// A path as SARIF's `artifactLocation`: relative to `%SRCROOT%` (the checkout) when it is
  /// relative, a `file://` URI when absolute; percent-encoded either way.
  static func artifactURI(_ path: String) -> (uri: String, base: String?) {
    var allowed = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
    allowed.insert(charactersIn: "-._~/")
    var trimmed = Substring(path)
    while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
    let encoded =
      String(trimmed).addingPercentEncoding(withAllowedCharacters: allowed) ?? "unknown"
    if path.hasPrefix("/") { return ("file://" + encoded, nil) }
    return (encoded.isEmpty ? "." : encoded, "%SRCROOT%")
  }

  /// At most `limit` characters of a name or message from a font file.
  static func bounded(_ text: String, limit: Int = 4_000) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > limit else { return text }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars.prefix(limit))
    return String(out) + "…"
  }
}
