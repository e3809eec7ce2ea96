import Foundation

/// One broken or hostile input — a job file, a font, a favourites manifest, an output folder
/// or a command line — and everything the tool must do with it.
struct BadInput: Sendable, CustomStringConvertible {
  /// What is put in the sandbox's working folder before the run.
  enum Content: Sendable {
    case text(String)
    case bytes([UInt8])
    case folder
    /// A fixture font, whole.
    case font(String)
    /// A fixture font cut after `count` bytes.
    case truncatedFont(String, count: Int)
    /// A fixture font whose family is renamed (`from` and `to` of the same length, ASCII).
    case renamedFont(String, from: String, to: String)
  }

  var name: String
  var files: [(path: String, content: Content)] = []
  var arguments: [String]
  /// Variables added to the sandbox's environment.
  var environment: [String: String] = [:]
  var status: Int32
  /// Substrings stderr must contain (the located diagnostic first).
  var stderr: [String] = []
  var stdout: [String] = []
  /// Paths (relative to the working folder) that must exist afterwards.
  var exists: [String] = []
  /// Paths that must not exist afterwards.
  var absent: [String] = []
  /// Paths whose bytes must be exactly as they were before the run.
  var unchanged: [String] = []

  var description: String { name }
}

/// The corpus: at least 60 cases, each a mistake a user makes or an input a hostile font or
/// file could carry. `BadInputCorpusTests` runs every one through the real binary.
enum BadInputCorpus {
  /// A job that is valid and quick: one family, small PNGs, no catalogue.
  static let valid = """
    version: 1
    families:
      include: [Cantarell]
    png:
      edge: 256
    catalogues: []

    """

  /// `run` on a job file that must be refused before anything is written: exit 2, the located
  /// error, and no output folder.
  static func job(
    _ name: String, _ yaml: String, _ errors: String..., extra: [(String, BadInput.Content)] = []
  ) -> BadInput {
    BadInput(
      name: name, files: [("specimens.yaml", .text(yaml))] + extra.map { ($0.0, $0.1) },
      arguments: ["run", "-q"], status: 2, stderr: errors, absent: ["output"])
  }

  static func jobBytes(_ name: String, _ bytes: [UInt8], _ errors: String...) -> BadInput {
    BadInput(
      name: name, files: [("specimens.yaml", .bytes(bytes))], arguments: ["run", "-q"],
      status: 2, stderr: errors, absent: ["output"])
  }

  /// A command line that is refused with a usage error: exit 2, the message, nothing written.
  static func usage(_ name: String, _ arguments: [String], _ errors: String...) -> BadInput {
    BadInput(
      name: name, files: [("specimens.yaml", .text(valid))], arguments: arguments, status: 2,
      stderr: errors, absent: ["output", "Cantarell.png", "cantarell.png"])
  }

  static let e = "fonti-batch: error: specimens.yaml:"

