import FontiSupport

/// How `run` and `check` print warnings: each warning of the job's kinds with its kind, each
/// font-fact kind as one line with a count (every one under `-v`), and the warnings of outputs
/// a run did not draw not again (one line says they are recorded). Errors are printed in full.
struct WarningReport {
  let console: Console
  /// Where every warning is kept ("manifest.json"); nil when nowhere (`check`).
  var keptIn: String? = "manifest.json"
  /// Warnings of one job kind printed before the rest of that kind is counted on one line.
  static let shownPerKind = 10

  func print(_ diagnostics: [Diagnostic]) {
    var counts: [WarningKind: Int] = [:]
    // A family warns of one fact more than once (its specimen, then each catalogue showing it):
    // a fact's line counts families, not lines.
    var families: [WarningKind: Set<String>] = [:]
    var factKinds: [WarningKind] = []
    var recorded = 0
    for d in diagnostics {
      guard d.severity == .warning else {
        console.report(d)
        continue
      }
      if console.quiet { continue }
      if d.recorded && !console.verbose {
        recorded += 1
        continue
      }
      let kind = d.kind
      counts[kind, default: 0] += 1
      if kind.group == .font, let family = d.namedFamily {
        families[kind, default: []].insert(family)
      }
      if console.verbose {
        console.report(d, kind: kind)
      } else if kind.group == .font {
        if counts[kind] == 1 { factKinds.append(kind) }
      } else if counts[kind, default: 0] <= Self.shownPerKind {
        console.report(d, kind: kind)
      }
    }
    guard !console.quiet, !console.verbose else { return }
    let kept = (keptIn.map { "each is in \($0); " } ?? "") + "-v prints them"
    for (kind, count) in counts.sorted(by: { $0.key < $1.key })
    where kind.group == .job && count > Self.shownPerKind {
      console.report(
        .warning(
          "\(count - Self.shownPerKind) more \(kind.rawValue) warnings (\(kept))"), kind: kind)
    }
    for kind in factKinds {
      let lines = counts[kind] ?? 0
      let count = kind.summaryCountsFamilies ? families[kind]?.count ?? lines : lines
      let only = lines == 1 ? diagnostics.first { !$0.recorded && $0.kind == kind } : nil
      if let only {
        console.report(only, kind: kind)
      } else {
        console.report(
          .warning(kind.summary(count) + " (\(kept))"), kind: kind)
      }
    }
    if recorded > 0 {
      console.info(
        "\(recorded) warning\(recorded == 1 ? "" : "s") of outputs left as they were "
          + "\(recorded == 1 ? "is" : "are") recorded in manifest.json (-v prints them)")
    }
  }

  /// The reason a `--strict` run or check fails, on stderr even when quiet.
  func failing(_ line: String?) {
    guard let line else { return }
    console.failing(line)
  }
}
