internal import CYAML
import FontiSupport

/// How a scalar was written, so that the decoder can tell `true` from `"true"`.
///
/// Only plain scalars take part in YAML's implicit typing (`true`, `12`, `null`); quoted ones,
/// block ones (`|`, `>`) and ones tagged `!!str` are always strings.
public enum YAMLScalarStyle: Sendable, Hashable {
  /// Unquoted (or tagged with a core type such as `!!int`): `true`, `48`, `~` and the empty
  /// scalar mean booleans, numbers and null.
  case plain
  /// Single- or double-quoted, or tagged `!!str` / `!`: a string, whatever it looks like.
  case quoted
  /// A literal (`|`) or folded (`>`) block scalar: a string.
  case block
}

/// One node of a YAML document, with where it starts in the file (1-based).
///
/// Aliases are already expanded (within `YAMLDocument.aliasNodeLimit`), merge keys (`<<`)
/// applied, and duplicate keys removed (and reported), so a decoder sees plain data.
public indirect enum YAMLNode: Sendable {
  case scalar(String, Mark, YAMLScalarStyle)
  case sequence([YAMLNode], Mark)
  case mapping([(key: String, keyMark: Mark, value: YAMLNode)], Mark)

  /// Where the node starts.
  public var mark: Mark {
    switch self {
    case .scalar(_, let mark, _), .sequence(_, let mark), .mapping(_, let mark): return mark
    }
  }

  /// The same node with every position in it (keys too) moved to `mark`: an alias's copy of
  /// its anchored value, so that what is wrong with it is reported where the alias is.
  func placed(at mark: Mark) -> YAMLNode {
    switch self {
    case .scalar(let value, _, let style): return .scalar(value, mark, style)
    case .sequence(let items, _): return .sequence(items.map { $0.placed(at: mark) }, mark)
    case .mapping(let entries, _):
      return .mapping(
        entries.map { (key: $0.key, keyMark: mark, value: $0.value.placed(at: mark)) }, mark)
    }
  }

  /// A plain `~`, `null` or nothing at all: YAML's null.
  public var isNull: Bool {
    guard case .scalar(let value, _, .plain) = self else { return false }
    return value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL"
  }
}

/// A job file parsed by libyaml into a positioned `YAMLNode` tree: the only user of libyaml.
///
/// Input is checked before libyaml sees it (size, UTF-8, BOM) so that every failure has a
/// clear message with a position. Syntax errors, an empty file, several documents, alias
/// expansion past the limit and nesting past the limit are fatal (thrown); duplicate keys,
/// unknown aliases and unsupported tags are collected in `diagnostics` and parsing goes on.
public struct YAMLDocument: Sendable {
  /// The largest job file accepted, in bytes (1 MiB).
  public static let sizeLimit = 1 << 20
  /// The most nodes that aliases may add to the tree (bounds "billion laughs" documents).
  public static let aliasNodeLimit = 10_000
  /// The deepest nesting of lists and mappings accepted.
  public static let depthLimit = 64

  /// The document's root node.
  public var root: YAMLNode
  /// Problems that did not stop parsing (duplicate keys, unknown aliases, …), in file order.
  public var diagnostics: [Diagnostic]
  /// The text, for snippets.
  public var source: SourceText

