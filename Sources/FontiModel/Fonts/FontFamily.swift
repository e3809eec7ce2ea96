/// One face of a family, as fontconfig lists it: a real file (or a named instance of one).
public struct FontFace: Sendable, Hashable, Codable {
  /// The face's style name as the font calls it ("Book", "Bold Oblique").
  public var style: String
  /// fontconfig's weight scale: 80 regular, 180 semibold, 200 bold.
  public var weight: Int
  /// fontconfig's slant: 0 roman, 100 italic, 110 oblique.
  public var slant: Int
  /// fontconfig's width: 100 normal, 87 semi-condensed.
  public var width: Int
  public var file: String
  /// The face index inside the file (collections, named instances).
  public var index: Int
  /// `TrueType`, `CFF`, `Type 1`, `PCF`, …
  public var format: String
  public var isColor: Bool
  /// Coordinates a variable font is drawn at for this face, when the face exists only as a
  /// position on its axes (an italic that is `slnt` -10, with no named instance): nil for every
  /// face fontconfig lists.
  public var coordinates: [String: Double]?

  public init(
    style: String, weight: Int, slant: Int, width: Int = 100, file: String, index: Int = 0,
    format: String = "TrueType", isColor: Bool = false, coordinates: [String: Double]? = nil
  ) {
    self.style = style
    self.weight = weight
    self.slant = slant
    self.width = width
    self.file = file
    self.index = index
    self.format = format
    self.isColor = isColor
    self.coordinates = coordinates
  }

  /// A real italic or oblique face.
  public var isItalic: Bool { slant != 0 }
  /// Semibold or heavier. fontconfig's synthetic-bold rule only fires for faces at medium or
  /// lighter, so a face this heavy is what Pango really draws when bold is asked for.
  public var isBold: Bool { weight >= 180 }
  /// An OpenType or TrueType (sfnt) file, by fontconfig's `fontformat`: the only format with
  /// OpenType layout features, variation axes and a cmap that HarfBuzz reads. A Type 1, PCF or
  /// BDF face has none of these: not an error, just a format without them.
  public var isOpenType: Bool { format == "TrueType" || format == "CFF" }
  /// Pango 1.44+ shapes with HarfBuzz and draws only OpenType outlines (TrueType or CFF).
  public var isRenderable: Bool { isOpenType }
}

/// How a request carries a family: as the family itself (`FontFamily`, in the process that
/// draws it) or as a reference carrying its faces, from which a worker process makes the family
/// again (`FamilyRef`, across the process boundary). Requests (`SpecimenRequest`,
/// `PairingSheetRequest`, `CatalogueInput`) are generic over it, so each is one type.
public protocol FamilyCarrier: Sendable, Hashable {
  /// The family's name, as the font catalogue spells it.
  var name: String { get }
}

/// A font family with its real faces: what `families` lists and a run renders.
public struct FontFamily: FamilyCarrier {
  public var name: String
  /// Every face, regular first, then by weight, slant and width.
  public var faces: [FontFace]
  /// From the job's `fonts:` or the imported library, not installed on the system.
  public var isCustom: Bool
  /// Languages (fontconfig's `lang`) the regular face supports, sorted.
  public var languages: [String]
  /// The characters the regular face covers.
  public var coverage: CharacterCoverage
  /// fontconfig's `symbol` flag: a symbol-encoded (pictographic) font.
  public var isSymbol: Bool
  /// The family's files that are variable fonts (fontconfig lists them as `variable`), with
  /// their axes, in the order they answer (`setVariableFiles`).
  public var variableFiles: [VariableFile] = []

  public init(
    name: String, faces: [FontFace], isCustom: Bool = false, languages: [String] = [],
    coverage: CharacterCoverage = CharacterCoverage(), isSymbol: Bool = false
  ) {
    self.name = name
    self.faces = faces
    self.isCustom = isCustom
    self.languages = languages
    self.coverage = coverage
    self.isSymbol = isSymbol
  }

  /// A variable file of the family and its axes, in `fvar` order.
  public struct VariableFile: Sendable, Hashable {
    public var file: String
    public var axes: [FontProofs.Axis]

    package init(file: String, axes: [FontProofs.Axis]) {
      self.file = file
      self.axes = axes
    }
  }

