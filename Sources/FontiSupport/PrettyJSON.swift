import Foundation

/// JSON as the tool writes it for people and scripts to read (`diff.json`, `shard.json`, the
/// `--json` listings): Foundation's `JSONEncoder`, pretty-printed, keys sorted and slashes
/// unescaped, so that the same value gives the same bytes.
package enum PrettyJSON {
  package static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// A file's bytes: `value` as JSON, with a final newline.
  package static func encoded(_ value: some Encodable) throws -> Data {
    var data = try encoder().encode(value)
    data.append(0x0A)
    return data
  }
}