  static var yaml: [BadInput] {
    [
      job(
        "tab indentation", "version: 1\ndefaults:\n\ttext: hi\n", "\(e)3:1: invalid YAML",
        "YAML does not allow tabs for indentation; use spaces"),
      job(
        "unclosed double quote", "version: 1\ntitle: \"Winter\nauthor: me\n",
        "\(e)2:8: invalid YAML", "a quoted string is not closed"),
      job(
        "unclosed single quote", "version: 1\ntitle: 'Winter\n", "\(e)2:8: invalid YAML",
        "a quoted string is not closed"),
      job(
        "bad indentation", "version: 1\ndefaults:\n  text: a\n   size: 12\n",
        "\(e)4:8: invalid YAML: mapping values are not allowed", "check the indentation"),
      job(
        "duplicate keys", valid + "version: 1\n",
        "\(e)7:1: duplicate key 'version' (first at 1:1)"),
      jobBytes(
        "Latin-1 byte", Array("version: 1\ntitle: caf".utf8) + [0xE9, 0x0A],
        "\(e)2:11: job file is not valid UTF-8 (byte 0xE9)"),
      jobBytes(
        "UTF-16 file", [0xFF, 0xFE] + Array("version: 1\n".utf8).flatMap { [$0, 0] },
        "\(e)1:1: job file is UTF-16; save it as UTF-8"),
      jobBytes(
        "overlong UTF-8 slash", Array("version: 1\noutput: ".utf8) + [0xC0, 0xAF, 0x0A],
        "\(e)2:9: job file is not valid UTF-8 (byte 0xC0)"),
      jobBytes(
        "NUL byte", Array("version: 1\ntitle: a".utf8) + [0x00] + Array("b\n".utf8),
        "\(e)2:9: invalid YAML: control characters are not allowed (U+0000)"),
      job(
        "alias bomb",
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
          + (1...9).map {
            "a\($0): &a\($0) ["
              + Array(repeating: "*a\($0 == 1 ? "" : "\($0 - 1)")", count: 10).joined(
                separator: ", ") + "]"
          }
          .joined(separator: "\n") + "\n",
        "alias expansion exceeds the limit of 10,000 nodes"),
      jobBytes(
        "20 MB job file", Array("version: 1\n".utf8) + Array(repeating: 0x23, count: 20_000_000),
        "fonti-batch: error: specimens.yaml: job file is larger than the 1 MiB limit (20,000,011 bytes)"
      ),
      jobBytes(
        "1 MiB and one byte", Array(repeating: 0x20, count: (1 << 20) + 1),
        "job file is larger than the 1 MiB limit (1,048,577 bytes)"),
      job("empty file", "", "fonti-batch: error: specimens.yaml: job file is empty"),
      job("only comments", "# nothing yet\n\n", "specimens.yaml: job file is empty"),
      BadInput(
        name: "a folder as the job", files: [("jobs", .folder)], arguments: ["run", "jobs"],
        status: 2, stderr: ["fonti-batch: error: 'jobs' is a folder, not a job file"],
        absent: ["output"]),
      BadInput(
        name: "a missing job", arguments: ["run", "nope.yaml"], status: 2,
        stderr: ["fonti-batch: error: job file 'nope.yaml' not found", "fonti-batch init"],
        absent: ["output"]),
      job("root is a list", "- version: 1\n", "\(e)1:1: a job file is a mapping"),
      job("root is a word", "hello\n", "\(e)1:1: a job file is a mapping"),
      job(
        "two documents", "version: 1\n---\nversion: 1\n",
        "\(e)2:1: job file contains more than one YAML document"),
      job(
        "deep nesting", "version: 1\ntexts: " + String(repeating: "[", count: 5_000) + "\n",
        "deeper than the limit of 64 levels"),
      job("unknown alias", "version: 1\ntitle: *nothing\n", "\(e)2:8: unknown alias '*nothing'"),
      job(
        "unsupported tag", "version: 1\ntitle: !!binary aGVsbG8=\n",
        "\(e)2:8: unsupported YAML tag '!!binary'"),
      job(
        "list as a key", "version: 1\n? [a, b]\n: c\n",
        "\(e)2:3: a mapping key must be a plain word"),
    ]
  }