  /// Parses `bytes` (the whole file). `file` is the name used in diagnostics.
  public static func parse(bytes: [UInt8], file: String) throws(DiagnosticError) -> YAMLDocument {
    if bytes.count > sizeLimit {
      throw DiagnosticError(
        .error(
          "job file is larger than the 1 MiB limit (\(grouped(bytes.count)) bytes)", file: file))
    }
    var bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a UTF-8 BOM is fine
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      throw DiagnosticError(
        .error(
          "job file is UTF-16; save it as UTF-8", file: file, at: Mark(line: 1, column: 1)))
    }
    let source = SourceText(file: file, text: String(decoding: bytes, as: UTF8.self))
    if let offset = firstInvalidUTF8(bytes) {
      let mark = self.mark(atByteOffset: offset, in: bytes)
      let byte = String(bytes[offset], radix: 16, uppercase: true)
      throw DiagnosticError(
        source.error(
          "job file is not valid UTF-8 (byte 0x\(byte.count == 1 ? "0" : "")\(byte))",
          at: mark, hint: "save the job file with the UTF-8 encoding"))
    }
    var builder = TreeBuilder(source: source, bytes: bytes)
    try builder.run()
    guard let root = builder.root else {
      throw DiagnosticError(.error("job file is empty", file: file))
    }
    return YAMLDocument(root: root, diagnostics: builder.diagnostics, source: source)
  }

  /// The byte offset of the first byte that is not part of well-formed UTF-8, if any.
  static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
    var i = 0
    while i < b.count {
      let c = b[i]
      if c < 0x80 {
        i += 1
        continue
      }
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      let trailing: Int
      switch c {
      case 0xC2...0xDF: trailing = 1
      case 0xE0: (trailing, low) = (2, 0xA0)  // no overlong forms
      case 0xE1...0xEC, 0xEE, 0xEF: trailing = 2
      case 0xED: (trailing, high) = (2, 0x9F)  // no surrogates
      case 0xF0: (trailing, low) = (3, 0x90)
      case 0xF1...0xF3: trailing = 3
      case 0xF4: (trailing, high) = (3, 0x8F)  // nothing above U+10FFFF
      default: return i
      }
      for k in 1...trailing {
        guard i + k < b.count else { return i }
        let x = b[i + k]
        let (lo, hi) = k == 1 ? (low, high) : (0x80, 0xBF)
        guard x >= lo && x <= hi else { return i }
      }
      i += trailing + 1
    }
    return nil
  }

  /// The 1-based line and column (in characters) of a byte offset into `bytes`.
  static func mark(atByteOffset offset: Int, in bytes: [UInt8]) -> Mark {
    var line = 1
    var column = 1
    var i = 0
    let end = min(offset, bytes.count)
    while i < end {
      let c = bytes[i]
      if c == 0x0A || (c == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
        line += 1
        column = 1
      } else if c & 0xC0 != 0x80 && c != 0x0D {
        column += 1  // count characters: skip UTF-8 continuation bytes
      }
      i += 1
    }
    return Mark(line: line, column: column)
  }
}

/// `1234567` as `1,234,567`, for limits in messages.
func grouped(_ n: Int) -> String {
  let digits = String(n.magnitude)
  var out = ""
  for (i, ch) in digits.enumerated() {
    if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
    out.append(ch)
  }
  return n < 0 ? "-" + out : out
}

/// One libyaml event, copied out of the C structure so the event can be freed at once.
private enum Event {
  case streamEnd
  case documentStart(Mark)
  case documentEnd
  case alias(anchor: String, Mark)
  case scalar(String, anchor: String?, style: YAMLScalarStyle, tag: String?, Mark)
  /// A sequence's or a mapping's start.
  case collectionStart(isMapping: Bool, anchor: String?, tag: String?, Mark)
  /// A sequence's or a mapping's end.
  case collectionEnd
  case other
}

/// Builds the node tree from libyaml's events, without recursion (deep input cannot overflow
/// the stack), counting alias expansion and depth as it goes.
private struct TreeBuilder {
  /// A mapping entry's key, once read.
  enum Key {
    case key(String, Mark, isMerge: Bool)
    /// A key that is not a scalar: reported, and its value is dropped.
    case invalid
  }

  /// A list or mapping under construction.
  ///
  /// A struct mutated in place on the stack (`stack[top].items.append`): rebuilding an enum
  /// payload for every child would copy the whole array each time, which makes a long list or
  /// a large mapping quadratic (minutes for a 1 MiB job).
  struct Frame {
    var isMapping: Bool
    var items: [YAMLNode] = []
    var entries: [(key: String, keyMark: Mark, value: YAMLNode)] = []
    /// Where each key of `entries` is written, for duplicate checks in constant time.
    var keyMarks: [String: Mark] = [:]
    /// The key read, waiting for its value (mappings only).
    var pending: Key?
    var merges: [YAMLNode] = []
    var anchor: String?
    var mark: Mark
    /// Nodes in the finished subtree, this one included (alias expansion counts them).
    var size = 1

