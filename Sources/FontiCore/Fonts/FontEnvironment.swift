import Foundation

internal import CFontconfig

/// fontconfig, set up once per process: the system configuration and, when there are custom
/// fonts, a second configuration holding only them, so that a custom family never mixes with
/// (or loses to) an installed family of the same name. The only user of fontconfig.
///
/// Not Sendable: it owns C configurations. Make one per process (or per test) and hand the
/// Sendable `catalog` to whoever needs it.
public final class FontEnvironment {
  /// `FcConfig*` for installed fonts.
  let systemConfig: OpaquePointer
  /// `FcConfig*` for custom fonts only, or nil when there are none.
  let customConfig: OpaquePointer?
  public let catalog: FontCatalog
  /// Custom font files that were registered, in order.
  public let customFiles: [String]

  /// Loads fontconfig's configuration (`configFile`, else the standard one, which honours
  /// `FONTCONFIG_FILE`) and registers `customFonts` (files already checked with
  /// `FontFiles.inspect`) as application fonts of a separate configuration.
  public init(configFile: String? = nil, customFonts: [String] = []) throws(Diagnostic) {
    let system: OpaquePointer
    if let configFile {
      guard let c = FcConfigCreate() else { throw .error("fontconfig: out of memory") }
      guard FcConfigParseAndLoad(c, configFile, FcTrue) == FcTrue, FcConfigBuildFonts(c) == FcTrue
      else {
        FcConfigDestroy(c)
        throw .error("fontconfig: cannot load configuration '\(configFile)'")
      }
      system = c
    } else {
      guard let c = FcInitLoadConfigAndFonts() else {
        throw .error("fontconfig: cannot load the font configuration")
      }
      system = c
    }
    var custom: OpaquePointer?
    var registered: [String] = []
    if !customFonts.isEmpty {
      guard let c = FcConfigCreate() else {
        FcConfigDestroy(system)
        throw .error("fontconfig: out of memory")
      }
      for file in customFonts where FcConfigAppFontAddFile(c, file) == FcTrue {
        registered.append(file)
      }
      custom = c
    }
    systemConfig = system
    customConfig = custom
    customFiles = registered

    let systemFamilies = FontEnvironment.families(in: system, custom: false)
    let customFamilies = custom.map { FontEnvironment.families(in: $0, custom: true) } ?? []
    let customNames = Set(customFamilies.map { $0.name.lowercased() })
    let systemNames = Set(systemFamilies.map { $0.name.lowercased() })
    catalog = FontCatalog(
      families: systemFamilies.filter { !customNames.contains($0.name.lowercased()) }
        + customFamilies,
      shadowed: customNames.intersection(systemNames))
  }

  deinit {
    FcConfigDestroy(systemConfig)
    if let customConfig { FcConfigDestroy(customConfig) }
  }

  /// The `FcConfig*` that holds `family`'s fonts.
  func config(for family: FontFamily) -> OpaquePointer {
    family.isCustom ? (customConfig ?? systemConfig) : systemConfig
  }

  /// Lists every face in a configuration and groups faces by their first family name, the
  /// name Pango uses.
  static func families(in config: OpaquePointer, custom: Bool) -> [FontFamily] {
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
    guard let set = FcFontList(config, pattern, objects) else { return [] }
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
      if bool(font, FC_VARIABLE) == true { continue }
      guard let family = string(font, FC_FAMILY), !family.isEmpty,
        let file = string(font, FC_FILE)
      else { continue }
      let face = FontFace(
        style: string(font, FC_STYLE) ?? "Regular",
        weight: int(font, FC_WEIGHT) ?? 80,
        slant: int(font, FC_SLANT) ?? 0,
        width: int(font, FC_WIDTH) ?? 100,
        file: file,
        index: int(font, FC_INDEX) ?? 0,
        format: string(font, FC_FONTFORMAT) ?? "unknown",
        isColor: bool(font, FC_COLOR) ?? false)
      // Group case-insensitively: fontconfig matches names that way too.
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
        family.languages = languages(pattern)
        family.coverage = coverage(pattern)
        family.isSymbol = bool(pattern, FC_SYMBOL) ?? false
      }
      return family
    }
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
    guard let list = FcStrListCreate(strings) else { return [] }
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
    var base = map.withUnsafeMutableBufferPointer { FcCharSetFirstPage(charset, $0.baseAddress, &next) }
    while base != FcChar32.max {  // FC_CHARSET_DONE is ((FcChar32) -1)
      if map.contains(where: { $0 != 0 }) { pages[base >> 8] = map }
      base = map.withUnsafeMutableBufferPointer { FcCharSetNextPage(charset, $0.baseAddress, &next) }
    }
    return CharacterCoverage(pages: pages)
  }
}
