import FontiFonts
import FontiSupport
import Foundation

/// `fonts [list]`, `fonts import`, `fonts remove`: the user's imported font library.
extension Commands {
  static let fonts = CommandSpec(
    words: ["fonts"], arguments: "[list]", summary: "the user's imported font library",
    details: """
      The library is $XDG_DATA_HOME/fonti/fonts (default ~/.local/share/fonti/fonts). Its fonts
      are used by every command and run, as custom fonts, without being installed system-wide.
      One line per family with its files; --json gives [{"family", "files"}].
      Subcommands: list (the default), import, remove.
      """,
    maxPositionals: nil,
    options: [.flag("--json", help: "a JSON array for scripts")],
    run: { invocation, console in
      try invocation.checkListWord(subcommands: ["import", "remove"])
      let library = FontLibrary.standard
      let (families, problems) = library.contents()
      console.report(problems)
      if invocation.has("--json") {
        console.out(try LibraryListing.json(families))
        return .success
      }
      if families.isEmpty {
        console.err(
          "No imported fonts yet (\(Sanitize.terminal(library.directory))). "
            + "Add some with: fonti-batch fonts import FILE...\n")
        return .success
      }
      if console.stdoutIsTerminal {
        console.line("Font library: \(Sanitize.terminal(library.directory))")
      }
      console.out(LibraryListing.table(families, library: library))
      return .success
    })

