import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

extension BatchPlan {
  /// Makes the plan. `previous` is the last run's manifest; `only` (`run --only`) restricts
  /// what is drawn to matching families (and the pairing sheets and catalogues that show
  /// them); every other output stays as it is and stays listed. `stamp` identifies a font file
  /// and `verify` says whether an output file is still what a manifest recorded (both injected
  /// so that incremental decisions can be tested as data).
  public static func make(
    job: Job, output: String, inputs: PlanInputs, previous: RunManifest?, force: Bool,
    only: [FamilyPattern] = [],
    stamp: @escaping (String) -> String = FileStamp.stamp,
    verify: @escaping (String, OutputRecord) -> FileState? = FileStamp.verify
  ) -> BatchPlan {
    let planner = Planner(
      job: job, output: output, inputs: inputs, force: force, only: only, stamp: stamp,
      verify: verify)
    var specimens = planner.specimens(previous: previous?.families ?? [])
    let pairings = planner.pairings(previous: previous?.pairings ?? [])
    let (catalogues, diagnostics) = planner.catalogues(
      previous: previous?.catalogues ?? [], specimens: specimens)
    planner.drawThumbnailsWithSpecimens(&specimens)
    var plan = BatchPlan(
      output: output, specimens: specimens, pairings: pairings, catalogues: catalogues,
      obsolete: [], diagnostics: diagnostics)
    plan.gallery = job.gallery
    plan.previousDuration = previous?.durationSeconds
    plan.previousCounts = previous?.counts
    if job.gallery, let record = previous?.gallery, record.file == OutputLayout.gallery {
      plan.galleryFound = verify(planner.absolute(OutputLayout.gallery), record.record)
      if plan.galleryCurrent, record.inputs != nil { plan.galleryManifest = previous }
    }
    var result = plan
    result.obsolete = obsoleteOutputs(of: plan, previous: previous, job: job, verify: verify)
    return result
  }
}

/// What making a plan shares across its outputs: the job, the inputs, the identities of the
/// families (each stamped once), and the rules for what is drawn.
private final class Planner {
  let job: Job
  let output: String
  let inputs: PlanInputs
  let force: Bool
  let only: [FamilyPattern]
  let stamp: (String) -> String
  let verify: (String, OutputRecord) -> FileState?
  /// What every output's fingerprint starts with: the tool, the design, the PNG settings and
  /// the label face.
  let common: [String]
  let labelStamp: String
  let missing: MissingCharacters
  /// The sample's settings, nil when there are none: outputs drawn without settings keep the
  /// recorded inputs they always had.
  let sample: SampleSettings?
  private var familyStamps: [String: String] = [:]

  init(
    job: Job, output: String, inputs: PlanInputs, force: Bool, only: [FamilyPattern],
    stamp: @escaping (String) -> String, verify: @escaping (String, OutputRecord) -> FileState?
  ) {
    self.job = job
    self.output = output
    self.inputs = inputs
    self.force = force
    self.only = only
    self.stamp = stamp
    self.verify = verify
    labelStamp = inputs.labelFamily.map { BatchPlan.familyStamp($0, stamp: stamp) } ?? "none"
    common = [
      FontiVersion.tool, BatchPlan.designVersion, "\(job.png.edge)", "\(job.png.scale)",
      job.png.compression.rawValue, labelStamp,
    ]
    missing = MissingCharacters(texts: [job.defaults.text] + job.texts)
    sample = job.defaults.sample.isEmpty ? nil : job.defaults.sample
  }

  func absolute(_ relative: String) -> String { output + "/" + relative }

  func rerenders(_ name: String) -> Bool { only.isEmpty || only.contains { $0.matches(name) } }

  /// A family's identity, stamped once however many outputs show it.
  func stampOf(_ f: FontFamily) -> String {
    if let s = familyStamps[f.name] { return s }
    let s = BatchPlan.familyStamp(f, stamp: stamp)
    familyStamps[f.name] = s
    return s
  }

  // MARK: Specimens

  func specimens(previous previousFamilies: [RunManifest.Family]) -> [BatchPlan.Specimen] {
    let savedNames = Set(inputs.saved.map { $0.name.lowercased() })
    let slugs = Slug.unique(inputs.families.map(\.name))
    // Indices, not entries: an entry is most of a kilobyte inline, and a dictionary of them
    // at 4,000 families would hold 7 MB of mostly empty slots at the run's peak.
    var previousIndex: [String: Int] = [:]
    for (i, f) in previousFamilies.enumerated() {
      guard let file = f.files.first, previousIndex[file.path] == nil else { continue }
      previousIndex[file.path] = i
    }
    var specimens: [BatchPlan.Specimen] = []
    specimens.reserveCapacity(inputs.families.count)
    for (family, slug) in zip(inputs.families, slugs) {
      let old = previousIndex["specimens/\(slug).png"].map { previousFamilies[$0] }
      specimens.append(
        specimen(
          family, slug: slug, saved: savedNames.contains(family.name.lowercased()), old: old))
    }
    return specimens
  }

