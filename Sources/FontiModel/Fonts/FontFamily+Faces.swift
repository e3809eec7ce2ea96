/// A family's faces: the distinct weight, width and slope it has, each with the face that
/// answers for it. What catalogue pages list, `styles:` picks from, specimens and `serve` count,
/// and `manifest.json` and `families --json` record as `faces`.
///
/// Files that give one face twice (Inter's static OTFs beside `Inter.var.ttf`'s named
/// instances; fonts-liberation beside fonts-liberation2; EB Garamond's 08 cut beside its 12)
/// make one face, answered by the rule that answers everywhere else: the text cut of a family
/// installed in several optical sizes, then the file fontconfig prefers (`sharedSlots`, first
/// in `faces`). Inter lists 18 faces, not 36; Liberation Sans 4. A Type 1 file of a face the
/// family also has as OpenType, which fontconfig reads with another weight or width (URW's
/// base 35 fonts ship both), is that face again: C059 lists 4 faces, not 6.
extension FontFamily {
  /// Every distinct face, ordered by width, weight and slope (italics beside their romans), each
  /// the face that answers for it: a face Pango can draw when the family has one of that weight,
  /// width and slope, else the one it cannot (listed with `FamilyFace.problem`).
  public var distinctFaces: [FontFace] {
    struct Slot: Hashable {
      var weight, width, slant: Int
    }
    var chosen: [Slot: (face: FontFace, rank: (Int, Int, Int, Int))] = [:]
    for (order, face) in faces.enumerated() {
      let slot = Slot(weight: face.weight, width: face.width, slant: face.slant)
      // Drawable first; a listed face before one that exists only as coordinates; the text
      // cut; then `faces`' order, fontconfig's preference among files.
      let rank = (
        face.isRenderable ? 0 : 1, face.coordinates == nil ? 0 : 1,
        FontFamily.opticalDistance(face.style), order
      )
      if let held = chosen[slot], held.rank <= rank { continue }
      chosen[slot] = (face, rank)
    }
    // A face Pango cannot draw that a drawable one gives under the same name and slope is that
    // face in another format: URW's Type 1 C059 Roman is weight 100 where its OpenType Roman
    // is 80, and its Nimbus Sans Narrow width 100 where the OpenType one is 87.
    var held = Array(chosen)
    if held.contains(where: { !$0.value.face.isRenderable }) {
      let drawable = Set(
        held.map(\.value.face).filter(\.isRenderable).map {
          FaceName.key($0.style) + "/\($0.slant)"
        })
      held.removeAll {
        !$0.value.face.isRenderable
          && drawable.contains(FaceName.key($0.value.face.style) + "/\($0.value.face.slant)")
      }
    }
    return held.sorted { a, b in
      (a.key.width, a.key.weight, a.key.slant, a.value.rank.3)
        < (b.key.width, b.key.weight, b.key.slant, b.value.rank.3)
    }.map(\.value.face)
  }

  /// The family's faces as `manifest.json` and `families --json` list them.
  public var faceList: [FamilyFace] {
    let variable = Set(variableFiles.map(\.file))
    return distinctFaces.map { FamilyFace($0, variable: variable.contains($0.file)) }
  }

  /// The faces of `distinctFaces` whose name is `name`, compared as `FaceName.key` compares
  /// them ("SemiBold" is "Semi Bold"); empty when the family has none.
  public func faces(named name: String) -> [FontFace] {
    let key = FaceName.key(name)
    guard !key.isEmpty else { return [] }
    return distinctFaces.filter { FaceName.key($0.style) == key }
  }
}

/// How face names are compared: `styles:` names, `render --face` and `serve`'s face picker
/// match a face's name as fontconfig gives it, ignoring case, spaces, hyphens and underscores.
public enum FaceName {
  /// The name folded for comparison: "Semi-Bold Italic" and "SemiBold italic" are
  /// "semibolditalic".
  public static func key(_ name: String) -> String {
    String(
      name.lowercased().unicodeScalars.filter {
        !$0.properties.isWhitespace && $0 != "-" && $0 != "_"
      }.map(Character.init))
  }
}

/// One face of a family as the manifest lists it.
public struct FamilyFace: Codable, Sendable, Hashable {
  /// The face's name as fontconfig gives it ("Semi Bold Italic").
  public var name: String
  /// On the OpenType (CSS) scale: 100 thin … 400 regular … 700 bold … 900 black.
  public var weight: Int
  /// In percent of normal, as OpenType and CSS count it: 100 normal, 75 condensed.
  public var width: Int
  /// `roman`, `italic` or `oblique`.
  public var slope: String
  /// The file that answers for the face.
  public var file: String
  /// For a face of a variable file: its named instance's number in the font (fontconfig's
  /// count, from 1), or 0 for the font at its default coordinates. Absent for a static face.
  public var instance: Int?
  /// The coordinates a face that exists only as a position on a variable font's axes is drawn
  /// at (an italic on `slnt`); absent for every other face.
  public var coordinates: [String: Double]?
  /// Why the face cannot be drawn, when it cannot (a Type 1 or bitmap face Pango does not draw).
  public var problem: String?

  public init(
    name: String, weight: Int, width: Int, slope: String, file: String, instance: Int? = nil,
    coordinates: [String: Double]? = nil, problem: String? = nil
  ) {
    self.name = name
    self.weight = weight
    self.width = width
    self.slope = slope
    self.file = file
    self.instance = instance
    self.coordinates = coordinates
    self.problem = problem
  }

  /// The entry of `face`, a face of a variable file when `variable`.
  public init(_ face: FontFace, variable: Bool) {
    self.init(
      name: face.style, weight: FamilyFace.openTypeWeight(face.weight), width: face.width,
      slope: FamilyFace.slope(face.slant), file: face.file,
      instance: variable ? max(0, face.index >> 16) : nil, coordinates: face.coordinates,
      problem: FamilyFace.problem(face))
  }

  /// `roman`, `italic` or `oblique`, from fontconfig's slant.
  public static func slope(_ slant: Int) -> String {
    switch slant {
    case ..<50: return "roman"
    case ..<105: return "italic"
    default: return "oblique"
    }
  }

  /// Why Pango cannot draw `face`, or nil when it can.
  public static func problem(_ face: FontFace) -> String? {
    guard !face.isRenderable else { return nil }
    return "a \(face.format) face: Pango draws only OpenType and TrueType outlines"
  }

  /// fontconfig's weight on the OpenType scale, as fontconfig converts it
  /// (`FcWeightToOpenType`): linear between its named steps.
  public static func openTypeWeight(_ weight: Int) -> Int {
    let steps: [(fc: Double, ot: Double)] = [
      (0, 100), (40, 200), (50, 300), (55, 350), (75, 380), (80, 400), (100, 500), (180, 600),
      (200, 700), (205, 800), (210, 900), (215, 1000),
    ]
    let w = Double(weight)
    guard w > steps[0].fc else { return Int(steps[0].ot) }
    for (a, b) in zip(steps, steps.dropFirst()) where w <= b.fc {
      return Int((a.ot + (w - a.fc) / (b.fc - a.fc) * (b.ot - a.ot)).rounded())
    }
    return Int(steps[steps.count - 1].ot)
  }
}
