import FontiSupport

extension Job {
  /// A stable, line-per-setting text rendering of the job, for golden tests and `--verbose`.
  ///
  /// Paths under the job's folder are shown as `$JOB/…` so that the text does not depend on
  /// where the file lives; names and paths read from the file carry their `@line:column`.
  public func dump() -> String {
    var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
    add("path: \(path.map { relative(JobPath.absolute($0)) } ?? "(built in)")")
    add("title: \(quoted(title))")
    add("author: \(author.map(quoted) ?? "(none)")")
    add("output: \(relative(output))")
    add(
      "defaults: text=\(quoted(defaults.text)) size=\(number(defaults.size)) "
        + "theme=\(defaults.theme.rawValue)")
    let sample = defaults.sample
    if !sample.isEmpty {
      add(
        "sample: language=\(sample.language ?? "(none)") variations="
          + "\(sample.variations.map(\.description).joined(separator: ","))"
          + " features=\(sample.features.map(\.description).joined(separator: ","))")
    }
    add("texts:\(texts.isEmpty ? " (none)" : "")")
    for text in texts { add("  - \(quoted(text))") }
    add("include\(includeMark.map { "@\($0)" } ?? ""): \(list(include))")
    add("exclude: \(list(exclude))")
    if !languages.isEmpty { add("languages: \(list(languages))") }
    add("fonts:\(fonts.isEmpty ? " (none)" : "")")
    for font in fonts { add("  - \(located(font, relative(font.value)))") }
    add("sizes: \(sizes.map(number).joined(separator: ", "))")
    add("styles: \(styles.written)")
    add("pairings: curated=\(curatedPairings)")
    for pair in extraPairings {
      add("  - heading: \(located(pair.heading)) body: \(located(pair.body))")
    }
    add("favourites: save=\(list(save)) manifest=\(located(manifest))")
    add("png: edge=\(png.edge) scale=\(png.scale) compression=\(png.compression.rawValue)")
    add(
      "proofs: axes=\(proofs.axes) features=\(proofs.features) languages=\(proofs.languages) "
        + "glyphs=\(proofs.glyphs)")
    add("catalogues:\(catalogues.isEmpty ? " (none)" : "")")
    for catalogue in catalogues {
      let families: String
      switch catalogue.families {
      case .all: families = "all"
      case .saved: families = "saved"
      case .patterns(let names): families = list(names)
      }
      add(
        "  - file: \(located(catalogue.file)) page=\(catalogue.page.rawValue) "
          + "theme=\(catalogue.theme.rawValue) families=\(families)")
    }
    if !gallery { add("gallery: false") }  // only when off: dumps of earlier jobs stay the same
    return lines.joined(separator: "\n") + "\n"
  }

  private func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  private func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// `p` relative to the job's folder, as `$JOB/…` (with `..` when it lies outside).
  private func relative(_ p: String) -> String {
    guard p.hasPrefix("/"), directory.hasPrefix("/") else { return p }
    let from = directory.split(separator: "/")
    let to = p.split(separator: "/")
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let up = Array(repeating: Substring(".."), count: from.count - common)
    return (["$JOB"] + up + to[common...]).joined(separator: "/")
  }

  private func located(_ value: Located<String>, _ shown: String? = nil) -> String {
    (shown ?? quoted(value.value)) + (value.mark.map { "@\($0)" } ?? "")
  }

  private func list(_ values: [Located<String>]) -> String {
    "[" + values.map { located($0) }.joined(separator: ", ") + "]"
  }
}
