import FontiFonts
import FontiModel
import FontiSupport
import Foundation

extension Commands {
  static let families = CommandSpec(
    words: ["families"], arguments: "",
    summary: "list families: styles, bold/italic support, custom or system, text coverage",
    details: """
      One line per family, sorted by name. 'bold' and 'italic' mean a real face exists; a face
      fontconfig or Pango would synthesise does not count. With --text, 'covers' says whether
      the family's regular face has every character of the text. Families Pango cannot draw
      (Type 1 or bitmap-only) are marked 'unsupported'. --lang vi,pl keeps only the families
      that can set every listed language (fontconfig's codes). --json also gives each family's
      proofs: axes, instances, features, languages and codepoints. Exit status 0; 1 when
      --lang leaves no family (said on stderr; --json then prints an empty array).
      """,
    maxPositionals: 0,
    options: [
      .value("--text", as: "TEXT", help: "also say whether each family covers every character"),
      .flag("--json", help: "a JSON array for scripts, with each family's proofs"),
      .value(
        "--lang", as: "CODES",
        help: "only families that can set every listed language, e.g. vi,pl"),
      .value(
        "--fonts", as: "PATH", help: "custom font files or folders to include", repeatable: true),
    ],
    run: { invocation, console in
      // Absolute, so that `--json` lists every file the same way, custom or installed.
      let paths = invocation.all("--fonts").map { Located(JobPath.absolute($0)) }
      let (environment, warnings) = try FontEnvironment.load(fonts: paths)
      console.report(warnings)
      let text = invocation.value("--text")
      if let text, text.isEmpty { throw UsageError(message: "--text is empty", command: nil) }
      var families = environment.catalog.families
      var status = ExitCode.success
      if let codes = invocation.value("--lang") {
        families = try languageFilter(codes).select(families)
        if families.isEmpty {
          // As grep: nothing found is said, and is exit status 1.
          console.err(
            "fonti-batch: no family can set every language of '\(Sanitize.terminal(codes))'\n")
          status = .partial
        }
      }
      if invocation.has("--json") {
        console.out(try FamilyListing.json(families, text: text))
        return status
      }
      console.out(FamilyListing.table(families, text: text))
      return status
    })
}

extension Commands {
  /// `--lang vi,pl`: every code known to fontconfig, else a usage error with a "did you mean".
  static func languageFilter(_ text: String) throws -> LanguageFilter {
    let codes = text.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0).trimmingCharacters(in: .whitespaces)
    }
    var problems: [String] = []
    for code in codes {
      if let problem = LanguageFilter.problem(with: code, in: Languages.table) {
        problems.append("--lang: \(problem.message)")
      }
    }
    guard problems.isEmpty else {
      throw UsageError(message: problems.joined(separator: "; "), command: nil)
    }
    return LanguageFilter(known: codes)
  }
}

/// The `families` listing, as a table or JSON.
enum FamilyListing {
  struct Entry: Encodable {
    var family: String
    var styles: [String]
    var bold: Bool
    var italic: Bool
    var custom: Bool
    var supported: Bool
    var files: [String]
    var drawnFrom: FontFamily.DrawnFrom?
    var faces: [FamilyFace]
    var colour: FontColour?
    var covers: Bool?
    var axes: [FontProofs.Axis]?
    var instances: [FontProofs.Instance]?
    var features: [FontProofs.Feature]?
    var languages: LanguageCoverage?
    var codepoints: Int?
  }

  /// Every proof of every family, read on two threads (HarfBuzz and fontconfig data only).
  static func json(_ families: [FontFamily], text: String?) throws -> String {
    let everything = ProofOptions(axes: true, features: true, languages: true, glyphs: true)
    let proofs = FamilyProofReport.readAll(families, options: everything)
    let entries = zip(families, proofs).map { f, p in
      Entry(
        family: f.name, styles: f.styles, bold: f.hasBold, italic: f.hasItalic, custom: f.isCustom,
        supported: f.isRenderable, files: f.files.map(JobPath.absolute),
        drawnFrom: f.drawnFrom.map {
          FontFamily.DrawnFrom(
            regular: $0.regular.map(JobPath.absolute), variable: $0.variable.map(JobPath.absolute))
        },
        faces: f.faceList.map { face in
          var face = face
          face.file = JobPath.absolute(face.file)
          return face
        },
        colour: f.colour,
        covers: text.map { f.coverage.missing(in: $0).isEmpty }, axes: p.axes ?? [],
        instances: p.instances ?? [], features: p.features ?? [], languages: p.languages,
        codepoints: p.codepoints)
    }
    return String(decoding: try JSONEncoder(.pretty).encodeDocument(entries), as: UTF8.self)
  }

  static func table(_ families: [FontFamily], text: String?) -> String {
    // Columns by the width names take on a terminal: a CJK character takes two cells.
    let width = min(40, families.map { Sanitize.terminal($0.name).terminalWidth }.max() ?? 0)
    var out = ""
    for f in families {
      let name = Sanitize.terminal(f.name)
      let faces = f.distinctFaces.count
      var columns = [
        name + String(repeating: " ", count: max(0, width - name.terminalWidth)),
        "\(faces) \(faces == 1 ? "face " : "faces")".leftPadded(to: 9),
        f.hasBold ? "bold" : "-   ",
        f.hasItalic ? "italic" : "-     ",
        f.isCustom ? "custom" : "system",
      ]
      if !f.isRenderable { columns.append("unsupported") }
      if let text {
        let missing = f.coverage.missing(in: text).count
        columns.append(missing == 0 ? "covers" : "missing \(missing)")
      }
      out += columns.joined(separator: "  ") + "\n"
    }
    return out
  }
}

extension String {
  /// The cells the string takes on a terminal: two for each East Asian wide or full-width
  /// character (Unicode's East_Asian_Width W and F ranges), none for a combining mark or a
  /// zero-width character, one for any other.
  var terminalWidth: Int {
    unicodeScalars.reduce(0) { width, s in
      switch s.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: return width
      default: break
      }
      switch s.value {
      case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
        return width + 2
      default:
        return width + 1
      }
    }
  }

  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