  static var keys: [BadInput] {
    [
      job("version quoted", "version: \"1\"\n", "\(e)1:10: version must be 1, not the quoted"),
      job("version 2", "version: 2\ntitle: x\n", "\(e)1:10: unsupported job version 2"),
      job("version missing", "title: x\n", "\(e)1:1: missing 'version: 1'"),
      job(
        "title a list", "version: 1\ntitle: [a]\n", "\(e)2:8: title must be a string, not a list"),
      job("title empty", "version: 1\ntitle: \"  \"\n", "\(e)2:8: title is empty"),
      job(
        "title with an escape", "version: 1\ntitle: \"\\e[2J\"\n",
        "\(e)2:8: title contains a control character (U+001B)"),
      job(
        "author a mapping", "version: 1\nauthor: {a: 1}\n",
        "\(e)2:9: author must be a string, not a mapping"),
      job("output a list", "version: 1\noutput: []\n", "\(e)2:9: output must be a string"),
      job(
        "defaults a number", "version: 1\ndefaults: 5\n",
        "\(e)2:11: defaults must be a mapping of keys (text, language, size, theme, variations, features)"
      ),
      job(
        "text a list", "version: 1\ndefaults:\n  text: [a]\n",
        "\(e)3:9: defaults.text must be text, not a list"),
      job("text empty", "version: 1\ndefaults:\n  text: \"\"\n", "\(e)3:9: defaults.text is empty"),
      job(
        "text over 2,000 characters",
        "version: 1\ndefaults:\n  text: " + String(repeating: "a", count: 2_001) + "\n",
        "\(e)3:9: defaults.text is 2,001 characters long; the limit is 2,000"),
      job(
        "size a word", "version: 1\ndefaults:\n  size: big\n",
        "\(e)3:9: defaults.size must be a number, not 'big'"),
      job(
        "size too small", "version: 1\ndefaults:\n  size: 11\n",
        "\(e)3:9: defaults.size 11 pt is outside 12–96 pt"),
      job(
        "size too large", "version: 1\ndefaults:\n  size: 1e400\n",
        "\(e)3:9: defaults.size inf pt is outside 12–96 pt"),
      job(
        "theme unknown", "version: 1\ndefaults:\n  theme: dark\n",
        "\(e)3:10: unknown theme 'dark' (expected ink or cream)"),
      job(
        "theme misspelt", "version: 1\ndefaults:\n  theme: inc\n",
        "\(e)3:10: unknown theme 'inc' (did you mean 'ink'?)"),
      job(
        "texts a word", "version: 1\ntexts: hello\n",
        "\(e)2:8: texts must be a list of sample texts, not 'hello'", "texts: [hello]"),
      job(
        "51 texts", "version: 1\ntexts:\n" + String(repeating: "  - a\n", count: 51),
        "\(e)53:5: too many texts: 51 (the limit is 50)"),
      job("a text empty", "version: 1\ntexts: [\"\"]\n", "\(e)2:9: a line of texts is empty"),
      job(
        "one character of 300,000 combining marks",
        "version: 1\ndefaults:\n  text: \"a" + String(repeating: "\u{301}", count: 300_000)
          + "\"\n",
        "\(e)3:9: defaults.text has 300,001 Unicode code points",
        "the limit is 8,000"),
      job(
        "200,000 texts in a 1 MiB file",
        "version: 1\ntexts:\n" + String(repeating: " - a\n", count: 200_000),
        "\(e)53:4: too many texts: 200000 (the limit is 50)"),
      job(
        "a 100 KB theme and family name",
        "version: 1\ndefaults:\n  theme: " + String(repeating: "x", count: 100_000)
          + "\nfamilies:\n  include: [\"" + String(repeating: "Z", count: 200_000) + "\"]\n",
        "\(e)3:10: unknown theme 'xxxx", "\(e)5:13: family 'ZZZZ"),
      job(
        "families a list", "version: 1\nfamilies: [a]\n",
        "\(e)2:11: families must be a mapping of keys (include, exclude, languages)"),
      job(
        "include a word", "version: 1\nfamilies:\n  include: \"*\"\n",
        "\(e)3:12: families.include must be a list"),
      job(
        "include empty", "version: 1\nfamilies:\n  include: []\n",
        "\(e)3:12: families.include is empty"),
      job(
        "family not installed", "version: 1\nfamilies:\n  include: [Georgia]\n",
        "\(e)3:13: family 'Georgia' is not installed"),
      job(
        "family misspelt", "version: 1\nfamilies:\n  include: [Dejavu Serf]\n",
        "\(e)3:13: family 'Dejavu Serf' is not installed", "did you mean 'DejaVu Serif'?"),
      job(
        "exclude a number", "version: 1\nfamilies:\n  exclude: 3\n",
        "\(e)3:12: families.exclude must be a list"),
      job("fonts a word", "version: 1\nfonts: fonts/\n", "\(e)2:8: fonts must be a list"),
      job(
        "font missing", "version: 1\nfonts: [fonts/missing.ttf]\n",
        "\(e)2:9: font file or folder 'fonts/missing.ttf' does not exist"),
      job(
        "font zero bytes", "version: 1\nfonts: [zero.ttf]\n", "\(e)2:9: font file", "is empty",
        extra: [("zero.ttf", .bytes([]))]),
      job(
        "font truncated", "version: 1\nfonts: [cut.ttf]\n", "\(e)2:9: font file", "is truncated",
        extra: [("cut.ttf", .truncatedFont("DejaVuSerif.ttf", count: 3_000))]),
      job(
        "font is text", "version: 1\nfonts: [text.ttf]\n", "\(e)2:9: font file",
        "is not a TrueType or OpenType font", extra: [("text.ttf", .text("hello\n"))]),
      job(
        "bad font inside a folder", "version: 1\nfonts: [fonts/]\n", "\(e)2:9: font file",
        "broken.otf' is not a TrueType or OpenType font",
        extra: [
          ("fonts/good/Cantarell-Regular.otf", .font("Cantarell-Regular.otf")),
          ("fonts/broken.otf", .bytes(Array(repeating: 0x4F, count: 512))),
        ]),
      job("sizes a number", "version: 1\nsizes: 12\n", "\(e)2:8: sizes must be a list"),
      job(
        "waterfall size too small", "version: 1\nsizes: [3]\n",
        "\(e)2:9: waterfall size 3 pt is outside 4–400 pt"),
      job(
        "waterfall size too large", "version: 1\nsizes: [12, 401]\n",
        "\(e)2:13: waterfall size 401 pt is outside 4–400 pt"),
      job(
        "33 sizes",
        "version: 1\nsizes: [" + (1...33).map { "\($0 + 10)" }.joined(separator: ", ")
          + "]\n", "too many sizes: 33 (the limit is 32)"),
      job(
        "style misspelt", "version: 1\nstyles: [bolder]\n",
        "\(e)2:10: no selected family has a face named 'bolder' (did you mean 'Bold'?)"),
      job("styles a word", "version: 1\nstyles: bold\n", "\(e)2:9: styles must be a list"),
      job(
        "curated yes", "version: 1\npairings:\n  curated: yes\n",
        "\(e)3:12: pairings.curated must be true or false, not 'yes'"),
      job(
        "pairing without body", "version: 1\npairings:\n  extra:\n    - { heading: Cantarell }\n",
        "\(e)4:7: pairing has no 'body'"),
      job(
        "pairing family not installed",
        "version: 1\npairings:\n  extra:\n    - { heading: Cantarell, body: Lato }\n",
        "\(e)4:35: family 'Lato' is not installed"),
      job(
        "favourite not installed", "version: 1\nfavourites:\n  save: [Nope Sans]\n",
        "\(e)3:10: family 'Nope Sans' is not installed"),
      job(
        "manifest leaves the output", "version: 1\nfavourites:\n  manifest: ../../fav.json\n",
        "\(e)3:13: favourites manifest '../../fav.json' would leave the output folder"),
      job(
        "manifest absolute", "version: 1\nfavourites:\n  manifest: /etc/passwd\n",
        "\(e)3:13: favourites manifest '/etc/passwd' must be relative to the output folder"),
      job(
        "manifest is the run's", "version: 1\nfavourites:\n  manifest: ./manifest.json\n",
        "\(e)3:13: favourites.manifest cannot be 'manifest.json'"),
      job(
        "png edge too small", "version: 1\npng:\n  edge: 255\n",
        "\(e)3:9: png.edge 255 px is outside 256–4,096 px"),
      job(
        "png edge too large", "version: 1\npng:\n  edge: 4097\n",
        "\(e)3:9: png.edge 4,097 px is outside 256–4,096 px"),
      job(
        "png edge fractional", "version: 1\npng:\n  edge: 1080.5\n",
        "\(e)3:9: png.edge must be a whole number, not 1080.5"),
      job(
        "png scale 4", "version: 1\npng:\n  scale: 4\n", "\(e)3:10: png.scale must be 1, 2 or 3"),
      job(
        "png edge × scale", "version: 1\npng:\n  edge: 4096\n  scale: 3\n",
        "\(e)4:10: png.edge × png.scale is 4096 × 3 = 12,288 px, over the limit of 8,192 px"),
      job(
        "png compression unknown", "version: 1\npng:\n  compression: tiny\n",
        "\(e)3:16: unknown compression 'tiny'"),
      job(
        "catalogue leaves the output", "version: 1\ncatalogues:\n  - file: ../../out.pdf\n",
        "\(e)3:11: catalogue path '../../out.pdf' would leave the output folder"),
      job(
        "catalogue not a pdf", "version: 1\ncatalogues:\n  - file: cat.txt\n",
        "\(e)3:11: catalogue file 'cat.txt' must end in .pdf"),
      job(
        "catalogue twice", "version: 1\ncatalogues:\n  - file: a.pdf\n  - file: ./a.pdf\n",
        "\(e)4:11: duplicate catalogue file 'a.pdf' (first at 3:11)"),
      job(
        "unknown key misspelt", "version: 1\nsizez: [12]\n",
        "\(e)2:1: unknown key 'sizez' (did you mean 'sizes'?)"),
      job(
        "unknown key", "version: 1\ncolour: red\n", "\(e)2:1: unknown key 'colour'",
        "hint: the keys are version, title"),
      job(
        "nested key misspelt", "version: 1\ndefaults:\n  szie: 12\n",
        "\(e)3:3: unknown key 'szie' in defaults (did you mean 'size'?)"),
      job(
        "output is a file", "version: 1\noutput: taken\n",
        "\(e)2:9: output 'taken' exists and is not a folder", extra: [("taken", .text("x"))]),
      job(
        "output under a file", "version: 1\noutput: taken/output\n",
        "\(e)2:9: output 'taken/output' cannot be created", "taken' is a file",
        extra: [("taken", .text("x"))]),
      job(
        "five mistakes at once",
        "version: 1\ndefaults:\n  size: 200\n  theme: blue\nsizez: []\npng:\n  edge: 1\n"
          + "styles: [thin]\n",
        "\(e)3:9:", "\(e)4:10:", "\(e)5:1:", "\(e)7:9:", "\(e)8:10:"),
    ]
  }

