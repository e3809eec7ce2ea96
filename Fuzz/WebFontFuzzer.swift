import Foundation

@testable import FontiText

/// libFuzzer's entry point for WOFF and WOFF2: the header and table directory checks
/// (`WebFont.checkWOFF`, `checkWOFF2`), FreeType's decoding, the repair of a rebuilt loca and
/// the check of the decoded sfnt (`WebFont.decode`), all in memory (the cache is not written).
///
/// Linked against the support, model and text targets and FreeType (see `Fuzz/fuzz.sh`). Any
/// input may be refused; the only failures are a crash, a trap, a sanitizer report, a timeout,
/// or a broken promise checked here: what is accepted is an sfnt within the size limit whose
/// every table lies inside it, and whose loca, when rebuilt from a WOFF2, ends inside glyf.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // Half the inputs as the other format, so both decoders see every mutation.
  if size >= 4, size % 2 == 1, WebFont.flavor(ofHead: bytes) != nil {
    bytes[3] = bytes[3] == UInt8(ascii: "2") ? UInt8(ascii: "F") : UInt8(ascii: "2")
  }
  // Most inputs with their header's length made the input's, so that mutations reach FreeType
  // (a length that is not the file's is refused before it).
  if size >= 12, size % 4 != 0 {
    WebFont.put(UInt32(size), into: &bytes, at: 8)
  }
  _ = WebFont.checkWOFF(bytes)
  _ = WebFont.checkWOFF2(bytes)
  guard let sfnt = try? WebFont.decode(bytes) else { return 0 }
  if sfnt.count > WebFont.sizeLimit { fuzzFailure("a decoded font over the limit") }
  if let problem = WebFont.checkSFNT(sfnt) { fuzzFailure("a decoded font that \(problem)") }
  // WOFF keeps loca as the file has it; only a rebuilt WOFF2 loca is repaired.
  if WebFont.flavor(ofHead: bytes) == .woff2, let loca = WebFont.table(sfnt, "loca"),
    let glyf = WebFont.table(sfnt, "glyf"),
    let head = WebFont.table(sfnt, "head"), head.length >= 54,
    let format = WebFont.u16(sfnt, head.offset + 50), loca.length >= 4
  {
    let end =
      format == 0
      ? (WebFont.u16(sfnt, loca.offset + loca.length - 2) ?? 0) * 2
      : Int(WebFont.u32(sfnt, loca.offset + loca.length - 4) ?? 0)
    if (format == 0 || format == 1) && end > glyf.length && glyf.length / 2 <= 0xFFFF {
      fuzzFailure("a decoded loca that ends past glyf (\(end) > \(glyf.length))")
    }
  }
  return 0
}

func fuzzFailure(_ message: String) -> Never {
  fputs(message + "\n", stderr)
  abort()
}
