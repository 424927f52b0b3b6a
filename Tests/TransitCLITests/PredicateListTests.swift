import XCTest
import Foundation
import GTFS
import TestSupport

/// `transit list TABLE --predicate …` on the demo feed (data/lindenau): each kind of predicate
/// answered by the release binary, against rows computed here from the feed's own CSV files.
final class PredicateListTests: XCTestCase {
    private func transit(_ arguments: [String]) throws -> CommandRun {
        try CommandRun.transit(arguments + ["--db", try DemoDatabase.path()])
    }

    /// The rows of one of the demo feed's files, by column name (a small RFC 4180 reader).
    private func rows(_ file: String) throws -> [[String: String]] {
        var text = try String(contentsOfFile: Paths.demoFeed + "/" + file, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var records: [[String]] = [[]]
        var field = ""
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                records[records.count - 1].append(field); field = ""
            } else if character == "\n" || character == "\r\n" {
                records[records.count - 1].append(field); field = ""
                records.append([])
            } else if character != "\r" {
                field.append(character)
            }
        }
        if !field.isEmpty || !(records.last ?? []).isEmpty { records[records.count - 1].append(field) }
        let header = records.removeFirst()
        return records.filter { !$0.isEmpty }.map { Dictionary(uniqueKeysWithValues: zip(header, $0 + Array(repeating: "", count: max(0, header.count - $0.count)))) }
    }

    /// The values of `column` in the CSV `transit list` printed (header first, CRLF lines).
    private func listed(_ arguments: [String], column: String) throws -> [String] {
        let run = try transit(["list"] + arguments)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
        let lines = run.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init),
              let index = header.firstIndex(of: column) else { XCTFail("no column \(column) in \(run.stdout)"); return [] }
        // The values asked for here never hold commas or quotes.
        return lines.dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[index]) }
    }

    private func seconds(_ time: String) -> Int? { GTFSTime.seconds(time) }

    func testStringOperatorsFoldAsSearchDoes() throws {
        let stops = try rows("stops.txt")
        XCTAssertEqual(try listed(["stops", "--predicate", "stop_name BEGINSWITH[cd] %@", "--arg", "lodz"], column: "stop_id"),
                       stops.filter { NameNormalizer.normalize($0["stop_name"]!).hasPrefix("lodz") }.map { $0["stop_id"]! })
        XCTAssertEqual(try listed(["stops", "--predicate", "stop_name LIKE[c] '*straße'"], column: "stop_id"),
                       stops.filter { $0["stop_name"]!.lowercased().hasSuffix("straße") }.map { $0["stop_id"]! })
        XCTAssertEqual(try listed(["stops", "--predicate", "stop_name CONTAINS[d] 'Elysee'"], column: "stop_id"), ["CAFE"])
        XCTAssertEqual(try listed(["stops", "--predicate", "stop_name CONTAINS 'elysee'"], column: "stop_id"), [], "no options: exact")
    }

    func testToOneKeyPathsFollowRelationships() throws {
        let routeOfTrip = Dictionary(uniqueKeysWithValues: try rows("trips.txt").map { ($0["trip_id"]!, $0["route_id"]!) })
        let shortName = Dictionary(uniqueKeysWithValues: try rows("routes.txt").map { ($0["route_id"]!, $0["route_short_name"]!) })
        let expected = try rows("stop_times.txt").filter { shortName[routeOfTrip[$0["trip_id"]!]!] == "1" }.map { $0["trip_id"]! + "/" + $0["stop_sequence"]! }
        let trips = try listed(["stop_times", "--predicate", "trip.route.route_short_name == %@", "--arg", "1"], column: "trip_id")
        let sequences = try listed(["stop_times", "--predicate", "trip.route.route_short_name == %@", "--arg", "1"], column: "stop_sequence")
        XCTAssertEqual(zip(trips, sequences).map { $0 + "/" + $1 }, expected)
    }

    func testToManyKeyPathsTakeQuantifiersAggregatesAndSubqueries() throws {
        let trips = try rows("trips.txt")
        let stopTimes = try rows("stop_times.txt")
        let stopName = Dictionary(uniqueKeysWithValues: try rows("stops.txt").map { ($0["stop_id"]!, $0["stop_name"]!) })
        let routes = try rows("routes.txt").map { $0["route_id"]! }
        func tripsOf(_ route: String) -> [[String: String]] { trips.filter { $0["route_id"] == route } }
        func stopsOf(_ trip: String) -> [[String: String]] { stopTimes.filter { $0["trip_id"] == trip } }

        XCTAssertEqual(try listed(["routes", "--predicate", "ANY trips.stop_times.stop.stop_name CONTAINS[cd] 'gorlitzer'"], column: "route_id"),
                       routes.filter { route in tripsOf(route).contains { stopsOf($0["trip_id"]!).contains { NameNormalizer.normalize(stopName[$0["stop_id"]!]!).contains("gorlitzer") } } })
        XCTAssertEqual(try listed(["routes", "--predicate", "ALL trips.direction_id == 0"], column: "route_id"),
                       routes.filter { tripsOf($0).allSatisfy { $0["direction_id"] == "0" } })
        XCTAssertEqual(try listed(["routes", "--predicate", "NONE trips.service.service_id == 'WE'"], column: "route_id"),
                       routes.filter { !tripsOf($0).contains { $0["service_id"] == "WE" } })
        XCTAssertEqual(try listed(["trips", "--predicate", "stop_times.@count > 3"], column: "trip_id"),
                       trips.map { $0["trip_id"]! }.filter { stopsOf($0).count > 3 })
        XCTAssertEqual(try listed(["trips", "--predicate", "SUBQUERY(stop_times, $st, $st.pickup_type == 'none').@count > 0"], column: "trip_id"),
                       trips.map { $0["trip_id"]! }.filter { stopsOf($0).contains { $0["pickup_type"] == "1" } })
        XCTAssertEqual(try listed(["trips", "--predicate", "stop_times.@max.departure_time >= '24:00:00'"], column: "trip_id"),
                       trips.map { $0["trip_id"]! }.filter { stopsOf($0).contains { (seconds($0["departure_time"]!) ?? 0) >= 86_400 } })
        XCTAssertEqual(try listed(["stops", "--predicate", "children.@count >= 2"], column: "stop_id"), ["HBF"])
    }

    func testValuesAreTypedByTheirAttributes() throws {
        let explicit = try rows("stop_times.txt").filter { seconds($0["departure_time"]!).map { (28_800...32_400).contains($0) } ?? false }
        let listedTrips = try listed(["stop_times", "--predicate", "interpolated == NO AND departure_time BETWEEN {'08:00:00', '09:00:00'}"], column: "trip_id")
        XCTAssertEqual(listedTrips, explicit.map { $0["trip_id"]! })
        let stops = try rows("stops.txt")
        XCTAssertEqual(try listed(["stops", "--predicate", "location_type IN {'station', 2}"], column: "stop_id"),
                       stops.filter { ["1", "2"].contains($0["location_type"]!) }.map { $0["stop_id"]! })
        let dates = try rows("calendar_dates.txt")
        XCTAssertEqual(try listed(["calendar_dates", "--predicate", "date == '2026-12-25'"], column: "service_id"),
                       dates.filter { $0["date"] == "20261225" }.map { $0["service_id"]! })
        XCTAssertEqual(try listed(["calendar_dates", "--predicate", "date < 20261225 OR exception_type == 'removed'"], column: "service_id"),
                       dates.filter { $0["date"]! < "20261225" || $0["exception_type"] == "2" }.map { $0["service_id"]! })
        XCTAssertEqual(try listed(["stops", "--predicate", "parent_station == nil AND location_type == 0"], column: "stop_id"),
                       stops.filter { $0["parent_station"]!.isEmpty && ["", "0"].contains($0["location_type"]!) }.map { $0["stop_id"]! },
                       "an empty location_type is 0")
        XCTAssertEqual(try listed(["stops", "--predicate", "NOT parent_station == 'HBF'"], column: "stop_id"),
                       stops.filter { $0["parent_station"] != "HBF" }.map { $0["stop_id"]! }, "a stop without a parent is not HBF's")
    }

    func testAnOptionalRelationshipKeepsItsRowsAlongTheWholePath() throws {
        // parent_station is optional, its feed required: stops without a parent stay.
        let stops = try rows("stops.txt")
        XCTAssertEqual(try listed(["stops", "--sort", "parent_station.feed.name"], column: "stop_id").count, stops.count)
        XCTAssertEqual(try listed(["stops", "--predicate", "parent_station.feed.name == 'lindenau' OR stop_id == 'GOR'"], column: "stop_id"),
                       stops.filter { !$0["parent_station"]!.isEmpty || $0["stop_id"] == "GOR" }.map { $0["stop_id"]! })
    }

    func testPlaceholdersVariablesSortLimitAndOffset() throws {
        XCTAssertEqual(try listed(["stops", "--predicate", "%K == $ID", "--arg", "stop_id", "--var", "ID=GOR"], column: "stop_id"), ["GOR"])
        let t1 = try rows("stop_times.txt").filter { $0["trip_id"] == "T1" }.map { $0["stop_sequence"]! }
        XCTAssertEqual(try listed(["stop-times", "--where", "trip_id=T1", "--sort", "-stop_sequence", "--limit", "2", "--offset", "1"], column: "stop_sequence"),
                       Array(t1.reversed().dropFirst().prefix(2)))
        let stops = try rows("stops.txt")
        XCTAssertEqual(try listed(["stops", "--sort", "stop_name,-stop_id", "--limit", "3"], column: "stop_id"),
                       Array(stops.sorted { ($0["stop_name"]!, $1["stop_id"]!) < ($1["stop_name"]!, $0["stop_id"]!) }.prefix(3)).map { $0["stop_id"]! })
        XCTAssertEqual(try listed(["stops", "--offset", "100"], column: "stop_id"), [], "past the end")
    }

    func testMistakesShowThePredicateWithACaret() throws {
        let unknown = try transit(["list", "stop_times", "--predicate", "trip.rout.route_short_name == %@", "--arg", "1"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stderr, """
            Error: --predicate: trips has no attribute or relationship 'rout'; attributes: route_id, service_id, trip_id, trip_headsign, trip_short_name, direction_id, block_id, shape_id, wheelchair_accessible, bikes_allowed, direction; relationships: route, service, stop_times (to-many), frequencies (to-many), shape (to-many), last_stop, feed
              trip.rout.route_short_name == %@
                   ^
            (see 'transit list --help')

            """)
        let syntax = try transit(["list", "stops", "--predicate", "stop_name BEGINSWITH[x] 'a'"])
        XCTAssertEqual(syntax.status, 64)
        XCTAssertTrue(syntax.stderr.contains("\n  stop_name BEGINSWITH[x] 'a'\n                      ^\n"), syntax.stderr)
        let sort = try transit(["list", "trips", "--sort", "trip_id,stop_times"])
        XCTAssertEqual(sort.status, 64)
        XCTAssertTrue(sort.stderr.hasPrefix("Error: --sort: cannot sort by stop_times"), sort.stderr)
        let missing = try transit(["list", "stops", "--predicate", "stop_id == %@"])
        XCTAssertEqual(missing.status, 64)
        let variable = try transit(["list", "stops", "--var", "X"])
        XCTAssertEqual(variable.status, 64)
        let stray = try transit(["list", "stops", "--arg", "GOR"])
        XCTAssertEqual(stray.status, 64, "an --arg without --predicate is not silently dropped")
        XCTAssertTrue(stray.stderr.contains("give --predicate too"), stray.stderr)
    }

    func testExplainShowsTheSQLItsBoundValuesAndThePlan() throws {
        let run = try transit(["list", "trips", "--predicate", "stop_times.@count > %@ AND route.route_short_name == 'N2'", "--arg", "3", "--explain"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains(#"(SELECT COUNT(*) FROM "stop_times_"#), run.stderr)
        XCTAssertTrue(run.stderr.contains(#""trips.route"."route_short_name" = ?"#), run.stderr)
        XCTAssertTrue(run.stderr.contains("-- arguments: ['lindenau', "), run.stderr)
        XCTAssertTrue(run.stderr.contains(", 3, 'N2']"), run.stderr)
        XCTAssertTrue(run.stderr.contains("SEARCH trips.stop_times USING PRIMARY KEY (trip=?)"), run.stderr)
        // The planner's statistics make it start from the routes (no index on route_short_name,
        // which --explain says) and reach the trips by their route.
        XCTAssertTrue(run.stderr.contains("SEARCH trips USING INDEX trips_by_route (route=?"), run.stderr)
        XCTAssertTrue(run.stderr.contains("warning: the plan reads every row of trips.route (SCAN)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("every row of trips "), run.stderr)
        XCTAssertFalse(run.stderr.contains("every row of trips.stop_times"), run.stderr)
    }
}
