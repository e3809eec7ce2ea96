/// The rule for a file in the way of one the tool writes: it is replaced only when a record of
/// the tool's own (`manifest.json`, `diff.json`) lists it as it is on disk. Anything else is
/// the user's, and the command stops before it writes, naming it. An empty file is a write that
/// never finished, not anybody's work.
package enum FilesNotOurs {
  /// The paths among `paths` that are the user's: a regular file, not empty, and not `ours`.
  package static func theirs(_ paths: [String], ours: (String) -> Bool) -> [String] {
    paths.filter { path in
      guard !ours(path), let state = FileStamp.state(path) else { return false }
      return state.size > 0
    }
  }

  /// The error that stops a command at `theirs` (not empty), whose own record is `record`.
  package static func refusal(_ theirs: [String], record: String) -> Diagnostic {
    let first = theirs.first ?? ""
    let rest = theirs.dropFirst()
    let more =
      rest.isEmpty
      ? ""
      : " (and \(rest.count) more: "
        + rest.prefix(4).map { "'\($0)'" }.joined(separator: ", ")
        + (rest.count > 4 ? ", …" : "") + ")"
    return .error(
      "'\(first)' is not a file this folder's \(record) records\(more): fonti-batch did not "
        + "write it, or it was changed since; nothing was drawn and nothing is replaced",
      hint: "move \(theirs.count == 1 ? "it" : "them") away and run again, or write elsewhere "
        + "with -o")
  }
}
