@testable import FontiModel
@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's entry point for the job-file loader and decoder.
///
/// Linked against the job model and support targets (see `Fuzz/fuzz.sh`). Any input may be
/// refused with diagnostics; the only failures are a crash, a trap, a sanitizer report, a leak
/// or a timeout. Diagnostics are also formatted, so that the printer sees hostile marks and
/// snippets too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJobDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let printer = DiagnosticPrinter(colour: false)
  let diagnostics: [Diagnostic]
  do {
    let (job, warnings) = try JobDecoder.decode(
      bytes: bytes, path: "fuzz.yaml", directory: FuzzSandbox.folder, languages: fuzzLanguages)
    _ = job.dump()
    diagnostics = warnings
  } catch {
    diagnostics = error.diagnostics
  }
  for d in diagnostics {
    _ = printer.format(d)
    // Every error points into the file it names, at a line that exists.
    if let mark = d.mark, d.file == "fuzz.yaml", mark.line < 1 || mark.column < 1 {
      fputs("bad mark \(mark) for: \(d.message)\n", stderr)
      abort()
    }
  }
  return 0
}

/// A few of fontconfig's language codes (the fuzzer links no fontconfig): enough for the codes
/// of a fuzzed job to be checked, told apart and suggested.
let fuzzLanguages = LanguageCodes(
  codes: ["de", "en", "fr", "pl", "sr", "vi", "zh-tw"], name: { $0 })

/// An empty folder that relative paths in fuzzed jobs resolve against, so that `fonts:` and
/// `output:` entries never reach real files.
enum FuzzSandbox {
  static let folder: String = {
    var template = Array("/tmp/fonti-fuzz-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return "/nonexistent" }
      return String(cString: base)
    }
  }()
}
