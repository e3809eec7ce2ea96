/// The rules of a face's GSUB or GPOS table, read from its bytes (`LayoutReader`): per script
/// and language system the features and their lookups, and each lookup's rules in a form that
/// does not depend on how the table is packed. Two tables whose lookups act alike compare equal
/// whatever their subtables, coverage and class formats, class numbering, extension wrapping or
/// sharing: each lookup keeps only its effect (the first subtable that applies to a glyph wins,
/// as HarfBuzz applies them; a rule no input can reach is dropped).
///
/// Rules are over glyph IDs; the caller maps them to glyph names. Lookups are kept in the
/// table's order (the order they are applied in), and a context rule names the lookups it
/// calls by their index in `lookups`: a font whose lookup list is reordered compares unequal
/// here even where it shapes alike.
package struct LayoutRules: Sendable, Hashable {
  package var table: LayoutTable
  /// Every language system of the script list, by script and language.
  package var languageSystems: [LayoutLanguageSystem]
  /// The lookup list, in order; a lookup that cannot be read is `.unreadable`.
  package var lookups: [LayoutLookup]
  /// What is wrong with the table as a whole (its header, script, feature or lookup list), when
  /// something is: the rest is read as far as it can be.
  package var problem: String?

  /// The lookup indices of feature `tag` in the language system of `script` and `language`
  /// (nil: the script's default), in the order they apply; empty when it has no such feature.
  package func lookupIndices(feature tag: String, script: String, language: String?) -> [Int] {
    languageSystems.first { $0.script == script && $0.language == language }?.features[tag] ?? []
  }

  /// Every feature of every language system with its lookups' rules, in the order they apply:
  /// what two faces are compared by (a lookup no feature uses does not count).
  package var featureRules: [LayoutFeatureKey: [LayoutLookup]] {
    var out: [LayoutFeatureKey: [LayoutLookup]] = [:]
    for system in languageSystems {
      for (tag, indices) in system.features {
        let key = LayoutFeatureKey(script: system.script, language: system.language, feature: tag)
        out[key] = indices.map { $0 < lookups.count ? lookups[$0] : .missing }
      }
    }
    return out
  }
}

/// A feature as one language system lists it.
package struct LayoutFeatureKey: Sendable, Hashable {
  package var script: String
  /// nil: the script's default language system.
  package var language: String?
  package var feature: String

  package init(script: String, language: String?, feature: String) {
    self.script = script
    self.language = language
    self.feature = feature
  }
}

/// One language system: its features, each with the indices of its lookups (features of the same
/// tag merged, as HarfBuzz merges them; sorted, each once).
package struct LayoutLanguageSystem: Sendable, Hashable {
  package var script: String
  /// nil: the script's default language system.
  package var language: String?
  package var features: [String: [Int]]
  /// The tag of the required feature, when the system has one (its lookups are in `features`).
  package var requiredFeature: String?
}

/// One lookup: what it skips, and its rules.
package struct LayoutLookup: Sendable, Hashable {
  /// The lookup flag without its mark attachment type and mark filtering bit, which are
  /// resolved to glyphs below: right to left (1), ignore bases (2), ligatures (4), marks (8).
  package var flags: UInt16
  /// The marks the lookup attends to when its flag names a mark attachment class (the other
  /// marks are skipped): GDEF's glyphs of that class, so that classes numbered otherwise compare
  /// equal.
  package var markAttachmentGlyphs: Set<UInt32>?
  /// The marks the lookup attends to when it names a mark filtering set: the set's glyphs.
  package var markFilteringGlyphs: Set<UInt32>?
  package var rules: LayoutLookupRules

  /// A feature's lookup index past the lookup list.
  package static let missing = LayoutLookup(
    flags: 0, markAttachmentGlyphs: nil, markFilteringGlyphs: nil,
    rules: .unreadable("a lookup index past the lookup list"))
}

/// A lookup's rules by kind; context and chained context lookups are one kind (a context rule
/// is a chained one without backtrack or lookahead). A lookup with no rule that can apply, of
/// any kind, is `.empty`.
package enum LayoutLookupRules: Sendable, Hashable {
  case empty
  /// GSUB 1: glyph → glyph.
  case singleSubstitution([UInt32: UInt32])
  /// GSUB 2: glyph → glyphs (none: the glyph is deleted).
  case multipleSubstitution([UInt32: [UInt32]])
  /// GSUB 3: glyph → its alternates, in order.
  case alternateSubstitution([UInt32: [UInt32]])
  /// GSUB 4: components (the first included) → ligature; only ligatures some input can reach
  /// (one listed after a ligature whose components start it never forms).
  case ligatureSubstitution([[UInt32]: UInt32])
  /// GSUB 5 and 6.
  case contextSubstitution([LayoutContextGroup])
  /// GSUB 8.
  case reverseChainSubstitution([LayoutReverseChainGroup])
  /// GPOS 1: glyph → adjustment (none zero).
  case singlePositioning([UInt32: LayoutValue])
  /// GPOS 2.
  case pairPositioning(LayoutPairAdjustments)
  /// GPOS 3: glyph → its entry and exit anchors.
  case cursivePositioning([UInt32: LayoutCursiveAnchors])
  /// GPOS 4: marks on bases (each base one anchor per class).
  case markToBase([LayoutMarkClass])
  /// GPOS 5: marks on ligatures (each ligature one anchor per component).
  case markToLigature([LayoutMarkClass])
  /// GPOS 6: marks on marks.
  case markToMark([LayoutMarkClass])
  /// GPOS 7 and 8.
  case contextPositioning([LayoutContextGroup])
  /// The lookup cannot be read (damaged, or past the reader's budget): why.
  case unreadable(String)
}

