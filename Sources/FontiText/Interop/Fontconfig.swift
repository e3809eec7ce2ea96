internal import CFontconfig
import FontiModel
import FontiSupport
import Foundation

/// The only user of fontconfig: configurations (`FcConfig*`), the fonts they list, files read
/// without installing them (`FcFreeTypeQueryAll`), the orthographies of its languages, and
/// the patterns of fonts Pango loaded. Every `FcConfig*`, `FcPattern*`, `FcCharSet*` and
/// `FcLangSet*` lives and dies in this file and `Fontconfig+FacePatterns.swift`; the rest of the tool gets Swift values, and
/// `FontconfigConfiguration` (a Swift class) when a Pango font map must be bound to one.

/// A fontconfig configuration; owns its `FcConfig*`.
///
/// Not Sendable: it owns a C object. Made once per process (or per test) by `FontEnvironment`.
package final class FontconfigConfiguration {
  /// The `FcConfig*`. Only other interop files (Pango's font maps) may see it.
  let pointer: OpaquePointer
  /// The font files registered as application fonts (`init(customFonts:)`), in order.
  package let registered: [String]

  /// Whether the fonts are let go of with this object (`holding`), whoever else still holds
  /// the configuration itself.
  private let releasesFonts: Bool

  private init(_ pointer: OpaquePointer, registered: [String] = [], releasesFonts: Bool = false) {
    self.pointer = pointer
    self.registered = registered
    self.releasesFonts = releasesFonts
  }

  /// Pango 1.50 takes a reference to a font map's configuration and keeps it after the map is
  /// gone, so a configuration made for one item outlives it. Its fonts (copies of the item's
  /// patterns, a few kB a face) go here, with the last font map that used it: only the empty
  /// configuration is left behind, not every family a worker or a catalogue ever drew.
  deinit {
    if releasesFonts { FcConfigAppFontClear(pointer) }
    FcConfigDestroy(pointer)
  }

  /// The process's current configuration, loaded on first use (calls `FcConfigReference` with
  /// no configuration, which runs `FcInit`; honours `FONTCONFIG_FILE`). Pango's font maps start
  /// `FcInit` on a thread of their own: asking for the current configuration first makes that
  /// call free instead of a second load of every font cache.
  package static func current() throws(Diagnostic) -> FontconfigConfiguration {
    guard let c = FcConfigReference(nil) else {
      throw .error("fontconfig: cannot load the font configuration")
    }
    return FontconfigConfiguration(c)
  }

  /// Loads the process's configuration again when a font folder or configuration file changed
  /// since it was loaded (`serve`, when fonts are installed or removed). Returns whether it did.
  package static func reloadCurrentIfChanged() -> Bool {
    guard FcConfigUptoDate(nil) == FcFalse else { return false }
    return FcInitReinitialize() == FcTrue
  }

  /// The configuration file `file`, else the process's (calls `FcInitLoadConfig`, which
  /// honours `FONTCONFIG_FILE`), parsed with no font loaded: its folders, cache folders and
  /// rules, to which `addFolder` adds only the folders asked for.
  static func rulesOnly(file: String? = nil) throws(Diagnostic) -> FontconfigConfiguration {
    guard let file else {
      guard let c = FcInitLoadConfig() else {
        throw .error("fontconfig: cannot load the font configuration")
      }
      return FontconfigConfiguration(c)
    }
    guard let c = FcConfigCreate() else { throw .error("fontconfig: out of memory") }
    guard FcConfigParseAndLoad(c, file, FcTrue) == FcTrue else {
      FcConfigDestroy(c)
      throw .error("fontconfig: cannot load configuration '\(file)'")
    }
    return FontconfigConfiguration(c)
  }

  /// `rulesOnly(file:)` with the fonts of all its folders (calls `FcConfigBuildFonts`), loaded
  /// afresh whatever the current configuration is.
  package static func loaded(file: String? = nil) throws(Diagnostic) -> FontconfigConfiguration {
    let configuration = try rulesOnly(file: file)
    guard FcConfigBuildFonts(configuration.pointer) == FcTrue else {
      throw .error(
        file.map { "fontconfig: cannot load configuration '\($0)'" }
          ?? "fontconfig: cannot load the font configuration")
    }
    return configuration
  }

  /// Makes an empty configuration the process's current one (calls `FcConfigSetCurrent`), so
  /// that Pango's start-up (`FcInit`, on a thread of its own) loads no font: a worker whose
  /// faces come from `FacePatterns(installedFolders:)` and maps bound to configurations of their
  /// own needs none. Call it before anything loads the current configuration (asking for it
  /// loads it). False when fontconfig refused.
  package static func makeEmptyCurrent() -> Bool {
    guard let c = FcConfigCreate() else { return false }
    defer { FcConfigDestroy(c) }  // the current configuration holds a reference of its own
    return FcConfigSetCurrent(c) == FcTrue
  }

  /// The folders of the configuration's installed fonts (each font file's folder), in the order
  /// fontconfig loaded them: the order in which it breaks ties between equally good faces.
  package func installedFolders() -> [String] {
    var seen = Set<String>()
    var out: [String] = []
    guard let set = FcConfigGetFonts(pointer, FcSetSystem) else { return [] }
    for i in 0..<Int(set.pointee.nfont) {
      guard let p = set.pointee.fonts[i], let file = FontconfigPattern.string(p, FC_FILE) else {
        continue
      }
      let folder = FacePatterns.folder(of: file)
      if seen.insert(folder).inserted { out.append(folder) }
    }
    return out
  }

  /// Adds the installed fonts of `folder` (and of its subfolders) as application fonts, from
  /// fontconfig's cache of the folder and with the configuration's rules for accepting fonts,
  /// as loading the whole configuration would (calls `FcConfigAppFontAddDir`); returns the
  /// patterns added, in fontconfig's order. Valid while the configuration lives.
  func addFolder(_ folder: String) -> [OpaquePointer]? {
    let before = FcConfigGetFonts(pointer, FcSetApplication).map { Int($0.pointee.nfont) } ?? 0
    guard FcConfigAppFontAddDir(pointer, folder) == FcTrue,
      let set = FcConfigGetFonts(pointer, FcSetApplication)
    else { return nil }
    return (before..<Int(set.pointee.nfont)).compactMap { set.pointee.fonts[$0] }
  }

  /// A folder that can never exist (a path below `/dev/null`: ENOTDIR). Adding it as an
  /// application font folder makes fontconfig create the configuration's empty application
  /// font set without scanning anything or writing a cache.
  static let noFolder = "/dev/null/fonti-none"

  /// A configuration holding copies of exactly `patterns` (fontconfig's own, from its caches or
  /// from `FacePatterns`' scans) as its application fonts, and no rules: nothing is scanned and
  /// nothing is matched against any other font (calls `FcConfigCreate`, `FcPatternDuplicate`,
  /// `FcFontSetAdd`). Should this fontconfig not create the empty set, `files` are registered
  /// instead (`FcConfigAppFontAddFile`: FreeType reads them again, slower, same faces).
  /// `boxDigits`: patterns added under the family name `monospace` only (see
  /// `FontEnvironment.boxDigitsFace`), so that Pango finds them for the digits of the boxes it
  /// draws for missing characters and no family request ever matches them.
  static func holding(
    _ patterns: [FacePatterns.Pattern], boxDigits: [FacePatterns.Pattern] = [], files: [String]
  ) throws(Diagnostic) -> FontconfigConfiguration {
    guard let c = FcConfigCreate() else { throw .error("fontconfig: out of memory") }
    _ = FcConfigAppFontAddDir(c, noFolder)
    guard let set = FcConfigGetFonts(c, FcSetApplication) else {
      let registered = files.filter {
        FcConfigAppFontAddFile(c, WebFont.loadablePathOrSame(for: $0)) == FcTrue
      }
      return FontconfigConfiguration(c, registered: registered)
    }
    // A bitmap face (colour emoji) is scaled to the size asked for by a rule of fontconfig's own
    // configuration; a bare one has no rules, so the items that hold such a face get that rule.
    if patterns.contains(where: { FontconfigPattern.bool($0.pointer, FC_OUTLINE) == false }),
      FcConfigParseAndLoadFromMemory(c, scaleBitmapFonts, FcTrue) != FcTrue
    {
      FcConfigDestroy(c)
      throw .error("fontconfig: cannot load the bitmap scaling rule")
    }
    for (pattern, renamed) in patterns.map({ ($0, false) }) + boxDigits.map({ ($0, true) }) {
      guard let copy = FcPatternDuplicate(pattern.pointer) else {
        FcConfigDestroy(c)
        throw .error("fontconfig: out of memory")
      }
      if renamed {
        FcPatternDel(copy, FC_FAMILY)
        FcPatternAddString(copy, FC_FAMILY, "monospace")
      }
      guard FcFontSetAdd(set, copy) == FcTrue else {
        FcPatternDestroy(copy)
        FcConfigDestroy(c)
        throw .error("fontconfig: out of memory")
      }
    }
    return FontconfigConfiguration(c, releasesFonts: true)
  }

  /// fontconfig's own rule that scales bitmap faces to the size asked for (its
  /// `conf.d/10-scale-bitmap-fonts.conf`, as fontconfig 2.14 ships it), the one rule of a
  /// system configuration a drawing needs: without it a colour emoji font's glyphs are drawn at
  /// the size of their bitmaps (136 px) whatever the size asked for.
  static let scaleBitmapFonts = """
    <?xml version="1.0"?>
    <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
    <fontconfig>
      <match target="font">
        <test name="outline" compare="eq"><bool>false</bool></test>
        <edit name="pixelsizefixupfactor" mode="assign">
          <divide>
            <name target="pattern">pixelsize</name>
            <name target="font">pixelsize</name>
          </divide>
        </edit>
      </match>
      <match target="font">
        <test name="outline" compare="eq"><bool>false</bool></test>
        <test name="scalable" compare="eq"><bool>false</bool></test>
        <test name="hinting" compare="eq"><bool>true</bool></test>
        <edit name="scalingnotneeded" mode="assign">
          <and>
            <less><name>pixelsizefixupfactor</name><double>1.2</double></less>
            <more><name>pixelsizefixupfactor</name><double>0.8</double></more>
          </and>
        </edit>
      </match>
      <match target="font">
        <test name="scalingnotneeded" compare="eq"><bool>true</bool></test>
        <edit name="pixelsizefixupfactor" mode="assign"><double>1.0</double></edit>
      </match>
      <match target="font">
        <test name="outline" compare="eq"><bool>false</bool></test>
        <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
        <edit name="matrix" mode="assign">
          <times>
            <name>matrix</name>
            <matrix>
              <name>pixelsizefixupfactor</name> <double>0</double>
              <double>0</double> <name>pixelsizefixupfactor</name>
            </matrix>
          </times>
        </edit>
        <edit name="size" mode="assign">
          <divide><name>size</name><name>pixelsizefixupfactor</name></divide>
        </edit>
      </match>
    </fontconfig>
    """

  /// The face fontconfig gives for `monospace` in English (calls `FcConfigSubstitute`,
  /// `FcDefaultSubstitute`, `FcFontMatch`): its first family name, file and face index.
  package func monospaceFace() -> (family: String, file: String, index: Int)? {
    guard let request = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(request) }
    FcPatternAddString(request, FC_FAMILY, "monospace")
    FcPatternAddString(request, FC_LANG, "en")
    FcConfigSubstitute(pointer, request, FcMatchPattern)
    FcDefaultSubstitute(request)
    var result = FcResultNoMatch
    guard let match = FcFontMatch(pointer, request, &result) else { return nil }
    defer { FcPatternDestroy(match) }
    guard let family = FontconfigPattern.familyName(match),
      let file = FontconfigPattern.file(match)
    else { return nil }
    return (family, file, FontconfigPattern.int(match, FC_INDEX) ?? 0)
  }

  /// Every pattern of the configuration's fonts as fontconfig prints them (`FcNameUnparse`), in
  /// order: a test hook.
  var patternTexts: [String] { patterns.map(FontconfigPattern.text) }

  /// Every pattern of the configuration's fonts (system and application sets), in order.
  /// The patterns belong to the configuration: valid while it lives.
  var patterns: [OpaquePointer] {
    var out: [OpaquePointer] = []
    for which in [FcSetSystem, FcSetApplication] {
      guard let set = FcConfigGetFonts(pointer, which) else { continue }
      for i in 0..<Int(set.pointee.nfont) {
        if let p = set.pointee.fonts[i] { out.append(p) }
      }
    }
    return out
  }

  /// An empty configuration holding only `files` (already checked with `FontFiles.inspect`),
  /// registered as application fonts (calls `FcConfigAppFontAddFile`; a web font's decoded
  /// copy, `WebFont`); a file fontconfig refuses is left out of `registered`.
  package static func customFonts(_ files: [String]) throws(Diagnostic) -> FontconfigConfiguration {
    guard let c = FcConfigCreate() else { throw .error("fontconfig: out of memory") }
    let registered = files.filter {
      FcConfigAppFontAddFile(c, WebFont.loadablePathOrSame(for: $0)) == FcTrue
    }
    return FontconfigConfiguration(c, registered: registered)
  }

  /// Every face the configuration lists, grouped into families by their first family name
  /// (the name Pango uses), case-insensitively (fontconfig matches names that way too), with
  /// the regular face's languages, coverage and symbol flag (calls `FcFontList`).
  package func families(custom: Bool) -> [FontFamily] {
    guard let pattern = FcPatternCreate() else { return [] }
    defer { FcPatternDestroy(pattern) }
    let objects = FcObjectSetCreate()
    defer { FcObjectSetDestroy(objects) }
    for name in [
      FC_FAMILY, FC_FAMILYLANG, FC_STYLE, FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_FILE, FC_INDEX,
      FC_FONTFORMAT, FC_COLOR, FC_VARIABLE, FC_SYMBOL, FC_LANG, FC_CHARSET, FC_OUTLINE,
    ] {
      FcObjectSetAdd(objects, name)
    }
    guard let set = FcFontList(pointer, pattern, objects) else { return [] }
    defer { FcFontSetDestroy(set) }

    struct Entry {
      var name: String
      var faces: [(FontFace, OpaquePointer)] = []
    }
    var byName: [String: Entry] = [:]
    var languageSets = LanguageSets()
    /// The files of each family (by lowercased name) that are variable fonts.
    var variableFiles: [String: Set<String>] = [:]
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i] else { continue }
      // A variable font is listed once as a whole (with weight ranges) and once per named
      // instance; the instances are the real faces.
      if FontconfigPattern.bool(font, FC_VARIABLE) == true {
        if let family = FontconfigPattern.familyName(font), !family.isEmpty,
          let file = FontconfigPattern.file(font)
        {
          variableFiles[family.lowercased(), default: []].insert(file)
        }
        continue
      }
      guard let family = FontconfigPattern.familyName(font), !family.isEmpty,
        let file = FontconfigPattern.file(font)
      else { continue }
      let face = FontFace(
        style: FontconfigPattern.string(font, FC_STYLE) ?? "Regular",
        weight: FontconfigPattern.int(font, FC_WEIGHT) ?? 80,
        slant: FontconfigPattern.int(font, FC_SLANT) ?? 0,
        width: FontconfigPattern.int(font, FC_WIDTH) ?? 100,
        file: file,
        index: FontconfigPattern.int(font, FC_INDEX) ?? 0,
        format: FontconfigPattern.string(font, FC_FONTFORMAT) ?? "unknown",
        isColor: FontconfigPattern.bool(font, FC_COLOR) ?? false)
      byName[family.lowercased(), default: Entry(name: family)].faces.append((face, font))
    }

    var fullPatterns: [FaceKey: (pattern: OpaquePointer, place: Int)]?
    return byName.values.map { entry in
      var seen = Set<FontFace>()
      // Each face's distance is worked out once, not twice in every comparison.
      var sorted = entry.faces.filter { seen.insert($0.0).inserted }
        .map { (face: $0.0, pattern: $0.1, distance: FontFamily.distanceFromRegular($0.0)) }
        .sorted { $0.distance < $1.distance }
        .map { ($0.face, $0.pattern) }
      // Faces of one style from several files (static and variable files of one design, two
      // versions of one font): fontconfig's own preference decides which answers.
      let faces = sorted.map(\.0)
      let slots = FontFamily.sharedSlots(faces)
      if !slots.isEmpty {
        if fullPatterns == nil { fullPatterns = patternsByFace() }
        let order = preference(
          among: slots, of: faces, family: entry.name, patterns: fullPatterns ?? [:])
        sorted = order.map { sorted[$0] }
      }
      var family = FontFamily(name: entry.name, faces: sorted.map(\.0), isCustom: custom)
      family.setVariableFiles(variableFiles[entry.name.lowercased()] ?? [])
      family.addAxisItalics()
      if let regular = family.regularFace, let pattern = sorted.first(where: { $0.0 == regular })?.1
      {
        family.languages = languageSets.languages(pattern)
        family.coverage = FontconfigPattern.coverage(pattern)
        family.isSymbol = FontconfigPattern.bool(pattern, FC_SYMBOL) ?? false
      }
      return family
    }
  }
}

