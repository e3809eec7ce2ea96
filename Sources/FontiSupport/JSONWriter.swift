/// Writes JSON byte for byte as Foundation's `JSONEncoder` does with `[.prettyPrinted,
/// .sortedKeys, .withoutEscapingSlashes]`, at a fifth of its cost: the run manifest of a
/// large library is megabytes, written by every run (`JSONFields`, in the model).
///
/// The caller writes an object's keys in sorted order (UTF-8 byte order, as Foundation sorts
/// them).
///
/// ```swift
/// var w = JSONWriter()
/// w.beginObject()
/// w.key("name"); w.string("Lato")
/// w.key("styles"); w.beginArray(); w.element(); w.string("Regular"); w.endArray()
/// w.endObject()
/// ```
package struct JSONWriter {
  /// A number JSON cannot carry (NaN or an infinity): `JSONEncoder` refuses it too.
  package struct InvalidNumber: Error, CustomStringConvertible {
    var value: Double
    package var description: String { "\(value) is not a number JSON can carry" }
  }

  private(set) var bytes: [UInt8] = []
  /// Whether the innermost open object or array has a member yet, one per open level.
  private var hasMember: [Bool] = []
  private(set) var invalidNumber: Double?
  /// Where the bytes go as they gather, when streaming: a function answering 0, or the error
  /// that stops the streaming (the first is kept and thrown by `finish(path:)`).
  private var consume: (([UInt8]) -> Int32)?
  private var writeError: Int32 = 0
  /// How many bytes gather before they go on.
  static let chunk = 1 << 16

  /// A writer that gathers the whole document in `bytes`.
  package init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// A writer that writes the document to `fd` as it goes, a chunk at a time, so that a large
  /// one never sits whole in memory; `finish(path:)` writes the rest.
  package init(streamingTo fd: Int32) {
    self.init(streamingInto: { FileSystem.writeAll(fd, $0) })
  }

  /// A writer that hands the document to `consume` as it goes, a chunk at a time and in order,
  /// the last by `finish(path:)` (to compare it with a file without holding it whole, say).
  /// `consume` answers 0, or an error number that stops the streaming.
  package init(streamingInto consume: @escaping ([UInt8]) -> Int32) {
    self.consume = consume
    bytes.reserveCapacity(Self.chunk + 4096)
  }

  package mutating func beginObject() { open(UInt8(ascii: "{")) }
  package mutating func endObject() { close(UInt8(ascii: "}")) }
  package mutating func beginArray() { open(UInt8(ascii: "[")) }
  package mutating func endArray() { close(UInt8(ascii: "]")) }

  /// The next member's key, `"key" : `, its value to follow.
  package mutating func key(_ key: String) {
    separate()
    string(key)
    bytes.append(0x20)
    bytes.append(UInt8(ascii: ":"))
    bytes.append(0x20)
  }

  /// The next element of an array; its value to follow.
  package mutating func element() { separate() }

  package mutating func string(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    // Most strings need no escape: their bytes in one copy, straight from the string's storage.
    let plain =
      value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
        guard
          !utf8.contains(where: {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
          })
        else { return false }
        bytes.append(contentsOf: utf8)
        return true
      } ?? false
    if plain {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  package mutating func int<I: BinaryInteger>(_ value: I) {
    bytes.append(contentsOf: String(value).utf8)
  }

  /// Swift's shortest round-trip form, without a trailing `.0` (`3`, `0.1`, `1e+16`).
  package mutating func double(_ value: Double) {
    guard value.isFinite else {
      invalidNumber = invalidNumber ?? value
      bytes.append(UInt8(ascii: "0"))
      return
    }
    let text = value.description
    bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
  }

  package mutating func bool(_ value: Bool) {
    bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
  }

  /// A line break, after the document (as `encoded()`s end theirs).
  package mutating func newline() { bytes.append(0x0A) }

  /// The bytes written, or `InvalidNumber` when a number could not be written.
  package func finished() throws(InvalidNumber) -> [UInt8] {
    if let invalidNumber { throw InvalidNumber(value: invalidNumber) }
    return bytes
  }

  /// Streaming: hands on what is left; throws, naming `path`, when a number could not be
  /// written or handing on failed.
  package mutating func finish(path: String) throws(Diagnostic) {
    if let invalidNumber {
      throw .error("cannot be written: \(invalidNumber) is no JSON number", file: path)
    }
    spill()
    if writeError != 0 {
      throw .error("cannot be written: \(FileSystem.describe(writeError))", file: path)
    }
  }

  /// Streaming: hands the bytes gathered on.
  private mutating func spill() {
    guard let consume else { return }
    if writeError == 0 { writeError = consume(bytes) }
    bytes.removeAll(keepingCapacity: true)
  }

  private mutating func open(_ bracket: UInt8) {
    bytes.append(bracket)
    bytes.append(0x0A)
    hasMember.append(false)
  }

  private mutating func close(_ bracket: UInt8) {
    hasMember.removeLast()
    bytes.append(0x0A)
    indent(hasMember.count)
    bytes.append(bracket)
  }

  /// The separator before a member (none before the first) and its indentation.
  private mutating func separate() {
    if bytes.count >= Self.chunk { spill() }
    if hasMember.last == true {
      bytes.append(UInt8(ascii: ","))
      bytes.append(0x0A)
    } else if !hasMember.isEmpty {
      hasMember[hasMember.count - 1] = true
    }
    indent(hasMember.count)
  }

  private mutating func indent(_ depth: Int) {
    for _ in 0..<(2 * depth) { bytes.append(0x20) }
  }
}