  /// The files a family's answers come from (`drawnFrom`), as the manifest and `families
  /// --json` record them.
  public struct DrawnFrom: Sendable, Hashable, Codable {
    public var regular: String?
    public var variable: String?

    public init(regular: String?, variable: String?) {
      self.regular = regular
      self.variable = variable
    }
  }

  /// The faces Pango can draw.
  public var renderableFaces: [FontFace] { faces.filter(\.isRenderable) }
  /// The renderable faces that answer for their style: of faces of one style from several
  /// files, only the one fontconfig prefers (`sharedSlots`).
  var answeringFaces: [FontFace] {
    let shadowed = Set(FontFamily.sharedSlots(faces).flatMap { $0.dropFirst() })
    guard !shadowed.isEmpty else { return renderableFaces }
    return faces.indices.filter { !shadowed.contains($0) && faces[$0].isRenderable }.map {
      faces[$0]
    }
  }
  /// The faces a font map of the family holds: all but those another face of the same weight,
  /// width and slant shadows by an optical size nearer text size (EB Garamond's 08 cuts beside
  /// its 12 cuts). What Pango asks fontconfig for cannot tell such faces apart, and fontconfig
  /// would pick by its own order: the caption cut, for EB Garamond's regular.
  ///
  /// Of faces of one style from several files (see `sharedSlots`), only the one fontconfig
  /// prefers, which comes first in `faces`; faces that exist only as coordinates on a variable
  /// font's axes are drawn from a map of their own (`FontMaps.map(for:only:)`).
  public var drawnFaces: [FontFace] {
    let distances = faces.map { FontFamily.opticalDistance($0.style) }
    let shadowed = Set(FontFamily.sharedSlots(faces).flatMap { $0.dropFirst() })
    return faces.indices.filter { i in
      let face = faces[i]
      guard face.coordinates == nil, !shadowed.contains(i) else { return false }
      return !faces.indices.contains { j in
        faces[j].weight == face.weight && faces[j].width == face.width
          && faces[j].slant == face.slant && distances[j] < distances[i]
      }
    }.map { faces[$0] }
  }

  /// Groups of renderable faces (indices into `faces`, in its order) that share a weight,
  /// slant, width and optical size but come from different files: static and variable files
  /// of one design, or two versions of one font. Pango cannot ask for one rather than another;
  /// the first of each group answers for the style. Empty for nearly every family.
  package static func sharedSlots(_ faces: [FontFace]) -> [[Int]] {
    struct Slot: Hashable {
      var weight, slant, width, optical: Int
    }
    var groups: [Slot: [Int]] = [:]
    var order: [Slot] = []
    for (i, face) in faces.enumerated() where face.isRenderable && face.coordinates == nil {
      let slot = Slot(
        weight: face.weight, slant: face.slant, width: face.width,
        optical: opticalDistance(face.style))
      if groups[slot] == nil { order.append(slot) }
      groups[slot, default: []].append(i)
    }
    return order.compactMap { slot in
      guard let group = groups[slot], Set(group.map { faces[$0].file }).count > 1 else {
        return nil
      }
      return group
    }
  }
  /// The OpenType and TrueType faces: those whose features, axes and cmap HarfBuzz reads
  /// (the same faces Pango draws). A family installed as OpenType and again as Type 1 (URW's
  /// base 35 fonts are installed three times) is read from its OpenType copies only.
  public var openTypeFaces: [FontFace] { faces.filter(\.isOpenType) }
  /// False for families made only of Type 1 or bitmap fonts, which Pango 1.44+ cannot draw.
  public var isRenderable: Bool { faces.contains(where: \.isRenderable) }
  public var hasBold: Bool { renderableFaces.contains { $0.isBold && !$0.isItalic } }
  public var hasItalic: Bool { renderableFaces.contains { $0.isItalic && !$0.isBold } }
  public var hasBoldItalic: Bool { renderableFaces.contains { $0.isBold && $0.isItalic } }
  public var isColor: Bool { faces.contains(where: \.isColor) }
  /// Style names, in face order, without repeats.
  public var styles: [String] {
    var seen = Set<String>()
    return faces.map(\.style).filter { seen.insert($0).inserted }
  }
  /// Every file the family's faces come from, sorted.
  public var files: [String] { Array(Set(faces.map(\.file))).sorted() }

