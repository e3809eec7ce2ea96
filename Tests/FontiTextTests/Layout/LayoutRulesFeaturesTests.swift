import FontTestSupport
import TestSupport
import Testing

@testable import FontiText

/// Reading only some features' lookups (`layoutRules(_:features:)`, what the proofs read for
/// one feature): those lookups and the ones their context rules call are read as a full read
/// reads them, the others are left `.empty`, the language systems whole.
@Suite struct LayoutRulesFeaturesTests {
  @Test func readsOnlyTheFeaturesLookups() throws {
    let face = try HarfBuzzFace(file: TestFonts.fixtures + "/Layout/LayoutRules.ttf")
    let full = face.layoutRules(.gsub)
    let calt = face.layoutRules(.gsub, features: ["calt"])
    #expect(calt.languageSystems == full.languageSystems)
    #expect(calt.lookups.count == full.lookups.count)
    let own = Set(calt.lookupIndices(feature: "calt", script: "latn", language: nil))
    // calt's chain rule calls SUB_E (lookup 0), which no feature lists.
    var called = Set<Int>()
    for index in own {
      if case .contextSubstitution(let groups) = full.lookups[index].rules {
        called.formUnion(groups.flatMap { $0.rules.flatMap { $0.actions.map(\.lookupIndex) } })
      }
    }
    #expect(!own.isEmpty && !called.isEmpty && own.isDisjoint(with: called))
    for (index, lookup) in calt.lookups.enumerated() {
      if own.contains(index) || called.contains(index) {
        #expect(lookup == full.lookups[index], "lookup \(index)")
      } else {
        #expect(lookup.rules == .empty, "lookup \(index)")
      }
    }
    // A few features, as the fuzzer picks them (`Fuzz/LayoutRulesFuzzer.swift`).
    let some = full.languageSystems.first.map { Array($0.features.keys.sorted().prefix(3)) }
    #expect(face.layoutRules(.gsub, features: Set(some ?? [])).lookups.count == full.lookups.count)
    // Every feature: the full read.
    let all = Set(full.languageSystems.flatMap(\.features.keys))
    #expect(face.layoutRules(.gsub, features: all).lookups == full.lookups)
  }

  /// A source asked for one feature after another (what the proofs do, face by face) answers
  /// each as a fresh read of that feature would, but for the lookups read before, which stay;
  /// asked for everything, it answers the full read.
  @Test func aSourceAnswersEachFeatureAsAFreshReadDoes() throws {
    let face = try HarfBuzzFace(file: TestFonts.fixtures + "/Layout/LayoutRules.ttf")
    for table in LayoutTable.allCases {
      let full = face.layoutRules(table)
      let source = face.layoutRuleSource(table)
      var asked: [LayoutLookup?] = Array(repeating: nil, count: full.lookups.count)
      for tag in Set(full.languageSystems.flatMap(\.features.keys)).sorted() {
        let fresh = face.layoutRules(table, features: [tag])
        let answer = source.rules(features: [tag])
        #expect(answer.languageSystems == fresh.languageSystems)
        #expect(answer.lookups.count == fresh.lookups.count)
        for (index, lookup) in fresh.lookups.enumerated() where lookup.rules != .empty {
          #expect(answer.lookups[index] == lookup, "\(table) \(tag) lookup \(index)")
          asked[index] = lookup
        }
        for (index, lookup) in answer.lookups.enumerated() {
          // Nothing is read that no feature asked so far needs.
          #expect(lookup.rules == .empty || asked[index] != nil, "\(table) lookup \(index)")
        }
      }
      #expect(source.rules(features: nil).lookups == full.lookups)
    }
  }

  /// A damaged table read for some features: each truncation and each random damage is read
  /// or reported, never a trap; a lookup that a context rule calls again (or that calls
  /// itself) is read once.
  @Test func damagedTablesReadForSomeFeatures() throws {
    let face = try HarfBuzzFace(file: TestFonts.fixtures + "/Layout/LayoutRules.ttf")
    let gdef = face.withTable("GDEF") { Array($0) }
    var generator = SeededGenerator(seed: 3)
    for table in LayoutTable.allCases {
      let original = face.withTable(table.rawValue) { Array($0) }
      func read(_ bytes: [UInt8]) -> LayoutRules {
        bytes.withUnsafeBytes { b in
          gdef.withUnsafeBytes { g in
            LayoutRules.read(
              table, b, gdef: g, glyphCount: 18, features: ["calt", "kern", "mark", "liga"])
          }
        }
      }
      for length in 0..<original.count { _ = read(Array(original.prefix(length))) }
      for _ in 0..<200 {
        var bytes = original
        for _ in 0..<6 {
          bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(
            truncatingIfNeeded: generator.next())
        }
        let rules = read(bytes)
        #expect(rules.lookups.count <= 65535)
      }
    }
  }
}
