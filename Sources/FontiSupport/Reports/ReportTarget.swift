import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One `--report FORMAT=FILE`: which format, written where.
public struct ReportTarget: Sendable, Hashable {
  public enum Format: String, Sendable, CaseIterable {
    case junit, sarif, markdown, json, badge
  }

  public var format: Format
  public var path: String

  public init(format: Format, path: String) {
    self.format = format
    self.path = path
  }

  /// `FORMAT=FILE`; the reason when it is not one (for a usage error).
  public static func parse(_ text: String) -> Result<ReportTarget, ReportProblem> {
    guard let equals = text.firstIndex(of: "=") else {
      return .failure(
        ReportProblem(
          "--report '\(Sanitize.terminal(text))' is not FORMAT=FILE (formats: "
            + formatNames + ")"))
    }
    let name = String(text[..<equals]).lowercased()
    let path = String(text[text.index(after: equals)...])
    guard let format = Format(rawValue: name) else {
      let hint =
        Suggest.didYouMean(name, among: Format.allCases.map(\.rawValue))
        .map { " (did you mean '\($0)'?)" } ?? ""
      return .failure(
        ReportProblem(
          "--report: unknown format '\(Sanitize.terminal(name))'\(hint); formats: \(formatNames)"))
    }
    guard !path.isEmpty else {
      return .failure(ReportProblem("--report \(name)= names no file"))
    }
    return .success(ReportTarget(format: format, path: path))
  }

  static var formatNames: String { Format.allCases.map(\.rawValue).joined(separator: ", ") }

  /// Whether the report can be written at the end: its folder exists and is writable, and
  /// the path is no folder. Checked before a command does anything, so that a mistyped path
  /// costs nothing.
  public func problem() -> ReportProblem? {
    let shown = "'\(Sanitize.terminal(path))'"
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      return ReportProblem("--report \(format.rawValue)=\(shown): is a folder")
    }
    let folder = FileSystem.folder(of: path)
    var folderStatus = stat()
    guard stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
      return ReportProblem(
        "--report \(format.rawValue)=\(shown): folder '\(Sanitize.terminal(folder))' "
          + "does not exist")
    }
    guard access(folder, W_OK) == 0 else {
      return ReportProblem(
        "--report \(format.rawValue)=\(shown): cannot write in '\(Sanitize.terminal(folder))': "
          + FileSystem.describe(errno))
    }
    return nil
  }

  /// The problems of `targets` together: each one's, and two reports to one file.
  public static func problems(_ targets: [ReportTarget]) -> [ReportProblem] {
    var seen: Set<String> = []
    var problems: [ReportProblem] = []
    for target in targets {
      if !seen.insert(target.path).inserted {
        problems.append(
          ReportProblem(
            "--report: two reports to '\(Sanitize.terminal(target.path))'"))
      }
      if let problem = target.problem() { problems.append(problem) }
    }
    return problems
  }
}

/// Why a `--report` cannot be: a usage error.
public struct ReportProblem: Error, Sendable, Hashable {
  public var message: String
  public init(_ message: String) { self.message = message }
}

extension CIReport {
  /// The report's bytes in `format`.
  public func rendered(_ format: ReportTarget.Format) -> [UInt8] {
    switch format {
    case .junit: return Array(junit().utf8)
    case .sarif: return sarif()
    case .markdown: return Array(markdownText().utf8)
    case .json: return json
    case .badge: return badge()
    }
  }

  /// Writes every report of `targets`, each atomically; the error of each that could not be.
  public func write(to targets: [ReportTarget]) -> [Diagnostic] {
    var errors: [Diagnostic] = []
    for target in targets {
      do throws(Diagnostic) {
        try AtomicFile.write(Data(rendered(target.format)), to: target.path)
      } catch {
        var error = error
        error.message = "\(target.format.rawValue) report not written: \(error.message)"
        errors.append(error)
      }
    }
    return errors
  }

  /// Appends the Markdown summary to `path` (`$GITHUB_STEP_SUMMARY`, a file the runner reads
  /// after the step): appended, never replaced, since earlier steps' summaries are in it.
  public func appendSummary(to path: String) -> Diagnostic? {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      return .error(
        "cannot append the summary to '\(Sanitize.terminal(path))' (GITHUB_STEP_SUMMARY): "
          + FileSystem.describe(errno))
    }
    defer { close(fd) }
    let code = FileSystem.writeAll(fd, Array((markdownText() + "\n").utf8))
    guard code == 0 else {
      return .error(
        "cannot append the summary to '\(Sanitize.terminal(path))' (GITHUB_STEP_SUMMARY): "
          + FileSystem.describe(code))
    }
    return nil
  }
}
