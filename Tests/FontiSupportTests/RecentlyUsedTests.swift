import Testing

@testable import FontiSupport

@Suite struct RecentlyUsedTests {
  @Test func keepsTheLastKeysUsedAndForgetsTheLeastRecent() {
    var recent = RecentlyUsed<String, Int>(capacity: 2)
    recent.insert(1, for: "a")
    recent.insert(2, for: "b")
    #expect(recent.value(for: "a") == 1)  // "a" is now the most recent
    recent.insert(3, for: "c")  // forgets "b"
    #expect(recent.value(for: "b") == nil)
    #expect(recent.value(for: "a") == 1)
    #expect(recent.value(for: "c") == 3)
    #expect(recent.first == 3)
    recent.insert(4, for: "c")  // a key kept again replaces its value
    #expect(recent.value(for: "c") == 4)
    #expect(recent.value(for: "a") == 1)
    recent.capacity = 1
    #expect(recent.value(for: "c") == nil)
    #expect(recent.first == 1)
    recent.capacity = 0
    #expect(recent.capacity == 1)
    #expect(recent.first == 1)
  }

  /// Asking whether a key is kept does not make it recent: a parent that only looks (which
  /// families a worker drew) leaves the order to what is used.
  @Test func lookingForAKeyLeavesItWhereItWas() {
    var recent = RecentlyUsed<String, Bool>(capacity: 2)
    recent.insert(true, for: "a")
    recent.insert(true, for: "b")
    #expect(recent.contains("a") && recent.contains("b") && !recent.contains("z"))
    recent.insert(true, for: "c")  // "a" is still the least recent: forgotten
    #expect(!recent.contains("a"))
    #expect(recent.contains("b") && recent.contains("c"))
  }
}
