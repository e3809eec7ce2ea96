import FontiSupport

/// A value that `JSONWriter` writes and `JSONReader` reads: a string, a number, a boolean, an
/// array or a string-keyed dictionary of such values, or an object described by `JSONFields`.
/// `nil` is not a value: an optional member is left out (`JSONFields`).
package protocol JSONCodable: Sendable {
  func write(to w: inout JSONWriter)
  init(reading r: inout JSONReader) throws
}

/// An object whose members are one table of fields, which it is both written and read from.
package protocol JSONObject: JSONCodable {
  static var jsonFields: JSONFields<Self> { get }
}

extension JSONObject {
  package func write(to w: inout JSONWriter) { Self.jsonFields.write(self, to: &w) }
  package init(reading r: inout JSONReader) throws { self = try Self.jsonFields.read(&r) }
}

/// The members of a JSON object, each a key and the property that holds its value: the one
/// description a type's JSON is written and read from, exactly as `JSONEncoder` and
/// `JSONDecoder` treat the type's synthesized `Codable` conformance with the same keys.
///
/// Members are written in UTF-8 order of their keys (`JSONEncoder`'s `.sortedKeys`), whatever
/// order the table lists them in. A property of optional type is left out when nil and reads as
/// nil when absent or `null`; any other must be there. Members the table does not name are
/// checked as JSON and skipped.
///
/// ```swift
/// static let jsonFields = JSONFields(
///   blank: Page(family: "", page: 0), .field("family", \.family), .field("page", \.page))
/// ```
///
/// It lives beside the manifests rather than with `JSONWriter` and `JSONReader`: Swift
/// specializes generic code only within its module (a package's `@inlinable` code is not
/// specialized in another), and generic, a manifest costs half as much again to write and read.
package struct JSONFields<Root: Sendable>: Sendable {
  /// One member: its key, whether the object must have it, how it is written and read.
  package struct Field: Sendable {
    let key: String
    let required: Bool
    /// Writes `"key" : value`, or nothing for an optional that is nil.
    let write: @Sendable (Root, inout JSONWriter) -> Void
    let read: @Sendable (inout Root, inout JSONReader) throws -> Void
  }

  /// What reading starts from, every optional property nil: each member read replaces its
  /// property, an optional one not read stays nil, and an object that lacks a required one is
  /// refused.
  private let blank: Root
  /// Sorted by key, as written.
  private let fields: [Field]
  /// The fields an object must have, a bit each.
  private let required: UInt64

  package init(blank: Root, _ fields: Field...) { self.init(blank: blank, fields: fields) }

  package init(blank: Root, fields: [Field]) {
    precondition(fields.count <= 64, "a JSON object of at most 64 fields")
    let sorted = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    precondition(
      sorted.allSatisfy { $0.required || Self.writesNothing($0, for: blank) },
      "the blank of a JSON object has its optional properties nil")
    self.blank = blank
    self.fields = sorted
    required = sorted.indices.reduce(0) { $0 | (sorted[$1].required ? 1 << $1 : 0) }
  }

  package func write(_ value: Root, to w: inout JSONWriter) {
    w.beginObject()
    for field in fields { field.write(value, &w) }
    w.endObject()
  }

  /// The object `r` is at; members that `JSONReader.omit(_:from:)` names for `Root` are left
  /// unread.
  package func read(_ r: inout JSONReader) throws -> Root {
    var value = blank
    var seen: UInt64 = 0
    var next = 0
    let omitted = r.omitted(from: Root.self)
    try r.object { r, key in
      guard let i = index(of: key, from: next), omitted?.contains(key) != true else {
        return try r.skip()
      }
      try fields[i].read(&value, &r)
      seen |= 1 << i
      next = i + 1
    }
    if seen & required != required { throw r.missing(firstMissing(seen)) }
    return value
  }

  /// The field of `key`, looked for from `start` on first: members written by `write` come in
  /// the table's order, so the next one is almost always the field after the last one read.
  private func index(of key: String, from start: Int) -> Int? {
    for i in start..<fields.count where fields[i].key == key { return i }
    for i in 0..<min(start, fields.count) where fields[i].key == key { return i }
    return nil
  }

  /// Whether `field` of `value` is left out (an optional that is nil).
  private static func writesNothing(_ field: Field, for value: Root) -> Bool {
    var w = JSONWriter()
    field.write(value, &w)
    return (try? w.finished())?.isEmpty == true
  }

  /// The key of the first required field that is not among `seen`.
  private func firstMissing(_ seen: UInt64) -> String {
    fields.indices.first { required & ~seen & (1 << $0) != 0 }.map { fields[$0].key } ?? ""
  }
}

