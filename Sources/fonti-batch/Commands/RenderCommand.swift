import FontiDraw
import FontiFonts
import FontiModel
import FontiSupport
import Foundation

extension Commands {
  static let render = CommandSpec(
    words: ["render"], arguments: "FAMILY",
    summary: "render one specimen, like the app's full-screen preview + share",
    details: """
      Writes one square PNG of FAMILY: ./<slug>.png, or with -o, the file named, or <slug>.png
      in the folder named (an existing folder, or any path ending in /). --bold and --italic
      use the family's real faces; when a face does not exist the sample stays regular, with a
      warning. --face sets it in the face of that name as fontconfig gives it ('fonti-batch
      families --json' lists them; case, spaces and hyphens do not count), and the footer says
      which of the family's faces it is. The curated "pairs well with" partners that are
      installed are drawn along the bottom, as in a run's specimen. Custom fonts: the imported
      library is always available.
      """,
    minPositionals: 1, maxPositionals: 1,
    options: [
      .value("--text", as: "TEXT", help: "the sample text (default: the built-in pangram)"),
      .value(
        "--size", as: "PT",
        help: "sample size in points, \(Limits.sampleSize.lowerBound.formatted())–"
          + "\(Limits.sampleSize.upperBound.formatted()) (default 48)"),
      .flag("--bold", help: "set the sample in the real bold face"),
      .flag("--italic", help: "set the sample in the real italic face"),
      .value(
        "--face", as: "NAME",
        help: "set the sample in the face of this name, e.g. 'Semibold Italic'"),
      .value("--theme", as: "ink|cream", help: "colour theme (default ink)"),
      .value(
        "--scale", as: Limits.scale.map(String.init).joined(separator: "|"),
        help: "pixel scale of the square (default 1)"),
      .value(
        "--edge", as: "PX",
        help: "side of the square in px before --scale, \(Limits.requestedEdge.lowerBound)–"
          + "\(Limits.requestedEdge.upperBound) (default 1080); the layout scales with it"),
      .value(
        "--variations", as: "AXES",
        help: "coordinates for the sample, e.g. wght=650,wdth=80 (clamped to the family's axes)"),
      .value(
        "--features", as: "FEATURES",
        help: "OpenType features for the sample, e.g. smcp,onum,-liga,cv01=2"),
      .value(
        "--language", as: "TAG", help: "BCP 47 language of the sample (shaping, locl), e.g. sr"),
      .value(
        "-o", "--output", as: "FILE.png|DIR",
        help: "where to write the PNG (a folder: DIR/<slug>.png)"),
    ],
    run: { invocation, console in
      let name = try invocation.family(invocation.positionals[0])
      let text = invocation.value("--text") ?? defaultSampleText
      // As a job's `defaults.text`: blank is empty.
      if text.allSatisfy(\.isWhitespace) {
        throw UsageError(message: "--text is empty", command: invocation.command)
      }
      if let problem = Limits.sampleTextProblem(text) {
        throw UsageError(message: "--text \(problem)", command: invocation.command)
      }
      let size = try invocation.number("--size", default: 48, range: Limits.sampleSize)
      let scales = Double(Limits.scale.lowerBound)...Double(Limits.scale.upperBound)
      let scale = Int(try invocation.number("--scale", default: 1, range: scales, integer: true))
      let edges = Double(Limits.requestedEdge.lowerBound)...Double(Limits.requestedEdge.upperBound)
      let edge = Int(try invocation.number("--edge", default: 1080, range: edges, integer: true))
      if let problem = Limits.pixelsProblem(edge: edge, scale: scale) {
        throw UsageError(message: "--edge × --scale \(problem)", command: invocation.command)
      }
      let theme = try invocation.choice("--theme", default: Theme.ink)
      let settings = try sampleSettings(invocation)
      let (environment, warnings) = try FontEnvironment.load()
      console.report(warnings)
      guard let family = environment.catalog.family(named: name) else {
        throw environment.catalog.notInstalled(name, file: nil, at: nil)
      }
      let faceName = try renderFace(invocation, family: family)
      let slugFile = "\(Slug.make(family.name)).png"
      var output = invocation.value("--output") ?? slugFile
      var isFolder: ObjCBool = false
      // A path ending in '/' is a folder, made (with its parents) when it is missing.
      var create: String?
      if output.hasSuffix("/") {
        if let problem = JobPath.outputFolderProblem(output) {
          throw UsageError(
            message: "--output folder '\(Sanitize.terminal(output))' \(problem)",
            command: invocation.command)
        }
        if !FileManager.default.fileExists(atPath: output) { create = output }
        output += slugFile
      } else if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder),
        isFolder.boolValue
      {
        output += "/" + slugFile
      }
      guard output.lowercased().hasSuffix(".png") else {
        throw UsageError(message: "--output must name a .png file", command: invocation.command)
      }
      // The folder the file goes into is checked before anything is drawn, like a trailing '/'.
      let folder = FileSystem.folder(of: output)
      guard create != nil || FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
        create != nil || isFolder.boolValue
      else {
        throw UsageError(
          message: "--output folder '\(folder)' does not exist", command: invocation.command)
      }
      if !settings.variations.isEmpty || !settings.features.isEmpty {
        // A feature or axis the family lacks, a coordinate outside its range: warned.
        console.report(
          SampleSettingsCheck.warnings(
            settings, offers: SampleSettingsCheck.offers([family], threads: 1)))
      }
      var request = SpecimenRequest(
        family: family, text: text, size: size, theme: theme, edge: edge, scale: scale,
        bold: invocation.has("--bold"), italic: invocation.has("--italic"),
        // The curated "pairs well with" partners that are installed, as a run draws them.
        partners: PairingMap.curated.strip(for: family.name, catalog: environment.catalog),
        sample: settings.isEmpty ? nil : settings)
      request.face = faceName
      if let create { try FileSystem.createFolder(create) }
      // A font that hangs drawing (a damaged colour bitmap) gets the bound a run's worker has.
      let bound = ItemTimeout.current.seconds(units: 1)
      let result = try ItemTimeout.guarding(
        seconds: bound,
        expired: { [output] in
          AtomicFile.removeOwnTemporaries(for: output)
          console.error(
            "timed out after \(ItemTimeout.describe(bound)) rendering '\(family.name)';"
              + " nothing was written")
          // The main thread is still inside Cairo: no exit handler may run after it.
          _exit(ExitCode.partial.rawValue)
        }
      ) {
        if ProcessInfo.processInfo.environment[ItemTimeout.hangHook] == family.name {
          while true { sleep(60) }
        }
        return try SpecimenRenderer(environment: environment).render(
          request, proofs: request.readProofs(), to: output)
      }
      for w in result.warnings { console.warning(w) }
      console.line("wrote \(Sanitize.terminal(output)) (\(edge * scale)×\(edge * scale))")
      return .success
    })
}