  /// A family's specimen, and its thumbnail with the gallery; `old` is the previous manifest's
  /// entry for its file.
  private func specimen(_ family: FontFamily, slug: String, saved: Bool, old: RunManifest.Family?)
    -> BatchPlan.Specimen
  {
    let file = "specimens/\(slug).png"
    let partners = inputs.partners[family.name] ?? []
    let request = SpecimenRequest(
      family: FamilyRef(family), text: job.defaults.text, size: job.defaults.size,
      theme: job.defaults.theme, edge: job.png.edge, scale: job.png.scale,
      compression: job.png.compression, saved: saved, partners: partners.map(FamilyRef.init),
      sample: sample, proofs: job.proofs)
    let fingerprint = SpecimenFingerprint.of(
      request, family: family, label: labelStamp,
      stamps: [stampOf(family)] + partners.map { stampOf($0) })
    let item = WorkItem.specimen(request, path: absolute(file))
    // The previous entry counts only for the same family, and only while its file is intact.
    let entry = old.flatMap {
      BatchPlan.entry($0, of: family.name, file: file, absolute: absolute, verify: verify)
    }
    let current = entry?.files.first?.inputs == fingerprint
    var specimen = BatchPlan.Specimen(
      family: family, slug: slug, file: file, item: item, inputs: fingerprint, saved: saved,
      action: BatchPlan.action(current: current, force: force, rerenders: rerenders(family.name)),
      previous: entry, missingCharacters: missing.lacking(in: family), current: current)
    if job.gallery {
      let thumb = "\(OutputLayout.thumbs)/\(slug).png"
      let oldThumb = old.flatMap {
        BatchPlan.thumbnailRecord(
          $0, of: family.name, file: thumb, absolute: absolute, verify: verify)
      }
      specimen.thumbnail = BatchPlan.thumbnail(
        for: specimen, file: thumb, previous: oldThumb, absolute: absolute)
    }
    return specimen
  }

  /// A drawn specimen's worker makes its thumbnail from the drawn image.
  func drawThumbnailsWithSpecimens(_ specimens: inout [BatchPlan.Specimen]) {
    for i in specimens.indices where specimens[i].thumbnail?.action == .withSpecimen {
      if case .specimen(var request, let path) = specimens[i].item,
        let thumb = specimens[i].thumbnail
      {
        request.thumbnail = absolute(thumb.file)
        specimens[i].item = .specimen(request, path: path)
      }
    }
  }

  // MARK: Pairing sheets

