import FontiSupport
import Foundation

/// `shard.json`: what `run --shard K/N` leaves beside its part of a job (specimens and pairing
/// sheets, no catalogues) so that `merge` can put the whole output together on another machine:
/// the job as it was read (its bytes, decoded again by `merge`, so that catalogues, favourites,
/// manifest and whatever a run draws from its job come out as one run would write them), its
/// fingerprint, the tool, `SOURCE_DATE_EPOCH`, the selection and the favourites every shard
/// resolved, the content fingerprints of the fonts this shard drew with, and this shard's
/// entries of the run manifest (each file with its checksum).
///
/// Hostile input for `merge`: `decode` refuses anything but a version-1 shard manifest whose
/// shard is K of N (1 ≤ K ≤ N ≤ 1000), whose job is within the job file's size limit, and
/// whose every file is a plain relative `specimens/NAME.png` or
/// `pairings/NAME.png`; `merge` then checks that each file stays inside its shard folder once
/// links are resolved.
public struct ShardManifest: Codable, Sendable, Equatable {
  /// What makes a shard's folder a shard's folder.
  public static let fileName = "shard.json"
  public static let kind = "fonti-batch shard"

  public struct RecordedJob: Codable, Sendable, Equatable {
    /// The job file as named on the command line (diagnostics), `<stdin>` for standard input.
    public var path: String
    /// The absolute folder its relative paths (`fonts:`) resolve against.
    public var directory: String
    /// The job file's text, exactly as read.
    public var text: String
    /// SHA-256 of `text`: shards of one job have the same.
    public var fingerprint: String

    package init(path: String, directory: String, text: String, fingerprint: String) {
      self.path = path
      self.directory = directory
      self.text = text
      self.fingerprint = fingerprint
    }
  }

  public var kind: String = ShardManifest.kind
  public var version: Int = 1
  public var shard: Int
  public var shards: Int
  public var tool: String
  public var job: RecordedJob
  /// `SOURCE_DATE_EPOCH` as the shard used it (nil: the clock).
  public var sourceDateEpoch: Int?
  /// The selected families, sorted by name: every shard resolves the whole selection.
  public var selection: [String]
  /// The favourites the run drew hearts from, most recent first.
  public var saved: [String]
  /// Content fingerprints (`FontFingerprints`) of every family this shard drew with: its
  /// families, their partners, both families of its pairing sheets, the label face.
  public var fonts: [String: String]
  /// What the partition was balanced by (`timings` or `font-sizes`).
  public var weights: String
  /// The partition's fingerprint (`ShardPart.partition`): every shard of one split has the same.
  public var partition: String
  /// This shard's families and pairing sheets as its `manifest.json` lists them.
  public var families: [RunManifest.Family]
  public var pairings: [RunManifest.Pairing]

  public var spec: ShardSpec? { ShardSpec(index: shard, total: shards) }

  public func encoded() throws -> Data {
    try JSONEncoder(.pretty).encodeDocument(self)
  }

  /// The largest shard manifest read (it embeds a job of at most 1 MiB and a manifest's
  /// entries).
  public static let readLimit = 256 << 20
  /// The job file's own limit.
  static let jobLimit = 1 << 20

  /// Why these bytes are not a shard manifest this tool can merge, or the manifest.
  public static func decode(_ data: Data) -> Result<ShardManifest, ShardManifestError> {
    func refuse(_ why: String) -> Result<ShardManifest, ShardManifestError> {
      .failure(ShardManifestError(reason: why))
    }
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return refuse("it is not a JSON object")
    }
    guard object["kind"] as? String == kind else {
      return refuse("it does not say it is a \(kind) (\"kind\")")
    }
    guard (object["version"] as? Int) == 1 else {
      return refuse("its version is not 1 (a newer fonti-batch wrote it?)")
    }
    let manifest: ShardManifest
    do {
      manifest = try JSONDecoder().decode(ShardManifest.self, from: data)
    } catch {
      return refuse("it lacks a field or has one of the wrong type (\(describe(error)))")
    }
    // Again on what was decoded: with a key given twice, JSONSerialization keeps one value and
    // JSONDecoder the other, and what is merged is what JSONDecoder read.
    guard manifest.kind == kind, manifest.version == 1 else {
      return refuse("it gives \"kind\" or \"version\" twice, differently")
    }
    guard manifest.spec != nil else {
      return refuse(
        "its shard \(manifest.shard)/\(manifest.shards) is not K of N "
          + "(1 ≤ K ≤ N ≤ \(ShardSpec.maximumTotal))")
    }
    guard manifest.job.text.utf8.count <= jobLimit else {
      return refuse("its job is larger than a job file may be (1 MiB)")
    }
    guard manifest.job.directory.hasPrefix("/"), !manifest.job.directory.contains("\0") else {
      return refuse("its job folder is not an absolute path")
    }
    for f in manifest.families {
      guard f.files.count <= 16 else { return refuse("family entries list too many files") }
      // The specimen, then (with the gallery) its thumbnail.
      for (i, file) in f.files.enumerated()
      where !isShardOutput(file.path, in: i == 0 ? "specimens" : OutputLayout.thumbs) {
        return refuse(
          "it lists '\(Sanitize.terminal(file.path))', which is not a "
            + (i == 0 ? "specimen" : "thumbnail"))
      }
    }
    for p in manifest.pairings where !isShardOutput(p.file, in: "pairings") {
      return refuse("it lists '\(Sanitize.terminal(p.file))', which is not a pairing sheet")
    }
    return .success(manifest)
  }

  /// A plain relative `FOLDER/NAME.png`, as `run` names its PNGs.
  static func isShardOutput(_ path: String, in folder: String) -> Bool {
    RunManifest.isOwnOutputPath(path) && path.hasPrefix(folder + "/") && path.hasSuffix(".png")
  }

  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "unreadable" }
    let path: [any CodingKey]
    switch error {
    case .keyNotFound(let key, let c): path = c.codingPath + [key]
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
      path = c.codingPath
    @unknown default: path = []
    }
    let names = path.map { $0.intValue.map { "\($0)" } ?? $0.stringValue }
    return names.isEmpty ? "at the top" : Sanitize.terminal(names.joined(separator: "."))
  }

  /// A shard's manifest of this kind and version.
  package init(
    shard: Int, shards: Int, tool: String, job: RecordedJob, sourceDateEpoch: Int?,
    selection: [String], saved: [String], fonts: [String: String], weights: String,
    partition: String, families: [RunManifest.Family], pairings: [RunManifest.Pairing]
  ) {
    self.shard = shard
    self.shards = shards
    self.tool = tool
    self.job = job
    self.sourceDateEpoch = sourceDateEpoch
    self.selection = selection
    self.saved = saved
    self.fonts = fonts
    self.weights = weights
    self.partition = partition
    self.families = families
    self.pairings = pairings
  }
}

/// Why a file is not a shard manifest.
public struct ShardManifestError: Error, Sendable, CustomStringConvertible {
  public var reason: String
  public var description: String { reason }
}
