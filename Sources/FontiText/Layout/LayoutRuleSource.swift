/// A face's GSUB or GPOS read lookup by lookup, as features are asked for: each lookup is read
/// once, however many features use it or call it from a context rule. The proofs ask for one
/// feature at a time, dozens of times a face; a whole table read costs more than all of those.
///
/// Asked for features, it answers what `LayoutRules.read` with those features would, but for
/// lookups read for features asked before, which are there too rather than `.empty`. Each
/// answer has the whole read budget for the lookups it reads.
///
/// Not Sendable: make one per face on the thread that reads.
package final class LayoutRuleSource {
  private let table: LayoutTable
  /// The table's bytes, then GDEF's: copies, so that they outlive the face's blobs.
  private let storage: UnsafeMutableRawBufferPointer
  private var reader: LayoutReader
  private let header: LayoutHeader
  /// The lookups read so far, by index.
  private var known: [LayoutLookup?] = []

  /// A source of `table` from its `bytes`, for a face of `glyphCount` glyphs whose GDEF is
  /// `gdef` (empty: none), at the normalized variation `coordinates` (none: the default
  /// instance), as `LayoutRules.read` takes them.
  package init(
    _ table: LayoutTable, _ bytes: UnsafeRawBufferPointer, gdef: UnsafeRawBufferPointer,
    glyphCount: Int, coordinates: [Int] = []
  ) {
    self.table = table
    storage = .allocate(byteCount: max(1, bytes.count + gdef.count), alignment: 16)
    let tableCopy = UnsafeMutableRawBufferPointer(rebasing: storage[0..<bytes.count])
    let gdefCopy = UnsafeMutableRawBufferPointer(
      rebasing: storage[bytes.count..<(bytes.count + gdef.count)])
    tableCopy.copyMemory(from: bytes)
    gdefCopy.copyMemory(from: gdef)
    reader = LayoutReader(
      bytes: TableBytes(UnsafeRawBufferPointer(tableCopy)),
      gdef: TableBytes(UnsafeRawBufferPointer(gdefCopy)), glyphCount: glyphCount,
      coordinates: coordinates)
    reader.definitions = reader.readDefinitions()
    header = reader.readHeader()
  }

  deinit { storage.deallocate() }

  /// The table's rules for `features` (nil: all): their lookups and those their context rules
  /// call, with every lookup read before; the others `.empty`.
  package func rules(features: Set<String>?) -> LayoutRules {
    reader.budget = LayoutRules.readLimit
    return reader.rules(table, header, only: features.map(header.lookups(of:)), known: &known)
  }
}
