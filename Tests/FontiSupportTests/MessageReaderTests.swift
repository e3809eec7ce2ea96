import Foundation
import Testing

@testable import FontiSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The worker protocol's messages over a real pipe: lines, attachments larger than a pipe
/// holds, and messages that arrive a piece at a time.
@Suite struct MessageReaderTests {
  /// A pipe's two ends, closed when the test is done.
  final class Pipe {
    let read: Int32
    private(set) var write: Int32

    init() throws {
      var fds: [Int32] = [-1, -1]
      try #require(pipe(&fds) == 0)
      read = fds[0]
      write = fds[1]
    }

    func closeWrite() {
      if write >= 0 { close(write) }
      write = -1
    }

    /// Writes raw bytes, as a worker's pipe may deliver them.
    func send(_ text: String) {
      #expect(FileSystem.writeAll(write, Array(text.utf8)) == 0)
    }

    deinit {
      close(read)
      closeWrite()
    }
  }

  @Test func linesAndAttachmentsComeOutWholeAndInOrder() throws {
    let pipe = try Pipe()
    let image = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let sent = [
      WorkerMessage(line: Data(#"{"ok":true}"#.utf8)),
      WorkerMessage(line: Data(#"{"ok":true,"card":1}"#.utf8), attachment: image),
      WorkerMessage(line: Data("+12 is a line too".utf8)),
    ]
    // The attachment is three pipes' worth: the writer waits for the reader. It has a write
    // end of its own, whose closing is the end of the file.
    let write = dup(pipe.write)
    pipe.closeWrite()
    Thread {
      for message in sent { _ = message.write(to: write) }
      close(write)
    }.start()
    var reader = MessageReader()
    for message in sent {
      let next = reader.receive(from: pipe.read)
      let received = try #require(next)
      #expect(received.line == message.line)
      #expect(received.attachment == message.attachment)
    }
    let end = reader.receive(from: pipe.read)
    #expect(end == nil)
  }

  @Test func aMessageWaitsUntilItsAttachmentIsWhole() throws {
    let pipe = try Pipe()
    var reader = MessageReader()
    for piece in ["+5", "\n{\"a\"", ":1}\nhel"] {
      pipe.send(piece)
      let progress = reader.fill(from: pipe.read)
      let message = reader.next()
      #expect(progress == .received)
      #expect(message == nil, "\(piece)")
    }
    pipe.send("lo{\"b\":2}\n")
    let progress = reader.fill(from: pipe.read)
    let messages = [reader.next(), reader.next(), reader.next()]
    #expect(progress == .received)
    #expect(messages[0]?.line == Data(#"{"a":1}"#.utf8))
    #expect(messages[0]?.attachment == Array("hello".utf8))
    #expect(messages[1]?.line == Data(#"{"b":2}"#.utf8))
    #expect(messages[1]?.attachment.isEmpty == true)
    #expect(messages[2] == nil)
  }

  @Test func theLastLineNeedsNoNewline() throws {
    let pipe = try Pipe()
    pipe.send("first\nlast")
    pipe.closeWrite()
    var reader = MessageReader()
    let lines = (0..<3).map { _ in reader.receive(from: pipe.read)?.line }
    #expect(lines == [Data("first".utf8), Data("last".utf8), nil])
    #expect(reader.fill(from: pipe.read) == .ended)
  }
}
