import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

/// A job checked against the fonts: fontconfig set up with its custom fonts, every family name
/// it mentions matched (never substituted), and the selection made. What `check` validates and
/// what `run` plans from.
public struct ResolvedJob {
  public var job: Job
  public var environment: FontEnvironment
  /// Selected families, sorted by name.
  public var families: [FontFamily]
  /// The pairing map for this job: curated (unless turned off) plus `pairings.extra`.
  public var pairingMap: PairingMap
  /// Warnings found on the way (errors throw).
  public var warnings: [Diagnostic]

  public var catalog: FontCatalog { environment.catalog }

  /// Sets up fonts for `job` and checks every family name in it. Throws all errors at once,
  /// each located in the job file, with the warnings found alongside.
  public static func resolve(
    _ job: Job, library: FontLibrary? = .standard, configFile: String? = nil
  ) throws(DiagnosticError) -> ResolvedJob {
    let file = job.path
    // The decoder kept the file's lines: no second read to show the source line.
    let source = job.source
    func located(_ ds: [Diagnostic]) -> [Diagnostic] {
      ds.map { d in
        var d = d
        if d.snippet == nil, let mark = d.mark, d.file == file {
          d.snippet = source?.line(mark.line)
        }
        return d
      }
    }

    let (environment, fontWarnings): (FontEnvironment, [Diagnostic])
    do {
      (environment, fontWarnings) = try FontEnvironment.load(
        fonts: job.fonts, file: file, library: library, configFile: configFile)
    } catch {
      throw DiagnosticError(located(error.diagnostics))
    }
    let catalog = environment.catalog
    var diagnostics = fontWarnings

    var selection = catalog.select(include: job.include, exclude: job.exclude, file: file)
    diagnostics += selection.diagnostics
    if selection.families.isEmpty && !selection.diagnostics.contains(where: \.isError) {
      diagnostics.append(
        .error(
          "no family is selected: the include and exclude patterns leave nothing to render",
          file: file, at: job.include.first?.mark))
    } else if !job.languages.isEmpty {
      // `families.languages`: after include and exclude, only families that set every code.
      let check = LanguageFilter.validate(job.languages, file: file, languages: Languages.table)
      diagnostics += check.diagnostics
      if let filter = check.filter {
        let before = selection.families.count
        selection.families = filter.select(selection.families)
        if selection.families.isEmpty {
          diagnostics.append(
            .error(
              "no family is selected: the language filter (families.languages: "
                + filter.codes.joined(separator: ", ") + ") removed all \(before) "
                + "famil\(before == 1 ? "y" : "ies") that include and exclude select",
              file: file, at: job.include.first?.mark ?? job.languages.first?.mark,
              hint: "no selected family sets every listed language; try "
                + "'fonti-batch families --lang \(filter.codes.joined(separator: ","))'"))
        }
      }
    }
    if !job.defaults.sample.variations.isEmpty || !job.defaults.sample.features.isEmpty,
      !selection.families.isEmpty
    {
      diagnostics += SampleSettingsCheck.warnings(
        job.defaults.sample, offers: SampleSettingsCheck.offers(selection.families), file: file,
        variationMarks: job.defaults.variationMarks, featureMarks: job.defaults.featureMarks)
    }
    for name in job.save {
      guard let family = catalog.family(named: name.value) else {
        diagnostics.append(catalog.notInstalled(name.value, file: file, at: name.mark))
        continue
      }
      if !family.isRenderable {
        diagnostics.append(catalog.unsupported(family, file: file, at: name.mark))
      }
    }
    diagnostics += PairingMap.validateExtraPairings(job, catalog: catalog)
    for spec in job.catalogues {
      guard case .patterns(let patterns) = spec.families else { continue }
      let check = catalog.select(include: patterns, exclude: [], file: file)
      diagnostics += check.diagnostics
      // An empty list was reported by the decoder; an exact name that is not installed is an
      // error above. What is left: globs that match nothing, families Pango cannot draw.
      if !patterns.isEmpty && check.families.isEmpty
        && !check.diagnostics.contains(where: \.isError)
      {
        diagnostics.append(
          .warning(
            "catalogue '\(spec.file.value)' has no family to show: its families match no "
              + "family that can be drawn; it is not written", file: file, at: spec.file.mark))
      }
    }

    diagnostics += styleNameDiagnostics(job, catalog: catalog, selected: selection.families)

    diagnostics = located(diagnostics)
    if diagnostics.contains(where: \.isError) {
      throw DiagnosticError(Diagnostic.fileOrder(diagnostics))
    }
    return ResolvedJob(
      job: job, environment: environment, families: selection.families,
      pairingMap: PairingMap(for: job, catalog: catalog),
      warnings: Diagnostic.fileOrder(diagnostics))
  }

