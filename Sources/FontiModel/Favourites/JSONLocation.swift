/// Where a value sits in a JSON document, for error messages: Foundation's decoders say *which*
/// value is wrong (`saved[2].savedAt`) but not where it is in the file.
///
/// Only locates: the document has already been parsed (or refused) by Foundation. A path it
/// cannot follow (a key written with escapes, a document that is not valid JSON) gives nil, and
/// the message goes without a line and column.
package enum JSONLocation {
  /// The byte offset of the value at `path` (object keys and array indices) in `bytes`.
  package static func offset(of path: [CodingKey], in bytes: [UInt8]) -> Int? {
    var scanner = Scanner(bytes: bytes)
    scanner.skipSpace()
    for key in path {
      if let index = key.intValue {
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        for _ in 0..<index {
          scanner.skipSpace()
          guard scanner.skipValue() else { return nil }
          scanner.skipSpace()
          guard scanner.take(UInt8(ascii: ",")) else { return nil }
        }
        scanner.skipSpace()
      } else {
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var found = false
        while !found {
          scanner.skipSpace()
          guard let name = scanner.rawString() else { return nil }
          scanner.skipSpace()
          guard scanner.take(UInt8(ascii: ":")) else { return nil }
          scanner.skipSpace()
          if name.elementsEqual(key.stringValue.utf8) {
            found = true
          } else {
            guard scanner.skipValue() else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ",")) else { return nil }
          }
        }
      }
    }
    return scanner.position < bytes.count ? scanner.position : nil
  }

  /// A cursor over the bytes that skips whitespace, strings and whole values.
  struct Scanner {
    let bytes: [UInt8]
    var position = 0

    mutating func skipSpace() {
      while position < bytes.count,
        [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position])
      {
        position += 1
      }
    }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    /// A string's bytes between its quotes, escapes left as written; nil if no string is next.
    mutating func rawString() -> ArraySlice<UInt8>? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = position
      while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "\\"): position += 2
        case UInt8(ascii: "\""):
          position += 1
          return bytes[start..<(position - 1)]
        default: position += 1
        }
      }
      return nil
    }

    /// Skips one value of any kind, without recursion (nesting depth cannot overflow).
    mutating func skipValue() -> Bool {
      var depth = 0
      repeat {
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "\""):
          guard rawString() != nil else { return false }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          position += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          guard depth > 0 else { return false }
          depth -= 1
          position += 1
        case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
          guard depth > 0 else { return false }
          position += 1
        default:
          // A number or a literal: up to the next delimiter.
          while position < bytes.count,
            !",:{}[]\" \t\r\n".utf8.contains(bytes[position])
          {
            position += 1
          }
        }
      } while depth > 0
      return true
    }
  }
}
