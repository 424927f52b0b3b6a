import Foundation
import TestSupport
import XCTest

/// A journey's answer is one a client can show as it is: every leg names both ends (stop name,
/// platform, position; a point end its position), rides their route's colours and headsign;
/// `reach` rows carry their feed, name and position; and the table's minutes add up. Checked
/// against the demo feed's own stops.txt and trips.txt, read here.
final class JourneyAnswerTests: XCTestCase {
    /// Rows of a CSV file of the demo feed, fields split as RFC 4180 has it (quotes, doubled quotes).
    private func rows(_ file: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: Paths.demoFeed + "/" + file, encoding: .utf8).replacingOccurrences(of: "\u{FEFF}", with: "")
        var lines = text.split(whereSeparator: \.isNewline)
        let header = Self.csvFields(String(lines.removeFirst()))
        return lines.map { Dictionary(uniqueKeysWithValues: zip(header, Self.csvFields(String($0)))) }
    }

    private func json(_ arguments: [String]) throws -> [String: Any] {
        let run = try CommandRun.transit(arguments + ["--format", "json", "--db", try DemoDatabase.path()])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    func testEveryLegNamesAndPlacesBothEndsAsTheFeedHasThem() throws {
        let stops = Dictionary(uniqueKeysWithValues: try rows("stops.txt").map { ($0["stop_id"]!, $0) })
        let headsigns = Dictionary(uniqueKeysWithValues: try rows("trips.txt").map { ($0["trip_id"]!, $0["trip_headsign"] ?? "") })
        let point = (52.5249, 13.3692)
        for arguments in [["HBF", "STR", "--at", "2026-03-02 07:55"], ["\(point.0),\(point.1)", "STR", "--at", "2026-03-02 07:55", "--max-walk", "1000"]] {
            let journeys = try XCTUnwrap(try json(["plan"] + arguments)["journeys"] as? [[String: Any]])
            XCTAssertFalse(journeys.isEmpty, "\(arguments)")
            for leg in journeys.flatMap({ $0["legs"] as? [[String: Any]] ?? [] }) {
                for end in ["from", "to"] {
                    if let id = leg["\(end)_stop_id"] as? String {
                        let stop = try XCTUnwrap(stops[id])
                        XCTAssertEqual(leg["\(end)_name"] as? String, stop["stop_name"])
                        XCTAssertEqual(leg["\(end)_lat"] as? Double, Double(stop["stop_lat"]!))
                        XCTAssertEqual(leg["\(end)_lon"] as? Double, Double(stop["stop_lon"]!))
                        XCTAssertEqual(leg["\(end)_platform"] as? String, stop["platform_code"].flatMap { $0.isEmpty ? nil : $0 })
                    } else {
                        // A point end: the point typed.
                        XCTAssertEqual(leg["\(end)_lat"] as? Double, point.0, "\(leg)")
                        XCTAssertEqual(leg["\(end)_lon"] as? Double, point.1, "\(leg)")
                    }
                }
                XCTAssertNotNil(leg["departure"] as? String)
                XCTAssertNotNil(leg["arrival"] as? String)
                if leg["mode"] as? String == "ride" {
                    let headsign = try XCTUnwrap(headsigns[try XCTUnwrap(leg["trip_id"] as? String)])
                    XCTAssertEqual(leg["headsign"] as? String, headsign.isEmpty ? nil : headsign)
                    XCTAssertTrue(leg.keys.contains("route_color"))
                }
            }
        }
    }

    func testReachRowsCarryFeedNameAndPosition() throws {
        let stops = Dictionary(uniqueKeysWithValues: try rows("stops.txt").map { ($0["stop_id"]!, $0) })
        let reached = try XCTUnwrap(try json(["reach", "HBF", "--at", "2026-03-02 07:55", "--within", "60"])["stops"] as? [[String: Any]])
        XCTAssertGreaterThan(reached.count, 3)
        for row in reached {
            let stop = try XCTUnwrap(stops[try XCTUnwrap(row["stop_id"] as? String)])
            XCTAssertEqual(row["feed"] as? String, "lindenau")
            XCTAssertEqual(row["name"] as? String, stop["stop_name"])
            XCTAssertEqual(row["lat"] as? Double, Double(stop["stop_lat"]!))
            XCTAssertEqual(row["lon"] as? Double, Double(stop["stop_lon"]!))
        }
    }

    /// The table's durations are the differences of the clock times it shows.
    func testTheTablesMinutesAddUp() throws {
        let run = try CommandRun.transit(["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--max-walk", "1000", "--db", try DemoDatabase.path()])
        XCTAssertEqual(run.status, 0, run.stderr)
        func minutes(_ clock: Substring) -> Int { Int(clock.prefix(2))! * 60 + Int(clock.suffix(2))! }
        var checked = 0
        for line in run.stdout.split(separator: "\n") where line.hasPrefix("Journey ") {
            // "Journey 1: 08:00 → 08:40, 40 min, 1 ride"
            let parts = line.split(separator: " ")
            XCTAssertEqual(minutes(parts[4].dropLast()) - minutes(parts[2]), Int(parts[5])!, String(line))
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0, run.stdout)
    }

    /// `--format csv`: one row per leg with the JSON leg's ends, times and trip; `reach` one row
    /// per stop with the JSON row's fields.
    func testCSVHasARowPerLegAndPerStopReached() throws {
        let db = try DemoDatabase.path()
        let question = ["plan", "52.5249,13.3692", "STR", "--at", "2026-03-02 07:55"]
        let journeys = try json(question)["journeys"] as? [[String: Any]] ?? []
        let legs = journeys.enumerated().flatMap { index, journey in
            (journey["legs"] as? [[String: Any]] ?? []).enumerated().map { (index + 1, $0 + 1, $1) }
        }
        XCTAssertFalse(legs.isEmpty)
        let run = try CommandRun.transit(question + ["--format", "csv", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        var lines = run.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        XCTAssertEqual(Array(header.prefix(5)), ["journey", "leg", "mode", "departure", "arrival"])
        XCTAssertEqual(lines.count, legs.count)
        for (line, (journey, position, leg)) in zip(lines, legs) {
            let row = Dictionary(uniqueKeysWithValues: zip(header, Self.csvFields(line)))
            XCTAssertEqual(row["journey"], String(journey))
            XCTAssertEqual(row["leg"], String(position))
            for field in ["mode", "departure", "arrival", "from_stop_id", "to_stop_id", "trip_id"] {
                XCTAssertEqual(row[field] ?? "", (leg[field] as? String) ?? "", "\(field) of journey \(journey) leg \(position)")
            }
        }
        let reached = try XCTUnwrap(try json(["reach", "HBF", "--at", "2026-03-02 07:55", "--within", "30"])["stops"] as? [[String: Any]])
        let reach = try CommandRun.transit(["reach", "HBF", "--at", "2026-03-02 07:55", "--within", "30", "--format", "csv", "--db", db])
        let rows = reach.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(rows.first, "feed,stop_id,name,lat,lon,arrival,minutes,rides")
        XCTAssertEqual(rows.dropFirst().map { Self.csvFields($0)[1] }, reached.compactMap { $0["stop_id"] as? String })
    }

    /// `--stops`: every ride lists its calls from boarding to alighting, at the times the feed's
    /// stop_times.txt gives its trip there (read here), and the table lists the stops passed.
    func testStopsListsEveryCallOfEachRideAtTheFeedsTimes() throws {
        let times = Dictionary(try rows("stop_times.txt").map { ("\($0["trip_id"]!) \($0["stop_id"]!)", ($0["arrival_time"]!, $0["departure_time"]!)) },
                               uniquingKeysWith: { first, _ in first })
        let answer = try json(["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--stops"])
        let rides = (answer["journeys"] as? [[String: Any]] ?? []).flatMap { $0["legs"] as? [[String: Any]] ?? [] }.filter { $0["mode"] as? String == "ride" }
        XCTAssertFalse(rides.isEmpty)
        for ride in rides {
            let calls = try XCTUnwrap(ride["stops"] as? [[String: Any]])
            XCTAssertGreaterThanOrEqual(calls.count, 2)
            XCTAssertEqual(calls.first?["stop_id"] as? String, ride["from_stop_id"] as? String)
            XCTAssertEqual(calls.last?["stop_id"] as? String, ride["to_stop_id"] as? String)
            let trip = try XCTUnwrap(ride["trip_id"] as? String)
            for call in calls {
                let feed = try XCTUnwrap(times["\(trip) \(call["stop_id"] as? String ?? "")"], "\(trip) calls at \(call)")
                let (arrival, departure) = (try XCTUnwrap(call["arrival"] as? String), try XCTUnwrap(call["departure"] as? String))
                if feed.0.isEmpty || feed.1.isEmpty {
                    // A time the feed leaves empty was interpolated at import: within the ride.
                    XCTAssertTrue(ride["departure"] as? String ?? "" <= arrival && departure <= ride["arrival"] as? String ?? "", "\(trip): \(call)")
                } else {
                    // GTFS allows one digit for hours before 10 ("9:00:00").
                    let padded = { (time: String) in time.count == 7 ? "0" + time : time }
                    XCTAssertEqual(String(arrival.dropFirst(11).prefix(8)), padded(feed.0), "\(trip)")
                    XCTAssertEqual(String(departure.dropFirst(11).prefix(8)), padded(feed.1), "\(trip)")
                }
            }
        }
        let plain = try json(["plan", "HBF", "STR", "--at", "2026-03-02 07:55"])
        XCTAssertNil(((plain["journeys"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first { $0["mode"] as? String == "ride" }?["stops"])
        let table = try CommandRun.transit(["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--stops", "--db", try DemoDatabase.path()])
        let passed = rides.flatMap { (($0["stops"] as? [[String: Any]]) ?? []).dropFirst().dropLast() }.compactMap { $0["name"] as? String }
        for name in passed { XCTAssertTrue(table.stdout.contains(name), "\(name) passed: \(table.stdout)") }
        // A batch lists them too; a format that cannot is refused, not silently ignored.
        let folder = TemporaryDirectory()
        let questions = try folder.write("q.csv", "from,to,at\nHBF,STR,2026-03-02 07:55\n")
        let batch = try CommandRun.transit(["plan", "--input", questions, "--stops", "--format", "json", "--db", try DemoDatabase.path()])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertTrue(batch.stdout.contains("\"stops\": [{\"stop_id\""), batch.stdout)
        let csv = try CommandRun.transit(["plan", "HBF", "STR", "--at", "2026-03-02 07:55", "--stops", "--format", "csv", "--db", try DemoDatabase.path()])
        XCTAssertEqual(csv.status, 64)
        XCTAssertTrue(csv.stderr.contains("--stops lists the calls in table or json"), csv.stderr)
    }

    /// The fields of one CSV line (RFC 4180 quotes and doubled quotes).
    private static func csvFields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false, previous: Character = " "
        for character in line {
            if character == "\"" {
                if quoted && previous == "\"" { field.append("\"") }
                quoted.toggle()
            } else if character == "," && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
            previous = character
        }
        return fields + [field]
    }
}