  static let familiesJob = """
    version: 1
    fonts: [hostile/]
    families:
      include: ["*"]
      exclude: ["Noto*", "D050000L", "DejaVu Serif"]
    png:
      edge: 256
    catalogues: []

    """

  static var fonts: [BadInput] {
    [
      BadInput(
        name: "family name that climbs out of the output folder",
        files: [
          ("specimens.yaml", .text(familiesJob)),
          (
            "hostile/evil.ttf",
            .renamedFont("DejaVuSerif.ttf", from: "DejaVu Serif", to: "../../evil/.")
          ),
        ],
        arguments: ["run", "-v", "-j", "1"], status: 0, stderr: ["wrote   specimens/evil.png"],
        exists: [
          "output/specimens/evil.png", "output/specimens/cantarell.png", "output/manifest.json",
        ],
        absent: [
          "evil", "evil.png", "../evil", "../evil.png", "output/evil.png", "output/specimens/.png",
        ]),
      BadInput(
        name: "family name with terminal escapes",
        files: [
          ("specimens.yaml", .text(familiesJob)),
          (
            "hostile/escape.otf",
            .renamedFont(
              "Cantarell-Regular.otf", from: "Cantarell", to: "\u{1B}[31mX\u{07}\u{08}\r")
          ),
        ],
        arguments: ["run", "-v", "-j", "1"], status: 0,
        stderr: ["wrote   specimens/31mx.png"],
        exists: ["output/specimens/31mx.png", "output/manifest.json"]),
      BadInput(
        name: "hostile names in families and dry-run listings",
        files: [
          ("specimens.yaml", .text(familiesJob)),
          (
            "hostile/escape.otf",
            .renamedFont("Cantarell-Regular.otf", from: "Cantarell", to: "\u{1B}]0;pwn\u{07}\u{7F}")
          ),
        ],
        arguments: ["families", "--fonts", "hostile"], status: 0,
        stdout: ["\u{FFFD}]0;pwn\u{FFFD}\u{FFFD}"], absent: ["output"]),
      BadInput(
        name: "import a text file named .ttf",
        files: [("notafont.ttf", .text("hello\n"))],
        arguments: ["fonts", "import", "notafont.ttf"],
        status: 1, stderr: ["notafont.ttf", "not a TrueType or OpenType font"],
        absent: ["../data/fonti/fonts/notafont.ttf"]),
      BadInput(
        name: "import a zero-byte font",
        files: [("zero.otf", .bytes([]))], arguments: ["fonts", "import", "zero.otf"], status: 1,
        stderr: ["zero.otf", "empty"], absent: ["../data/fonti/fonts/zero.otf"]),
      BadInput(
        name: "a font that crashes its worker",
        files: [
          ("specimens.yaml", .text(valid.replacingOccurrences(of: "[Cantarell]", with: "[\"*\"]")))
        ],
        arguments: ["run", "-q", "-j", "2"], environment: ["FONTI_WORKER_CRASH_ON": "Cantarell"],
        status: 1,
        stderr: [
          "fonti-batch: error: family 'Cantarell' failed: worker process crashed (SIGABRT)",
          "Cantarell-Regular.otf",
        ],
        exists: ["output/manifest.json", "output/specimens/dejavu-serif.png"],
        absent: ["output/specimens/cantarell.png"]),
      BadInput(
        name: "render a family that is not installed", arguments: ["render", "Georgia"],
        status: 2, stderr: ["fonti-batch: error: family 'Georgia' is not installed"],
        absent: ["georgia.png"]),
    ]
  }