extension FontconfigConfiguration {
  /// A face by file and full index (named instance bits included).
  fileprivate struct FaceKey: Hashable {
    var file: String
    var index: Int
  }

  /// Every font of the configuration as fontconfig holds it (every property, not only those
  /// `FcFontList` was asked for), by file and index.
  /// With each, its place in the configuration's order, which breaks fontconfig's ties.
  fileprivate func patternsByFace() -> [FaceKey: (pattern: OpaquePointer, place: Int)] {
    var out: [FaceKey: (pattern: OpaquePointer, place: Int)] = [:]
    for (place, p) in patterns.enumerated() where FontconfigPattern.bool(p, FC_VARIABLE) != true {
      guard let file = FontconfigPattern.file(p) else { continue }
      let key = FaceKey(file: file, index: FontconfigPattern.int(p, FC_INDEX) ?? 0)
      if out[key] == nil { out[key] = (p, place) }
    }
    return out
  }

  /// The order of `faces` (indices into it) with, inside each group of `slots` (faces of one
  /// weight, slant and width from several files), fontconfig's own preference for a request of
  /// that style: `FcFontSetSort` over just the group's fonts, after the configuration's and the
  /// default substitutions — so newer `fontversion` first, then fontconfig's usual order, as
  /// `fc-match` and every application on the machine get. Faces outside the groups keep their
  /// places; a group's members take its places in preference order.
  fileprivate func preference(
    among slots: [[Int]], of faces: [FontFace], family: String,
    patterns: [FaceKey: (pattern: OpaquePointer, place: Int)]
  ) -> [Int] {
    var order = Array(faces.indices)
    for slot in slots {
      // In the configuration's order: fontconfig keeps it among fonts it scores alike.
      let candidates = slot.compactMap { i -> (Int, OpaquePointer, Int)? in
        patterns[FaceKey(file: faces[i].file, index: faces[i].index)].map { (i, $0.0, $0.1) }
      }.sorted { $0.2 < $1.2 }.map { ($0.0, $0.1) }
      guard candidates.count == slot.count, let set = FcFontSetCreate(),
        let request = FcPatternCreate()
      else { continue }
      defer {
        FcFontSetDestroy(set)
        FcPatternDestroy(request)
      }
      for (_, p) in candidates {
        FcPatternReference(p)
        _ = FcFontSetAdd(set, p)
      }
      let face = faces[slot[0]]
      FcPatternAddString(request, FC_FAMILY, family)
      FcPatternAddInteger(request, FC_WEIGHT, Int32(face.weight))
      FcPatternAddInteger(request, FC_SLANT, Int32(face.slant))
      FcPatternAddInteger(request, FC_WIDTH, Int32(face.width))
      FcConfigSubstitute(pointer, request, FcMatchPattern)
      FcDefaultSubstitute(request)
      var sets: [UnsafeMutablePointer<FcFontSet>?] = [set]
      var result = FcResultNoMatch
      guard let ranked = FcFontSetSort(pointer, &sets, 1, request, FcFalse, nil, &result)
      else { continue }
      defer { FcFontSetDestroy(ranked) }
      var preferred: [Int] = []
      for k in 0..<Int(ranked.pointee.nfont) {
        guard let p = ranked.pointee.fonts[k] else { continue }
        if let i = candidates.first(where: { $0.1 == p })?.0, !preferred.contains(i) {
          preferred.append(i)
        }
      }
      // Anything fontconfig did not rank keeps its turn after those it did.
      preferred += slot.filter { !preferred.contains($0) }
      for (place, i) in zip(slot.sorted(), preferred) { order[place] = i }
    }
    return order
  }
}

