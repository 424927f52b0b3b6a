import ArgumentParser
import GTFS

/// A time typed by the user: `YYYY-MM-DD HH:MM[:SS]` (or with a `T`), read in the zone of the
/// feeds asked, or ISO 8601 with a UTC offset (`+02:00`, `-0500`, `+02`) or `Z`, an instant anywhere.
struct WallClockTime {
    let date: ServiceDate
    let hour: Int
    let minute: Int
    let second: Int
    /// The offset typed, in seconds east of UTC; nil when none was (read in the feed's zone).
    let utcOffsetSeconds: Int?

    /// Parses `text`; messages call it `name` (`--at`, or the `at` column of a batch).
    init(_ text: String, name: String = "--at") throws {
        let problem = ValidationError("\(name) takes \"YYYY-MM-DD HH:MM[:SS]\" in the feed's time zone, or ISO 8601 with an offset (2025-06-01T08:00+02:00, 2025-06-01T06:00Z); got '\(text)'")
        var trimmed = Substring(text.trimmingSpaces)
        var offset: Int?
        if trimmed.hasSuffix("Z") || trimmed.hasSuffix("z") {
            offset = 0
            trimmed = trimmed.dropLast()
        } else if let sign = trimmed.lastIndex(where: { $0 == "+" || $0 == "-" }),
                  let clockStart = trimmed.firstIndex(where: { $0 == " " || $0 == "T" }), sign > clockStart {
            let digits = trimmed[trimmed.index(after: sign)...].filter { $0 != ":" }
            guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  trimmed[trimmed.index(after: sign)...].filter({ $0 == ":" }).count <= (digits.count == 4 ? 1 : 0),
                  let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
                  hours <= 18, minutes < 60 else { throw problem }
            offset = (trimmed[sign] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            trimmed = trimmed[..<sign]
        }
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2 else { throw problem }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, clock.count == 2 || clock.count == 3,
              day[0].count == 4, day[1].count == 2, day[2].count == 2, clock.allSatisfy({ $0.count == 2 }),
              (day + clock).allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
              let hour = Int(clock[0]), let minute = Int(clock[1]) else { throw problem }
        let second = clock.count == 3 ? Int(clock[2]) ?? 99 : 0
        guard let date = ServiceDate(year: year, month: month, day: dayOfMonth) else {
            throw ValidationError("\(name): \(parts[0]) is not a date")
        }
        guard hour < 24, minute < 60, second < 60 else { throw ValidationError("\(name): \(parts[1]) is not a time of day") }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetSeconds = offset
    }

    /// The instant it names: with an offset, that instant; without, the wall-clock time in `zone`.
    func instant(in zone: AgencyTimeZone) -> Int {
        guard let utcOffsetSeconds else { return zone.instant(ofLocal: date, hour: hour, minute: minute, second: second) }
        return (date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second) - utcOffsetSeconds
    }

    /// This time written with `offset`, for messages.
    func example(offset: String) -> String {
        "\(date)T\(GTFSTime.twoDigitsPublic(hour)):\(GTFSTime.twoDigitsPublic(minute))\(offset)"
    }
}
