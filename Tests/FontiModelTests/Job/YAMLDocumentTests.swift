import Foundation
import TestSupport
import Testing

@testable import FontiModel
@testable import FontiSupport

/// The positioned YAML tree: styles, marks, encodings, limits and libyaml's errors.
struct YAMLDocumentTests {
  static func parse(_ text: String) throws(DiagnosticError) -> YAMLDocument {
    try YAMLDocument.parse(bytes: Array(text.utf8), file: "t.yaml")
  }

  /// The single diagnostic `bytes` fail with.
  static func failure(_ bytes: [UInt8]) -> Diagnostic? {
    do {
      _ = try YAMLDocument.parse(bytes: bytes, file: "t.yaml")
      return nil
    } catch {
      return error.diagnostics.count == 1 ? error.diagnostics[0] : nil
    }
  }

  static func entries(_ node: YAMLNode) -> [(key: String, keyMark: Mark, value: YAMLNode)] {
    if case .mapping(let entries, _) = node { return entries }
    return []
  }

  @Test func scalarStylesTellQuotedFromPlain() throws {
    let doc = try Self.parse(
      "a: true\nb: \"true\"\nc: 'true'\nd: |\n  true\ne: !!str true\nf: !!int \"12\"\ng:\n")
    let styles = Self.entries(doc.root).map { entry -> YAMLScalarStyle? in
      if case .scalar(_, _, let style) = entry.value { return style }
      return nil
    }
    #expect(styles == [.plain, .quoted, .quoted, .block, .quoted, .plain, .plain])
    #expect(Self.entries(doc.root).last?.value.isNull == true)
  }

  @Test func marksAreOneBased() throws {
    let doc = try Self.parse("version: 1\nlist:\n  - x\n  - { k: v }\n")
    #expect(doc.root.mark == Mark(line: 1, column: 1))
    let list = Self.entries(doc.root)[1]
    #expect(list.keyMark == Mark(line: 2, column: 1))
    guard case .sequence(let items, let mark) = list.value else {
      Issue.record("expected a list")
      return
    }
    #expect(mark == Mark(line: 3, column: 3))
    #expect(items.map(\.mark) == [Mark(line: 3, column: 5), Mark(line: 4, column: 5)])
    #expect(Self.entries(items[1]).first?.keyMark == Mark(line: 4, column: 7))
  }

  @Test func bomAndCRLFGiveTheSameMarksAsPlainLF() throws {
    let plain = "version: 1\ntitle: caf\u{E9}\nsizez: 1\n"
    let windows =
      [0xEF, 0xBB, 0xBF] + Array(plain.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    let a = try YAMLDocument.parse(bytes: Array(plain.utf8), file: "t.yaml")
    let b = try YAMLDocument.parse(bytes: windows, file: "t.yaml")
    #expect(Self.entries(a.root).map(\.keyMark) == Self.entries(b.root).map(\.keyMark))
    #expect(b.source.line(2) == "title: caf\u{E9}")
    do {
      _ = try JobDecoder.decode(
        bytes: windows, path: "t.yaml", directory: "/", languages: TestLanguages.table)
      Issue.record("expected an unknown key")
    } catch {
      #expect(
        error.diagnostics.map(\.locatedMessage) == [
          "t.yaml:3:1: unknown key 'sizez' (did you mean 'sizes'?)"
        ])
    }
  }

  @Test func invalidUTF8IsLocated() throws {
    let bytes = Array("version: 1\ntitle: caf\u{E9} ".utf8) + [0xFF] + Array(" x\n".utf8)
    let d = try #require(Self.failure(bytes))
    #expect(d.mark == Mark(line: 2, column: 13))
    #expect(d.message == "job file is not valid UTF-8 (byte 0xFF)")
    // Overlong forms, surrogates and truncated sequences are all refused.
    for bad: [UInt8] in [
      [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
    ] {
      #expect(YAMLDocument.firstInvalidUTF8(Array("a: ".utf8) + bad) == 3)
    }
    #expect(YAMLDocument.firstInvalidUTF8(Array("a: \u{1F600} \u{E9}".utf8)) == nil)
  }

  @Test func utf16IsRefusedClearly() throws {
    let d = try #require(Self.failure([0xFF, 0xFE, 0x76, 0x00]))
    #expect(d.message.contains("UTF-16"))
  }

  @Test func emptyAndCommentOnlyFilesAreEmpty() throws {
    for text in ["", "   \n", "# nothing here\n", "\u{FEFF}"] {
      #expect(Self.failure(Array(text.utf8))?.message == "job file is empty")
    }
  }

  @Test func oversizedInputIsRefusedBeforeParsing() throws {
    // Not even valid YAML: the size check must come first.
    let bytes = [UInt8](repeating: UInt8(ascii: "["), count: YAMLDocument.sizeLimit + 1)
    let d = try #require(Self.failure(bytes))
    #expect(d.message.hasPrefix("job file is larger than the 1 MiB limit"))
  }

  @Test func oversizedFileIsRefusedByTheLoader() throws {
    let folder = try TemporaryDirectory()
    let path = folder.path + "/big.yaml"
    let text = "version: 1\ntitle: " + String(repeating: "a", count: YAMLDocument.sizeLimit) + "\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    do {
      _ = try JobDecoder.load(path: path, languages: TestLanguages.table)
      Issue.record("expected the size limit")
    } catch {
      #expect(error.diagnostics.first?.message.contains("larger than the 1 MiB limit") == true)
    }
  }

