import Foundation
import Testing

/// The layers the build holds (docs/architecture.md), checked on every source file: each
/// target imports only the modules `Package.swift` lists for it, Swift targets only ones below
/// it, C modules only where the layer table below allows them, always as `internal import` and
/// only in a wrapper of an `Interop/` folder, and the command line no C module at all.
/// SwiftPM's own check (`--explicit-target-dependency-import-check error`, in `make test`) lets
/// an import through a dependency's dependency; this scan does not.
@Suite struct InteropBoundaryTests {
  /// The library layers, bottom to top: a target may depend only on layers before it (Draw
  /// and Diff are siblings: neither reaches the other).
  static let layers: [String: Int] = [
    "FontiSupport": 0, "FontiModel": 1, "FontiText": 2, "FontiFonts": 3, "FontiDraw": 4,
    "FontiDiff": 4, "FontiEngine": 5, "FontiServe": 6, "fonti-batch": 7,
  ]

  /// The C modules each library target may import; a target not named imports none.
  static let cModulesAllowed: [String: Set<String>] = [
    "FontiSupport": ["CNettle", "CSystem"],
    "FontiModel": ["CYAML"],
    "FontiText": [
      "CCairo", "CPango", "CFontconfig", "CHarfBuzz", "CPNG", "CQPDF", "CPangoMatch", "CFreeType",
    ],
    "FontiServe": ["CGio", "CSoup"],
  ]

  /// Modules of the platform and the toolchain, allowed anywhere.
  static let platform: Set<String> = [
    "Foundation", "FoundationXML", "Glibc", "Dispatch", "Synchronization",
  ]

  /// The package's C modules: the folders under Sources/ with a module map or a C `include/`.
  static func cModules(_ sources: String) throws -> Set<String> {
    let fm = FileManager.default
    return Set(
      try fm.contentsOfDirectory(atPath: sources).filter { name in
        fm.fileExists(atPath: "\(sources)/\(name)/module.modulemap")
          || fm.fileExists(atPath: "\(sources)/\(name)/include")
      })
  }

  /// One import of a Swift source: the module, and the words written before `import`.
  struct Import: Equatable {
    var module: String
    var attributes: [String]
  }

  /// Every import of a Swift source, whatever the access level written before `import` (lines
  /// of a multi-line string literal are text, not imports).
  static func imports(_ text: String) -> [Import] {
    var inString = false
    return text.split(separator: "\n").compactMap { line in
      let quotes = line.components(separatedBy: "\"\"\"").count - 1
      defer { if quotes % 2 == 1 { inString.toggle() } }
      guard !inString, quotes == 0 else { return nil }
      let words = line.split(separator: " ").map(String.init)
      guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
        words[..<at].allSatisfy({ $0.hasPrefix("@") || Self.levels.contains($0) })
      else { return nil }
      return Import(
        module: String(words[at + 1].prefix { $0 != "." }), attributes: Array(words[..<at]))
    }
  }

  static let levels: Set<String> = [
    "internal", "public", "package", "private", "fileprivate", "@_implementationOnly",
    "@preconcurrency", "@testable",
  ]

  /// Each target of a manifest written as `Package.swift` is (`.target(`, `.testTarget(`,
  /// `.executableTarget(`, each with `name:` first), with the names in its `dependencies:`.
  static func targets(ofManifest text: String) -> [String: (test: Bool, dependencies: Set<String>)]
  {
    var out: [String: (Bool, Set<String>)] = [:]
    let starts = [".target(", ".testTarget(", ".executableTarget("]
    var rest = Substring(text)
    while let start = starts.compactMap({ rest.range(of: $0) }).min(by: {
      $0.lowerBound < $1.lowerBound
    }) {
      let test = rest[start].hasPrefix(".testTarget(")
      rest = rest[start.upperBound...]
      // The call ends where its parentheses close.
      var depth = 1
      var end = rest.startIndex
      while end < rest.endIndex, depth > 0 {
        if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
        end = rest.index(after: end)
      }
      let call = rest[..<end]
      guard let name = Self.quoted(after: "name:", in: call) else { continue }
      var dependencies = Set<String>()
      if let list = call.range(of: "dependencies:"),
        let open = call[list.upperBound...].firstIndex(of: "["),
        let close = call[open...].firstIndex(of: "]")
      {
        dependencies = Set(
          call[call.index(after: open)..<close].split(separator: ",").compactMap {
            Self.quoted(after: "", in: $0)
          })
      }
      out[name] = (test, dependencies)
    }
    return out.mapValues { (test: $0.0, dependencies: $0.1) }
  }

  /// The first string literal after `label` in `text`.
  static func quoted(after label: String, in text: Substring) -> String? {
    guard let at = label.isEmpty ? text.startIndex : text.range(of: label)?.upperBound,
      let open = text[at...].firstIndex(of: "\""),
      let close = text[text.index(after: open)...].firstIndex(of: "\"")
    else { return nil }
    return String(text[text.index(after: open)..<close])
  }

