import FontiEngine
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

/// `saved [list]`, `saved add`, `saved remove`, `saved clear`: the favourites manifest.
extension Commands {
  static let manifestOption = OptionSpec.value(
    "--manifest", as: "FILE",
    help: "favourites manifest (default: the job's, else output/favourites.json)")

  static let saved = CommandSpec(
    words: ["saved"], arguments: "[list]", summary: "saved favourites, most recent first",
    details: """
      One line per saved family: name, when it was first saved (UTC), custom or system. With
      --json, the manifest itself ({"version": 1, "saved": [...]}), most recent first.
      Subcommands: list (the default), add, remove, clear. 'favorites' is an alias of 'saved'.
      Every saved command reads --manifest FILE, by default the favourites manifest of
      ./specimens.yaml's output folder (only its 'output' and 'favourites.manifest' are read),
      else output/favourites.json. A change waits while another process holds the manifest's
      lock, and says so; Ctrl-C ends the wait with nothing changed.
      """,
    maxPositionals: nil,
    options: [manifestOption, .flag("--json", help: "the manifest as JSON, for scripts")],
    run: { invocation, console in
      try invocation.checkListWord(subcommands: ["add", "remove", "clear"])
      let path = manifestPath(invocation, console)
      let store = FavouritesStore(path: path)
      let manifest = try store.load()
      if invocation.has("--json") {
        console.out(String(decoding: manifest.encoded(), as: UTF8.self))
        return .success
      }
      // Which manifest was read, on stderr: the default depends on the folder it is run in.
      let shown = Sanitize.terminal(path)
      if manifest.isEmpty {
        console.err(
          "No saved fonts yet. Heart a font to keep it here: fonti-batch saved add FAMILY\n"
            + "(favourites manifest: '\(shown)')\n")
        return .success
      }
      console.out(SavedListing.table(manifest, header: console.stdoutIsTerminal))
      let count = manifest.saved.count
      console.err(
        "(favourites manifest: '\(shown)', \(count) saved famil\(count == 1 ? "y" : "ies"))\n")
      return .success
    })

  static let savedAdd = CommandSpec(
    words: ["saved", "add"], arguments: "FAMILY...",
    summary: "heart families (idempotent; keeps the first savedAt)",
    details: """
      Each FAMILY must be installed or a custom font (the imported library, or --fonts); names
      are matched case-insensitively and saved with the family's own spelling. If any name is
      unknown, nothing is saved (exit 2). Saving a family again changes nothing. savedAt is the
      current time, or SOURCE_DATE_EPOCH when set.
      """,
    minPositionals: 1, maxPositionals: nil,
    options: [
      manifestOption,
      .value(
        "--fonts", as: "PATH", help: "custom font files or folders to include", repeatable: true),
    ],
    run: { invocation, console in
      console.warnAboutSourceDateEpoch()
      let store = try changingStore(invocation, console)
      _ = try store.load()  // a damaged manifest is reported before fonts are even looked at
      let (environment, warnings) = try FontEnvironment.load(
        fonts: invocation.all("--fonts").map { Located(JobPath.absolute($0)) })
      console.report(warnings)
      let catalog = environment.catalog
      var families: [FontFamily] = []
      var errors: [Diagnostic] = []
      for name in invocation.positionals {
        if let family = catalog.family(named: name) {
          families.append(family)
        } else {
          errors.append(catalog.notInstalled(name, file: nil, at: nil))
        }
      }
      if !errors.isEmpty { throw DiagnosticError(errors) }
      let result = try store.add(families: families, now: Timestamp.now())
      for entry in result.added {
        console.line("Saved \(Sanitize.terminal(entry.family)).")
      }
      for entry in result.alreadySaved {
        console.line(
          "\(Sanitize.terminal(entry.family)) is already saved "
            + "(since \(Timestamp.format(entry.savedAt))).")
      }
      return .success
    })

