import Foundation

/// `manifest.json`: everything a run produced, with what each output was made from, so an
/// unchanged re-run can skip it. Shape as SPEC.md; `inputs` fingerprints are this tool's
/// addition.
public struct RunManifest: Codable, Sendable, Equatable {
  public struct File: Codable, Sendable, Equatable {
    public var path: String
    public var sha256: String
    /// SHA-256 of everything the file was made from (tool, settings, text, font files).
    public var inputs: String?

    public init(path: String, sha256: String, inputs: String?) {
      self.path = path
      self.sha256 = sha256
      self.inputs = inputs
    }
  }

  public struct Family: Codable, Sendable, Equatable {
    public var family: String
    public var slug: String
    public var custom: Bool
    public var saved: Bool
    public var styles: [String]
    public var bold: Bool
    public var italic: Bool
    public var missingGlyphs: Int
    public var warnings: [String]
    public var files: [File]
    /// Why the family failed, when it did (no file is listed then).
    public var error: String?
  }

  public struct Pairing: Codable, Sendable, Equatable {
    public var heading: String
    public var body: String
    public var file: String
    public var sha256: String
    public var inputs: String?
  }

  public struct Catalogue: Codable, Sendable, Equatable {
    public var file: String
    public var pages: Int
    public var sha256: String
    public var inputs: String?
  }

  public struct Counts: Codable, Sendable, Equatable {
    public var families: Int
    public var rendered: Int
    public var skipped: Int
    public var failed: Int
    public var warnings: Int
  }

  public var version: Int = 1
  public var tool: String = FontiVersion.tool
  public var title: String
  public var families: [Family]
  public var pairings: [Pairing]
  public var catalogues: [Catalogue]
  public var counts: Counts
  public var durationSeconds: Double

  /// Pretty, sorted keys: diffable and the same bytes for the same content.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(self)
    data.append(0x0A)
    return data
  }

  /// The previous run's manifest, or nil when there is none or it cannot be read (then
  /// everything is rendered again; the manifest is ours to rewrite, not user data).
  public static func load(_ path: String) -> RunManifest? {
    guard let data = FileManager.default.contents(atPath: path),
      let manifest = try? JSONDecoder().decode(RunManifest.self, from: data), manifest.version == 1
    else { return nil }
    return manifest
  }
}
