extension FamilyComparison {
  /// What shaping does differently, in words, face by face: kerning pairs (largest first, with a
  /// count), features and language systems added or removed, feature effects with their text,
  /// marks placed elsewhere, and tables that changed without shaping differently. A feature
  /// added or removed in every face is said once, for the family (`family`).
  static func shapingLines(_ faces: [DiffReport.FaceShaping], family: DiffReport.Features)
    -> [String]
  {
    var lines: [String] = []
    for s in faces {
      let face = s.face
      if s.kerning.count > 0 {
        let shown = s.kerning.pairs.prefix(3).map { p in
          "“\(p.pair)”\(p.instance.map { " \($0)" } ?? "") \(p.kerning[0]) → \(p.kerning[1])"
            + (p.classPairs > 1 ? " (\(grouped(p.classPairs)) pairs of its classes)" : "")
        }
        let more = s.kerning.count > shown.count ? "; …" : ""
        lines.append(
          "kerning (\(face)): \(count(s.kerning.count, "pair")) changed: "
            + shown.joined(separator: "; ") + more)
      }
      var f = s.features
      f.added.removeAll { family.added.contains($0) }
      f.removed.removeAll { family.removed.contains($0) }
      lines += listed("\(plural(f.added.count, "feature")) added (\(face))", f.added)
      lines += listed("\(plural(f.removed.count, "feature")) removed (\(face))", f.removed)
      lines += listed("scripts added (\(face))", f.scripts.added)
      lines += listed("scripts removed (\(face))", f.scripts.removed)
      lines += listed("language systems added (\(face))", f.languageSystems.added)
      lines += listed("language systems removed (\(face))", f.languageSystems.removed)
      var byTag: [String: [DiffReport.FeatureEffect]] = [:]
      for e in f.changed { byTag[e.tag, default: []].append(e) }
      for tag in byTag.keys.sorted() {
        guard let effects = byTag[tag], let first = effects.first else { continue }
        let place = first.instance.map { "\(face) \($0)" } ?? face
        let what =
          first.positionsOnly
          ? "placed differently"
          : "\(first.before.joined(separator: " ")) → \(first.after.joined(separator: " "))"
        let more = effects.count > 1 ? " (and \(effects.count - 1) more)" : ""
        lines.append("feature \(tag) (\(place)): “\(first.text)” \(what)\(more)")
      }
      if let first = s.marks.first {
        let point = { (p: [Int]) in "(\(p[0]), \(p[1]))" }
        lines.append(
          "mark attachment (\(face)): \(count(s.marks.count, "mark")) placed differently: "
            + "“\(first.text)” \(point(first.before)) → \(point(first.after))"
            + (s.marks.count > 1 ? ", …" : ""))
      }
      for r in s.rules ?? [] {
        let place = r.instance.map { "\(face) \($0)" } ?? face
        lines.append("rule (\(place)): \(r.words)")
      }
      if !s.tables.unexplained.isEmpty {
        lines.append(
          "\(s.tables.unexplained.joined(separator: ", ")) differs (\(face)) and no rule "
            + "explains it; no tried pair or text shapes differently")
      }
    }
    return lines
  }
}
