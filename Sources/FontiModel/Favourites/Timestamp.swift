import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// ISO 8601 UTC timestamps with whole seconds (`2026-11-29T10:04:00Z`), the form of `savedAt`.
///
/// Hand-written on `gmtime_r`/`timegm` so that the output never depends on a locale or calendar
/// setting.
public enum Timestamp {
  /// The latest moment four-digit years can show: 9999-12-31T23:59:59Z.
  static let maximum: Int = 253_402_300_799
  /// The earliest moment `format` shows: 0001-01-01T00:00:00Z.
  static let minimum: Int = -62_135_596_800

  /// `2026-11-29T10:04:00Z`; fractions of a second are dropped.
  public static func format(_ date: Date) -> String {
    let c = utc(date)
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let year = String(c.year)
    let paddedYear = String(repeating: "0", count: max(0, 4 - year.count)) + year
    return "\(paddedYear)-\(two(c.month))-\(two(c.day))T"
      + "\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
  }

  /// The parts of `date` in UTC, whole seconds, clamped to the years 1–9999 (`format`'s range).
  package static func utc(_ date: Date) -> (
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
  ) {
    let interval = date.timeIntervalSince1970
    var seconds = time_t(
      interval.isFinite
        ? Int(max(Double(minimum), min(Double(maximum), interval.rounded(.down))))
        : 0)
    var parts = tm()
    guard gmtime_r(&seconds, &parts) != nil else { return (1970, 1, 1, 0, 0, 0) }
    return (
      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
      Int(parts.tm_min), Int(parts.tm_sec)
    )
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or an offset (`+01:00`,
  /// `+0100`). Returns nil for anything else, including dates that do not exist (February 30)
  /// and moments `format` cannot write back (before the year 1 or after 9999, in UTC).
  public static func parse(_ text: String) -> Date? {
    let chars = Array(text.utf8)
    var i = 0
    func digits(_ count: Int) -> Int? {
      guard i + count <= chars.count else { return nil }
      var value = 0
      for c in chars[i..<(i + count)] {
        guard c >= 48, c <= 57 else { return nil }
        value = value * 10 + Int(c - 48)
      }
      i += count
      return value
    }
    func expect(_ c: UInt8) -> Bool {
      guard i < chars.count, chars[i] == c else { return false }
      i += 1
      return true
    }
    guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2),
      expect(UInt8(ascii: "-")), let day = digits(2)
    else { return nil }
    guard i < chars.count, chars[i] == UInt8(ascii: "T") || chars[i] == UInt8(ascii: "t") else {
      return nil
    }
    i += 1
    guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2),
      expect(UInt8(ascii: ":")), let second = digits(2)
    else { return nil }
    if i < chars.count, chars[i] == UInt8(ascii: ".") {
      i += 1
      let start = i
      while i < chars.count, chars[i] >= 48, chars[i] <= 57 { i += 1 }
      if i == start { return nil }
    }
    var offset = 0
    guard i < chars.count else { return nil }
    switch chars[i] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      i += 1
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      let sign = chars[i] == UInt8(ascii: "-") ? -1 : 1
      i += 1
      guard let h = digits(2) else { return nil }
      _ = expect(UInt8(ascii: ":"))
      guard let m = digits(2), h <= 23, m <= 59 else { return nil }
      offset = sign * (h * 3600 + m * 60)
    default:
      return nil
    }
    guard i == chars.count, (1...12).contains(month), (1...31).contains(day), hour <= 23,
      minute <= 59, second <= 60
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(min(second, 59))  // a leap second counts as the second before
    let seconds = timegm(&parts)
    // timegm normalises (February 30 becomes March 2): a changed day means no such date.
    guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
    let moment = Int(seconds) - offset
    guard moment >= minimum, moment <= maximum else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(moment))
  }

  /// `SOURCE_DATE_EPOCH` as a date, when it is set and valid (reproducible builds).
  public static func sourceDateEpoch(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Date? {
    guard let text = environment["SOURCE_DATE_EPOCH"]?.trimmingCharacters(in: .whitespaces),
      let seconds = Int(text), seconds >= 0, seconds <= maximum
    else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// Why `SOURCE_DATE_EPOCH` is set but not used (not a whole number of seconds from 0 to
  /// 9999-12-31), or nil when it is valid or not set (an empty value counts as not set). The
  /// front end warns with this, naming the variable: ignoring it silently made a
  /// "reproducible" run quietly stamp the clock.
  public static func sourceDateEpochProblem(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    guard let raw = environment["SOURCE_DATE_EPOCH"] else { return nil }
    let text = raw.trimmingCharacters(in: .whitespaces)
    if text.isEmpty || sourceDateEpoch(environment: environment) != nil { return nil }
    let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
    let why =
      Int(text).map { $0 < 0 ? "is negative" : "is past the year 9999" }
      ?? "is not a whole number of seconds since 1970"
    return "SOURCE_DATE_EPOCH '\(shown)' \(why); it is ignored and the clock is used"
  }

  /// The time to record now: `SOURCE_DATE_EPOCH` (whole seconds since 1970, for reproducible
  /// output and tests) when it is set and valid, else the clock, truncated to whole seconds.
  public static func now(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Date {
    if let date = sourceDateEpoch(environment: environment) { return date }
    return Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
  }
}
