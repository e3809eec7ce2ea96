import FontiModel
import Testing

@testable import FontiDiff

/// How axes pair across the sides: by tag, and the nth axis of a tag listed twice (a hostile
/// `fvar`, found by the font-diff fuzz target) with the nth of the other side, so that a face
/// compared with itself never differs.
@Suite struct AxisChangesTests {
  static func axis(_ tag: String, _ min: Double, _ value: Double, _ max: Double) -> FontProofs.Axis
  {
    FontProofs.Axis(tag: tag, name: tag, min: min, defaultValue: value, max: max)
  }

  @Test func axesListedTwiceUnderOneTagPairInOrder() {
    let axes = [Self.axis("wght", 50, 50, 54), Self.axis("wght", 100, 400, 900)]
    #expect(FaceComparer.axisChanges(axes, axes, face: "Regular").isEmpty)
    let moved = [Self.axis("wght", 50, 50, 54), Self.axis("wght", 100, 400, 700)]
    let changes = FaceComparer.axisChanges(axes, moved, face: "Regular")
    #expect(changes.changed.map(\.after.max) == [700])
    #expect(changes.added.isEmpty && changes.removed.isEmpty)
    let fewer = FaceComparer.axisChanges(axes, [axes[0]], face: "Regular")
    #expect(fewer.removed.map(\.max) == [900] && fewer.changed.isEmpty)
  }

  /// An axis added (or removed) with every instance at its default moves no instance; one
  /// set elsewhere on the axis does (the corpus's `axis-added` and `axis-removed` pairs).
  @Test func anAxisOnOneSideCountsAsAtItsDefaultOnTheOther() {
    let weight = [Self.axis("wght", 100, 400, 900)]
    let both = weight + [Self.axis("XTRA", 0, 0, 100)]
    let bold = NamedInstance(index: 0, name: "Bold", coordinates: ["wght": 700])
    let boldAtDefault = NamedInstance(
      index: 0, name: "Bold", coordinates: ["wght": 700, "XTRA": 0])
    let boldElsewhere = NamedInstance(
      index: 0, name: "Bold", coordinates: ["wght": 700, "XTRA": 50])
    #expect(FaceComparer.sameCoordinates(bold, boldAtDefault, axes: (weight, both)))
    #expect(FaceComparer.sameCoordinates(boldAtDefault, bold, axes: (both, weight)))
    #expect(!FaceComparer.sameCoordinates(bold, boldElsewhere, axes: (weight, both)))
    #expect(!FaceComparer.sameCoordinates(boldElsewhere, bold, axes: (both, weight)))
    let moved = NamedInstance(index: 0, name: "Bold", coordinates: ["wght": 650])
    #expect(!FaceComparer.sameCoordinates(bold, moved, axes: (weight, weight)))
  }
}
