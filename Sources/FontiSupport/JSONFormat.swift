import Foundation

/// The shapes of JSON this tool writes with Foundation's `JSONEncoder`, set up in one place
/// (`JSONEncoder(_:)`): the same value always gives the same bytes in each.
package enum JSONFormat: Sendable {
  /// Indented, keys sorted, slashes as they are: the files the tool writes (manifests,
  /// `diff.json`) and its `--json` listings. `manifest.json` has the same bytes through its own
  /// writer (`JSONWriter`).
  case pretty
  /// On one line, keys sorted, slashes as they are: JSON inside the gallery page and `serve`'s
  /// answers.
  case compact
  /// On one line, keys sorted, slashes escaped (`\/`): what an output's fingerprint hashes.
  /// Its bytes must not change, or every output of an earlier run would be drawn again.
  case fingerprint
  /// Foundation's own: the lines the tool's processes send each other and read back at once.
  case message
}

extension JSONEncoder {
  /// An encoder that writes `format`.
  package convenience init(_ format: JSONFormat) {
    self.init()
    switch format {
    case .pretty: outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    case .compact: outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    case .fingerprint: outputFormatting = [.sortedKeys]
    case .message: break
    }
  }

  /// `value` as a whole document: its encoding, then a line break, as a file, a listing or a
  /// message line ends.
  package func encodeDocument<T: Encodable>(_ value: T) throws -> Data {
    var data = try encode(value)
    data.append(0x0A)
    return data
  }
}