  static var outputs: [BadInput] {
    [
      BadInput(
        name: "-o names a file", files: [("specimens.yaml", .text(valid)), ("out", .text("x"))],
        arguments: ["run", "-q", "-o", "out"], status: 2,
        stderr: ["fonti-batch: error: output folder 'out' (--output) exists and is not a folder"],
        unchanged: ["out"]),
      BadInput(
        name: "-o below a file", files: [("specimens.yaml", .text(valid)), ("out", .text("x"))],
        arguments: ["run", "-q", "-o", "out/run"], status: 2,
        stderr: ["output folder 'out/run' (--output) cannot be created", "out' is a file"],
        unchanged: ["out"]),
      BadInput(
        name: "a file where output/specimens should be",
        files: [("specimens.yaml", .text(valid)), ("output/specimens", .text("mine"))],
        arguments: ["run", "-q"], status: 2,
        stderr: ["output/specimens' is a file where fonti-batch needs a folder"],
        absent: ["output/manifest.json"], unchanged: ["output/specimens"]),
      BadInput(
        name: "a folder where manifest.json should be",
        files: [("specimens.yaml", .text(valid)), ("output/manifest.json", .folder)],
        arguments: ["run", "-q"], status: 2,
        stderr: ["output/manifest.json' is in the way of the run's manifest"],
        absent: ["output/specimens"]),
      BadInput(
        name: "a folder where one specimen should be",
        files: [
          ("specimens.yaml", .text(valid.replacingOccurrences(of: "[Cantarell]", with: "[\"*\"]"))),
          ("output/specimens/cantarell.png", .folder),
        ],
        arguments: ["run", "-q", "-j", "2"], status: 1,
        stderr: ["family 'Cantarell' failed", "Is a directory"],
        exists: ["output/manifest.json", "output/specimens/dejavu-serif.png"]),
      BadInput(
        name: "a folder where favourites.json should be",
        files: [
          ("specimens.yaml", .text(valid + "favourites:\n  save: [Cantarell]\n")),
          ("output/favourites.json", .folder),
        ],
        arguments: ["run", "-q"], status: 2,
        stderr: ["output/favourites.json: is a folder, not a file"],
        absent: ["output/specimens", "output/manifest.json"]),
    ]
  }

