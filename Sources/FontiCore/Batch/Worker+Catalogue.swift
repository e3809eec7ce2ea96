import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Worker {
  /// Draws one PDF catalogue into a temporary file beside its final name; `finishCatalogue`
  /// (in a fresh worker, after the drawing is done) makes the final file from it. Families are
  /// looked up again in this worker's own catalogue; one that vanished since the plan was made
  /// is left out with a warning.
  static func renderCatalogue(
    _ task: CatalogueTask, environment: FontEnvironment, find: (FamilyRef) -> FontFamily?
  ) throws -> WorkResult {
    var warnings: [String] = []
    func resolve(_ refs: [FamilyRef]) -> [FontFamily] {
      refs.compactMap { ref in
        if let f = find(ref) { return f }
        warnings.append("family '\(ref.name)' is no longer available; left out of the catalogue")
        return nil
      }
    }
    var spec = Job.CatalogueSpec(file: Located(task.path))
    spec.page = task.page
    spec.theme = task.theme
    let input = CatalogueInput(
      spec: spec, title: task.title, author: task.author, text: task.text, size: task.size,
      texts: task.texts, sizes: task.sizes, styles: task.styles,
      families: resolve(task.families),
      partners: task.partners.mapValues { $0.compactMap(find) },
      pairings: task.pairings.compactMap { p in
        guard let h = find(p.heading), let b = find(p.body) else { return nil }
        return CataloguePairing(heading: h, body: b, reason: p.reason)
      },
      saved: task.saved.compactMap(find),
      creationDate: task.creationDate ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    let raw = AtomicFile.temporaryPath(for: task.path)
    let result: CatalogueResult
    do {
      result = try CatalogueWriter(environment: environment).drawRaw(input, to: raw, for: task.path)
    } catch {
      unlink(raw)
      throw error
    }
    var answer = WorkResult(
      ok: true, missingGlyphs: result.missingGlyphs.values.reduce(0, +),
      warnings: warnings + result.warnings, pages: result.pages)
    answer.raw = raw
    answer.creationDate = input.creationDate
    return answer
  }

  /// Makes the final catalogue from the drawn file, and removes the drawn file.
  static func finishCatalogue(_ task: FinishCatalogueTask) throws -> WorkResult {
    defer { unlink(task.raw) }
    try CatalogueWriter.finish(
      raw: task.raw, to: task.path, creationDate: task.creationDate, pages: task.pages)
    return finished(task.path, missing: 0, warnings: [], pages: task.pages)
  }
}
