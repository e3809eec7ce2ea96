import FontiModel
import FontiSupport
import Foundation

/// Every family the tool can see, enumerated once: the system's fonts and the custom ones
/// (the job's `fonts:` and the imported library). A Sendable snapshot, sorted by name.
public struct FontCatalog: Sendable {
  public private(set) var families: [FontFamily]
  /// Family names (lower-cased) that a custom font took over from an installed family.
  public private(set) var shadowed: Set<String>
  private var index: [String: Int]

  public init(families: [FontFamily], shadowed: Set<String> = []) {
    self.families = FontCatalog.sorted(families, by: \.name)
    self.shadowed = shadowed
    var index: [String: Int] = [:]
    for (i, f) in self.families.enumerated() where index[f.name.lowercased()] == nil {
      index[f.name.lowercased()] = i
    }
    self.index = index
  }

  /// `items` in the order of their names: case-insensitive, then by exact spelling, so the
  /// order never depends on the machine. Each name is lower-cased once, not in each of a
  /// sort's thousands of comparisons (3 % of an unchanged re-run went there).
  package static func sorted<T>(_ items: [T], by name: (T) -> String) -> [T] {
    items.map { item -> (lower: String, name: String, item: T) in
      let n = name(item)
      return (n.lowercased(), n, item)
    }
    .sorted { a, b in a.lower != b.lower ? a.lower < b.lower : a.name < b.name }
    .map(\.item)
  }

  /// The family with this name, compared case-insensitively; never a substitute.
  public func family(named name: String) -> FontFamily? {
    index[name.lowercased()].map { families[$0] }
  }

  /// Installed names close to `name`, for "did you mean …?".
  public func suggestions(for name: String, limit: Int = 3) -> [String] {
    var out = Suggest.closest(name, among: families.map(\.name), limit: limit)
    if out.isEmpty {
      // "Inter" for "Inter Display"; "DejaVu Sans" for "dejavu": a shared word prefix.
      let lower = name.lowercased()
      out = families.map(\.name).filter {
        let l = $0.lowercased()
        return l.hasPrefix(lower) || (lower.hasPrefix(l) && l.count >= 4)
      }.prefix(limit).map { $0 }
    }
    return out
  }
}

/// A family name pattern: an exact name or a case-insensitive glob (`*`, `?`, `[…]`).
public struct FamilyPattern: Sendable, Hashable {
  public var text: String

  public init(_ text: String) { self.text = text }

  public var isGlob: Bool { text.contains { "*?[".contains($0) } }

  public func matches(_ family: String) -> Bool {
    if !isGlob { return family.caseInsensitiveCompare(text) == .orderedSame }
    // FNM_CASEFOLD is a GNU extension Swift does not see; fold both sides instead.
    return fnmatch(text.lowercased(), family.lowercased(), 0) == 0
  }
}

extension FontCatalog {
  /// The outcome of `families.include` / `exclude` against the catalogue.
  public struct Selection: Sendable {
    public var families: [FontFamily]
    public var diagnostics: [Diagnostic]
  }

  /// Applies include and exclude patterns. Exact names that are not installed are errors with
  /// suggestions (fontconfig would silently substitute; this never does); globs that match
  /// nothing are warnings; families Pango cannot draw (Type 1, bitmap-only) are left out, each
  /// with a warning, never rendered in a substitute.
  public func select(
    include: [Located<String>], exclude: [Located<String>], file: String?
  ) -> Selection {
    var diagnostics: [Diagnostic] = []
    var chosen = Set<String>()
    for pattern in include {
      let p = FamilyPattern(pattern.value)
      if p.isGlob {
        let hits = families.filter { p.matches($0.name) }
        if hits.isEmpty {
          diagnostics.append(
            .warning(
              "family pattern '\(pattern.value)' matches no family", file: file,
              at: pattern.mark))
        }
        for f in hits {
          if f.isRenderable {
            chosen.insert(f.name)
          } else {
            diagnostics.append(unsupported(f, file: file, at: pattern.mark))
          }
        }
      } else if let f = family(named: pattern.value) {
        if f.isRenderable {
          chosen.insert(f.name)
        } else {
          diagnostics.append(unsupported(f, file: file, at: pattern.mark))
        }
      } else {
        diagnostics.append(notInstalled(pattern.value, file: file, at: pattern.mark))
      }
    }
    for pattern in exclude {
      let p = FamilyPattern(pattern.value)
      let hits = families.filter { p.matches($0.name) }
      if hits.isEmpty {
        diagnostics.append(
          .warning(
            p.isGlob
              ? "exclude pattern '\(pattern.value)' matches no family"
              : "excluded family '\(pattern.value)' is not installed", file: file,
            at: pattern.mark))
      }
      for f in hits { chosen.remove(f.name) }
    }
    return Selection(
      families: families.filter { chosen.contains($0.name) }, diagnostics: diagnostics)
  }

  /// "family 'Georgia' is not installed (did you mean …?)", located.
  public func notInstalled(_ name: String, file: String?, at mark: Mark?) -> Diagnostic {
    var close = suggestions(for: name)
    var hint = "'fonti-batch families' lists the installed families"
    // "Georgia" is no typo: name the open designs that stand in for it, where installed.
    if let standIn = PairingMap.standIn(for: name) {
      let installed = standIn.open.filter { family(named: $0) != nil }
      if !installed.isEmpty { close = Array((installed + close).prefix(3)) }
      hint =
        "\(standIn.family) is not an open font; open stand-ins: "
        + standIn.open.joined(separator: ", ")
    }
    var seen = Set<String>()
    close = close.filter { seen.insert($0.lowercased()).inserted }
    let tail =
      close.isEmpty ? "" : " (did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?)"
    return .error("family '\(name)' is not installed\(tail)", file: file, at: mark, hint: hint)
  }

  public func unsupported(_ family: FontFamily, file: String?, at mark: Mark?) -> Diagnostic {
    let formats = Set(family.faces.map(\.format)).sorted().joined(separator: ", ")
    return .warning(
      "family '\(family.name)' cannot be rendered: its fonts are \(formats), which Pango 1.44+ "
        + "no longer draws", file: file, at: mark)
  }
}
