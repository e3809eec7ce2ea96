import Foundation

/// XML text: the five special characters escaped, characters XML 1.0 cannot hold (controls,
/// U+FFFE, U+FFFF) replaced by U+FFFD, and at most `limit` characters kept. Family names come
/// from font files and may hold anything.
enum XMLText {
  /// The most characters of one name or message kept in a report.
  static let limit = 4_000

  /// For an attribute value in double quotes: line breaks and tabs as references too, so that
  /// a reader's attribute normalisation keeps them.
  static func attribute(_ text: String, limit: Int = XMLText.limit) -> String {
    escape(text, limit: limit, attribute: true)
  }

  /// For element content.
  static func content(_ text: String, limit: Int = XMLText.limit * 4) -> String {
    escape(text, limit: limit, attribute: false)
  }

  static func escape(_ text: String, limit: Int, attribute: Bool) -> String {
    var out = ""
    out.reserveCapacity(min(text.utf8.count, limit) + 16)
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        out += "…"
        break
      }
      count += 1
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += attribute ? "&#10;" : "\n"
      case "\r": out += "&#13;"
      case "\t": out += attribute ? "&#9;" : "\t"
      default:
        let v = scalar.value
        let allowed =
          (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
        out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
      }
    }
    return out
  }
}

extension CIReport {
  /// JUnit XML, as GitLab, Jenkins, Buildkite and Azure read it: one suite for the command,
  /// a case per output, per `diff` family and for the job; a warning that fails `--strict` is
  /// a `failure`, an output not drawn an `error`, notes go to `system-out`. Only `time` and
  /// `timestamp` change from run to run.
  public func junit() -> String {
    let failures = cases.count { if case .failed = $0.outcome { true } else { false } }
    let errors = cases.count { if case .error = $0.outcome { true } else { false } }
    let skipped = cases.count { if case .skipped = $0.outcome { true } else { false } }
    let seconds = max(0, finished.timeIntervalSince(started))
    let suite = "fonti-batch \(command.rawValue)"
    let counts =
      "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"\(suite)\" \(counts) time=\"\(Self.seconds(seconds))\">\n"
    out += "  <testsuite name=\"\(suite)\" \(counts) skipped=\"\(skipped)\""
    out += " time=\"\(Self.seconds(seconds))\" timestamp=\"\(Self.timestamp(started))\">\n"
    out += "    <properties>\n"
    out += "      <property name=\"subject\" value=\"\(XMLText.attribute(subject))\"/>\n"
    out += "      <property name=\"exit-code\" value=\"\(exitCode)\"/>\n"
    out += "      <property name=\"summary\" value=\"\(XMLText.attribute(summary))\"/>\n"
    out += "    </properties>\n"
    for c in cases {
      out += "    <testcase classname=\"\(command.rawValue).\(XMLText.attribute(c.group))\""
      out += " name=\"\(XMLText.attribute(c.name))\""
      if let s = c.seconds { out += " time=\"\(Self.seconds(s))\"" }
      let notes = c.notes.isEmpty ? nil : c.notes.joined(separator: "\n")
      if case .passed = c.outcome, notes == nil {
        out += "/>\n"
        continue
      }
      out += ">\n"
      switch c.outcome {
      case .passed: break
      case .failed(let message, let details):
        out += element("failure", message: message, details: details)
      case .error(let message, let details):
        out += element("error", message: message, details: details)
      case .skipped(let message):
        out += "      <skipped message=\"\(XMLText.attribute(message))\"/>\n"
      }
      if let notes { out += "      <system-out>\(XMLText.content(notes))</system-out>\n" }
      out += "    </testcase>\n"
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  private func element(_ name: String, message: String, details: [String]) -> String {
    "      <\(name) message=\"\(XMLText.attribute(message))\" type=\"\(name)\">"
      + XMLText.content(details.joined(separator: "\n")) + "</\(name)>\n"
  }

  /// Seconds with three decimals, as JUnit readers expect.
  static func seconds(_ value: Double) -> String {
    String(format: "%.3f", value.isFinite ? value : 0)
  }

  /// ISO 8601 in UTC, to the second (`2026-11-29T10:04:00Z`).
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