/// What fontconfig reads from font files, fonts Pango loaded, and its own tables, as Swift
/// values.
package enum Fontconfig {
  /// One pattern FreeType read from a file: a face, a variable font as a whole, or one of its
  /// named instances (`index` carries the instance in its upper 16 bits).
  package struct QueriedFace {
    package var family: String?
    package var style: String?
    package var weight: Int?
    package var slant: Int?
    package var width: Int?
    package var index: Int
    package var isVariable: Bool
    /// fontconfig's orthographies the face covers, sorted; empty for named instances (never
    /// asked for).
    package var languages: [String]
  }

  /// What `FcFreeTypeQueryAll` made of a file.
  package struct Query {
    /// Patterns added (0: FreeType read nothing).
    package var added: Int
    /// Faces the file says it holds.
    package var faceCount: Int
    package var faces: [QueriedFace]
  }

  /// Reads every face of `path` through FreeType without registering it (calls
  /// `FcFreeTypeQueryAll`); nil when fontconfig cannot even start (out of memory). With
  /// `details` false, only family names are read.
  package static func query(file path: String, details: Bool) -> Query? {
    guard let set = FcFontSetCreate() else { return nil }
    defer { FcFontSetDestroy(set) }
    var count: Int32 = 0
    let added = FcFreeTypeQueryAll(
      WebFont.loadablePathOrSame(for: path), UInt32.max, nil, &count, set)
    var faces: [QueriedFace] = []
    if added > 0 {
      for i in 0..<Int(set.pointee.nfont) {
        guard let p = set.pointee.fonts[i] else { continue }
        let index = FontconfigPattern.int(p, FC_INDEX) ?? 0
        guard details else {
          faces.append(
            QueriedFace(
              family: FontconfigPattern.familyName(p), index: index, isVariable: false,
              languages: []))
          continue
        }
        faces.append(
          QueriedFace(
            family: FontconfigPattern.familyName(p),
            style: FontconfigPattern.string(p, FC_STYLE),
            weight: FontconfigPattern.int(p, FC_WEIGHT), slant: FontconfigPattern.int(p, FC_SLANT),
            width: FontconfigPattern.int(p, FC_WIDTH), index: index,
            isVariable: FontconfigPattern.bool(p, FC_VARIABLE) == true,
            languages: index >> 16 == 0 ? FontconfigPattern.languages(p) : []))
      }
    }
    return Query(added: Int(added), faceCount: Int(count), faces: faces)
  }

  /// The file and face index of a font Pango loaded, from its pattern (an `FcPattern*` that
  /// Pango owns; calls `FcPatternGetString` and `FcPatternGetInteger`).
  static func file(ofLoadedPattern pattern: OpaquePointer) -> (file: String, index: Int)? {
    guard let file = FontconfigPattern.file(pattern) else { return nil }
    return (file, FontconfigPattern.int(pattern, FC_INDEX) ?? 0)
  }

  /// fontconfig's weight (0–215: 80 regular, 200 bold) on the OpenType scale (100–1000) that
  /// Pango uses (calls `FcWeightToOpenTypeDouble`).
  static func openTypeWeight(_ weight: Int) -> Int {
    Int(FcWeightToOpenTypeDouble(Double(weight)).rounded())
  }

  /// Every language code fontconfig knows (about 250: ISO 639-1/-2/-3, some with a territory,
  /// `zh-tw`, `pa-pk`), sorted (calls `FcGetLangs`). Compiled into libfontconfig: no
  /// configuration is loaded, and the call is safe from any thread.
  package static func languageCodes() -> [String] {
    guard let set = FcGetLangs() else { return [] }
    defer { FcStrSetDestroy(set) }
    return FontconfigPattern.strings(set)
  }

  /// The characters the orthography of `code` requires, or nil for a code fontconfig does not
  /// know (calls `FcLangGetCharSet`; the charset is fontconfig's own static data, not freed).
  /// fontconfig computes a face's `lang` from exactly these sets.
  package static func orthography(_ code: String) -> CharacterCoverage? {
    guard let charset = FcLangGetCharSet(code) else { return nil }
    return FontconfigPattern.coverage(charset: charset)
  }
}

