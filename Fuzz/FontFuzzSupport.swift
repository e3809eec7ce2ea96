import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The font fuzzers' input as the tool meets a font: a file. fontconfig, FreeType and HarfBuzz
/// read fonts from files, so each input is written to a file of its own (a fresh name each
/// time: a library may still map the last one) in a private folder, and removed after.
enum FuzzFont {
  static let folder: String = {
    var template = Array((NSTemporaryDirectory() + "/fonti-fuzz-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { fuzzFailure("cannot make a temporary folder") }
    return String(cString: made)
  }()
  nonisolated(unsafe) static var count = 0

  /// Calls `body` with the path of a file holding the input's bytes.
  static func withFile(_ data: UnsafePointer<UInt8>, _ size: Int, _ body: (String) -> Void) {
    count += 1
    let path = folder + "/input-\(count).ttf"
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard FileManager.default.createFile(atPath: path, contents: bytes) else {
      fuzzFailure("cannot write \(path)")
    }
    defer { unlink(path) }
    body(path)
  }
}

func fuzzFailure(_ message: String) -> Never {
  fputs(message + "\n", stderr)
  abort()
}
