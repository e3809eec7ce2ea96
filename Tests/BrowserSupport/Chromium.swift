import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Shared by both test targets (`BrowserSupport`): the unit tests load pages made from models,
/// the binary's tests load the gallery of a real run.
///
/// Headless Chromium, for loading the gallery page in a real browser: the DOM after the page's
/// script ran (`--dump-dom`), or a screenshot. Each run gets a fresh private profile in a
/// temporary folder and runs under `timeout`, which ends Chromium's whole process group if it
/// hangs (a guard, not a measurement: nothing is asserted about time).
public struct Chromium {
  public let executable: String

  public init(executable: String) { self.executable = executable }

  /// Why the browser tests cannot run here, or nil when they can.
  public static var unavailableReason: String? {
    find() == nil
      ? "chromium is not installed (the Makefile's test set-up, `make setup-test`, installs it)"
      : nil
  }

  /// `FONTI_CHROMIUM`, else the first of `chromium`, `chromium-browser`, `google-chrome` on the
  /// PATH.
  public static func find() -> Chromium? {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["FONTI_CHROMIUM"], access(path, X_OK) == 0 {
      return Chromium(executable: path)
    }
    let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for folder in folders where access("\(folder)/\(name)", X_OK) == 0 {
        return Chromium(executable: "\(folder)/\(name)")
      }
    }
    return nil
  }

  public enum ColourScheme: String {
    case light, dark
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
  }

  /// The serialized DOM of `url` after its scripts ran (virtual time lets them finish).
  public func dom(_ url: URL, scheme: ColourScheme = .light) throws -> String {
    let output = try run(["--dump-dom", url.absoluteString], scheme: scheme)
    return String(decoding: output, as: UTF8.self)
  }

  /// A `width` × `height` screenshot of `url` written to `path` (PNG).
  public func screenshot(
    _ url: URL, to path: String, width: Int = 1280, height: Int = 800,
    scheme: ColourScheme = .light
  ) throws {
    try? FileManager.default.removeItem(atPath: path)
    _ = try run(
      [
        "--screenshot=\(path)", "--window-size=\(width),\(height)", "--hide-scrollbars",
        url.absoluteString,
      ], scheme: scheme)
    guard FileManager.default.fileExists(atPath: path) else {
      throw Failure(description: "chromium wrote no screenshot at \(path)")
    }
  }

  /// Runs Chromium with `arguments` and returns its standard output.
  private func run(_ arguments: [String], scheme: ColourScheme) throws -> Data {
    let profile =
      FileManager.default.temporaryDirectory.path + "/fonti-chromium-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: profile) }
    var flags = [
      "--headless", "--disable-gpu", "--user-data-dir=\(profile)", "--no-first-run",
      "--no-default-browser-check", "--disable-extensions", "--disable-sync",
      "--disable-background-networking", "--disable-component-update",
      "--disable-default-apps", "--mute-audio", "--virtual-time-budget=5000",
      "--run-all-compositor-stages-before-draw",
      // prefers-color-scheme: Blink's preference (0 dark, 1 light). Headless Chromium loads
      // `loading="lazy"` images at once unless told to behave like a browser on a screen.
      "--blink-settings=preferredColorScheme=\(scheme == .dark ? 0 : 1),lazyLoadEnabled=true",
    ]
    if scheme == .dark { flags.append("--force-dark-mode") }
    if geteuid() == 0 { flags.append("--no-sandbox") }  // Chromium refuses to run as root otherwise

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    process.arguments = ["--kill-after=10", "120", executable] + flags + arguments
    let stdout = Pipe()
    let stderrPath = profile + ".stderr"
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: stderrPath) }
    process.standardOutput = stdout
    process.standardError = FileHandle(forWritingAtPath: stderrPath)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
      let tail = log.split(separator: "\n").suffix(15).joined(separator: "\n")
      throw Failure(
        description: process.terminationStatus == 124
          ? "chromium did not finish within 120 s: \(arguments)\n\(tail)"
          : "chromium exited with \(process.terminationStatus): \(arguments)\n\(tail)")
    }
    return output
  }
}
