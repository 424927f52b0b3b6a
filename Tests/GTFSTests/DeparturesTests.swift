import XCTest
import FetchRequest
import TestSupport
@testable import GTFS

final class DeparturesTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var transit: TransitDatabase!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        try Importer(feedPath: Paths.demoFeed, databasePath: directory.file("demo.sqlite")).run()
        transit = try TransitDatabase(path: directory.file("demo.sqlite"))
    }

    override func tearDown() {
        transit = nil
        directory = nil
    }

    /// Departures from `stopID` in the window starting at local `date` `time` ("HH:MM") in Europe/Berlin.
    private func departures(_ stopID: String, _ date: String, _ time: String, within minutes: Int,
                            in database: TransitDatabase? = nil, limit: Int = 0) throws -> [Departure] {
        let transit = database ?? self.transit!
        let day = try XCTUnwrap(ServiceDate(gtfs: date.replacingOccurrences(of: "-", with: "")))
        let parts = time.split(separator: ":").map { Int($0)! }
        let start = transit.feeds[0].timeZone.instant(ofLocal: day, hour: parts[0], minute: parts[1], second: parts.count > 2 ? parts[2] : 0)
        var query = DeparturesQuery(stopKeys: try transit.boardingKeys(forStopID: stopID), start: start, duration: minutes * 60)
        query.limit = limit
        return try query.run(on: transit)
    }

    private func summary(_ departures: [Departure]) -> [String] {
        departures.map { "\($0.tripID)@\($0.stopID) \(transit.feeds[0].timeZone.localTime(of: $0.instant).iso8601) \($0.serviceDate) \(GTFSTime.format($0.gtfsTime ?? -1))" }
    }

    func testWindowCrossingMidnightListsBothSides() throws {
        // Monday 2026-03-02, 23:45 for 30 minutes, at the night line's first two stops.
        XCTAssertEqual(summary(try departures("HBF", "2026-03-02", "23:45", within: 30)),
                       ["T3@HBF_2 2026-03-02T23:50:00+01:00 2026-03-02 23:50:00"])
        XCTAssertEqual(summary(try departures("GOR", "2026-03-02", "23:45", within: 30)),
                       ["T3@GOR 2026-03-03T00:05:00+01:00 2026-03-02 24:05:00"])
    }

    func testTripPast24HoursBelongsToThePreviousServiceDay() throws {
        // Saturday 01:00: Friday's night trip is at O'Hara's Corner at 25:10:00 of Friday's service.
        XCTAssertEqual(summary(try departures("OHARA", "2026-03-07", "01:00", within: 15)),
                       ["T3@OHARA 2026-03-07T01:10:00+01:00 2026-03-06 25:10:00"])
        // Sunday 01:00: Saturday has no weekday service, so nothing.
        XCTAssertEqual(try departures("OHARA", "2026-03-08", "01:00", within: 15), [])
    }

    func testCalendarDatesRemoveAndAdd() throws {
        // Friday 2026-12-25: weekday service removed, weekend service added.
        XCTAssertEqual(summary(try departures("HBF", "2026-12-25", "07:55", within: 150)),
                       ["T4@HBF_1 2026-12-25T10:00:00+01:00 2026-12-25 10:00:00"])
        // Thursday 2026-12-24: the EXTRA service exists only in calendar_dates.
        XCTAssertEqual(summary(try departures("MARKT", "2026-12-24", "11:55", within: 10)),
                       ["T5@MARKT 2026-12-24T12:00:00+01:00 2026-12-24 12:00:00"])
        XCTAssertEqual(try departures("MARKT", "2026-12-23", "11:55", within: 10), [])
    }

    func testWeekdayTheServiceDoesNotRun() throws {
        // Saturday: T1 and T6 (weekdays) do not run; T4 (weekends) does.
        XCTAssertEqual(try departures("HBF", "2026-03-07", "07:55", within: 60).map(\.tripID), [])
        XCTAssertEqual(try departures("HBF", "2026-03-07", "09:55", within: 10).map(\.tripID), ["T4"])
        XCTAssertEqual(try departures("HBF", "2026-03-06", "07:55", within: 60).map(\.tripID), ["T1", "T6"])
    }

    func testLastStopAndNoPickupAreNotDepartures() throws {
        XCTAssertEqual(try departures("ZOO", "2026-03-02", "08:35", within: 10), [], "T1 ends at ZOO at 08:40")
        XCTAssertEqual(try departures("STR", "2026-03-02", "09:10", within: 10), [], "T2 does not pick up at STR")
        XCTAssertEqual(try departures("LODZ", "2026-03-02", "09:05", within: 10).map(\.tripID), ["T2"])
    }

    func testInterpolatedTimesCountLikeRealOnes() throws {
        XCTAssertEqual(summary(try departures("CAFE", "2026-03-02", "08:15", within: 10)),
                       ["T1@CAFE 2026-03-02T08:20:00+01:00 2026-03-02 08:20:00"])
    }

    func testStationExpandsToItsPlatforms() throws {
        XCTAssertEqual(try departures("HBF", "2026-03-02", "07:55", within: 40).map(\.stopID), ["HBF_1", "HBF_1"])
        XCTAssertEqual(try departures("HBF", "2026-03-02", "23:45", within: 10).map(\.stopID), ["HBF_2"])
        XCTAssertEqual(try departures("HBF_1", "2026-03-02", "23:45", within: 10), [])
    }

    func testHeadsignAndRouteFallbacks() throws {
        let t6 = try XCTUnwrap(try departures("HBF", "2026-03-02", "08:25", within: 10).first)
        XCTAssertEqual(t6.headsign, "Tierpark via Görlitzer", "stop_headsign first")
        let t1 = try XCTUnwrap(try departures("HBF", "2026-03-02", "07:55", within: 10).first)
        XCTAssertEqual(t1.headsign, "Tierpark", "then trip_headsign")
        let t5 = try XCTUnwrap(try departures("MARKT", "2026-12-24", "11:55", within: 10).first)
        XCTAssertEqual(t5.headsign, "O'Hara's Corner", "then the last stop's name")
        XCTAssertEqual(t5.route, "Ringbahn", "route_long_name when there is no short name")
        XCTAssertEqual(t1.route, "1")
    }

    func testOrderIsInstantThenStopIDThenTripIDAndLimitComesLast() throws {
        let fixture = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nB,B,52.5,13.4\nA,A,52.5,13.4\nEND,End,52.5,13.4\n")
            .with("trips.txt", "route_id,service_id,trip_id\nR,WD,Z\nR,WD,Y\nR,WD,X\n")
            .with("stop_times.txt", """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                Z,08:00:00,08:00:00,A,1
                Z,08:30:00,08:30:00,END,2
                Y,08:00:00,08:00:00,B,1
                Y,08:30:00,08:30:00,END,2
                X,07:59:00,07:59:00,B,1
                X,08:00:00,08:00:00,A,2
                X,08:30:00,08:30:00,END,3
                """)
        let feed = try fixture.write(to: directory, as: "order")
        try Importer(feedPath: feed, databasePath: directory.file("order.sqlite")).run()
        let database = try TransitDatabase(path: directory.file("order.sqlite"))
        let day = ServiceDate(year: 2026, month: 3, day: 2)!
        let start = database.feeds[0].timeZone.instant(ofLocal: day, hour: 7, minute: 0, second: 0)
        let keys = try database.boardingKeys(forStopID: "A") + database.boardingKeys(forStopID: "B")
        var query = DeparturesQuery(stopKeys: keys, start: start, duration: 2 * 3600)
        XCTAssertEqual(try query.run(on: database).map { "\($0.tripID)@\($0.stopID)" }, ["X@B", "X@A", "Z@A", "Y@B"])
        query.limit = 2
        XCTAssertEqual(try query.run(on: database).map { "\($0.tripID)@\($0.stopID)" }, ["X@B", "X@A"])
    }

    func testDaylightSavingDaysFollowNoonMinusTwelveHours() throws {
        // 2026-03-29, clocks go forward at 02:00 in Berlin: T7 at 03:30:00 is 03:30 CEST.
        XCTAssertEqual(summary(try departures("HBF", "2026-03-29", "03:25", within: 10)),
                       ["T7@HBF_2 2026-03-29T03:30:00+02:00 2026-03-29 03:30:00"])
        // 2026-10-25, clocks go back at 03:00: T7 at 03:30:00 is 03:30 CET.
        XCTAssertEqual(summary(try departures("HBF", "2026-10-25", "03:25", within: 10)),
                       ["T7@HBF_2 2026-10-25T03:30:00+01:00 2026-10-25 03:30:00"])
    }

    func testWindowEndsAreIncluded() throws {
        XCTAssertEqual(try departures("HBF", "2026-03-02", "08:00", within: 0).map(\.tripID), ["T1"])
        XCTAssertEqual(try departures("HBF", "2026-03-02", "07:50", within: 10).map(\.tripID), ["T1"])
        XCTAssertEqual(try departures("HBF", "2026-03-02", "07:50", within: 9), [])
    }

    func testFrequencyBasedTripsAreListedAtEveryRun() throws {
        // F's template leaves A at 06:00 and reaches B 10 minutes later; it runs every 15 minutes from
        // 06:00 until (not including) 07:00, and again every hour from 23:30 until 26:00.
        let fixture = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,A,52.5,13.4\nB,B,52.5,13.4\nC,C,52.5,13.4\n")
            .with("trips.txt", "route_id,service_id,trip_id\nR,WD,F\nR,WD,PLAIN\n")
            .with("stop_times.txt", """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                F,06:00:00,06:00:00,A,1
                F,06:10:00,06:10:00,B,2
                F,06:20:00,06:20:00,C,3
                PLAIN,06:40:00,06:40:00,B,1
                PLAIN,06:50:00,06:50:00,C,2
                """)
            .with("frequencies.txt", "trip_id,start_time,end_time,headway_secs\nF,06:00:00,07:00:00,900\nF,23:30:00,26:00:00,3600\n")
        let feed = try fixture.write(to: directory, as: "frequencies")
        try Importer(feedPath: feed, databasePath: directory.file("frequencies.sqlite")).run()
        let database = try TransitDatabase(path: directory.file("frequencies.sqlite"))
        XCTAssertTrue(database.feeds[0].hasFrequencies)
        func times(_ stop: String, _ date: ServiceDate, _ hour: Int, _ minute: Int, within: Int) throws -> [String] {
            let start = database.feeds[0].timeZone.instant(ofLocal: date, hour: hour, minute: minute, second: 0)
            let query = DeparturesQuery(stopKeys: try database.boardingKeys(forStopID: stop), start: start, duration: within * 60)
            return try query.run(on: database).map { "\($0.tripID) \(GTFSTime.format($0.gtfsTime ?? -1)) \($0.serviceDate)" }
        }
        let monday = ServiceDate(year: 2026, month: 3, day: 2)!
        XCTAssertEqual(try times("B", monday, 6, 20, within: 30),
                       ["F 06:25:00 2026-03-02", "F 06:40:00 2026-03-02", "PLAIN 06:40:00 2026-03-02"])
        XCTAssertEqual(try times("B", monday, 6, 5, within: 5), ["F 06:10:00 2026-03-02"], "the template time is one run, listed once")
        XCTAssertEqual(try times("A", monday, 6, 50, within: 20), [], "07:00 is the period's end: no run starts then")
        // Past midnight: Monday's runs at 24:30 and 25:30 reach B at 24:40 and 25:40, on Tuesday morning.
        XCTAssertEqual(try times("B", monday.adding(days: 1), 0, 0, within: 120),
                       ["F 24:40:00 2026-03-02", "F 25:40:00 2026-03-02"])
    }

    func testUnknownStopIsReported() {
        XCTAssertThrowsError(try transit.boardingKeys(forStopID: "NOPE")) { error in
            XCTAssertEqual(error as? TransitError, .unknownStop(id: "NOPE"))
        }
    }

    func testPlanUsesTheStopDepartureIndex() throws {
        let query = DeparturesQuery(stopKeys: [1, 2, 3], start: 0, duration: 600)
        let prepared = try SQLGenerator.prepare(query.requestPerServiceDate(feed: transit.feeds[0].tables, stopKeys: query.stopKeys))
            .substituting(["date": 20260302, "from": 28800, "to": 30000, "limit": 20])
        let plan = try transit.database.queryPlan(prepared)
        XCTAssertTrue(plan.tree.contains("SEARCH stop_times USING COVERING INDEX stop_times_1_by_stop_departure (stop=? AND departure>? AND departure<?)"),
                      "the stop times in the window are read from the index alone: \(plan.tree)")
        XCTAssertEqual(plan.fullyScannedTables, [], plan.tree)
        let headsign = try SQLGenerator.prepare(DeparturesQuery.stopHeadsignRequest(feed: transit.feeds[0].tables)).substituting(["trip": 1, "sequence": 1])
        let headsignPlan = try transit.database.queryPlan(headsign).tree
        XCTAssertTrue(headsignPlan.contains("SEARCH stop_times USING PRIMARY KEY (trip=? AND stop_sequence=?)"), headsignPlan)
    }

    /// The stop_headsign is read by key for the departures listed, not for every stop time in the
    /// window; a feed whose import found none reads it for none.
    func testStopHeadsignsAreReadForTheListedDeparturesOnly() throws {
        var requests: [String] = []
        transit.database.observer = { requests.append($0.request.sql) }
        let listed = try departures("HBF", "2026-03-02", "07:55", within: 60, limit: 1)
        XCTAssertEqual(listed.map(\.headsign), ["Tierpark"])
        XCTAssertEqual(requests.filter { $0.hasPrefix("SELECT \"stop_times\".\"stop_headsign\"") }.count, 1, "\(requests)")
        XCTAssertTrue(try transit.hasStopHeadsigns(transit.feeds[0]))

        let fixture = FeedFixture()
            .with("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,A,52.5,13.4\nEND,End,52.5,13.4\n")
            .with("trips.txt", "route_id,service_id,trip_id,trip_headsign\nR,WD,X,Outbound\n")
            .with("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign\nX,08:00:00,08:00:00,A,1,\nX,08:30:00,08:30:00,END,2,\n")
        try Importer(feedPath: try fixture.write(to: directory, as: "plain"), databasePath: directory.file("plain.sqlite")).run()
        let plain = try TransitDatabase(path: directory.file("plain.sqlite"))
        XCTAssertFalse(try plain.hasStopHeadsigns(plain.feeds[0]))
        requests = []
        plain.database.observer = { requests.append($0.request.sql) }
        XCTAssertEqual(try departures("A", "2026-03-02", "07:55", within: 10, in: plain).map(\.headsign), ["Outbound"])
        XCTAssertFalse(requests.contains { $0.hasPrefix("SELECT \"stop_times\".\"stop_headsign\"") }, "\(requests)")
    }
}