extension JSONFields.Field {
  /// A member the object always has.
  package static func field<Value: JSONCodable>(
    _ key: String, _ path: WritableKeyPath<Root, Value> & Sendable
  ) -> Self {
    field(key, path, write: { $1.write(to: &$0) }, read: { try Value(reading: &$0) })
  }

  /// A member the object has when the property is not nil.
  package static func field<Value: JSONCodable>(
    _ key: String, _ path: WritableKeyPath<Root, Value?> & Sendable
  ) -> Self {
    Self(
      key: key, required: false,
      write: { root, w in
        guard let value = root[keyPath: path] else { return }
        w.key(key)
        value.write(to: &w)
      },
      read: { root, r in root[keyPath: path] = try r.null() ? nil : try Value(reading: &r) })
  }

  /// A member the object always has, written and read as `write` and `read` say.
  package static func field<Value>(
    _ key: String, _ path: WritableKeyPath<Root, Value> & Sendable,
    write: @escaping @Sendable (inout JSONWriter, Value) -> Void,
    read: @escaping @Sendable (inout JSONReader) throws -> Value
  ) -> Self {
    Self(
      key: key, required: true,
      write: { root, w in
        w.key(key)
        write(&w, root[keyPath: path])
      },
      read: { root, r in root[keyPath: path] = try read(&r) })
  }
}

extension String: JSONCodable {
  package func write(to w: inout JSONWriter) { w.string(self) }
  package init(reading r: inout JSONReader) throws { self = try r.string() }
}

/// A whole number: a JSON integer that fits 64 bits.
extension JSONCodable where Self: FixedWidthInteger {
  package func write(to w: inout JSONWriter) { w.int(self) }
  package init(reading r: inout JSONReader) throws { self.init(try r.int()) }
}

extension Int: JSONCodable {}
extension Int64: JSONCodable {}

extension Double: JSONCodable {
  package func write(to w: inout JSONWriter) { w.double(self) }
  package init(reading r: inout JSONReader) throws { self = try r.double() }
}

extension Bool: JSONCodable {
  package func write(to w: inout JSONWriter) { w.bool(self) }
  package init(reading r: inout JSONReader) throws { self = try r.bool() }
}

extension Array: JSONCodable where Element: JSONCodable {
  package func write(to w: inout JSONWriter) {
    w.beginArray()
    for element in self {
      w.element()
      element.write(to: &w)
    }
    w.endArray()
  }

  package init(reading r: inout JSONReader) throws {
    var elements: [Element] = []
    try r.elements { elements.append(try Element(reading: &$0)) }
    self = elements
  }
}

/// An object of any keys, written in their UTF-8 order.
extension Dictionary: JSONCodable where Key == String, Value: JSONCodable {
  package func write(to w: inout JSONWriter) {
    w.beginObject()
    for (key, value) in sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
      w.key(key)
      value.write(to: &w)
    }
    w.endObject()
  }

  package init(reading r: inout JSONReader) throws {
    var members: [String: Value] = [:]
    try r.object { r, key in members[key] = try Value(reading: &r) }
    self = members
  }
}
