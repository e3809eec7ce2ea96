/// A family as a worker process makes it again: name, whether it is a custom font, and every
/// face (file and face index: where fontconfig's pattern of it is found, `FontMaps`). The worker
/// has no font catalogue of its own: it never lists the installed fonts. Only the worker
/// protocol carries families this way; the parent side has the `FontFamily`.
public struct FamilyRef: FamilyCarrier, Codable {
  public var name: String
  public var custom: Bool
  /// The family's faces as the parent listed them; empty only in a family named for a
  /// fingerprint (`named`), never in an item.
  public var faces: [FontFace]

  public init(_ family: FontFamily) {
    name = family.name
    custom = family.isCustom
    faces = family.faces
  }

  public init(name: String, custom: Bool = false, faces: [FontFace] = []) {
    self.name = name
    self.custom = custom
    self.faces = faces
  }

  /// The family by name alone, without its faces: what a fingerprint records (the faces' files
  /// are in it through their stamps).
  package var named: FamilyRef { FamilyRef(name: name, custom: custom) }

  private enum CodingKeys: String, CodingKey { case name, custom, faces }

  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decode(String.self, forKey: .name)
    custom = try c.decode(Bool.self, forKey: .custom)
    faces = try c.decodeIfPresent([FontFace].self, forKey: .faces) ?? []
  }

  /// Faces are written only when there are some, so that a fingerprint made of names alone
  /// is the same as before families carried their faces.
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(name, forKey: .name)
    try c.encode(custom, forKey: .custom)
    if !faces.isEmpty { try c.encode(faces, forKey: .faces) }
  }
}
