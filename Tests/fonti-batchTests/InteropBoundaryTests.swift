import Foundation
import Testing

/// C stays at the edge: only a Swift file inside an `Interop/` folder imports a C module (a
/// system-library or C target of the package). Glibc is the platform's, allowed anywhere.
@Suite struct InteropBoundaryTests {
  /// The package's C modules: the folders under Sources/ with a module map or a C `include/`.
  static func cModules(_ sources: String) throws -> Set<String> {
    let fm = FileManager.default
    return Set(
      try fm.contentsOfDirectory(atPath: sources).filter { name in
        fm.fileExists(atPath: "\(sources)/\(name)/module.modulemap")
          || fm.fileExists(atPath: "\(sources)/\(name)/include")
      })
  }

  /// The C modules a Swift source imports, whatever the access level written before `import`.
  static func imports(_ text: String, of modules: Set<String>) -> [String] {
    text.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ").map(String.init)
      guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
        words[..<at].allSatisfy({ $0.hasPrefix("@") || Self.levels.contains($0) })
      else { return nil }
      let module = String(words[at + 1].prefix { $0 != "." })
      return modules.contains(module) ? module : nil
    }
  }

  static let levels: Set<String> = [
    "internal", "public", "package", "private", "fileprivate", "@_implementationOnly",
    "@preconcurrency", "@testable",
  ]

  @Test func onlyInteropFilesImportCModules() throws {
    let sources = Repository.root + "/Sources"
    let modules = try Self.cModules(sources)
    #expect(modules.isSuperset(of: ["CCairo", "CPango", "CYAML", "CHarfBuzz", "CPangoMatch"]))
    #expect(!modules.contains("FontiCore"))
    var offenders: [String] = []
    var interopUsers = 0
    let walker = FileManager.default.enumerator(atPath: sources)
    while let relative = walker?.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let text = try String(contentsOfFile: "\(sources)/\(relative)", encoding: .utf8)
      let found = Self.imports(text, of: modules)
      if relative.split(separator: "/").contains("Interop") {
        if !found.isEmpty { interopUsers += 1 }
      } else if !found.isEmpty {
        offenders.append("\(relative): \(found.joined(separator: ", "))")
      }
    }
    #expect(offenders.isEmpty, "C imported outside Interop/: \(offenders)")
    // The walk saw the wrappers: the rule is not passing on an empty tree.
    #expect(interopUsers >= 10, "\(interopUsers)")
  }

  @Test func theImportReaderSeesEveryForm() {
    let modules: Set<String> = ["CYAML", "CHarfBuzz"]
    let text = """
      internal import CYAML
      @_implementationOnly import CHarfBuzz
      import Glibc
      import CHarfBuzz.hb
      // import CYAML in a comment is not an import
      let s = "import CYAML"
      """
    #expect(Self.imports(text, of: modules) == ["CYAML", "CHarfBuzz", "CHarfBuzz"])
  }
}
