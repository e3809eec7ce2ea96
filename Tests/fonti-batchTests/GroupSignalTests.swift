import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SIGTERM to the whole process group (`timeout`, a CI runner) interrupts a run: workers killed
/// by the same signal leave their items not reached, never failed or "crashed"; a worker killed
/// alone is still a crash.
@Suite(.serialized) struct GroupSignalTests {
  /// Starts `run`, which Foundation's `Process` puts in a process group of its own, so the
  /// whole group can be signalled without reaching the tests. `oneProcessor`: the tool and its
  /// workers (which inherit it) share one processor (`taskset`), as on a loaded machine.
  func startInOwnGroup(_ box: CLISandbox, jobs: Int, oneProcessor: Bool) throws -> (
    RunningCLI, pid_t
  ) {
    try box.write("specimens.yaml", Self.job)
    let pin = oneProcessor ? ["/usr/bin/taskset", "-c", Self.firstProcessor()] : []
    let running = try box.start(["run", "-j", "\(jobs)"], through: pin)
    let pid = running.process.processIdentifier
    // Never signal a group that holds the tests.
    guard getpgid(pid) == pid, getpgid(pid) != getpgrp() else {
      running.send(SIGKILL)
      throw CLIError(description: "the tool did not get a process group of its own")
    }
    return (running, pid)
  }

  /// The first processor this process may run on (`Cpus_allowed_list` in `/proc/self/status`).
  static func firstProcessor() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
    let list = line?.split(separator: ":").last ?? "0"
    return String(list.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
  }

  /// Waits until `parent` has `count` child processes (its workers), or has exited, or the
  /// safety net of 120 s has passed; returns their process IDs.
  func waitForWorkers(of parent: pid_t, count: Int, _ running: RunningCLI) -> [pid_t] {
    let deadline = Date().addingTimeInterval(120)
    var found: [pid_t] = []
    while running.process.isRunning && Date() < deadline {
      found = Self.children(of: parent)
      if found.count >= count { break }
      usleep(10_000)
    }
    return found
  }

  /// Process IDs whose parent is `parent`, from `/proc/*/stat`.
  static func children(of parent: pid_t) -> [pid_t] {
    guard let proc = opendir("/proc") else { return [] }
    defer { closedir(proc) }
    var pids: [pid_t] = []
    while let entry = readdir(proc) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let pid = pid_t(name) { pids.append(pid) }
    }
    return pids.filter { pid in
      guard let stat = procStat(pid), let close = stat.lastIndex(of: ")") else { return false }
      // After the command's closing parenthesis: state, then the parent's ID.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && pid_t(fields[1]) == parent
    }
  }

  /// `/proc/PID/stat`, read with one `read` (its size reads as 0, so Foundation reads nothing).
  static func procStat(_ pid: pid_t) -> String? {
    let fd = open("/proc/\(pid)/stat", O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
  }

  /// Runs every thread of `pid` only when nothing else on its processor wants to
  /// (`SCHED_IDLE`): busy workers then die of a group signal before the tool wakes to it, the
  /// order a loaded machine makes now and then.
  static func starve(_ pid: pid_t) {
    let schedIdle: Int32 = 5  // SCHED_IDLE, which Swift's Glibc module does not export
    var parameters = sched_param()
    parameters.sched_priority = 0
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    for task in tasks.compactMap({ pid_t($0) }) {
      _ = sched_setscheduler(task, schedIdle, &parameters)
    }
  }

  /// Every count of failed outputs in the manifest (families, pairings, catalogues).
  func failures(_ box: CLISandbox) throws -> [String: Int] {
    guard let data = box.read("output/manifest.json") else { return [:] }
    let m = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let counts = try #require(m["counts"] as? [String: Any])
    return counts.compactMapValues { $0 as? Int }.filter {
      $0.key.lowercased().hasSuffix("failed") && $0.value != 0
    }
  }

  /// Several runs, signalled at different moments while their workers draw: each is
  /// interrupted (143), none reports a crash or a failed output.
  @Test func sigtermToTheGroupIsAnInterruption() throws {
    for attempt in 0..<6 {
      let box = try CLISandbox("fonti-group")
      let (running, pid) = try startInOwnGroup(box, jobs: 3, oneProcessor: true)
      let workers = waitForWorkers(of: pid, count: 3, running)
      #expect(workers.count >= 3, "attempt \(attempt): the workers did not start")
      // Moments from just after the workers start to well into their drawing.
      usleep(UInt32(attempt) * 150_000)
      Self.starve(pid)
      kill(-pid, SIGTERM)
      #expect(running.waitForExit())
      let result = try running.finish()
      #expect(result.status == 143, "attempt \(attempt): \(result)")
      #expect(!result.stderr.contains("crashed"), "attempt \(attempt): \(result)")
      #expect(!result.stderr.contains("failed"), "attempt \(attempt): \(result)")
      let failed = try failures(box)
      #expect(failed.isEmpty, "attempt \(attempt): \(failed)")
    }
  }

  /// SIGTERM to one worker, the tool itself not signalled: that worker crashed, its item
  /// failed, the rest of the run goes on.
  @Test func sigtermToOneWorkerIsACrash() throws {
    let box = try CLISandbox("fonti-group")
    let (running, pid) = try startInOwnGroup(box, jobs: 2, oneProcessor: false)
    let workers = waitForWorkers(of: pid, count: 2, running)
    let worker = try #require(workers.first, "no worker started")
    kill(worker, SIGTERM)
    #expect(running.waitForExit(limit: 600))
    let result = try running.finish()
    #expect(result.status == 1, "\(result)")
    #expect(result.stderr.contains("worker process crashed (signal 15)"), "\(result)")
    let failed = try failures(box)
    #expect(failed.values.reduce(0, +) == 1, "\(failed)")
  }

  /// Slow items for every worker: large specimens at zlib 9, and a catalogue of every family.
  static let job = """
    version: 1
    catalogues:
      - file: catalogue.pdf
    png:
      edge: 4096
      scale: 2
      compression: small
    defaults:
      text: Sphinx of black quartz, judge my vow.
      size: 48
    families:
      include: ["*"]

    """
}
