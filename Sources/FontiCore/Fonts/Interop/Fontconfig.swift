internal import CFontconfig
import Foundation

/// The only user of fontconfig: configurations (`FcConfig*`), the fonts they list, files read
/// without installing them (`FcFreeTypeQueryAll`), the orthographies of its languages, and
/// the patterns of fonts Pango loaded. Every `FcConfig*`, `FcPattern*`, `FcCharSet*` and
/// `FcLangSet*` lives and dies in this file; the rest of the tool gets Swift values, and
/// `FontconfigConfiguration` (a Swift class) when a Pango font map must be bound to one.

/// A fontconfig configuration; owns its `FcConfig*`.
///
/// Not Sendable: it owns a C object. Made once per process (or per test) by `FontEnvironment`.
final class FontconfigConfiguration {
  /// The `FcConfig*`. Only other interop files (Pango's font maps) may see it.
  let pointer: OpaquePointer
  /// The font files registered as application fonts (`init(customFonts:)`), in order.
  let registered: [String]

  private init(_ pointer: OpaquePointer, registered: [String] = []) {
    self.pointer = pointer
    self.registered = registered
  }

  deinit { FcConfigDestroy(pointer) }

  /// The standard configuration, which honours `FONTCONFIG_FILE` (calls
  /// `FcInitLoadConfigAndFonts`).
  static func standard() throws(Diagnostic) -> FontconfigConfiguration {
    guard let c = FcInitLoadConfigAndFonts() else {
      throw .error("fontconfig: cannot load the font configuration")
    }
    return FontconfigConfiguration(c)
  }

  /// The configuration of the file `path`, with its fonts (calls `FcConfigParseAndLoad` and
  /// `FcConfigBuildFonts`).
  static func file(_ path: String) throws(Diagnostic) -> FontconfigConfiguration {
    guard let c = FcConfigCreate() else { throw .error("fontconfig: out of memory") }
    guard FcConfigParseAndLoad(c, path, FcTrue) == FcTrue, FcConfigBuildFonts(c) == FcTrue else {
      FcConfigDestroy(c)
      throw .error("fontconfig: cannot load configuration '\(path)'")
    }
    return FontconfigConfiguration(c)
  }

  /// An empty configuration holding only `files` (already checked with `FontFiles.inspect`),
  /// registered as application fonts (calls `FcConfigAppFontAddFile`); a file fontconfig
  /// refuses is left out of `registered`.
  static func customFonts(_ files: [String]) throws(Diagnostic) -> FontconfigConfiguration {
    guard let c = FcConfigCreate() else { throw .error("fontconfig: out of memory") }
    let registered = files.filter { FcConfigAppFontAddFile(c, $0) == FcTrue }
    return FontconfigConfiguration(c, registered: registered)
  }

  /// Every face the configuration lists, grouped into families by their first family name
  /// (the name Pango uses), case-insensitively (fontconfig matches names that way too), with
  /// the regular face's languages, coverage and symbol flag (calls `FcFontList`).
  func families(custom: Bool) -> [FontFamily] {
    guard let pattern = FcPatternCreate() else { return [] }
    defer { FcPatternDestroy(pattern) }
    let objects = FcObjectSetCreate()
    defer { FcObjectSetDestroy(objects) }
    for name in [
      FC_FAMILY, FC_STYLE, FC_WEIGHT, FC_SLANT, FC_WIDTH, FC_FILE, FC_INDEX, FC_FONTFORMAT,
      FC_COLOR, FC_VARIABLE, FC_SYMBOL, FC_LANG, FC_CHARSET, FC_OUTLINE,
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
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i] else { continue }
      // A variable font is listed once as a whole (with weight ranges) and once per named
      // instance; the instances are the real faces.
      if FontconfigPattern.bool(font, FC_VARIABLE) == true { continue }
      guard let family = FontconfigPattern.string(font, FC_FAMILY), !family.isEmpty,
        let file = FontconfigPattern.string(font, FC_FILE)
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

    return byName.values.map { entry in
      var seen = Set<FontFace>()
      let faces = entry.faces.filter { seen.insert($0.0).inserted }
      let sorted = faces.sorted { a, b in
        (FontFamily.distanceFromRegular(a.0) < FontFamily.distanceFromRegular(b.0))
      }
      var family = FontFamily(name: entry.name, faces: sorted.map(\.0), isCustom: custom)
      if let regular = family.regularFace, let pattern = sorted.first(where: { $0.0 == regular })?.1
      {
        family.languages = FontconfigPattern.languages(pattern)
        family.coverage = FontconfigPattern.coverage(pattern)
        family.isSymbol = FontconfigPattern.bool(pattern, FC_SYMBOL) ?? false
      }
      return family
    }
  }
}

