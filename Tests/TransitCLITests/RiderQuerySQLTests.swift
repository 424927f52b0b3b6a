import XCTest
import Foundation
import TestSupport

/// The SQL of each rider query, pinned beside the plans the other tests check: the distinct
/// statements `--explain` prints for each command on the demo feed, in the order they first run.
/// A change to the SQL generator or to a query shows here as the SQL it makes.
final class RiderQuerySQLTests: XCTestCase {
    /// The distinct statements `transit ARGUMENTS --explain` ran, in the order they first ran.
    private func statements(_ arguments: [String]) throws -> [String] {
        let run = try CommandRun.transit(arguments + ["--explain", "--db", try DemoDatabase.path()])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var statements: [String] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("-- statement ") && index + 1 < lines.count {
            if !statements.contains(lines[index + 1]) { statements.append(lines[index + 1]) }
        }
        return statements
    }


    /// `nearby`: the stops in the box around the point (an index range on longitude).
    func testNearbySQLIsPinned() throws {
        let sql = try statements(["nearby", "52.5249", "13.3692", "--radius", "800", "--format", "json"])
        XCTAssertEqual(sql.count, 1, sql.joined(separator: "\n"))
        guard sql.count == 1 else { return }
        assertEqualSQL(sql[0], #"/* planned once */ SELECT "stops"."id", "stops"."stop_id", "stops"."stop_name", "stops"."stop_lat", "stops"."stop_lon", "stops"."location_type", "stops"."parent", "stops"."platform_code", "stops"."feed" FROM "stops" WHERE "stops"."stop_lon" BETWEEN ? AND ? AND "stops"."stop_lat" BETWEEN ? AND ? AND "stops"."location_type" IN (?, ?) AND "stops"."parent" IS NULL"#)
    }

    /// `departures --stop`: the stop and its platforms, then the timetable per service date and the stop headsigns of the rows listed.
    func testDeparturesFromAStopSQLIsPinned() throws {
        let sql = try statements(["departures", "--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "90", "--format", "json"])
        XCTAssertEqual(sql.count, 5, sql.joined(separator: "\n"))
        guard sql.count == 5 else { return }
        assertEqualSQL(sql[0], #"SELECT "stops"."id", "stops"."stop_id", "stops"."stop_name", "stops"."stop_lat", "stops"."stop_lon", "stops"."location_type", "stops"."parent", "stops"."platform_code", "stops"."feed" FROM "stops" WHERE "stops"."stop_id" = ?"#)
        assertEqualSQL(sql[1], #"SELECT "stops"."id" FROM "stops" WHERE "stops"."parent" = ? AND "stops"."location_type" = ?"#)
        assertEqualSQL(sql[2], #"SELECT "metadata"."key", "metadata"."value" FROM "metadata" WHERE "metadata"."key" = ? LIMIT ?"#)
        assertEqualSQL(sql[3], #"/* planned once */ SELECT "stop_times.stop"."stop_id", "stop_times.stop"."stop_name", "stop_times.stop"."platform_code", "stop_times"."trip_id", "stop_times.trip.route"."route_id", COALESCE("stop_times.trip.route"."route_short_name", "stop_times.trip.route"."route_long_name") AS "route", COALESCE("stop_times"."trip_headsign", (SELECT "stop_times.trip.last_stop"."stop_name" FROM "stops" AS "stop_times.trip.last_stop" WHERE "stop_times.trip.last_stop"."id" = "stop_times"."last_stop")) AS "headsign", "stop_times"."departure", "stop_times.stop"."stop_lat", "stop_times.stop"."stop_lon", "stop_times"."trip", "stop_times"."stop_sequence" FROM (SELECT "stop_times"."departure", "stop_times"."stop", "stop_times"."trip", "stop_times"."stop_sequence", "stop_times.trip"."trip_id", "stop_times.trip"."trip_headsign", "stop_times.trip"."route", "stop_times.trip"."last_stop" FROM "stop_times_1" AS "stop_times" JOIN "trips" AS "stop_times.trip" ON "stop_times.trip"."id" = "stop_times"."trip" WHERE ("stop_times"."service_number" + ?) IN (SELECT DISTINCT "service_days"."service" FROM "service_days_1" AS "service_days" WHERE "service_days"."date" = ?) AND "stop_times"."pickup_type" IS NOT ? AND "stop_times"."stop_sequence" < "stop_times.trip"."last_stop_sequence" AND "stop_times"."stop" IN (?, ?, ?) AND "stop_times"."departure" BETWEEN ? AND ? /* first rows by "stop_times"."departure" */) AS "stop_times" JOIN "stops" AS "stop_times.stop" ON "stop_times.stop"."id" = "stop_times"."stop" JOIN "routes" AS "stop_times.trip.route" ON "stop_times.trip.route"."id" = "stop_times"."route" ORDER BY "stop_times"."departure", "stop_times.stop"."stop_id", "stop_times"."trip_id" LIMIT ?"#)
        assertEqualSQL(sql[4], #"SELECT "stop_times"."stop_headsign" FROM "stop_times_1" AS "stop_times" WHERE "stop_times"."trip" = ? AND "stop_times"."stop_sequence" = ?"#)
    }

    /// `departures --near`: the stops near the point, then their departures.
    func testDeparturesNearAPointSQLIsPinned() throws {
        let sql = try statements(["departures", "--near", "52.5249,13.3692", "--at", "2026-03-02 07:55", "--within", "30", "--format", "json"])
        XCTAssertEqual(sql.count, 4, sql.joined(separator: "\n"))
        guard sql.count == 4 else { return }
        assertEqualSQL(sql[0], #"/* planned once */ SELECT "stops"."id", "stops"."stop_lat", "stops"."stop_lon" FROM "stops" WHERE "stops"."stop_lon" BETWEEN ? AND ? AND "stops"."stop_lat" BETWEEN ? AND ? AND "stops"."location_type" = ?"#)
        assertEqualSQL(sql[1], #"SELECT "metadata"."key", "metadata"."value" FROM "metadata" WHERE "metadata"."key" = ? LIMIT ?"#)
        assertEqualSQL(sql[2], #"/* planned once */ SELECT "stop_times.stop"."stop_id", "stop_times.stop"."stop_name", "stop_times.stop"."platform_code", "stop_times"."trip_id", "stop_times.trip.route"."route_id", COALESCE("stop_times.trip.route"."route_short_name", "stop_times.trip.route"."route_long_name") AS "route", COALESCE("stop_times"."trip_headsign", (SELECT "stop_times.trip.last_stop"."stop_name" FROM "stops" AS "stop_times.trip.last_stop" WHERE "stop_times.trip.last_stop"."id" = "stop_times"."last_stop")) AS "headsign", "stop_times"."departure", "stop_times.stop"."stop_lat", "stop_times.stop"."stop_lon", "stop_times"."trip", "stop_times"."stop_sequence" FROM (SELECT "stop_times"."departure", "stop_times"."stop", "stop_times"."trip", "stop_times"."stop_sequence", "stop_times.trip"."trip_id", "stop_times.trip"."trip_headsign", "stop_times.trip"."route", "stop_times.trip"."last_stop" FROM "stop_times_1" AS "stop_times" JOIN "trips" AS "stop_times.trip" ON "stop_times.trip"."id" = "stop_times"."trip" WHERE ("stop_times"."service_number" + ?) IN (SELECT DISTINCT "service_days"."service" FROM "service_days_1" AS "service_days" WHERE "service_days"."date" = ?) AND "stop_times"."pickup_type" IS NOT ? AND "stop_times"."stop_sequence" < "stop_times.trip"."last_stop_sequence" AND "stop_times"."stop" IN (?, ?) AND "stop_times"."departure" BETWEEN ? AND ? /* first rows by "stop_times"."departure" */) AS "stop_times" JOIN "stops" AS "stop_times.stop" ON "stop_times.stop"."id" = "stop_times"."stop" JOIN "routes" AS "stop_times.trip.route" ON "stop_times.trip.route"."id" = "stop_times"."route" ORDER BY "stop_times"."departure", "stop_times.stop"."stop_id", "stop_times"."trip_id" LIMIT ?"#)
        assertEqualSQL(sql[3], #"SELECT "stop_times"."stop_headsign" FROM "stop_times_1" AS "stop_times" WHERE "stop_times"."trip" = ? AND "stop_times"."stop_sequence" = ?"#)
    }

    /// `search`: the name prefixes, names starting with the text first.
    func testSearchSQLIsPinned() throws {
        let sql = try statements(["search", "gorli ", "--format", "json"])
        XCTAssertEqual(sql.count, 2, sql.joined(separator: "\n"))
        guard sql.count == 2 else { return }
        assertEqualSQL(sql[0], #"SELECT "stops"."id", "stops"."stop_id", "stops"."stop_name", "stops"."stop_lat", "stops"."stop_lon", "stops"."location_type", "stops"."parent", "stops"."platform_code", "stops"."feed", "stop_name_prefixes"."shown_name" FROM "stop_name_prefixes" JOIN "stops" ON "stops"."id" = "stop_name_prefixes"."shown" WHERE "stop_name_prefixes"."prefix" = ? AND "stop_name_prefixes"."shown_in" IN (?, ?) AND "stop_name_prefixes"."shown_name" >= ? AND "stop_name_prefixes"."shown_name" < ? ORDER BY "stop_name_prefixes"."shown_name", "stop_name_prefixes"."shown_stop_id", "stop_name_prefixes"."shown""#)
        assertEqualSQL(sql[1], #"SELECT "stops"."id", "stops"."stop_id", "stops"."stop_name", "stops"."stop_lat", "stops"."stop_lon", "stops"."location_type", "stops"."parent", "stops"."platform_code", "stops"."feed", "stop_name_prefixes"."shown_name" FROM "stop_name_prefixes" JOIN "stops" ON "stops"."id" = "stop_name_prefixes"."shown" WHERE "stop_name_prefixes"."prefix" = ? AND "stop_name_prefixes"."shown_in" IN (?, ?) AND NOT ("stop_name_prefixes"."shown_name" >= ? AND "stop_name_prefixes"."shown_name" < ?) ORDER BY "stop_name_prefixes"."shown_name", "stop_name_prefixes"."shown_stop_id", "stop_name_prefixes"."shown""#)
    }

    /// `trip`: the trip, its calls and whether it runs.
    func testTripSQLIsPinned() throws {
        let sql = try statements(["trip", "T1", "--date", "2026-03-02", "--format", "json"])
        XCTAssertEqual(sql.count, 4, sql.joined(separator: "\n"))
        guard sql.count == 4 else { return }
        assertEqualSQL(sql[0], #"SELECT "trips"."id", "trips"."trip_headsign" AS "label" FROM "trips" WHERE "trips"."trip_id" = ?"#)
        assertEqualSQL(sql[1], #"SELECT "trips"."trip_id", "trips.route"."route_id", "trips.route"."route_short_name" AS "route.route_short_name", "trips.route"."route_long_name" AS "route.route_long_name", "trips"."trip_headsign", "trips"."direction_id", "trips.route.agency"."agency_name" AS "route.agency.agency_name", "trips.service"."service_id", "trips"."shape_id", (SELECT "directions"."direction" FROM "directions" WHERE "directions"."route" = "trips"."route" AND "directions"."direction_id" = "trips"."direction_id") AS "direction", "trips"."service" FROM "trips" JOIN "routes" AS "trips.route" ON "trips.route"."id" = "trips"."route" LEFT JOIN "agency" AS "trips.route.agency" ON "trips.route.agency"."id" = "trips.route"."agency" JOIN "services" AS "trips.service" ON "trips.service"."id" = "trips"."service" WHERE "trips"."id" BETWEEN ? AND ? AND "trips"."id" = ? ORDER BY "trips"."id""#)
        assertEqualSQL(sql[2], #"SELECT "stop_times"."stop_sequence", "stop_times.stop"."stop_id", "stop_times.stop"."stop_name" AS "stop.stop_name", "stop_times.stop"."platform_code" AS "stop.platform_code", "stop_times.stop"."stop_lat" AS "stop.stop_lat", "stop_times.stop"."stop_lon" AS "stop.stop_lon", "stop_times"."arrival" AS "arrival_time", "stop_times"."departure" AS "departure_time", "stop_times"."interpolated", "stop_times"."pickup_type", "stop_times"."drop_off_type", "stop_times"."stop" FROM "stop_times_1" AS "stop_times" JOIN "stops" AS "stop_times.stop" ON "stop_times.stop"."id" = "stop_times"."stop" WHERE "stop_times"."trip" = ? ORDER BY "stop_times"."trip", "stop_times"."stop_sequence""#)
        assertEqualSQL(sql[3], #"SELECT COUNT(*) FROM "service_days_1" AS "service_days" WHERE "service_days"."date" = ? AND "service_days"."service" = ?"#)
    }

    /// `plan`: the stops, then the planner's stop index and the patterns it scans, by key.
    func testPlanReadsPatternsSQLIsPinned() throws {
        let sql = try statements(["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--format", "json", "--stops"])
        XCTAssertEqual(sql.count, 10, sql.joined(separator: "\n"))
        guard sql.count == 10 else { return }
        assertEqualSQL(sql[0], #"SELECT "stops"."id", "stops"."stop_id", "stops"."stop_name", "stops"."stop_lat", "stops"."stop_lon", "stops"."location_type", "stops"."parent", "stops"."platform_code", "stops"."feed" FROM "stops" WHERE "stops"."stop_id" = ?"#)
        assertEqualSQL(sql[1], #"SELECT "stops"."id" FROM "stops" WHERE "stops"."parent" = ? AND "stops"."location_type" = ?"#)
        assertEqualSQL(sql[2], #"SELECT COUNT(*) FROM "sqlite_master" WHERE "sqlite_master"."name" = ?"#)
        assertEqualSQL(sql[3], #"SELECT MAX("id") FROM "planner_1""#)
        assertEqualSQL(sql[4], #"SELECT "data" FROM "planner_1" WHERE "id" = ?"#)
        assertEqualSQL(sql[5], #"SELECT "from_stop", "to_stop", "transfer_type", "min_transfer_time" FROM "transfers_1" WHERE "from_route" IS NULL AND "to_route" IS NULL AND "from_trip" IS NULL AND "to_trip" IS NULL AND "from_stop" IS NOT NULL AND "to_stop" IS NOT NULL AND "transfer_type" <= ?"#)
        assertEqualSQL(sql[6], #"SELECT "service_days"."service" FROM "service_days_1" AS "service_days" WHERE "service_days"."date" = ?"#)
        assertEqualSQL(sql[7], #"SELECT "stops"."id", "stops"."stop_id", "stops"."stop_name", "stops"."stop_lat", "stops"."stop_lon", "stops"."location_type", "stops"."parent", "stops"."platform_code", "stops"."feed" FROM "stops" WHERE "stops"."id" IN (?, ?, ?, ?, ?)"#)
        assertEqualSQL(sql[8], #"SELECT "trips"."id", "trips"."feed", "trips"."trip_id", "trips"."route", "trips"."service", "trips"."trip_headsign", "trips"."trip_short_name", "trips"."direction_id", "trips"."block_id", "trips"."shape_id", "trips"."wheelchair_accessible", "trips"."bikes_allowed" FROM "trips" WHERE "trips"."id" IN (?, ?)"#)
        assertEqualSQL(sql[9], #"SELECT "routes"."id", "routes"."feed", "routes"."route_id", "routes"."agency", "routes"."route_short_name", "routes"."route_long_name", "routes"."route_type", "routes"."route_color", "routes"."route_text_color", "routes"."route_sort_order" FROM "routes" WHERE "routes"."id" IN (?)"#)
    }
}
