import Foundation
import TestSupport
import Testing

@testable import FontiSupport

@Suite struct SupportTests {
  @Test func sha256KnownVectors() {
    #expect(
      SHA256.hex(Array("".utf8))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    let long = Array(String(repeating: "a", count: 1_000_000).utf8)
    #expect(SHA256.hex(long) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    // Fed in pieces, as files are.
    let h = SHA256()
    h.update(Data(long.prefix(333_333)))
    h.update(long.dropFirst(333_333).lazy.map { $0 })
    #expect(h.finalize().map { String(format: "%02x", $0) }.joined() == SHA256.hex(long))
  }

  @Test func temporaryNamesTellTheirProcessAndFinalName() throws {
    let path = AtomicFile.temporaryPath(for: "/out/specimens/noto-sans-old-north-arabian.png")
    let parts = try #require(AtomicFile.temporaryParts((path as NSString).lastPathComponent))
    #expect(parts.pid == getpid() && parts.name == "noto-sans-old-north-arabian.png")
    #expect(path.hasPrefix("/out/specimens/.fonti-tmp-\(getpid())-"))
    // Beside the file, wherever it is: a bare name, a folder, the root.
    for (given, folder, name) in [
      ("a.png", "", "a.png"), ("out/a.png", "out/", "a.png"), ("/a.png", "/", "a.png"),
      ("out/sub/", "out/", "sub"), ("//x//y.pdf", "//x//", "y.pdf"),
    ] {
      let made = AtomicFile.temporaryPath(for: given)
      let tail = made.dropFirst(folder.count)
      #expect(made.hasPrefix(folder) && !tail.contains("/"), "\(given) → \(made)")
      #expect(AtomicFile.temporaryParts(String(tail))?.name == name, "\(given) → \(made)")
    }
    // The manifest's temporaries come from createTemporary, with a base-36 random part.
    let temporary = try TemporaryDirectory()
    let made = try AtomicFile.createTemporary(beside: temporary.file("manifest.json"))
    close(made.fd)
    let manifest = try #require(
      AtomicFile.temporaryParts((made.path as NSString).lastPathComponent))
    #expect(manifest.pid == getpid() && manifest.name == "manifest.json")
    for name in [
      "noto-sans.png", ".fonti-tmp-", ".fonti-tmp-12-34", ".fonti-tmp-12-34-",
      ".fonti-tmp-x-34-a.png",
      ".fonti-tmp-12-y!-a.png", ".fonti-tmp--34-a.png", ".fonti-tmp-0-34-a.png",
    ] {
      #expect(AtomicFile.temporaryParts(name) == nil, "\(name)")
    }
  }

  @Test func prettyJSONSortsKeysKeepsSlashesAndEndsWithANewline() throws {
    struct Value: Encodable {
      var path = "a/b"
      var count = 2
    }
    let text = String(decoding: try JSONEncoder(.pretty).encodeDocument(Value()), as: UTF8.self)
    #expect(text == "{\n  \"count\" : 2,\n  \"path\" : \"a/b\"\n}\n")
  }

  @Test func slugsAreSafeFileNames() {
    #expect(Slug.make("DejaVu Serif") == "dejavu-serif")
    #expect(Slug.make("Noto Sans CJK JP") == "noto-sans-cjk-jp")
    #expect(Slug.make("Ünïcödé Grotesk") == "unicode-grotesk")
    // Letters that are not a base letter with an accent are spelt out, not dropped.
    #expect(Slug.make("Ünïcødé Family") == "unicode-family")
    #expect(Slug.make("Ærøskøbing Straße") == "aeroskobing-strasse")
    #expect(Slug.make("Łódź Đuro Þórr Œuvre") == "lodz-duro-thorr-oeuvre")
    #expect(Slug.make("ﬁne ＡＢＣ x²") == "fine-abc-x2")
    #expect(Slug.make("Ελληνικά Sans") == "sans")
    #expect(Slug.make("../../evil") == "evil")
    #expect(Slug.make("a/b\\c\"d'e") == "a-b-c-d-e")
    #expect(Slug.make("😀🎉") == "family")
    #expect(Slug.make("") == "family")
    #expect(Slug.make("..") == "family")
    #expect(Slug.make(String(repeating: "x", count: 300)).count == 80)
    #expect(Slug.unique(["Foo", "foo", "FOO!", "Bar"]) == ["foo", "foo-2", "foo-3", "bar"])
    for s in Slug.unique(["../x", "\u{0}\u{7}", "  ", "a\nb"]) {
      #expect(s.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
      #expect(!s.isEmpty && !s.hasPrefix("-"))
    }
  }

  @Test func terminalTextLosesControlCharacters() {
    #expect(Sanitize.terminal("a\u{1B}[31mb\u{7}c\u{202E}d") == "a\u{FFFD}[31mb\u{FFFD}c\u{FFFD}d")
    #expect(Sanitize.terminal("DejaVu Serif") == "DejaVu Serif")
    #expect(Sanitize.terminal("a\u{2028}b\u{2029}c") == "a\u{FFFD}b\u{FFFD}c")
  }

  /// A message longer than the terminal allows is cut in the middle: a long path is shortened,
  /// and the reason after it stays.
  @Test func aLongMessageKeepsItsEnd() {
    let path = "/tmp/" + String(repeating: "n", count: 4_000) + "/C.otf"
    let shown = DiagnosticPrinter.shown("'\(path)' cannot be read (File name too long)")
    #expect(shown.count == DiagnosticPrinter.messageWidth + 1)
    #expect(shown.hasPrefix("'/tmp/nnn"))
    #expect(shown.hasSuffix("nnn/C.otf' cannot be read (File name too long)"))
    #expect(shown.contains("…"))
  }

  @Test func suggestionsFindTypos() {
    #expect(Suggest.didYouMean("sizez", among: ["sizes", "styles", "texts"]) == "sizes")
    #expect(Suggest.didYouMean("zzzzzz", among: ["sizes", "styles"]) == nil)
    #expect(Suggest.didYouMean("RNU", among: ["run", "render"]) == "run")
  }

  @Test func diagnosticsPrintWithLocationSnippetAndHint() {
    let d = Diagnostic(
      .error, "unknown key 'sizez' (did you mean 'sizes'?)", file: "job.yaml",
      mark: Mark(line: 12, column: 5), snippet: "    sizez: [12, 24]", hint: "see the example")
    #expect(
      DiagnosticPrinter(colour: false).format(d) == """
        fonti-batch: error: job.yaml:12:5: unknown key 'sizez' (did you mean 'sizes'?)
                sizez: [12, 24]
                ^
          hint: see the example

        """)
  }

  /// Work on a thread of its own: its result is taken once, after the work has ended, and a
  /// second taker is told to look again (nil), never handed what was read earlier.
  @Test func backgroundWorkIsTakenOnce() {
    let work = Background { () -> [Int] in
      usleep(20_000)
      return Array(1...3)
    }
    #expect(work.take() == [1, 2, 3])
    #expect(work.take() == nil)
  }
}
