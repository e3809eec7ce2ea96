import Foundation

/// The user's folders the XDG base directory rules name, read from the environment.
public enum UserFolders {
  /// Where the user's caches go: `$XDG_CACHE_HOME` when it is an absolute path, else
  /// `~/.cache` (the rule ignores a relative value).
  public static func cache(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.cache"
  }
}
