import Foundation

@testable import FontiModel
@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's entry point for the favourites manifest reader (`favourites.json`, user data
/// that any editor or program may have damaged).
///
/// Linked against the job model and support targets (see `Fuzz/fuzz.sh`). Any input may be
/// refused with a diagnostic; the only failures are a crash, a trap, a sanitizer report, a
/// leak, a timeout, or a broken promise checked here: a refusal points at a line and column
/// that exist, and a manifest that is read writes bytes that read back as the same manifest,
/// before and after the changes `saved` and `run` make.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFavouritesManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  let manifest: FavouritesManifest
  do {
    manifest = try FavouritesManifest.decode(bytes, file: "favourites.json")
  } catch {
    _ = DiagnosticPrinter(colour: false).format(error)
    if let mark = error.mark, mark.line < 1 || mark.column < 1 {
      fuzzFailure("bad mark \(mark) for: \(error.message)")
    }
    return 0
  }
  roundTrip(manifest)
  var changed = manifest
  let now = Date(timeIntervalSince1970: 1_700_000_000)
  changed.add(
    manifest.saved.prefix(2).map { FavouritesManifest.Addition(family: $0.family.uppercased()) }
      + [FavouritesManifest.Addition(family: "Fuzz Sans", specimen: "specimens/fuzz-sans.png")],
    at: now)
  changed.setSpecimens(Dictionary(manifest.families.map { ($0, "specimens/x.png") }) { a, _ in a })
  changed.remove(Array(manifest.families.suffix(1)))
  roundTrip(changed)
  return 0
}

/// Encoding and decoding again gives the same manifest.
func roundTrip(_ manifest: FavouritesManifest) {
  let encoded = manifest.encoded()
  guard let again = try? FavouritesManifest.decode(encoded, file: "again.json") else {
    fuzzFailure(
      "a manifest it wrote does not read back:\n" + String(decoding: encoded, as: UTF8.self))
  }
  if again != manifest { fuzzFailure("a manifest reads back different") }
  if again.encoded() != encoded { fuzzFailure("a manifest writes different bytes the second time") }
}

func fuzzFailure(_ message: String) -> Never {
  fputs(message + "\n", stderr)
  abort()
}
