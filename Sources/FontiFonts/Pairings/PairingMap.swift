import FontiModel
import FontiSupport
import Foundation

/// The part a family plays in a pairing.
public enum PairingRole: String, Sendable, Hashable, CaseIterable {
  case heading
  case body
}

/// A family's partner in one pairing: the partner's name, the partner's role, and the pairing.
public struct PairingPartner: Sendable, Hashable {
  /// The other family, spelled as the map spells it.
  public var partner: String
  /// The role the partner plays (`.body` when the family asked about is the heading).
  public var role: PairingRole
  public var pairing: Pairing

  public init(partner: String, role: PairingRole, pairing: Pairing) {
    self.partner = partner
    self.role = role
    self.pairing = pairing
  }
}

/// A proprietary family (one the app pairs on Apple systems) and its nearest open designs.
public struct StandIn: Sendable, Hashable {
  /// The Apple family ("Helvetica Neue").
  public var family: String
  /// Open families that stand in for it, closest first.
  public var open: [String]
  /// Why these, and how close they are.
  public var note: String

  public init(family: String, open: [String], note: String) {
    self.family = family
    self.open = open
    self.note = note
  }
}

/// A set of heading + body pairings with symmetric, case-insensitive lookup.
///
/// The built-in map is `PairingMap.curated` (data in `CuratedPairings.swift`). A job's
/// `pairings.extra` is added with `merging(extra:)`. The map never touches fontconfig: whether
/// a family is installed is always asked of a `FontCatalog`.
public struct PairingMap: Sendable {
  /// Every pairing, in the map's order (curated order first: the order strips prefer).
  public private(set) var pairings: [Pairing]
  /// The pairings merged in with `merging(extra:)` (a job's `pairings.extra`), in their order,
  /// repeats and all: they always render.
  public private(set) var extra: [Pairing] = []
  /// How many of `pairings` the map had before extras were merged in: those render by the
  /// selection rule.
  private var curatedCount: Int
  /// Lower-cased family name → indices into `pairings`, in order.
  private var index: [String: [Int]]

  public init(pairings: [Pairing]) {
    self.pairings = pairings
    curatedCount = pairings.count
    var index: [String: [Int]] = [:]
    for (i, p) in pairings.enumerated() {
      index[p.heading.lowercased(), default: []].append(i)
      if !Pairing.same(p.heading, p.body) { index[p.body.lowercased(), default: []].append(i) }
    }
    self.index = index
  }

  /// Every family the map names, each once, in first-mention order.
  public var families: [String] {
    var seen = Set<String>()
    var out: [String] = []
    for p in pairings {
      for name in [p.heading, p.body] where seen.insert(name.lowercased()).inserted {
        out.append(name)
      }
    }
    return out
  }

  /// Whether the map names `family` (case-insensitively).
  public func contains(_ family: String) -> Bool { index[family.lowercased()] != nil }

  /// The family as the map spells it, if the map names it.
  public func canonicalName(of family: String) -> String? {
    guard let i = index[family.lowercased()]?.first else { return nil }
    let p = pairings[i]
    return Pairing.same(p.heading, family) ? p.heading : p.body
  }

  /// The pairings `family` takes part in, as heading or as body, in map order.
  public func pairings(with family: String) -> [Pairing] {
    (index[family.lowercased()] ?? []).map { pairings[$0] }
  }

  /// `family`'s partners, in map order: for each pairing the other family and the role it plays.
  /// Symmetric: if B is A's body, A is B's heading.
  public func partners(of family: String) -> [PairingPartner] {
    pairings(with: family).compactMap { p in
      if Pairing.same(p.heading, p.body) { return nil }  // never a partner of itself
      return Pairing.same(p.heading, family)
        ? PairingPartner(partner: p.body, role: .body, pairing: p)
        : PairingPartner(partner: p.heading, role: .heading, pairing: p)
    }
  }

