import Foundation

@testable import FontiModel
@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's entry point for the previous run's manifest reader (`manifest.json`, read back
/// by every incremental run, and hostile input: a run may remove the files it lists).
///
/// Linked against the job model and support targets (see `Fuzz/fuzz.sh`). Any input
/// may be refused (nil: everything is drawn again); the only failures are a crash, a trap, a
/// sanitizer report, a leak, a timeout, or a broken promise checked here: a path that may be
/// removed is plain, relative and stays in the output folder (as read without the proofs, which
/// is how a run reads it first); a manifest read whole reads the same without its proofs, but
/// for them; a manifest that is read writes bytes that read back as the same manifest; and the
/// manifest's own JSON coder agrees with Foundation's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRunManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  // What a run reads first, and plans (and removes files) from: the manifest without its
  // proofs. It may read more than the whole reader (proof fields of the wrong type).
  let bare = RunManifest.decode([UInt8](bytes), proofs: false)
  for (path, _) in bare?.outputs ?? [] where RunManifest.isOwnOutputPath(path) {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    if path.hasPrefix("/") || parts.contains("..") || parts.contains("") || parts.contains(".")
      || path.unicodeScalars.contains(where: { $0.value < 0x20 })
    {
      fuzzFailure("a manifest may have '\(path)' removed")
    }
  }
  guard let manifest = RunManifest.decode(bytes) else { return 0 }
  // Read whole, it reads without its proofs too, as the same manifest but for them.
  var stripped = manifest
  for i in stripped.families.indices { stripped.families[i].proofs = FamilyProofReport() }
  guard let bare, bare == stripped else {
    fuzzFailure("a manifest reads differently without its proofs")
  }
  guard let encoded = try? manifest.encoded() else {
    fuzzFailure("a manifest that was read cannot be written")
  }
  guard let again = RunManifest.decode(encoded) else {
    fuzzFailure(
      "a manifest it wrote does not read back:\n" + String(decoding: encoded, as: UTF8.self))
  }
  if again != manifest { fuzzFailure("a manifest reads back different") }
  // The manifest's own coder against Foundation's: what ours reads, Foundation reads the same
  // (ours may refuse more: then everything is drawn again), and ours writes Foundation's bytes.
  guard let theirs = try? JSONDecoder().decode(RunManifest.self, from: bytes) else {
    fuzzFailure("read a manifest that JSONDecoder refuses")
  }
  if theirs != manifest { fuzzFailure("read a manifest differently from JSONDecoder") }
  guard let foundation = try? JSONEncoder(.pretty).encodeDocument(manifest), foundation == encoded
  else {
    fuzzFailure("wrote bytes JSONEncoder does not write")
  }
  return 0
}

func fuzzFailure(_ message: String) -> Never {
  fputs(message + "\n", stderr)
  abort()
}