  /// The face Pango picks for a plain request: upright, closest to regular weight and width.
  public var regularFace: FontFace? {
    let renderable = answeringFaces
    let pool = renderable.isEmpty ? faces : renderable
    return pool.map { ($0, FontFamily.distanceFromRegular($0)) }.min { $0.1 < $1.1 }?.0
  }

  /// The real face closest to `weight`/`italic`, if one exists with exactly that boldness and
  /// slant class; never a stand-in (no synthetic bold or slant).
  public func face(bold: Bool, italic: Bool) -> FontFace? {
    let target = bold ? 200 : 80
    return answeringFaces.filter { $0.isBold == bold && $0.isItalic == italic }
      .map { f in
        (
          f,
          (
            abs(f.weight - target), abs(f.width - 100), f.slant,
            FontFamily.opticalDistance(f.style), f.style
          )
        )
      }
      .min { $0.1 < $1.1 }?.0
  }

  package static func distanceFromRegular(_ f: FontFace) -> (Int, Int, Int, Int, Int, String) {
    // Roman before italic; then weight nearest 80 (Book 75 counts as regular); then width;
    // then the text cut of a family drawn in several optical sizes.
    (
      f.slant == 0 ? 0 : 1, abs(f.weight - 80) <= 5 ? 0 : abs(f.weight - 80), abs(f.width - 100),
      opticalDistance(f.style), f.index, f.style
    )
  }

  /// Adobe's names of optical sizes, with the size each stands for.
  static let namedOpticalSizes: [String: Int] = [
    "micro": 6, "caption": 8, "smtext": 9, "subhead": 18, "subhd": 18, "display": 36,
    "disp": 36, "poster": 72,
  ]

  /// How far a face's optical size is from text size (12 pt), read from its style name, for
  /// families that install several optical sizes under one name: EB Garamond's "08 Regular"
  /// (a caption cut) is 4 from its "12 Regular", so the family's regular, italic and bold
  /// all come from its 12 pt cut, not the caption's. Adobe's named sizes count as their usual
  /// ranges (Caption 8, Small Text 9, Subhead 18, Display 36); a style that names no size is a
  /// text face (0).
  static func opticalDistance(_ style: String) -> Int {
    // Most names name no size ("Regular", "Bold Italic"): an ASCII name without a digit or a
    // size's word is a text face, told without lowercasing or splitting it (a catalogue page
    // ranks faces by their names dozens of times).
    let bytes = Array(style.utf8)
    if bytes.allSatisfy({ $0 < 0x80 && !(0x30...0x39).contains($0) }),
      !opticalWords.contains(where: { containsIgnoringASCIICase(bytes, $0) })
    {
      return 0
    }
    let words = style.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
    guard let first = words.first else { return 0 }
    if first.allSatisfy(\.isNumber), let size = Int(first.prefix(3)) { return abs(size - 12) }
    if first.hasSuffix("pt"), let size = Int(first.dropLast(2)) { return abs(size - 12) }
    for word in words {
      if let size = namedOpticalSizes[String(word)] { return abs(size - 12) }
      if word == "small", words.contains("text") { return abs(9 - 12) }
    }
    return 0
  }

  /// The words `opticalDistance` looks for beyond digits, as lowercase ASCII bytes.
  private static let opticalWords = (Array(namedOpticalSizes.keys).sorted() + ["small"]).map {
    Array($0.utf8)
  }

  /// Whether the ASCII `text` holds `word` (lowercase ASCII), ignoring case.
  private static func containsIgnoringASCIICase(_ text: [UInt8], _ word: [UInt8]) -> Bool {
    guard word.count <= text.count else { return false }
    return (0...(text.count - word.count)).contains { start in
      word.indices.allSatisfy { text[start + $0] | 0x20 == word[$0] }
    }
  }
}

/// Which Unicode scalars a face covers, copied out of fontconfig's charset so that it can cross
/// threads and processes. Stored as 256-character pages of bits, flat: a run's parent holds one
/// for every installed family (4,000 families: 30,000 pages), and a dictionary of small arrays
/// would take about 1.4 MiB more of its heap.
public struct CharacterCoverage: Sendable, Hashable {
  /// Words of 32 bits in a page.
  static let wordsPerPage = 8
  /// The numbers (scalar >> 8) of the pages with at least one character, ascending.
  package private(set) var pageNumbers: [UInt32]
  /// `wordsPerPage` words for each of `pageNumbers`, in the same order.
  private var words: [UInt32]