  /// favourites.json that is not ours to overwrite: every command refuses and leaves it be.
  static var favourites: [BadInput] {
    let damaged: [(String, String, String)] = [
      ("not JSON", "not json", "is not valid JSON"),
      ("newer version", "{\"version\": 2, \"saved\": []}", "was written by a newer fonti-batch"),
      ("family a number", "{\"version\": 1, \"saved\": [{\"family\": 3}]}", "should be a string"),
      ("a JSON list", "[]", "expected a JSON object"),
    ]
    let commands: [[String]] = [
      ["run", "-q"], ["saved", "add", "Cantarell"], ["saved", "remove", "Cantarell"],
      ["saved", "clear", "--yes"],
    ]
    var cases: [BadInput] = []
    for (i, (label, text, message)) in damaged.enumerated() {
      // Each damage against run, and against one saved command in turn.
      for command in [commands[0], commands[1 + i % 3]] {
        cases.append(
          BadInput(
            name: "favourites.json \(label): \(command.joined(separator: " "))",
            files: [
              ("specimens.yaml", .text(valid + "favourites:\n  save: [Cantarell]\n")),
              ("output/favourites.json", .text(text)),
            ],
            arguments: command, status: 2,
            stderr: ["fonti-batch: error: ", "output/favourites.json", message],
            absent: ["output/specimens", "output/manifest.json"],
            unchanged: ["output/favourites.json"]))
      }
    }
    return cases
  }

