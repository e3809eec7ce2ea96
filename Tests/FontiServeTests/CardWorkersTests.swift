import Testing

@testable import FontiServe

/// Which card an idle worker takes: of the cards next in turn, one whose family it drew lately
/// (its fonts are kept: a third of the time), never one far behind the next.
@Suite struct CardWorkersTests {
  @Test func anIdleWorkerTakesACardOfAFamilyItDrewLately() {
    let turn = ["Lato", "Inter", "Cantarell", "C059"]
    #expect(CardWorkers.preferred(turn, drew: { $0 == "Cantarell" }) == 2)
    #expect(CardWorkers.preferred(turn, drew: { $0 == "Lato" || $0 == "C059" }) == 0)
    // None drawn: the next in turn.
    #expect(CardWorkers.preferred(turn, drew: { _ in false }) == 0)
    #expect(CardWorkers.preferred([], drew: { _ in true }) == 0)
  }

  @Test func itLooksOnlyAFewCardsAhead() {
    let turn = (0..<20).map { "Family \($0)" }
    #expect(CardWorkers.preferred(turn, drew: { $0 == "Family 8" }) == 8)
    #expect(CardWorkers.preferred(turn, drew: { $0 == "Family 9" }) == 0)
  }
}