extension DeparturesTests {
    /// Rows are read at the places of the names `DepartureColumns` lists: every request must select exactly those.
    func testEveryDeparturesRequestSelectsTheNamesItsRowsAreReadBy() {
        let query = DeparturesQuery(stopKeys: [1], start: 0, duration: 600)
        let tables = transit.feeds[0].tables
        let all: (SQLExpression) -> SQLPredicate = { _ in .all }
        XCTAssertEqual(query.requestPerServiceDate(feed: tables, stops: all).selection.map(\.name), DepartureColumns.identityNames)
        XCTAssertEqual(DeparturesQuery.stopHeadsignRequest(feed: tables).selection.map(\.name), ["stop_headsign"])
        XCTAssertEqual(query.frequencyRequestPerServiceDate(feed: tables, stops: all).selection.map(\.name), DepartureColumns.frequencyNames)
        XCTAssertEqual(DeparturesQuery.stopTimeRequest(feed: tables).selection.map(\.name), DepartureColumns.shownNames)
        XCTAssertEqual(DeparturesQuery.addedDeparturesRequest(feed: tables, stops: all).selection.map(\.name), DepartureColumns.addedNames)
        XCTAssertEqual(DeparturesQuery.realtimeChangesRequest(feed: tables, stops: all).selection.map(\.name), DepartureColumns.changeNames)
    }
}