  /// What is wrong with the imports of one target's files (`files`: path and text), by the
  /// rules above; empty when nothing is.
  static func problems(
    target: String, test: Bool, dependencies: Set<String>, files: [(String, String)],
    cModules: Set<String>
  ) -> [String] {
    var out: [String] = []
    let layer = layers[test ? String(target.dropLast("Tests".count)) : target]
    for dependency in dependencies {
      if let below = layers[dependency], let layer, below >= layer, !test {
        out.append("\(target) depends on \(dependency), which is not below it")
      }
      if let below = layers[dependency], let layer, below > layer, test {
        out.append("\(target) depends on \(dependency), above the target it tests")
      }
      if cModules.contains(dependency), !test,
        !(cModulesAllowed[target] ?? []).contains(dependency)
      {
        out.append("\(target) depends on C module \(dependency), not one of its layer's")
      }
    }
    for (path, text) in files {
      for found in Self.imports(text) where !platform.contains(found.module) {
        if found.module == "Testing", test || target.hasSuffix("Support") { continue }
        if !dependencies.contains(found.module) {
          out.append("\(path) imports \(found.module), which \(target) does not depend on")
        }
        if cModules.contains(found.module), !test, !found.attributes.contains("internal") {
          out.append("\(path) imports C module \(found.module) without `internal import`")
        }
        if cModules.contains(found.module), !test, !path.split(separator: "/").contains("Interop") {
          out.append("\(path) imports C module \(found.module) outside an Interop/ folder")
        }
      }
    }
    return out.sorted()
  }

  @Test func everyTargetImportsOnlyWhatItsLayerAllows() throws {
    let root = Repository.root
    let manifest = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
    let targets = Self.targets(ofManifest: manifest)
    let cModules = try Self.cModules(root + "/Sources")
    #expect(cModules.isSuperset(of: ["CCairo", "CPango", "CYAML", "CHarfBuzz", "CPangoMatch"]))
    // The walk sees every layer, and the CLI reaches no C module even through its manifest.
    #expect(Set(Self.layers.keys).isSubset(of: Set(targets.keys)), "\(targets.keys.sorted())")
    #expect(targets["fonti-batch"]?.dependencies.isDisjoint(with: cModules) == true)
    #expect(!targets.keys.contains("FontiCore"))
    var problems: [String] = []
    var files = 0
    for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
      let folder =
        name == "serve-browser-bench"
        ? "Benchmarks/ServeBrowser"
        : target.test || ["TestSupport", "FontTestSupport", "BrowserSupport"].contains(name)
          ? "Tests/" + name : "Sources/" + name
      guard !cModules.contains(name) else { continue }
      let walker = FileManager.default.enumerator(atPath: root + "/" + folder)
      var sources: [(String, String)] = []
      while let relative = walker?.nextObject() as? String {
        guard relative.hasSuffix(".swift") else { continue }
        let path = folder + "/" + relative
        sources.append((path, try String(contentsOfFile: root + "/" + path, encoding: .utf8)))
      }
      files += sources.count
      problems += Self.problems(
        target: name, test: target.test, dependencies: target.dependencies, files: sources,
        cModules: cModules)
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    // The walk read the tree: the rules are not passing on an empty one.
    #expect(files >= 300, "\(files)")
  }

  @Test func aWrongWayImportIsFound() {
    let manifest = """
      .target(name: "FontiModel", dependencies: ["FontiSupport", "CYAML"]),
      .target(
        name: "FontiDraw",
        dependencies: ["FontiModel", "FontiEngine", "CCairo"]),
      .testTarget(name: "FontiModelTests", dependencies: ["FontiModel", "FontiDraw"]),
      """
    let targets = Self.targets(ofManifest: manifest)
    #expect(targets["FontiDraw"]?.dependencies == ["FontiModel", "FontiEngine", "CCairo"])
    #expect(targets["FontiModelTests"]?.test == true)
    let c: Set<String> = ["CYAML", "CCairo"]
    #expect(
      Self.problems(
        target: "FontiDraw", test: false, dependencies: ["FontiModel", "FontiEngine", "CCairo"],
        files: [("Draw.swift", "import FontiEngine\nimport CCairo\nimport FontiFonts\n")],
        cModules: c)
        == [
          "FontiDraw depends on C module CCairo, not one of its layer's",
          "FontiDraw depends on FontiEngine, which is not below it",
          "Draw.swift imports C module CCairo outside an Interop/ folder",
          "Draw.swift imports C module CCairo without `internal import`",
          "Draw.swift imports FontiFonts, which FontiDraw does not depend on",
        ].sorted())
    #expect(
      Self.problems(
        target: "FontiModelTests", test: true, dependencies: ["FontiModel", "FontiDraw"],
        files: [], cModules: c) == [
          "FontiModelTests depends on FontiDraw, above the target it tests"
        ])
    #expect(
      Self.problems(
        target: "FontiModel", test: false, dependencies: ["FontiSupport", "CYAML"],
        files: [("Job/Interop/YAML.swift", "internal import CYAML\n")], cModules: c
      )
      .isEmpty)
  }

  @Test func theImportReaderSeesEveryForm() {
    let text = [
      "internal import CYAML",
      "@_implementationOnly import CHarfBuzz",
      "import Glibc",
      "import CHarfBuzz.hb",
      "// import CYAML in a comment is not an import",
      "let s = \"import CYAML\"",
      "let t = \"\"\"",
      "  import CYAML in a string",
      "  \"\"\"",
    ].joined(separator: "\n")
    #expect(
      Self.imports(text).map(\.module) == ["CYAML", "CHarfBuzz", "Glibc", "CHarfBuzz"])
    #expect(Self.imports(text)[0].attributes == ["internal"])
  }
}