  static let savedRemove = CommandSpec(
    words: ["saved", "remove"], arguments: "FAMILY...", summary: "un-heart families",
    details: """
      Names are matched case-insensitively. The family need not be installed any more. A name
      that is not saved is a warning (with close saved names), not an error: it is not saved
      afterwards either, so the exit code is 0.
      """,
    minPositionals: 1, maxPositionals: nil,
    options: [manifestOption],
    run: { invocation, console in
      let store = try changingStore(invocation, console)
      let before = try store.load()
      let removed = try store.remove(invocation.positionals)
      let removedKeys = Set(removed.map { $0.family.lowercased() })
      for entry in removed {
        console.line("Removed \(Sanitize.terminal(entry.family)).")
      }
      var warned = Set<String>()
      for name in invocation.positionals
      where !removedKeys.contains(name.lowercased()) && warned.insert(name.lowercased()).inserted {
        let close = Suggest.closest(name, among: before.families)
        let tail =
          close.isEmpty ? "" : " (did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?)"
        console.warning("family '\(name)' is not saved\(tail)")
      }
      return .success
    })

  static let savedClear = CommandSpec(
    words: ["saved", "clear"], arguments: "", summary: "remove every saved font (asks first)",
    details: """
      On a terminal, asks for confirmation. Without a terminal, --yes is required: otherwise it
      refuses (exit 2) and changes nothing. The manifest stays, with an empty list.
      """,
    options: [manifestOption, .flag("-y", "--yes", help: "do not ask for confirmation")],
    run: { invocation, console in
      // Signals are handled only after the question: Ctrl-C at the prompt ends it at once.
      let store = try changingStore(invocation, console, handleSignals: false)
      let path = store.path
      let count = try store.load().saved.count
      if !invocation.has("--yes") {
        guard console.stdinIsTerminal else {
          throw Diagnostic.error(
            "refusing to remove \(SavedListing.count(count)) without confirmation: "
              + "standard input is not a terminal",
            hint: "pass --yes to clear without asking")
        }
        if count == 0 {
          console.line("No saved fonts to remove.")
          return .success
        }
        console.err(
          "Remove all \(SavedListing.count(count)) from \(Sanitize.terminal(path))? [y/N] ")
        let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
          console.line("Nothing removed.")
          return .success
        }
      }
      Signals.install()
      let removed = try store.clear()
      console.line(
        removed == 0 ? "No saved fonts to remove." : "Removed \(SavedListing.count(removed)).")
      return .success
    })

  /// The store for a command that changes the manifest. While another process holds its lock,
  /// the command says so after a second, and Ctrl-C (or SIGTERM) ends the wait at once with
  /// 130 (143) and nothing changed.
  static func changingStore(
    _ invocation: Invocation, _ console: Console, handleSignals: Bool = true
  ) throws -> FavouritesStore {
    if handleSignals { Signals.install() }
    return FavouritesStore(
      path: manifestPath(invocation, console), waiting: Signals.lockWaiting(console))
  }

  /// `--manifest`, else the favourites manifest of ./specimens.yaml (see
  /// `FavouritesStore.defaultPath`), with a warning when that job cannot tell it.
  static func manifestPath(_ invocation: Invocation, _ console: Console) -> String {
    if let path = invocation.value("--manifest") { return path }
    let (path, warning) = FavouritesStore.defaultPath()
    if let warning { console.report(warning) }
    return path
  }
}

/// The `saved` listing on a terminal or in a pipe.
enum SavedListing {
  /// "1 saved font", "3 saved fonts".
  static func count(_ n: Int) -> String {
    n == 1 ? "1 saved font" : "\(n) saved fonts"
  }

  /// One line per family: name, savedAt, custom or system; a header on a terminal.
  static func table(_ manifest: FavouritesManifest, header: Bool) -> String {
    let names = manifest.saved.map { Sanitize.terminal($0.family) }
    let width = min(40, max(header ? 6 : 0, names.map(\.count).max() ?? 0))
    func pad(_ s: String) -> String {
      s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
    var out = header ? "\(pad("FAMILY"))  SAVED (UTC)           KIND\n" : ""
    for (name, entry) in zip(names, manifest.saved) {
      out +=
        "\(pad(name))  \(Timestamp.format(entry.savedAt))  "
        + "\(entry.custom ? "custom" : "system")\n"
    }
    return out
  }
}
