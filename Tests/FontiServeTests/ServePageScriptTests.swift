import BrowserSupport
import Foundation
import Testing

@testable import FontiServe

/// The page's script, as built into the binary, parses: checked by Node (`node --check`) where
/// it is installed, as on CI, else by Chromium's own parser (DevTools' `Runtime.compileScript`).
/// A syntax error in `ServePage.js` would otherwise show only as a page that never loads.
@Suite(.enabled(if: ScriptParser.find() != nil, "neither node nor chromium is installed"))
struct ServePageScriptTests {
  @Test func theScriptParses() throws {
    let parser = try #require(ScriptParser.find())
    let problem = try parser.problem(ServePage.script)
    #expect(problem == nil, "\(parser): \(problem ?? "")")
  }

  /// The check above fails on a script that does not parse.
  @Test func aSyntaxErrorIsFound() throws {
    let parser = try #require(ScriptParser.find())
    let broken = ServePage.script.replacingOccurrences(
      of: "function buildControls() {", with: "function buildControls() {{")
    #expect(broken != ServePage.script)
    #expect(try parser.problem(broken) != nil, "\(parser) took a script that does not parse")
  }
}

/// A JavaScript parser: Node, else headless Chromium.
enum ScriptParser: CustomStringConvertible {
  case node(String)
  case chromium(Chromium)

  static func find() -> ScriptParser? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/node") {
      return .node("\(folder)/node")
    }
    return Chromium.find().map(ScriptParser.chromium)
  }

  var description: String {
    switch self {
    case .node(let path): "node (\(path))"
    case .chromium(let chromium): "chromium (\(chromium.executable))"
    }
  }

  /// Why `script` does not parse, or nil when it does.
  func problem(_ script: String) throws -> String? {
    switch self {
    case .node(let path): try Self.node(path, script)
    case .chromium(let chromium): try Self.chromium(chromium, script)
    }
  }

  /// `node --check -`: the script on standard input, parsed, never run.
  private static func node(_ path: String, _ script: String) throws -> String? {
    let node = Process()
    node.executableURL = URL(fileURLWithPath: path)
    node.arguments = ["--check", "-"]
    let input = Pipe()
    let errors = Pipe()
    node.standardInput = input
    node.standardError = errors
    node.standardOutput = FileHandle.nullDevice
    try node.run()
    try input.fileHandleForWriting.write(contentsOf: Data(script.utf8))
    try input.fileHandleForWriting.close()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    node.waitUntilExit()
    return node.terminationStatus == 0 ? nil : String(decoding: said, as: UTF8.self)
  }

  private static func chromium(_ chromium: Chromium, _ script: String) throws -> String? {
    let browser = try DevTools.launch(chromium: chromium)
    defer { browser.close() }
    let page = try browser.newPage(url: "about:blank")
    let compiled = try page.send(
      "Runtime.compileScript",
      ["expression": script, "sourceURL": "ServePage.js", "persistScript": false])
    guard let details = compiled["exceptionDetails"] as? [String: Any] else { return nil }
    let exception = (details["exception"] as? [String: Any])?["description"] as? String
    return exception ?? "\(details)"
  }
}
