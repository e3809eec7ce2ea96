/// Reads JSON (RFC 8259) value by value, straight into the caller's types: what
/// `RunManifest+JSON.swift` reads a previous run's manifest with, at a fraction of
/// `JSONDecoder`'s cost. Input is hostile: every byte is checked, nesting is limited, and any
/// departure from the grammar or from the type the caller asks for throws `JSONReader.Failure`.
///
/// ```swift
/// var r = JSONReader(bytes)
/// var name: String?
/// try r.object { r, key in
///   switch key {
///   case "name": name = try r.string()
///   default: try r.skip()
///   }
/// }
/// try r.end()
/// ```
///
/// Like `JSONDecoder`, members it is not asked about are skipped and a `null` member reads as
/// absent through `null()`; unlike it, a skipped member is checked as strictly as any
/// other, and an object that gives a key twice is refused (which value counts would be a guess).
package struct JSONReader {
  /// Where the input stopped being what was expected (a byte offset), and what was.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    var offset: Int
    var expected: String
    package var description: String { "expected \(expected) at byte \(offset)" }
  }

  /// Deeper nesting is refused: `JSONDecoder`'s limit too.
  static let maxDepth = 512

  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0
  /// The members objects of one type leave unread (`omit(_:from:)`).
  private var omission: (type: ObjectIdentifier, keys: Set<String>)?

  package init<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    self.bytes = Array(bytes)
  }

  /// Objects of type `Root` that `JSONFields` reads leave the members `keys` unread: checked as
  /// JSON and skipped, their properties left as the fields' blank has them.
  package mutating func omit<Root>(_ keys: Set<String>, from type: Root.Type) {
    omission = (ObjectIdentifier(type), keys)
  }

  /// The members objects of type `Root` leave unread, if any.
  package func omitted<Root>(from type: Root.Type) -> Set<String>? {
    guard let omission, omission.type == ObjectIdentifier(type) else { return nil }
    return omission.keys
  }

  /// An object: `member` is called with each key and must read (or skip) its value.
  package mutating func object(_ member: (inout JSONReader, String) throws -> Void) throws {
    try enter(UInt8(ascii: "{"), "an object")
    if try leave(UInt8(ascii: "}")) { return }
    var keys = Keys()
    repeat {
      guard try peek() == UInt8(ascii: "\"") else { throw fail("a key") }
      let at = index
      let key = try string()
      guard keys.insert(key) else {
        index = at
        throw fail("each key once")
      }
      guard try peek() == UInt8(ascii: ":") else { throw fail("':'") }
      index += 1
      try member(&self, key)
    } while try next(UInt8(ascii: "}"))
  }

  /// The keys of one object so far, to refuse a key given twice: a list while the object is
  /// small (most are: a few fields), a set once it is large (a catalogue's `missingGlyphs` or a
  /// shard's `fonts` name thousands of families, and searching a list for each would make
  /// reading them quadratic: 10,000 keys, 50 million comparisons).
  struct Keys {
    static let listed = 16
    private var list: [String] = []
    private var set: Set<String> = []

    /// Adds `key`; false when it was there already.
    mutating func insert(_ key: String) -> Bool {
      if list.count < Keys.listed {
        guard !list.contains(key) else { return false }
        list.append(key)
        if list.count == Keys.listed { set = Set(list) }
        return true
      }
      return set.insert(key).inserted
    }
  }

  /// An array: `element` is called for each element and must read (or skip) it.
  package mutating func elements(_ element: (inout JSONReader) throws -> Void) throws {
    try enter(UInt8(ascii: "["), "an array")
    if try leave(UInt8(ascii: "]")) { return }
    repeat {
      try element(&self)
    } while try next(UInt8(ascii: "]"))
  }

  /// Whether `null` comes next (then consumed): an optional member that reads as absent.
  package mutating func null() throws -> Bool {
    guard try peek() == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  package mutating func string() throws -> String {
    let quote = UInt8(ascii: "\"")
    let backslash = UInt8(ascii: "\\")
    guard try peek() == quote else { throw fail("a string") }
    index += 1
    let start = index
    // The common case, no escape: the bytes as they are, once checked as UTF-8.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote {
        index += 1
        return try utf8(bytes[start..<index - 1], at: start)
      }
      if byte == backslash || byte < 0x20 { break }
      index += 1
    }
    var out = Array(bytes[start..<index])
    while true {
      guard index < bytes.count else { throw fail("'\"'") }
      let byte = bytes[index]
      switch byte {
      case quote:
        index += 1
        return try utf8(out[...], at: start)
      case backslash:
        index += 1
        try escape(into: &out)
      case 0..<0x20: throw fail("no control character in a string")
      default:
        out.append(byte)
        index += 1
      }
    }
  }

  package mutating func int() throws -> Int {
    let at = index
    guard let value = Int(try number(integer: true)) else {
      index = at
      throw fail("an integer that fits 64 bits")
    }
    return value
  }

  package mutating func double() throws -> Double {
    let at = index
    guard let value = Double(try number(integer: false)), value.isFinite else {
      index = at
      throw fail("a finite number")
    }
    return value
  }

  package mutating func bool() throws -> Bool {
    switch try peek() {
    case UInt8(ascii: "t"):
      try literal("true")
      return true
    case UInt8(ascii: "f"):
      try literal("false")
      return false
    default: throw fail("true or false")
    }
  }

  /// Any value, read and checked, and dropped.
  package mutating func skip() throws {
    switch try kind() {
    case .object: try object { r, _ in try r.skip() }
    case .array: try elements { r in try r.skip() }
    case .string: _ = try string()
    case .bool: _ = try bool()
    case .null: try literal("null")
    case .number: _ = try number(integer: false)
    }
  }

  /// What kind of value comes next (nothing is consumed).
  package enum Kind { case object, array, string, number, bool, null }

  package mutating func kind() throws -> Kind {
    switch try peek() {
    case UInt8(ascii: "{"): .object
    case UInt8(ascii: "["): .array
    case UInt8(ascii: "\""): .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
    case UInt8(ascii: "n"): .null
    default: .number
    }
  }

  /// Nothing but white space is left.
  package mutating func end() throws {
    skipSpace()
    guard index == bytes.count else { throw fail("the end of the input") }
  }

  /// The failure of an object that lacks a required member (reported where reading is).
  package func missing(_ key: String) -> Failure { fail("a member '\(key)'") }

  /// `value`, read for the member `key`; `missing(key)` when it was not there.
  package func required<T>(_ value: T?, _ key: String) throws -> T {
    guard let value else { throw missing(key) }
    return value
  }

  // MARK: - Pieces

  private func fail(_ expected: String) -> Failure { Failure(offset: index, expected: expected) }

  private mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  /// The next byte after white space (not consumed).
  private mutating func peek() throws -> UInt8 {
    skipSpace()
    guard index < bytes.count else { throw fail("more input") }
    return bytes[index]
  }

  private mutating func enter(_ bracket: UInt8, _ what: String) throws {
    guard try peek() == bracket else { throw fail(what) }
    guard depth < Self.maxDepth else { throw fail("at most \(Self.maxDepth) levels of nesting") }
    index += 1
    depth += 1
  }

  /// The closing `bracket` of the object or array being read, when it comes next (consumed).
  private mutating func leave(_ bracket: UInt8) throws -> Bool {
    guard try peek() == bracket else { return false }
    index += 1
    depth -= 1
    return true
  }

  /// After a member or element: true when a comma says another follows, false when the
  /// closing `bracket` ends the object or array.
  private mutating func next(_ bracket: UInt8) throws -> Bool {
    if try leave(bracket) { return false }
    guard try peek() == UInt8(ascii: ",") else {
      throw fail("',' or '\(Character(Unicode.Scalar(bracket)))'")
    }
    index += 1
    return true
  }

  private mutating func literal(_ word: StaticString) throws {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + count]) })
    else { throw fail("\(word)") }
    index += count
  }

  /// A number's text, checked against JSON's grammar (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`);
  /// an `integer` has neither fraction nor exponent.
  private mutating func number(integer: Bool) throws -> String {
    _ = try peek()
    let start = index
    func digits(_ r: inout JSONReader) -> Int {
      let from = r.index
      while r.index < r.bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(r.bytes[r.index])
      {
        r.index += 1
      }
      return r.index - from
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let whole = index
    guard digits(&self) > 0, bytes[whole] != UInt8(ascii: "0") || index == whole + 1 else {
      index = start
      throw fail(integer ? "an integer" : "a number")
    }
    if !integer, index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits(&self) > 0 else { throw fail("a digit") }
    }
    if !integer, index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits(&self) > 0 else { throw fail("a digit") }
    }
    if integer, index < bytes.count,
      bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e")
    {
      throw fail("an integer")
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// After a backslash: the escaped character, appended as UTF-8.
  private mutating func escape(into out: inout [UInt8]) throws {
    guard index < bytes.count else { throw fail("an escape") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hex4()
      if (0xD800..<0xDC00).contains(scalar) {
        // A high surrogate: its low half must follow as a second escape.
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw fail("the low half of a surrogate pair") }
        index += 2
        let low = try hex4()
        guard (0xDC00..<0xE000).contains(low) else {
          throw fail("the low half of a surrogate pair")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      }
      guard let value = Unicode.Scalar(scalar) else { throw fail("a Unicode scalar") }
      out.append(contentsOf: String(Character(value)).utf8)
    default:
      index -= 1
      throw fail("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
    }
  }

  private mutating func hex4() throws -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("four hexadecimal digits") }
    var value: UInt32 = 0
    for byte in bytes[index..<index + 4] {
      guard let digit = Self.hexDigit(byte) else { throw fail("four hexadecimal digits") }
      value = value << 4 | digit
    }
    index += 4
    return value
  }

  private static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// Checked UTF-8 as a String; invalid bytes are refused, not repaired.
  ///
  /// `String(decoding:as:)` replaces what is not UTF-8 with U+FFFD, so the text is valid
  /// exactly when decoding gives its own bytes back. (`String(validating:as:)` says the same
  /// but, generic over the encoding, costs a tenth of an unchanged re-run in metadata look-ups.)
  private func utf8(_ text: ArraySlice<UInt8>, at offset: Int) throws -> String {
    let value = String(decoding: text, as: UTF8.self)
    guard text.allSatisfy({ $0 < 0x80 }) || value.utf8.elementsEqual(text) else {
      throw Failure(offset: offset, expected: "UTF-8 text")
    }
    return value
  }
}
