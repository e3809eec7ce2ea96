import Foundation
import FontiCore

/// Progress on stderr: on a terminal one line that updates in place (done/total, families per
/// second, elapsed, ETA, the item just finished); elsewhere a plain line every few seconds at
/// most; nothing when quiet.
final class ProgressLine {
  let console: Console
  let live: Bool
  private var lastPrint = -Double.infinity
  private var lastLength = 0
  private var lastName: String?

  init(console: Console) {
    self.console = console
    live = console.stderrIsTerminal
  }

  func update(_ p: BatchProgress) {
    // -v prints a line per file written (`run` does, from `BatchRunner`'s events), not here.
    if let name = p.finished { lastName = name }
    guard !console.quiet, p.total > 0, p.done > 0 || p.elapsed > 2 else { return }
    let interval = live ? 0.1 : 5.0
    let final = p.done == p.total && p.finished != nil
    if !final && p.elapsed - lastPrint < interval { return }
    lastPrint = p.elapsed
    let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
    let eta = rate > 0 ? Double(p.total - p.done) / rate : 0
    var text = "[\(p.done)/\(p.total)] \(String(format: "%.1f", rate))/s  \(Self.clock(p.elapsed)) elapsed"
    if p.done < p.total && p.done > 0 { text += ", ETA \(Self.clock(eta))" }
    if let name = lastName { text += "  \(Sanitize.terminal(name))" }
    if live {
      let width = 100
      if text.count > width { text = String(text.prefix(width - 1)) + "…" }
      let pad = max(0, lastLength - text.count)
      console.err("\r" + text + String(repeating: " ", count: pad))
      lastLength = text.count
    } else {
      console.err(text + "\n")
    }
  }

  /// Ends the in-place line so that what follows starts on a fresh line.
  func finish() {
    if live && lastLength > 0 && !console.quiet {
      console.err("\r" + String(repeating: " ", count: lastLength) + "\r")
    }
    lastLength = 0
  }

  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(String(format: "%.1f", seconds))s"
  }
}