/// Reading values out of an `FcPattern*` (and the sets it holds) into Swift. Internal for a
/// test that checks language coverage against fontconfig itself.
enum FontconfigPattern {
  /// `p` as fontconfig prints it (`FcNameUnparse`): for tests.
  static func text(_ p: OpaquePointer) -> String {
    guard let c = FcNameUnparse(p) else { return "" }
    defer { free(c) }
    return String(cString: c)
  }

  /// The name every command gives the family of face `p`: its first English family name
  /// (`familylang` `en` or `en-…`), else its first; nil when it has none. One rule whatever the
  /// locale and whoever read the face: `FcFontList` puts first the name in the user's language,
  /// `FcFreeTypeQuery` the name table's first record in fontconfig's order, and a hostile table
  /// may put any language there (a typographic family name in Chinese only, before the English
  /// family name). Empty names are skipped.
  static func familyName(_ p: OpaquePointer) -> String? {
    var first: String?
    var n: Int32 = 0
    while let name = string(p, FC_FAMILY, at: n) {
      defer { n += 1 }
      guard !name.isEmpty else { continue }
      if let language = string(p, FC_FAMILYLANG, at: n),
        language == "en" || language.hasPrefix("en-")
      {
        return name
      }
      if first == nil { first = name }
    }
    return first
  }

