import FontiFonts
import FontiModel
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An output another process drew (`merge`: a shard), to be copied into place instead of drawn.
public struct PremadeOutput: Sendable {
  /// The file as the shard wrote it (absolute, checked to lie inside its shard folder).
  public var source: String
  public var sha256: String
  /// What the shard's manifest recorded about it, as a worker would have reported it.
  public var result: WorkResult

  /// The largest PNG copied (8192² pixels compress to far less).
  static let readLimit = 1 << 30

  /// Copies the file to `path` (temporary name, then renamed), checking its bytes against the
  /// checksum once more: what the worker's result would have been.
  func place(at path: String) -> WorkResult {
    placeOrKeep(at: path).result
  }

  /// As `place(at:)`, and whether the file was already there with these bytes (then it is
  /// left as it is: a merge again into the same folder rewrites nothing).
  func placeOrKeep(at path: String) -> (result: WorkResult, same: Bool) {
    guard result.ok else { return (result, false) }  // failed in its shard: fails here too
    if let onDisk = try? AtomicFile.read(path, limit: PremadeOutput.readLimit),
      SHA256.hex(onDisk) == sha256
    {
      var result = self.result
      result.ok = true
      result.sha256 = sha256
      return (result, true)
    }
    return (placed(at: path), false)
  }

  private func placed(at path: String) -> WorkResult {
    let data: Data?
    do {
      data = try AtomicFile.read(source, limit: PremadeOutput.readLimit)
    } catch {
      return .failure("cannot read '\(source)': \(error.message)")
    }
    guard let data, SHA256.hex(data) == sha256 else {
      return .failure("'\(source)' changed while it was merged")
    }
    do {
      try AtomicFile.write(data, to: path)
    } catch {
      return .failure(error.message, writeFailure: error.message)
    }
    var result = self.result
    result.ok = true
    result.sha256 = sha256
    return result
  }
}

/// What `merge` hands the job run: the favourites the shards drew hearts from and every file
/// they drew, by path relative to the output folder.
public struct MergeInputs: Sendable {
  public struct Output: Sendable {
    /// The family (specimens) or `heading + body` (pairing sheets) the shard drew it for.
    public var subject: String
    /// "shard 2/3 ('ci/2')", for messages.
    public var shard: String
    public var premade: PremadeOutput
  }

  public var saved: [String]
  public var outputs: [String: Output]

  /// Checks that the shards drew exactly what `plan` makes here, for the same families and with
  /// the same favourites, and has every specimen and pairing sheet taken from them. Throws every
  /// mismatch at once, before anything is written.
  func check(_ plan: inout BatchPlan, saved here: [String]) throws(DiagnosticError) {
    var problems: [Diagnostic] = []
    if here != saved {
      problems.append(
        .error(
          "the favourites differ: the shards drew hearts for "
            + (saved.isEmpty ? "none" : Sanitize.list(saved)) + ", here they are "
            + (here.isEmpty ? "none" : Sanitize.list(here)),
          hint: "merge into a folder whose favourites manifest is the one the shards had "
            + "(usually none)"))
    }
    var expected: [String: String] = [:]
    for s in plan.specimens { expected[s.file] = s.family.name }
    for p in plan.pairings { expected[p.file] = "\(p.heading.name) + \(p.body.name)" }
    for file in expected.keys.sorted() {
      guard let output = outputs[file] else {
        problems.append(
          .error(
            "no shard drew '\(Sanitize.terminal(file))' ("
              + "\(Sanitize.terminal(expected[file] ?? ""))), which this job makes"))
        continue
      }
      if output.subject != expected[file] {
        problems.append(
          .error(
            "\(output.shard) drew '\(Sanitize.terminal(file))' for "
              + "'\(Sanitize.terminal(output.subject))', here it is "
              + "'\(Sanitize.terminal(expected[file] ?? ""))'"))
      }
    }
    for s in plan.specimens {
      // A thumbnail comes with its specimen, when the shards wrote the gallery's.
      if let thumb = s.thumbnail, outputs[thumb.file] != nil {
        expected[thumb.file] = s.family.name
      }
    }
    for file in outputs.keys.sorted() where expected[file] == nil {
      problems.append(
        .error(
          "\(outputs[file]?.shard ?? "a shard") drew '\(Sanitize.terminal(file))', which this "
            + "job does not make here"))
    }
    if !problems.isEmpty { throw DiagnosticError(problems) }
    // Each is "drawn" again: copied in, and listed as the shard reported it.
    for i in plan.specimens.indices {
      plan.specimens[i].action = .render
      if plan.specimens[i].thumbnail != nil { plan.specimens[i].thumbnail?.action = .withSpecimen }
    }
    for i in plan.pairings.indices { plan.pairings[i].action = .render }
  }

