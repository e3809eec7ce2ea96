import FontiFonts
import FontiModel
import FontiSupport
import FontiText

/// Every face of a family: the list on its page (up to four faces the style grid does not show)
/// or its weights page, each face's name set in the face and a line of the sample after it; and
/// the header's list of face names, which says how many it leaves out.
extension PageDrawer {
  /// The head of a weights page: "Lato — 18 faces", or a continuation's small header.
  func drawFacesHeader(_ f: CataloguePlan.Rect, continued: Bool) {
    guard let facts = current else { return }
    let nameText = Sanitize.terminal(facts.family.name)
    let number = familyNumber(facts, continued: continued)
    let count = input.families[facts.index].distinctFaces.count
    if continued {
      drawContinuedHeader(nameText + ", faces continued", number: number, f)
      return
    }
    let size = 20.0
    let name = label(
      nameText + " — \(count) \(count == 1 ? "face" : "faces")", size: size, width: g.contentWidth)
    name.ellipsize(width: g.contentWidth)
    let baseline = f.y + size + 4
    cr.setColour(palette.text)
    name.draw(at: g.contentX, baseline - name.baseline)
    cr.setColour(palette.accent)
    number.draw(at: g.margin, baseline - number.baseline)
  }

  /// One face: its weight (and width, when not normal) in the margin, its name set in it, then
  /// the family's line set in it to the column's end. A face Pango cannot draw is named in the
  /// label face with the reason.
  func drawFaceLine(_ face: FontFace, first: Bool, _ f: CataloguePlan.Rect) {
    guard let facts = current, facts.problem == nil else { return }
    let family = input.families[facts.index]
    let entry = FamilyFace(face, variable: family.isVariable(face))
    var margin = ["\(entry.weight)" + (entry.width == 100 ? "" : " · \(entry.width) %")]
    if first { margin.insert("Faces", at: 0) }
    drawMarginLabel(margin, top: f.y, muted: margin.count == 1)

    let size = CataloguePlan.faceLineSize
    let baseline = f.y + size
    let nameText = Sanitize.terminal(face.style)
    let nameRoom = (g.contentWidth * 0.34).rounded(.down)
    if let problem = entry.problem {
      let name = label(nameText, size: 11, width: nameRoom)
      name.ellipsize(width: nameRoom)
      cr.setColour(ink(0.5))
      name.draw(at: g.contentX, baseline - name.baseline)
      let note = label(
        "cannot be drawn: \(problem)", size: 8, italic: true,
        width: g.contentWidth - nameRoom - 12)
      note.ellipsize(width: g.contentWidth - nameRoom - 12)
      cr.setColour(ink(0.45))
      note.draw(at: g.contentX + nameRoom + 12, baseline - note.baseline)
      return
    }
    let ctx = context(for: family, face: face)
    let spec = FontSpec(family: family.name, size: size, face: face)
    let name: TextLayout
    if facts.ownName {
      name = TextLayout(nameText, font: spec, in: ctx)
      name.ellipsize(width: nameRoom, mark: mark)
    } else {
      name = label(nameText, size: 11, width: nameRoom)
      name.ellipsize(width: nameRoom)
    }
    cr.setColour(facts.ownName ? palette.text : ink(0.7))
    name.draw(at: g.contentX, baseline - name.baseline)

    let x = g.contentX + min(name.size.width, nameRoom) + 14
    let room = g.right - x
    guard room > size else { return }
    let line = TextLayout(
      sample: facts.lineText, font: spec,
      settings: facts.lineLanguage == nil ? settings : ownScriptSettings, in: ctx,
      language: facts.lineLanguage)
    if facts.glyphRow {
      line.truncate(width: room)
    } else {
      line.ellipsize(width: room, mark: mark)
    }
    count(line.unknownGlyphs, family)
    cr.setColour(ink(0.85))
    line.draw(at: x, baseline - line.baseline)
  }

  /// The header's list of faces, "18 faces: Hairline, Hairline Italic, …, and 12 more", as
  /// many names as fit in `width` beside `rest` (the header's other facts): never cut without
  /// saying how many are left out.
  func facesFact(_ family: FontFamily, rest: [String], width: Double) -> String {
    let names = family.distinctFaces.map { Sanitize.terminal($0.style) }
    let head = "\(names.count) \(names.count == 1 ? "face" : "faces")"
    func text(_ shown: Int) -> String {
      guard !names.isEmpty else { return head }
      let list = names.prefix(shown).joined(separator: ", ")
      let more = names.count - shown
      return head + ": " + (more == 0 ? list : (shown == 0 ? "" : list + ", ") + "+\(more) more")
    }
    func fits(_ shown: Int) -> Bool {
      let meta = label(([text(shown)] + rest).joined(separator: "  ·  "), size: 8)
      return meta.size.width <= width
    }
    if fits(names.count) { return text(names.count) }
    var low = 0
    var high = names.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if fits(mid) { low = mid } else { high = mid - 1 }
    }
    return text(low)
  }
}