  /// The face names of `styles:` checked against the job's families (the selection and the
  /// families its catalogues name): a name no family has is an error with the nearest names
  /// they have; a name some families lack is one counted note, not a warning each.
  static func styleNameDiagnostics(
    _ job: Job, catalog: FontCatalog, selected: [FontFamily]
  ) -> [Diagnostic] {
    guard !job.styleNames.isEmpty else { return [] }
    var families = selected
    var seen = Set(selected.map(\.name))
    for spec in job.catalogues {
      guard case .patterns(let patterns) = spec.families else { continue }
      let ps = patterns.map { FamilyPattern($0.value) }
      for f in catalog.families
      where f.isRenderable && ps.contains(where: { $0.matches(f.name) })
        && seen.insert(f.name).inserted
      {
        families.append(f)
      }
    }
    guard !families.isEmpty else { return [] }
    let faceKeys = families.map { Set($0.distinctFaces.map { FaceName.key($0.style) }) }
    var diagnostics: [Diagnostic] = []
    for name in job.styleNames {
      let key = FaceName.key(name.value)
      let lacking = faceKeys.count { !$0.contains(key) }
      if lacking == families.count {
        var names: [String: String] = [:]
        for f in families {
          for face in f.distinctFaces where names[FaceName.key(face.style)] == nil {
            names[FaceName.key(face.style)] = face.style
          }
        }
        let guess = Suggest.didYouMean(key, among: names.keys).flatMap { names[$0] }
        let some = names.values.sorted().prefix(8).map { "'\(Sanitize.terminal($0))'" }
        diagnostics.append(
          .error(
            "no selected family has a face named '\(Sanitize.terminal(name.value))'"
              + (guess.map { " (did you mean '\(Sanitize.terminal($0))'?)" } ?? ""),
            file: job.path, at: name.mark,
            hint: guess == nil && !some.isEmpty
              ? "the families have faces such as \(some.joined(separator: ", "))" : nil))
      } else if lacking > 0 {
        diagnostics.append(
          .warning(
            "face '\(Sanitize.terminal(name.value))' is not in \(lacking) of the "
              + "\(families.count) families; their catalogue pages name it as absent",
            file: job.path, at: name.mark))
      }
    }
    return diagnostics
  }

  /// Loads the job file at `path` (`-`: standard input) and resolves it against the fonts,
  /// reporting the decoder's and the font checks' problems together, in file order. `output`
  /// overrides the job's output folder (`run -o`); `waiting` hears when the job is slow to come
  /// (a FIFO with no writer); `decoded` is given the job as soon as it is read without errors,
  /// before the fonts are loaded (a run starts reading its previous manifest then).
  public static func load(
    path: String, output: String? = nil, library: FontLibrary? = .standard,
    configFile: String? = nil, waiting: ((String) -> Void)? = nil,
    decoded: ((Job) -> Void)? = nil
  ) throws(DiagnosticError) -> ResolvedJob {
    let (decodedJob, decodeDiagnostics) = JobDecoder.loadPartial(
      path: path, languages: Languages.table, waiting: waiting)
    guard var job = decodedJob else { throw DiagnosticError(decodeDiagnostics) }
    if let output {
      job.output = JobPath.absolute(output)
      if let problem = JobPath.outputFolderProblem(job.output) {
        throw DiagnosticError(.error("output folder '\(output)' (--output) \(problem)"))
      }
    }
    if !decodeDiagnostics.contains(where: \.isError) { decoded?(job) }
    var fontDiagnostics: [Diagnostic]
    var resolved: ResolvedJob?
    do {
      let r = try resolve(job, library: library, configFile: configFile)
      fontDiagnostics = r.warnings
      resolved = r
    } catch {
      fontDiagnostics = error.diagnostics
    }
    // A font path the decoder already found wrong is not reported twice.
    let decodeMarks = Set(decodeDiagnostics.filter(\.isError).compactMap(\.mark))
    fontDiagnostics.removeAll { d in d.mark.map(decodeMarks.contains) ?? false }
    let all = Diagnostic.fileOrder(decodeDiagnostics + fontDiagnostics)
    guard var result = resolved, !all.contains(where: \.isError) else {
      throw DiagnosticError(all)
    }
    result.warnings = all
    return result
  }

  /// The families of one catalogue: all selected, the favourites, or those matching its patterns
  /// among every family that can be drawn, selected or not (like `saved`): `families: [Lato]`
  /// means Lato, whatever `families.include` picks for the specimens.
  public func families(for spec: Job.CatalogueSpec, saved: [FontFamily]) -> [FontFamily] {
    switch spec.families {
    case .all: return families
    case .saved: return saved
    case .patterns(let patterns):
      let ps = patterns.map { FamilyPattern($0.value) }
      return catalog.families.filter { f in f.isRenderable && ps.contains { $0.matches(f.name) } }
    }
  }

  /// The job's families: the selection, then the families only its catalogues name (by their
  /// patterns), each once. What `run --only` patterns are matched against.
  public var jobFamilies: [FontFamily] {
    var seen = Set(families.map(\.name))
    var out = families
    for spec in job.catalogues where spec.families != .saved && spec.families != .all {
      for f in self.families(for: spec, saved: []) where seen.insert(f.name).inserted {
        out.append(f)
      }
    }
    return out
  }

  /// What a run plans from besides the job: the favourites (`saved`, most recent first),
  /// each family's installed partners (for strips), the pairings to render (both families
  /// available, at least one selected; extra pairings always) and each catalogue's families.
  public func planInputs(saved: [FontFamily], creationDate: Date?) -> PlanInputs {
    let catalogueFamilies = job.catalogues.map { families(for: $0, saved: saved) }
    var partners: [String: [FontFamily]] = [:]
    for f in families + catalogueFamilies.joined() where partners[f.name] == nil {
      let strip = pairingMap.strip(for: f.name, catalog: catalog)
      if !strip.isEmpty { partners[f.name] = strip }
    }
    let pairings = pairingMap.pairingsToRender(in: catalog, selected: families.map(\.name))
    return PlanInputs(
      families: families, saved: saved, partners: partners, pairings: pairings,
      catalogueFamilies: catalogueFamilies, labelFamily: catalog.labelFamily,
      creationDate: creationDate)
  }
}

extension Diagnostic {
  /// Located diagnostics by line and column, unlocated ones after; stable otherwise.
  public static func fileOrder(_ ds: [Diagnostic]) -> [Diagnostic] {
    ds.enumerated().sorted { a, b in
      switch (a.element.mark, b.element.mark) {
      case (let x?, let y?): return x != y ? x < y : a.offset < b.offset
      case (nil, nil): return a.offset < b.offset
      case (_?, nil): return true
      case (nil, _?): return false
      }
    }.map(\.element)
  }
}
