import FontTestSupport
import Foundation
import Testing

@testable import FontiSupport
@testable import FontiText

/// The parent hands back what it read to plan: fontconfig's cache pages and free heap pages.
struct ProcessMemoryTests {
  @Test(arguments: [
    "/var/cache/fontconfig/2b2b2a1c7b8a84ca4da7d7a2f3bb1dd0-le64.cache-8",
    "/home/u/.cache/fontconfig/0123456789abcdef0123456789abcdef-be32.cache-7",
  ])
  func aFontconfigCacheFileIsKnownByItsName(_ path: String) {
    #expect(ProcessMemory.isFontconfigCache(path))
  }

  @Test(arguments: [
    "/usr/lib/x86_64-linux-gnu/libfontconfig.so.1.12.0",
    "/var/cache/fontconfig/CACHEDIR.TAG",
    "/var/cache/fontconfig/2B2B2A1C7B8A84CA4DA7D7A2F3BB1DD0-le64.cache-8",
    "/var/cache/fontconfig/2b2b2a1c7b8a84ca4da7d7a2f3bb1dd-le64.cache-8",
    "/var/cache/fontconfig/2b2b2a1c7b8a84ca4da7d7a2f3bb1dd0-le64.cache-",
    "/var/cache/fontconfig/2b2b2a1c7b8a84ca4da7d7a2f3bb1dd0-le64.cache-8.NEW",
    "/fonts/2b2b2a1c7b8a84ca4da7d7a2f3bb1dd0.ttf",
    "",
  ])
  func anythingElseIsNot(_ path: String) {
    #expect(!ProcessMemory.isFontconfigCache(path))
  }

  @Test func aMapsLineGivesTheMappingOfAReadOnlySharedCacheOnly() {
    let cache = "/var/cache/fontconfig/2b2b2a1c7b8a84ca4da7d7a2f3bb1dd0-le64.cache-8"
    #expect(
      ProcessMemory.cacheMapping("7f1c2a000000-7f1c2a003000 r--s 00000000 08:01 1234   \(cache)")
        == .init(start: 0x7f1c_2a00_0000, length: 0x3000, path: cache))
    // Private, writable, executable or anonymous mappings are someone else's.
    #expect(
      ProcessMemory.cacheMapping("7f1c2a000000-7f1c2a003000 r--p 00000000 08:01 1234 \(cache)")
        == nil)
    #expect(
      ProcessMemory.cacheMapping("7f1c2a000000-7f1c2a003000 rw-s 00000000 08:01 1234 \(cache)")
        == nil)
    #expect(
      ProcessMemory.cacheMapping(
        "7f1c2a000000-7f1c2a003000 r-xp 00000000 08:01 99 /usr/lib/libfontconfig.so.1") == nil)
    #expect(ProcessMemory.cacheMapping("7f1c2a000000-7f1c2a003000 rw-p 00000000 00:00 0") == nil)
    #expect(ProcessMemory.cacheMapping("garbage") == nil)
    #expect(ProcessMemory.cacheMapping("zz-7f1c2a003000 r--s 00000000 08:01 1234 \(cache)") == nil)
    #expect(
      ProcessMemory.cacheMapping("7f1c2a003000-7f1c2a000000 r--s 00000000 08:01 1 \(cache)") == nil)
  }

  /// Resident kilobytes of the mappings that start at `starts`, from `/proc/self/smaps`.
  func resident(_ starts: Set<UInt>) -> Int {
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return -1 }
    defer { try? handle.close() }
    var total = 0
    var inside = false
    for line in String(decoding: handle.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
    {
      if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16),
        line.contains(" ")
      {
        inside = starts.contains(start)
      } else if inside, line.hasPrefix("Rss:") {
        total += Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
      }
    }
    return total
  }

  @Test func cachePagesGoBackAndTheFontsStayReadable() throws {
    // A first load writes the fixture folders' caches if there are none (a scan's caches live
    // in memory); the second maps them, as every run after the first does.
    _ = try FontconfigConfiguration.loaded(file: TestFonts.configFile)
    let config = try FontconfigConfiguration.loaded(file: TestFonts.configFile)
    let families = config.families(custom: false).map(\.name).sorted()
    #expect(families.contains("DejaVu Serif"))
    let mappings = ProcessMemory.fontconfigCacheMappings()
    try #require(!mappings.isEmpty, "no fontconfig cache is mapped")
    let starts = Set(mappings.map(\.start))
    let before = resident(starts)
    #expect(before > 0)

    #expect(ProcessMemory.releaseAfterPlanning() == mappings.count)
    #expect(resident(starts) < before)
    // The pages come back from the files when fontconfig reads them again.
    #expect(config.families(custom: false).map(\.name).sorted() == families)
  }
}
