import FontiModel
import FontiSupport
import Foundation

/// A job's sample settings checked against the families it selects, once they are known: a
/// feature or an axis that no selected family has (a typo, most likely) and a coordinate
/// outside a family's range (drawn clamped) are warnings, located at the setting.
public enum SampleSettingsCheck {
  /// What one family offers the settings.
  public struct Offer: Sendable {
    public var family: String
    public var axes: [FontProofs.Axis]
    public var features: Set<String>

    public init(family: String, axes: [FontProofs.Axis], features: Set<String>) {
      self.family = family
      self.axes = axes
      self.features = features
    }
  }

  /// Reads what each family offers (HarfBuzz only: safe off the main thread), over up to
  /// `threads` threads, in the families' order.
  public static func offers(_ families: [FontFamily], threads: Int = 2) -> [Offer] {
    ParallelMap.map(families, threads: threads) { family in
      let layout = ProofReader.layout(family)
      return Offer(family: family.name, axes: layout.axes, features: layout.features)
    }
  }

  /// The warnings for `settings` against `offers`. `variationMarks`/`featureMarks` locate each
  /// setting (same order as the settings; missing marks leave the warning unlocated).
  public static func warnings(
    _ settings: SampleSettings, offers: [Offer], file: String? = nil,
    variationMarks: [Mark] = [], featureMarks: [Mark] = []
  ) -> [Diagnostic] {
    guard !offers.isEmpty else { return [] }
    var out: [Diagnostic] = []
    let nowhere =
      offers.count == 1
      ? "is not in family '\(Sanitize.terminal(offers[0].family))'"
      : "is in none of the selected families"
    let allFeatures = offers.reduce(into: Set<String>()) { $0.formUnion($1.features) }
    for (i, setting) in settings.features.enumerated() where !allFeatures.contains(setting.tag) {
      let mark = i < featureMarks.count ? featureMarks[i] : nil
      out.append(
        .warning(
          "feature '\(setting.tag)' \(nowhere)"
            + suggestion(setting.tag, among: allFeatures), file: file, at: mark))
    }
    let allAxes = offers.reduce(into: Set<String>()) { $0.formUnion($1.axes.map(\.tag)) }
    for (i, setting) in settings.variations.enumerated() {
      let mark = i < variationMarks.count ? variationMarks[i] : nil
      guard allAxes.contains(setting.tag) else {
        out.append(
          .warning(
            "axis '\(setting.tag)' \(nowhere)"
              + suggestion(setting.tag, among: allAxes), file: file, at: mark))
        continue
      }
      for offer in offers {
        let resolved = VariationSetting.resolve([setting], axes: offer.axes, family: offer.family)
        for warning in resolved.warnings { out.append(.warning(warning, file: file, at: mark)) }
      }
    }
    return out
  }

  static func suggestion(_ tag: String, among tags: Set<String>) -> String {
    guard let guess = Suggest.didYouMean(tag, among: tags.sorted()) else { return "" }
    return " (did you mean '\(guess)'?)"
  }
}

/// `transform` over `items` on up to `threads` threads, results in the items' order. For work
/// that touches no Pango or Cairo state (HarfBuzz faces and fontconfig data only).
package enum ParallelMap {
  package static func map<T: Sendable, R: Sendable>(
    _ items: [T], threads: Int, _ transform: @Sendable @escaping (T) -> R
  ) -> [R] {
    let count = items.count
    guard count > 1, threads > 1 else { return items.map(transform) }
    let results = ResultSlots<R>(count: count)
    DispatchQueue.concurrentPerform(iterations: min(threads, count)) { worker in
      var i = worker
      while i < count {
        results.set(i, transform(items[i]))
        i += min(threads, count)
      }
    }
    return results.values()
  }
}

/// Slots filled from several threads, each once.
final class ResultSlots<R: Sendable>: @unchecked Sendable {
  private var slots: [R?]
  private let lock = NSLock()

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: R) {
    lock.lock()
    slots[index] = value
    lock.unlock()
  }

  func values() -> [R] { slots.compactMap { $0 } }
}
