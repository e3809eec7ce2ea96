import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension RunningCLI {
  /// Waits until the tool's stderr holds `text` (a line it prints when it starts waiting for
  /// something), or it has exited, or `limit` seconds have passed; returns whether `text` came.
  /// The limit is only a safety net for a broken build, never a timing assertion.
  func waitForStderr(containing text: String, limit: Double = 120) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while Date() < deadline {
      if let data = FileManager.default.contents(atPath: stderrPath),
        String(decoding: data, as: UTF8.self).contains(text)
      {
        return true
      }
      if !process.isRunning { break }
      usleep(20_000)
    }
    let data = FileManager.default.contents(atPath: stderrPath) ?? Data()
    return String(decoding: data, as: UTF8.self).contains(text)
  }

  /// Waits until the folder `folder` holds a file (any name, hidden ones too), or the tool has
  /// exited, or `limit` seconds have passed (a safety net, never a timing assertion); returns
  /// whether a file came.
  func waitForFile(in folder: String, limit: Double = 120) -> Bool {
    func found() -> Bool {
      !((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty
    }
    let deadline = Date().addingTimeInterval(limit)
    while Date() < deadline && !found() && process.isRunning { usleep(20_000) }
    return found()
  }

  /// Waits until the tool has exited; after `limit` seconds (a safety net for a broken build,
  /// never a timing assertion) kills it and returns false, so a test fails instead of hanging.
  func waitForExit(limit: Double = 120) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      return false
    }
    return true
  }

  /// Sends `signal` to the tool.
  func send(_ signal: Int32) {
    kill(process.processIdentifier, signal)
  }
}

extension CLISandbox {
  /// Makes a FIFO under the working folder and returns its path.
  func makeFIFO(_ relative: String) throws -> String {
    let full = path(relative)
    guard mkfifo(full, 0o644) == 0 else {
      throw CLIError(description: "mkfifo \(full): \(String(cString: strerror(errno)))")
    }
    return full
  }
}
