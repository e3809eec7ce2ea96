import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension ShardSpec {
  /// The variables `--shard auto` reads.
  public static let autoVariables =
    "CI_NODE_INDEX and CI_NODE_TOTAL (GitLab `parallel:`, 1-based), or JOB_COMPLETION_INDEX "
    + "(Kubernetes Indexed Job, 0-based) with FONTI_SHARD_TOTAL"

  /// `--shard auto`: GitLab's `CI_NODE_INDEX`/`CI_NODE_TOTAL` (1-based), else Kubernetes'
  /// `JOB_COMPLETION_INDEX` (0-based) with `FONTI_SHARD_TOTAL`. Throws a `RequestError` that
  /// names the variables when neither is set, and names the variable that is wrong otherwise.
  public static func auto(environment: [String: String]) throws(RequestError) -> ShardSpec {
    func value(_ name: String) -> String? {
      guard let v = environment[name]?.trimmingCharacters(in: .whitespaces), !v.isEmpty else {
        return nil
      }
      return v
    }
    func shown(_ v: String) -> String {
      Sanitize.terminal(v.count > 20 ? String(v.prefix(20)) + "…" : v)
    }
    if let index = value("CI_NODE_INDEX") {
      guard let total = value("CI_NODE_TOTAL") else {
        throw RequestError("--shard auto: CI_NODE_INDEX is set but CI_NODE_TOTAL is not")
      }
      guard let k = decimal(Substring(index)), let n = decimal(Substring(total)),
        let spec = ShardSpec(index: k, total: n)
      else {
        throw RequestError(
          "--shard auto: CI_NODE_INDEX '\(shown(index))' and CI_NODE_TOTAL '\(shown(total))' "
            + "are not a shard (1 ≤ index ≤ total ≤ \(maximumTotal))")
      }
      return spec
    }
    if let index = value("JOB_COMPLETION_INDEX") {
      guard let total = value("FONTI_SHARD_TOTAL") else {
        throw RequestError(
          "--shard auto: JOB_COMPLETION_INDEX is set but FONTI_SHARD_TOTAL is not (the Job's "
            + "completions)")
      }
      guard let k = decimal(Substring(index)), let n = decimal(Substring(total)),
        let spec = ShardSpec(index: k + 1, total: n)
      else {
        throw RequestError(
          "--shard auto: JOB_COMPLETION_INDEX '\(shown(index))' and FONTI_SHARD_TOTAL "
            + "'\(shown(total))' are not a shard (0 ≤ index < total ≤ \(maximumTotal))")
      }
      return spec
    }
    throw RequestError("--shard auto: no CI shard variables are set; it reads \(autoVariables)")
  }
}

/// How a job's families are spread over shards: pure, so that every machine computes the same
/// partition from the same selection and weights.
///
/// Greedy longest-processing-time: families by weight, heaviest first (ties by name, so the
/// order is the same whatever order fontconfig lists fonts in), each to the shard with the least
/// weight so far (ties: the lowest shard). Every family lands in exactly one shard; no shard
/// ends more than the heaviest family above the lightest. A pairing sheet goes with its heading
/// family (its weight counts there).
public enum ShardPartition {
  /// The shard (1-based) of each family name, for `total` shards. `weights` holds each family's
  /// weight (missing or not finite: 0). Names must be unique.
  public static func assign(_ names: [String], weights: [String: Double], total: Int)
    -> [String: Int]
  {
    guard total > 1 else {
      return Dictionary(names.map { ($0, 1) }, uniquingKeysWith: { a, _ in a })
    }
    func weight(_ name: String) -> Double {
      guard let w = weights[name], w.isFinite, w > 0 else { return 0 }
      return w
    }
    let ordered = names.sorted { a, b in
      let (wa, wb) = (weight(a), weight(b))
      return wa != wb ? wa > wb : a < b
    }
    var load = [Double](repeating: 0, count: total)
    var out: [String: Int] = [:]
    for name in ordered where out[name] == nil {
      var best = 0
      for i in 1..<total where load[i] < load[best] { best = i }
      load[best] += weight(name)
      out[name] = best + 1
    }
    return out
  }

  /// Each family's weight for the partition, from the best source there is:
  /// - `timings`: seconds a previous run took to draw each specimen and the pairing sheets it
  ///   heads (`--shard-weights`, else the output folder's previous manifest). A family it does
  ///   not know (new since) weighs the median of those it knows.
  /// - otherwise what the shard draws for it (`drawnWork`): its specimen, its faces (each is
  ///   read for the proofs and the coverage checks) and each pairing sheet it heads. File sizes
  ///   do not say it: DejaVu Sans's large files draw one specimen like any other family's.
  public static func weights(
    families: [FontFamily], pairings: [(heading: FontFamily, body: FontFamily)],
    timings: [String: Double]?
  ) -> (weights: [String: Double], source: WeightSource) {
    if let timings, !timings.isEmpty {
      let known = families.compactMap { timings[$0.name] }.filter { $0.isFinite && $0 >= 0 }
        .sorted()
      if !known.isEmpty {
        let median = known[known.count / 2]
        var out: [String: Double] = [:]
        for f in families {
          let t = timings[f.name] ?? median
          out[f.name] = t.isFinite && t >= 0 ? t : median
        }
        return (out, .timings)
      }
    }
    var out: [String: Double] = [:]
    for f in families { out[f.name] = drawnWork(specimenOf: f) }
    for p in pairings where out[p.heading.name] != nil {
      out[p.heading.name, default: 0] += pairingSheetWork
    }
    return (out, .drawnWork)
  }

