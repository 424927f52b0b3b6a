import Foundation
import TestSupport
import XCTest

/// An empty answer says why and what to try: on stderr, a sentence under a table and one JSON
/// object (`{"note": …}`) under JSON, which the API sends as its `Transit-Note` header. Each
/// `--at` a note suggests is run again and must answer.
final class EmptyAnswerTests: XCTestCase {
    /// A town in Santiago whose timetable runs every day of 2026 (TownFeed), with a stop no trip serves.
    private static let town = TownFeed(name: "Santiago", latitude: -33.45, longitude: -70.66, timeZone: "America/Santiago")
    private static let folder = TemporaryDirectory()
    nonisolated(unsafe) private static var imported: String?

    private func database() throws -> String {
        if let path = Self.imported { return path }
        let stops = Self.town.feed.files["stops.txt"]! + "LONELY,Lonely,-33.6,-70.8\n"
        let feed = try Self.town.feed.with("stops.txt", stops).write(to: Self.folder, as: "santiago")
        let path = try DemoDatabase.path(feed: feed)
        Self.imported = path
        return path
    }

    /// The JSON note a command wrote on stderr under `--format json`.
    private func note(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let run = try CommandRun.transit(arguments + ["--format", "json", "--db", try database()])
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one note: \(run.stderr)", file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any], run.stderr, file: file, line: line)
    }

    /// The departures `arguments` list, as JSON rows.
    private func departures(_ arguments: [String]) throws -> [[String: Any]] {
        let run = try CommandRun.transit(["departures"] + arguments + ["--format", "json", "--db", try database()])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    func testDeparturesOutsideTheServiceDatesNameThemAndAnAtThatAnswers() throws {
        let note = try note(["departures", "--stop", "W1", "--at", "2027-05-01 08:00"])
        XCTAssertEqual(note["note"] as? String, "outside_service")
        XCTAssertEqual(note["first_date"] as? String, "2026-01-01")
        XCTAssertEqual(note["last_date"] as? String, "2026-12-31")
        let at = try XCTUnwrap(note["at"] as? String)
        XCTAssertTrue(at.hasPrefix("2026-12-"), "a moment in the last week of service: \(at)")
        let answered = try departures(["--stop", "W1", "--at", at])
        XCTAssertEqual(answered.first?["departure"] as? String, note["next"] as? String, "the --at suggested answers, first with the departure named")
        // The table says it in words, after the usual line on stdout.
        let table = try CommandRun.transit(["departures", "--stop", "W1", "--at", "2027-05-01 08:00", "--db", try database()])
        XCTAssertEqual(table.stdout, "No departures from stop W1 between 08:00 and 08:20 on 2027-05-01\n")
        XCTAssertTrue(table.stderr.hasPrefix("The timetable runs from 2026-01-01 to 2026-12-31; 2027-05-01 is outside it: try --at \"\(at)\""), table.stderr)
    }

    func testAnEmptyWindowInServiceNamesTheNextDeparture() throws {
        // The last trips pass W1 at 22:03 (eastbound) and 22:06 (westbound); the first at 06:03.
        let note = try note(["departures", "--stop", "W1", "--at", "2026-03-04 22:10"])
        XCTAssertEqual(note["note"] as? String, "none_in_window")
        XCTAssertEqual(note["next"] as? String, "2026-03-05T06:03:00-03:00")
        let answered = try departures(["--stop", "W1", "--at", try XCTUnwrap(note["at"] as? String), "--within", "0"])
        XCTAssertEqual(answered.map { $0["departure"] as? String }, ["2026-03-05T06:03:00-03:00"])
    }

    func testAStopNoTripServesAndAPointWithoutStopsSaySo() throws {
        XCTAssertEqual(try note(["departures", "--stop", "LONELY", "--at", "2026-03-04 08:00"])["note"] as? String, "not_served")
        XCTAssertEqual(try note(["departures", "--near", "-33.55,-70.66", "--at", "2026-03-04 08:00"])["note"] as? String, "no_stops")
    }

    func testPlanSaysWhetherTheDatesTheWalkOrTheRidesAreWhy() throws {
        let (west, east) = (Self.town.stops[0], Self.town.stops[3])
        let dates = try note(["plan", "W2", "E2", "--at", "2027-05-01 08:00"])
        XCTAssertEqual(dates["note"] as? String, "outside_service")
        XCTAssertEqual(dates["last_date"] as? String, "2026-12-31")
        let plan = try CommandRun.transit(["plan", "W2", "E2", "--at", try XCTUnwrap(dates["at"] as? String), "--format", "json", "--db", try database()])
        XCTAssertFalse(((try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])?["journeys"] as? [Any] ?? []).isEmpty,
                       "the --at suggested plans a journey: \(plan.stdout)")
        let rides = try note(["plan", "W2", "E2", "--at", "2026-03-04 08:00", "--max-rides", "0"])
        XCTAssertEqual(rides["note"] as? String, "max_rides")
        XCTAssertEqual(rides["rides"] as? Int, 1)
        // 5 km south of the town: the nearest stop is the walk's reason, with its distance.
        let far = "\(west.latitude - 0.045),\(west.longitude)"
        let walk = try note(["plan", far, east.point, "--at", "2026-03-04 08:00"])
        XCTAssertEqual(walk["note"] as? String, "no_stop_within_walk")
        XCTAssertEqual(walk["end"] as? String, "from")
        let nearest = try XCTUnwrap(walk["nearest_m"] as? Double)
        let radians = Double.pi / 180
        let expected = Self.town.stops.map { stop -> Double in
            // The haversine from the point to each of the town's stops (LONELY is 20 km away).
            let dLat = (stop.latitude - (west.latitude - 0.045)) * radians, dLon = (stop.longitude - west.longitude) * radians
            let h = sin(dLat / 2) * sin(dLat / 2) + cos(stop.latitude * radians) * cos((west.latitude - 0.045) * radians) * sin(dLon / 2) * sin(dLon / 2)
            return 2 * 6_371_008.8 * asin(h.squareRoot())
        }.min()!
        XCTAssertEqual(nearest, expected, accuracy: 1, "the stop nearest the point, about 5 km away")
        XCTAssertEqual(try note(["plan", "W2", "LONELY", "--at", "2026-03-04 08:00"])["note"] as? String, "no_journey")
        XCTAssertEqual(try note(["reach", "W2", "--at", "2027-05-01 08:00"])["note"] as? String, "outside_service")
    }

    func testTheAPISendsTheNoteAsAHeader() throws {
        let db = try database()
        let server = try RunningServer(database: db, arguments: ["--quiet"])
        defer { _ = server.stop() }
        let answer = try server.request("/api/departures?stop=W1&at=2027-05-01+08:00")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.text, "[]\n")
        let cli = try CommandRun.transit(["departures", "--stop", "W1", "--at", "2027-05-01 08:00", "--format", "json", "--db", db])
        XCTAssertEqual(answer.header("Transit-Note").map { $0 + "\n" }, cli.stderr)
        let explained = try XCTUnwrap(try server.request("/api/plan?from=W2&to=E2&at=2027-05-01+08:00&explain=1").json() as? [String: Any])
        XCTAssertTrue((explained["notes"] as? [String] ?? []).contains { $0.hasPrefix("{\"note\": \"outside_service\"") }, "\(explained["notes"] ?? "")")
    }
}
