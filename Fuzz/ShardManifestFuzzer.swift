import Foundation

@testable import FontiModel
@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's entry point for the shard manifest reader (`shard.json`, read by `merge` from
/// folders that CI machines hand over: hostile input, whose paths merge copies files from).
///
/// Linked against the job model and support targets (see `Fuzz/fuzz.sh`).
/// Any input may be refused; the only failures are a crash, a trap, a sanitizer report, a
/// leak, a timeout, or a broken promise checked here: an accepted manifest is shard K of N with
/// 1 ≤ K ≤ N ≤ 1000, every file it lists is a plain relative `specimens/NAME.png` or
/// `pairings/NAME.png`, and what it writes reads back as the same manifest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShardManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  guard case .success(let manifest) = ShardManifest.decode(bytes) else { return 0 }
  guard let spec = manifest.spec, spec.index >= 1, spec.index <= spec.total, spec.total <= 1000
  else {
    fuzzFailure("a manifest of shard \(manifest.shard)/\(manifest.shards) was accepted")
  }
  let paths = manifest.families.flatMap { $0.files.map(\.path) } + manifest.pairings.map(\.file)
  for path in paths {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count != 2 || !(parts[0] == "specimens" || parts[0] == "pairings")
      || parts[1].hasPrefix(".") || !path.hasSuffix(".png")
      || path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    {
      fuzzFailure("a shard manifest may have '\(path)' copied")
    }
  }
  guard let encoded = try? manifest.encoded() else {
    fuzzFailure("a shard manifest that was read cannot be written")
  }
  guard case .success(let again) = ShardManifest.decode(encoded) else {
    fuzzFailure(
      "a shard manifest it wrote does not read back:\n" + String(decoding: encoded, as: UTF8.self))
  }
  if again != manifest { fuzzFailure("a shard manifest reads back different") }
  return 0
}

func fuzzFailure(_ message: String) -> Never {
  fputs(message + "\n", stderr)
  abort()
}
