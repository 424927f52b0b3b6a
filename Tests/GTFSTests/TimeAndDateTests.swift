import XCTest
@testable import GTFS

final class TimeAndDateTests: XCTestCase {
    func testGTFSTimesParseWithOneOrTwoDigitHoursAndPastMidnight() {
        XCTAssertEqual(GTFSTime.seconds("08:05:09"), 8 * 3600 + 5 * 60 + 9)
        XCTAssertEqual(GTFSTime.seconds("8:05:09"), 8 * 3600 + 5 * 60 + 9)
        XCTAssertEqual(GTFSTime.seconds("25:10:00"), 25 * 3600 + 600)
        XCTAssertEqual(GTFSTime.seconds(" 00:00:00 "), 0)
        XCTAssertEqual(GTFSTime.seconds("123:00:00"), 123 * 3600)
    }

    func testMalformedGTFSTimesAreRefused() {
        for text in ["25:61:00", "-1:00:00", "8:5:0", "08:00", "08:00:60", "", "ab:cd:ef", "08-00-00", "1234:00:00"] {
            XCTAssertNil(GTFSTime.seconds(text), text)
        }
    }

    func testGTFSTimeFormatKeepsHoursPast24() {
        XCTAssertEqual(GTFSTime.format(25 * 3600 + 10 * 60 + 5), "25:10:05")
        XCTAssertEqual(GTFSTime.format(0), "00:00:00")
    }

    func testServiceDatesParseAndRefuseDaysThatDoNotExist() {
        XCTAssertEqual(ServiceDate(gtfs: "20150908")?.description, "2015-09-08")
        XCTAssertEqual(ServiceDate(gtfs: "20240229")?.description, "2024-02-29")
        for text in ["20150231", "20230229", "2015098", "201509081", "2015-09-08", "", "20151301"] {
            XCTAssertNil(ServiceDate(gtfs: text), text)
        }
    }

    func testDayNumbersRoundTripAndWeekdaysAreRight() {
        let date = ServiceDate(year: 2015, month: 9, day: 8)!
        XCTAssertEqual(ServiceDate(dayNumber: date.dayNumber), date)
        XCTAssertEqual(date.weekdayFromMonday, 1, "2015-09-08 was a Tuesday")
        XCTAssertEqual(ServiceDate(year: 1970, month: 1, day: 1)!.dayNumber, 0)
        XCTAssertEqual(ServiceDate(year: 2026, month: 3, day: 1)!.adding(days: -1).description, "2026-02-28")
        XCTAssertEqual(ServiceDate(year: 2024, month: 12, day: 31)!.adding(days: 1).description, "2025-01-01")
    }

    func testNoonMinusTwelveHoursFollowsDaylightSavingChanges() throws {
        let berlin = try XCTUnwrap(AgencyTimeZone(identifier: "Europe/Berlin"))
        // On 2026-03-29 clocks go from 02:00 CET to 03:00 CEST: noon is 10:00 UTC, so the
        // service day starts at 22:00 UTC the day before (23:00 local), not at local midnight.
        let spring = ServiceDate(year: 2026, month: 3, day: 29)!
        XCTAssertEqual(berlin.noonMinusTwelveHours(spring), 1_774_735_200)  // 2026-03-28T22:00:00Z
        let local = berlin.localTime(of: berlin.instant(of: 3 * 3600 + 30 * 60, on: spring))
        XCTAssertEqual(local.iso8601, "2026-03-29T03:30:00+02:00")
        // An ordinary day: the service day starts at local midnight.
        let ordinary = ServiceDate(year: 2026, month: 3, day: 30)!
        XCTAssertEqual(berlin.localTime(of: berlin.noonMinusTwelveHours(ordinary)).iso8601, "2026-03-30T00:00:00+02:00")
    }

    func testISOInstantsPadEveryFieldAndSignOffsetsWestOfGreenwichAndOnTheHalfHour() throws {
        // St. John's, Newfoundland: 3 h 30 min west of UTC in winter (-03:30), 2 h 30 in summer.
        let stJohns = try XCTUnwrap(AgencyTimeZone(identifier: "America/St_Johns"))
        let winter = ServiceDate(year: 2026, month: 1, day: 5)!
        XCTAssertEqual(stJohns.localTime(of: stJohns.instant(of: 7 * 60 + 9, on: winter)).iso8601, "2026-01-05T00:07:09-03:30")
        let summer = stJohns.localTime(of: stJohns.instant(of: 25 * 3600 + 5, on: ServiceDate(year: 2026, month: 7, day: 9)!))
        XCTAssertEqual(summer.iso8601, "2026-07-10T01:00:05-02:30", "a time past 24:00 is the next calendar day")
        XCTAssertEqual(summer.hourMinute, "01:00")
        let kolkata = try XCTUnwrap(AgencyTimeZone(identifier: "Asia/Kolkata"))
        XCTAssertEqual(kolkata.localTime(of: kolkata.instant(of: 23 * 3600 + 59 * 60 + 59, on: winter)).iso8601, "2026-01-05T23:59:59+05:30")
        XCTAssertEqual(ServiceDate(year: 987, month: 6, day: 1)!.description, "0987-06-01")
    }

    func testWrittenNumbersArePaddedToTheirDigitsAndKeepTheirSign() {
        XCTAssertEqual(ASCIIWriter.text(capacity: 32) { $0.put(7, digits: 2) }, "07")
        XCTAssertEqual(ASCIIWriter.text(capacity: 32) { $0.put(-7, digits: 2) }, "-07")
        XCTAssertEqual(ASCIIWriter.text(capacity: 32) { $0.put(0, digits: 1) }, "0")
        XCTAssertEqual(ASCIIWriter.text(capacity: 32) { $0.put(123_456, digits: 2) }, "123456", "more digits than asked are all written")
        XCTAssertEqual(ASCIIWriter.text(capacity: 32) { $0.put(Int.min, digits: 2) }, String(Int.min))
    }

    func testUnknownTimeZonesAreRefused() {
        XCTAssertNil(AgencyTimeZone(identifier: "Mars/Olympus_Mons"))
        XCTAssertNil(AgencyTimeZone(identifier: "../../etc/passwd"))
        XCTAssertNotNil(AgencyTimeZone(identifier: "UTC"))
    }
}