  /// This map plus `extra`, in order. An extra pairing already in the map in the same
  /// orientation is dropped (the map's reason is kept); so is a repeat within `extra`. The
  /// reverse orientation is a different pairing (a different sheet) and is kept.
  public func merging(extra: [Pairing]) -> PairingMap {
    var keys = Set(pairings.map(\.key))
    var all = pairings
    for p in extra where keys.insert(p.key).inserted {
      all.append(p)
    }
    var merged = PairingMap(pairings: all)
    merged.curatedCount = curatedCount
    merged.extra = self.extra + extra
    return merged
  }

  /// The installed partners of `family` for a "pairs well with" strip: only families in
  /// `catalog` that Pango can draw, each once, in map order, at most `limit`.
  public func strip(for family: String, catalog: FontCatalog, limit: Int = 4) -> [FontFamily] {
    var seen: Set<String> = [family.lowercased()]
    var out: [FontFamily] = []
    for partner in partners(of: family) where out.count < limit {
      guard let f = catalog.family(named: partner.partner), f.isRenderable,
        seen.insert(f.name.lowercased()).inserted
      else { continue }
      out.append(f)
    }
    return out
  }

  /// The pairings a run renders (sheets and catalogue pages): each pairing of the map (before
  /// its extras) whose families are both available (in `catalog`, drawable) and at least one of
  /// them among `selected` (names, compared case-insensitively), then every extra pairing
  /// (`extra`, else the map's own), always (`docs/outputs.md`, "Pairings": `pairings.extra` always renders). A pairing
  /// that appears twice in the same orientation is rendered once; self-pairs never render; an
  /// extra pairing whose families are not in `catalog` (a job's were checked) is left out.
  public func pairingsToRender(
    in catalog: FontCatalog, selected: [String], extra: [Pairing]? = nil
  ) -> [FamilyPairing<FontFamily>] {
    let chosen = Set(selected.map { $0.lowercased() })
    var keys = Set<String>()
    var out: [FamilyPairing<FontFamily>] = []
    func add(_ heading: FontFamily, _ body: FontFamily, _ reason: String) {
      guard !Pairing.same(heading.name, body.name),
        keys.insert(Pairing.key(heading.name, body.name)).inserted
      else { return }
      out.append(FamilyPairing(heading: heading, body: body, reason: reason))
    }
    for p in pairings.prefix(curatedCount) {
      guard let h = catalog.family(named: p.heading), h.isRenderable,
        let b = catalog.family(named: p.body), b.isRenderable,
        chosen.contains(h.name.lowercased()) || chosen.contains(b.name.lowercased())
      else { continue }
      add(h, b, p.reason)
    }
    for p in extra ?? self.extra {
      guard let h = catalog.family(named: p.heading), let b = catalog.family(named: p.body) else {
        continue
      }
      add(h, b, p.reason)
    }
    return out
  }

  /// The family as the map (or else the catalogue) spells it, for `pairings FAMILY`; a family that is neither in the
  /// map nor installed is an error with "did you mean …?" over both.
  public func resolve(_ name: String, catalog: FontCatalog) throws(Diagnostic) -> String {
    if let known = canonicalName(of: name) ?? catalog.family(named: name)?.name {
      return known
    }
    let candidates = Set(catalog.families.map(\.name) + families)
    var close = Suggest.closest(name, among: candidates, limit: 3)
    if close.isEmpty {
      // "Inter" for "inter disp"; "Noto Serif" for "noto": a shared prefix.
      let lower = name.lowercased()
      close = candidates.filter {
        let l = $0.lowercased()
        return (l.hasPrefix(lower) && lower.count >= 3) || (lower.hasPrefix(l) && l.count >= 4)
      }.sorted().prefix(3).map { $0 }
    }
    let quoted = close.map { "'\($0)'" }.joined(separator: ", ")
    let tail = close.isEmpty ? "" : " (did you mean \(quoted)?)"
    var hint = "'fonti-batch pairings' lists the map; 'fonti-batch families' the installed families"
    if let standIn = PairingMap.standIn(for: name) {
      let open = standIn.open.map {
        catalog.family(named: $0) != nil ? $0 : "\($0) (not installed)"
      }
      hint =
        "open stand-ins for \(standIn.family): \(open.joined(separator: ", ")). \(standIn.note)"
    }
    throw .error(
      "family '\(name)' is not installed and not in the pairing map\(tail)", hint: hint)
  }
}