  @Test func loaderRefusesFoldersAndMissingFiles() throws {
    let folder = try TemporaryDirectory()
    for (path, message) in [
      (folder.path, "is a folder, not a job file"), (folder.path + "/none.yaml", "not found"),
    ] {
      do {
        _ = try JobDecoder.load(path: path, languages: TestLanguages.table)
        Issue.record("expected an error for \(path)")
      } catch {
        #expect(error.diagnostics.count == 1)
        #expect(error.diagnostics.first?.message.contains(message) == true)
      }
    }
  }

  @Test func unreadableJobFileIsReported() throws {
    guard getuid() != 0 else { return }  // root reads everything
    let folder = try TemporaryDirectory()
    let path = folder.path + "/locked.yaml"
    try "version: 1\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(chmod(path, 0) == 0)
    do {
      _ = try JobDecoder.load(path: path, languages: TestLanguages.table)
      Issue.record("expected an error")
    } catch {
      #expect(error.diagnostics.first?.message.contains("Permission denied") == true)
    }
  }

  @Test func aliasesExpandAndMergeKeysApply() throws {
    let doc = try Self.parse(
      """
      base: &base { size: 30, theme: cream }
      other: &other { size: 40, text: hi }
      defaults:
        size: 20
        <<: [*base, *other]
      copy: *base
      """)
    let defaults = Self.entries(doc.root)[2].value
    let pairs = Self.entries(defaults).map { entry -> String in
      if case .scalar(let v, _, _) = entry.value { return "\(entry.key)=\(v)" }
      return entry.key
    }
    #expect(pairs == ["size=20", "theme=cream", "text=hi"])
    #expect(doc.diagnostics.isEmpty)
  }

