import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// The `Date` header's value (RFC 9110's IMF-fixdate, `Fri, 27 Nov 2026 03:45:00 GMT`), formatted
/// once a second. Written by hand: strftime's day and month names follow the locale.
final class HTTPDate: @unchecked Sendable {
    static let shared = HTTPDate()
    private var second = -1
    private var text = ""
    private let lock = NIOLock()
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private init() {}

    /// Now, as a `Date` header says it.
    func now() -> String {
        var clock = time(nil)
        return lock.withLock { () -> String in
            if clock != second {
                var parts = tm()
                gmtime_r(&clock, &parts)
                func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
                text = "\(Self.days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(Self.months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
                    + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
                second = clock
            }
            return text
        }
    }
}
