import FontiFonts
import FontiModel
import FontiSupport
import Foundation

// MARK: JSON of /api/state and /events (docs/serve.md)

extension ServeState {
  /// `/api/state`: the job, its families, the favourites, the limits a card is held to and
  /// the names of the job's features.
  func stateJSON() -> [UInt8] {
    MainLoop.assertOnLoop()
    let s = snapshot
    let saved = savedList().entries
    let defaults = s.job.defaults
    let families = Self.families(of: s, saved: saved)
    let state = State(
      generation: generation, job: JobPath.lastComponent(of: jobPath), title: s.job.title,
      errors: errors.map(StateError.init), defaults: StateDefaults(defaults),
      axes: Self.axes(of: s), families: families,
      counts: StateCounts(
        warnings: families.reduce(0) { $0 + $1.warnings.count },
        notes: families.reduce(0) { $0 + $1.notes.count }),
      saved: saved, limits: StateLimits(),
      featureNames: Self.featureNames(defaults.sample.features))
    return JSON.encode(state)
  }

  private static func families(of s: ServeSnapshot, saved: [SavedEntry]) -> [StateFamily] {
    let savedNames = Set(saved.map { $0.family.lowercased() })
    var families: [StateFamily] = []
    families.reserveCapacity(s.families.count)
    for (family, slug) in zip(s.families, s.slugs) {
      let axes = family.variableFiles.first?.axes ?? []
      families.append(
        StateFamily(
          name: family.name, slug: slug, v: s.versions[slug] ?? "", custom: family.isCustom,
          bold: family.hasBold, italic: family.hasItalic,
          faces: family.distinctFaces.map(\.style), variable: !axes.isEmpty, axes: axes,
          saved: savedNames.contains(family.name.lowercased()),
          warnings: (s.warnings[family.name] ?? []).filter { WarningKind.of($0).group == .job },
          notes: (s.warnings[family.name] ?? []).filter { WarningKind.of($0).group == .font },
          partners: (s.partners[family.name] ?? []).map(\.name)))
    }
    return families
  }

  /// The job's axes (`defaults.variations`), each over the widest range of the families that
  /// have it.
  private static func axes(of s: ServeSnapshot) -> [FontProofs.Axis] {
    var axes: [FontProofs.Axis] = []
    for setting in s.job.defaults.sample.variations {
      let ranges = s.families.flatMap { $0.variableFiles.first?.axes ?? [] }.filter {
        $0.tag == setting.tag
      }
      guard let first = ranges.first, let low = ranges.map(\.min).min(),
        let high = ranges.map(\.max).max()
      else { continue }
      axes.append(
        FontProofs.Axis(
          tag: setting.tag, name: first.name, min: low, defaultValue: setting.value, max: high))
    }
    return axes
  }

  /// The registered names of the job's features, by tag (`FeatureNames`: the page shows them
  /// on its toggles); a tag not registered has none.
  private static func featureNames(_ features: [FeatureSetting]) -> [String: String] {
    var names: [String: String] = [:]
    for feature in features {
      names[feature.tag] = FeatureNames.registeredName(feature.tag)
    }
    return names
  }
}

private struct State: Encodable {
  var generation: Int
  var job: String
  var title: String
  var errors: [StateError]
  var defaults: StateDefaults
  /// Each as the run's manifest writes an axis (`tag`, `name`, `min`, `max`, `default`).
  var axes: [FontProofs.Axis]
  var families: [StateFamily]
  /// The families' warnings of the job's kinds and their notes, as the run's manifest counts
  /// them (`counts.warnings`, `counts.notes`).
  var counts: StateCounts
  var saved: [SavedEntry]
  var limits: StateLimits
  var featureNames: [String: String]
}

private struct StateCounts: Encodable {
  var warnings: Int
  var notes: Int
}

private struct StateError: Encodable {
  var file: String?
  var line: Int?
  var column: Int?
  var message: String
  var text: String
  init(_ d: Diagnostic) {
    file = d.file.map { JobPath.lastComponent(of: $0) }
    line = d.mark?.line
    column = d.mark?.column
    message = d.message
    text = d.description
  }
}

/// The job's `defaults:`, the sample's settings among them.
private struct StateDefaults: Encodable {
  var text: String
  var size: Double
  var theme: String
  var language: String
  /// Each as `{"tag": …, "value": …}`.
  var variations: [VariationSetting]
  var features: [String]
  init(_ defaults: Job.Defaults) {
    text = defaults.text
    size = defaults.size
    theme = defaults.theme.rawValue
    language = defaults.sample.language ?? ""
    variations = defaults.sample.variations
    features = defaults.sample.features.map(\.description)
  }
}

private struct StateFamily: Encodable {
  var name: String
  var slug: String
  var v: String
  var custom: Bool
  var bold: Bool
  var italic: Bool
  /// The family's faces by name (`FontFamily.distinctFaces`): the family view's face picker.
  var faces: [String]
  var variable: Bool
  var axes: [FontProofs.Axis]
  var saved: Bool
  /// Warnings of the job's kinds (what fails `--strict`): the card's ⚠.
  var warnings: [String]
  /// Facts about the family's fonts: a neutral note.
  var notes: [String]
  var partners: [String]
}

/// The `Limits` a card's query is held to, which the page's controls follow.
private struct StateLimits: Encodable {
  struct Bounds<Value: Comparable & Encodable>: Encodable {
    var min: Value
    var max: Value
    init(_ range: ClosedRange<Value>) {
      min = range.lowerBound
      max = range.upperBound
    }
  }
  var size = Bounds(Limits.sampleSize)
  var scale = Bounds(Limits.scale)
  var textLength = Limits.textLength
  var textCodePoints = Limits.textCodePoints
  var languageTagLength = Limits.languageTagLength
}

/// One favourite in `/api/state` and the `saved` event.
struct SavedEntry: Encodable {
  var family: String
  var slug: String?
  var savedAt: String
}

/// The `state` event: a new reading of the job, the families whose cards changed.
struct StateEvent: Encodable {
  var generation: Int
  var changed: [String]
  var all: Bool
  var errors: Int
}

enum JSON {
  static func encode<T: Encodable>(_ value: T) -> [UInt8] {
    (try? Array(JSONEncoder(.compact).encode(value))) ?? Array("{}".utf8)
  }
}