    init(isMapping: Bool, anchor: String?, mark: Mark) {
      self.isMapping = isMapping
      self.anchor = anchor
      self.mark = mark
    }
  }

  let source: SourceText
  /// The input, BOM removed: libyaml reports some errors as byte offsets into it.
  let bytes: [UInt8]
  var diagnostics: [Diagnostic] = []
  var root: YAMLNode?
  var stack: [Frame] = []
  /// Anchored nodes and the number of nodes in each.
  var anchors: [String: (node: YAMLNode, size: Int)] = [:]
  var aliasNodes = 0
  var documents = 0

  init(source: SourceText, bytes: [UInt8]) {
    self.source = source
    self.bytes = bytes
  }

  mutating func run() throws(DiagnosticError) {
    // libyaml keeps a pointer to the parser inside the parser, so it must not move: heap.
    // It also reads the input lazily, so it gets its own copy that outlives it.
    let input = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
    input.initialize(repeating: 0, count: max(1, bytes.count))
    bytes.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { input.update(from: base, count: buffer.count) }
    }
    defer { input.deallocate() }
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    defer { parser.deallocate() }
    guard yaml_parser_initialize(parser) == 1 else {
      throw DiagnosticError(.error("out of memory while reading the job file", file: source.file))
    }
    defer { yaml_parser_delete(parser) }
    yaml_parser_set_input_string(parser, input, bytes.count)
    yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)

    while true {
      let event = try next(parser)
      if case .streamEnd = event { return }
      try handle(event)
    }
  }

  /// Reads one event and frees its C memory.
  func next(_ parser: UnsafeMutablePointer<yaml_parser_t>) throws(DiagnosticError) -> Event {
    var raw = yaml_event_t()
    guard yaml_parser_parse(parser, &raw) == 1 else { throw syntaxError(parser.pointee) }
    defer { yaml_event_delete(&raw) }
    let mark = Mark(line: Int(raw.start_mark.line) + 1, column: Int(raw.start_mark.column) + 1)
    switch raw.type {
    case YAML_STREAM_END_EVENT:
      return .streamEnd
    case YAML_DOCUMENT_START_EVENT:
      return .documentStart(mark)
    case YAML_DOCUMENT_END_EVENT:
      return .documentEnd
    case YAML_ALIAS_EVENT:
      return .alias(anchor: string(raw.data.alias.anchor) ?? "", mark)
    case YAML_SCALAR_EVENT:
      let s = raw.data.scalar
      let value =
        s.value.map {
          String(decoding: UnsafeBufferPointer(start: $0, count: s.length), as: UTF8.self)
        }
        ?? ""
      let style: YAMLScalarStyle
      switch s.style {
      case YAML_PLAIN_SCALAR_STYLE: style = .plain
      case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: style = .block
      default: style = .quoted
      }
      // A tag the parser only filled in implicitly says nothing the style does not.
      let explicit = style == .plain ? s.plain_implicit == 0 : s.quoted_implicit == 0
      return .scalar(
        value, anchor: string(s.anchor), style: style, tag: explicit ? string(s.tag) : nil, mark)
    case YAML_SEQUENCE_START_EVENT:
      let s = raw.data.sequence_start
      return collectionStart(isMapping: false, s.anchor, s.tag, implicit: s.implicit, mark)
    case YAML_MAPPING_START_EVENT:
      let s = raw.data.mapping_start
      return collectionStart(isMapping: true, s.anchor, s.tag, implicit: s.implicit, mark)
    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      return .collectionEnd
    default:
      return .other
    }
  }

  /// A sequence's or a mapping's start: libyaml gives both the same fields.
  func collectionStart(
    isMapping: Bool, _ anchor: UnsafeMutablePointer<yaml_char_t>?,
    _ tag: UnsafeMutablePointer<yaml_char_t>?, implicit: Int32, _ mark: Mark
  ) -> Event {
    .collectionStart(
      isMapping: isMapping, anchor: string(anchor), tag: implicit == 0 ? string(tag) : nil, mark)
  }

  func string(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    p.map { String(cString: $0) }
  }

  mutating func handle(_ event: Event) throws(DiagnosticError) {
    switch event {
    case .documentStart(let mark):
      documents += 1
      if documents > 1 {
        throw DiagnosticError(
          source.error(
            "job file contains more than one YAML document", at: mark,
            hint: "a job file is one document; remove this '---' and what follows, or merge it"))
      }
    case .scalar(let value, let anchor, var style, let tag, let mark):
      if let tag {
        switch tag {
        case "!", "tag:yaml.org,2002:str": style = .quoted
        case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
          "tag:yaml.org,2002:null":
          style = .plain
        default: unsupported(tag: tag, at: mark)
        }
      }
      try complete(.scalar(value, mark, style), size: 1, anchor: anchor)
    case .alias(let name, let mark):
      guard let target = anchors[name] else {
        diagnostics.append(
          source.error(
            "unknown alias '*\(name)'", at: mark,
            hint: "an alias must come after its anchor '&\(name)'"))
        skipValue(at: mark)
        return
      }
      aliasNodes += target.size
      if aliasNodes > YAMLDocument.aliasNodeLimit {
        throw DiagnosticError(
          source.error(
            "alias expansion exceeds the limit of \(grouped(YAMLDocument.aliasNodeLimit)) nodes",
            at: mark))
      }
      // Placed where the alias is: a problem in the value is reported where it is used.
      try complete(target.node.placed(at: mark), size: target.size, anchor: nil)
    case .collectionStart(let isMapping, let anchor, let tag, let mark):
      let plain = isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq"
      if let tag, tag != plain { unsupported(tag: tag, at: mark) }
      try push(Frame(isMapping: isMapping, anchor: anchor, mark: mark), at: mark)
    case .collectionEnd:
      guard var frame = stack.popLast() else { return }
      if frame.isMapping {
        merge(frame.merges, into: &frame)
        try complete(.mapping(frame.entries, frame.mark), size: frame.size, anchor: frame.anchor)
      } else {
        try complete(.sequence(frame.items, frame.mark), size: frame.size, anchor: frame.anchor)
      }
    case .streamEnd, .documentEnd, .other:
      break
    }
  }

  /// Leaves out a value already reported (an unknown alias): as a mapping value its key is
  /// dropped too, so the decoder neither takes it for a null nor reports it a second time.
  mutating func skipValue(at mark: Mark) {
    let top = stack.count - 1
    guard top >= 0 else {
      root = .scalar("", mark, .plain)
      return
    }
    guard stack[top].isMapping else { return }
    // As a key, the entry is lost; as a value, the key goes with it.
    if case nil = stack[top].pending {
      stack[top].pending = .invalid
    } else {
      stack[top].pending = nil
    }
  }

  mutating func unsupported(tag: String, at mark: Mark) {
    let shown =
      tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
    diagnostics.append(source.error("unsupported YAML tag '\(shown)'", at: mark))
  }

  mutating func push(_ frame: Frame, at mark: Mark) throws(DiagnosticError) {
    if stack.count >= YAMLDocument.depthLimit {
      throw DiagnosticError(
        source.error(
          "the job file nests lists and mappings deeper than the limit of "
            + "\(YAMLDocument.depthLimit) levels", at: mark))
    }
    stack.append(frame)
  }

  /// Adds a finished node to its parent (or makes it the root) and records its anchor.
  mutating func complete(_ node: YAMLNode, size: Int, anchor: String?) throws(DiagnosticError) {
    if let anchor { anchors[anchor] = (node, size) }
    let top = stack.count - 1
    guard top >= 0 else {
      root = node
      return
    }
    // Every change goes through `stack[top]` so that the arrays are appended to in place.
    guard stack[top].isMapping else {
      stack[top].items.append(node)
      stack[top].size += size
      return
    }
    switch stack[top].pending {
    case nil:
      // This node is a key.
      if case .scalar(let text, let mark, let style) = node {
        stack[top].pending = .key(text, mark, isMerge: text == "<<" && style == .plain)
      } else {
        diagnostics.append(
          source.error("a mapping key must be a plain word, not a list or mapping", at: node.mark))
        stack[top].pending = .invalid
      }
      return
    case .invalid?:
      break
    case .key(_, _, isMerge: true)?:
      stack[top].merges.append(node)
    case .key(let text, let keyMark, isMerge: false)?:
      if let first = stack[top].keyMarks[text] {
        diagnostics.append(
          source.error(
            "duplicate key '\(text)' (first at \(first.line):\(first.column))", at: keyMark))
      } else {
        stack[top].keyMarks[text] = keyMark
        stack[top].entries.append((text, keyMark, node))
      }
    }
    stack[top].pending = nil
    stack[top].size += size
  }

  /// Applies merge keys (`<<: *defaults` or `<<: [*a, *b]`): keys written in the mapping win,
  /// then earlier merged mappings win over later ones.
  mutating func merge(_ merges: [YAMLNode], into frame: inout Frame) {
    var sources: [YAMLNode] = []
    for node in merges {
      if case .sequence(let items, _) = node { sources += items } else { sources.append(node) }
    }
    for node in sources {
      guard case .mapping(let merged, _) = node else {
        diagnostics.append(
          source.error("a merge key '<<' needs a mapping or a list of mappings", at: node.mark))
        continue
      }
      for entry in merged where frame.keyMarks[entry.key] == nil {
        frame.keyMarks[entry.key] = entry.keyMark
        frame.entries.append(entry)
      }
    }
  }

  /// Turns libyaml's error into a located diagnostic.
  func syntaxError(_ p: yaml_parser_t) -> DiagnosticError {
    let problem = p.problem.map { String(cString: $0) } ?? "unknown problem"
    switch p.error {
    case YAML_MEMORY_ERROR:
      return DiagnosticError(.error("out of memory while reading the job file", file: source.file))
    case YAML_READER_ERROR:
      // Reader errors carry a byte offset, not a mark. The input is valid UTF-8 by now, so
      // this is a control character or similar.
      let mark = YAMLDocument.mark(atByteOffset: Int(p.problem_offset), in: bytes)
      var message = "invalid YAML: \(problem)"
      if p.problem_value >= 0 {
        message += " (U+\(hex(p.problem_value)))"
      }
      return DiagnosticError(source.error(message, at: mark))
    default:
      var mark = Mark(
        line: Int(p.problem_mark.line) + 1, column: Int(p.problem_mark.column) + 1)
      var message = "invalid YAML: \(problem)"
      if let context = p.context.map({ String(cString: $0) }) {
        let start = Mark(
          line: Int(p.context_mark.line) + 1, column: Int(p.context_mark.column) + 1)
        message += " \(context)"
        if problem.contains("end of stream") {
          // "The file ends here" points at nothing useful; where the quote opened does.
          message += " (the file ends at \(mark.line):\(mark.column))"
          mark = start
        } else if start != mark {
          message += " (which starts at \(start.line):\(start.column))"
        }
      }
      return DiagnosticError(source.error(message, at: mark, hint: hint(at: mark, message)))
    }
  }

  /// A plain-words hint for the syntax errors people actually make.
  func hint(at mark: Mark, _ problem: String) -> String? {
    let line = Array(source.line(mark.line) ?? "")
    let here: Character? = line.indices.contains(mark.column - 1) ? line[mark.column - 1] : nil
    if here == "\t" || (problem.contains("tab") && line.contains("\t")) {
      return "YAML does not allow tabs for indentation; use spaces"
    }
    if problem.contains("end of stream") && problem.contains("quoted") {
      return "a quoted string is not closed"
    }
    if problem.contains("mapping values are not allowed") {
      return "check the indentation, or quote a value that contains ': '"
    }
    return nil
  }

  func hex(_ v: Int32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
  }
}