extension Commands {
  /// `render --variations/--features/--language` as sample settings; a malformed item is a
  /// usage error naming it (every bad item at once).
  static func sampleSettings(_ invocation: Invocation) throws -> SampleSettings {
    let (settings, problems) = SampleSettings.parse(
      variations: invocation.value("--variations"), features: invocation.value("--features"),
      language: invocation.value("--language"),
      names: ("--variations", "--features", "--language"))
    guard problems.isEmpty else {
      throw UsageError(message: problems.joined(separator: "; "), command: invocation.command)
    }
    return settings
  }
}

/// `render --face NAME`: a face of the family (as `FaceName` compares names), never with
/// `--bold` or `--italic`; a name the family lacks is a usage error with the nearest it has.
private func renderFace(_ invocation: Invocation, family: FontFamily) throws -> String? {
  guard let name = invocation.value("--face") else { return nil }
  if invocation.has("--bold") || invocation.has("--italic") {
    throw UsageError(
      message: "--face cannot be combined with --bold or --italic", command: invocation.command)
  }
  if name.count > Limits.faceNameLength {
    throw UsageError(
      message: "--face is longer than \(Limits.faceNameLength) characters",
      command: invocation.command)
  }
  guard family.faces(named: name).isEmpty else { return name }
  let names = family.distinctFaces.map(\.style)
  let byKey = Dictionary(names.map { (FaceName.key($0), $0) }, uniquingKeysWith: { a, _ in a })
  let guess = Suggest.didYouMean(FaceName.key(name), among: byKey.keys).flatMap { byKey[$0] }
  throw UsageError(
    message: "family '\(Sanitize.terminal(family.name))' has no face named "
      + "'\(Sanitize.terminal(name))'"
      + (guess.map { " (did you mean '\(Sanitize.terminal($0))'?)" }
        ?? "; it has "
        + names.prefix(12).map { "'\(Sanitize.terminal($0))'" }
        .joined(separator: ", ") + (names.count > 12 ? " and \(names.count - 12) more" : "")),
    command: invocation.command)
}
