import FontiDraw
import FontiModel
import Foundation

/// How much of a run's work each item is, for the progress line's estimate of the time left.
///
/// The unit is one specimen's drawing. A catalogue is worth its pages: measured on this
/// project's machine, drawing a catalogue page costs about 0.7 of a specimen and finishing it
/// (the qpdf rewrite) about 0.1. Counted as one item, a 4,000-page catalogue would make the
/// estimate say "0.1 s" while it draws for half a minute.
extension WorkItem {
  /// A catalogue page's drawing, in specimens.
  static let drawnPageWeight = 0.7
  /// A catalogue page's finishing, in specimens.
  static let finishedPageWeight = 0.1
  /// A thumbnail made from a specimen on disk (decoding the PNG, shrinking, encoding).
  static let thumbnailWeight = 0.2

  /// The item's work in families, for its time bound (`ItemTimeout`: a minute a family by
  /// default): a catalogue weighs its families and pairings, its finishing the specimens' worth
  /// of its pages; anything else one family.
  package var timeoutUnits: Double {
    switch self {
    case .specimen, .pairing, .diff, .thumbnail:
      return 1
    case .catalogue(let input, _):
      return Double(max(1, input.families.count + input.pairings.count))
    case .finishCatalogue(let task):
      return max(1, Double(task.pages) * WorkItem.finishedPageWeight)
    }
  }
}

/// The weight of each item of a run, worked out once: a catalogue's page plan is not free.
public struct ProgressWeights: Sendable {
  /// Drawing weight by output path, for items that are not finishing steps.
  var drawing: [String: Double] = [:]
  /// All the work: every item, and the finishing step each catalogue will get once drawn.
  public private(set) var total = 0.0

  public init(_ items: [WorkItem]) {
    for item in items {
      switch item {
      case .specimen, .pairing, .diff:
        drawing[item.path] = 1
        total += 1
      case .catalogue(let input, _):
        let pages = Double(input.estimatedPages)
        drawing[item.path] = pages * WorkItem.drawnPageWeight
        total += pages * (WorkItem.drawnPageWeight + WorkItem.finishedPageWeight)
      case .finishCatalogue(let task):
        total += Double(max(1, task.pages)) * WorkItem.finishedPageWeight
      case .thumbnail:
        drawing[item.path] = WorkItem.thumbnailWeight
        total += WorkItem.thumbnailWeight
      }
    }
  }

  /// What finishing `item` adds to the work done, in specimens' worth of drawing.
  public func weight(of item: WorkItem) -> Double {
    if case .finishCatalogue(let task) = item {
      return Double(max(1, task.pages)) * WorkItem.finishedPageWeight
    }
    return drawing[item.path] ?? 1
  }
}

extension CatalogueInput where Family == FamilyRef {
  /// The pages the catalogue will have, from the same page plan the writer follows, made with
  /// the family names alone (the parent has no fonts loaded to ask about their coverage).
  public var estimatedPages: Int {
    var input = mapFamilies { FontFamily(name: $0.name, faces: [], isCustom: $0.custom) }
    input.creationDate = Date(timeIntervalSince1970: 0)
    return max(1, CataloguePlan(input).pages.count)
  }
}

extension BatchProgress {
  /// The time left, in seconds, at the pace so far, weighing each item by its work (a catalogue
  /// by its pages); nil before anything is done or once everything is.
  public var secondsLeft: Double? {
    guard done > 0, done < total, elapsed > 0 else { return nil }
    if workTotal > 0 && workDone > 0 {
      return max(0, workTotal - workDone) * elapsed / workDone
    }
    return Double(total - done) * elapsed / Double(done)
  }
}
