import FontiModel
import FontiSupport
import Foundation

/// Fingerprints of fonts by their bytes, each file read once per run: what a CI checkout (which
/// resets modification times) leaves unchanged. A family's fingerprint hashes its name and its
/// files' contents (in content order, so where the files lie does not matter).
public final class FontFingerprints {
  private var files: [String: String] = [:]

  public init() {}

  /// SHA-256 of the file's bytes, or a mark that it could not be read.
  public func content(_ path: String) -> String {
    if let known = files[path] { return known }
    let hex = SHA256.hex(file: path) ?? "unreadable"
    files[path] = hex
    return hex
  }

  public func family(_ family: FontFamily) -> String {
    let parts =
      [family.name, family.isCustom ? "custom" : "system"] + family.files.map(content).sorted()
    return SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8))
  }

  /// The stamp of a font file in an output's `inputs`: its content for the files of custom
  /// fonts (`custom`; a checkout resets their times), else path, size and time (`FileStamp`:
  /// system fonts are many, and installed by packages that keep their times).
  public func stamp(custom: Set<String>) -> (String) -> String {
    { path in custom.contains(path) ? "content|" + self.content(path) : FileStamp.stamp(path) }
  }
}