  /// A specimen's work, in specimens: one, and a tenth more for each face beyond the first
  /// (measured on a debug run of 255 installed families: 1-face families took 0.074 s a
  /// specimen, 4-face ones 0.090 s, 18-face ones 0.29 s).
  static func drawnWork(specimenOf family: FontFamily) -> Double {
    1 + 0.1 * Double(max(0, family.faces.count - 1))
  }

  /// A pairing sheet's work, in specimens (0.055 s against 0.08 s on the same run).
  static let pairingSheetWork = 0.7

  /// Where a partition's weights came from (recorded in the shard manifest).
  public enum WeightSource: String, Sendable, Codable {
    case timings
    /// What each family's part draws (`drawnWork`).
    case drawnWork = "drawn-work"
    /// The font files' sizes: how shard manifests of earlier versions were balanced (read, no
    /// longer made).
    case fontSizes = "font-sizes"
  }

  /// Per-family drawing seconds recorded in a run manifest: each specimen's, plus those of the
  /// pairing sheets the family heads. Nil when the manifest records none.
  public static func timings(in manifest: RunManifest) -> [String: Double]? {
    var out: [String: Double] = [:]
    for f in manifest.families {
      if let s = f.seconds, s.isFinite, s >= 0 { out[f.family, default: 0] += s }
    }
    for p in manifest.pairings {
      if let s = p.seconds, s.isFinite, s >= 0, let t = out[p.heading] { out[p.heading] = t + s }
    }
    return out.isEmpty ? nil : out
  }
}

/// One shard's part of a planned job: the families it draws (every shard resolves the whole
/// selection, so slugs agree) and, with each, the pairing sheets it heads.
public struct ShardPart: Sendable {
  public var spec: ShardSpec
  /// The partition's units in this shard: family names.
  public var families: [String]
  public var weightSource: ShardPartition.WeightSource
  /// SHA-256 of the whole partition (every unit and its shard): shards that agree on it split
  /// the job the same way, whatever their weights were.
  public var partition: String = ""
  /// The selected families' names: a pairing goes with its heading when that is selected,
  /// else with its body when that is, else (an extra pairing of two unselected families) with
  /// its heading all the same.
  let selected: Set<String>

  /// The unit a pairing sheet goes with.
  func unit(of pairing: FamilyPairing<FontFamily>) -> String {
    unit(heading: pairing.heading.name, body: pairing.body.name)
  }

  func unit(heading: String, body: String) -> String {
    selected.contains(heading) || !selected.contains(body) ? heading : body
  }

  /// Partitions `plan`'s families (with `inputs`' pairings) and keeps shard `spec`'s part.
  public static func make(
    _ spec: ShardSpec, plan: BatchPlan, inputs: PlanInputs, timings: [String: Double]?
  ) -> ShardPart {
    let selected = Set(plan.specimens.map(\.family.name))
    var probe = ShardPart(spec: spec, families: [], weightSource: .drawnWork, selected: selected)
    var units = plan.specimens.map(\.family)
    var seen = selected
    for p in plan.pairings {
      let name = probe.unit(heading: p.heading.name, body: p.body.name)
      if seen.insert(name).inserted { units.append(p.heading) }
    }
    let (weights, source) = ShardPartition.weights(
      families: units, pairings: plan.pairings.map { ($0.heading, $0.body) }, timings: timings)
    let assignment = ShardPartition.assign(units.map(\.name), weights: weights, total: spec.total)
    probe.families = units.map(\.name).filter { assignment[$0] == spec.index }
    probe.weightSource = source
    let lines = assignment.map { "\($0.key)\u{1F}\($0.value)" }.sorted()
    probe.partition = SHA256.hex(Array(lines.joined(separator: "\u{1E}").utf8))
    return probe
  }

  /// `plan` with only this part: its specimens, the pairing sheets they head, no catalogue; the
  /// files the previous manifest (this shard folder's) lists and the part no longer makes are
  /// obsolete.
  public func restrict(_ plan: BatchPlan, previous: RunManifest?, job: Job) -> BatchPlan {
    let mine = Set(families)
    var out = plan
    out.specimens = plan.specimens.filter { mine.contains($0.family.name) }
    out.pairings = plan.pairings.filter {
      mine.contains(unit(heading: $0.heading.name, body: $0.body.name))
    }
    out.catalogues = []
    out.diagnostics = []
    out.obsolete = BatchPlan.obsoleteOutputs(
      of: out, previous: previous, job: job, verify: FileStamp.verify)
    return out
  }
}