  public init() {
    pageNumbers = []
    words = []
  }

  /// From pages given in any order; pages without a character are left out, so that equal
  /// coverages compare equal.
  package init(pages: [UInt32: [UInt32]]) {
    self.init()
    for (number, page) in pages.sorted(by: { $0.key < $1.key }) { append(page: number, page[...]) }
  }

  /// Adds the characters of page `number`: its first `wordsPerPage` words, a short page padded
  /// with empty words (a page without a character changes nothing). Pages usually come in
  /// ascending order (fontconfig's charsets give them so) and are appended; any other is put
  /// in its place.
  package mutating func append(page number: UInt32, _ page: ArraySlice<UInt32>) {
    let page = page.prefix(Self.wordsPerPage)
    guard page.contains(where: { $0 != 0 }) else { return }
    let padding = repeatElement(UInt32(0), count: Self.wordsPerPage - page.count)
    let at = position(of: number)
    if at < pageNumbers.count, pageNumbers[at] == number {
      for (i, word) in zip((at * Self.wordsPerPage)..., page) { words[i] |= word }
      return
    }
    if at == pageNumbers.count {
      pageNumbers.append(number)
      words.append(contentsOf: page)
      words.append(contentsOf: padding)
    } else {
      pageNumbers.insert(number, at: at)
      words.insert(contentsOf: page + padding, at: at * Self.wordsPerPage)
    }
  }

  /// Room for `pages` pages in all, so that appending them allocates once and exactly: a run's
  /// parent keeps the coverage of every installed family, and arrays grown page by page would keep
  /// half as much again in unused room (about 1.2 MB of its heap at 4,000 families).
  package mutating func reserveCapacity(pages: Int) {
    pageNumbers.reserveCapacity(pages)
    words.reserveCapacity(pages * Self.wordsPerPage)
  }

  /// Where page `number` is, or would go, in `pageNumbers`.
  private func position(of number: UInt32) -> Int {
    if let last = pageNumbers.last, last < number { return pageNumbers.count }
    var low = 0
    var high = pageNumbers.count
    while low < high {
      let mid = (low + high) / 2
      if pageNumbers[mid] < number { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The words of page `number` (`wordsPerPage` of them), or nil when it covers nothing.
  package func page(_ number: UInt32) -> ArraySlice<UInt32>? {
    let at = position(of: number)
    guard at < pageNumbers.count, pageNumbers[at] == number else { return nil }
    return page(at: at)
  }

  /// The words of the `index`th page of `pageNumbers`.
  package func page(at index: Int) -> ArraySlice<UInt32> {
    words[index * Self.wordsPerPage..<(index + 1) * Self.wordsPerPage]
  }

  public func contains(_ scalar: Unicode.Scalar) -> Bool {
    guard let page = page(scalar.value >> 8) else { return false }
    let bit = scalar.value & 0xFF
    return page[page.startIndex + Int(bit >> 5)] & (1 << (bit & 31)) != 0
  }

  /// How many characters are covered.
  public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

  /// The scalars of `text` the face lacks, ignoring white space and controls (which no font
  /// needs to draw), each counted once.
  public func missing(in text: String) -> [Unicode.Scalar] {
    var seen = Set<Unicode.Scalar>()
    var out: [Unicode.Scalar] = []
    for s in text.unicodeScalars where !CharacterCoverage.needsNoGlyph(s) && !contains(s) {
      if seen.insert(s).inserted { out.append(s) }
    }
    return out
  }

  /// White space, controls and joiners: shaping handles them without a visible glyph.
  package static func needsNoGlyph(_ s: Unicode.Scalar) -> Bool {
    if s.properties.isWhitespace { return true }
    switch s.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0xFE0E,
      0xFE0F, 0xFEFF:
      return true
    default:
      return false
    }
  }
}

extension CharacterCoverage {
  /// The coverage of a list of scalars (a cmap as HarfBuzz reads it).
  package init(scalars: [UInt32]) {
    var pages: [UInt32: [UInt32]] = [:]
    for value in scalars {
      let bit = value & 0xFF
      pages[value >> 8, default: [UInt32](repeating: 0, count: 8)][Int(bit >> 5)] |= 1 << (bit & 31)
    }
    self.init(pages: pages)
  }
}
