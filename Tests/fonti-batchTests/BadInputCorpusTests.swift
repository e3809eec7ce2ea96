import Foundation
import Testing

/// Runs every case of `BadInputCorpus` through the built binary in its own sandbox and checks
/// the exit code, the diagnostics, what exists afterwards, and the promises that hold for every
/// input: no crash, trap or stack trace, no signal, no control characters on the terminal, no
/// temporary file left behind, and no file written outside the sandbox.
struct BadInputCorpusTests {
  @Test func theCorpusHasAtLeastSixtyCases() {
    let cases = BadInputCorpus.all
    #expect(cases.count >= 60, "only \(cases.count) cases")
    let names = cases.map(\.name)
    #expect(Set(names).count == names.count, "case names must be unique")
  }

  @Test(.timeLimit(.minutes(2)), arguments: BadInputCorpus.all)
  func badInput(_ input: BadInput) throws {
    let box = try CLISandbox("fonti-corpus")
    for (path, content) in input.files {
      switch content {
      case .text(let text): try box.write(path, text)
      case .bytes(let bytes): try box.write(path, Data(bytes))
      case .folder:
        try FileManager.default.createDirectory(
          atPath: box.path(path), withIntermediateDirectories: true)
      case .font(let name): try box.write(path, try Repository.font(name))
      case .truncatedFont(let name, let count):
        try box.write(path, try Repository.font(name).prefix(count))
      case .renamedFont(let name, let from, let to):
        try box.write(path, try FontBytes.renamingFamily(Repository.font(name), from: from, to: to))
      }
    }
    let before = Dictionary(
      uniqueKeysWithValues: input.unchanged.map { ($0, box.read($0)) })
    let outside = box.list(box.root)

    let result = try box.run(input.arguments, environment: input.environment)

    #expect(!result.signalled, "\(input.name): killed by a signal\n\(result)")
    #expect(result.status == input.status, "\(input.name)\n\(result)")
    for crash in [
      "Fatal error", "Stack dump", "Illegal instruction", "Segmentation fault",
      "Current stack trace", "backtrace", "Backtracing", "Program crashed", "Thread 0",
    ] {
      #expect(!result.stderr.contains(crash), "\(input.name): \(crash)\n\(result)")
    }
    for text in input.stderr {
      #expect(result.stderr.contains(text), "\(input.name): stderr lacks '\(text)'\n\(result)")
    }
    for text in input.stdout {
      #expect(result.stdout.contains(text), "\(input.name): stdout lacks '\(text)'\n\(result)")
    }
    // Errors are located diagnostics or plain ones, always with the tool's prefix.
    if input.status == 2, !input.stderr.isEmpty {
      #expect(result.stderr.hasPrefix("fonti-batch: error: "), "\(input.name)\n\(result)")
    }
    // However long the input, the terminal gets a few lines per problem, not the input back.
    #expect(result.stderr.utf8.count < 16_384, "\(input.name): \(result.stderr.utf8.count) bytes")
    // Nothing a font or a job says reaches the terminal as a control character.
    for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
      let control = text.unicodeScalars.first { s in
        (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
      }
      #expect(
        control == nil,
        "\(input.name): \(stream) carries U+\(control.map { String($0.value, radix: 16) } ?? "")")
    }
    for path in input.exists {
      #expect(
        FileManager.default.fileExists(atPath: box.path(path)), "\(input.name): \(path) missing")
    }
    for path in input.absent {
      #expect(
        !FileManager.default.fileExists(atPath: box.path(path)),
        "\(input.name): \(path) should not exist")
    }
    for (path, bytes) in before {
      #expect(box.read(path) == bytes, "\(input.name): \(path) was changed")
    }
    // Nothing appears beside the working folder (the sandbox's root holds only our own files).
    let added = Set(box.list(box.root)).subtracting(outside).filter {
      !$0.hasPrefix("stdout-") && !$0.hasPrefix("stderr-")
    }
    #expect(added.isEmpty, "\(input.name): wrote outside the working folder: \(added)")
    let leftovers = try temporaryFiles(under: box.root)
    #expect(leftovers.isEmpty, "\(input.name): temporary files left: \(leftovers)")
  }

  /// `.fonti-tmp-*` files anywhere below `folder`.
  func temporaryFiles(under folder: String) throws -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    var found: [String] = []
    while let path = walker.nextObject() as? String {
      if (path as NSString).lastPathComponent.hasPrefix(".fonti-tmp-") { found.append(path) }
    }
    return found
  }
}
