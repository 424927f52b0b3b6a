#if canImport(Glibc)
import Glibc
#endif

/// A time zone from the tz database (`Europe/Vilnius`), used to turn service dates and GTFS times
/// into instants and back.
///
/// Backed by the C library and the system's tzdata (`/usr/share/zoneinfo`), so the query commands
/// need neither Foundation nor ICU. The C library keeps one current zone per process; every call
/// selects this zone first, under a lock.
public struct AgencyTimeZone: Sendable, Equatable {
    /// The tz database name.
    public let identifier: String

    /// The zone named `identifier`, when the system's tz database has it.
    public init?(identifier: String) {
        guard AgencyTimeZone.isKnown(identifier) else { return nil }
        self.identifier = identifier
    }

    /// True when `identifier` names a zone file of the tz database (glibc would silently fall back
    /// to UTC for an unknown name; we refuse instead).
    public static func isKnown(_ identifier: String) -> Bool {
        if identifier == "UTC" || identifier == "Etc/UTC" { return true }
        guard !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.contains(".."),
              identifier.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 }) else { return false }
        let directory = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
        var info = stat()
        return stat(directory + "/" + identifier, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The instant (seconds since 1970 UTC) of GTFS time `seconds` on service date `date`:
    /// noon of `date` in this zone, minus 12 hours, plus `seconds` (the GTFS definition, which keeps
    /// daylight-saving days right).
    public func instant(of seconds: Int, on date: ServiceDate) -> Int {
        noonMinusTwelveHours(date) + seconds
    }

    /// The instant of noon on `date` in this zone, minus 12 hours.
    public func noonMinusTwelveHours(_ date: ServiceDate) -> Int {
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = 12
        parts.tm_isdst = -1
        let noon = withZone { mktime(&parts) }
        return Int(noon) - 12 * 3600
    }

    /// The instant of wall-clock time `hour:minute:second` on `date` in this zone. In the hour that
    /// a daylight-saving change skips, the C library's choice (the later offset) applies.
    public func instant(ofLocal date: ServiceDate, hour: Int, minute: Int, second: Int) -> Int {
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        parts.tm_isdst = -1
        return Int(withZone { mktime(&parts) })
    }

    /// The local wall-clock reading of `instant` in this zone.
    public func localTime(of instant: Int) -> LocalTime {
        var time = time_t(instant)
        var parts = tm()
        withZone { _ = localtime_r(&time, &parts) }
        return LocalTime(
            date: ServiceDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))!,
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
            utcOffsetSeconds: Int(parts.tm_gmtoff))
    }

    private func withZone<T>(_ body: () -> T) -> T {
        zoneLock.lock()
        defer { zoneLock.unlock() }
        if currentZone != identifier {
            setenv("TZ", ":" + identifier, 1)
            tzset()
            currentZone = identifier
        }
        return body()
    }
}

/// A wall-clock reading in some zone, with its offset from UTC.
public struct LocalTime: Sendable, Equatable {
    public let date: ServiceDate
    public let hour: Int
    public let minute: Int
    public let second: Int
    public let utcOffsetSeconds: Int

    /// `2015-09-08T08:05:00+03:00`.
    public var iso8601: String {
        ASCIIWriter.text(capacity: 64) { writer in
            date.write(to: &writer)
            writer.put("T")
            writer.put(hour, digits: 2)
            writer.put(":")
            writer.put(minute, digits: 2)
            writer.put(":")
            writer.put(second, digits: 2)
            writer.put(utcOffsetSeconds < 0 ? "-" : "+")
            let offset = abs(utcOffsetSeconds)
            writer.put(offset / 3600, digits: 2)
            writer.put(":")
            writer.put((offset % 3600) / 60, digits: 2)
        }
    }

    /// `08:05`.
    public var hourMinute: String {
        ASCIIWriter.text(capacity: 48) { writer in
            writer.put(hour, digits: 2)
            writer.put(":")
            writer.put(minute, digits: 2)
        }
    }
}

/// Serializes changes of the C library's process-wide zone.
private final class ZoneLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}

private let zoneLock = ZoneLock()
nonisolated(unsafe) private var currentZone: String?
