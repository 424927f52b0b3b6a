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
