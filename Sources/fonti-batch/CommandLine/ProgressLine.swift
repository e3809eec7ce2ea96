import FontiEngine
import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Progress on stderr: on a terminal one line that updates in place (done/total, items per
/// second, elapsed, time left, the item just finished); elsewhere a plain line every few seconds
/// at most; nothing when quiet.
///
/// The live line never reaches the terminal's last column (TIOCGWINSZ, else COLUMNS, else 80):
/// a line that wraps cannot be rewritten in place and leaves debris. What does not fit goes,
/// least useful first: the item's name is shortened, then dropped, then the rate.
final class ProgressLine {
  let console: Console
  let live: Bool
  private var lastPrint = -Double.infinity
  /// Columns the live line covers now, to be blanked when it is rewritten shorter.
  private var lastWidth = 0
  private var lastName: String?
  /// The time left as estimated when the last item finished, and when that was: between
  /// completions (a long catalogue draws) the estimate counts down instead of growing.
  private var estimate: (left: Double, at: Double)?

  init(console: Console) {
    self.console = console
    live = console.stderrIsTerminal
  }

  func update(_ p: BatchProgress) {
    // -v prints a line per file written (`run` does, from `BatchRunner`'s events), not here.
    if let name = p.finished {
      lastName = name
      estimate = p.secondsLeft.map { ($0, p.elapsed) }
    }
    guard !console.quiet, p.total > 0, p.done > 0 || p.elapsed > 2 else { return }
    let interval = live ? 0.1 : 5.0
    let final = p.done == p.total && p.finished != nil
    if !final && p.elapsed - lastPrint < interval { return }
    lastPrint = p.elapsed
    let name = lastName.map { Sanitize.terminal($0) }
    // Counted down since it was made; once spent, no estimate until the next item finishes.
    let left = estimate.map { $0.left - (p.elapsed - $0.at) }.flatMap { $0 > 0 ? $0 : nil }
    if live {
      let text = Self.line(p, name: name, left: left, width: Self.terminalColumns() - 1)
      let width = TerminalText.width(text)
      console.err("\r" + text + String(repeating: " ", count: max(0, lastWidth - width)))
      lastWidth = width
    } else {
      console.err(Self.line(p, name: name, left: left, width: Int.max) + "\n")
    }
  }

  /// Ends the in-place line so that what follows starts on a fresh line.
  func finish() {
    if live && lastWidth > 0 && !console.quiet {
      console.err("\r" + String(repeating: " ", count: lastWidth) + "\r")
    }
    lastWidth = 0
  }

  /// The progress text in at most `width` columns; `left` is the estimated time left.
  static func line(_ p: BatchProgress, name: String?, left: Double?, width: Int) -> String {
    let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
    let count = "[\(p.done)/\(p.total)]"
    let perSecond = "\(String(format: "%.1f", rate))/s"
    var time = "\(clock(p.elapsed)) elapsed"
    if let left, p.done < p.total { time += ", ETA \(clock(left))" }
    // Fullest first; each later form drops what helps least.
    let head = [count, perSecond, time].joined(separator: " ")
    let forms = [[count, perSecond + " ", time], [count, time], [count]]
    for parts in forms.map({ $0.joined(separator: " ") }) {
      let room = width - TerminalText.width(parts)
      guard room >= 0 else { continue }
      // The name takes what room is left, if at least a few columns.
      if let name, room >= 8 {
        return parts + "  " + TerminalText.prefix(name, width: room - 2)
      }
      return parts
    }
    return TerminalText.prefix(head, width: max(0, width))
  }

  /// The terminal's width in columns: TIOCGWINSZ on stderr, else `COLUMNS`, else 80.
  static func terminalColumns() -> Int {
    var size = winsize()
    if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    if let text = getenv("COLUMNS").map({ String(cString: $0) }), let n = Int(text), n > 0 {
      return n
    }
    return 80
  }

  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 60
      ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(String(format: "%.1f", seconds))s"
  }
}