  func pairings(previous: [RunManifest.Pairing]) -> [BatchPlan.Pairing] {
    let previousPairings = Dictionary(
      previous.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
    var pairings: [BatchPlan.Pairing] = []
    var pairingNames = Set<String>()
    for p in inputs.pairings {
      var file = "pairings/\(Slug.make(p.heading.name))+\(Slug.make(p.body.name)).png"
      var n = 2
      while !pairingNames.insert(file).inserted {
        file = "pairings/\(Slug.make(p.heading.name))+\(Slug.make(p.body.name))-\(n).png"
        n += 1
      }
      pairings.append(pairing(p, file: file, old: previousPairings[file]))
    }
    return pairings
  }

  private func pairing(_ p: FamilyPairing<FontFamily>, file: String, old: RunManifest.Pairing?)
    -> BatchPlan.Pairing
  {
    let fingerprint = SHA256.hex(
      Array(
        (common + [
          "pairing", job.defaults.theme.rawValue, p.reason, stampOf(p.heading),
          stampOf(p.body),
        ] + BatchPlan.settingsParts(sample)).joined(separator: "\u{1F}").utf8))
    let item = WorkItem.pairing(
      PairingSheetRequest(
        heading: FamilyRef(p.heading), body: FamilyRef(p.body), reason: p.reason,
        theme: job.defaults.theme, edge: job.png.edge, scale: job.png.scale,
        compression: job.png.compression, sample: sample),
      path: absolute(file))
    let entry = old.flatMap { old -> RunManifest.Pairing? in
      guard old.heading == p.heading.name, old.body == p.body.name,
        let state = verify(absolute(file), old.record)
      else { return nil }
      var kept = old
      (kept.size, kept.mtimeNs) = (state.size, state.mtimeNs)
      return kept
    }
    return BatchPlan.Pairing(
      heading: p.heading, body: p.body, reason: p.reason, file: file, item: item,
      inputs: fingerprint,
      action: BatchPlan.action(
        current: entry?.inputs == fingerprint, force: force,
        rerenders: rerenders(p.heading.name) || rerenders(p.body.name)),
      previous: entry)
  }

  // MARK: Catalogues

  /// The catalogues, and the warnings of those `--only` leaves as they were. One that would
  /// show no family is not written (`ResolvedJob` warned); the favourites' catalogue is the
  /// exception: it has an empty state ("Heart a font…").
  func catalogues(previous: [RunManifest.Catalogue], specimens: [BatchPlan.Specimen])
    -> ([BatchPlan.Catalogue], [Diagnostic])
  {
    let previousCatalogues = Dictionary(
      previous.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
    let current = Dictionary(
      specimens.map { ($0.family.name, $0.current) }, uniquingKeysWith: { a, _ in a })
    var catalogues: [BatchPlan.Catalogue] = []
    var diagnostics: [Diagnostic] = []
    for (i, spec) in job.catalogues.enumerated() {
      let families = i < inputs.catalogueFamilies.count ? inputs.catalogueFamilies[i] : []
      if families.isEmpty && spec.families != .saved { continue }
      let input = catalogueInput(spec, families: families)
      // Where the catalogue goes within the output folder, not where that folder is: a folder
      // moved, restored from a CI cache elsewhere, or merged from shards keeps its `inputs`.
      let file = spec.file.value
      let fingerprint = catalogueFingerprint(input, path: file, families: families)
      let entry = previousCatalogues[file].flatMap { old -> RunManifest.Catalogue? in
        guard let state = verify(absolute(file), old.record) else { return nil }
        var kept = old
        (kept.size, kept.mtimeNs) = (state.size, state.mtimeNs)
        return kept
      }
      var act = BatchPlan.action(
        current: entry?.inputs == fingerprint, force: force, rerenders: true)
      if act == .render, let warning = leftBehind(file, families: families, current: current) {
        act = .keep
        diagnostics.append(warning)
      }
      catalogues.append(
        BatchPlan.Catalogue(
          file: file, item: .catalogue(input, path: absolute(file)), inputs: fingerprint,
          action: act, previous: entry,
          families: families.map(\.name),
          missingCharacters: Dictionary(
            families.compactMap { f in
              let lacking = missing.lacking(in: f)
              return lacking.isEmpty ? nil : (f.name, lacking)
            }, uniquingKeysWith: { a, _ in a })))
    }
    return (catalogues, diagnostics)
  }

  /// What a catalogue shows, for its worker.
  private func catalogueInput(_ spec: Job.CatalogueSpec, families: [FontFamily])
    -> CatalogueInput<FamilyRef>
  {
    let names = Set(families.map(\.name))
    let partners = inputs.partners.filter { names.contains($0.key) }
    let pairings = inputs.pairings.filter {
      spec.families == .saved
        ? false : names.contains($0.heading.name) || names.contains($0.body.name)
    }
    var input = CatalogueInput(
      spec: spec, job: job, families: families, partners: partners, pairings: pairings,
      saved: inputs.saved, creationDate: inputs.creationDate
    ).mapFamilies(FamilyRef.init)
    // The proof pages and the sample's settings are part of what a catalogue shows, so of its
    // recorded inputs.
    input.proofs = job.proofs
    input.sample = sample
    return input
  }

  private func catalogueFingerprint(
    _ input: CatalogueInput<FamilyRef>, path: String, families: [FontFamily]
  ) -> String {
    var parts = [
      FontiVersion.tool, BatchPlan.designVersion, "catalogue", BatchPlan.catalogueLayoutVersion,
      labelStamp,
    ]
    if let data = try? JSONEncoder(.fingerprint).encode(CatalogueFingerprint(input, path: path)) {
      parts.append(SHA256.hex(data))
    }
    parts += families.map { stampOf($0) }
    parts += inputs.saved.map { stampOf($0) }
    parts += input.pairings.flatMap { [$0.heading.name, $0.body.name] }
    return SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8))
  }

  /// With `--only`, a catalogue is drawn only when every family it shows is up to date once
  /// this run is done: a family `--only` leaves out must already be current (a family without a
  /// specimen, outside the selection, cannot be). The warning when one is not.
  private func leftBehind(_ file: String, families: [FontFamily], current: [String: Bool])
    -> Diagnostic?
  {
    guard !only.isEmpty else { return nil }
    let behind = families.filter { f in !rerenders(f.name) && !(current[f.name] ?? false) }
      .map(\.name)
    guard !behind.isEmpty else { return nil }
    return .warning(
      "catalogue '\(file)' is left as it was: \(behind.count) of its families "
        + "\(behind.count == 1 ? "is" : "are") not up to date and --only leaves "
        + "\(behind.count == 1 ? "it" : "them") out (\(Sanitize.list(behind)))",
      hint: "run without --only to redraw it")
  }
}
