/// Which face answers for a family when it is drawn at coordinates on its axes.
///
/// A family may be installed as static and variable files of one design (Inter's OTFs beside
/// `Inter.var.ttf`). Without coordinates the face fontconfig prefers answers (`drawnFaces`,
/// `regularFace`); where coordinates are asked for, or an axis is proofed, only the variable
/// files can answer: a static face drawn at `wght=900` would look exactly like its regular.
extension FontFamily {
  /// The variable file axes and named instances are read from (and the instance grid drawn
  /// from): the one with the most axes; nil for a family with no variable file.
  public var axesFile: String? { variableFiles.first?.file }

  /// The face whose axes and instances describe the family: the regular face of `axesFile`
  /// when the family has a variable file, else its regular face.
  public var axesFace: FontFace? {
    guard let file = axesFile else { return regularFace }
    return variableCut(files: [file])?.regularFace ?? regularFace
  }

  /// The family as drawn at coordinates on `axes`: only the faces of its variable files that
  /// have every one of those axes the family's variable files have at all (an axis none has is
  /// ignored, as everywhere); nil when no variable file has them.
  public func variableCut(axes: [String]) -> FontFamily? {
    guard !variableFiles.isEmpty else { return nil }
    let known = Set(variableFiles.flatMap { $0.axes.map(\.tag) })
    let wanted = Set(axes).intersection(known)
    let chosen = variableFiles.filter { wanted.isSubset(of: Set($0.axes.map(\.tag))) }.map(\.file)
    return variableCut(files: Set(chosen))
  }

  /// The family with only the faces of `files` (nil when none is left).
  public func variableCut(files: Set<String>) -> FontFamily? {
    let kept = faces.filter { files.contains($0.file) }
    guard !kept.isEmpty else { return nil }
    var cut = self
    cut.faces = kept
    cut.variableFiles = variableFiles.filter { files.contains($0.file) }
    return cut
  }

  /// Which file answers for the family, for a family where that is a choice (faces of one style
  /// in several files, or a variable file): `regular`, the file of the face drawn without
  /// coordinates; `variable`, the variable file axes, instances and coordinates are drawn
  /// from. Nil for every other family, whose manifest entry stays as it was.
  public var drawnFrom: DrawnFrom? {
    guard !variableFiles.isEmpty || !FontFamily.sharedSlots(faces).isEmpty else { return nil }
    return DrawnFrom(regular: regularFace?.file, variable: axesFile)
  }

  /// Whether `face` comes from one of the family's variable files.
  public func isVariable(_ face: FontFace) -> Bool {
    variableFiles.contains { $0.file == face.file }
  }

  /// Adds the italics that exist only as positions on a variable file's axes: a family none of
  /// whose faces is italic, with a variable file that has a `slnt` axis reaching below 0 or an
  /// `ital` axis reaching 1, gets an Italic (and, where its `wght` axis reaches 700, a Bold
  /// Italic) face drawn from that file at those coordinates. An italic that looks upright would
  /// be a defect; one that exists only as coordinates is still the family's own.
  package mutating func addAxisItalics() {
    guard !variableFiles.isEmpty, !answeringFaces.contains(where: \.isItalic) else { return }
    for variable in variableFiles {
      guard
        let roman = faces.first(where: {
          $0.file == variable.file && !$0.isItalic && $0.coordinates == nil
        })
      else { continue }
      let axes = variable.axes
      var italic: [String: Double] = [:]
      if let slnt = axes.first(where: { $0.tag == "slnt" }), slnt.min < 0 {
        italic["slnt"] = slnt.min
      } else if let ital = axes.first(where: { $0.tag == "ital" }), ital.max >= 1 {
        italic["ital"] = 1
      } else {
        continue
      }
      let regular = variableCut(files: [variable.file])?.regularFace ?? roman
      faces.append(
        FontFace(
          style: "Italic", weight: regular.weight, slant: 100, width: regular.width,
          file: regular.file, index: regular.index, format: regular.format,
          isColor: regular.isColor, coordinates: italic))
      if let wght = axes.first(where: { $0.tag == "wght" }), wght.min <= 700, wght.max >= 700 {
        var bold = italic
        bold["wght"] = 700
        faces.append(
          FontFace(
            style: "Bold Italic", weight: 200, slant: 100, width: regular.width,
            file: regular.file, index: regular.index, format: regular.format,
            isColor: regular.isColor, coordinates: bold))
      }
      return
    }
  }
}
