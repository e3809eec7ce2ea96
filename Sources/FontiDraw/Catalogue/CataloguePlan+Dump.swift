import FontiSupport

extension CataloguePlan {
  /// A text form of the plan for golden tests: one line per page, then one per block.
  public func dump() -> String {
    var out =
      "Catalogue: \(families.count) families, \(pages.count) pages, "
      + "\(CataloguePlan.format(geometry.width)) × \(CataloguePlan.format(geometry.height)) pt\n"
    for page in pages {
      out += "Page \(page.number): \(describe(page.kind))"
      if !page.destinations.isEmpty {
        out += " [dest \(page.destinations.map(\.name).joined(separator: ", "))]"
      }
      out += "\n"
      for block in page.blocks {
        let f = block.frame
        out +=
          "  \(describe(block.content)) at (\(CataloguePlan.format(f.x)), "
          + "\(CataloguePlan.format(f.y))) h \(CataloguePlan.format(f.height))\n"
      }
    }
    return out
  }

  func name(_ i: Int) -> String { i < families.count ? families[i].name : "#\(i)" }

  private func describe(_ kind: Kind) -> String {
    switch kind {
    case .cover: return "cover"
    case .contents: return "contents"
    case .family(let i, let continued):
      if continued { return "family \"\(name(i))\" continued" }
      let styles = i < families.count ? families[i].styles.joined(separator: ", ") : ""
      return "family \"\(name(i))\" (styles: \(styles))"
    case .proofs(let i, let continued):
      return "proofs \"\(name(i))\"\(continued ? " continued" : "")"
    case .faces(let i, let continued):
      return "faces \"\(name(i))\"\(continued ? " continued" : "")"
    case .glyphs(let i, let page): return "glyph chart \"\(name(i))\" page \(page + 1)"
    case .pairings: return "pairings"
    case .saved: return "saved"
    }
  }

  private func describe(_ content: Content) -> String {
    switch content {
    case .cover: return "cover"
    case .sectionTitle(let t): return "title \"\(t)\""
    case .contentsEntry(let title, let destination, let page):
      return "entry \"\(title)\" → page \(page) (\(destination.name))"
    case .familyHeader(let i): return "header \"\(name(i))\""
    case .continuedHeader(let i): return "continued \"\(name(i))\""
    case .sample(_, let size, let own, _):
      return "sample \(CataloguePlan.format(size)) pt\(own ? " + own-script sample" : "")"
    case .text(_, let index, let size):
      return "text \(index + 1) at \(CataloguePlan.format(size)) pt"
    case .rule: return "rule"
    case .waterfall(_, let size, _): return "waterfall \(CataloguePlan.format(size)) pt"
    case .styles(_, let cells, _):
      return "styles "
        + cells.map { c in
          let asked: String
          switch c.asked {
          case .slot(let style): asked = style.rawValue
          case .face(let name): asked = "'\(Sanitize.terminal(name))'"
          }
          return "\(asked) " + (c.face.map { "\"\(Sanitize.terminal($0.style))\"" } ?? "absent")
        }.joined(separator: " · ")
    case .facesHeader(let i, let continued):
      return "faces header \"\(name(i))\"\(continued ? " continued" : "")"
    case .faceLine(_, let face, _):
      return "face \"\(Sanitize.terminal(face.style))\" \(face.weight)/\(face.width)/\(face.slant)"
    case .partners(_, let names):
      return "pairs well with " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    case .pairing(let i): return "pairing \(i + 1)"
    case .savedCards(let indices):
      return "saved cards \(indices.map { String($0 + 1) }.joined(separator: ", "))"
    case .savedEmpty: return "saved empty: \"\(CataloguePlan.emptySavedText)\""
    default: return describeProof(content)
    }
  }

  /// One decimal, C locale, no "-0".
  static func format(_ v: Double) -> String {
    let tenths = max(-1e12, min(1e12, (v * 10).rounded()))
    let whole = Int(tenths) / 10
    let fraction = abs(Int(tenths) % 10)
    let sign = tenths < 0 && whole == 0 ? "-" : ""
    return "\(sign)\(whole).\(fraction)"
  }
}
