import XCTest
import Foundation
import TestSupport

final class StatsAndListCommandTests: XCTestCase {
    private func transit(_ arguments: [String]) throws -> CommandRun {
        try CommandRun.transit(arguments + ["--db", try DemoDatabase.path()])
    }

    func testStatsJSONCountsRowsAndAggregates() throws {
        let run = try transit(["stats", "--date", "2026-03-02", "--stop", "HBF", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let rows = try XCTUnwrap(object["rows"] as? [String: Int])
        XCTAssertEqual(rows["stops"], 11)
        XCTAssertEqual(rows["stop_times"], 24)
        XCTAssertEqual(rows["trips"], 7)
        XCTAssertEqual(object["service_dates"] as? [String: String], ["first": "2026-01-01", "last": "2026-12-31"])
        XCTAssertEqual(object["departure_times"] as? [String: String], ["earliest": "03:30:00", "latest": "25:30:00"])
        let busiest = try XCTUnwrap(object["busiest_stops"] as? [[String: Any]])
        // Monday: GOR has T1, T3 (24:05) and T6; ties are ordered by stop_id.
        XCTAssertEqual(busiest.map { $0["stop_id"] as? String }, ["GOR", "HBF_1", "LODZ", "CAFE", "HBF_2", "OHARA", "ZOO"])
        XCTAssertEqual(busiest.first?["departures"] as? Int, 3)
        let hourly = try XCTUnwrap(object["departures_per_hour"] as? [[String: Int]])
        XCTAssertEqual(hourly, [["hour": 8, "departures": 2], ["hour": 23, "departures": 1]])
    }

    func testStatsTableDrawsTheHourlyChartAndCSVGivesNumbers() throws {
        let table = try transit(["stats", "--date", "2026-03-02", "--stop", "HBF"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("  08:00  ████████████████████████████████████████ 2\n  23:00  ████████████████████ 1\n"), table.stdout)
        let csv = try transit(["stats", "--date", "2026-03-02", "--stop", "HBF", "--format", "csv"])
        XCTAssertTrue(csv.stdout.contains("departures_per_hour 2026-03-02,8,2\r\n"), csv.stdout)
        XCTAssertTrue(csv.stdout.hasPrefix("section,name,value\r\nfeeds,feed,lindenau\r\nrows,agency,1\r\n"), csv.stdout)
        let bad = try transit(["stats", "--date", "2026-13-01"])
        XCTAssertEqual(bad.status, 64)
        let unknown = try transit(["stats", "--stop", "NOPE"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("transit search"), unknown.stderr)
    }

    func testListStreamsTheFeedsOwnColumnsAndIDs() throws {
        let run = try transit(["list", "stop-times", "--where", "trip_id=T1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
            feed,trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,timepoint,shape_dist_traveled,interpolated\r
            lindenau,T1,08:00:00,08:00:00,HBF_1,1,,0,0,,,0\r
            lindenau,T1,08:10:00,08:10:00,GOR,2,,0,0,,,0\r
            lindenau,T1,08:20:00,08:20:00,CAFE,3,,0,0,,,1\r
            lindenau,T1,08:30:00,08:30:00,LODZ,4,,0,0,,,1\r
            lindenau,T1,08:40:00,08:40:00,ZOO,5,,0,0,,,0\r

            """)
    }

    func testListFiltersCombineAndValuesAreBound() throws {
        let json = try transit(["list", "stops", "--where", "parent_station=HBF", "--where", "location_type=0", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["stop_id"] as? String }, ["HBF_1", "HBF_2"])
        XCTAssertEqual(rows.first?["stop_lat"] as? Double, 52.5251)
        let times = try transit(["list", "stop-times", "--where", "departure_time=24:05:00"])
        XCTAssertEqual(times.stdout.split(separator: "\r\n").count, 2, times.stdout)
        let quoted = try transit(["list", "stops", "--where", "stop_name=Marktplatz, Nord"])
        XCTAssertTrue(quoted.stdout.contains("MARKT,,\"Marktplatz, Nord\",\"Says \"\"Markt\"\" on the sign\""), quoted.stdout)
        let hostile = try transit(["list", "stops", "--where", "stop_id=' OR '1'='1"])
        XCTAssertEqual(hostile.status, 0)
        XCTAssertEqual(hostile.stdout.split(separator: "\r\n").count, 1, "only the header: the value is data")
        let empty = try transit(["list", "routes", "--where", "route_id=NONE", "--format", "json"])
        XCTAssertEqual(empty.stdout, "[]\n")
    }

    func testListRefusesUnknownTablesAndFields() throws {
        let table = try transit(["list", "spaceships"])
        XCTAssertEqual(table.status, 64)
        XCTAssertTrue(table.stderr.contains("unknown table 'spaceships'; list one of agency, stops, routes"), table.stderr)
        for condition in ["stop_id", "nope=1", "stop_id; DROP TABLE stops=1", "\"stop_id\"=x"] {
            let run = try transit(["list", "stops", "--where", condition])
            XCTAssertEqual(run.status, 64, condition)
            XCTAssertTrue(run.stderr.contains("--where takes FIELD=VALUE"), run.stderr)
        }
        let typed = try transit(["list", "stops", "--where", "location_type=upside"])
        XCTAssertEqual(typed.status, 64)
        XCTAssertTrue(typed.stderr.contains("location_type takes a number or one of"), typed.stderr)
    }

    func testListCoversEveryTableOfTheModel() throws {
        for table in ["agency", "calendar", "calendar_dates", "frequencies", "shapes", "feed_info", "directions", "services", "service_days", "feeds"] {
            let run = try transit(["list", table, "--format", "json"])
            XCTAssertEqual(run.status, 0, "\(table): \(run.stderr)")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)), table)
        }
        let dates = try transit(["list", "calendar_dates"])
        XCTAssertEqual(dates.stdout, """
            feed,service_id,date,exception_type\r
            lindenau,WD,20261225,2\r
            lindenau,WE,20261225,1\r
            lindenau,EXTRA,20261224,1\r

            """)
    }
}