  /// The outputs by absolute path in `output`.
  func premade(in output: String) -> [String: PremadeOutput] {
    Dictionary(
      outputs.map { (output + "/" + $0.key, $0.value.premade) }, uniquingKeysWith: { a, _ in a })
  }
}

/// `fonti-batch merge SHARD_DIR... -o DIR`: reads and checks the shards' manifests, decodes the
/// job they recorded and resolves it against this machine's fonts, and hands `JobRun` a request
/// that copies the shards' files in and draws the rest (catalogues, favourites, manifest) as
/// one run would. Refuses — every problem at once, nothing written — shards of other jobs,
/// tools, fonts or `SOURCE_DATE_EPOCH`, a missing or repeated shard, a folder that is no shard,
/// a file that would leave its shard folder or is not what its shard recorded.
public enum ShardMerge {
  /// How many problems with one shard's files are named before the rest are counted: a shard
  /// whose files are all gone would otherwise print a line for each of thousands.
  static let fileProblemsShown = 5

  /// A shard folder read: as given, its real path, its manifest.
  typealias ReadShard = (folder: String, root: String, manifest: ShardManifest)

  /// The request for `JobRun`, or every reason to refuse. `environment` gives
  /// `SOURCE_DATE_EPOCH`, which must be the shards' when it is set.
  public static func request(
    shards folders: [String], output: String, library: FontLibrary? = .standard,
    configFile: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(DiagnosticError) -> JobRun.Request {
    var problems: [Diagnostic] = []
    let shards = readShards(folders, output: output, &problems)
    guard let first = shards.first else {
      if problems.isEmpty { problems.append(.error("no shard folder is given")) }
      throw DiagnosticError(problems)
    }
    checkAgreement(shards, &problems)
    checkSplit(shards, given: folders.count, &problems)
    checkEpoch(first, environment: environment, &problems)
    let outputs = collectOutputs(shards, &problems)
    if !problems.isEmpty { throw DiagnosticError(problems) }

    let resolved = try resolveJob(first, output: output, library: library, configFile: configFile)
    checkFonts(resolved, shards, &problems)
    if !problems.isEmpty { throw DiagnosticError(problems) }

    var request = JobRun.Request(.resolved(resolved))
    request.library = library
    request.configFile = configFile
    request.merge = MergeInputs(saved: first.manifest.saved, outputs: outputs)
    return request
  }

  /// How messages name a shard.
  static func name(_ s: ReadShard) -> String {
    "shard \(s.manifest.shard)/\(s.manifest.shards) ('\(Sanitize.terminal(s.folder))')"
  }

  /// The shards that can be read, each folder once; the output folder must be none of them.
  private static func readShards(
    _ folders: [String], output: String, _ problems: inout [Diagnostic]
  ) -> [ReadShard] {
    var shards: [ReadShard] = []
    for folder in folders {
      switch read(folder) {
      case .success(let (root, manifest)): shards.append((folder, root, manifest))
      case .failure(let problem): problems.append(problem)
      }
    }
    // Same folder twice is one shard twice: said once, and the folder counts once below
    // (where it would be "shard 1/2 is given twice" again).
    var byRoot: [String: String] = [:]
    shards = shards.filter { s in
      if let other = byRoot[s.root] {
        problems.append(
          .error(
            "'\(Sanitize.terminal(s.folder))' is given twice (also as "
              + "'\(Sanitize.terminal(other))')"))
        return false
      }
      byRoot[s.root] = s.folder
      return true
    }
    // Merging into a shard's own folder would replace its files and remove its shard.json.
    if let target = FileSystem.realPath(output), let shard = byRoot[target] {
      problems.append(
        .error(
          "the output folder '\(Sanitize.terminal(output))' is the shard folder "
            + "'\(Sanitize.terminal(shard))': merging into it would replace the shard's files",
          hint: "merge into another folder with -o"))
    }
    return shards
  }

  /// Every shard ran the same job with the same tool, clock and selection as the first, split
  /// the same way.
  private static func checkAgreement(_ shards: [ReadShard], _ problems: inout [Diagnostic]) {
    guard let first = shards.first else { return }
    for s in shards where s.manifest.tool != FontiVersion.tool {
      problems.append(
        .error(
          "\(name(s)) was drawn by \(Sanitize.terminal(s.manifest.tool)); this is "
            + "\(FontiVersion.tool)", hint: "run every shard and merge with the same fonti-batch"))
    }
    for s in shards
    where SHA256.hex(Array(s.manifest.job.text.utf8)) != s.manifest.job.fingerprint {
      problems.append(
        .error("\(name(s)): its job does not match its job fingerprint (the file was edited)"))
    }
    for s in shards.dropFirst() {
      if s.manifest.job.fingerprint != first.manifest.job.fingerprint {
        problems.append(
          .error(
            "\(name(s)) ran another job than \(name(first)) (job fingerprints "
              + "\(s.manifest.job.fingerprint.prefix(12)) and "
              + "\(first.manifest.job.fingerprint.prefix(12)))"))
      }
      if s.manifest.sourceDateEpoch != first.manifest.sourceDateEpoch {
        problems.append(
          .error(
            "\(name(s)) ran with SOURCE_DATE_EPOCH \(epoch(s.manifest.sourceDateEpoch)), "
              + "\(name(first)) with \(epoch(first.manifest.sourceDateEpoch))"))
      }
      if s.manifest.selection != first.manifest.selection {
        problems.append(
          .error(
            "\(name(s)) selected other families than \(name(first)) "
              + "(\(difference(s.manifest.selection, first.manifest.selection)))",
            hint: "every shard and the merge need the same fonts installed"))
      }
    }
    if totals(shards) == 1 {
      for s in shards.dropFirst()
      where s.manifest.partition != first.manifest.partition
        && s.manifest.job.fingerprint == first.manifest.job.fingerprint
        && s.manifest.selection == first.manifest.selection
      {
        problems.append(
          .error(
            "\(name(s)) split the job otherwise than \(name(first)) (balanced by "
              + "\(s.manifest.weights) and \(first.manifest.weights) with other weights)",
            hint: "give every shard the same --shard-weights MANIFEST (or none)"))
      }
    }
  }

  /// K of N: one total, each K once, none missing. `given` folders were named, some perhaps
  /// unreadable.
  private static func checkSplit(_ shards: [ReadShard], given: Int, _ problems: inout [Diagnostic])
  {
    let totals = Set(shards.map(\.manifest.shards))
    if totals.count > 1 {
      problems.append(
        .error(
          "the shards are parts of different splits: "
            + shards.map { name($0) }.joined(separator: ", ")))
    } else if let total = totals.first {
      var seen: [Int: String] = [:]
      for s in shards {
        if let other = seen[s.manifest.shard] {
          problems.append(
            .error(
              "shard \(s.manifest.shard)/\(total) is given twice: '\(Sanitize.terminal(other))' "
                + "and '\(Sanitize.terminal(s.folder))'"))
        }
        seen[s.manifest.shard] = s.folder
      }
      let missing = (1...total).filter { seen[$0] == nil }
      // A folder that could not be read (named above) may be the missing shard.
      let unread = given - shards.count
      if !missing.isEmpty {
        problems.append(
          .error(
            "shard\(missing.count == 1 ? "" : "s") "
              + missing.prefix(10).map { "\($0)/\(total)" }.joined(separator: ", ")
              + (missing.count > 10 ? " and \(missing.count - 10) more" : "")
              + " \(missing.count == 1 ? "is" : "are") missing"
              + (unread > 0
                ? " (or \(missing.count == 1 ? "is" : "are") among the folders that cannot be read)"
                : ""),
            hint: "give every shard's folder: merge SHARD_DIR... -o DIR"))
      }
    }
  }

  /// `SOURCE_DATE_EPOCH` here, when set, is the shards'.
  private static func checkEpoch(
    _ first: ReadShard, environment: [String: String], _ problems: inout [Diagnostic]
  ) {
    if let problem = Timestamp.sourceDateEpochProblem(environment: environment) {
      problems.append(.error(problem))
    } else if let here = Timestamp.sourceDateEpoch(environment: environment),
      Int(here.timeIntervalSince1970) != first.manifest.sourceDateEpoch
    {
      problems.append(
        .error(
          "SOURCE_DATE_EPOCH is \(Int(here.timeIntervalSince1970)) here, the shards ran with "
            + epoch(first.manifest.sourceDateEpoch),
          hint: "merge with the shards' SOURCE_DATE_EPOCH, or without it"))
    }
  }

  /// Each file: inside its shard, a regular file, what the shard recorded. A shard given twice
  /// is named above; its files are not compared with themselves again. A shard's file problems
  /// are named up to `fileProblemsShown`, then counted.
  private static func collectOutputs(_ shards: [ReadShard], _ problems: inout [Diagnostic])
    -> [String: MergeInputs.Output]
  {
    var outputs: [String: MergeInputs.Output] = [:]
    var owner: [String: String] = [:]
    var compared = Set<Int>()  // shard numbers: the same folder twice is its number twice
    for s in shards {
      guard compared.insert(s.manifest.shard).inserted else { continue }
      var fileProblems: [Diagnostic] = []
      var files: [(path: String, sha: String, subject: String, result: WorkResult)] = []
      for f in s.manifest.families {
        var result = WorkResult(ok: f.error == nil, error: f.error)
        result.missingGlyphs = f.missingGlyphs
        result.warnings = f.warnings
        result.seconds = f.seconds
        result.proofs = f.proofs
        if f.error != nil {
          // A family that failed in its shard fails here too, as it would have in one run.
          outputs["specimens/\(f.slug).png"] = .init(
            subject: f.family, shard: name(s),
            premade: PremadeOutput(source: "", sha256: "", result: result))
          continue
        }
        // The specimen as its worker reported it; its thumbnail (the gallery's) as a plain file.
        for (i, file) in f.files.prefix(2).enumerated() {
          files.append((file.path, file.sha256, f.family, i == 0 ? result : WorkResult(ok: true)))
        }
      }
      for p in s.manifest.pairings {
        var result = WorkResult(ok: true)
        result.warnings = p.warnings ?? []
        result.seconds = p.seconds
        files.append((p.file, p.sha256, "\(p.heading) + \(p.body)", result))
      }
      for file in files {
        if let other = owner[file.path] {
          fileProblems.append(
            .error(
              "'\(Sanitize.terminal(file.path))' is drawn by two shards: \(other) and \(name(s))"))
          continue
        }
        owner[file.path] = name(s)
        switch check(file.path, sha256: file.sha, in: s.root) {
        case .failure(let why):
          fileProblems.append(.error("\(name(s)): '\(Sanitize.terminal(file.path))' \(why)"))
        case .success(let source):
          outputs[file.path] = .init(
            subject: file.subject, shard: name(s),
            premade: PremadeOutput(source: source, sha256: file.sha, result: file.result))
        }
      }
      problems += fileProblems.prefix(ShardMerge.fileProblemsShown)
      let more = fileProblems.count - ShardMerge.fileProblemsShown
      if more > 0 {
        problems.append(
          .error("\(name(s)): \(more) more file\(more == 1 ? "" : "s") like these"))
      }
    }
    return outputs
  }

  /// The job as the shards read it, resolved here, writing into `output`.
  private static func resolveJob(
    _ first: ReadShard, output: String, library: FontLibrary?, configFile: String?
  ) throws(DiagnosticError) -> ResolvedJob {
    let recorded = first.manifest.job
    var job: Job
    do {
      job = try JobDecoder.decode(
        bytes: Array(recorded.text.utf8), path: recorded.path, directory: recorded.directory,
        languages: Languages.table
      ).job
    } catch {
      throw DiagnosticError(
        [.error("the job the shards recorded cannot be read here:")] + error.diagnostics)
    }
    job.output = JobPath.absolute(output)
    if let problem = JobPath.outputFolderProblem(job.output) {
      throw DiagnosticError(.error("output folder '\(Sanitize.terminal(output))' \(problem)"))
    }
    return try ResolvedJob.resolve(job, library: library, configFile: configFile)
  }

  /// The fonts: what this machine has must be what every shard drew with, by content.
  private static func checkFonts(
    _ resolved: ResolvedJob, _ shards: [ReadShard], _ problems: inout [Diagnostic]
  ) {
    guard let first = shards.first else { return }
    let fingerprints = FontFingerprints()
    let selection = resolved.families.map(\.name)
    if selection != first.manifest.selection {
      problems.append(
        .error(
          "this machine selects other families than the shards did "
            + "(\(difference(selection, first.manifest.selection)))",
          hint: "merge on a machine with the same fonts as the shards'"))
    }
    for s in shards {
      var differ: [String] = []
      var absent: [String] = []
      for (family, print) in s.manifest.fonts.sorted(by: { $0.key < $1.key }) {
        guard let here = resolved.catalog.family(named: family), here.name == family else {
          absent.append(family)
          continue
        }
        if fingerprints.family(here) != print { differ.append(family) }
      }
      if !differ.isEmpty {
        problems.append(
          .error(
            "\(name(s)) drew with other fonts than this machine has: "
              + "\(Sanitize.list(differ)) (their files' contents differ)",
            hint: "every shard and the merge need the same fonts"))
      }
      if !absent.isEmpty {
        problems.append(
          .error(
            "\(name(s)) drew with fonts this machine does not have: \(Sanitize.list(absent))",
            hint: "every shard and the merge need the same fonts"))
      }
    }
  }

  /// The shard manifest of `folder` and the folder's real path, or why it is not a shard.
  static func read(_ folder: String) -> Result<(String, ShardManifest), Diagnostic> {
    let shown = Sanitize.terminal(folder)
    var st = stat()
    guard stat(folder, &st) == 0 else {
      return .failure(.error("'\(shown)' is not a shard folder: no such folder"))
    }
    guard st.st_mode & S_IFMT == S_IFDIR, let root = FileSystem.realPath(folder) else {
      return .failure(
        .error(
          "'\(shown)' is not a shard folder: it is a file",
          hint: "a shard folder is the output of 'fonti-batch run --shard K/N'"))
    }
    let path = root + "/" + ShardManifest.fileName
    let data: Data?
    do {
      data = try AtomicFile.read(path, limit: ShardManifest.readLimit)
    } catch {
      return .failure(
        .error("'\(shown)' is not a shard folder: its \(ShardManifest.fileName) \(error.message)"))
    }
    guard let data else {
      return .failure(
        .error(
          "'\(shown)' is not a shard folder: it has no \(ShardManifest.fileName)",
          hint: "a shard folder is the output of 'fonti-batch run --shard K/N'"))
    }
    switch ShardManifest.decode(data) {
    case .success(let manifest): return .success((root, manifest))
    case .failure(let why):
      return .failure(
        .error("'\(shown)/\(ShardManifest.fileName)' is not a shard manifest: \(why.reason)"))
    }
  }

  /// `relative` inside the shard folder `root` (links resolved), a regular file with checksum
  /// `sha256`: its absolute path, or what is wrong with it.
  static func check(_ relative: String, sha256: String, in root: String) -> Result<
    String, ShardFileError
  > {
    let path = root + "/" + relative
    guard let folder = FileSystem.realPath(FileSystem.folder(of: path)) else {
      return .failure(ShardFileError("is missing, or its folder cannot be read"))
    }
    guard folder == root || folder.hasPrefix(root + "/") else {
      return .failure(ShardFileError("leaves the shard folder"))
    }
    var st = stat()
    guard lstat(path, &st) == 0 else { return .failure(ShardFileError("is missing")) }
    guard st.st_mode & S_IFMT == S_IFREG else {
      return .failure(ShardFileError("is not a regular file (a link or a folder)"))
    }
    let data: Data?
    do {
      data = try AtomicFile.read(path, limit: PremadeOutput.readLimit)
    } catch {
      return .failure(ShardFileError(error.message))
    }
    guard let data, SHA256.hex(data) == sha256 else {
      return .failure(ShardFileError("is not the file the shard recorded (its checksum differs)"))
    }
    return .success(path)
  }

  struct ShardFileError: Error, CustomStringConvertible {
    var why: String
    init(_ why: String) { self.why = why }
    var description: String { why }
  }

  static func totals(_ shards: [ReadShard]) -> Int {
    Set(shards.map(\.manifest.shards)).count
  }

  static func epoch(_ value: Int?) -> String { value.map { "\($0)" } ?? "none (the clock)" }

  static func difference(_ a: [String], _ b: [String]) -> String {
    let (sa, sb) = (Set(a), Set(b))
    let onlyA = a.filter { !sb.contains($0) }
    let onlyB = b.filter { !sa.contains($0) }
    var parts: [String] = []
    if !onlyA.isEmpty { parts.append("only the first: " + Sanitize.list(onlyA)) }
    if !onlyB.isEmpty { parts.append("only the second: " + Sanitize.list(onlyB)) }
    return parts.isEmpty ? "in another order" : parts.joined(separator: "; ")
  }
}