/// What fontconfig reads from font files, fonts Pango loaded, and its own tables, as Swift
/// values.
enum Fontconfig {
  /// One pattern FreeType read from a file: a face, a variable font as a whole, or one of its
  /// named instances (`index` carries the instance in its upper 16 bits).
  struct QueriedFace {
    var family: String?
    var style: String?
    var weight: Int?
    var slant: Int?
    var width: Int?
    var index: Int
    var isVariable: Bool
    /// fontconfig's orthographies the face covers, sorted; empty for named instances (never
    /// asked for).
    var languages: [String]
  }

  /// What `FcFreeTypeQueryAll` made of a file.
  struct Query {
    /// Patterns added (0: FreeType read nothing).
    var added: Int
    /// Faces the file says it holds.
    var faceCount: Int
    var faces: [QueriedFace]
  }

  /// Reads every face of `path` through FreeType without registering it (calls
  /// `FcFreeTypeQueryAll`); nil when fontconfig cannot even start (out of memory). With
  /// `details` false, only family names are read.
  static func query(file path: String, details: Bool) -> Query? {
    guard let set = FcFontSetCreate() else { return nil }
    defer { FcFontSetDestroy(set) }
    var count: Int32 = 0
    let added = FcFreeTypeQueryAll(path, UInt32.max, nil, &count, set)
    var faces: [QueriedFace] = []
    if added > 0 {
      for i in 0..<Int(set.pointee.nfont) {
        guard let p = set.pointee.fonts[i] else { continue }
        let index = FontconfigPattern.int(p, FC_INDEX) ?? 0
        guard details else {
          faces.append(
            QueriedFace(
              family: FontconfigPattern.string(p, FC_FAMILY), index: index, isVariable: false,
              languages: []))
          continue
        }
        faces.append(
          QueriedFace(
            family: FontconfigPattern.string(p, FC_FAMILY),
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
    guard let file = FontconfigPattern.string(pattern, FC_FILE) else { return nil }
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
  static func languageCodes() -> [String] {
    guard let set = FcGetLangs() else { return [] }
    defer { FcStrSetDestroy(set) }
    return FontconfigPattern.strings(set)
  }

  /// The characters the orthography of `code` requires, or nil for a code fontconfig does not
  /// know (calls `FcLangGetCharSet`; the charset is fontconfig's own static data, not freed).
  /// fontconfig computes a face's `lang` from exactly these sets.
  static func orthography(_ code: String) -> CharacterCoverage? {
    guard let charset = FcLangGetCharSet(code) else { return nil }
    return FontconfigPattern.coverage(charset: charset)
  }
}

/// Reading values out of an `FcPattern*` (and the sets it holds) into Swift. Internal for a
/// test that checks language coverage against fontconfig itself.
enum FontconfigPattern {
  static func string(_ p: OpaquePointer, _ object: String, at n: Int32 = 0) -> String? {
    var value: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(p, object, n, &value) == FcResultMatch, let value else { return nil }
    return String(cString: value)  // invalid UTF-8 in a font's names is repaired, not trusted
  }

  static func int(_ p: OpaquePointer, _ object: String) -> Int? {
    var value: Int32 = 0
    if FcPatternGetInteger(p, object, 0, &value) == FcResultMatch { return Int(value) }
    var d: Double = 0
    if FcPatternGetDouble(p, object, 0, &d) == FcResultMatch, d.isFinite { return Int(d) }
    return nil
  }

  static func bool(_ p: OpaquePointer, _ object: String) -> Bool? {
    var value: FcBool = 0
    guard FcPatternGetBool(p, object, 0, &value) == FcResultMatch else { return nil }
    return value != 0
  }

  static func languages(_ p: OpaquePointer) -> [String] {
    var langs: OpaquePointer?
    guard FcPatternGetLangSet(p, FC_LANG, 0, &langs) == FcResultMatch, let langs,
      let strings = FcLangSetGetLangs(langs)
    else { return [] }
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

  /// Copies an `FcCharSet` into Swift pages (FcCharSetFirstPage/NextPage).
  static func coverage(charset: OpaquePointer) -> CharacterCoverage {
    var pages: [UInt32: [UInt32]] = [:]
    var map = [FcChar32](repeating: 0, count: Int(FC_CHARSET_MAP_SIZE))
    var next: FcChar32 = 0
    var base = map.withUnsafeMutableBufferPointer {
      FcCharSetFirstPage(charset, $0.baseAddress, &next)
    }
    while base != FcChar32.max {  // FC_CHARSET_DONE is ((FcChar32) -1)
      if map.contains(where: { $0 != 0 }) { pages[base >> 8] = map }
      base = map.withUnsafeMutableBufferPointer {
        FcCharSetNextPage(charset, $0.baseAddress, &next)
      }
    }
    return CharacterCoverage(pages: pages)
  }
}
