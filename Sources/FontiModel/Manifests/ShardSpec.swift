import Foundation

/// One part of a job spread over several CI machines: shard `index` of `total` (1-based, as
/// `run --shard K/N` writes it).
public struct ShardSpec: Sendable, Hashable, Codable, CustomStringConvertible {
  public var index: Int
  public var total: Int

  /// The most shards a job is spread over.
  public static let maximumTotal = 1000

  public init?(index: Int, total: Int) {
    guard total >= 1, total <= ShardSpec.maximumTotal, index >= 1, index <= total else {
      return nil
    }
    self.index = index
    self.total = total
  }

  public var description: String { "\(index)/\(total)" }

  /// `K/N` with 1 ≤ K ≤ N ≤ 1000, plain decimal digits, or nil.
  public static func parse(_ text: String) -> ShardSpec? {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let k = decimal(parts[0]), let n = decimal(parts[1]) else {
      return nil
    }
    return ShardSpec(index: k, total: n)
  }

  package static func decimal(_ s: Substring) -> Int? {
    guard !s.isEmpty, s.count <= 4, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      return nil
    }
    return Int(s)
  }
}
