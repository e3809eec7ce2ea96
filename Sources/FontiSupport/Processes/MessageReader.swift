import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The one reader of the worker protocol, at both of its ends: a worker reads its parent's
/// requests with it, and a parent its workers' answers. A message is one line (JSON, ended by a
/// newline). Bytes go in as the pipe gives them (`fill`) and whole lines come out (`next`), so
/// a parent that waits on many pipes at once reads each only when it has something.
package struct MessageReader {
  /// What one read of the pipe gave.
  package enum Progress {
    /// Bytes, now waiting in the reader.
    case received
    /// Nothing: a signal came first; read again.
    case interrupted
    /// End of file (or a broken pipe): the writer has gone.
    case ended
  }

  /// Bytes read and not yet taken, in `storage[start..<end]`; the rest of `storage` is room
  /// for the next read.
  private var storage: [UInt8] = []
  private var start = 0
  private var end = 0

  /// What one read asks for at least: a pipe's whole buffer.
  private static let chunk = 65536

  package init() {}

  /// Reads once from `fd`, blocking until something comes when `fd` blocks.
  package mutating func fill(from fd: Int32) -> Progress {
    makeRoom(Self.chunk)
    let n = storage.withUnsafeMutableBytes { raw -> Int in
      guard let base = raw.baseAddress else { return -1 }
      return read(fd, base + end, raw.count - end)
    }
    if n > 0 {
      end += n
      return .received
    }
    return n < 0 && errno == EINTR ? .interrupted : .ended
  }

  /// The next whole line read (without its newline), if there is one.
  package mutating func next() -> Data? {
    guard let newline = storage[start..<end].firstIndex(of: 0x0A) else { return nil }
    let line = Data(storage[start..<newline])
    take(upTo: newline + 1)
    return line
  }

  /// The next line from `fd`, reading (and blocking) until one is whole. At the end of the
  /// file, what is left without a newline is the last line; nil once nothing is left.
  package mutating func receive(from fd: Int32) -> Data? {
    while true {
      if let line = next() { return line }
      if fill(from: fd) == .ended {
        guard start < end else { return nil }
        let rest = Data(storage[start..<end])
        take(upTo: end)
        return rest
      }
    }
  }

  /// Marks the bytes before `index` taken.
  private mutating func take(upTo index: Int) {
    start = index
    if start == end {
      start = 0
      end = 0
    }
  }

  /// Makes room for at least `count` more bytes after those waiting: moves the waiting bytes
  /// to the front, then grows the storage if that is not enough.
  private mutating func makeRoom(_ count: Int) {
    guard storage.count - end < count else { return }
    if start > 0 {
      let waiting = end - start
      storage.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return }
        memmove(base, base + start, waiting)
      }
      start = 0
      end = waiting
    }
    if storage.count - end < count {
      storage.append(contentsOf: repeatElement(0, count: end + count - storage.count))
    }
  }
}
