import FontiEngine
import FontiFonts
import FontiSupport

/// `fonti-batch __complete NAMES [PREFIX]`: the family names the shell completions ask for
/// while a command line is typed, one a line on stdout, sorted as `families` lists them. Not
/// a command of the table: `--help`, the man page and the completions never list it.
///
/// It prints nothing on stderr and reads only (no lock, no cache of its own): a completion
/// must not disturb the line being typed, nor change anything.
enum CompletionWords {
  /// The hidden command's word.
  static let command = "__complete"

  /// Which names a command's FAMILY argument takes.
  enum Names: String, CaseIterable {
    /// Every family the tool sees: installed, and the imported library (`render`, `pairings`,
    /// `saved add`).
    case families
    /// The imported library's families (`fonts remove`).
    case library
    /// The families of the favourites manifest `saved` reads by default (`saved remove`).
    case saved
  }

  static func run(_ arguments: [String], console: Console) -> ExitCode {
    guard let first = arguments.first, let names = Names(rawValue: first), arguments.count <= 2
    else { return .usage }
    let prefix = arguments.count == 2 ? arguments[1].lowercased() : ""
    var seen = Set<String>()
    var out = ""
    for name in Self.names(names)
    where offerable(name) && name.lowercased().hasPrefix(prefix) && seen.insert(name).inserted {
      out += name + "\n"
    }
    console.out(out)
    return .success
  }

  /// The names, unfiltered; none when they cannot be read (the command itself says why).
  static func names(_ names: Names) -> [String] {
    switch names {
    case .families:
      guard let (environment, _) = try? FontEnvironment.load() else { return [] }
      return environment.catalog.families.map(\.name)
    case .library:
      return FontLibrary.standard.contents().families.map(\.name)
    case .saved:
      let path = FavouritesStore.defaultPath().path
      return (try? FavouritesStore(path: path).load().families) ?? []
    }
  }

  /// Whether a name can be handed to a shell as one word and typed back: no control
  /// character (a newline would make it two names; an escape would reach the terminal), no
  /// character `Sanitize.terminal` hides, and no leading `-` (it would be read as an option).
  /// Such a family is still named with `families` and a job's patterns.
  static func offerable(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix("-") && !name.contains("\t")
      && Sanitize.terminal(name) == name
  }
}
