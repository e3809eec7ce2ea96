import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One message of the worker protocol: a line (JSON, without its newline), and the bytes
/// attached after it (a drawn PNG; most messages have none). On the pipe, a message with an
/// attachment is a line `+COUNT` (the attachment's length in decimal), then its line, then the
/// attachment itself: the reader knows how much to read before it reads the line, and the
/// bytes are never escaped into the JSON.
package struct WorkerMessage: Sendable {
  package var line: Data
  package var attachment: [UInt8]

  package init(line: Data, attachment: [UInt8] = []) {
    self.line = line
    self.attachment = attachment
  }

  /// Writes the message to `fd`: 0, or the system's error of the write that failed.
  package func write(to fd: Int32) -> Int32 {
    var head = Data()
    if !attachment.isEmpty { head.append(contentsOf: Array("+\(attachment.count)\n".utf8)) }
    head.append(line)
    head.append(0x0A)
    let code = FileSystem.writeAll(fd, head)
    guard code == 0, !attachment.isEmpty else { return code }
    return FileSystem.writeAll(fd, attachment)
  }
}

/// The one reader of the worker protocol, at both of its ends: a worker reads its parent's
/// requests with it, and a parent its workers' answers (`WorkerMessage`). Bytes go in as the
/// pipe gives them (`fill`) and whole messages come out (`next`), so a parent that waits on
/// many pipes at once reads each only when it has something.
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
  /// The length of the message begun at `start`, once its attachment's length is known and
  /// until it is whole: the next read makes room for all of it.
  private var awaited = 0

  /// What one read asks for at least: a pipe's whole buffer.
  private static let chunk = 65536
  /// Storage grown past this for a large attachment is let go once it is empty.
  private static let kept = 1 << 20

  package init() {}

  /// Reads once from `fd`, blocking until something comes when `fd` blocks.
  package mutating func fill(from fd: Int32) -> Progress {
    makeRoom(max(Self.chunk, awaited - (end - start)))
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

  /// The next whole message read, if there is one.
  package mutating func next() -> WorkerMessage? {
    guard var lineEnd = newline(from: start) else { return nil }
    var lineStart = start
    var attached = 0
    if let count = attachmentLength(storage[start..<lineEnd]) {
      guard let ending = newline(from: lineEnd + 1) else { return nil }
      lineStart = lineEnd + 1
      lineEnd = ending
      attached = count
    }
    let messageEnd = lineEnd + 1 + attached
    guard messageEnd <= end else {
      awaited = messageEnd - start
      return nil
    }
    let message = WorkerMessage(
      line: Data(storage[lineStart..<lineEnd]),
      attachment: attached > 0 ? Array(storage[(lineEnd + 1)..<messageEnd]) : [])
    take(upTo: messageEnd)
    return message
  }

  /// The next message from `fd`, reading (and blocking) until one is whole. At the end of the
  /// file, what is left is the last message's line; nil once nothing is left.
  package mutating func receive(from fd: Int32) -> WorkerMessage? {
    while true {
      if let message = next() { return message }
      if fill(from: fd) == .ended {
        guard start < end else { return nil }
        let rest = Data(storage[start..<end])
        take(upTo: end)
        return WorkerMessage(line: rest)
      }
    }
  }

  /// The index of the first newline read at or after `index`.
  private func newline(from index: Int) -> Int? {
    storage[index..<end].firstIndex(of: 0x0A)
  }

  /// The attachment's length when `line` is the line announcing one (`+COUNT`).
  private func attachmentLength(_ line: ArraySlice<UInt8>) -> Int? {
    guard line.first == UInt8(ascii: "+"), line.count > 1, line.count <= 19 else { return nil }
    var count = 0
    for byte in line.dropFirst() {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      count = count * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return count
  }

  /// Marks the bytes before `index` taken.
  private mutating func take(upTo index: Int) {
    start = index
    awaited = 0
    guard start == end else { return }
    start = 0
    end = 0
    if storage.count > Self.kept { storage = [] }
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