  @Test func anAliasedValueIsPlacedWhereTheAliasIs() throws {
    let doc = try Self.parse(
      """
      base: &base { size: 30 }
      png: *base
      """)
    // What is wrong with the copy ('size' in png) is reported at '*base', where it is used.
    let png = Self.entries(doc.root)[1]
    #expect(png.value.mark == Mark(line: 2, column: 6))
    #expect(Self.entries(png.value).map(\.keyMark) == [Mark(line: 2, column: 6)])
    #expect(Self.entries(png.value).map(\.value.mark) == [Mark(line: 2, column: 6)])
    // The anchored value itself keeps its own positions.
    #expect(
      Self.entries(Self.entries(doc.root)[0].value).first?.keyMark == Mark(line: 1, column: 15))
  }

  @Test func aliasExpansionIsBounded() throws {
    // Ten levels of ten: 10^10 nodes if expanded; refused after the limit.
    var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1...9 {
      let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
      text += "a\(level): &a\(level) [\(refs)]\n"
    }
    let d = try #require(Self.failure(Array(text.utf8)))
    #expect(d.message == "alias expansion exceeds the limit of 10,000 nodes")
  }

  @Test func nestingIsBounded() throws {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    let d = try #require(Self.failure(Array(deep.utf8)))
    #expect(d.message.contains("deeper than the limit of 64 levels"))
    let blockDeep = (0..<200).map { String(repeating: "  ", count: $0) + "k\($0):" }
      .joined(separator: "\n")
    #expect(Self.failure(Array(blockDeep.utf8))?.message.contains("deeper") == true)
  }

  @Test func theLargestAcceptedFilesParseInLinearTime() throws {
    // Just under 1 MiB each: a 200,000-item list, a 90,000-key mapping, and the same mapping
    // with every key a duplicate. Appending by copying the whole array took minutes here.
    var list = "texts:\n"
    while list.utf8.count < YAMLDocument.sizeLimit - 8 { list += " - a\n" }
    var mapping = "defaults:\n"
    var key = 0
    while mapping.utf8.count < YAMLDocument.sizeLimit - 32 {
      mapping += " k\(key): 1\n"
      key += 1
    }
    var duplicates = "a:\n"
    while duplicates.utf8.count < YAMLDocument.sizeLimit - 8 { duplicates += " k: 1\n" }
    for (text, count) in [(list, 200_000), (mapping, 80_000)] {
      let clock = ContinuousClock()
      let start = clock.now
      let doc = try Self.parse(text)
      #expect(clock.now - start < .seconds(10))
      let inner = Self.entries(doc.root).first?.value
      switch inner {
      case .sequence(let items, _)?: #expect(items.count > count)
      case .mapping(let entries, _)?: #expect(entries.count > count)
      default: Issue.record("unexpected tree")
      }
    }
    let clock = ContinuousClock()
    let start = clock.now
    let doc = try Self.parse(duplicates)
    #expect(clock.now - start < .seconds(10))
    #expect(doc.diagnostics.count > 100_000)
  }

  @Test func duplicateKeysAreCollectedNotFatal() throws {
    let doc = try Self.parse("a: 1\nb: 2\na: 3\nb: 4\n")
    #expect(
      doc.diagnostics.map(\.locatedMessage) == [
        "t.yaml:3:1: duplicate key 'a' (first at 1:1)",
        "t.yaml:4:1: duplicate key 'b' (first at 2:1)",
      ])
    #expect(Self.entries(doc.root).count == 2)
  }

  @Test func syntaxErrorsCarryLibyamlPositionsAndHints() throws {
    let tab = try #require(Self.failure(Array("a:\n\tb: 1\n".utf8)))
    #expect(tab.mark == Mark(line: 2, column: 1))
    #expect(tab.hint?.contains("tabs") == true)
    let quote = try #require(Self.failure(Array("a: 1\nb: 'open\nc: 2\n".utf8)))
    #expect(quote.mark == Mark(line: 2, column: 4))
    #expect(quote.hint == "a quoted string is not closed")
    let control = try #require(Self.failure(Array("a: 1\nb: x\u{1}y\n".utf8)))
    #expect(control.mark == Mark(line: 2, column: 5))
    #expect(control.message.contains("control characters"))
    let flow = try #require(Self.failure(Array("a: [1, 2\nb: 3\n".utf8)))
    #expect(flow.mark != nil && flow.snippet != nil)
  }

  @Test func moreThanOneDocumentIsRefused() throws {
    let d = try #require(Self.failure(Array("a: 1\n---\nb: 2\n".utf8)))
    #expect(d.mark == Mark(line: 2, column: 1))
    #expect(d.message.contains("more than one YAML document"))
    // One document with explicit markers is fine.
    #expect(Self.failure(Array("---\na: 1\n...\n".utf8)) == nil)
  }

  @Test func sourceLinesSplitWhereLibyamlDoes() {
    let s = SourceText(file: "f", text: "a\r\nb\rc\nd\u{2028}e")
    #expect(s.lines == ["a", "b", "c", "d", "e"])
    #expect(s.line(0) == nil && s.line(6) == nil)
  }

  @Test func pathsNormaliseLexically() {
    #expect(JobPath.normalise("a/./b//c/") == "a/b/c")
    #expect(JobPath.normalise("a/../../b") == "../b")
    #expect(JobPath.normalise("/../x") == "/x")
    #expect(JobPath.normalise("./") == ".")
    #expect(JobPath.resolve("../f", against: "/a/b") == "/a/f")
    #expect(JobPath.directory(of: "x.yaml") == ".")
    #expect(JobPath.directory(of: "/x.yaml") == "/")
  }

  @Test func decimalNumbers() {
    for ok in ["1", "-2", "+3.5", ".5", "5.", "1e3", "1.5E-2"] {
      #expect(JobDecoder.isDecimal(ok), "\(ok)")
    }
    for bad in ["", "-", ".", "e3", "1e", "0x10", "inf", ".inf", "nan", "1_000", "12pt", " 1"] {
      #expect(!JobDecoder.isDecimal(bad), "\(bad)")
    }
  }
}