  static let fontsImport = CommandSpec(
    words: ["fonts", "import"], arguments: "FILE...",
    summary:
      "copy .ttf/.otf/.ttc/.otc/.woff/.woff2 into the library after checking each is a real font",
    details: """
      Each file (folders are searched for font files) must be a TrueType/OpenType font or
      collection, or a WOFF/WOFF2 web font of one, that FreeType reads (a web font is copied as
      it is and decoded into the cache when used); a refused file is named with the reason and
      nothing is copied for it, while the others are still imported (exit 1). A file already in
      the library (same bytes) is not copied again (exit 0). A different file with the same name
      is kept under a new name; nothing in the library is overwritten.
      """,
    minPositionals: 1, maxPositionals: nil,
    run: { invocation, console in
      let library = FontLibrary.standard
      let outcomes = library.importFiles(invocation.positionals)
      var added: [String] = []
      for outcome in outcomes {
        switch outcome {
        case .imported(let source, let destination, let families, let renamed):
          let name = Sanitize.terminal((destination as NSString).lastPathComponent)
          let list = families.map { Sanitize.terminal($0) }.joined(separator: ", ")
          console.line("Imported \(name): \(list)")
          if renamed {
            let original = Sanitize.terminal((source as NSString).lastPathComponent)
            console.info(
              "  (a different file named \(original) is already in the library; this one is "
                + "\(name))")
          }
          added += families
        case .duplicate(let source, let existing, _):
          console.line(
            "\(Sanitize.terminal(source)) is already in the library (as "
              + "\(Sanitize.terminal((existing as NSString).lastPathComponent))); nothing copied.")
        case .refused(let source, let reason):
          // A folder given, or one met in it, is not called a font file.
          var info = stat()
          let noun =
            stat(source, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR ? "folder" : "font file"
          console.report(.error("\(noun) '\(source)' \(reason); not imported"))
        }
      }
      warnAboutShadowing(added, console: console)
      warnAboutTwoVersions(of: added, in: library, console: console)
      return ExitCode.of(outcomes)
    })

  static let fontsRemove = CommandSpec(
    words: ["fonts", "remove"], arguments: "FAMILY...",
    summary: "delete a family's files from the library",
    details: """
      Deletes the library files whose faces belong to each FAMILY (matched case-insensitively).
      A family that is not in the library is an error (exit 2) and nothing is deleted; so is a
      collection file that also holds a family not named. Installed system fonts are never
      touched.
      """,
    minPositionals: 1, maxPositionals: nil,
    run: { invocation, console in
      let library = FontLibrary.standard
      // What the library holds but cannot be listed (and so not removed) is said first.
      console.report(library.unreachable)
      let removed = try library.remove(families: invocation.positionals)
      for family in removed {
        let files = family.files.map {
          Sanitize.terminal(($0 as NSString).lastPathComponent)
        }
        console.line(
          "Removed \(Sanitize.terminal(family.name)) "
            + "(\(files.count == 1 ? "1 file" : "\(files.count) files"): "
            + "\(files.joined(separator: ", ")))")
      }
      return .success
    })

  /// A warning for each face of an imported family that the library now holds in two files or
  /// more (two versions of one font, kept side by side because their files differ): fontconfig
  /// draws only one of them, and which is not the user's choice.
  static func warnAboutTwoVersions(of families: [String], in library: FontLibrary, console: Console)
  {
    guard !families.isEmpty,
      let (environment, _) = try? FontEnvironment.load(library: library)
    else { return }
    let folder = library.directory.hasSuffix("/") ? library.directory : library.directory + "/"
    var warned = Set<String>()
    for name in families where warned.insert(name.lowercased()).inserted {
      guard let family = environment.catalog.family(named: name) else { continue }
      var files: [String: [String]] = [:]
      var order: [String] = []
      for face in family.faces where face.file.hasPrefix(folder) {
        let key = "\(face.style)|\(face.weight)|\(face.slant)|\(face.width)"
        if files[key] == nil { order.append(key) }
        if !(files[key]?.contains(face.file) ?? false) { files[key, default: []].append(face.file) }
      }
      for key in order {
        guard let paths = files[key], paths.count > 1 else { continue }
        let style = String(key.split(separator: "|").first ?? "")
        let names = paths.map { "'\(Sanitize.terminal(($0 as NSString).lastPathComponent))'" }
          .sorted()
        console.report(
          .warning(
            "the font library now holds \(paths.count) versions of '\(Sanitize.terminal(name))' "
              + "\(Sanitize.terminal(style)): \(names.joined(separator: ", ")); fontconfig draws "
              + "only one of them",
            hint:
              "keep the one you want: delete the others from '\(Sanitize.terminal(library.directory))'"
          ))
      }
    }
  }

  /// A warning for each imported family that has the name of an installed one: runs use the
  /// imported fonts for it (`docs/custom-fonts.md`: custom fonts win, with a warning).
  static func warnAboutShadowing(_ families: [String], console: Console) {
    for installed in FontLibrary.installedFamilies(named: families) {
      console.warning(
        "family '\(installed)' is also installed on the system; fonti-batch will use the "
          + "imported fonts for it")
    }
  }
}

/// The `fonts` listing, as a table or JSON.
enum LibraryListing {
  struct Entry: Encodable {
    var family: String
    var files: [String]
  }

  static func json(_ families: [FontLibrary.Family]) throws -> String {
    let entries = families.map { Entry(family: $0.name, files: $0.files) }
    return String(decoding: try JSONEncoder(.pretty).encodeDocument(entries), as: UTF8.self)
  }

  /// One line per family: name, file count, the files' names (relative to the library).
  static func table(_ families: [FontLibrary.Family], library: FontLibrary) -> String {
    let names = families.map { Sanitize.terminal($0.name) }
    let width = min(40, names.map(\.count).max() ?? 0)
    let counts = families.map { $0.files.count == 1 ? "1 file " : "\($0.files.count) files" }
    let countWidth = counts.map(\.count).max() ?? 0
    var out = ""
    for (index, (name, family)) in zip(names, families).enumerated() {
      let padded =
        name.count >= width ? name : name + String(repeating: " ", count: width - name.count)
      let files = family.files.map { file -> String in
        let prefix = library.directory + "/"
        return Sanitize.terminal(
          file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file)
      }
      out +=
        "\(padded)  \(counts[index].leftPadded(to: countWidth))  "
        + "\(files.joined(separator: ", "))\n"
    }
    return out
  }
}