  /// The font file of `p` as the user named it: a web font's decoded copy answers with the
  /// web font (`WebFont.userPath(of:)`).
  static func file(_ p: OpaquePointer) -> String? {
    string(p, FC_FILE).map(WebFont.userPath(of:))
  }

  static func string(_ p: OpaquePointer, _ object: String, at n: Int32 = 0) -> String? {
    var value: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(p, object, n, &value) == FcResultMatch, let value else { return nil }
    return String(cString: value)  // invalid UTF-8 in a font's names is repaired, not trusted
  }

  static func int(_ p: OpaquePointer, _ object: String) -> Int? {
    var value: Int32 = 0
    if FcPatternGetInteger(p, object, 0, &value) == FcResultMatch { return Int(value) }
    var d: Double = 0
    if FcPatternGetDouble(p, object, 0, &d) == FcResultMatch, abs(d) < 1e15 { return Int(d) }
    return nil
  }

  static func bool(_ p: OpaquePointer, _ object: String) -> Bool? {
    var value: FcBool = 0
    guard FcPatternGetBool(p, object, 0, &value) == FcResultMatch else { return nil }
    return value != 0
  }

  static func languages(_ p: OpaquePointer) -> [String] {
    guard let langs = languageSet(p) else { return [] }
    return languages(of: langs)
  }