/// Context rules that apply to the same first glyphs: each of `firstGlyphs` tries `rules` in
/// order, and the first that matches applies. The groups of a lookup share no glyph and are
/// sorted by their smallest glyph.
package struct LayoutContextGroup: Sendable, Hashable {
  package var firstGlyphs: Set<UInt32>
  package var rules: [LayoutContextRule]
}

/// One context rule: the glyphs each position may hold, and the lookups applied where it
/// matches.
package struct LayoutContextRule: Sendable, Hashable {
  /// Before the input, nearest first.
  package var backtrack: [Set<UInt32>]
  /// The input after its first glyph (the group's `firstGlyphs`).
  package var input: [Set<UInt32>]
  package var lookahead: [Set<UInt32>]
  package var actions: [LayoutSequenceAction]
}

/// A SequenceLookupRecord: lookup `lookupIndex` applied at input position `sequenceIndex` (0:
/// the first glyph).
package struct LayoutSequenceAction: Sendable, Hashable {
  package var sequenceIndex: Int
  package var lookupIndex: Int
}

/// Reverse chaining rules that apply to the same glyphs: each glyph tries `contexts` in order
/// and becomes its substitute in the first that matches.
package struct LayoutReverseChainGroup: Sendable, Hashable {
  package var contexts: [LayoutReverseChainContext]
  /// Glyph → its substitute in each context, in order.
  package var substitutes: [UInt32: [UInt32]]
}

/// The context of a reverse chaining rule.
package struct LayoutReverseChainContext: Sendable, Hashable {
  /// Before the glyph, nearest first.
  package var backtrack: [Set<UInt32>]
  package var lookahead: [Set<UInt32>]
}

/// A GPOS adjustment in font units at the coordinates read, variation deltas applied (rounded
/// as HarfBuzz rounds them), with the hinting deltas of its Device tables.
package struct LayoutValue: Sendable, Hashable {
  package var xPlacement = 0
  package var yPlacement = 0
  package var xAdvance = 0
  package var yAdvance = 0
  package var xPlacementDevice: LayoutDeviceDeltas?
  package var yPlacementDevice: LayoutDeviceDeltas?
  package var xAdvanceDevice: LayoutDeviceDeltas?
  package var yAdvanceDevice: LayoutDeviceDeltas?

  package init() {}

  /// Moves nothing.
  package var isZero: Bool { self == LayoutValue() }
}

/// A Device table's hinting deltas: pixels per size from `startSize`.
package struct LayoutDeviceDeltas: Sendable, Hashable {
  package var startSize: Int
  package var deltas: [Int]
}

/// An anchor in font units at the coordinates read.
package struct LayoutAnchor: Sendable, Hashable {
  package var x: Int
  package var y: Int
  /// Format 2's contour point.
  package var contourPoint: Int?
  package var xDevice: LayoutDeviceDeltas?
  package var yDevice: LayoutDeviceDeltas?
}

/// GPOS 3: a glyph's anchors.
package struct LayoutCursiveAnchors: Sendable, Hashable {
  package var entry: LayoutAnchor?
  package var exit: LayoutAnchor?
}

/// Marks that attach alike: each mark with its own anchor, onto each of `bases` at the base's
/// anchor (for a ligature, one per component, nil where a component has none; for a base or a
/// mark, one). The classes of a lookup are sorted by their smallest mark; class numbers are
/// not kept (they are the packing's).
package struct LayoutMarkClass: Sendable, Hashable {
  package var marks: [UInt32: LayoutAnchor]
  package var bases: [UInt32: [LayoutAnchor?]]
}

/// GPOS 2 as classes of glyphs: the coarsest classes of first and of second glyphs whose pairs
/// all adjust alike, and the adjustment of each pair of classes that moves something. Pairs
/// listed one by one (format 1) and by class (format 2) give the same classes.
package struct LayoutPairAdjustments: Sendable, Hashable {
  /// Each class sorted, classes sorted by their first glyph.
  package var firstClasses: [[UInt32]]
  package var secondClasses: [[UInt32]]
  /// By (first class, second class) index.
  package var values: [LayoutPairKey: LayoutPairValue]

  /// The adjustment of `first` followed by `second`, nil when the lookup moves neither.
  package func adjustment(first: UInt32, second: UInt32) -> LayoutPairValue? {
    guard let a = firstClasses.firstIndex(where: { $0.contains(first) }),
      let b = secondClasses.firstIndex(where: { $0.contains(second) })
    else { return nil }
    return values[LayoutPairKey(first: a, second: b)]
  }
}

/// A pair of class indices of `LayoutPairAdjustments`.
package struct LayoutPairKey: Sendable, Hashable {
  package var first: Int
  package var second: Int

  package init(first: Int, second: Int) {
    self.first = first
    self.second = second
  }
}

/// The adjustments of a pair's two glyphs.
package struct LayoutPairValue: Sendable, Hashable {
  package var first: LayoutValue
  package var second: LayoutValue

  /// Moves neither glyph.
  package var isZero: Bool { first.isZero && second.isZero }
}

/// What GDEF says of glyphs: classes and sets, as read (glyphs of class 0 left out).
package struct LayoutGlyphDefinitions: Sendable, Hashable {
  /// 1 base, 2 ligature, 3 mark, 4 component.
  package var glyphClasses: [UInt32: Int] = [:]
  package var markAttachmentClasses: [UInt32: Int] = [:]
  package var markGlyphSets: [Set<UInt32>] = []
  /// Whether GDEF has an ItemVariationStore (the deltas of variation device tables).
  package var hasVariationStore = false
  /// What is wrong with the table, when something is.
  package var problem: String?

  package init() {}
}
