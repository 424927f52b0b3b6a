/// A calendar date as GTFS writes it (`20150908`), with day arithmetic.
///
/// Stored as the integer `yyyymmdd`, which sorts and compares like the date.
public struct ServiceDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A date, when `year`-`month`-`day` exists (so 2015-02-31 does not).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= ServiceDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a `yyyymmdd` integer.
    public init?(yyyymmdd value: Int) {
        self.init(year: value / 10000, month: (value / 100) % 100, day: value % 100)
    }

    /// The date of GTFS text `YYYYMMDD` (surrounding spaces allowed).
    public init?(gtfs text: some StringProtocol) {
        let trimmed = text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
        guard trimmed.count == 8, trimmed.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let value = trimmed.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        self.init(yyyymmdd: value)
    }

    /// The date `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = d
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The integer `yyyymmdd`.
    public var yyyymmdd: Int { year * 10000 + month * 100 + day }

    /// 0 for Monday … 6 for Sunday, the order of calendar.txt's columns.
    public var weekdayFromMonday: Int {
        // 1970-01-01 was a Thursday (3).
        ((dayNumber % 7) + 7 + 3) % 7
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> ServiceDate { ServiceDate(dayNumber: dayNumber + days) }

    /// `YYYY-MM-DD`.
    public var description: String { ASCIIWriter.text(capacity: 32) { write(to: &$0) } }

    /// Writes `YYYY-MM-DD` (`description`).
    func write(to writer: inout ASCIIWriter) {
        writer.put(year, digits: 4)
        writer.put("-")
        writer.put(month, digits: 2)
        writer.put("-")
        writer.put(day, digits: 2)
    }

    public static func < (lhs: ServiceDate, rhs: ServiceDate) -> Bool { lhs.yyyymmdd < rhs.yyyymmdd }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