  /// The pattern's `lang`, an `FcLangSet*` it owns.
  static func languageSet(_ p: OpaquePointer) -> OpaquePointer? {
    var langs: OpaquePointer?
    guard FcPatternGetLangSet(p, FC_LANG, 0, &langs) == FcResultMatch else { return nil }
    return langs
  }

  /// The codes of an `FcLangSet*`, sorted (calls `FcLangSetGetLangs`).
  static func languages(of langs: OpaquePointer) -> [String] {
    guard let strings = FcLangSetGetLangs(langs) else { return [] }
    defer { FcStrSetDestroy(strings) }
    return FontconfigPattern.strings(strings)
  }

  /// The strings of an `FcStrSet*`, sorted.
  static func strings(_ set: OpaquePointer) -> [String] {
    guard let list = FcStrListCreate(set) else { return [] }
    defer { FcStrListDone(list) }
    var out: [String] = []
    while let s = FcStrListNext(list) { out.append(String(cString: s)) }
    return out.sorted()
  }

  static func coverage(_ p: OpaquePointer) -> CharacterCoverage {
    var charset: OpaquePointer?
    guard FcPatternGetCharSet(p, FC_CHARSET, 0, &charset) == FcResultMatch, let charset else {
      return CharacterCoverage()
    }
    return coverage(charset: charset)
  }