extension PairingMap {
  /// The reason given for a job's own pairings when the curated map has none.
  public static let extraReason = "Chosen in the job (pairings.extra)."

  /// The job's `pairings.extra` as pairings, names spelled as the catalogue spells them. A
  /// pairing the curated map also has keeps the curated reason; turned the other way round, it
  /// says so and quotes the map's reason, which describes the map's order ("a sans over an
  /// old-style" is not said of the old-style over the sans).
  public static func extraPairings(of job: Job, catalog: FontCatalog) -> [Pairing] {
    job.extraPairings.map { spec in
      let heading = catalog.family(named: spec.heading.value)?.name ?? spec.heading.value
      let body = catalog.family(named: spec.body.value)?.name ?? spec.body.value
      let pairings = curated.pairings(with: heading)
      if let known = pairings.first(where: { $0.key == Pairing.key(heading, body) }) {
        return Pairing(
          heading: heading, body: body, reason: known.reason, standsInFor: known.standsInFor)
      }
      if let turned = pairings.first(where: { $0.key == Pairing.key(body, heading) }) {
        return Pairing(
          heading: heading, body: body, reason: turnedReason(turned), standsInFor: nil)
      }
      return Pairing(heading: heading, body: body, reason: extraReason)
    }
  }

  /// The reason of a job's pairing that turns `curated` over (its body as the heading).
  static func turnedReason(_ curated: Pairing) -> String {
    "Chosen in the job (pairings.extra): the map pairs them the other way round, \(curated.body) "
      + "under \(curated.heading) — “\(curated.reason)”"
  }

  /// The map of a job, built once: the curated map (unless `pairings.curated: false`) merged
  /// with the job's extra pairings. Strips and the pairings a run renders both come from it.
  public init(for job: Job, catalog: FontCatalog) {
    let base = job.curatedPairings ? PairingMap.curated : PairingMap(pairings: [])
    self = base.merging(extra: PairingMap.extraPairings(of: job, catalog: catalog))
  }

  /// Checks the job's `pairings.extra` against the catalogue: every heading and body must be an
  /// installed or custom family Pango can draw (errors located at the name, with suggestions);
  /// a family paired with itself is an error; a pairing listed twice is a warning.
  public static func validateExtraPairings(_ job: Job, catalog: FontCatalog) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var seen: [String: Mark?] = [:]
    for spec in job.extraPairings {
      var ok = true
      for name in [spec.heading, spec.body] {
        let trimmed = name.value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
          diagnostics.append(
            .error("empty family name in pairings.extra", file: job.path, at: name.mark))
          ok = false
        } else if let family = catalog.family(named: name.value) {
          if !family.isRenderable {
            var d = catalog.unsupported(family, file: job.path, at: name.mark)
            d.severity = .error
            d.message += "; it cannot be used in a pairing"
            diagnostics.append(d)
            ok = false
          }
        } else {
          diagnostics.append(catalog.notInstalled(name.value, file: job.path, at: name.mark))
          ok = false
        }
      }
      guard ok else { continue }
      if Pairing.same(spec.heading.value, spec.body.value) {
        diagnostics.append(
          .error(
            "pairing sets '\(spec.heading.value)' with itself; heading and body must be two "
              + "different families", file: job.path, at: spec.body.mark ?? spec.heading.mark))
        continue
      }
      let k = Pairing.key(spec.heading.value, spec.body.value)
      if let first = seen[k] {
        let whereFirst = first.map { " (first at line \($0.line))" } ?? ""
        diagnostics.append(
          .warning(
            "pairing '\(spec.heading.value)' + '\(spec.body.value)' is listed twice\(whereFirst)",
            file: job.path, at: spec.heading.mark))
      } else {
        seen[k] = spec.heading.mark
      }
    }
    return diagnostics
  }
}
