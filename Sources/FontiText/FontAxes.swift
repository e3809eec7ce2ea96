import FontiModel

/// A font file's variation axes, read through HarfBuzz: what the enumeration of fonts needs to
/// know a family's variable files, and what proofs and `diff` show.
package enum FontAxes {
  /// The axes of face `index` of `file`: none when it is static or cannot be read.
  package static func read(file: String, index: Int) -> [FontProofs.Axis] {
    guard let face = try? HarfBuzzFace(file: file, index: index) else { return [] }
    return read(face).axes
  }

  /// The axes of `face`, and the tags of those the font hides from users.
  package static func read(_ face: HarfBuzzFace) -> (axes: [FontProofs.Axis], hidden: [String]) {
    var axes: [FontProofs.Axis] = []
    var hidden: [String] = []
    for axis in face.axes() {
      let tag = HarfBuzzTag.string(axis.tag)
      let name = face.name(axis.nameID).flatMap(ProofText.clean) ?? tag
      axes.append(
        FontProofs.Axis(
          tag: tag, name: name, min: shortest(axis.min), defaultValue: shortest(axis.defaultValue),
          max: shortest(axis.max)))
      if axis.isHidden { hidden.append(tag) }
    }
    return (axes, hidden)
  }

  /// A `Float` from the font as the shortest decimal that reads back as it (`0.1`, not
  /// `0.10000000149011612`), so that the manifest shows the font's own numbers.
  package static func shortest(_ value: Float) -> Double {
    guard value.isFinite else { return 0 }
    return Double("\(value)") ?? Double(value)
  }
}

extension FontFamily {
  /// Records `files` (fontconfig's variable fonts of the family) with their axes, each `fvar`
  /// read once here (HarfBuzz): most axes first, then in the order fontconfig prefers their
  /// regular faces. A file whose axes cannot be read is left out.
  package mutating func setVariableFiles(_ files: Set<String>) {
    guard !files.isEmpty else { return }
    let rank = Dictionary(
      faces.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { a, _ in a })
    variableFiles = files.compactMap { file in
      let axes = FontAxes.read(file: file, index: 0)
      return axes.isEmpty ? nil : VariableFile(file: file, axes: axes)
    }.sorted {
      ($0.axes.count, -(rank[$0.file] ?? .max), $1.file)
        > ($1.axes.count, -(rank[$1.file] ?? .max), $0.file)
    }
  }
}
