import FontiModel
import FontiText

extension FontFamily {
  /// The colour formats of the family's faces together (only faces fontconfig calls colour
  /// are read: a family without colour costs nothing); nil when it has none.
  package var colour: FontColour? {
    var seen: Set<String> = []
    let read = faces.filter {
      $0.isColor && seen.insert("\($0.index & 0xFFFF) \($0.file)").inserted
    }
    .map { FontColour(file: $0.file, index: $0.index & 0xFFFF) }
    return FontColour.union(read)
  }
}
