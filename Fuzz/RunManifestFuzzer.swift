import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's entry point for the previous run's manifest reader (`manifest.json`, read back
/// by every incremental run, and hostile input: a run may remove the files it lists).
///
/// Compiled into one module with the run manifest's sources (see `Fuzz/fuzz.sh`). Any input
/// may be refused (nil: everything is drawn again); the only failures are a crash, a trap, a
/// sanitizer report, a leak, a timeout, or a broken promise checked here: a path that may be
/// removed is plain, relative and stays in the output folder, and a manifest that is read
/// writes bytes that read back as the same manifest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRunManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  guard let manifest = RunManifest.decode(bytes) else { return 0 }
  for (path, _) in manifest.outputs where RunManifest.isOwnOutputPath(path) {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    if path.hasPrefix("/") || parts.contains("..") || parts.contains("") || parts.contains(".")
      || path.unicodeScalars.contains(where: { $0.value < 0x20 })
    {
      fuzzFailure("a manifest may have '\(path)' removed")
    }
  }
  guard let encoded = try? manifest.encoded() else {
    fuzzFailure("a manifest that was read cannot be written")
  }
  guard let again = RunManifest.decode(encoded) else {
    fuzzFailure(
      "a manifest it wrote does not read back:\n" + String(decoding: encoded, as: UTF8.self))
  }
  if again != manifest { fuzzFailure("a manifest reads back different") }
  return 0
}

func fuzzFailure(_ message: String) -> Never {
  fputs(message + "\n", stderr)
  abort()
}