  static var commandLines: [BadInput] {
    [
      usage("-j 0", ["run", "-j", "0"], "--jobs must be a whole number in 1–64 (got '0')"),
      usage("-j abc", ["run", "-j", "abc"], "--jobs must be a whole number in 1–64 (got 'abc')"),
      usage("-j 1.5", ["run", "--jobs=1.5"], "--jobs must be a whole number in 1–64 (got '1.5')"),
      usage("-j without a value", ["run", "-j"], "option '-j' needs a value (N)"),
      usage("render of an empty family name", ["render", " "], "FAMILY is empty"),
      // A negative number is the option's value, refused for what it is.
      usage("-j -3", ["run", "-j", "-3"], "--jobs must be a whole number in 1–64 (got '-3')"),
      usage("-j twice", ["run", "-j", "2", "-j", "3"], "option '--jobs' given twice"),
      usage("-o twice", ["run", "-o", "a", "--output=b"], "option '--output' given twice"),
      usage("--output empty", ["run", "--output="], "--output is empty"),
      usage("--size 500", ["render", "Cantarell", "--size", "500"], "--size must be in 12–96"),
      usage("--size nan", ["render", "Cantarell", "--size", "nan"], "--size must be in 12–96"),
      usage(
        "--scale 4", ["render", "Cantarell", "--scale", "4"],
        "--scale must be a whole number in 1–3 (got '4')"),
      usage(
        "--theme misspelt", ["render", "Cantarell", "--theme", "crem"],
        "--theme must be one of ink, cream (got 'crem') (did you mean 'cream'?)"),
      usage(
        "render to a .txt", ["render", "Cantarell", "-o", "x.txt"],
        "--output must name a .png file"),
      usage("render with empty text", ["render", "Cantarell", "--text", ""], "--text is empty"),
      usage(
        "render text over 2,000 characters",
        ["render", "Cantarell", "--text", String(repeating: "ab ", count: 700)],
        "--text is 2,100 characters long; the limit is 2,000"),
      usage(
        "render text of combining marks",
        ["render", "Cantarell", "--text", "a" + String(repeating: "\u{301}", count: 9_000)],
        "--text has 9,001 Unicode code points"),
      usage("render without a family", ["render"], "missing FAMILY", "Usage: fonti-batch render"),
      usage("unknown command", ["rn"], "unknown command 'rn' (did you mean 'run'?)"),
      usage("unknown help topic", ["help", "rnu"], "unknown command 'rnu' (did you mean 'run'?)"),
      usage(
        "unknown option", ["run", "--outptu", "x"],
        "unknown option '--outptu' (did you mean '--output'?)"),
      usage(
        "misspelt global option", ["--versoin"],
        "unknown option '--versoin' (did you mean '--version'?)"),
      usage(
        "flag with a value", ["run", "--force=yes"], "option '--force' takes no value (got 'yes')"),
      usage("two jobs", ["run", "a.yaml", "b.yaml"], "unexpected argument 'b.yaml'"),
      usage(
        "quiet and verbose", ["run", "-q", "-v"], "--quiet and --verbose contradict each other"),
      usage("saved add without names", ["saved", "add"], "missing FAMILY..."),
      BadInput(
        name: "no command", arguments: [], status: 2,
        stdout: ["Usage: fonti-batch COMMAND"], absent: ["output"]),
      BadInput(
        name: "an output folder named with terminal escapes",
        files: [("specimens.yaml", .text(valid))],
        arguments: ["run", "-o", "out\u{1B}[2J\u{07}"], status: 0,
        stderr: ["1 family: 1 rendered", "out\u{FFFD}[2J\u{FFFD}/"],
        exists: ["out\u{1B}[2J\u{07}/specimens/cantarell.png"]),
      BadInput(
        name: "a dry run into a folder named with escapes",
        files: [("specimens.yaml", .text(valid))],
        arguments: ["run", "--dry-run", "-o", "out\u{1B}[2J"], status: 0,
        stderr: ["to render"], stdout: ["specimens/cantarell.png"], absent: ["out\u{1B}[2J"]),
      BadInput(
        name: "a job file named with escapes, several errors",
        files: [("bad\u{1B}[1m.yaml", .text("version: 1\ntitle: []\nsizez: 1\n"))],
        arguments: ["check", "bad\u{1B}[1m.yaml"], status: 2,
        stderr: [
          "bad\u{FFFD}[1m.yaml:2:8: title must be a string", "bad\u{FFFD}[1m.yaml: 2 errors",
        ],
        absent: ["output"]),
      BadInput(
        name: "init at a path with escapes",
        arguments: ["init", "new\u{1B}[1m.yaml"], status: 0,
        stdout: ["wrote new\u{FFFD}[1m.yaml"], exists: ["new\u{1B}[1m.yaml"]),
      BadInput(
        name: "init at a one-letter path (Foundation's path functions trapped on it)",
        arguments: ["init", "a"], status: 0, stdout: ["wrote a"], exists: ["a"]),
      BadInput(
        name: "init - prints the example",
        arguments: ["init", "-"], status: 0, stdout: ["version: 1"], absent: ["-"]),
      BadInput(
        name: "saved add with a one-letter manifest path",
        arguments: ["saved", "add", "Cantarell", "--manifest", "f"], status: 0, exists: ["f"]),
      BadInput(
        name: "saved clear without a terminal or --yes",
        files: [("output/favourites.json", .text("{\"version\": 1, \"saved\": []}"))],
        arguments: ["saved", "clear"], status: 2, stderr: ["--yes"],
        unchanged: ["output/favourites.json"]),
    ]
  }

  static var all: [BadInput] { yaml + keys + fonts + outputs + favourites + commandLines }
}