  /// Copies an `FcCharSet` into Swift pages (FcCharSetFirstPage/NextPage): counted first, then
  /// copied into arrays of exactly that size.
  static func coverage(charset: OpaquePointer) -> CharacterCoverage {
    var map = [FcChar32](repeating: 0, count: Int(FC_CHARSET_MAP_SIZE))
    /// Calls `page` with each page's number and words, in ascending order.
    func eachPage(_ page: (UInt32, ArraySlice<FcChar32>) -> Void) {
      var next: FcChar32 = 0
      var base = map.withUnsafeMutableBufferPointer {
        FcCharSetFirstPage(charset, $0.baseAddress, &next)
      }
      while base != FcChar32.max {  // FC_CHARSET_DONE is ((FcChar32) -1)
        page(base >> 8, map[...])
        base = map.withUnsafeMutableBufferPointer {
          FcCharSetNextPage(charset, $0.baseAddress, &next)
        }
      }
    }
    var pages = 0
    eachPage { _, words in pages += words.contains { $0 != 0 } ? 1 : 0 }
    var coverage = CharacterCoverage()
    coverage.reserveCapacity(pages: pages)
    eachPage { number, words in coverage.append(page: number, words) }
    return coverage
  }
}

/// The languages of the patterns of one listing, each distinct language set turned into codes
/// once and its codes shared by every family with an equal set. Turning a set into codes
/// (`FcLangSetGetLangs`, which builds a string set by adding one code at a time, then sorted
/// Swift strings) costs about a sixth of a run's set-up with 4,000 families installed, and
/// installed fonts share few sets: 52 among the 247 regular faces of this project's machine,
/// one of them 133 times. The sets are the patterns': valid as long as the listing's font set.
struct LanguageSets {
  private var seen: [FcChar32: [(set: OpaquePointer, codes: [String])]] = [:]

  /// The language codes of `pattern`'s `lang`, sorted; none when it has none.
  mutating func languages(_ pattern: OpaquePointer) -> [String] {
    guard let langs = FontconfigPattern.languageSet(pattern) else { return [] }
    let hash = FcLangSetHash(langs)
    if let known = seen[hash]?.first(where: { FcLangSetEqual($0.set, langs) != 0 }) {
      return known.codes
    }
    let codes = FontconfigPattern.languages(of: langs)
    seen[hash, default: []].append((langs, codes))
    return codes
  }
}
