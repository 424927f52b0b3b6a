import Foundation
import TestSupport
import XCTest

/// A stop's name works wherever a stop id is asked (`plan`/`reach` FROM and TO, `departures`,
/// `routes` and `alerts --stop`, the board): when no stop has the words as its id, the stop
/// called so is used and said on stderr; a station is chosen over its platforms; twins of one
/// name across a street are one place; names of stops far apart are exit 64 listing them.
final class StopByNameTests: XCTestCase {
    private func json(_ arguments: [String], db: String, file: StaticString = #filePath, line: UInt = #line) throws -> (Any, String) {
        let run = try CommandRun.transit(arguments + ["--format", "json", "--db", db])
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)", file: file, line: line)
        return (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)), run.stderr)
    }

    func testANameIsTheStationItNamesInDeparturesAndPlan() throws {
        let db = try DemoDatabase.path()
        let byID = try json(["departures", "--stop", "HBF", "--at", "2026-03-02 07:55", "--within", "60"], db: db)
        let byName = try json(["departures", "--stop", "hauptbahnhof", "--at", "2026-03-02 07:55", "--within", "60"], db: db)
        XCTAssertEqual(byName.0 as? NSObject, byID.0 as? NSObject, "the station's departures, its platforms included")
        XCTAssertEqual(byName.1, "{\"note\": \"stop_by_name\", \"about\": \"--stop\", \"text\": \"hauptbahnhof\", \"stop_ids\": [\"HBF\"]}\n")
        let plan = try json(["plan", "Hauptbahnhof", "grosse strasse", "--at", "2026-03-02 07:55"], db: db)
        XCTAssertEqual(plan.0 as? NSObject, try json(["plan", "HBF", "STR", "--at", "2026-03-02 07:55"], db: db).0 as? NSObject)
        XCTAssertEqual(plan.1.split(separator: "\n").count, 2, "both ends said: \(plan.1)")
        let table = try CommandRun.transit(["reach", "tierpark", "--at", "2026-03-02 07:55", "--db", db])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stderr.hasPrefix("FROM: 'tierpark' is no stop_id; read as the stop Tierpark (stop_id ZOO)"), table.stderr)
    }

    /// Two stops of one name across a street are one place; two of one name in different towns are
    /// not, and the message lists both with their positions.
    func testTwinsAreOnePlaceAndDistantNamesakesAreListed() throws {
        let folder = TemporaryDirectory()
        var feed = FeedFixture()
        feed.files["stops.txt"] = """
            stop_id,stop_name,stop_lat,stop_lon
            W_N,Westlake Ave & 9th Ave,47.6200,-122.3380
            W_S,Westlake Ave & 9th Ave,47.6198,-122.3382
            M_1,Main St,47.6000,-122.3000
            M_2,Main St,47.7000,-122.2000

            """
        feed.files["stop_times.txt"] = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T,08:00:00,08:00:00,W_N,1
            T,08:10:00,08:10:00,M_1,2
            T,08:20:00,08:20:00,W_S,3
            T,08:30:00,08:30:00,M_2,4

            """
        let db = try DemoDatabase.path(feed: try feed.write(to: folder))
        let twins = try json(["departures", "--stop", "westlake ave & 9th", "--at", "2026-03-02 07:55", "--within", "60"], db: db)
        XCTAssertEqual((twins.0 as? [[String: Any]])?.map { $0["stop_id"] as? String }, ["W_N", "W_S"], "both sides' departures")
        XCTAssertTrue(twins.1.contains("\"stop_ids\": [\"W_N\", \"W_S\"]"), twins.1)
        let run = try CommandRun.transit(["departures", "--stop", "Main St", "--at", "2026-03-02 07:55", "--db", db])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("M_1 Main St at 47.6,-122.3"), run.stderr)
        XCTAssertTrue(run.stderr.contains("M_2 Main St at 47.7,-122.2"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        let unknown = try CommandRun.transit(["plan", "nowhere at all", "M_1", "--at", "2026-03-02 07:55", "--db", db])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("no stop has stop_id 'nowhere at all' or a name like it"), unknown.stderr)
    }
}
