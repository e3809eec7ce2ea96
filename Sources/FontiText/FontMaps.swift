import FontiModel
import FontiSupport

/// Where drawing code gets its font maps: Render, Catalogue and Diff ask for "a font map for
/// these families" and receive a `FontMap`, never a fontconfig configuration or a C pointer.
/// The one place that decides which fonts a map can reach and how long it lives.
///
/// Each map is bound to a fontconfig configuration of its own holding exactly the faces of the
/// families asked for — a specimen's family, its partners and the label face; a pairing
/// sheet's two families and the label face; a catalogue page's family — made from the patterns
/// fontconfig already has (`FacePatterns`: its caches for installed fonts, one FreeType read
/// per custom file), with no rescan and no rules. So Pango never matches or sorts against the
/// other installed fonts (a family costs the same with 250 or 10,000 fonts installed), and no
/// other font's glyph can reach a drawing: there is none in its map. The map lives as long as
/// its owner holds it: Pango frees every font it loaded with it.
///
/// Not Sendable: font maps belong to the thread (and process) that draws. Each renderer or
/// writer keeps its own `FontMaps`.
package final class FontMaps {
  let patterns: FacePatterns
  /// The configurations made last (each with its map and its families, once asked for), the
  /// most recent first, reused while the same families are asked for again: a worker
  /// enumerates an item's families and then draws them.
  private var recent = RecentlyUsed<Set<FamilyKey>, Kept>(capacity: 1)
  private var emptyStorage: FontMap?

  /// How many configurations are kept: one for a run, whose workers draw each family once;
  /// more for `serve`, whose cards draw the same screenful of families at every keystroke,
  /// and each map made again loads its fonts again.
  package var kept: Int {
    get { recent.capacity }
    set { recent.capacity = newValue }
  }

  /// A configuration kept, its map and its families by lowercased name once made.
  private final class Kept {
    let configuration: FontconfigConfiguration
    var map: FontMap?
    var families: [String: FontFamily]?

    init(_ configuration: FontconfigConfiguration) { self.configuration = configuration }
  }

  /// A family as a configuration's contents: which faces, from which source.
  private struct FamilyKey: Hashable {
    var name: String
    var custom: Bool
    var faces: Set<FontFace>

    init(_ name: String, custom: Bool, faces: [FontFace]) {
      self.name = name.lowercased()
      self.custom = custom
      self.faces = Set(faces)
    }
  }

  /// A family to find the patterns of: its name, whether it is custom, its faces.
  struct Wanted {
    var name: String
    var custom: Bool
    var faces: [FontFace]
  }

  /// The face of the digits in missing characters' boxes (`FontEnvironment.boxDigitsFace`),
  /// added to every configuration under the name `monospace` only; nil: none.
  private let boxDigits: Wanted?
  private lazy var boxDigitsPatterns: [FacePatterns.Pattern] =
    boxDigits.flatMap { try? patterns(of: $0) } ?? []

  package init(patterns: FacePatterns, boxDigits: FamilyRef? = nil) {
    self.patterns = patterns
    self.boxDigits = boxDigits.map { Wanted(name: $0.name, custom: $0.custom, faces: $0.faces) }
  }

  /// A map that holds exactly the faces of `families` (see the type's summary). Asking again
  /// for the same families returns the same map until other families are asked for.
  package func map(for families: [FontFamily]) throws(RenderError) -> FontMap {
    let wanted = families.map {
      Wanted(name: $0.name, custom: $0.isCustom, faces: $0.drawnFaces)
    }
    let kept = try configuration(for: wanted)
    if let map = kept.map { return map }
    let map = FontMap(configuration: kept.configuration)
    kept.map = map
    return map
  }

  /// A map that holds only `face` of `family`: what text set in one named face draws with.
  /// fontconfig matches a family's faces by weight and slant only after its languages, so a
  /// real but incomplete face (EB Garamond's "12 Bold" covers 22 languages, English not among
  /// them) loses to a regular face of the family that covers more; with nothing else in the map,
  /// the face named is the face drawn. Does not replace the map `map(for:)` keeps.
  package func map(for family: FontFamily, only face: FontFace) throws(RenderError) -> FontMap {
    let wanted = Wanted(name: family.name, custom: family.isCustom, faces: [face])
    return FontMap(configuration: try configuration(for: [wanted], remember: false).configuration)
  }

  /// A map with no font at all: what draws when a family's faces cannot be had (every text in
  /// it is boxes; `TextContext.loadedFile` finds nothing).
  package func emptyMap() -> FontMap {
    if let emptyStorage { return emptyStorage }
    guard
      let configuration = try? FontconfigConfiguration.holding(
        [], boxDigits: boxDigitsPatterns, files: [])
    else {
      preconditionFailure("fontconfig: out of memory")
    }
    let map = FontMap(configuration: configuration)
    emptyStorage = map
    return map
  }

  /// The families `refs` name, made from their faces' patterns as the enumeration makes them
  /// (languages, coverage, symbol flag), for a process that has no font catalogue (a worker).
  /// A family whose faces cannot be had (a file removed since the parent listed the fonts, a
  /// custom font FreeType cannot read) is left out and named in `problems` with the reason.
  package func families(for refs: [FamilyRef]) -> (
    found: [FamilyRef: FontFamily], problems: [FamilyRef: String]
  ) {
    // Families made before from the same faces (`serve`'s workers keep several): each one was
    // found then.
    if kept > 1,
      let byName = recent.value(
        for: Set(refs.map { FamilyKey($0.name, custom: $0.custom, faces: $0.faces) }))?.families,
      refs.allSatisfy({ !$0.faces.isEmpty && byName[$0.name.lowercased()] != nil })
    {
      var families: [FamilyRef: FontFamily] = [:]
      for ref in refs {
        var family = byName[ref.name.lowercased()]
        family?.isCustom = ref.custom
        families[ref] = family
      }
      return (families, [:])
    }
    var problems: [FamilyRef: String] = [:]
    var usable: [FamilyRef] = []
    for ref in Set(refs).sorted(by: { ($0.name, $0.custom ? 1 : 0) < ($1.name, $1.custom ? 1 : 0) })
    {
      do {
        _ = try patterns(of: Wanted(name: ref.name, custom: ref.custom, faces: ref.faces))
        usable.append(ref)
      } catch {
        problems[ref] = error.message
      }
    }
    let wanted = usable.map { Wanted(name: $0.name, custom: $0.custom, faces: $0.faces) }
    guard !wanted.isEmpty, let made = try? configuration(for: wanted) else {
      for ref in usable {
        problems[ref] = "fontconfig could not hold the fonts of family '\(ref.name)'"
      }
      return ([:], problems)
    }
    let byName =
      made.families
      ?? made.configuration.families(custom: false).reduce(into: [:]) { byName, family in
        if family.name != "monospace" { byName[family.name.lowercased()] = family }
      }
    made.families = byName
    var found: [FamilyRef: FontFamily] = [:]
    for ref in usable {
      guard !ref.faces.isEmpty else {
        problems[ref] = "family '\(ref.name)' came with no face to draw"
        continue
      }
      guard var family = byName[ref.name.lowercased()] else {
        problems[ref] = "no face of family '\(ref.name)' could be read"
        continue
      }
      family.isCustom = ref.custom
      found[ref] = family
    }
    return (found, problems)
  }

  /// Every pattern of `family`'s faces.
  private func patterns(of family: Wanted) throws(RenderError) -> [FacePatterns.Pattern] {
    var out: [FacePatterns.Pattern] = []
    for face in family.faces {
      do {
        out += try patterns.patterns(of: face, family: family.name, custom: family.custom)
      } catch {
        throw RenderError(error.description)
      }
    }
    return out
  }

  /// The configuration holding exactly `families`' faces, with what was made of it: a kept
  /// one when it holds the same; a new one is kept unless `remember` is false.
  private func configuration(for families: [Wanted], remember: Bool = true) throws(RenderError)
    -> Kept
  {
    let key = Set(
      families.map {
        FamilyKey($0.name, custom: $0.custom, faces: $0.faces)
      }
    )
    if let found = recent.value(for: key) { return found }
    func found() throws(RenderError) -> [FacePatterns.Pattern] {
      var all: [FacePatterns.Pattern] = []
      for family in families { all += try patterns(of: family) }
      return all
    }
    // Patterns found before and after `FacePatterns` loaded every installed font (a face not
    // where the parent saw it) are not in one order: then they are all found again.
    let generation = patterns.generation
    var all = try found()
    if patterns.generation != generation { all = try found() }
    let files = families.flatMap { $0.faces.map(\.file) }
    // In the order of the installed fonts: fontconfig breaks ties between equally good faces
    // (a static and a variable font of one family) by it.
    all.sort { $0.order < $1.order }
    let configuration: FontconfigConfiguration
    do {
      configuration = try FontconfigConfiguration.holding(
        all, boxDigits: boxDigitsPatterns, files: files)
    } catch {
      throw RenderError(error.message)
    }
    let made = Kept(configuration)
    if remember { recent.insert(made, for: key) }
    return made
  }
}
