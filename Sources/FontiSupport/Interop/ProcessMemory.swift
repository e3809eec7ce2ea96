internal import CSystem
import Foundation

/// Handing memory back to the system once a run's parent has made its plan.
///
/// The parent reads much to plan (every installed family through fontconfig's caches, the
/// previous manifest) and keeps little of it while workers draw. What it no longer holds stays
/// resident unless it is given back: freed heap pages stay with the allocator, and the pages of
/// fontconfig's cache files stay mapped in for as long as fontconfig keeps the files mapped (the
/// life of the process). At 4,000 installed families that is 12 MiB of caches beside the
/// workers for the whole run.
///
/// Both are the process's business, not a library's: they change the allocator for every
/// thread and drop pages of mappings found by name in `/proc/self/maps`, which another thread
/// could unmap, and the system map anew, in between. So a run does them only in a process whose
/// program asked for them at its start (`manage()`: the `fonti-batch` executable does, before
/// any other thread), never in a program or test that uses the library otherwise.
public enum ProcessMemory {
  /// Set by `manage()`, once, before the process starts a thread; read only after.
  package nonisolated(unsafe) private(set) static var isManaged = false

  /// Lets runs in this process tune the allocator (`returnLargeBlocks`) and give back what
  /// their planning read (`releaseAfterPlanning`). Call once at the program's start, before
  /// any thread.
  public static func manage() { isManaged = true }

  /// Gives back the pages of fontconfig's cache files and the allocator's free pages. Nothing
  /// is unmapped or freed: a cache page read again comes back from the file (the mappings are
  /// read-only views of files fontconfig never rewrites in place: it writes a new file and
  /// renames it), so this changes nothing but what stays resident. Returns how many cache
  /// mappings were let go.
  @discardableResult
  package static func releaseAfterPlanning() -> Int {
    var released = 0
    for mapping in fontconfigCacheMappings() {
      if madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), mapping.length, MADV_DONTNEED)
        == 0
      {
        released += 1
      }
    }
    malloc_trim(0)
    return released
  }

  /// Blocks of at least this size are mapped on their own and unmapped when freed.
  static let largeBlock: Int32 = 256 << 10

  /// For the parent of a run, before it plans: every block of `largeBlock` or more (the
  /// previous manifest's bytes, the tables and arrays of thousands of families) gets its own
  /// mapping, so that freeing it gives it back to the system. By default glibc raises that
  /// threshold to the size of the largest block freed (up to 32 MiB), after which such blocks
  /// come from the heap and, freed, stay there as holes beside what the run keeps (4–7 MiB of the
  /// parent's memory for the whole run at 4,000 families). Workers keep the
  /// default: they reuse blocks of the same size (an image surface) item after item.
  package static func returnLargeBlocks() {
    mallopt(M_MMAP_THRESHOLD, largeBlock)
  }

  /// A read-only shared mapping of a fontconfig cache file, from `/proc/self/maps`.
  struct Mapping: Equatable {
    var start: UInt
    var length: Int
    var path: String
  }

  /// The process's mappings of fontconfig cache files.
  static func fontconfigCacheMappings() -> [Mapping] {
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return [] }
    defer { try? handle.close() }
    // /proc files report no size: read to the end, not what a stat says.
    let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    return text.split(separator: "\n").compactMap { cacheMapping(String($0)) }
  }

  /// One line of `/proc/PID/maps` ("start-end perms offset dev inode path") when it maps a
  /// fontconfig cache file read-only and shared, as fontconfig maps them.
  static func cacheMapping(_ line: String) -> Mapping? {
    let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
    guard fields.count == 6, fields[1] == "r--s" else { return nil }
    let path = fields[5].trimmingCharacters(in: .whitespaces)
    guard isFontconfigCache(path) else { return nil }
    let bounds = fields[0].split(separator: "-")
    guard bounds.count == 2, let start = UInt(bounds[0], radix: 16),
      let end = UInt(bounds[1], radix: 16), end > start
    else { return nil }
    return Mapping(start: start, length: Int(end - start), path: path)
  }

  /// fontconfig names a cache file for the folder it caches: the folder's MD5 in 32 hex
  /// digits, then the architecture and the cache format ("…-le64.cache-8").
  static func isFontconfigCache(_ path: String) -> Bool {
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    let parts = name.split(separator: "-", maxSplits: 1)
    guard parts.count == 2, parts[0].count == 32,
      parts[0].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
    else { return false }
    guard let suffix = parts[1].range(of: ".cache-") else { return false }
    let version = parts[1][suffix.upperBound...]
    return !version.isEmpty && version.allSatisfy(\.isASCII) && version.allSatisfy(\.isNumber)
  }
}
